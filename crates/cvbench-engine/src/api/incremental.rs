//! TreeCV and standard k-fold CV of the incremental learners (PEGASOS,
//! LSQSGD, ridge) for callers outside the harness: a learner chosen by its
//! registry name ([`LearnerType`]) with the hyper-parameters of the
//! `[[learners]]` table of a treecv config ([`LearnerSpec`]), and the CV
//! estimate with the work counters the harness records. Everything runs
//! [`crate::cv::treecv::treecv`] and [`crate::cv::standard`] as the
//! treecv experiment kind does; nothing is computed a second way.
//!
//! The chunks (folds) are the rows in their given order (or shuffled, see
//! [`IncrementalSpec::shuffle`]) cut into `k` contiguous chunks whose sizes
//! differ by at most one, the first `n mod k` one larger ([`Chunks`]):
//! without shuffling, the test folds of scikit-learn's `KFold(k)`.

use crate::cv::standard::{standard_cv, standard_cv_parallel};
use crate::cv::treecv::{treecv as run_treecv, Strategy};
use crate::cv::{Chunks, CvOutcome, Order, Work};
use crate::data::Dataset;
use crate::learners::{AnyLearner, IncrementalLearner, LearnerError, LearnerSpec, LearnerType};
use crate::seed;
use crate::svm::model::solution::check_finite_features;

/// Why an incremental CV cannot run: each message names the parameter and
/// the fix.
#[derive(Debug, thiserror::Error)]
pub enum IncrementalError {
    /// The learner's name or a hyper-parameter does not parse (serde's
    /// message, as a config's `[[learners]]` table gives it).
    #[error("learner: {0}")]
    Spec(String),
    /// A key that is no learner's hyper-parameter.
    #[error("unknown learner parameter `{key}`: {learner} takes {takes}")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The learner type.
        learner: &'static str,
        /// Its keys, comma-separated.
        takes: String,
    },
    /// A hyper-parameter that does not apply or has a bad value.
    #[error("learner: {0}")]
    Learner(#[from] LearnerError),
    /// `k` folds do not fit the rows.
    #[error("k = {k} is not in 2..=n with n = {n} rows: use 2 <= k <= n (k = n is leave-one-out)")]
    BadK {
        /// The folds asked for.
        k: usize,
        /// The rows.
        n: usize,
    },
    /// A classifier's labels are not all -1 or +1.
    #[error("{learner} needs labels in {{-1, +1}}, but the data has others: map the two classes to -1 and +1, or use a regression learner")]
    Labels {
        /// The learner type.
        learner: &'static str,
    },
    /// A feature or a label is NaN or infinite.
    #[error("{0}")]
    NonFinite(String),
    /// The thread pool could not start.
    #[error("cannot start {threads} threads: {message}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// Why not.
        message: String,
    },
    /// A name of an order or strategy that is not in its registry.
    #[error("unknown {what} `{name}`: use {names}")]
    UnknownName {
        /// What was named (`order`, `strategy`).
        what: &'static str,
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        names: String,
    },
}

/// A hyper-parameter's value as a caller gives it: a number (`lambda`,
/// `step`, `radius`) or a flag (`project`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// A number.
    Number(f64),
    /// A flag.
    Flag(bool),
}

