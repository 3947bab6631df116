func.func @f() attributes {a = array<index: 0>} { return }
