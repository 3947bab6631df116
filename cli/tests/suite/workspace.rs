//! The workspace's shape: libraries with one job each under a thin CLI package. Read
//! from `cargo metadata` and the sources, so a change that breaks the shape fails here.

use std::collections::BTreeMap;

/// The packages that are commands or tools, not libraries: they may print, exit and use clap.
const NOT_LIBRARIES: [&str; 2] = ["phobos-cli", "phobos-bench"];

struct Package {
    name: String,
    dir: std::path::PathBuf,
    deps: Vec<String>,
}

fn packages() -> Vec<Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(super::workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    v["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| Package {
            name: p["name"].as_str().unwrap_or_default().to_string(),
            dir: std::path::Path::new(p["manifest_path"].as_str().unwrap_or_default()).parent().expect("a directory").to_path_buf(),
            deps: p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].is_null()) // normal dependencies, not dev or build
                .map(|d| d["name"].as_str().unwrap_or_default().to_string())
                .collect(),
        })
        .collect()
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push((p.clone(), std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    out
}

/// The code lines of a source (comments, doc comments included, left out).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with("//")).map(|(i, l)| (i + 1, l))
}

#[test]
fn libraries_print_nothing_exit_never_and_take_no_clap() {
    let mut offences = Vec::new();
    for p in packages().iter().filter(|p| !NOT_LIBRARIES.contains(&p.name.as_str())) {
        if p.deps.iter().any(|d| d == "clap") {
            offences.push(format!("{} depends on clap", p.name));
        }
        for (path, text) in sources(&p.dir.join("src")) {
            for (n, line) in code_lines(&text) {
                if ["println!", "eprintln!", "print!(", "eprint!(", "process::exit", "dbg!("].iter().any(|m| line.contains(m)) {
                    offences.push(format!("{}:{n}: {}", path.display(), line.trim()));
                }
            }
        }
    }
    assert!(offences.is_empty(), "library code prints, exits or parses a command line:\n{}", offences.join("\n"));
}

#[test]
fn the_ir_layer_depends_on_no_language() {
    let ps = packages();
    let ir = ps.iter().find(|p| p.name == "phobos-ir").expect("phobos-ir");
    assert!(!ir.deps.iter().any(|d| d == "phobos-frontend"), "phobos-ir depends on {:?}", ir.deps);
    // The runtime compiles nothing: no compiler, no explain, no CLI above it.
    let rt = ps.iter().find(|p| p.name == "phobos-runtime").expect("phobos-runtime");
    for above in ["phobos-compiler", "phobos", "phobos-explain", "phobos-cli"] {
        assert!(!rt.deps.iter().any(|d| d == above), "phobos-runtime depends on {above}");
    }
}

#[test]
fn one_launch_argument_type() {
    let mut found = Vec::new();
    for p in packages() {
        for (path, text) in sources(&p.dir.join("src")) {
            for (n, line) in code_lines(&text) {
                if line.contains("enum Arg<") || line.contains("enum Arg {") {
                    found.push(format!("{}:{n}", path.display()));
                }
            }
        }
    }
    assert_eq!(found.len(), 1, "launch argument enums: {found:?}");
}

#[test]
fn no_package_holds_more_than_a_quarter_of_the_library_code() {
    let lines: BTreeMap<String, usize> =
        packages().iter().map(|p| (p.name.clone(), sources(&p.dir.join("src")).iter().map(|(_, t)| t.lines().count()).sum())).collect();
    let total: usize = lines.values().sum();
    for (name, n) in &lines {
        assert!(*n * 4 <= total, "{name} holds {n} of {total} lines of library code, more than a quarter");
    }
}

#[test]
fn every_path_the_architecture_doc_names_exists() {
    let root = super::workspace_root();
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let mut named = Vec::new();
    for (i, piece) in doc.split('`').enumerate() {
        // Inside backticks (odd pieces): a path has a slash and no placeholder, call or space.
        let looks_like_path = i % 2 == 1
            && piece.contains('/')
            && !piece.contains(['<', '>', '(', '{', ' ', '*', '='])
            && piece.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        if looks_like_path {
            named.push(piece.to_string());
        }
    }
    assert!(named.len() > 30, "the doc names {} paths; the extraction is broken", named.len());
    let missing: Vec<&String> = named.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(missing.is_empty(), "docs/architecture.md names paths that do not exist: {missing:?}");
}

/// Every repository path a README or a page of docs/ names in backticks exists (relative to the
/// repository, or to the page's own folder), so the docs cannot point at files that moved.
#[test]
fn every_path_the_docs_name_exists() {
    let root = super::workspace_root();
    let tops: Vec<String> = std::fs::read_dir(&root).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    let mut pages = vec![root.join("README.md"), root.join("python/README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs")).unwrap().flatten().map(|e| e.path()).collect();
    docs.retain(|p| p.extension().is_some_and(|e| e == "md"));
    docs.sort();
    pages.extend(docs);
    let (mut named, mut missing) = (0, Vec::new());
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let here = page.parent().unwrap();
        for (i, piece) in text.split('`').enumerate() {
            let looks_like_path = i % 2 == 1
                && piece.contains('/')
                && !piece.contains(['<', '>', '(', '{', ' ', '*', '=', '$'])
                && piece.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
            // A path into the repository: its first part is one of the repository's own (build
            // outputs under target/ excepted), or a file beside the page.
            let path = piece.trim_end_matches(['.', ',', ':', ';']);
            let first = path.split('/').next().unwrap_or("");
            let ours = (tops.iter().any(|t| t == first) && first != "target") || here.join(first).exists();
            if !looks_like_path || !ours {
                continue;
            }
            named += 1;
            if !root.join(path).exists() && !here.join(path).exists() {
                missing.push(format!("{}: {path}", page.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(named > 100, "the docs name {named} paths; the extraction is broken");
    assert!(missing.is_empty(), "the docs name paths that do not exist: {missing:?}");
}
