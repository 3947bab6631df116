//! `phobos-opt`: see `phobos::opt`.

fn main() {
    phobos::init_logging();
    std::process::exit(phobos::opt::main(std::env::args().collect()));
}
