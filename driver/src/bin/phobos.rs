//! `phobos`: see `phobos::cli`.

fn main() {
    if let Err(e) = phobos::env::check() {
        eprintln!("phobos: error: {e}");
        std::process::exit(1);
    }
    phobos::init_logging();
    // Arguments that are not UTF-8 are read lossily: a bad byte in an expression or a path is
    // then an error about it, not a panic.
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    std::process::exit(phobos::crash::with_big_stack("phobos", move || phobos::cli::main(args)));
}
