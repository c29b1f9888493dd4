//! Progress of a run's cells on standard error: a live bar on a terminal;
//! elsewhere (a SLURM log, `2> file`) a plain line every few seconds with
//! the cells done, the total, the elapsed time and an ETA; nothing when quiet.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// Nothing.
    Quiet,
    /// A bar on a terminal, plain lines otherwise.
    Auto,
    /// Plain lines, also on a terminal.
    Lines,
}

/// The default interval between plain progress lines.
pub const LINE_INTERVAL: Duration = Duration::from_secs(10);

/// A progress display for `total` cells.
pub struct Progress {
    bar: Option<ProgressBar>,
    lines: Option<Lines>,
}

struct Lines {
    prefix: String,
    total: u64,
    done: AtomicU64,
    started: Instant,
    interval: Duration,
    last: Mutex<Instant>,
}

/// `1h02m`, `3m05s`, `12s`.
pub fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

impl Progress {
    /// Progress of `total` cells named by `prefix`. `interval` (plain lines
    /// only) is the least time between two lines; `CVBENCH_PROGRESS_SECS`
    /// overrides it.
    pub fn new(mode: ProgressMode, prefix: &str, total: u64) -> Progress {
        // A bad value is refused before the run starts (`config::env::check`).
        let interval = crate::config::env::progress_interval()
            .ok()
            .flatten()
            .unwrap_or(LINE_INTERVAL);
        let terminal = std::io::stderr().is_terminal();
        match mode {
            ProgressMode::Quiet => Progress {
                bar: None,
                lines: None,
            },
            ProgressMode::Auto if terminal => {
                let bar = ProgressBar::new(total);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{prefix} [{bar:30}] {pos}/{len} cells, {elapsed} elapsed, ETA {eta} {msg}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                );
                bar.set_prefix(prefix.to_string());
                Progress {
                    bar: Some(bar),
                    lines: None,
                }
            }
            _ => Progress {
                bar: None,
                lines: Some(Lines {
                    prefix: prefix.to_string(),
                    total,
                    done: AtomicU64::new(0),
                    started: Instant::now(),
                    interval,
                    last: Mutex::new(Instant::now()),
                }),
            },
        }
    }

    /// A message line (above the bar on a terminal).
    pub fn println(&self, msg: &str) {
        match (&self.bar, &self.lines) {
            (Some(b), _) => b.println(msg),
            (None, Some(_)) => eprintln!("{msg}"),
            _ => {}
        }
    }

    /// One more cell done.
    pub fn inc(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
        if let Some(l) = &self.lines {
            let done = l.done.fetch_add(1, Ordering::Relaxed) + 1;
            let now = Instant::now();
            let Ok(mut last) = l.last.lock() else { return };
            if done == l.total || now.duration_since(*last) >= l.interval {
                *last = now;
                eprintln!("{}", l.line(done, now));
            }
        }
    }

    /// Remove the bar (the plain lines have said everything).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Lines {
    fn line(&self, done: u64, now: Instant) -> String {
        let elapsed = now.duration_since(self.started);
        let eta = if done == 0 || done >= self.total {
            "0s".to_string()
        } else {
            let per = elapsed.as_secs_f64() / done as f64;
            fmt_duration(Duration::from_secs_f64(per * (self.total - done) as f64))
        };
        format!(
            "{}: {done}/{} cells done, {} elapsed, ETA {eta}",
            self.prefix,
            self.total,
            fmt_duration(elapsed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_lines_read_plainly() {
        assert_eq!(fmt_duration(Duration::from_secs(5)), "5s");
        assert_eq!(fmt_duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(fmt_duration(Duration::from_secs(3720)), "1h02m");
        let l = Lines {
            prefix: "run".into(),
            total: 4,
            done: AtomicU64::new(0),
            started: Instant::now(),
            interval: LINE_INTERVAL,
            last: Mutex::new(Instant::now()),
        };
        let s = l.line(1, l.started + Duration::from_secs(10));
        assert_eq!(s, "run: 1/4 cells done, 10s elapsed, ETA 30s");
    }
}
