//! Loads every dataset of the shared offline copy through the registry and
//! checks shapes, label counts (against `datasets/MANIFEST.md`) and sha256
//! pins. Needs `CVBENCH_DATA_DIR` pointing at a directory with the files
//! (e.g. `/work/shared/datasets`); without it each test prints
//! `SKIPPED: ...` and returns.

use std::collections::BTreeMap;

use cvbench_engine::data::registry::{DataDir, Registry, Verification, DATA_DIR_ENV};
use cvbench_engine::data::Dataset;

/// Print a skip notice straight to stderr: libtest captures `eprintln!` of
/// passing tests, but not direct writes, so the notice is always visible.
fn skip_notice(msg: String) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// The data directory, or `None` after printing why the test is skipped.
fn data_dir(test: &str) -> Option<DataDir> {
    match std::env::var_os(DATA_DIR_ENV) {
        Some(p) if !p.is_empty() && std::path::Path::new(&p).is_dir() => {
            Some(DataDir::resolve(None))
        }
        Some(p) if !p.is_empty() => {
            skip_notice(format!(
                "SKIPPED: {test}: {DATA_DIR_ENV}={} is not a directory (set {DATA_DIR_ENV} to a directory holding the datasets, e.g. /work/shared/datasets)",
                p.to_string_lossy()
            ));
            None
        }
        _ => {
            skip_notice(format!(
                "SKIPPED: {test}: real datasets not checked (set {DATA_DIR_ENV}, e.g. {DATA_DIR_ENV}=/work/shared/datasets)"
            ));
            None
        }
    }
}

fn label_counts(ds: &Dataset) -> BTreeMap<i64, usize> {
    let mut m = BTreeMap::new();
    for &y in &ds.y {
        assert_eq!(y.fract(), 0.0, "{}: non-integer label {y}", ds.name);
        *m.entry(y as i64).or_insert(0) += 1;
    }
    m
}

fn check(dir: &DataDir, name: &str, n: usize, d: usize, counts: &[(i64, usize)]) -> Dataset {
    let entry = Registry::builtin().get(name).unwrap();
    for (path, v) in entry.verify(dir).unwrap() {
        assert!(
            matches!(v, Verification::Verified { .. }),
            "{name}: {} is not verified: {v:?}",
            path.display()
        );
    }
    let ds = entry.load(dir).unwrap();
    assert_eq!(ds.name, name);
    assert_eq!((ds.n(), ds.d()), (n, d), "{name}: shape");
    if let Some(rows) = entry.rows {
        assert_eq!(rows, n, "{name}: registry rows");
    }
    if !counts.is_empty() {
        let want: BTreeMap<i64, usize> = counts.iter().copied().collect();
        assert_eq!(label_counts(&ds), want, "{name}: label counts");
    }
    ds
}

#[test]
fn small_libsvm_and_uci_datasets() {
    let Some(dir) = data_dir("small_libsvm_and_uci_datasets") else {
        return;
    };
    check(&dir, "heart_scale", 270, 13, &[(1, 120), (-1, 150)]);
    check(&dir, "madelon", 2000, 500, &[(1, 1000), (-1, 1000)]);
    check(&dir, "madelon-valid", 600, 500, &[(1, 300), (-1, 300)]);
    check(&dir, "madelon.t", 600, 500, &[(1, 300), (-1, 300)]);
    // breast-cancer: the sample id (feature 1) is dropped, 2 -> -1, 4 -> +1.
    let bc = check(&dir, "breast-cancer", 683, 9, &[(1, 239), (-1, 444)]);
    let bcs = check(&dir, "breast-cancer_scale", 683, 10, &[(1, 239), (-1, 444)]);
    assert_eq!(
        bc.y, bcs.y,
        "breast-cancer relabelled like breast-cancer_scale"
    );
    let h = check(&dir, "housing_scale", 506, 13, &[]);
    assert!(h.y.iter().all(|v| v.is_finite()));
}

#[test]
fn madelon_uci_valid_equals_libsvm_madelon_t() {
    let Some(dir) = data_dir("madelon_uci_valid_equals_libsvm_madelon_t") else {
        return;
    };
    let reg = Registry::builtin();
    let uci = reg.get("madelon-valid").unwrap().load(&dir).unwrap();
    let lib = reg.get("madelon.t").unwrap().load(&dir).unwrap();
    assert_eq!(uci.y, lib.y);
    for i in 0..uci.n() {
        assert_eq!(
            uci.row(i).to_dense(500),
            lib.row(i).to_dense(500),
            "row {i}"
        );
    }
}

