//! The batched working-set solver (`--solver batched`, issue 44): it reaches
//! LIBSVM's optimum to the stopping tolerance (objective beside the
//! LIBSVM-identical SMO's, KKT conditions checked on the returned alphas
//! with a gradient recomputed from scratch), on every kernel and with
//! unequal bounds, from zero and from a warm start, bit-identical for any
//! thread count; `cvbench svm --solver batched` trains, cross-validates and
//! writes a model that svm-predict reads.

use crate::common;

use std::path::{Path, PathBuf};

use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::{with_threads, KernelData, KernelKind, SvmParams};
use cvbench_engine::api::strategies::SolverKind;
use cvbench_engine::api::training::{train, SolveInput, SolveOutput};

/// Two overlapping classes in `d` features (labels +1/-1), `n` rows, with a
/// deterministic pseudo-random stream: many bounded and free support
/// vectors, so the solver needs many working sets.
fn overlapping(n: usize, d: usize, seed: f64) -> Dataset {
    let mut t = seed;
    let mut next = || {
        t = (t * 997.0 + 0.2113).fract();
        t - 0.5
    };
    let (mut rows, mut y) = (Vec::new(), Vec::new());
    for i in 0..n {
        let label = if i % 3 == 0 { -1.0 } else { 1.0 };
        let row: Vec<f64> = (0..d)
            .map(|j| next() * 2.0 + if j < 2 { 0.6 * label } else { 0.0 })
            .collect();
        rows.push(row);
        y.push(label);
    }
    Dataset::from_dense_rows("synthetic-overlapping", &rows, y)
}

/// The largest KKT violation `m(a) - M(a)` of `alpha` (solver order, labels
/// `y`, bounds `c`), its gradient recomputed from scratch with the kernel
/// values rounded to `f32` as the solvers store them; and `sum y_i a_i`.
fn recomputed_violation(
    kd: &KernelData<'_>,
    rows: &[u32],
    y: &[i8],
    c: &[f64],
    alpha: &[f64],
) -> (f64, f64) {
    let l = rows.len();
    let (mut m_up, mut m_low) = (f64::NEG_INFINITY, f64::INFINITY);
    for t in 0..l {
        let mut g = -1.0;
        for s in 0..l {
            if alpha[s] != 0.0 {
                let k = f64::from(kd.eval(rows[t] as usize, rows[s] as usize) as f32);
                g += f64::from(y[t]) * f64::from(y[s]) * k * alpha[s];
            }
        }
        let f = -f64::from(y[t]) * g;
        let (up, low) = if y[t] == 1 {
            (alpha[t] < c[t], alpha[t] > 0.0)
        } else {
            (alpha[t] > 0.0, alpha[t] < c[t])
        };
        if up {
            m_up = m_up.max(f);
        }
        if low {
            m_low = m_low.min(f);
        }
    }
    let sum: f64 = alpha.iter().zip(y).map(|(&a, &v)| f64::from(v) * a).sum();
    ((m_up - m_low).max(0.0), sum)
}

/// Solve `ds` (labels +1 first as given) with `solver`, bounds `c_pos`, `c_neg`.
fn solve(
    kd: &KernelData<'_>,
    solver: SolverKind,
    c: (f64, f64),
    alpha0: Option<&[f64]>,
) -> (Vec<u32>, Vec<i8>, SolveOutput) {
    let rows: Vec<u32> = (0..kd.ds.n() as u32).collect();
    let y: Vec<i8> = kd
        .ds
        .y
        .iter()
        .map(|&v| if v > 0.0 { 1 } else { -1 })
        .collect();
    let out = solver
        .solve(SolveInput {
            kd,
            rows: &rows,
            y: &y,
            c_pos: c.0,
            c_neg: c.1,
            eps: 1e-3,
            shrinking: true,
            cache_mb: 100.0,
            max_iter: None,
            alpha0,
            grad0: None,
            shared: None,
        })
        .unwrap();
    (rows, y, out)
}

