//! Snapshots of the SIMT-level IR of every example kernel (the L1 snapshots are the frontend's),
//! taken after the module verifies.

use phobos::{
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
