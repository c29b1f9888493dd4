//! Stand-alone front end of `cvbench svm` (until the CLI wires it):
//! `cargo run --release --example svm -- DATAFILE [-c C] [-g G] [-v K] ...`.

use clap::{Args, Command, FromArgMatches};
use cvbench::svm::command::{run, SvmArgs};

fn main() -> anyhow::Result<()> {
    let m = SvmArgs::augment_args(Command::new("svm")).get_matches();
    run(&SvmArgs::from_arg_matches(&m)?)
}
