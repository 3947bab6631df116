//! Named pipelines: what a frontend and `phobos compile` run.
//!
//! - `phobos-to-simt`: Phobos dialects (L1) to the SIMT level (L2): upstream gpu, arith, scf,
//!   memref, vector and nvvm only. The simulator executes exactly this level.
//! - `phobos-simt-to-llvm{chip O libdevice}`: L2 to the LLVM dialect inside the gpu.module, with
//!   the NVVM target attached (MLIR's own passes).
//! - `phobos-to-ptx{chip O libdevice}`: both, then `gpu-module-to-binary{format=isa}`, which
//!   replaces each gpu.module by a gpu.binary holding PTX.

use crate::{registry::split_options, target};

/// The named pipelines with a one-line summary each.
pub const PIPELINES: &[(&str, &str)] = &[
    (
        "phobos-to-simt",
        "Phobos dialects (L1) to the SIMT level (upstream gpu/arith/scf/memref/vector/nvvm) {chip=sm_90 fma=1 fast-math=0 exchange=auto}",
    ),
    ("phobos-simt-to-llvm", "SIMT level to the LLVM dialect with an NVVM target {chip=sm_90 O=3 libdevice=PATH}"),
    ("phobos-to-ptx", "Phobos dialects to PTX in a gpu.binary {chip=sm_90 O=3 libdevice=PATH fma=1 fast-math=0 exchange=auto}"),
];

/// The passes of `phobos-to-simt`, in order, for the gpu.module (`{chip}` is filled in).
pub const SIMT_PASSES: &str = "verify-uniformity,contract-fma{contract={fma}},lower-fast-math{chip={chip} all={fast}},convert-exchange-to-gpu{mechanism={exchange}},tile-plan-shared-memory{chip={chip}},infer-barriers,compose-layouts,convert-layout-to-arith,\
convert-cta-to-gpu,tile-swizzle,tile-tma{chip={chip}},tile-plan-shared-memory{chip={chip}},tile-pipeline{chip={chip}},convert-tile-to-gpu{chip={chip}},\
convert-lane-to-gpu,vector-fuse-dp4a,expand-subgroup-ids,unroll-register-loops,canonicalize,cse,merge-repeated-checks,cse,loop-invariant-code-motion,merge-adjacent-loads,merge-adjacent-stores,elide-barriers,prove-alignment";

/// `phobos-to-simt`'s gpu.module passes for a chip; `fma`: contract float products into
/// fused multiply-adds where the ops allow it (`contract-fma`); `fast_math`: every f32 math
/// function is the hardware's approximation (`lower-fast-math{all}`), not only those marked.
/// `exchange`: how exchanges within warps move.
pub fn simt_passes(chip: &str, fma: bool, fast_math: bool, exchange: Exchange) -> String {
    let b = |v: bool| if v { "true" } else { "false" };
    SIMT_PASSES.replace("{chip}", chip).replace("{fma}", b(fma)).replace("{fast}", b(fast_math)).replace("{exchange}", exchange.name())
}

/// How exchanges whose values stay in their warp move (`convert-exchange-to-gpu{mechanism}`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Exchange {
    /// Shuffles or shared-memory staging, whichever the cost model says is cheaper.
    #[default]
    Auto,
    /// Shuffles wherever a shuffle schedule exists.
    Shuffle,
    /// Shared-memory staging behind warp-level syncs.
    Staging,
}

impl Exchange {
    pub const ALL: [Exchange; 3] = [Exchange::Auto, Exchange::Shuffle, Exchange::Staging];
    pub fn name(self) -> &'static str {
        match self {
            Exchange::Auto => "auto",
            Exchange::Shuffle => "shuffle",
            Exchange::Staging => "staging",
        }
    }
    pub fn parse(v: &str) -> Result<Exchange, String> {
        Exchange::ALL.into_iter().find(|e| e.name() == v).ok_or_else(|| format!("exchange must be auto, shuffle or staging, got '{v}'"))
    }
}

