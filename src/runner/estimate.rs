//! A plan's cost in minutes a person can plan with: the rate (seconds per
//! cost unit) of the stored runs of the same kind made on this machine,
//! times the plan's cost ([`crate::experiments::Plan::cost`]).
//!
//! A stored run gives its seconds (the cells' compute seconds, summed; the
//! run's wall seconds in manifests that lack them) and, through
//! [`Kind::stored_cost`], its cost in the same units as the plan's. The rate
//! is the stored seconds over the stored cost, summed over the runs: those
//! of the same config (its output folder's name) if there is one, on this
//! machine or else elsewhere (said so), since a kind's cost per unit grows
//! with the data; without one, those made on this machine if any (else
//! those made elsewhere, said so).

use crate::experiments::timing::planning_minutes;
use crate::experiments::Kind;
use crate::results::manifest::{Machine, Manifest};
use crate::results::table::{from_frame, read_parquet};
use crate::results::Record;
use std::path::Path;

/// What one stored run contributes to a rate.
#[derive(Clone, Debug)]
pub struct StoredCost {
    /// The run's name (its output folder).
    pub name: String,
    /// The machine it ran on.
    pub machine: Machine,
    /// Its seconds.
    pub seconds: f64,
    /// Its cost, in the plan's cost units.
    pub cost: f64,
}

/// Seconds per cost unit, and the stored runs that gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    /// Seconds per cost unit.
    pub seconds_per_unit: f64,
    /// The stored runs it comes from.
    pub runs: usize,
    /// Whether they are the stored run of the same config.
    pub same_run: bool,
    /// `None` when they ran on this machine; else the machines they ran on
    /// (no stored run was made on this one).
    pub elsewhere: Option<String>,
}

/// Whether two machines are the same one, as far as a rate goes: the same
/// host name, CPU model and core count, and the same CPU identity where
/// both runs recorded it.
fn same_machine(a: &Machine, b: &Machine) -> bool {
    let same_id = match (&a.cpu_id, &b.cpu_id) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    a.hostname == b.hostname && a.cpu_model == b.cpu_model && a.cpus == b.cpus && same_id
}

/// A machine in words, for a rate measured elsewhere.
fn describe(m: &Machine) -> String {
    format!(
        "{}, {} CPU{}",
        m.cpu_text(),
        m.cpus,
        if m.cpus == 1 { "" } else { "s" }
    )
}

/// The rate of the stored run of the same config (the plan's output folder
/// `name`) where there is one, made on `here` if it was, else elsewhere
/// (said so); without one, of the kind's stored runs made on `here`, or
/// else of those made on other machines (said so). A config's own run
/// predicts it far better than the kind's average (a kind's cost per unit
/// grows with the data and the method), even from another machine. `None`
/// when no stored run has a positive cost and a positive, finite time.
pub fn rate(stored: &[StoredCost], here: &Machine, name: &str) -> Option<Rate> {
    let usable: Vec<&StoredCost> = stored
        .iter()
        .filter(|s| s.cost.is_finite() && s.cost > 0.0)
        .filter(|s| s.seconds.is_finite() && s.seconds > 0.0)
        .collect();
    let same: Vec<&StoredCost> = usable.iter().copied().filter(|s| s.name == name).collect();
    let same_run = !same.is_empty();
    let pool = if same_run { same } else { usable };
    let mine: Vec<&StoredCost> = pool
        .iter()
        .copied()
        .filter(|s| same_machine(&s.machine, here))
        .collect();
    let here_only = !mine.is_empty();
    let from = if here_only { mine } else { pool };
    if from.is_empty() {
        return None;
    }
    let elsewhere = (!here_only).then(|| {
        let mut names: Vec<String> = from.iter().map(|s| describe(&s.machine)).collect();
        names.sort();
        names.dedup();
        names.join("; ")
    });
    let seconds: f64 = from.iter().map(|s| s.seconds).sum();
    let cost: f64 = from.iter().map(|s| s.cost).sum();
    Some(Rate {
        seconds_per_unit: seconds / cost,
        runs: from.len(),
        same_run,
        elsewhere,
    })
}

