// A small dialect defined in IRDL, for --irdl-file.
irdl.dialect @geo {
  irdl.type @point {
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %f = irdl.any_of(%f32, %f64)
    irdl.parameters(coord: %f)
  }
  irdl.operation @dist {
    %t = irdl.any
    %p = irdl.parametric @geo::@point<%t>
    irdl.operands(a: %p, b: %p)
    irdl.results(d: %t)
  }
}