/// Target options of the pipelines that reach LLVM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub chip: String,
    pub opt_level: u32,
    pub libdevice: Option<String>,
    /// Contract float products into fused multiply-adds (`fma=0`: `--no-fma`).
    pub fma: bool,
    /// Every f32 math function is the hardware's approximation (`fast-math=1`: `--fast-math`).
    pub fast_math: bool,
    /// How exchanges within warps move: `auto` (the cost model), `shuffle` or `staging`
    /// (`exchange=`: `--exchange`).
    pub exchange: Exchange,
    /// Source line information in the PTX (`.loc` lines, as `nvcc -lineinfo`): profilers and
    /// `phobos explain`'s agreement test map instructions to statements (`lineinfo=1`).
    pub lineinfo: bool,
}

/// The libdevice every pipeline links unless told otherwise (the driver sets it once: the
/// one it carries, or `PHOBOS_LIBDEVICE`).
static DEFAULT_LIBDEVICE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();

/// Sets the default libdevice (the first call wins).
pub fn set_default_libdevice(path: Option<String>) {
    let _ = DEFAULT_LIBDEVICE.set(path);
}

impl Default for Target {
    fn default() -> Self {
        Target {
            chip: "sm_90".into(),
            opt_level: 3,
            libdevice: DEFAULT_LIBDEVICE.get().cloned().flatten(),
            fma: true,
            fast_math: false,
            exchange: Exchange::Auto,
            lineinfo: false,
        }
    }
}

impl Target {
    /// Parses `chip=sm_90 O=3 libdevice=PATH fma=1 fast-math=0 exchange=auto`.
    pub fn parse(options: &str) -> Result<Target, String> {
        let mut t = Target::default();
        for (k, v) in split_options(options)? {
            match k.as_str() {
                "chip" => t.chip = v,
                "O" => t.opt_level = v.parse().ok().filter(|o| *o <= 3).ok_or_else(|| format!("O must be 0 to 3, got '{v}'"))?,
                "libdevice" => t.libdevice = (!v.is_empty()).then_some(v),
                "fma" => t.fma = !matches!(v.as_str(), "0" | "false"),
                "fast-math" => t.fast_math = matches!(v.as_str(), "1" | "true"),
                "exchange" => t.exchange = Exchange::parse(&v)?,
                "lineinfo" => t.lineinfo = matches!(v.as_str(), "1" | "true"),
                _ => return Err(format!("no option '{k}' (options: chip, O, libdevice, fma, fast-math, exchange, lineinfo)")),
            }
        }
        t.checked()
    }

    /// The target, once its chip is known and its libdevice is a file LLVM can link (built
    /// field by field, as the driver and the API do, or by [`Target::parse`]).
    pub fn checked(self) -> Result<Target, String> {
        target::chip(&self.chip)?;
        if let Some(l) = &self.libdevice {
            check_libdevice(l)?;
            if l.contains('"') {
                return Err(format!("libdevice path '{l}' has a double quote, which a pass option cannot hold"));
            }
        }
        Ok(self)
    }

    fn options(&self) -> String {
        let mut s = format!("chip={} O={}", self.chip, self.opt_level);
        if let Some(f) = target::chip(&self.chip).ok().map(|c| c.features).filter(|f| !f.is_empty()) {
            s.push_str(&format!(" features={f}"));
        }
        // Quoted: a path may hold spaces.
        if let Some(l) = &self.libdevice {
            s.push_str(&format!(" l=\"{l}\""));
        }
        s
    }
}

/// Checks that `path` can be linked as libdevice: a regular file of LLVM bitcode (raw, or in
/// its wrapper), so that a wrong path is an error naming it instead of the linker's.
pub fn check_libdevice(path: &str) -> Result<(), String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|_| format!("libdevice '{path}' does not exist"))?;
    if !meta.is_file() {
        return Err(format!("libdevice '{path}' is not a regular file"));
    }
    let mut magic = [0u8; 4];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic));
    if let Err(e) = read {
        return Err(format!("libdevice '{path}' cannot be read as LLVM bitcode: {e}"));
    }
    // `BC` 0xC0DE, or the bitcode wrapper's 0x0B17C0DE (little endian).
    if magic != *b"BC\xC0\xDE" && magic != [0xDE, 0xC0, 0x17, 0x0B] {
        return Err(format!("libdevice '{path}' is not LLVM bitcode (libdevice.10.bc is; third_party/install.sh installs one)"));
    }
    Ok(())
}

