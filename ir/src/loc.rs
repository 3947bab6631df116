//! Locations, and the source positions diagnostics report.

use crate::*;
use mlir_sys::*;

/// A source position: file, line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct SrcLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl SrcLoc {
    /// Line `line`, column `col` (both 1-based) of `file`.
    pub fn new(file: impl Into<String>, line: u32, col: u32) -> SrcLoc {
        SrcLoc { file: file.into(), line, col }
    }
}

impl std::fmt::Display for SrcLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

impl<'a> Loc<'a> {
    /// The first file:line:col inside this location, looking through names, fusions and call
    /// sites (the callee side), as a user would want it reported.
    pub fn src(self) -> Option<SrcLoc> {
        // SAFETY: the location is live for `'a` (locations are uniqued in the context); each getter runs only
        // after its IsA check, and `locs` has room for the `n` locations that
        // mlirLocationFusedGetLocations writes.
        unsafe {
            let l = self.raw;
            if mlirLocationIsAFileLineColRange(l) {
                return Some(SrcLoc {
                    file: from_sref(mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(l))),
                    line: mlirLocationFileLineColRangeGetStartLine(l) as u32,
                    col: mlirLocationFileLineColRangeGetStartColumn(l) as u32,
                });
            }
            if mlirLocationIsAName(l) {
                return Loc::wrap(mlirLocationNameGetChildLoc(l)).src();
            }
            if mlirLocationIsACallSite(l) {
                return Loc::wrap(mlirLocationCallSiteGetCallee(l)).src().or_else(|| Loc::wrap(mlirLocationCallSiteGetCaller(l)).src());
            }
            if mlirLocationIsAFused(l) {
                let n = mlirLocationFusedGetNumLocations(l);
                let mut locs = vec![MlirLocation { ptr: std::ptr::null() }; n as usize];
                mlirLocationFusedGetLocations(l, locs.as_mut_ptr());
                return locs.into_iter().find_map(|x| Loc::wrap(x).src());
            }
            None
        }
    }

    /// The name of a name location (`loc("row"(...))`: the frontend names the op that defines a
    /// source variable so).
    pub fn name(self) -> Option<String> {
        // SAFETY: the location is live for `'a`; the name is read only after the IsA check, and
        // from_sref copies the identifier the context holds.
        unsafe { mlirLocationIsAName(self.raw).then(|| from_sref(mlirIdentifierStr(mlirLocationNameGetName(self.raw)))) }
    }

    /// Like [`Loc::src`], but through call sites to the outermost caller: where an inlined
    /// `fn`'s ops were called from (the statement that runs them), not the `fn`'s body.
    pub fn site(self) -> Option<SrcLoc> {
        // SAFETY: as in `src`: a live location, getters after their IsA checks, room for `n` locations.
        unsafe {
            let l = self.raw;
            if mlirLocationIsACallSite(l) {
                return Loc::wrap(mlirLocationCallSiteGetCaller(l)).site().or_else(|| Loc::wrap(mlirLocationCallSiteGetCallee(l)).site());
            }
            if mlirLocationIsAName(l) {
                return Loc::wrap(mlirLocationNameGetChildLoc(l)).site();
            }
            if mlirLocationIsAFused(l) {
                let n = mlirLocationFusedGetNumLocations(l);
                let mut locs = vec![MlirLocation { ptr: std::ptr::null() }; n as usize];
                mlirLocationFusedGetLocations(l, locs.as_mut_ptr());
                return locs.into_iter().find_map(|x| Loc::wrap(x).site());
            }
        }
        self.src()
    }
}

impl std::fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: the location is live for `'a`; the callback only appends to the String behind `d`, which
        // `print_with` keeps alive for the call.
        f.write_str(&print_with(|cb, d| unsafe { mlirLocationPrint(self.raw, cb, d) }))
    }
}
