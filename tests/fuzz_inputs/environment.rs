//! The values of the `CVBENCH_*` environment variables.

use super::{cases, report, runner, SERIAL};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Environment values (issue 40, 10): any value of every CVBENCH_* variable
/// (negative, NaN, infinite, huge, empty, not UTF-8) is accepted within its
/// range or refused naming the variable, never a panic; an accepted
/// progress interval makes a progress display without panicking.
#[test]
fn fuzz_environment_values() {
    use cvbench::config::env;
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let count = AtomicUsize::new(0);
    let value = prop_oneof![
        proptest::sample::select(
            &[
                "",
                "0",
                "1",
                "-1",
                "1e20",
                "1e400",
                "NaN",
                "-nan",
                "inf",
                "-inf",
                " 5 ",
                "31536000",
                "31536001",
                "18446744073709551616",
                "0x10",
                "1_000",
                "+3",
                ".5",
            ][..]
        )
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..12),
    ];
    let var = proptest::sample::select(
        &[
            env::PROGRESS_SECS,
            env::LOCK_TIMEOUT_S,
            env::TEST_CELL_DELAY_MS,
        ][..],
    );
    runner(cases(600))
        .run(&(var, value), |(var, bytes)| {
            count.fetch_add(1, Ordering::Relaxed);
            if bytes.contains(&0) {
                return Ok(());
            }
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                std::env::set_var(var, std::ffi::OsStr::from_bytes(&bytes));
            }
            #[cfg(not(unix))]
            std::env::set_var(var, String::from_utf8_lossy(&bytes).into_owned());
            let checked = env::check();
            let progress = env::progress_interval();
            let lock = env::lock_timeout();
            let delay = env::test_cell_delay();
            if let Err(e) = &checked {
                prop_assert!(e.to_string().contains(var), "{e}");
            }
            prop_assert_eq!(
                checked.is_ok(),
                progress.is_ok() && lock.is_ok() && delay.is_ok()
            );
            if let Ok(Some(d)) = progress {
                prop_assert!(d.as_secs() <= env::MAX_SECONDS);
                let p = cvbench::runner::progress::Progress::new(
                    cvbench::runner::progress::ProgressMode::Lines,
                    "fuzz",
                    0,
                );
                p.finish();
            }
            std::env::remove_var(var);
            Ok(())
        })
        .unwrap();
    report("env-values", &count);
}
