func.func @len(%a: !geo.point<f32>, %b: !geo.point<f32>) -> f32 {
  %d = "geo.dist"(%a, %b) : (!geo.point<f32>, !geo.point<f32>) -> f32
  return %d : f32
}
// -----
func.func @bad(%a: !geo.point<f32>, %b: !geo.point<f64>) -> f32 {
  %d = "geo.dist"(%a, %b) : (!geo.point<f32>, !geo.point<f64>) -> f32
  return %d : f32
}
// -----
func.func @badtype(%a: !geo.point<i8>) {
  return
}
