module { gpu.module @m { gpu.func @f() { gpu.return } } }
