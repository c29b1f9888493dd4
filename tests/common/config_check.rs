//! A config checked by `cvbench validate` in a test's folder: the output,
//! and a refusal's message checked for its words and for naming the config
//! file and a line.

use std::path::Path;
use std::process::{Command, Output};

/// `cvbench validate NAME --quiet` on `text` written to `dir/NAME`.
pub fn validate_config(dir: &Path, name: &str, text: &str) -> Output {
    std::fs::write(dir.join(name), text).unwrap();
    Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["validate", name, "--quiet"])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `text` refused by `cvbench validate`, its message holding every one of
/// `words` and naming the file `NAME:` with a line.
pub fn refused_config(dir: &Path, name: &str, text: &str, words: &[&str]) {
    let o = validate_config(dir, name, text);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "accepted:\n{text}");
    for w in words {
        assert!(err.contains(w), "`{w}` not in:\n{err}");
    }
    assert!(err.contains(&format!("{name}:")), "{err}");
}
