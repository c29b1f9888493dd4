//! The environment variables cvbench reads (`CVBENCH_*`): each is parsed by
//! one function here, and [`check`] parses them all before a command deletes
//! or writes anything, so that a bad value (negative, not a number, NaN,
//! infinite, too large, not UTF-8) is an error naming the variable, its
//! value and the fix (exit 2), never a panic midway through a run. An empty
//! value counts as unset, as for `CVBENCH_DATA_DIR`.

use super::ConfigError;
use std::time::Duration;

/// Seconds between plain progress lines (default 10).
pub const PROGRESS_SECS: &str = "CVBENCH_PROGRESS_SECS";

/// Seconds a run waits for another process's assembly lock (default 600).
pub const LOCK_TIMEOUT_S: &str = "CVBENCH_LOCK_TIMEOUT_S";

/// Milliseconds each cell sleeps first (the kill-and-resume test's hook).
pub const TEST_CELL_DELAY_MS: &str = "CVBENCH_TEST_CELL_DELAY_MS";

/// The longest interval or timeout a variable may give: a year, in seconds.
pub const MAX_SECONDS: u64 = 365 * 24 * 3600;

/// The longest test delay per cell: an hour, in milliseconds.
pub const MAX_TEST_DELAY_MS: u64 = 3_600_000;

/// The value of `name`: `None` when unset or empty, an error when not UTF-8.
fn var(name: &str) -> Result<Option<String>, ConfigError> {
    match std::env::var_os(name) {
        None => Ok(None),
        Some(v) if v.is_empty() => Ok(None),
        Some(v) => match v.into_string() {
            Ok(s) => Ok(Some(s)),
            Err(raw) => Err(ConfigError::Env {
                var: name.to_string(),
                value: raw.to_string_lossy().into_owned(),
                message: "is not UTF-8 text".to_string(),
                fix: format!("set {name} to a plain number, or unset it"),
            }),
        },
    }
}

/// `name`'s value parsed as a number in `0..=max` (`integer`: no fraction).
fn number(name: &str, unit: &str, max: u64, integer: bool) -> Result<Option<f64>, ConfigError> {
    let Some(text) = var(name)? else {
        return Ok(None);
    };
    let kind = if integer {
        "a whole number"
    } else {
        "a number"
    };
    let bad = |message: String| ConfigError::Env {
        var: name.to_string(),
        value: text.clone(),
        message,
        fix: format!("set {name} to {kind} of {unit} from 0 to {max}, or unset it"),
    };
    let parsed = if integer {
        text.trim().parse::<u64>().ok().map(|v| v as f64)
    } else {
        text.trim().parse::<f64>().ok()
    };
    let v = match parsed {
        Some(v) if v.is_nan() => return Err(bad("is not a number (NaN)".into())),
        Some(v) => v,
        None => return Err(bad(format!("is not {kind} of {unit}"))),
    };
    if !(0.0..=max as f64).contains(&v) {
        return Err(bad(format!("is out of range (0 to {max} {unit})")));
    }
    Ok(Some(v))
}

/// [`PROGRESS_SECS`]: seconds, `0..=`[`MAX_SECONDS`], fractions allowed.
pub fn progress_interval() -> Result<Option<Duration>, ConfigError> {
    Ok(number(PROGRESS_SECS, "seconds", MAX_SECONDS, false)?.map(Duration::from_secs_f64))
}

/// [`LOCK_TIMEOUT_S`]: whole seconds, `0..=`[`MAX_SECONDS`].
pub fn lock_timeout() -> Result<Option<Duration>, ConfigError> {
    Ok(
        number(LOCK_TIMEOUT_S, "seconds", MAX_SECONDS, true)?
            .map(|s| Duration::from_secs(s as u64)),
    )
}

/// [`TEST_CELL_DELAY_MS`]: whole milliseconds, `0..=`[`MAX_TEST_DELAY_MS`].
pub fn test_cell_delay() -> Result<Option<Duration>, ConfigError> {
    Ok(
        number(TEST_CELL_DELAY_MS, "milliseconds", MAX_TEST_DELAY_MS, true)?
            .map(|ms| Duration::from_millis(ms as u64)),
    )
}

/// Parse every `CVBENCH_*` variable cvbench reads at run time (the data
/// directory, `CVBENCH_DATA_DIR`, is any path and needs no check): the
/// first bad one is the error.
pub fn check() -> Result<(), ConfigError> {
    progress_interval()?;
    lock_timeout()?;
    test_cell_delay()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_out_of_range_or_malformed_are_errors_naming_the_variable() {
        // Through `number` on a variable name no other test sets.
        let name = "CVBENCH_ENV_UNIT_TEST_VALUE";
        for (value, ok) in [
            ("", None),
            ("5", Some(5.0)),
            (" 2.5 ", Some(2.5)),
            ("0", Some(0.0)),
            ("1e20", None),
            ("-1", None),
            ("NaN", None),
            ("inf", None),
            ("abc", None),
        ] {
            std::env::set_var(name, value);
            let r = number(name, "seconds", MAX_SECONDS, false);
            match ok {
                Some(v) => assert_eq!(r.unwrap(), Some(v), "{value}"),
                None if value.is_empty() => assert_eq!(r.unwrap(), None),
                None => {
                    let e = r.unwrap_err().to_string();
                    assert!(e.contains(name) && e.contains("fix:"), "{e}");
                }
            }
        }
        std::env::set_var(name, "2.5");
        assert!(number(name, "ms", 10, true).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            std::env::set_var(name, std::ffi::OsStr::from_bytes(b"\xff"));
            let e = number(name, "s", 10, true).unwrap_err().to_string();
            assert!(e.contains("not UTF-8"), "{e}");
        }
        std::env::remove_var(name);
    }
}
