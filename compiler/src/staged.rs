//! Output files written all at once or not at all: each file goes to a temporary next to its
//! destination, and only [`Staged::commit`] renames them into place. Dropped uncommitted (an
//! error on the way), the temporaries are removed and no destination is touched.

use std::path::{Path, PathBuf};

/// Refuses `dest` when it is one of `inputs`: the same file by device and inode (a link or
/// another spelling of the path included). Inputs are never modified.
pub fn refuse_overwrite(dest: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let Ok(d) = std::fs::metadata(dest) else { return Ok(()) };
    if !d.is_file() {
        return Ok(());
    }
    for i in inputs {
        if std::fs::metadata(i).is_ok_and(|m| m.dev() == d.dev() && m.ino() == d.ino()) {
            let same = if i == dest { String::new() } else { format!(" ({})", i.display()) };
            return Err(format!("{}: is an input of this command{same}; inputs are never overwritten", dest.display()));
        }
    }
    Ok(())
}

/// The file `path` names, whatever the spelling (`./x`, `sub/../x`, a link): its directory
/// resolved, then its name (the file itself resolved when it exists).
fn identity(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(n)) => d.join(n),
        _ => path.to_path_buf(),
    }
}

/// `path` with its symbolic links followed to the file they name (which may not exist yet); the
/// path itself when it is not a link (or after 40 hops, a loop the write then reports).
fn links_followed(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(t) if t.is_absolute() => p = t,
            Ok(t) => p = p.parent().map_or(t.clone(), |d| d.join(&t)),
            Err(_) => return p,
        }
    }
    p
}

/// Files waiting to be renamed into place.
#[derive(Default)]
pub struct Staged {
    /// (temporary, destination, the destination's identity)
    files: Vec<(PathBuf, PathBuf, PathBuf)>,
    /// Destinations that are not regular files (`/dev/null`, a pipe, a terminal): written in
    /// place at commit, since renaming over one would replace the device with a regular file.
    special: Vec<(PathBuf, Vec<u8>)>,
}

impl Staged {
    pub fn new() -> Self {
        Staged::default()
    }

    /// Writes `bytes` to a temporary beside `dest`.
    pub fn write(&mut self, dest: &Path, bytes: &[u8]) -> Result<(), String> {
        // A stream's name (`/dev/stdout`, `/proc/self/fd/1`) is written through, as are devices:
        // renaming over one would replace it, and a file the stream is open on would lose the
        // output to the shell's descriptor of the old inode.
        let stream = dest.starts_with("/dev") || dest.starts_with("/proc");
        if stream || std::fs::metadata(dest).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            self.special.push((dest.to_path_buf(), bytes.to_vec()));
            return Ok(());
        }
        // A link is written through: the file it points at is replaced, the link stays.
        let target = links_followed(dest);
        let dest = target.as_path();
        // Two outputs for one file (by any spelling) would share a temporary, or the second
        // would replace the first: refused before anything is written.
        let id = identity(dest);
        if self.files.iter().any(|(_, _, i)| *i == id) {
            return Err(format!("{}: written twice by one command", dest.display()));
        }
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
        let tmp = dest.with_file_name(format!(".{name}.phobos-tmp-{}", std::process::id()));
        std::fs::write(&tmp, bytes).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("{}: {e}", dest.display())
        })?;
        self.files.push((tmp, dest.to_path_buf(), id));
        Ok(())
    }

    /// [`Staged::commit_after`] with nothing more to write.
    pub fn commit(self) -> Result<(), String> {
        self.commit_after(|| Ok(()))
    }

    /// Writes the special files, then runs `last` (what the command writes to its standard
    /// streams), and only when both succeeded renames every temporary into place: an output
    /// that cannot be written leaves every destination as it was.
    pub fn commit_after(mut self, last: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
        // A destination a file cannot replace fails the whole commit before anything moves.
        if let Some((_, dest, _)) = self.files.iter().find(|(_, d, _)| d.is_dir()) {
            return Err(format!("{}: is a directory", dest.display()));
        }
        for (dest, bytes) in std::mem::take(&mut self.special) {
            std::fs::write(&dest, bytes).map_err(|e| format!("{}: {e}", dest.display()))?;
        }
        last()?;
        // A rename within one directory fails for little else than the checks above.
        for (tmp, dest, _) in std::mem::take(&mut self.files) {
            if let Err(e) = std::fs::rename(&tmp, &dest) {
                let _ = std::fs::remove_file(&tmp);
                return Err(format!("{}: {e}", dest.display()));
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _, _) in &self.files {
            let _ = std::fs::remove_file(tmp);
        }
    }
}
