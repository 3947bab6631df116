//! `phobos-opt`: see `phobos::opt`.

fn main() {
    if let Err(e) = phobos::env::check() {
        eprintln!("phobos-opt: error: {e}");
        std::process::exit(1);
    }
    phobos::init_logging();
    std::process::exit(phobos::opt::main(std::env::args().collect()));
}