/// The learner named `name` (a [`LearnerType`]'s name) with the
/// hyper-parameters `params` (the keys of a treecv config's
/// `[[learners]]` table, [`LearnerType::keys`]), checked as that table is
/// ([`LearnerSpec::check`]): the same messages for an unknown type, a key
/// that does not apply and a bad value.
pub fn learner(
    name: &str,
    params: &[(String, ParamValue)],
) -> Result<AnyLearner, IncrementalError> {
    let all_keys = || LearnerType::ALL.iter().flat_map(|t| t.keys().iter());
    if let Some((key, _)) = params.iter().find(|(k, _)| !all_keys().any(|a| a == k)) {
        let kind = LearnerType::ALL.iter().find(|t| t.as_str() == name);
        return Err(IncrementalError::UnknownKey {
            key: key.clone(),
            learner: kind.map_or("a learner", |t| t.as_str()),
            takes: kind.map_or_else(
                || all_keys().copied().collect::<Vec<_>>().join(", "),
                |t| t.keys().join(", "),
            ),
        });
    }
    let spec = spec_of(name, params).map_err(|e| {
        let message = e.message().trim().to_string();
        // serde names no key for a value of the wrong type: name the first
        // key that fails alone.
        let culprit = params
            .iter()
            .find(|p| spec_of(name, std::slice::from_ref(*p)).is_err());
        IncrementalError::Spec(match culprit {
            Some((key, _)) if spec_of(name, &[]).is_ok() => format!("`{key}`: {message}"),
            _ => message,
        })
    })?;
    Ok(spec.check()?)
}

/// The `[[learners]]` table of `type = name` and `params`, deserialized.
fn spec_of(name: &str, params: &[(String, ParamValue)]) -> Result<LearnerSpec, toml::de::Error> {
    let mut table = toml::Table::new();
    table.insert("type".into(), toml::Value::String(name.into()));
    for (key, value) in params {
        let v = match *value {
            ParamValue::Number(x) => toml::Value::Float(x),
            ParamValue::Flag(b) => toml::Value::Boolean(b),
        };
        table.insert(key.clone(), v);
    }
    toml::Value::Table(table).try_into()
}

/// How an incremental CV runs, besides the learner and the method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IncrementalSpec {
    /// Number of chunks (folds), `2..=n`.
    pub k: usize,
    /// How each training phase feeds its points: in chunk order, or
    /// shuffled with a seed derived from [`seed`](Self::seed) and the phase
    /// (as the treecv experiment kind's `orders`).
    pub order: Order,
    /// Cut the rows into chunks after shuffling them with a generator
    /// seeded by [`seed`](Self::seed) (else in their given order).
    pub shuffle: bool,
    /// The run's seed.
    pub seed: u64,
    /// Threads (>= 1): TreeCV's [`Strategy::Parallel`] branches, or the
    /// folds of standard k-CV in parallel when more than one.
    pub threads: usize,
}

impl IncrementalSpec {
    /// `k` chunks in row order, fed in a fixed order, seed 0, one thread.
    pub fn new(k: usize) -> IncrementalSpec {
        IncrementalSpec {
            k,
            order: Order::Fixed,
            shuffle: false,
            seed: 0,
            threads: 1,
        }
    }

    /// The chunks of `n` rows.
    fn chunks(&self, n: usize) -> Result<Chunks, IncrementalError> {
        let bad = IncrementalError::BadK { k: self.k, n };
        if self.k < 2 {
            return Err(bad);
        }
        let chunks = if self.shuffle {
            let mut rng = seed::rng(seed::derive(self.seed, "chunks"));
            Chunks::shuffled(n, self.k, &mut rng)
        } else {
            Chunks::new((0..n).collect(), self.k)
        };
        chunks.ok_or(bad)
    }
}

/// Parse an order's name ([`Order::ALL`]).
pub fn parse_order(name: &str) -> Result<Order, IncrementalError> {
    Order::parse(name).ok_or_else(|| IncrementalError::UnknownName {
        what: "order",
        name: name.into(),
        names: names(Order::ALL.iter().map(|o| o.as_str())),
    })
}

