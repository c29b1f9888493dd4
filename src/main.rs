//! The `cvbench` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

fn main() {
    cvbench::cli::memory::keep_freed_memory();
    cvbench::interrupt::install();
    let cli =
        cvbench::cli::Cli::parse_from(cvbench::cli::svm::svm_weight_args(std::env::args_os()));
    if let Err(f) = cvbench::cli::run(cli) {
        eprintln!("error: {}", cvbench::cli::error_text(&f.error));
        std::process::exit(f.code);
    }
}
