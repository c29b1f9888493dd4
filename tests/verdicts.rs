//! Issue 43: verdicts a reviewer can sign. The papers' published numbers
//! load through one typed loader with one error policy, and which of our
//! datasets stands in for which of the paper's is data.

use cvbench::experiments::published::{parse, PublishedError};
use cvbench::experiments::svm_cv::published::Published as WenPublished;
use cvbench::results::scorecard::DataUsed;

/// Every paper's embedded published file loads into its typed schema.
#[test]
fn every_published_file_loads_typed() {
    let wen = WenPublished::load().expect("experiments/svm/published.toml");
    assert_eq!(wen.table1.len(), 5);
    cvbench::experiments::treecv::config::Published::load().unwrap_or_else(|e| panic!("{e}"));
    cvbench::experiments::svm_grid::config::Published::load().unwrap_or_else(|e| panic!("{e}"));
}

/// A broken published file is an error naming the file and the key, never
/// an empty table (the svm published file used to load as empty tables,
/// and every number read from them as NaN).
#[test]
fn a_broken_published_file_names_the_file_and_the_key() {
    let text =
        include_str!("../experiments/svm/published.toml").replacen("libsvm_s = 6783.0\n", "", 1);
    let e = parse::<WenPublished>("experiments/svm/published.toml", &text).unwrap_err();
    let PublishedError::Parse { file, message } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*file, "experiments/svm/published.toml");
    assert!(message.contains("libsvm_s"), "{message}");
}

/// Stand-ins are data: the paper's datasets and the listed substitutes are
/// scored, a dataset whose name merely contains a paper dataset's (a user's
/// own `my-heart-data`, `mnist-5k-mine`) is not.
#[test]
fn stand_ins_are_data_not_substring_matches() {
    let p = WenPublished::load().unwrap();
    assert_eq!(p.key_of("heart_scale"), Some("heart"));
    assert_eq!(p.key_of("mnist-raw-5k"), Some("mnist"));
    assert_eq!(p.key_of("my-heart-data"), None);
    assert_eq!(p.key_of("mnist-5k-mine"), None);
    assert!(matches!(p.data_used("a9a", "paper"), DataUsed::Paper(_)));
    assert!(matches!(
        p.data_used("mnist-even-odd-5k", "paper"),
        DataUsed::Substitute(w) if w.contains("pixels / 255")
    ));
    assert!(!p.at_paper_setting("mnist-even-odd-5k", "paper"));
    assert!(p.at_paper_setting("mnist-raw-5k", "paper"));
}
