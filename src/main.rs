//! The `cvbench` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

#[global_allocator]
static ALLOCATOR: cvbench::cli::memory::ClearOutOfMemory = cvbench::cli::memory::ClearOutOfMemory;

fn main() {
    cvbench::cli::memory::keep_freed_memory();
    cvbench::interrupt::install();
    let cli =
        cvbench::cli::Cli::parse_from(cvbench::cli::svm::svm_weight_args(std::env::args_os()));
    cvbench::interrupt::set_message(cvbench::cli::on_interrupt::message(&cli.command));
    let result = cvbench::cli::run(cli);
    // Interrupted: a failure is the interruption's; the watcher exits (130).
    cvbench::interrupt::stop_if_interrupted();
    if let Err(f) = result {
        eprintln!("error: {}", cvbench::cli::error_text(&f.error));
        std::process::exit(f.code);
    }
}
