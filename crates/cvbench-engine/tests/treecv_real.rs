//! TreeCV on real data (skipped, saying so, when CVBENCH_DATA_DIR is unset):
//! TreeCV equals standard CV for exact ridge on housing; PEGASOS and LSQSGD
//! give the paper's pattern (TreeCV ≈ standard CV) on a9a.

use cvbench_engine::cv::standard::standard_cv;
use cvbench_engine::cv::treecv::{treecv, Strategy};
use cvbench_engine::cv::{Chunks, Order};
use cvbench_engine::data::{DataDir, Dataset, DatasetSpec};
use cvbench_engine::learners::{Lsqsgd, Pegasos, Ridge};
use cvbench_engine::seed;

fn load(spec: &str) -> Option<Dataset> {
    let Ok(dir) = std::env::var("CVBENCH_DATA_DIR") else {
        // Written to stderr directly so the notice shows even when the test
        // harness captures output.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: real-data TreeCV test ({}): set CVBENCH_DATA_DIR to the datasets folder",
            spec.lines().next().unwrap_or(spec)
        );
        return None;
    };
    let spec: DatasetSpec = toml::from_str(spec).expect("spec parses");
    Some(spec.load(&DataDir::new(dir)).expect("dataset loads"))
}

#[test]
fn ridge_treecv_equals_standard_on_housing() {
    let Some(data) = load("name = \"housing_scale\"\ntransforms = [\"scale_target\"]") else {
        return;
    };
    assert_eq!((data.n(), data.d()), (506, 13));
    let ridge = Ridge { lambda: 1.0 };
    for k in [2, 3, 7, 10, 506] {
        let chunks = Chunks::shuffled(data.n(), k, &mut seed::rng(k as u64)).unwrap();
        let s = standard_cv(&ridge, &data, &chunks, Order::Fixed, 1).estimate;
        let t = treecv(
            &ridge,
            &data,
            &chunks,
            Order::Fixed,
            Strategy::SaveRevert,
            1,
        )
        .estimate;
        assert!((s - t).abs() < 1e-9, "k={k}: {s} vs {t}");
        assert!(s > 0.0 && s < 0.1, "squared error on [0,1] targets: {s}");
    }
}

#[test]
fn pegasos_and_lsqsgd_on_a9a_show_the_papers_pattern() {
    let Some(full) = load("name = \"a9a\"") else {
        return;
    };
    assert_eq!(full.n(), 32561);
    let mut perm: Vec<usize> = (0..full.n()).collect();
    use rand::seq::SliceRandom;
    perm.shuffle(&mut seed::rng(5));
    perm.truncate(4000);
    let data = full.subset(&perm, "a9a-4000");
    let peg = Pegasos::default();
    let chunks = Chunks::new((0..data.n()).collect(), 10).unwrap();
    let s = standard_cv(&peg, &data, &chunks, Order::Randomized, 3).estimate;
    let t = treecv(&peg, &data, &chunks, Order::Randomized, Strategy::Copy, 3).estimate;
    // Linear SVM error on Adult is about 15-25%; TreeCV and standard agree closely.
    assert!(
        (0.1..0.3).contains(&s) && (0.1..0.3).contains(&t),
        "{s} {t}"
    );
    assert!((s - t).abs() < 0.03, "{s} vs {t}");
    let mut reg = data.clone();
    reg.y.iter_mut().for_each(|y| *y = (*y + 1.0) / 2.0);
    let lsq = Lsqsgd::default();
    let s = standard_cv(&lsq, &reg, &chunks, Order::Fixed, 3).estimate;
    let t = treecv(&lsq, &reg, &chunks, Order::Fixed, Strategy::Copy, 3).estimate;
    assert!((s - t).abs() < 0.01 && s < 0.25, "{s} vs {t}");
}