/// One stored run's contribution: `None` when its records do not give the
/// kind's cost.
pub fn stored_cost(kind: &dyn Kind, manifest: &Manifest, records: &[Record]) -> Option<StoredCost> {
    Some(StoredCost {
        name: manifest.name.clone(),
        machine: manifest.machine.clone(),
        seconds: manifest.compute_seconds.unwrap_or(manifest.seconds),
        cost: kind.stored_cost(records)?,
    })
}

/// The stored runs of a kind: those that give their cost, and how many
/// more do not (their records lack what the cost needs).
#[derive(Clone, Debug, Default)]
pub struct Stored {
    /// The runs that give their cost.
    pub costs: Vec<StoredCost>,
    /// Runs of the kind whose records do not give it.
    pub without_cost: usize,
}

/// Every stored run of `kind` directly under the results folder `root`;
/// folders that are not readable runs of that kind are skipped (the report
/// lists those).
pub fn stored_costs(root: &Path, kind: &dyn Kind) -> Stored {
    let mut out = Stored::default();
    let Ok(entries) = std::fs::read_dir(root) else {
        return out;
    };
    let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs {
        let Some((manifest, records)) = read_run(&dir, kind) else {
            continue;
        };
        match stored_cost(kind, &manifest, &records) {
            Some(c) => out.costs.push(c),
            None => out.without_cost += 1,
        }
    }
    out
}

/// A stored run of `kind` in `dir`: its manifest and records.
fn read_run(dir: &Path, kind: &dyn Kind) -> Option<(Manifest, Vec<Record>)> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).ok()?;
    let manifest: Manifest = serde_json::from_str(&text).ok()?;
    if manifest.kind != kind.name() {
        return None;
    }
    let frame = read_parquet(&dir.join("records.parquet")).ok()?;
    Some((manifest, from_frame(&frame).ok()?))
}

