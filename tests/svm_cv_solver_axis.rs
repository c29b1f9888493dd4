//! Issue 44: the `svm_cv` kind's `solvers` axis end to end through the CLI.
//! Bad values are config errors at their line:col naming the valid solvers
//! (exit 2); a config without the key plans exactly its old cells; a tiny
//! run with `solvers = ["smo", "batched"]` records which solver made every
//! row, its SMO cells are those of the same run without the key, and the
//! batched CV is within one held-out row per fold of the SMO's.

use cvbench::experiments::svm_cv::rows::SvmRow;
use cvbench::results::table::{from_frame, read_parquet};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output};

/// A small synthetic `svm_cv` config (no data folder needed); `solvers`
/// is the line for the key (empty: the key left out).
fn config(name: &str, solvers: &str) -> String {
    format!(
        r#"kind = "svm_cv"
name = "{name}"
seed = 3
k = [5]
methods = ["ours", "sir", "tree", "train"]
caches = ["per_solve"]
threads = [1]
{solvers}

[[datasets]]
synthetic = {{ generator = "linear-classification", n = 160, d = 6 }}

[[settings]]
label = "defaults"
"#
    )
}

fn cvbench(dir: &Path, args: &[&str]) -> Output {
    let empty = dir.join("data");
    std::fs::create_dir_all(&empty).unwrap();
    Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(args)
        .args(["--data-dir", empty.to_str().unwrap()])
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn bad_solvers_are_config_errors_at_their_line_naming_the_valid_ones() {
    let dir = tempfile::tempdir().unwrap();
    // Line 8 of the config holds the key.
    let cases = [
        (
            r#"solvers = ["smo", "fastest"]"#,
            "c.toml:8:19:",
            "unknown solver `fastest`",
        ),
        (
            r#"solvers = ["batched", "BATCHED"]"#,
            "c.toml:8:23:",
            "solver `batched` is listed twice",
        ),
        ("solvers = []", "c.toml:8:11:", "`solvers` is empty"),
    ];
    for (line, at, what) in cases {
        std::fs::write(dir.path().join("c.toml"), config("c", line)).unwrap();
        let o = cvbench(dir.path(), &["validate", "c.toml"]);
        let all = text(&o);
        assert_eq!(o.status.code(), Some(2), "{line}: {all}");
        assert!(all.contains(at) && all.contains(what), "{line}: {all}");
        if what.starts_with("unknown") {
            assert!(all.contains("use one of: smo, batched"), "{all}");
        }
        assert!(!all.contains("panicked"), "{all}");
    }
}

/// The cells `cvbench validate --cells` lists: key → seed.
fn cells(dir: &Path, cfg: &str) -> BTreeMap<String, String> {
    std::fs::write(dir.join("c.toml"), cfg).unwrap();
    let o = cvbench(dir, &["validate", "c.toml", "--cells"]);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains("|k=5|"))
        .map(|l| {
            let l = l.trim();
            let (key, seed) = l.rsplit_once(char::is_whitespace).unwrap();
            (key.trim().to_string(), seed.to_string())
        })
        .collect()
}

