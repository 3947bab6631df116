//! `phobos compile --stats`: what a kernel costs, as `key: value` lines.

use crate::compile::Stage;
use phobos_ir::Op;

/// Counts from the IR (shared bytes) and the output text (shuffles, barriers), plus registers
/// and spills from `ptxas -v` when a PTX output and a ptxas are at hand.
pub fn collect(module: Op, stage: Stage, out: &str, chip: &str, dynamic_shared: u64) -> Vec<(String, String)> {
    let mut v = Vec::new();
    let mut shared: i64 = 0;
    for g in module.find_all("memref.global") {
        if let Some(t) = g.attr("type").and_then(|a| a.type_value()) {
            if t.memory_space() == 3 {
                let elems: i64 = t.shape().iter().map(|d| d.unwrap_or(0)).product();
                let bytes = t.element().scalar().map(|s| s.bits().div_ceil(8) as i64).unwrap_or(4);
                shared += elems * bytes;
            }
        }
    }
    v.push(("stage".into(), stage.name().into()));
    if stage == Stage::Ptx {
        let shuffles = out.matches("shfl.sync").count();
        let barriers = out.matches("bar.sync").count() + out.matches("barrier.sync").count();
        let shared_ptx: i64 = out
            .lines()
            .filter(|l| l.trim_start().starts_with(".shared"))
            .filter_map(|l| l.split('[').nth(1).and_then(|r| r.split(']').next()).and_then(|n| n.parse::<i64>().ok()))
            .sum();
        v.push(("shared_bytes".into(), (shared.max(shared_ptx) + dynamic_shared as i64).to_string()));
        v.push(("dynamic_shared_bytes".into(), dynamic_shared.to_string()));
        v.push(("shuffles".into(), shuffles.to_string()));
        v.push(("barriers".into(), barriers.to_string()));
        if let Some(ptxas) = find_ptxas() {
            let dir = std::env::temp_dir().join(format!("phobos-stats-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&dir);
            let f = dir.join("k.ptx");
            if std::fs::write(&f, out).is_ok() {
                if let Ok(o) =
                    std::process::Command::new(&ptxas).arg(format!("-arch={chip}")).arg("-v").arg(&f).arg("-o").arg("/dev/null").output()
                {
                    let text = String::from_utf8_lossy(&o.stderr);
                    let mut regs = Vec::new();
                    let mut spills = 0i64;
                    for l in text.lines() {
                        if let Some(r) = l.split("Used ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse::<i64>().ok()) {
                            regs.push(r);
                        }
                        if let Some(s) =
                            l.split(" bytes spill stores").next().and_then(|p| p.rsplit(' ').next()).and_then(|n| n.parse::<i64>().ok())
                        {
                            spills += s;
                        }
                    }
                    if let Some(max) = regs.iter().max() {
                        v.push(("registers".into(), max.to_string()));
                        v.push(("spill_bytes".into(), spills.to_string()));
                    }
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    } else {
        let text = module.to_string();
        v.push(("shared_bytes".into(), (shared + dynamic_shared as i64).to_string()));
        v.push(("dynamic_shared_bytes".into(), dynamic_shared.to_string()));
        v.push((
            "shuffles".into(),
            (text.matches("gpu.shuffle").count() + text.matches("nvvm.shfl.sync").count() + text.matches("lane.").count()).to_string(),
        ));
        v.push(("barriers".into(), text.matches("gpu.barrier").count().to_string()));
    }
    v
}

/// ptxas: $PATH, or the one third_party/install.sh puts next to the workspace.
pub fn find_ptxas() -> Option<std::path::PathBuf> {
    if let Ok(p) = std::env::var("PATH") {
        for d in std::env::split_paths(&p) {
            let c = d.join("ptxas");
            if c.is_file() {
                return Some(c);
            }
        }
    }
    let exe = std::env::current_exe().ok()?;
    for anc in exe.ancestors() {
        let c = anc.join(".tools/cuda/nvidia/cuda_nvcc/bin/ptxas");
        if c.is_file() {
            return Some(c);
        }
    }
    None
}