/// The clause that says how long `total` cost units take at `rate`;
/// without one, `without_cost` stored runs of the kind whose records do not
/// give their cost are said so.
pub fn duration_text(total: f64, rate: Option<&Rate>, without_cost: usize) -> String {
    let Some(r) = rate else {
        return if without_cost > 0 {
            format!(
                "no stored run to estimate from ({without_cost} stored run{} of this kind, but their records do not give its cost units)",
                if without_cost == 1 { "" } else { "s" }
            )
        } else {
            "no stored run to estimate from".to_string()
        };
    };
    let m = planning_minutes(total * r.seconds_per_unit / 60.0);
    let runs = if r.same_run {
        "the stored run of this config".to_string()
    } else {
        format!(
            "{} stored run{} of this kind",
            r.runs,
            if r.runs == 1 { "" } else { "s" }
        )
    };
    match &r.elsewhere {
        None => format!("about {m} minutes on this machine (at the rate of {runs} made on it)"),
        Some(machines) if r.same_run => format!(
            "about {m} minutes at the rate of {runs} made on another machine ({machines}; not on this one)"
        ),
        Some(machines) => format!(
            "about {m} minutes at the rate of {runs} made on another machine ({machines}; none on this one)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test fixture: fabricated stored runs, not measurements.
    fn machine(host: &str) -> Machine {
        Machine {
            hostname: host.into(),
            os: "linux".into(),
            cpus: 2,
            cpu_model: "fixture cpu".into(),
            cpu_id: None,
            memory_bytes: None,
        }
    }

    fn stored(host: &str, seconds: f64, cost: f64) -> StoredCost {
        StoredCost {
            name: format!("run-{seconds}"),
            machine: machine(host),
            seconds,
            cost,
        }
    }

    #[test]
    fn the_rate_is_stored_seconds_over_stored_cost_on_this_machine_first() {
        let here = machine("here");
        let runs = [
            stored("here", 60.0, 1_000.0),
            stored("here", 180.0, 2_000.0),
            // Another machine, a zero cost and a NaN time count for nothing
            // while this machine has runs.
            stored("elsewhere", 1.0, 1_000.0),
            stored("here", 5.0, 0.0),
            stored("here", f64::NAN, 10.0),
        ];
        let r = rate(&runs, &here, "new").unwrap();
        assert_eq!((r.runs, r.elsewhere.as_deref()), (2, None));
        assert!((r.seconds_per_unit - 240.0 / 3_000.0).abs() < 1e-12);
        // 6,000 units at 0.08 s each: 480 s, 8 minutes.
        assert_eq!(
            duration_text(6_000.0, Some(&r), 0),
            "about 8.0 minutes on this machine (at the rate of 2 stored runs of this kind made on it)"
        );
        assert!(duration_text(1e6, Some(&r), 0).starts_with("about 1333 minutes"));
        // The stored run of the same config gives the rate on its own.
        let r = rate(&runs, &here, "run-180").unwrap();
        assert!(r.same_run && (r.seconds_per_unit - 0.09).abs() < 1e-12);
        assert_eq!(
            duration_text(1_000.0, Some(&r), 0),
            "about 1.5 minutes on this machine (at the rate of the stored run of this config made on it)"
        );
        // The same config's run made elsewhere (here: recorded with another
        // core count) still beats this machine's kind average, said so.
        let mut slow = stored("elsewhere", 7_200.0, 1_000.0);
        slow.name = "long-one".into();
        let mut all = runs.to_vec();
        all.push(slow);
        let r = rate(&all, &here, "long-one").unwrap();
        assert!(r.same_run && (r.seconds_per_unit - 7.2).abs() < 1e-12);
        assert_eq!(
            duration_text(1_000.0, Some(&r), 0),
            "about 120 minutes at the rate of the stored run of this config made on another machine (fixture cpu, 2 CPUs; not on this one)"
        );
    }

    #[test]
    fn runs_of_another_machine_give_a_rate_that_says_so_and_none_says_no_run() {
        let runs = [stored("elsewhere", 60.0, 1_000.0)];
        let r = rate(&runs, &machine("here"), "new").unwrap();
        assert_eq!(r.elsewhere.as_deref(), Some("fixture cpu, 2 CPUs"));
        assert_eq!(
            duration_text(1_000.0, Some(&r), 0),
            "about 1.0 minutes at the rate of 1 stored run of this kind made on another machine (fixture cpu, 2 CPUs; none on this one)"
        );
        assert_eq!(rate(&[], &machine("here"), "new"), None);
        assert_eq!(
            rate(&[stored("here", 1.0, 0.0)], &machine("here"), "new"),
            None
        );
        assert_eq!(
            duration_text(6_000.0, None, 0),
            "no stored run to estimate from"
        );
        assert_eq!(
            duration_text(6_000.0, None, 2),
            "no stored run to estimate from (2 stored runs of this kind, but their records do not give its cost units)"
        );
    }

    /// A test fixture: fabricated `svm_cv` records (two rounds of 90
    /// training rows, timed 3 times; an `svm-train -v` row and an extra
    /// solve that the plan's cost does not count).
    #[test]
    fn an_svm_cv_run_costs_its_rounds_training_rows_times_repeats() {
        use crate::experiments::svm_cv::rows::SvmRow;
        use crate::experiments::svm_cv::SvmCvKind;
        use crate::results::rows::to_records;
        let row = |fold: i64, role: &str| SvmRow {
            fold,
            role: role.into(),
            n_train: 90,
            timing_repeats: 3,
            ..SvmRow::default()
        };
        let rows = [
            row(0, "round"),
            row(1, "round"),
            row(-1, "cv"),
            row(0, "extra: full model"),
        ];
        let records = to_records(&rows).unwrap();
        assert_eq!(SvmCvKind.stored_cost(&records), Some(540.0));
        assert_eq!(SvmCvKind.stored_cost(&[]), None);
    }
}