#[test]
fn a9a_and_w8a() {
    let Some(dir) = data_dir("a9a_and_w8a") else {
        return;
    };
    check(&dir, "a9a", 32561, 123, &[(1, 7841), (-1, 24720)]);
    check(&dir, "a9a.t", 16281, 123, &[(1, 3846), (-1, 12435)]);
    check(&dir, "w8a", 49749, 300, &[(1, 1479), (-1, 48270)]);
}

/// `append` joins a9a's training and test rows: 48,842 rows of 123
/// features, the training rows first, each row as its own file has it.
#[test]
fn a9a_with_its_test_rows_appended() {
    let Some(dir) = data_dir("a9a_with_its_test_rows_appended") else {
        return;
    };
    let spec: cvbench_engine::data::DatasetSpec = toml::from_str(
        r#"name = "a9a"
append = ["a9a.t"]
label = "a9a-train-test""#,
    )
    .unwrap();
    let joined = spec.load(&dir).unwrap();
    assert_eq!(
        (joined.name.as_str(), joined.n(), joined.d()),
        ("a9a-train-test", 48842, 123)
    );
    assert_eq!(
        label_counts(&joined),
        BTreeMap::from([(1, 7841 + 3846), (-1, 24720 + 12435)])
    );
    let (train, test) = (
        Registry::builtin().get("a9a").unwrap().load(&dir).unwrap(),
        Registry::builtin()
            .get("a9a.t")
            .unwrap()
            .load(&dir)
            .unwrap(),
    );
    for (i, row) in [
        (0, train.row(0)),
        (32560, train.row(32560)),
        (32561, test.row(0)),
        (48841, test.row(16280)),
    ] {
        assert_eq!(joined.row(i).to_dense(123), row.to_dense(123), "row {i}");
    }
    assert_eq!(joined.y[32561], test.y[0]);
}

#[test]
fn mnist_via_registry() {
    let Some(dir) = data_dir("mnist_via_registry") else {
        return;
    };
    let digits = [
        (0, 5923),
        (1, 6742),
        (2, 5958),
        (3, 6131),
        (4, 5842),
        (5, 5421),
        (6, 5918),
        (7, 6265),
        (8, 5851),
        (9, 5949),
    ];
    // Raw training set: file checksums, shape and digit counts.
    let raw = check(&dir, "mnist", 60000, 784, &digits);
    // The even/odd task from the same files: odd = +1 (50.85%), pixels / 255.
    let odd: usize = digits
        .iter()
        .filter(|(k, _)| k % 2 == 1)
        .map(|(_, c)| c)
        .sum();
    let eo = Registry::builtin()
        .get("mnist-even-odd")
        .unwrap()
        .transforms
        .iter()
        .try_fold(raw, |ds, t| t.apply(ds))
        .unwrap();
    assert_eq!(eo.y.iter().filter(|&&y| y == 1.0).count(), odd);
    assert_eq!(odd, 30508);
    let row0 = eo.row(0).to_dense(784);
    assert!(row0.iter().all(|&v| (0.0..=1.0).contains(&v)));
    assert!(row0.contains(&1.0));
    check(
        &dir,
        "mnist.t",
        10000,
        784,
        &[
            (0, 980),
            (1, 1135),
            (2, 1032),
            (3, 1010),
            (4, 982),
            (5, 892),
            (6, 958),
            (7, 1028),
            (8, 974),
            (9, 1009),
        ],
    );
}

#[test]
fn status_lists_shared_and_missing_datasets() {
    let Some(dir) = data_dir("status_lists_shared_and_missing_datasets") else {
        return;
    };
    let st = cvbench_engine::data::registry::status(&dir);
    let get = |n: &str| st.iter().find(|s| s.name == n).unwrap();
    assert!(get("a9a").available());
    assert!(get("mnist-even-odd").available());
    // Not in the shared copy: must say how to get it.
    let cov = get("covtype-binary");
    if !cov.available() {
        let text = cov.to_string();
        assert!(text.contains("cvbench fetch covtype-binary"), "{text}");
    }
}
