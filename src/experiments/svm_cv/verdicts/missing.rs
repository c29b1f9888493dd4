//! What a "not run" row of Wen et al.'s scorecard lacks: the run that a
//! like-with-like verdict needs and no stored run holds (which method, at
//! which dataset, setting, k, kernel cache and threads), and what it would
//! cost in minutes, estimated from the stored cells' own measured seconds
//! (this file's `missing_rule!` says how).

use crate::experiments::svm_cv::rows::{RunKey, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::svm_cv::variants::base_method;
use crate::experiments::timing::planning_minutes;
use cvbench_engine::api::strategies::SolverKind;
use std::collections::BTreeMap;

/// How a missing run's cost is estimated, in words, for the rules' texts.
macro_rules! missing_rule {
    () => {
        "a not-run row names the run that is missing and its estimated minutes per timed run, from the stored cells' own measured seconds (the wall median where a cell was timed several times): the baseline's seconds at the same dataset, setting, k, cache and threads where stored, else those of its nearest stored cell on the same dataset (same setting first, then same cache and threads, then the nearest k) scaled by the training rows of its rounds, n (k - 1); a seeded method's, the baseline's times the method's median time over the baseline's in the nearest stored like-with-like cells (same dataset and k, else same k, else same dataset, else all), the range of those ratios giving the range"
    };
}
pub(crate) use missing_rule;

/// One stored cell: one method's CV at (dataset, setting, k) in one run,
/// with its measured seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    /// The run (output folder) that holds it.
    pub run: String,
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured (a number or `n`).
    pub k: String,
    /// Rows of the dataset (0 where the records do not say).
    pub n: u64,
    /// Method (`ours` = the baseline).
    pub method: String,
    /// Kernel cache and threads, in words ([`crate::experiments::svm_cv::rows::SvmRow::setup`]).
    pub setup: String,
    /// Seconds of one timed run: the wall median where timed several
    /// times, else its one run's (or its rounds' summed) seconds.
    pub seconds: f64,
    /// Whether every round ran (not a first-rounds estimate).
    pub whole: bool,
}

impl Cell {
    /// k as a number (`n` = the dataset's rows), where known.
    fn k_number(&self) -> Option<f64> {
        k_number(&self.k, self.n)
    }
}

/// The stored cells of runs' records: one [`Cell`] per (dataset, setting,
/// k, method, cache and threads) of our SMO's rounds in each run (a
/// variant's method under its plain name, so that an ablation's cells
/// count too), timed by the wall median where its records have one, else
/// its rounds' summed seconds.
pub fn cells(runs: &[(&str, &[SvmRow])]) -> Vec<Cell> {
    let mut out: Vec<Cell> = Vec::new();
    for (run, records) in runs {
        let mut groups: BTreeMap<(RunKey, String), Vec<&SvmRow>> = BTreeMap::new();
        for r in records
            .iter()
            .filter(|r| r.fold >= 0 && r.solver_or_smo() == SolverKind::Smo.as_str())
        {
            let (d, st, k, m) = r.run_key();
            let key = ((d, st, k, base_method(&m).to_string()), r.setup());
            groups.entry(key).or_default().push(r);
        }
        for (((dataset, setting, k, method), setup), rounds) in groups {
            let first = rounds[0];
            let wall = (first.timing_repeats >= 1)
                .then_some(first.wall_median_s)
                .flatten();
            out.push(Cell {
                run: run.to_string(),
                dataset,
                setting,
                k,
                n: first.n,
                method,
                setup,
                seconds: wall.unwrap_or_else(|| rounds.iter().map(|r| r.round_seconds()).sum()),
                whole: first_rounds_of(rounds.iter().copied()).is_none(),
            });
        }
    }
    out
}

/// k as a number: a numeral, or `n` where the dataset's rows are known.
fn k_number(k: &str, n: u64) -> Option<f64> {
    match k {
        "n" => (n > 1).then_some(n as f64),
        _ => k.parse::<f64>().ok().filter(|k| *k >= 2.0),
    }
}

