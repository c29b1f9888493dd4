//! Cooperative cancellation of the library's calls (`cvbench_engine::cancel`, what
//! the Python package's Ctrl-C uses): a cancelled call returns
//! `SvmError::Cancelled`, before or during its solves, and leaves nothing
//! behind that stops the next call. One test: a cancelled token in scope
//! stops every call of the process, so no other test may run beside it.

use cvbench_engine::api::{cross_validate, fit, CvMethod, SvcSpec};
use cvbench_engine::cancel::{check, scope, CancelToken, Cancelled};
use cvbench_engine::data::Dataset;
use cvbench_engine::svm::{Folds, SvmError, SvmParams};

/// Two overlapping classes: many support vectors, a slow CV at a large C.
fn overlapping(n: usize) -> Dataset {
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..n {
        let t = i as f64 * 0.618_033_988_7;
        let c = if i % 2 == 0 { 1.0 } else { -1.0 };
        rows.push(vec![
            (t * 7.1).sin() + 0.2 * c,
            (t * 3.3).cos(),
            (t * 1.7).sin() * (t * 0.9).cos(),
        ]);
        y.push(c);
    }
    Dataset::from_dense_rows("overlapping", &rows, y)
}

#[test]
fn cancelled_calls_stop_with_a_typed_error_and_later_calls_run() {
    let ds = overlapping(1500);
    let spec = SvcSpec::new(SvmParams::rbf(1000.0, 4.0));
    let folds = Folds::libsvm(&ds, 10).unwrap();

    // Out of scope, or in scope and not cancelled: nothing stops.
    assert_eq!(check(), Ok(()));
    assert_eq!(scope(&CancelToken::new(), check), Ok(()));

    // Cancelled before the call: it stops at its first solve.
    let t = CancelToken::new();
    t.cancel();
    let r = scope(&t, || fit(&ds, &spec));
    assert!(matches!(r, Err(SvmError::Cancelled(Cancelled))), "{r:?}");
    assert_eq!(check(), Ok(()), "a token out of scope stops nothing");

    // Cancelled while it runs (a CV of many long solves, cancelled as soon
    // as it started): it stops with the typed error.
    let t = CancelToken::new();
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let r = std::thread::scope(|s| {
        let worker = s.spawn(|| {
            scope(&t, || {
                started_tx.send(()).unwrap();
                cross_validate(&ds, &folds, &spec, &CvMethod::default())
            })
        });
        started_rx.recv().unwrap();
        t.cancel();
        worker.join().unwrap()
    });
    assert!(matches!(r, Err(SvmError::Cancelled(_))), "{r:?}");
    assert_eq!(r.unwrap_err().to_string(), "cancelled");

    // The next call runs to its end.
    let small = overlapping(200);
    let ok = scope(&CancelToken::new(), || {
        fit(&small, &SvcSpec::new(SvmParams::rbf(1.0, 1.0)))
    });
    assert!(ok.is_ok(), "{:?}", ok.err());
}
