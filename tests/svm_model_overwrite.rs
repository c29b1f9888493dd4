//! `cvbench svm TRAIN MODEL` replaces only an earlier model: a model path
//! that names a data file (a shell glob such as `a9a*` gives `a9a a9a.t`,
//! and svm-train would train on one and write its model over the other) or
//! a read-only file is refused with exit 2 before any training, the file
//! left as it was. A missing, empty or model file is written as before.

use crate::common;
use common::{assert_usage_error, cvbench};

const TRAIN: &str = "+1 1:0.5 2:-1\n-1 1:-0.5 2:1\n+1 1:0.7 2:-0.2\n-1 1:-0.9 2:0.4\n";

#[test]
fn a_data_file_or_a_read_only_file_is_never_overwritten_by_a_model() {
    let dir = tempfile::tempdir().unwrap();
    let at = |f: &str| dir.path().join(f);
    std::fs::write(at("train"), TRAIN).unwrap();
    // Another data file, plain and xz-compressed (its bytes are not text).
    std::fs::write(at("train.t"), TRAIN).unwrap();
    let xz = [0xfd, b'7', b'z', b'X', b'Z', 0, 0, 4, 0xe6, 0xd6];
    std::fs::write(at("train.t.xz"), xz).unwrap();
    for other in ["train.t", "train.t.xz"] {
        let before = std::fs::read(at(other)).unwrap();
        let o = cvbench(&["svm", "-q", "train", other], dir.path());
        assert_usage_error(
            &o,
            &[other, "is not a LIBSVM model", "give another model file"],
        );
        assert_eq!(std::fs::read(at(other)).unwrap(), before, "{other} changed");
    }
    // A model is replaced; so is an empty file, and a missing one is made.
    std::fs::write(at("empty"), "").unwrap();
    for model in ["new.model", "new.model", "empty"] {
        let o = cvbench(&["svm", "-q", "train", model], dir.path());
        assert_eq!(o.status.code(), Some(0), "{model}");
        let text = std::fs::read_to_string(at(model)).unwrap();
        assert!(text.starts_with("svm_type c_svc\n"), "{model}: {text}");
    }
    // A read-only model is refused, even where the user could override it.
    let mut perms = std::fs::metadata(at("new.model")).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(at("new.model"), perms).unwrap();
    let before = std::fs::read(at("new.model")).unwrap();
    let o = cvbench(&["svm", "-q", "-c", "4", "train", "new.model"], dir.path());
    assert_usage_error(&o, &["new.model", "is read-only"]);
    assert_eq!(std::fs::read(at("new.model")).unwrap(), before);
}
