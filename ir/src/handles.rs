//! The handles: one branded, copyable wrapper per C-API handle kind, and the string helpers the
//! C API needs.

use mlir_sys::*;
use std::{ffi::c_void, marker::PhantomData};

/// Converts a Rust string into a C-API string reference (borrowed, not NUL-terminated).
pub fn sref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

/// Copies a C-API string reference into a Rust string.
///
/// # Safety
/// `s` is null, empty, or points at `s.length` readable bytes for the call (a ref MLIR returned
/// or passed to a callback).
pub unsafe fn from_sref(s: MlirStringRef) -> String {
    if s.data.is_null() || s.length == 0 {
        return String::new();
    }
    // SAFETY: the caller's contract: `data` points at `length` readable bytes (null and empty refs
    // returned above).
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe extern "C" fn append_to_string(s: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut String` that `print_with` passes along with this callback, and MLIR
    // calls the callback only during `f`, while that String is alive and not otherwise borrowed.
    let out = unsafe { &mut *(data as *mut String) };
    // SAFETY: MLIR hands the callback a ref to bytes it holds for the call.
    out.push_str(&unsafe { from_sref(s) });
}

/// Runs a C-API printer into a String.
pub fn print_with(f: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    f(Some(append_to_string), &mut out as *mut String as *mut c_void);
    out
}

macro_rules! handle {
    ($name:ident, $raw:ty) => {
        #[derive(Clone, Copy)]
        #[doc = concat!("A `", stringify!($raw), "` handle, branded by the lifetime `'a` of the IR it points into, so it cannot outlive it.")]
        pub struct $name<'a> {
            pub(crate) raw: $raw,
            _brand: PhantomData<&'a ()>,
        }
        impl<'a> $name<'a> {
            pub(crate) fn wrap(raw: $raw) -> Self {
                $name { raw, _brand: PhantomData }
            }
            /// A handle from a raw C-API handle.
            ///
            /// # Safety
            /// `raw` must point into IR (or a context) that stays alive, and is not erased, for `'a`;
            /// not null: every method calls MLIR on it.
            pub unsafe fn from_raw(raw: $raw) -> Self {
                Self::wrap(raw)
            }
            /// The raw C-API handle (for the glue code that talks to MLIR directly).
            pub fn to_raw(self) -> $raw {
                self.raw
            }
            /// True for the null handle.
            pub fn is_null(self) -> bool {
                self.raw.ptr.is_null()
            }
        }
        impl PartialEq for $name<'_> {
            fn eq(&self, other: &Self) -> bool {
                self.raw.ptr == other.raw.ptr
            }
        }
        impl Eq for $name<'_> {}
        impl std::hash::Hash for $name<'_> {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                (self.raw.ptr as usize).hash(h)
            }
        }
        impl std::fmt::Debug for $name<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({:p})", stringify!($name), self.raw.ptr)
            }
        }
    };
}

handle!(Ctx, MlirContext);
handle!(Op, MlirOperation);
handle!(Val, MlirValue);
handle!(Ty, MlirType);
handle!(Attr, MlirAttribute);
handle!(Blk, MlirBlock);
handle!(Reg, MlirRegion);
handle!(Loc, MlirLocation);
