func.func @select(%c: i1, %a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = scf.if %c -> i32 {
    %x = arith.addi %a, %c0 : i32
    scf.yield %x : i32
  } else {
    %y = arith.muli %b, %b : i32
    scf.yield %y : i32
  }
  return %r : i32
}
func.func @dense() -> tensor<4xi32> {
  %t = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  return %t : tensor<4xi32>
}
