//! Programs in the disk kernel cache (`PHOBOS_CACHE_DIR`, as `phobos compile` uses it): a
//! compile of the same source with the same options in a later process is read back with no
//! MLIR context, its IR left to be compiled again when asked for.

use super::{Compiler, Diagnostic, Error, Kernel, Options, Program, Staged};
use phobos_compiler::cache::{self, Cache};
use phobos_frontend::Entry;
use phobos_runtime::bind::Signature;

/// What the cache holds of a program: all but the IR after each stage and pass.
#[derive(serde::Deserialize)]
struct Stored {
    kernels: Vec<Kernel>,
    signatures: Vec<Signature>,
    entries: Vec<Entry>,
    diagnostics: Vec<Diagnostic>,
}

/// [`Stored`], borrowed from a program to write it.
#[derive(serde::Serialize)]
struct StoredRef<'a> {
    kernels: &'a [Kernel],
    signatures: &'a [Signature],
    entries: &'a [Entry],
    diagnostics: &'a [Diagnostic],
}

/// The key of a program: the compiler's build, the source, its name (locations carry it), every
/// option and the libdevice in use. None (not cached) when the IR is dumped to a directory.
fn key(source: &str, filename: &str, opts: &Options) -> Option<String> {
    if opts.dump_dir.is_some() {
        return None;
    }
    let libdevice = phobos_compiler::env::get("PHOBOS_LIBDEVICE").unwrap_or_default();
    Some(cache::key(&["program", filename, source, &format!("{opts:?}"), &libdevice]))
}

impl Program {
    /// [`Compiler::compile_program`] through the disk cache: a program compiled before with
    /// the same source, name and options is read back without a [`Compiler`] (no MLIR context),
    /// its kernels, signatures, entries and diagnostics as compiled; its [`Program::ir`] then
    /// holds the PTX alone (compile again for the other stages). [`Program::served_from_cache`] says
    /// which. A miss compiles and stores the result.
    pub fn compile_cached(source: &str, filename: &str, opts: &Options) -> Result<Program, Error> {
        let key = key(source, filename, opts);
        let cache = key.as_ref().and(Cache::open());
        if let (Some(c), Some(k)) = (&cache, &key) {
            if let Some(p) = c.get_bytes(k).and_then(|b| serde_json::from_slice::<Stored>(&b).ok()) {
                let ir = Staged { ptx: ptx_of(&p.kernels), ..Default::default() };
                return Ok(Program {
                    kernels: p.kernels,
                    signatures: p.signatures,
                    entries: p.entries,
                    ir,
                    diagnostics: p.diagnostics,
                    tuned: Default::default(),
                });
            }
        }
        let program = Compiler::new()?.compile_program(source, filename, opts)?;
        if let (Some(c), Some(k)) = (&cache, &key) {
            let stored = StoredRef {
                kernels: &program.kernels,
                signatures: &program.signatures,
                entries: &program.entries,
                diagnostics: &program.diagnostics,
            };
            c.put_bytes(k, &serde_json::to_vec(&stored).expect("programs serialize"));
        }
        Ok(program)
    }

    /// Whether this program was read from the disk cache ([`Program::compile_cached`]): its IR
    /// holds the PTX alone.
    pub fn served_from_cache(&self) -> bool {
        // A compile keeps at least its input's text.
        self.ir.stages.is_empty()
    }
}

/// The PTX of each gpu.module, once each, in the kernels' order.
pub(crate) fn ptx_of(kernels: &[Kernel]) -> Vec<(String, String)> {
    kernels.iter().fold(Vec::new(), |mut v: Vec<(String, String)>, k| {
        if !v.iter().any(|(m, _)| *m == k.gpu_module) {
            v.push((k.gpu_module.clone(), k.ptx.clone()));
        }
        v
    })
}
