func.func @f() {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
scf.yield
}
return
}
