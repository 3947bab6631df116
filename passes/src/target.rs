//! The chips Phobos compiles for and their facts, in one table: every pass, pipeline, the
//! simulator and the driver read chip facts from here, and an unknown chip is an error
//! everywhere.

/// One chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chip {
    /// The name `--chip` takes and LLVM's NVPTX backend knows: `sm_90`, `sm_90a`.
    pub name: &'static str,
    /// Shared memory per CTA with the opt-in attribute (CUDA's
    /// cudaDevAttrMaxSharedMemoryPerBlockOptin), in bytes.
    pub shared_optin: u64,
    /// LLVM target features the PTX needs beyond LLVM's default for the chip (`+ptx70`: sm_75's
    /// default .version 6.3 lacks `tanh.approx.f32`, which fast math emits there; `+ptx83`:
    /// sm_90a's TMA acquires its tensor maps with `fence.proxy.tensormap::generic`).
    pub features: &'static str,
}

/// Shared memory per CTA without the opt-in attribute, on every chip; also the most static
/// shared memory a kernel may declare.
pub const SHARED_DEFAULT: u64 = 49152;

/// The chips LLVM 22's NVPTX backend knows and Phobos supports (sm_70 and newer).
pub const CHIPS: &[Chip] = &[
    Chip { name: "sm_70", shared_optin: 98304, features: "" },
    Chip { name: "sm_72", shared_optin: 98304, features: "" },
    Chip { name: "sm_75", shared_optin: 65536, features: "+ptx70" },
    Chip { name: "sm_80", shared_optin: 166912, features: "" },
    Chip { name: "sm_86", shared_optin: 101376, features: "" },
    Chip { name: "sm_87", shared_optin: 166912, features: "" },
    Chip { name: "sm_89", shared_optin: 101376, features: "" },
    Chip { name: "sm_90", shared_optin: 232448, features: "" },
    Chip { name: "sm_90a", shared_optin: 232448, features: "+ptx83" },
    Chip { name: "sm_100", shared_optin: 232448, features: "" },
    Chip { name: "sm_100a", shared_optin: 232448, features: "" },
    Chip { name: "sm_101", shared_optin: 232448, features: "" },
    Chip { name: "sm_101a", shared_optin: 232448, features: "" },
    Chip { name: "sm_120", shared_optin: 101376, features: "" },
    Chip { name: "sm_120a", shared_optin: 101376, features: "" },
];

/// The chip a `--chip` value or pass option names; an error listing the supported ones.
pub fn chip(name: &str) -> Result<&'static Chip, String> {
    CHIPS
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("unsupported chip '{name}' (supported: {})", CHIPS.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")))
}
