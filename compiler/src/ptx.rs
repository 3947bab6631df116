//! Reading PTX out of the `gpu.binary` ops that `gpu-module-to-binary{format=isa}` leaves.

use phobos_ir::Op;

/// The PTX of every gpu.binary nested in `module`, as (binary name, PTX text).
pub fn extract(module: Op) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for bin in module.find_all("gpu.binary") {
        let name = bin.str_attr("sym_name").unwrap_or_default();
        let Some(objects) = bin.attr("objects").and_then(|a| a.array()) else { continue };
        for obj in objects {
            let text = obj.gpu_object_text();
            out.push((name.clone(), text));
        }
    }
    out
}

/// The functions a PTX declares `.extern` and nothing defines, except PTX's own system calls
/// (`vprintf`, `malloc`, `free`, `__assertfail`): `ptxas` and the driver refuse such a PTX.
pub fn unresolved(ptx: &str) -> Vec<String> {
    const SYSTEM: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];
    let mut out = Vec::new();
    for line in ptx.lines() {
        let l = line.trim_start();
        if !l.starts_with(".extern .func") {
            continue;
        }
        // `.extern .func (.param .b32 retval) __nv_expf(` or `.extern .func vprintf(`.
        let head = l.split('(').filter(|p| !p.trim().is_empty()).map(str::trim).collect::<Vec<_>>();
        let name = head
            .iter()
            .map(|p| p.rsplit(|c: char| c.is_whitespace() || c == ')').next().unwrap_or(""))
            .find(|n| !n.is_empty() && !n.starts_with('.') && *n != "retval" && !n.contains("param"))
            .unwrap_or("");
        if !name.is_empty() && !SYSTEM.contains(&name) && !out.iter().any(|o: &String| o == name) {
            out.push(name.to_string());
        }
    }
    out
}
