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