#[test]
fn the_batched_optimum_is_libsvm_s_to_the_tolerance_on_every_kernel() {
    let ds = overlapping(1400, 6, 0.37);
    let kernels = [
        KernelKind::Rbf { gamma: 0.5 },
        KernelKind::Linear,
        KernelKind::Poly {
            gamma: 0.3,
            degree: 3,
            coef0: 1.0,
        },
        KernelKind::Sigmoid {
            gamma: 0.05,
            coef0: -0.5,
        },
    ];
    for kind in kernels {
        for c in [(1.0, 1.0), (4.0, 0.5)] {
            let kd = KernelData::new(&ds, kind);
            let (rows, y, b) = solve(&kd, SolverKind::Batched, c, None);
            let (_, _, s) = solve(&kd, SolverKind::Smo, c, None);
            let what = format!("{kind:?}, C = {c:?}");
            assert!(b.stats.working_sets > 1, "{what}: one working set only");
            assert!(!b.stats.hit_max_iter, "{what}");
            let gap = (b.stats.objective - s.stats.objective).abs() / s.stats.objective.abs();
            assert!(
                gap < 1e-4,
                "{what}: objective {} vs SMO {}",
                b.stats.objective,
                s.stats.objective
            );
            let bounds: Vec<f64> = y.iter().map(|&v| if v > 0 { c.0 } else { c.1 }).collect();
            for (&a, &cc) in b.alpha.iter().zip(&bounds) {
                assert!(
                    (0.0..=cc).contains(&a),
                    "{what}: alpha {a} outside [0, {cc}]"
                );
            }
            let (viol, sum) = recomputed_violation(&kd, &rows, &y, &bounds, &b.alpha);
            assert!(viol < 1e-3 * 1.01, "{what}: recomputed violation {viol}");
            assert!(
                sum.abs() < 1e-9 * rows.len() as f64,
                "{what}: sum y a = {sum}"
            );
            assert!(
                (b.stats.kkt_violation - viol).abs() < 1e-6,
                "{what}: reported {} recomputed {viol}",
                b.stats.kkt_violation
            );
        }
    }
}

#[test]
fn the_same_bits_on_one_and_two_threads_and_from_a_warm_start_the_same_optimum() {
    let ds = overlapping(1300, 5, 0.71);
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.8 });
    let run = |threads: usize| {
        with_threads(threads, || {
            Ok(solve(&kd, SolverKind::Batched, (2.0, 2.0), None).2)
        })
        .unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.alpha, two.alpha);
    assert_eq!(one.gradient, two.gradient);
    assert_eq!(one.g_bar, two.g_bar);
    assert_eq!(one.stats.rho.to_bits(), two.stats.rho.to_bits());
    assert_eq!(one.stats.iterations, two.stats.iterations);
    // G_bar as returned equals sum_{a_j = C} C Q_j, so an SMO solve can
    // continue from it (alpha seeding hands both over).
    let (rows, y) = ((0..ds.n()).collect::<Vec<usize>>(), &one);
    for t in (0..ds.n()).step_by(97) {
        let yt = if ds.y[t] > 0.0 { 1.0 } else { -1.0 };
        let want: f64 = rows
            .iter()
            .filter(|&&s| y.alpha[s] >= 2.0)
            .map(|&s| {
                let ys = if ds.y[s] > 0.0 { 1.0 } else { -1.0 };
                yt * ys * 2.0 * f64::from(kd.eval(t, s) as f32)
            })
            .sum();
        assert!(
            (one.g_bar[t] - want).abs() < 1e-8 * (1.0 + want.abs()),
            "G_bar[{t}] {} vs {want}",
            one.g_bar[t]
        );
    }
    // From a feasible, far from optimal start: the same optimum.
    let mut seed = vec![0.0; ds.n()];
    let (pos, neg): (Vec<usize>, Vec<usize>) = (0..ds.n()).partition(|&i| ds.y[i] > 0.0);
    for (&p, &n) in pos.iter().zip(&neg).take(300) {
        seed[p] = 1.5;
        seed[n] = 1.5;
    }
    let (_, _, warm) = solve(&kd, SolverKind::Batched, (2.0, 2.0), Some(&seed));
    let gap = (warm.stats.objective - one.stats.objective).abs() / one.stats.objective.abs();
    assert!(
        gap < 1e-4,
        "warm {} vs cold {}",
        warm.stats.objective,
        one.stats.objective
    );
    // From the optimum itself: (almost) nothing to do.
    let (_, _, again) = solve(&kd, SolverKind::Batched, (2.0, 2.0), Some(&one.alpha));
    assert!(
        again.stats.working_sets <= 1,
        "{} working sets",
        again.stats.working_sets
    );
}

