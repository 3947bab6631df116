//! `phobos-opt`: see `phobos::opt`.

fn main() {
    if let Err(e) = phobos::env::check() {
        eprintln!("phobos-opt: error: {e}");
        std::process::exit(1);
    }
    phobos::init_logging();
    let args: Vec<String> = std::env::args().collect();
    std::process::exit(phobos::crash::with_big_stack("phobos-opt", move || phobos::opt::main(args)));
}
