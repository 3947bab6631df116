//! `phobos`: see `phobos::cli`.

fn main() {
    if let Err(e) = phobos::env::check() {
        eprintln!("phobos: error: {e}");
        std::process::exit(1);
    }
    phobos::init_logging();
    std::process::exit(phobos::cli::main(std::env::args().collect()));
}
