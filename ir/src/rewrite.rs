//! Erasing and replacing ops: the only way to destroy IR from safe code.
//!
//! An erased op is unlinked from its block at once and its operands dropped (so it keeps no
//! value alive), but destroyed only when the rewriter is dropped. Handles to it, and to the ops
//! inside it, stay valid until then; erasing it twice is a no-op. A value of an erased op that
//! was used again after the erase (a bug) would dangle once the op is destroyed: such an op is
//! kept (leaked) instead, and [`Rewriter::finish`] reports it, so the bug is an error, never a
//! use after free. A pass gets its rewriter from
//! the pass wrapper, which drops it after the pass body returns, when no handle of the body can
//! remain (they are branded by the body's lifetime).

use crate::*;
use mlir_sys::*;
use std::cell::RefCell;

/// Erases ops on behalf of one pass run (or any scope that outlives every handle it erases).
#[derive(Default)]
pub struct Rewriter<'a> {
    erased: RefCell<Vec<Op<'a>>>,
    /// The op a pass runs on: MLIR uses it after the pass, so neither it nor an op around it
    /// may be erased.
    anchor: Option<Op<'a>>,
}

impl<'a> Rewriter<'a> {
    /// A rewriter whose erased ops are destroyed when it is dropped.
    ///
    /// # Safety
    /// No handle to an op erased through it (or nested in one) may be used after it is dropped:
    /// create it where it outlives every such handle, as the pass wrapper does.
    pub unsafe fn new() -> Rewriter<'a> {
        Rewriter { erased: RefCell::new(Vec::new()), anchor: None }
    }

    /// A rewriter for a pass that runs on `anchor`: erasing `anchor`, or an op around it, panics
    /// (MLIR reads the anchor after the pass).
    ///
    /// # Safety
    /// As [`Rewriter::new`].
    pub unsafe fn for_pass(anchor: Op<'a>) -> Rewriter<'a> {
        Rewriter { erased: RefCell::new(Vec::new()), anchor: Some(anchor) }
    }

    /// Unlinks `op` and drops its operands; it is destroyed with the rewriter. The op's results
    /// must have no uses left (replace them first); a second erase of the same op does nothing.
    pub fn erase(&self, op: Op<'a>) {
        if self.erased.borrow().contains(&op) {
            return;
        }
        // An op in no block is an OwnedOp's (a clone not yet inserted): erasing it here and
        // inserting it later would give MLIR an op it destroys.
        assert!(
            op.block().is_some(),
            "phobos bug: erasing '{}', which is in no block (drop an op that was never inserted instead)",
            op.name()
        );
        if let Some(a) = self.anchor {
            let around = std::iter::successors(Some(a), |o| o.parent()).any(|o| o == op);
            assert!(!around, "phobos bug: a pass erased '{}', the op it runs on or one around it", op.name());
        }
        assert!(op.results().iter().all(|r| r.users().is_empty()), "phobos bug: erasing '{}' while its results are used", op.name());
        // SAFETY: `op` is alive (not destroyed before the rewriter drops); unlinking it and
        // emptying its operand lists (nested ops included) leaves no use of any value in it.
        unsafe {
            if op.block().is_some() {
                mlirOperationRemoveFromParent(op.to_raw());
            }
            for o in op.walk() {
                mlirOperationSetOperands(o.to_raw(), 0, std::ptr::null());
            }
        }
        self.erased.borrow_mut().push(op);
    }

    /// Replaces every use of `op`'s results with `vals` (one per result) and erases `op`.
    pub fn replace(&self, op: Op<'a>, vals: &[Val<'a>]) {
        assert_eq!(
            vals.len(),
            op.num_results(),
            "phobos bug: '{}' has {} results, replaced by {}",
            op.name(),
            op.num_results(),
            vals.len()
        );
        for (i, v) in vals.iter().enumerate() {
            op.result(i).replace_all_uses_with(*v);
        }
        self.erase(op);
    }
}

impl Rewriter<'_> {
    /// Destroys what was erased; an error names an erased op whose value was used again after
    /// the erase (that op is kept, so the use does not dangle).
    pub fn finish(mut self) -> Result<(), String> {
        self.destroy()
    }

    fn destroy(&mut self) -> Result<(), String> {
        let mut used_again = None;
        for op in self.erased.get_mut().drain(..) {
            // Erasing dropped every operand inside `op`: a use of one of its values now is new.
            let used = op.walk().iter().any(|o| o.results().iter().any(|r| !r.users().is_empty()));
            if used {
                used_again.get_or_insert_with(|| format!("phobos bug: a value of '{}' was used after the op was erased", op.name()));
                continue;
            }
            // SAFETY: the op was unlinked and its operands dropped when erased, and no value of
            // it is used; `new`'s contract says no handle to it is used from here on.
            unsafe { mlirOperationDestroy(op.to_raw()) }
        }
        used_again.map_or(Ok(()), Err)
    }
}

impl Drop for Rewriter<'_> {
    fn drop(&mut self) {
        // Not finished: an op used again is kept all the same (the error has no one to go to).
        let _ = self.destroy();
    }
}