/// Parse a TreeCV strategy's name ([`Strategy::ALL`]).
pub fn parse_strategy(name: &str) -> Result<Strategy, IncrementalError> {
    Strategy::parse(name).ok_or_else(|| IncrementalError::UnknownName {
        what: "strategy",
        name: name.into(),
        names: names(Strategy::ALL.iter().map(|s| s.as_str())),
    })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

/// What an incremental CV returns.
#[derive(Clone, Debug, PartialEq)]
pub struct IncrementalReport {
    /// The CV estimate, `(1/k) sum_i R_i` with `R_i` the learner's mean loss
    /// on chunk `i`.
    pub estimate: f64,
    /// Point-updates, model copies and the most models alive at once.
    pub work: Work,
    /// Wall-clock seconds of the CV.
    pub seconds: f64,
    /// Each chunk's rows, in chunk order.
    pub chunks: Vec<Vec<usize>>,
}

/// TreeCV (Joulani et al. 2015) of `learner` on `ds` with `strategy`: the
/// treecv experiment kind's `treecv` (copy), `treecv_revert`
/// (save/revert) and `treecv_parallel` methods. The estimate does not
/// depend on the strategy; for an order-free learner (ridge) it is
/// [`kfold`]'s up to floating-point summation order.
pub fn treecv(
    ds: &Dataset,
    learner: &AnyLearner,
    spec: &IncrementalSpec,
    strategy: Strategy,
) -> Result<IncrementalReport, IncrementalError> {
    run(ds, learner, spec, Method::Tree(strategy))
}

/// Standard k-fold CV of `learner` on `ds`: a fresh model per fold trained
/// on every other chunk (the treecv kind's `standard`, or
/// `standard_parallel` with more than one thread: the same estimate).
pub fn kfold(
    ds: &Dataset,
    learner: &AnyLearner,
    spec: &IncrementalSpec,
) -> Result<IncrementalReport, IncrementalError> {
    run(ds, learner, spec, Method::Standard)
}

#[derive(Clone, Copy)]
enum Method {
    Tree(Strategy),
    Standard,
}

/// The checks every incremental CV makes, then `method` in a pool of
/// `spec.threads` threads.
fn run(
    ds: &Dataset,
    learner: &AnyLearner,
    spec: &IncrementalSpec,
    method: Method,
) -> Result<IncrementalReport, IncrementalError> {
    learner.check_features(ds.d())?;
    check_finite_features(ds).map_err(|e| IncrementalError::NonFinite(e.to_string()))?;
    if let Some(v) = ds.y.iter().find(|v| !v.is_finite()) {
        return Err(IncrementalError::NonFinite(format!("a label is {v}")));
    }
    if learner.requires_binary_labels() && ds.y.iter().any(|&y| y != 1.0 && y != -1.0) {
        return Err(IncrementalError::Labels {
            learner: learner.short(),
        });
    }
    let chunks = spec.chunks(ds.n())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(spec.threads.max(1))
        .build()
        .map_err(|e| IncrementalError::Threads {
            threads: spec.threads,
            message: e.to_string(),
        })?;
    let out = pool.install(|| dispatch(learner, ds, &chunks, spec, method));
    Ok(IncrementalReport {
        estimate: out.estimate,
        work: out.work,
        seconds: out.seconds,
        chunks: (0..chunks.k()).map(|i| chunks.chunk(i).to_vec()).collect(),
    })
}

fn dispatch(
    learner: &AnyLearner,
    data: &Dataset,
    chunks: &Chunks,
    spec: &IncrementalSpec,
    method: Method,
) -> CvOutcome {
    match learner {
        AnyLearner::Pegasos(l) => one(l, data, chunks, spec, method),
        AnyLearner::Lsqsgd(l) => one(l, data, chunks, spec, method),
        AnyLearner::Ridge(l) => one(l, data, chunks, spec, method),
    }
}

fn one<L: IncrementalLearner>(
    l: &L,
    data: &Dataset,
    chunks: &Chunks,
    spec: &IncrementalSpec,
    method: Method,
) -> CvOutcome {
    match method {
        Method::Tree(s) => run_treecv(l, data, chunks, spec.order, s, spec.seed),
        Method::Standard if spec.threads > 1 => {
            standard_cv_parallel(l, data, chunks, spec.order, spec.seed)
        }
        Method::Standard => standard_cv(l, data, chunks, spec.order, spec.seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cv::standard::standard_cv;
    use crate::cv::treecv::depth;
    use crate::data::Features;

    /// 37 rows, 3 features, labels in {-1, +1} (and a second target for
    /// regression: the label plus a linear function of the features).
    fn data(binary: bool) -> Dataset {
        let n = 37;
        let mut values = Vec::new();
        let mut y = Vec::new();
        for i in 0..n {
            let t = i as f64;
            let x = [
                (t * 0.71).sin(),
                (t * 1.3).cos(),
                ((i * 7) % 11) as f64 / 11.0 - 0.5,
            ];
            let label = if x[0] + 0.5 * x[1] - x[2] > 0.1 {
                1.0
            } else {
                -1.0
            };
            y.push(if binary {
                label
            } else {
                label + 2.0 * x[0] - x[2]
            });
            values.extend_from_slice(&x);
        }
        Dataset {
            index_base: crate::data::IndexBase::One,
            name: "t".into(),
            x: Features::Dense { d: 3, values },
            y,
        }
    }

    fn num(key: &str, x: f64) -> (String, ParamValue) {
        (key.into(), ParamValue::Number(x))
    }

    #[test]
    fn learners_by_name_with_the_configs_keys_and_messages() {
        assert_eq!(
            learner("pegasos", &[]).unwrap().name(),
            "pegasos(lambda=1e-6)"
        );
        let l = learner(
            "pegasos",
            &[
                num("lambda", 0.01),
                ("project".into(), ParamValue::Flag(true)),
            ],
        )
        .unwrap();
        assert_eq!(l.name(), "pegasos(lambda=1e-2,project)");
        assert_eq!(
            learner("ridge", &[num("lambda", 2.0)]).unwrap().name(),
            "ridge(lambda=2e0)"
        );
        let e = |name: &str, p: &[(String, ParamValue)]| learner(name, p).unwrap_err().to_string();
        let unknown = e("svm", &[]);
        assert!(
            unknown.contains("unknown variant `svm`, expected one of `pegasos`, `lsqsgd`, `ridge`"),
            "{unknown}"
        );
        assert_eq!(
            e("lsqsgd", &[num("foo", 1.0)]),
            "unknown learner parameter `foo`: lsqsgd takes step, radius"
        );
        assert_eq!(
            e("pegasos", &[num("step", 1.0)]),
            "learner: `step` applies to lsqsgd only, not to pegasos"
        );
        assert_eq!(
            e("ridge", &[num("lambda", 0.0)]),
            "learner: `lambda` must be finite and > 0, got 0"
        );
        assert!(e("ridge", &[num("lambda", f64::NAN)]).contains("`lambda` must be finite"));
        assert_eq!(
            e("pegasos", &[num("lambda", 0.1), num("project", 1.0)]),
            "learner: `project`: invalid type: floating point `1.0`, expected a boolean"
        );
        let flag = ("lambda".to_string(), ParamValue::Flag(true));
        assert_eq!(
            e("ridge", &[flag]),
            "learner: `lambda`: invalid type: boolean `true`, expected f64"
        );
    }

    #[test]
    fn the_estimates_are_the_cv_modules_on_the_same_chunks() {
        let ds = data(true);
        let l = learner("pegasos", &[num("lambda", 0.05)]).unwrap();
        let AnyLearner::Pegasos(p) = &l else { panic!() };
        for order in Order::ALL {
            let spec = IncrementalSpec {
                order: *order,
                seed: 7,
                ..IncrementalSpec::new(5)
            };
            let chunks = Chunks::new((0..ds.n()).collect(), 5).unwrap();
            for s in Strategy::ALL {
                let ours = treecv(&ds, &l, &spec, *s).unwrap();
                let lib = run_treecv(p, &ds, &chunks, *order, *s, 7);
                assert_eq!(ours.estimate, lib.estimate, "{order:?} {s:?}");
                if *s == Strategy::Parallel {
                    // How many models are alive at once depends on how the
                    // two branches are scheduled.
                    let counts = |w: crate::cv::Work| (w.updates, w.copies);
                    assert_eq!(counts(ours.work), counts(lib.work), "{order:?} {s:?}");
                } else {
                    assert_eq!(ours.work, lib.work, "{order:?} {s:?}");
                }
            }
            let ours = kfold(&ds, &l, &spec).unwrap();
            let lib = standard_cv(p, &ds, &chunks, *order, 7);
            assert_eq!((ours.estimate, ours.work), (lib.estimate, lib.work));
            let two = kfold(&ds, &l, &IncrementalSpec { threads: 2, ..spec }).unwrap();
            assert_eq!(two.estimate, lib.estimate);
        }
    }

    #[test]
    fn counters_follow_the_cost_formulas() {
        let ds = data(false);
        let l = learner("lsqsgd", &[]).unwrap();
        let (n, k) = (ds.n(), 6);
        let spec = IncrementalSpec::new(k);
        let t = treecv(&ds, &l, &spec, Strategy::Copy).unwrap();
        let chunk_sizes: Vec<usize> = t.chunks.iter().map(Vec::len).collect();
        assert_eq!(chunk_sizes, [7, 6, 6, 6, 6, 6]);
        let expected: usize = (0..k).map(|i| chunk_sizes[i] * depth(k, i)).sum();
        assert_eq!(t.work.updates, expected as u64);
        assert_eq!(t.work.copies, (k - 1) as u64);
        let s = kfold(&ds, &l, &spec).unwrap();
        assert_eq!(s.work.updates, ((k - 1) * n) as u64);
        assert_eq!((s.work.copies, s.work.peak_models), (0, 1));
    }

    #[test]
    fn ridge_treecv_is_kfold_and_shuffling_follows_the_seed() {
        let ds = data(false);
        let l = learner("ridge", &[num("lambda", 0.5)]).unwrap();
        for shuffle in [false, true] {
            let spec = IncrementalSpec {
                shuffle,
                seed: 3,
                ..IncrementalSpec::new(4)
            };
            let s = kfold(&ds, &l, &spec).unwrap();
            for st in Strategy::ALL {
                let t = treecv(&ds, &l, &spec, *st).unwrap();
                assert!(
                    (t.estimate - s.estimate).abs() <= 1e-9 * s.estimate,
                    "{st:?}"
                );
                assert_eq!(t.chunks, s.chunks);
            }
        }
        let shuffled = |seed| {
            let spec = IncrementalSpec {
                shuffle: true,
                seed,
                ..IncrementalSpec::new(4)
            };
            kfold(&ds, &l, &spec).unwrap().chunks
        };
        assert_eq!(shuffled(3), shuffled(3));
        assert_ne!(shuffled(3), shuffled(4));
        let mut all: Vec<usize> = shuffled(3).concat();
        assert_ne!(all, (0..ds.n()).collect::<Vec<_>>());
        all.sort_unstable();
        assert_eq!(all, (0..ds.n()).collect::<Vec<_>>());
    }

    #[test]
    fn bad_input_is_refused() {
        let ds = data(false);
        let l = learner("ridge", &[]).unwrap();
        for k in [0, 1, 38] {
            let e = kfold(&ds, &l, &IncrementalSpec::new(k)).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("k = {k} is not in 2..=n with n = 37 rows: use 2 <= k <= n (k = n is leave-one-out)")
            );
        }
        let p = learner("pegasos", &[]).unwrap();
        let e = treecv(&ds, &p, &IncrementalSpec::new(3), Strategy::Copy).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("pegasos needs labels in {-1, +1}"),
            "{e}"
        );
        let mut nan = data(true);
        nan.y[3] = f64::NAN;
        assert!(kfold(&nan, &l, &IncrementalSpec::new(3)).is_err());
        assert_eq!(
            parse_order("sorted").unwrap_err().to_string(),
            "unknown order `sorted`: use fixed, randomized"
        );
        assert_eq!(
            parse_strategy("copies").unwrap_err().to_string(),
            "unknown strategy `copies`: use copy, save_revert, parallel"
        );
    }
}
