//! Which reuse a grid run uses ([`Reuse`]), its names and their checks.

use crate::svm::seeding::SeedingMethod;

/// Which reuse is on (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Reuse {
    /// Distances computed once, one kernel matrix per gamma.
    pub gamma_blocks: bool,
    /// Warm start along increasing C.
    pub c_path: bool,
    /// Alpha seeding across folds with this method (`None`: off).
    pub fold_seeding: Option<SeedingMethod>,
    /// Independent solves in parallel on the current rayon pool.
    pub threads: bool,
    /// SMO in rounds with Newton steps on the free set between them
    /// ([`super::newton`]).
    pub newton: bool,
}

impl Reuse {
    /// No reuse: every (point, fold) from `alpha = 0`, one at a time
    /// (grid.py's way).
    pub fn none() -> Reuse {
        Reuse {
            gamma_blocks: false,
            c_path: false,
            fold_seeding: None,
            threads: false,
            newton: false,
        }
    }

    /// The exact levels, `cvbench grid`'s default: gamma blocks and threads
    /// (grid.py's rates to the bit, faster).
    pub fn exact_levels() -> Reuse {
        Reuse {
            gamma_blocks: true,
            threads: true,
            ..Reuse::none()
        }
    }

    /// Gamma blocks, C path, Newton steps and threads.
    pub fn all() -> Reuse {
        Reuse {
            gamma_blocks: true,
            c_path: true,
            fold_seeding: None,
            threads: true,
            newton: true,
        }
    }

    /// Parse `none`, `all`, or a `+`/`,`-separated list of `gamma`, `cpath`,
    /// `folds` (tree seeding), `folds-<method>`, `newton`, `threads`.
    pub fn parse(s: &str) -> Result<Reuse, String> {
        match s {
            "none" => return Ok(Reuse::none()),
            "all" => return Ok(Reuse::all()),
            _ => {}
        }
        let mut r = Reuse::none();
        for part in s.split(['+', ',']) {
            match part {
                "gamma" => r.gamma_blocks = true,
                "cpath" => r.c_path = true,
                "threads" => r.threads = true,
                "newton" => r.newton = true,
                "folds" => r.fold_seeding = Some(SeedingMethod::Tree),
                p if p.starts_with("folds-") => {
                    let m = &p["folds-".len()..];
                    let method = SeedingMethod::ALL
                        .iter()
                        .copied()
                        .find(|x| x.as_str() == m && x.is_chain_or_tree())
                        .ok_or_else(|| {
                            format!("unknown fold seeding `{m}`: use ato, mir, sir, sir_two_chains or tree")
                        })?;
                    r.fold_seeding = Some(method);
                }
                other => {
                    return Err(format!(
                        "unknown reuse `{other}`: use none, all, or a list of gamma, cpath, newton, folds, folds-<sir|sir_two_chains|mir|ato|tree>, threads"
                    ))
                }
            }
        }
        r.check()?;
        Ok(r)
    }

    /// Fold seeding cannot be combined with gamma blocks, the C path or
    /// Newton steps.
    pub fn check(&self) -> Result<(), String> {
        if self.fold_seeding.is_some() && (self.gamma_blocks || self.c_path || self.newton) {
            return Err(
                "fold seeding (`folds`) runs its own seeded CV per point and cannot be combined with `gamma`, `cpath` or `newton`"
                    .into(),
            );
        }
        Ok(())
    }

    /// The canonical name (`none`, `all`, or the parts joined with `+`).
    pub fn name(&self) -> String {
        if *self == Reuse::none() {
            return "none".into();
        }
        if *self == Reuse::all() {
            return "all".into();
        }
        let mut parts: Vec<String> = Vec::new();
        if self.gamma_blocks {
            parts.push("gamma".into());
        }
        if self.c_path {
            parts.push("cpath".into());
        }
        if self.newton {
            parts.push("newton".into());
        }
        if let Some(m) = self.fold_seeding {
            parts.push(if m == SeedingMethod::Tree {
                "folds".into()
            } else {
                format!("folds-{}", m.as_str())
            });
        }
        if self.threads {
            parts.push("threads".into());
        }
        parts.join("+")
    }

    /// True when every rate is bit-identical to the baseline's (no warm start).
    pub fn exact(&self) -> bool {
        !self.c_path && !self.newton && self.fold_seeding.is_none()
    }
}

trait ChainOrTree {
    fn is_chain_or_tree(&self) -> bool;
}

impl ChainOrTree for SeedingMethod {
    fn is_chain_or_tree(&self) -> bool {
        use crate::svm::cv::strategy::RoundOrder;
        let (order, seeder) = self.axes();
        matches!(
            order,
            RoundOrder::Chain | RoundOrder::TwoChains | RoundOrder::Tree
        ) && !seeder.loocv_only()
    }
}
