//! The on-disk cache of compiled kernels: `PHOBOS_CACHE_DIR`, else `$XDG_CACHE_HOME/phobos`,
//! else `~/.cache/phobos`. An entry is keyed by the compiler's build id (a hash of its sources
//! taken at build time, see `build.rs`), the stage, the target options and the L1 text (so the
//! source, `-D` and `--kernel` are in it). Only clean compiles (no diagnostic) are stored, so a
//! hit replays everything the user would have seen. Writes go through a temporary file and a
//! rename, so concurrent compiles never read half an entry.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

/// This compiler's build id.
pub const BUILD_ID: &str = env!("PHOBOS_BUILD_ID");

/// What a compile produced that a later one can reuse.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// The output text (IR or PTX).
    pub output: String,
    /// Dynamic shared memory per kernel entry.
    pub dynamic_shared: BTreeMap<String, u64>,
    /// TMA tensor-map parameters per kernel entry.
    #[serde(default)]
    pub tensor_maps: BTreeMap<String, Vec<phobos_frontend::AbiParam>>,
}

pub struct Cache {
    dir: PathBuf,
}

/// FNV-1a over `parts` (with separators), twice with different bases: a 128-bit hex key.
pub fn key(parts: &[&str]) -> String {
    let mut out = String::new();
    for basis in [0xcbf2_9ce4_8422_2325u64, 0x6c62_272e_07bb_0142] {
        let mut h = basis;
        for p in std::iter::once(BUILD_ID).chain(parts.iter().copied()) {
            for b in p.bytes().chain(std::iter::once(0xff)) {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        out.push_str(&format!("{h:016x}"));
    }
    out
}

/// The largest entry a compile reads (a PTX of the biggest kernels is a few MB): a larger file
/// is a miss, as is one that is not a regular file (a FIFO would block every compile, a link to
/// `/dev/zero` read without end).
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;

/// The cache directory (not created): `PHOBOS_CACHE_DIR`, `$XDG_CACHE_HOME/phobos` or
/// `~/.cache/phobos`; none (no cache) when `PHOBOS_CACHE_DIR` is set but empty, or when it is
/// unset and `XDG_CACHE_HOME` and `HOME` are unset, empty or relative (XDG's rule): never the
/// current directory by accident.
pub fn dir() -> Option<PathBuf> {
    if let Some(d) = crate::env::get("PHOBOS_CACHE_DIR") {
        return (!d.is_empty()).then(|| PathBuf::from(d));
    }
    let absolute = |v: &str| std::env::var_os(v).map(PathBuf::from).filter(|p| p.is_absolute());
    absolute("XDG_CACHE_HOME").map(|d| d.join("phobos")).or_else(|| absolute("HOME").map(|h| h.join(".cache").join("phobos")))
}

impl Cache {
    /// The cache directory, created if needed; None when there is no place for it.
    pub fn open() -> Option<Cache> {
        let dir = dir()?;
        std::fs::create_dir_all(&dir).ok()?;
        Some(Cache { dir })
    }
    pub fn at(dir: &Path) -> Cache {
        Cache { dir: dir.to_path_buf() }
    }
    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }
    /// The entry under `key`; a miss when there is none, or it is not a regular file of at most
    /// [`MAX_ENTRY_BYTES`], or it does not parse.
    pub fn get(&self, key: &str) -> Option<Entry> {
        serde_json::from_slice(&self.get_bytes(key)?).ok()
    }

    /// The bytes stored under `key` (any serialized value); None as [`Cache::get`] misses.
    pub fn get_bytes(&self, key: &str) -> Option<Vec<u8>> {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let path = self.path(key);
        let regular = |m: &std::fs::Metadata| m.is_file() && m.len() <= MAX_ENTRY_BYTES;
        if !std::fs::metadata(&path).is_ok_and(|m| regular(&m)) {
            return None;
        }
        // Non-blocking, and checked again once open: the file may have been replaced since.
        let f = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&path).ok()?;
        if !f.metadata().is_ok_and(|m| regular(&m)) {
            return None;
        }
        let mut bytes = Vec::new();
        f.take(MAX_ENTRY_BYTES + 1).read_to_end(&mut bytes).ok()?;
        Some(bytes)
    }
    /// Stores `entry`; a cache that cannot be written is skipped (with a log line).
    pub fn put(&self, key: &str, entry: &Entry) {
        self.put_bytes(key, &serde_json::to_vec(entry).expect("entries serialize"));
    }
    /// Stores `bytes` under `key` (larger than [`MAX_ENTRY_BYTES`]: not stored, as it would
    /// never be read).
    pub fn put_bytes(&self, key: &str, bytes: &[u8]) {
        if bytes.len() as u64 > MAX_ENTRY_BYTES {
            return;
        }
        let tmp = self.dir.join(format!("{key}.{}.tmp", std::process::id()));
        let r = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, self.path(key)));
        if let Err(e) = r {
            tracing::warn!("kernel cache {}: {e}", self.dir.display());
            let _ = std::fs::remove_file(&tmp);
        }
    }
}
