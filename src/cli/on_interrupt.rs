//! What each command says when Ctrl-C (or SIGTERM) stops it: what is kept
//! and how to go on (see [`crate::interrupt::set_message`]). `grid` says its
//! own once it knows its output file ([`super::grid`]).

use super::Command;

/// The interruption message of `command` (the text after `interrupted: stopped`).
pub fn message(command: &Command) -> &'static str {
    match command {
        Command::Run { dry_run: true, .. } => "a dry run writes nothing",
        Command::Run { .. } => "finished cells are kept; run the same command again to resume",
        Command::Validate { .. } | Command::Datasets { .. } => "it writes nothing",
        Command::Svm(_) => "nothing is kept: run the same command again",
        Command::Grid(_) => "nothing was computed yet: run the same command again",
        Command::Collect { .. }
        | Command::Slurm { .. }
        | Command::Report { .. }
        | Command::Export { .. }
        | Command::Fetch { .. } => "no half-written file is left: run the same command again",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn message_of(args: &[&str]) -> &'static str {
        let cli = super::super::Cli::try_parse_from(args).expect("parses");
        message(&cli.command)
    }

    #[test]
    fn only_run_speaks_of_cells() {
        assert!(message_of(&["cvbench", "run", "c.toml"]).contains("finished cells are kept"));
        for args in [
            &["cvbench", "run", "c.toml", "--dry-run"][..],
            &["cvbench", "validate", "c.toml"],
            &["cvbench", "svm", "-v", "2", "data"],
            &["cvbench", "grid", "data"],
            &["cvbench", "export", "t.parquet"],
        ] {
            let m = message_of(args);
            assert!(
                !m.contains("cell") && !m.contains("resume"),
                "{args:?}: {m}"
            );
        }
    }
}
