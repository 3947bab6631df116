// One expected error that comes, and one error nothing expects.
// expected-error@+2 {{failed to verify}}
func.func @f() {
  %x = "arith.constant"() {value = 100} : () -> i1
  return
}
// -----
func.func @g() {
  %y = "arith.constant"() {value = 7} : () -> i1
  return
}