/// The upstream pipeline from L2 to the LLVM dialect; with `lineinfo`, every
/// llvm.func gets a debug scope, so that LLVM keeps the ops' source lines as line tables.
pub fn simt_to_llvm(t: &Target) -> String {
    let lines = if t.lineinfo { ",ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly}" } else { "" };
    format!(
        "nvvm-attach-target{{{}}},gpu.module(contract-fma{{contract=false}},strip-bounds-checks,lower-masked-loads,lower-fma,lower-math-intrinsics,lower-ordered-accesses,expand-strided-metadata,lower-affine,\
         convert-vector-to-scf,convert-scf-to-cf,convert-gpu-to-nvvm{{has-redux=1 use-bare-ptr-memref-call-conv=1}},convert-nvvm-to-llvm,\
         canonicalize,cse,reconcile-unrealized-casts){lines}",
        t.options()
    )
}

/// The expansion of a named pipeline (a list at builtin.module level), None if `name` is not one.
pub fn expand(name: &str, options: &str) -> Option<Result<String, String>> {
    Some(match name {
        "phobos-to-simt" => {
            let (mut chip, mut fma, mut fast, mut exchange) = ("sm_90".to_string(), true, false, Exchange::Auto);
            let pairs = match split_options(options) {
                Ok(p) => p,
                Err(e) => return Some(Err(format!("'phobos-to-simt': {e}"))),
            };
            for (k, v) in pairs {
                match k.as_str() {
                    "chip" => chip = v,
                    "fma" => fma = !matches!(v.as_str(), "0" | "false"),
                    "fast-math" => fast = matches!(v.as_str(), "1" | "true"),
                    "exchange" => match Exchange::parse(&v) {
                        Ok(e) => exchange = e,
                        Err(e) => return Some(Err(format!("'phobos-to-simt': {e}"))),
                    },
                    _ => return Some(Err(format!("'phobos-to-simt' has no option '{k}' (it has: chip, fma, fast-math, exchange)"))),
                }
            }
            if let Err(e) = target::chip(&chip) {
                return Some(Err(e));
            }
            Ok(format!("gpu.module({})", simt_passes(&chip, fma, fast, exchange)))
        }
        "phobos-simt-to-llvm" => Target::parse(options).map(|t| simt_to_llvm(&t)),
        "phobos-to-ptx" => Target::parse(options).map(|t| {
            format!(
                "gpu.module({}),{},gpu-module-to-binary{{format=isa}}",
                simt_passes(&t.chip, t.fma, t.fast_math, t.exchange),
                simt_to_llvm(&t)
            )
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_quotes_its_libdevice_and_refuses_a_quote_in_it() {
        let t = Target { libdevice: Some("/tmp/a b/libdevice.10.bc".into()), ..Target::default() };
        assert!(t.options().ends_with(" l=\"/tmp/a b/libdevice.10.bc\""), "{}", t.options());
        let bad = Target { libdevice: Some("/tmp/a\"b".into()), ..Target::default() };
        assert!(bad.checked().is_err());
        let chip = Target { chip: "sm_90 lineinfo=1".into(), ..Target::default() };
        assert!(chip.checked().unwrap_err().contains("unsupported chip 'sm_90 lineinfo=1'"));
    }

    #[test]
    fn target_options_parse_and_reject_unknown_ones() {
        let t = Target::parse("chip=sm_80 O=2 fma=0 fast-math=1 exchange=staging lineinfo=1").unwrap();
        assert_eq!(
            (t.chip.as_str(), t.opt_level, t.fma, t.fast_math, t.exchange, t.lineinfo),
            ("sm_80", 2, false, true, Exchange::Staging, true)
        );
        assert!(Target::parse("O=4").unwrap_err().contains("O must be 0 to 3"));
        assert!(Target::parse("bogus=1").unwrap_err().contains("no option 'bogus'"));
    }

    #[test]
    fn named_pipelines_expand_and_unknown_names_do_not() {
        let ptx = expand("phobos-to-ptx", "chip=sm_80").unwrap().unwrap();
        assert!(ptx.starts_with("gpu.module(") && ptx.ends_with("gpu-module-to-binary{format=isa}"), "{ptx}");
        assert!(expand("phobos-to-simt", "bogus=1").unwrap().unwrap_err().contains("has no option 'bogus'"));
        assert!(expand("canonicalize", "").is_none());
    }
}
