//! NVIDIA's libdevice, the bitcode library that `math.*` (and `arith.maxnumf`, `remf`) lower to
//! (`__nv_expf`, ...). It is linked by default whenever a kernel calls it: `--libdevice` or
//! `PHOBOS_LIBDEVICE` names one, else the copy carried inside this binary (embedded at build
//! time from `third_party/install.sh`'s) is written once to the cache directory and linked from
//! there. A PTX that still declares a function nothing defines is never returned
//! ([`crate::ptx::unresolved`]).

use std::path::PathBuf;

/// The libdevice this binary carries (empty when it was built without one).
const EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libdevice.10.bc"));

/// Makes [`default_path`] the libdevice every pipeline links unless told otherwise (the tools
/// do it first thing; every session does too).
pub fn install_default() {
    phobos_passes::pipelines::set_default_libdevice(default_path());
}

/// The libdevice to link: `PHOBOS_LIBDEVICE`, else the embedded one on disk. None when there is
/// neither, or `PHOBOS_LIBDEVICE` is empty (a kernel calling a math function then fails with
/// the unresolved name).
pub fn default_path() -> Option<String> {
    static PATH: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    // An empty PHOBOS_LIBDEVICE links none.
    PATH.get_or_init(|| match crate::env::get("PHOBOS_LIBDEVICE") {
        Some(p) if p.is_empty() => None,
        Some(p) => Some(p),
        None => materialize(),
    })
    .clone()
}

/// Writes the embedded libdevice to the cache directory (or the temporary one), once per
/// build: `libdevice-BUILD_ID.bc`, renamed into place so concurrent processes never read half
/// a file.
fn materialize() -> Option<String> {
    if EMBEDDED.is_empty() {
        return None;
    }
    let name = format!("libdevice-{}.bc", crate::cache::BUILD_ID);
    let dirs = [crate::cache::dir(), Some(std::env::temp_dir().join("phobos"))];
    for dir in dirs.into_iter().flatten() {
        let dest: PathBuf = dir.join(&name);
        if std::fs::metadata(&dest).is_ok_and(|m| m.len() == EMBEDDED.len() as u64) {
            return Some(dest.display().to_string());
        }
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        let written = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&tmp, EMBEDDED)).and_then(|_| std::fs::rename(&tmp, &dest));
        if written.is_ok() {
            return Some(dest.display().to_string());
        }
        let _ = std::fs::remove_file(&tmp);
    }
    None
}