#[test]
fn without_the_key_the_cells_are_the_smo_cells_of_a_run_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let old = cells(dir.path(), &config("c", ""));
    let smo = cells(dir.path(), &config("c", r#"solvers = ["smo"]"#));
    let both = cells(dir.path(), &config("c", r#"solvers = ["smo", "batched"]"#));
    // ours, sir, tree (cache and threads) and train (threads).
    assert_eq!(old.len(), 4, "{old:?}");
    assert_eq!(smo, old);
    assert_eq!(both.len(), 8, "{both:?}");
    for (key, seed) in &both {
        match old.get(key) {
            Some(s) => assert_eq!(s, seed, "{key}"),
            None => assert!(key.ends_with("|solver=batched"), "{key}"),
        }
    }
}

/// The records of a run folder.
fn records(run: &Path) -> Vec<SvmRow> {
    let df = read_parquet(&run.join("records.parquet")).unwrap();
    SvmRow::read(&from_frame(&df).unwrap()).unwrap()
}

/// A row's reproducible columns (no timing), for comparing two runs.
fn numbers(r: &SvmRow) -> String {
    format!(
        "{} {} {} {} {} {} {:?} {:?} {} {} {:?} {:?} {:?} {} {} {} {} {}",
        r.core.cell,
        r.core.method,
        r.core.seed,
        r.fold,
        r.n_train,
        r.correct,
        r.objective,
        r.rho,
        r.iterations,
        r.n_sv,
        r.kernel_evals,
        r.cache_hits,
        r.kkt_violation,
        r.wrong_rows,
        r.role,
        r.order,
        r.seeder,
        r.solver
    )
}

#[test]
fn a_run_with_two_solvers_records_each_and_keeps_the_smo_cells() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.toml"),
        config("s", r#"solvers = ["smo", "batched"]"#),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("old")).unwrap();
    std::fs::write(dir.path().join("old/b.toml"), config("s", "")).unwrap();
    let o = cvbench(dir.path(), &["run", "a.toml", "--out", "r"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = cvbench(dir.path(), &["run", "old/b.toml", "--out", "r0"]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = records(&dir.path().join("r/s"));
    let old = records(&dir.path().join("r0/s"));

    // Every row says its solver; each CV method and the one training ran
    // once per solver.
    let solvers: BTreeSet<&str> = rows.iter().map(|r| r.solver.as_str()).collect();
    assert_eq!(solvers, BTreeSet::from(["smo", "batched"]));
    let trainings: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r.role == "train")
        .map(|r| (r.core.method.as_str(), r.solver.as_str()))
        .collect();
    assert_eq!(
        trainings,
        [
            ("train [per_solve, 1t]", "smo"),
            ("train [per_solve, 1t, batched]", "batched")
        ]
    );
    for r in &rows {
        let named = r.core.method.ends_with(", batched]");
        assert_eq!(named, r.solver == "batched", "{}", r.core.method);
    }

    // The SMO cells are those of the run without the key, number for number.
    let smo: Vec<String> = rows
        .iter()
        .filter(|r| r.solver == "smo")
        .map(numbers)
        .collect();
    let before: Vec<String> = old.iter().map(numbers).collect();
    assert_eq!(smo, before);

    // The batched solver's CVs: within one held-out row per fold of the
    // SMO's baseline (LIBSVM's optimum to the stopping tolerance).
    let fold_correct = |method: &str| -> BTreeMap<i64, u64> {
        rows.iter()
            .filter(|r| r.core.method == method && r.fold >= 0)
            .map(|r| (r.fold, r.correct))
            .collect()
    };
    let base = fold_correct("ours [per_solve, 1t]");
    assert_eq!(base.len(), 5);
    for m in ["ours", "sir", "tree"] {
        let got = fold_correct(&format!("{m} [per_solve, 1t, batched]"));
        assert_eq!(got.len(), 5, "{m}");
        for (f, c) in &got {
            assert!(
                base[f].abs_diff(*c) <= 1,
                "{m} fold {f}: {c} vs {}",
                base[f]
            );
        }
    }

    // The report: the solver beside seeding and caching, the speed-up
    // against the SMO, and one cost row per solver over its own training.
    let md = std::fs::read_to_string(dir.path().join("r/s/report-section.md")).unwrap();
    assert!(
        md.contains("× solver of the dual")
            && md.contains("| seeder | solver |")
            && md.contains("vs the SMO, same method, cache and threads"),
        "{md}"
    );
    assert!(md.contains("| threads | solver | budget MB |"), "{md}");
    assert!(
        md.contains("**One training on all rows per solver, beside oneDAL's one fit**")
            && dir.path().join("r/s/trainings.parquet").is_file(),
        "{md}"
    );
    let old_md = std::fs::read_to_string(dir.path().join("r0/s/report-section.md")).unwrap();
    // A run of the SMO alone renders its tables as before the axis.
    assert!(
        !old_md.contains("| solver |")
            && !old_md.contains("vs the SMO")
            && !dir.path().join("r0/s/trainings.parquet").exists(),
        "{old_md}"
    );
}

/// The solver ablation configs plan their cells: each CV method and the
/// one training on both solvers, oneDAL once (skipped without the data).
#[test]
fn the_solver_ablation_configs_validate() {
    let Ok(data) = std::env::var("CVBENCH_DATA_DIR") else {
        eprintln!("SKIPPED: set CVBENCH_DATA_DIR to the datasets folder");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["ablation-solver-a9a", "ablation-solver-madelon-scaled"] {
        let cfg = root.join(format!("configs/svm/{name}.toml"));
        let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
            .args(["validate", cfg.to_str().unwrap(), "--data-dir", &data])
            .output()
            .unwrap();
        let all = text(&o);
        assert!(o.status.success(), "{name}: {all}");
        // ours, sir, tree (2 caches) and train on 2 solvers, oneDAL's 2
        // cells once where it is installed.
        assert!(all.contains("solver: batched (7)"), "{name}: {all}");
        assert!(
            all.contains("ours (4), sir (4), train (2), tree (4)"),
            "{name}: {all}"
        );
    }
}
