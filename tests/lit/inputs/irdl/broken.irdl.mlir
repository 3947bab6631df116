irdl.dialect @oops {
  irdl.operation @x {
    %0 = irdl.is
  }
}
