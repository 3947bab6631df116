//! `phobos-opt`: see `phobos_cli::opt`.

fn main() {
    // First: a closed standard stream is noted before any file can take its descriptor.
    phobos_cli::out::init();
    if let Err(e) = phobos_compiler::env::check() {
        phobos_cli::errln!("phobos-opt: error: {e}");
        std::process::exit(1);
    }
    phobos_cli::init_logging();
    // Arguments that are not UTF-8 are read lossily: a bad byte in an expression or a path is
    // then an error about it, not a panic.
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    // phobos-opt runs passes on one thread (a context's thread pool only for several modules).
    let one_arena = true;
    phobos_cli::crash::exit(phobos_cli::crash::with_big_stack("phobos-opt", one_arena, move || phobos_cli::opt::main(args)));
}
