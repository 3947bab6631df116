//! Snapshots of the SIMT-level IR of every example kernel (the L1 snapshots are the frontend's),
//! taken after the module verifies.

use phobos_compiler::{
    compile::{self, CompileOptions, Stage},
    session::Session,
};

#[test]
fn simt_of_every_example() {
    insta::glob!("../../../examples", "*.phobos", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = phobos_frontend::Source::new(name.clone(), text);
        let out = phobos_frontend::compile(&src, &phobos_frontend::Options::default()).expect("the examples compile");
        let session = Session::new(true).unwrap();
        let module = session.parse(&out.mlir, &format!("{name}.l1.mlir")).expect("L1 parses");
        compile::lower(&session, &module, Stage::Simt, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{e}: {:?}", session.diags.take()));
        assert!(module.op().verify(), "the SIMT module verifies");
        insta::assert_snapshot!(module.op().to_string());
    });
}

/// `phobos explain --format text` of four of the example kernels, for sm_75.
#[test]
fn explain_text_of_the_seed_kernels() {
    let root = super::workspace_root();
    let cases: [(&str, [u32; 3], &[(&str, i64)], &str); 4] = [
        ("lanes_matvec", [8, 1, 1], &[("N", 32), ("K", 1024)], "sm_75"),
        ("lane_max", [1, 1, 1], &[], "sm_75"),
        ("i8_matvec", [2, 1, 1], &[("N", 16), ("K", 512)], "sm_75"),
        ("staged_matvec", [8, 1, 1], &[("N", 32)], "sm_75"),
    ];
    for (name, grid, dims, chip) in cases {
        let req = phobos_explain::Request {
            file: root.join(format!("examples/{name}.phobos")),
            kernel: None,
            grid,
            source: None,
            arrays: vec![],
            args: vec![],
            defines: dims.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            cta: [0, 0, 0],
            chip: chip.into(),
            sim: Default::default(),
        };
        let e = phobos_explain::explain(&req).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        insta::assert_snapshot!(format!("explain_{name}"), phobos_explain::render_text(&e));
    }
}
