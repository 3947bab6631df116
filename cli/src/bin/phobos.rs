//! `phobos`: see `phobos_cli::cli`.

fn main() {
    if let Err(e) = phobos_compiler::env::check() {
        eprintln!("phobos: error: {e}");
        std::process::exit(1);
    }
    phobos_cli::init_logging();
    // Arguments that are not UTF-8 are read lossily: a bad byte in an expression or a path is
    // then an error about it, not a panic.
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    phobos_cli::crash::exit(phobos_cli::crash::with_big_stack("phobos", move || phobos_cli::cli::main(args)));
}