/// Which stored cells a level of nearness keeps.
type Keep<'a> = dyn Fn(&Cell) -> bool + 'a;

/// A run a like-with-like verdict needs that no stored run holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// Method (`ours` = the baseline).
    pub method: String,
    /// Kernel cache and threads it must run with.
    pub setup: String,
}

/// A missing run's estimated seconds per timed run, with the range of the
/// ratios it was scaled by and how it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Seconds.
    pub seconds: f64,
    /// Smallest and largest seconds (the same as `seconds` for a baseline).
    pub range: (f64, f64),
    /// How, in words.
    pub how: String,
}

/// The method as a row names it.
fn who(m: &str) -> String {
    if m == "ours" {
        "the baseline".into()
    } else {
        m.to_uppercase()
    }
}

/// Seconds as minutes, for planning (`2.5`, `under 0.1`).
fn minutes(s: f64) -> String {
    let m = s / 60.0;
    if m < 0.05 {
        "under 0.1".into()
    } else {
        planning_minutes(m)
    }
}

/// The median of `v` (not empty).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let h = v.len() / 2;
    if v.len() % 2 == 1 {
        v[h]
    } else {
        (v[h - 1] + v[h]) / 2.0
    }
}

impl Missing {
    /// The missing run of method `m` at (dataset, setting, k) with `setup`.
    pub fn of(dataset: &str, setting: &str, k: &str, m: &str, setup: &str) -> Missing {
        Missing {
            dataset: dataset.into(),
            setting: setting.into(),
            k: k.into(),
            method: m.into(),
            setup: setup.into(),
        }
    }

    /// Whether a stored cell is this run.
    pub fn stored_in(&self, cells: &[Cell]) -> bool {
        cells.iter().any(|c| {
            c.dataset == self.dataset
                && c.setting == self.setting
                && c.k == self.k
                && c.method == self.method
                && c.setup == self.setup
        })
    }

    /// The baseline's seconds at this run's dataset, setting, k and set-up,
    /// or why they cannot be estimated.
    fn baseline(&self, cells: &[Cell]) -> Result<Estimate, String> {
        let n = cells
            .iter()
            .filter(|c| c.dataset == self.dataset)
            .map(|c| c.n)
            .max()
            .unwrap_or(0);
        let usable = |c: &&Cell| {
            c.method == "ours"
                && c.dataset == self.dataset
                && c.whole
                && c.seconds.is_finite()
                && c.seconds > 0.0
        };
        if let Some(c) = cells
            .iter()
            .filter(usable)
            .find(|c| c.setting == self.setting && c.k == self.k && c.setup == self.setup)
        {
            return Ok(Estimate {
                seconds: c.seconds,
                range: (c.seconds, c.seconds),
                how: format!("the baseline's measured {:.1} s (`{}`)", c.seconds, c.run),
            });
        }
        let Some(kt) = k_number(&self.k, n) else {
            return Err(format!(
                "no estimate: the rows of {} are not in the stored records",
                self.dataset
            ));
        };
        let distance = |c: &Cell| {
            let ks = c.k_number().unwrap_or(f64::NAN);
            (
                c.setting != self.setting,
                c.setup != self.setup,
                ((kt - 1.0) / (ks - 1.0)).ln().abs(),
            )
        };
        let nearest = cells
            .iter()
            .filter(usable)
            .filter(|c| c.k_number().is_some())
            .min_by(|a, b| {
                let (x, y) = (distance(a), distance(b));
                (x.0, x.1).cmp(&(y.0, y.1)).then(x.2.total_cmp(&y.2))
            });
        let Some(c) = nearest else {
            return Err(format!(
                "no estimate: no stored baseline run on {} to scale from",
                self.dataset
            ));
        };
        let ks = c.k_number().unwrap_or(kt);
        let s = c.seconds * (kt - 1.0) / (ks - 1.0);
        let mut at = Vec::new();
        if c.setting != self.setting {
            at.push(format!("setting `{}`", c.setting));
        }
        at.push(format!("k = {}", c.k));
        if c.setup != self.setup {
            at.push(c.setup.clone());
        }
        let scaled = if c.k == self.k {
            String::new()
        } else {
            format!(
                " x {:.3} (its training rows, n (k - 1), at k = {})",
                (kt - 1.0) / (ks - 1.0),
                self.k
            )
        };
        Ok(Estimate {
            seconds: s,
            range: (s, s),
            how: format!(
                "the baseline's {:.1} s at {} (`{}`){scaled}",
                c.seconds,
                at.join(", "),
                c.run
            ),
        })
    }

