//! `phobos`: see `phobos_cli::cli`.

fn main() {
    // First: a closed standard stream is noted before any file can take its descriptor.
    phobos_cli::out::init();
    phobos_cli::time_passes::started();
    if let Err(e) = phobos_compiler::env::check() {
        phobos_cli::errln!("phobos: error: {e}");
        std::process::exit(1);
    }
    phobos_cli::init_logging();
    // Arguments that are not UTF-8 are read lossily: a bad byte in an expression or a path is
    // then an error about it, not a panic.
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    // A compile runs on one thread; `run`, `selftest` and others run the simulator's.
    let one_arena = args.get(1).map(String::as_str) == Some("compile");
    phobos_cli::crash::exit(phobos_cli::crash::with_big_stack("phobos", one_arena, move || phobos_cli::cli::main(args)));
}
