//! The `cvbench` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

fn main() {
    let cli = cvbench::cli::Cli::parse();
    if let Err(f) = cvbench::cli::run(cli) {
        eprintln!("error: {:#}", f.error);
        std::process::exit(f.code);
    }
}