    /// This run's estimated seconds per timed run, or why there is none.
    pub fn estimate(&self, cells: &[Cell]) -> Result<Estimate, String> {
        let base = self.baseline(cells)?;
        if self.method == "ours" {
            return Ok(base);
        }
        // The method's time over the baseline's, in each stored cell where
        // both ran in one run at the same (dataset, setting, k, set-up).
        let pairs: Vec<(&Cell, f64)> = cells
            .iter()
            .filter(|c| c.method == self.method && c.seconds.is_finite() && c.seconds > 0.0)
            .filter_map(|c| {
                let b = cells.iter().find(|b| {
                    b.method == "ours"
                        && b.run == c.run
                        && b.dataset == c.dataset
                        && b.setting == c.setting
                        && b.k == c.k
                        && b.setup == c.setup
                        && b.seconds.is_finite()
                        && b.seconds > 0.0
                })?;
                Some((c, c.seconds / b.seconds))
            })
            .collect();
        let same_d = |c: &Cell| c.dataset == self.dataset;
        let same_k = |c: &Cell| c.k == self.k;
        let levels: [(&Keep<'_>, String); 4] = [
            (
                &|c| same_d(c) && same_k(c),
                format!(" on {} at k = {}", self.dataset, self.k),
            ),
            (&same_k, format!(" at k = {}", self.k)),
            (&same_d, format!(" on {}", self.dataset)),
            (&|_| true, String::new()),
        ];
        let Some((mut ratios, level)) = levels.iter().find_map(|(keep, words)| {
            let r: Vec<f64> = pairs.iter().filter(|p| keep(p.0)).map(|p| p.1).collect();
            (!r.is_empty()).then(|| (r, words.clone()))
        }) else {
            return Err(format!(
                "no estimate: no stored run of {} beside the baseline to take its time over the baseline's from",
                who(&self.method)
            ));
        };
        let m = median(&mut ratios);
        let (lo, hi) = (ratios[0], ratios[ratios.len() - 1]);
        let n = ratios.len();
        Ok(Estimate {
            seconds: base.seconds * m,
            range: (base.seconds * lo, base.seconds * hi),
            how: format!(
                "{} x {}'s time over the baseline's in {n} like-with-like stored cell{}{level} (median {m:.2}, range {lo:.2} to {hi:.2})",
                base.how,
                who(&self.method),
                if n == 1 { "" } else { "s" }
            ),
        })
    }

    /// The run and its cost, in words: which method, k, cache and threads,
    /// and about how many minutes per timed run, estimated how.
    pub fn words(&self, cells: &[Cell]) -> String {
        let run = format!("{} at k = {}, {}", who(&self.method), self.k, self.setup);
        match self.estimate(cells) {
            Err(why) => format!("{run} ({why})"),
            Ok(e) => {
                let (lo, hi) = (minutes(e.range.0), minutes(e.range.1));
                let range = if lo == hi {
                    String::new()
                } else {
                    format!("{lo} to {hi}; ")
                };
                let m = minutes(e.seconds);
                let about = if m.starts_with("under") { "" } else { "about " };
                format!("{run}: {about}{m} min per timed run ({range}{})", e.how)
            }
        }
    }
}

/// What a "not run" row says of the runs it lacks: each named with its
/// estimated cost (empty where none is missing).
pub fn missing_words(missing: &[Missing], cells: &[Cell]) -> String {
    if missing.is_empty() {
        return String::new();
    }
    let runs: Vec<String> = missing.iter().map(|m| m.words(cells)).collect();
    format!(
        "missing run{}: {}",
        if runs.len() == 1 { "" } else { "s" },
        runs.join("; ")
    )
}

/// The run a Table 1 seeding sub-row of method `m` lacks: the method at
/// the baseline's cache and threads (the baseline is LIBSVM's set-up, the
/// paper's), or the baseline at the method's where no baseline ran.
/// `(method, setup)` of the group's rows; `None` where nothing is missing.
pub fn table1_missing(
    dataset: &str,
    setting: &str,
    k: &str,
    rows: &[(&str, &str)],
    m: &str,
) -> Option<Missing> {
    let at = |x: &str| rows.iter().find(|r| r.0 == x).map(|r| r.1);
    match (at("ours"), at(m)) {
        (None, Some(s)) => Some(Missing::of(dataset, setting, k, "ours", s)),
        (None, None) => {
            let s = rows.first()?.1;
            Some(Missing::of(dataset, setting, k, "ours", s))
        }
        (Some(b), Some(s)) if b == s => None,
        (Some(b), _) => Some(Missing::of(dataset, setting, k, m, b)),
    }
}

/// What a Table 3 row lacks at each k of `ks` without a like-with-like
/// point (`like_k`): the baseline and SIR runs at the row's cache and
/// threads that are not stored, and, in words, one entry per such k whose
/// baseline and SIR are both stored in one run the row does not read (a
/// run without a seeding table, such as an ablation's).
pub fn table3_missing(
    dataset: &str,
    setting: &str,
    setup: &str,
    ks: &[&str],
    like_k: &[&str],
    cells: &[Cell],
) -> (Vec<Missing>, Vec<String>) {
    let open: Vec<&str> = ks.iter().copied().filter(|k| !like_k.contains(k)).collect();
    let lacks = open
        .iter()
        .flat_map(|k| ["ours", "sir"].map(|m| Missing::of(dataset, setting, k, m, setup)))
        .filter(|m| !m.stored_in(cells))
        .collect();
    let unread = open
        .iter()
        .filter_map(|k| {
            let at = |m: &str, run: &str| {
                cells.iter().any(|c| {
                    c.run == run
                        && c.dataset == dataset
                        && c.setting == setting
                        && c.k == *k
                        && c.method == m
                        && c.setup == setup
                })
            };
            let run = cells
                .iter()
                .map(|c| c.run.as_str())
                .find(|run| at("ours", run) && at("sir", run))?;
            Some(format!(
                "k = {k}: the baseline and SIR at {setup} are stored in `{run}`, whose records this row does not read (it reads runs' seeding tables, and that run has none for them)"
            ))
        })
        .collect();
    (lacks, unread)
}

/// The runs a leave-one-out row lacks, from its methods' `(method, setup)`:
/// every judged method (and the baseline, and SIR) at the baseline's cache
/// and threads (SIR's where no baseline ran), those not held.
pub fn loocv_missing(
    dataset: &str,
    setting: &str,
    judged: &[&str],
    points: &[(&str, &str)],
) -> Vec<Missing> {
    let setup = points
        .iter()
        .find(|p| p.0 == "ours")
        .or_else(|| points.iter().find(|p| p.0 == "sir"))
        .or_else(|| points.first())
        .map(|p| p.1);
    let Some(setup) = setup else {
        return Vec::new();
    };
    let held: Vec<&str> = points.iter().map(|p| p.0).collect();
    let mut out: Vec<Missing> = Vec::new();
    for m in ["ours", "sir"]
        .into_iter()
        .chain(judged.iter().copied().filter(|m| held.contains(m)))
    {
        let ok = points.iter().any(|p| p.0 == m && p.1 == setup);
        if !ok && !out.iter().any(|x| x.method == m) {
            out.push(Missing::of(dataset, setting, "n", m, setup));
        }
    }
    out
}
