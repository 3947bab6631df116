//! `phobos explain`'s pages in a real browser: each example kernel's page (and two kernels that
//! show extra 128-byte lines and masked elements) opened in headless Chromium, stepped through
//! with the page's own Next button by its `#selftest` mode, which checks that every step draws
//! the ruler, the barriers, the threads and warp 0's lanes and that nothing reached the
//! console; the verdict is read back with `--dump-dom`. A screenshot of each page is saved under
//! `target/explain/`. Skips, saying why, only where no Chromium is installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("PHOBOS_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path).flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n))).find(|p| p.is_file())
}

/// Runs `cmd` for at most `limit`, returning its stdout (read as it comes: a DOM is larger than
/// a pipe holds).
fn run_bounded(mut cmd: Command, limit: Duration) -> String {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("chromium starts");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        use std::io::Read;
        let _ = stdout.read_to_string(&mut out);
        out
    });
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("chromium ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().expect("the reader ends")
}

fn browser(chrome: &Path, profile: &Path) -> Command {
    let mut c = Command::new(chrome);
    c.args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"]);
    c.arg(format!("--user-data-dir={}", profile.display()));
    c
}

#[test]
fn every_seed_kernels_page_steps_through_in_chromium() {
    let Some(chrome) = chromium() else {
        super::tool_missing("chromium", "third_party/install.sh installs Debian's chromium; PHOBOS_CHROMIUM names another");
        return;
    };
    let root = super::workspace_root();
    let dir = root.join("target/explain");
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("chromium-profile");
    let lit = root.join("tests/lit/explain/column-and-ragged-tile.phobos");
    let ex = |n: &str| root.join("examples").join(n).display().to_string();
    let hostile = dir.join("hostile.phobos");
    std::fs::write(
        &hostile,
        "// <!--<script> </script> & \"quotes\"\n@launch(32)\nkernel e(X: tensor<f32>[32]) {\n  X[ctx.thread] = 1.0 // </script>\n}\n\n@launch(32)\nkernel nothing(X: tensor<f32>[32]) {\n}\n",
    )
    .unwrap();
    // (page, source, arguments, the step to photograph, what the self-test must count)
    let cases: Vec<(&str, String, Vec<&str>, u32, &str)> = vec![
        ("staged_matvec", ex("staged_matvec.phobos"), vec!["--grid", "8", "-D", "N=32", "--chip", "sm_75"], 1, "buffers=1 masked=0"),
        ("lanes_matvec", ex("lanes_matvec.phobos"), vec!["--grid", "8", "-D", "N=32", "-D", "K=1024"], 7, "arcs=160"),
        ("lane_max", ex("lane_max.phobos"), vec!["--grid", "1"], 2, "arcs=160"),
        ("i8_matvec", ex("i8_matvec.phobos"), vec!["--grid", "2", "-D", "N=16", "-D", "K=512"], 5, "arcs=160"),
        ("first_column", lit.display().to_string(), vec!["--kernel", "first_column", "--grid", "2", "-D", "N=64"], 3, "extra=341"),
        ("ragged", lit.display().to_string(), vec!["--kernel", "ragged", "--grid", "2", "-D", "K=100", "--cta", "1"], 1, "masked=1"),
        // A pipelined loop's timeline: the prologue and 5 iterations (K = 160 in steps of 32).
        (
            "pipelined_gemm",
            root.join("examples/tutorials/gemm.phobos").display().to_string(),
            vec!["--kernel", "gemm_f16_pipelined", "--grid", "1,1", "-D", "M=128", "-D", "N=128", "-D", "K=160", "--chip", "sm_80"],
            4,
            "timeline=6",
        ),
        // A tensor-core product's fragments: C's first 16 x 8, A 16 x 16, B 16 x 8 and the two
        // tiles' first 8 rows of 16-byte chunks (4 and 16 a row): 128 + 256 + 128 + 32 + 128.
        (
            "gemm_fragments",
            root.join("examples/tutorials/gemm.phobos").display().to_string(),
            vec!["--kernel", "gemm_f16", "--grid", "1,1", "-D", "M=128", "-D", "N=128", "-D", "K=64"],
            7,
            "fragment=512",
        ),
        // Source text that would end or reopen a script element, and a kernel with no statement.
        ("script_in_source", hostile.display().to_string(), vec!["--kernel", "e", "--grid", "1"], 1, "steps=1"),
        ("empty_body", hostile.display().to_string(), vec!["--kernel", "nothing", "--grid", "1"], 1, "steps=1"),
    ];
    for (name, src, args, shot, expect) in cases {
        let page = dir.join(format!("{name}.html"));
        // Cargo hands the build script's PHOBOS_BUILD_ID to tests too; the binary rejects it.
        let out = Command::new(env!("CARGO_BIN_EXE_phobos"))
            .env_remove("PHOBOS_BUILD_ID")
            .arg("explain")
            .arg(&src)
            .args(&args)
            .arg("-o")
            .arg(&page)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let html = std::fs::read_to_string(&page).unwrap();
        // Self-contained: nothing fetched (the SVG namespace URI is a name, not a fetch). The
        // facts (which hold the kernel's source) are left out of the check.
        let start = html.find("id=\"facts\">").expect("the facts are embedded");
        let end = start + html[start..].find("</script>").expect("the facts end");
        let code = format!("{}{}", &html[..start], &html[end..]);
        for fetch in ["src=", "href=", "url(http", "fetch(", "import ", "XMLHttpRequest"] {
            assert!(!code.contains(fetch), "{name}: the page has `{fetch}`");
        }
        let url = format!("file://{}", page.display());
        let mut c = browser(&chrome, &profile);
        c.arg("--dump-dom").arg(format!("{url}#selftest"));
        let dom = run_bounded(c, Duration::from_secs(60));
        let verdict = dom
            .split("<pre id=\"selftest\">")
            .nth(1)
            .and_then(|r| r.split("</pre>").next())
            .unwrap_or("(no verdict: the page's script did not run)");
        assert!(verdict.starts_with("PASS steps="), "{name}: {verdict}");
        assert!(verdict.contains(expect), "{name}: {verdict}, expected {expect}");
        let png = dir.join(format!("{name}.png"));
        let mut c = browser(&chrome, &profile);
        c.arg("--window-size=1400,1100").arg(format!("--screenshot={}", png.display())).arg(format!("{url}#step={shot}"));
        run_bounded(c, Duration::from_secs(60));
        assert!(std::fs::metadata(&png).map(|m| m.len() > 10_000).unwrap_or(false), "{name}: no screenshot at {}", png.display());
        println!("{name}: {verdict}; screenshot {}", png.display());
    }
}
