//! Sharding: `--shard I/N` runs only shard I's share of every config's cells.
//!
//! The assignment depends only on the plan (its name, cell order and cost
//! estimates), never on the thread count or the machine, so N processes on N
//! machines agree on it without talking to each other: greedy
//! longest-processing-time first on the kind's cost estimates (equal costs
//! when it has none, which gives round-robin in the plan's order), starting
//! from a shard chosen by the config's name so that many small configs do not
//! all load shard 0. Exclusive (timing) cells thus go one per task whenever
//! there are at least as many tasks as cells.

use crate::experiments::Plan;
use std::fmt;

/// Errors in a `--shard` value or the SLURM environment.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Not `I/N` or `slurm`.
    #[error("--shard {0:?}: expected I/N with 0 <= I < N (e.g. --shard 0/4), or `slurm`")]
    Syntax(String),
    /// `--shard slurm` outside a SLURM job array.
    #[error("--shard slurm: {0}\n  fix: run it as a task of a SLURM job array (sbatch --array=0-N), e.g. from the script `cvbench slurm` writes, or give --shard I/N")]
    Slurm(String),
}

/// One shard of N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
    /// The SLURM job (`<array job>_<task>`) when taken from SLURM.
    pub job: Option<String>,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)?;
        if let Some(j) = &self.job {
            write!(f, " (slurm job {j})")?;
        }
        Ok(())
    }
}

impl Shard {
    /// Parse `I/N`, or `slurm` (read with `env`, e.g. `std::env::var`).
    pub fn parse(s: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        if s.eq_ignore_ascii_case("slurm") {
            return Shard::from_slurm(env);
        }
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::Syntax(s.into()))?;
        let parse = |x: &str| x.trim().parse::<usize>().ok();
        match (parse(i), parse(n)) {
            (Some(index), Some(count)) if count >= 1 && index < count => Ok(Shard {
                index,
                count,
                job: None,
            }),
            _ => Err(ShardError::Syntax(s.into())),
        }
    }

    /// I and N from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (or
    /// SLURM_ARRAY_TASK_MIN/MAX for arrays of consecutive ids).
    fn from_slurm(env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        let num = |name: &str| -> Result<Option<usize>, ShardError> {
            match env(name) {
                None => Ok(None),
                Some(v) => v.trim().parse::<usize>().map(Some).map_err(|_| {
                    ShardError::Slurm(format!("{name}={v:?} is not a non-negative integer"))
                }),
            }
        };
        let id = num("SLURM_ARRAY_TASK_ID")?.ok_or_else(|| {
            ShardError::Slurm("SLURM_ARRAY_TASK_ID is not set (not a job array task)".into())
        })?;
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = match (num("SLURM_ARRAY_TASK_COUNT")?, num("SLURM_ARRAY_TASK_MAX")?) {
            (Some(c), _) => c,
            (None, Some(max)) if max >= min => max - min + 1,
            _ => {
                return Err(ShardError::Slurm(
                    "neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is set".into(),
                ))
            }
        };
        let index = id.checked_sub(min).filter(|&i| i < count).ok_or_else(|| {
            ShardError::Slurm(format!(
                "task id {id} is outside the array (min {min}, {count} tasks); use consecutive ids such as --array=0-{}",
                count.saturating_sub(1)
            ))
        })?;
        let job = env("SLURM_ARRAY_JOB_ID").map(|j| format!("{j}_{id}"));
        Ok(Shard { index, count, job })
    }

    /// Which shard runs each of the plan's cells.
    pub fn assign(plan: &dyn Plan, count: usize) -> Vec<usize> {
        let n = plan.cells().len();
        let count = count.max(1);
        let costs: Vec<f64> = (0..n)
            .map(|i| {
                plan.cost(i)
                    .filter(|c| c.is_finite() && *c >= 0.0)
                    .unwrap_or(1.0)
            })
            .collect();
        let start = (cvbench_engine::api::seed::derive(0, plan.name()) % count as u64) as usize;
        let mut order: Vec<usize> = (0..n).collect();
        // Largest first; ties keep the plan's order (a stable sort).
        order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
        let mut load = vec![0.0f64; count];
        let mut out = vec![0; n];
        for i in order {
            let s = (0..count)
                .min_by(|&a, &b| {
                    load[a]
                        .total_cmp(&load[b])
                        .then(((a + count - start) % count).cmp(&((b + count - start) % count)))
                })
                .unwrap_or(0);
            load[s] += costs[i];
            out[i] = s;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::{Cell, ExperimentError, PlanHead};
    use crate::results::Record;

    struct P(PlanHead, Option<Vec<f64>>);
    impl Plan for P {
        fn head(&self) -> &PlanHead {
            &self.0
        }
        fn run_cell(&self, _: usize) -> Result<Vec<Record>, ExperimentError> {
            Ok(vec![])
        }
        fn cost(&self, i: usize) -> Option<f64> {
            self.1.as_ref().map(|c| c[i])
        }
    }

    fn plan(n: usize, costs: Option<Vec<f64>>) -> P {
        let cells = (0..n)
            .map(|i| Cell {
                key: format!("c{i}"),
                seed: i as u64,
            })
            .collect();
        P(
            PlanHead {
                kind: "test",
                name: "p".into(),
                base_seed: 0,
                exclusive: false,
                cells,
            },
            costs,
        )
    }

    #[test]
    fn parse_accepts_i_of_n_and_rejects_the_rest() {
        let none = |_: &str| None;
        assert_eq!(Shard::parse("2/3", none).unwrap().index, 2);
        for bad in ["3/3", "1", "a/b", "0/0", "-1/2", ""] {
            assert!(Shard::parse(bad, none).is_err(), "{bad}");
        }
        assert!(matches!(
            Shard::parse("slurm", none),
            Err(ShardError::Slurm(_))
        ));
    }

    #[test]
    fn slurm_env_gives_index_and_count() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let s = Shard::parse(
            "slurm",
            env(&[
                ("SLURM_ARRAY_TASK_ID", "4"),
                ("SLURM_ARRAY_TASK_COUNT", "5"),
                ("SLURM_ARRAY_JOB_ID", "77"),
            ]),
        )
        .unwrap();
        assert_eq!((s.index, s.count, s.job.as_deref()), (4, 5, Some("77_4")));
        let s = Shard::parse(
            "slurm",
            env(&[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "3"),
            ]),
        )
        .unwrap();
        assert_eq!((s.index, s.count), (2, 3));
        assert!(Shard::parse("slurm", env(&[("SLURM_ARRAY_TASK_ID", "1")])).is_err());
    }

    #[test]
    fn assignment_covers_every_cell_once_and_balances() {
        let p = plan(10, None);
        let a = Shard::assign(&p, 3);
        let mut per = [0; 3];
        a.iter().for_each(|&s| per[s] += 1);
        assert_eq!(per.iter().sum::<usize>(), 10);
        assert!(per.iter().all(|&c| c == 3 || c == 4), "{per:?}");
        // Fewer cells than tasks: at most one cell per task.
        let mut seen = Shard::assign(&plan(3, None), 5);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 3);
        // Costs: the big cell gets a task of its own.
        let p = plan(5, Some(vec![1.0, 1.0, 10.0, 1.0, 1.0]));
        let a = Shard::assign(&p, 2);
        assert!((0..5).filter(|&i| i != 2).all(|i| a[i] != a[2]), "{a:?}");
    }
}