#[test]
fn training_and_cv_through_the_library_with_the_batched_solver() {
    let ds = overlapping(900, 4, 0.13);
    let rows: Vec<usize> = (0..ds.n()).collect();
    let mut p = SvmParams::rbf(1.0, 0.5);
    let smo = train(&ds, &rows, &p, None).unwrap();
    p.solver = SolverKind::Batched;
    let bat = train(&ds, &rows, &p, None).unwrap();
    let flips = (0..ds.n())
        .filter(|&i| smo.model.predict(ds.row(i)) != bat.model.predict(ds.row(i)))
        .count();
    assert!(flips <= 2, "{flips} training rows predicted otherwise");
    assert!(
        (smo.stats.rho - bat.stats.rho).abs() < 1e-2,
        "rho {} vs {}",
        smo.stats.rho,
        bat.stats.rho
    );
}

fn write_libsvm(ds: &Dataset, path: &Path) {
    let mut s = String::new();
    for i in 0..ds.n() {
        s.push_str(&format!("{}", ds.y[i]));
        if let cvbench_engine::api::data::Row::Dense(x) = ds.row(i) {
            for (j, v) in x.iter().enumerate() {
                s.push_str(&format!(" {}:{v}", j + 1));
            }
        }
        s.push('\n');
    }
    std::fs::write(path, s).unwrap();
}

fn predictions(out: &str) -> Vec<String> {
    out.lines().map(str::to_string).collect()
}

#[test]
fn cvbench_svm_solver_batched_trains_cross_validates_and_writes_a_model_svm_predict_reads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file: PathBuf = d.join("synthetic.txt");
    write_libsvm(&overlapping(700, 4, 0.29), &file);
    let f = file.to_str().unwrap();
    let out = common::ok(&common::cvbench(
        &["svm", "--solver", "batched", "--json", f, "b.model"],
        d,
    ));
    let json: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(json["solver"], "batched");
    common::ok(&common::cvbench(&["svm", "-q", f, "s.model"], d));
    // Our model read back predicts as svm-predict does on it.
    if cvbench::peers::libsvm::available() {
        for m in ["b.model", "s.model"] {
            let o = std::process::Command::new("svm-predict")
                .current_dir(d)
                .args([f, m, &format!("{m}.pred")])
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "svm-predict {m}: {}",
                common::stderr(&o)
            );
        }
        let read = |p: &str| predictions(&std::fs::read_to_string(d.join(p)).unwrap());
        let (b, s) = (read("b.model.pred"), read("s.model.pred"));
        let flips = b.iter().zip(&s).filter(|(x, y)| x != y).count();
        assert!(
            flips <= 2,
            "{flips} rows predicted otherwise by the two models"
        );
    } else {
        println!(
            "SKIPPED (svm-predict part): {}",
            cvbench::peers::libsvm::SKIPPED_NO_SVM_TRAIN
        );
    }
    // -v 5: the accuracy within one row per fold of the SMO's.
    let acc = |solver: &str| -> f64 {
        let o = common::ok(&common::cvbench(
            &["svm", "-q", "-v", "5", "--solver", solver, "--json", f],
            d,
        ));
        let j: serde_json::Value = serde_json::from_str(o.lines().last().unwrap()).unwrap();
        j["correct"].as_f64().unwrap()
    };
    assert!((acc("batched") - acc("smo")).abs() <= 5.0);
    // Bad names: exit 2, the choices named.
    let o = common::cvbench(&["svm", "--solver", "thunder", f], d);
    common::assert_exit(&o, 2, &["thunder", "smo", "batched"]);
    let o = common::cvbench(&["grid", "--solver", "thunder", f], d);
    common::assert_exit(&o, 2, &["thunder", "smo, batched"]);
}
