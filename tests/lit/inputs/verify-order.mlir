// Each chunk: an error nothing expects, and an expectation nothing meets. mlir-opt reports
// every chunk's unexpected errors first, then the expectations not met.
// expected-error@+2 {{never said}}
func.func @f() {
  %x = "arith.constant"() {value = 100} : () -> i1
  return
}
// -----
// expected-warning@+2 {{also never said}}
func.func @g() {
  %y = "arith.constant"() {value = 7} : () -> i1
  return
}
