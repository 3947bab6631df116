//! A module the caller owns: parsed from text or adopted, destroyed on drop. Handles into it
//! borrow it, so none outlives it.

use crate::*;
use mlir_sys::*;
use std::marker::PhantomData;

/// A top-level `builtin.module`, owned; destroyed on drop. `'c` is its context's lifetime.
pub struct OwnedModule<'c> {
    raw: MlirOperation,
    _ctx: PhantomData<&'c melior::Context>,
}

impl<'c> OwnedModule<'c> {
    /// Parses MLIR text; locations carry `filename`. Top-level ops other than one
    /// `builtin.module` are wrapped into a module, as mlir-opt does. None on a parse error (the
    /// context's diagnostic handler has it).
    pub fn parse(ctx: &'c melior::Context, text: &str, filename: &str) -> Option<OwnedModule<'c>> {
        // SAFETY: the context is alive for 'c; the parsed op, when not null, is owned by us.
        let raw = unsafe { mlirOperationCreateParse(ctx.to_raw(), sref(text), sref(filename)) };
        if raw.ptr.is_null() {
            return None;
        }
        // SAFETY: `raw` is a detached op nobody else owns.
        Some(unsafe { Self::adopt(raw) })
    }

    /// Parses MLIR bytecode (`ML\xefR...`, what [`OwnedModule::bytecode`] writes), as
    /// [`OwnedModule::parse`] parses text.
    pub fn parse_bytecode(ctx: &'c melior::Context, bytes: &[u8], filename: &str) -> Option<OwnedModule<'c>> {
        let data = MlirStringRef { data: bytes.as_ptr() as *const _, length: bytes.len() };
        // SAFETY: the context is alive for 'c and `bytes` for the call (the parser copies what it keeps);
        // the parsed op, when not null, is owned by us.
        let raw = unsafe { mlirOperationCreateParse(ctx.to_raw(), data, sref(filename)) };
        if raw.ptr.is_null() {
            return None;
        }
        // SAFETY: `raw` is a detached op nobody else owns.
        Some(unsafe { Self::adopt(raw) })
    }

    /// The module as MLIR bytecode (mlir-opt's `--emit-bytecode`).
    pub fn bytecode(&self) -> Vec<u8> {
        self.op().bytecode()
    }

    /// Takes ownership of a detached op: a `builtin.module`, or another op that is wrapped into
    /// a new module.
    ///
    /// # Safety
    /// `raw` must be a detached operation that nothing else owns, of a context alive for `'c`.
    pub unsafe fn adopt(raw: MlirOperation) -> OwnedModule<'c> {
        let op = Op::wrap(raw);
        if op.is("builtin.module") {
            return OwnedModule { raw, _ctx: PhantomData };
        }
        // SAFETY: `raw` is detached; the new module takes it over.
        unsafe {
            let m = mlirModuleCreateEmpty(mlirOperationGetLocation(raw));
            mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), raw);
            OwnedModule { raw: mlirModuleGetOperation(m), _ctx: PhantomData }
        }
    }

    /// The module op; handles reached from it borrow this module.
    pub fn op(&self) -> Op<'_> {
        Op::wrap(self.raw)
    }

    /// A deep copy, owned separately (same locations).
    pub fn clone_module(&self) -> OwnedModule<'c> {
        // SAFETY: the clone is a new detached op that only we own.
        unsafe { Self::adopt(mlirOperationClone(self.raw)) }
    }
}

impl Op<'_> {
    /// The op as MLIR bytecode.
    pub fn bytecode(self) -> Vec<u8> {
        let mut out = Vec::new();
        // SAFETY: the op is live; the callback only appends to the Vec behind the pointer, which lives and
        // is not otherwise borrowed for the call.
        unsafe { mlirOperationWriteBytecode(self.raw, Some(append_bytes), &mut out as *mut Vec<u8> as *mut std::ffi::c_void) };
        out
    }
}

unsafe extern "C" fn append_bytes(s: MlirStringRef, data: *mut std::ffi::c_void) {
    // SAFETY: `data` is the `&mut Vec<u8>` that `bytecode` passes with this callback, alive and not
    // otherwise borrowed while MLIR writes.
    let out = unsafe { &mut *(data as *mut Vec<u8>) };
    if !s.data.is_null() && s.length > 0 {
        // SAFETY: MLIR hands the callback `length` readable bytes it holds for the call.
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) });
    }
}

impl Drop for OwnedModule<'_> {
    fn drop(&mut self) {
        // SAFETY: we own the module; no handle into it outlives `self` (they borrow it).
        unsafe { mlirOperationDestroy(self.raw) }
    }
}
