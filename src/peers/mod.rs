//! External programs our numbers are checked against. They sit beside the
//! solver layer, not in it: `svm` never runs a subprocess.
//!
//! - [`libsvm`]: LIBSVM's `svm-train` / `svm-predict` on exactly our folds.
//! - [`grid`]: LIBSVM's `grid.py` (`svm-grid`), timed, its rates and choice parsed.
//! - [`onedal`]: Intel's scikit-learn-intelex (oneDAL) SVC, one fit or a CV on our folds.
//! - [`libsvm_formulation`]: `svm-train -s 1..4` (its `-v k` summary parsed).
//! - [`onedal_formulation`]: oneDAL's SVR, NuSVR and NuSVC, one fit or a CV on our folds.

pub mod grid;
pub mod libsvm;
pub mod libsvm_formulation;
pub mod onedal;
pub mod onedal_formulation;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// Whether `python3` (the one first on `PATH`) can import `modules` (a
/// Python import list, e.g. `"sklearnex, daal4py"`). Asked once per
/// interpreter and list in a process: a run planning many configs would
/// otherwise start Python, and import scikit-learn, for each.
pub fn python_can_import(modules: &str) -> bool {
    static SEEN: OnceLock<Mutex<HashMap<(PathBuf, String), bool>>> = OnceLock::new();
    let Some(py) = libsvm::find_program("python3") else {
        return false;
    };
    let key = (py, modules.to_string());
    let seen = SEEN.get_or_init(Default::default);
    if let Some(&ok) = seen.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return ok;
    }
    let ok =
        crate::interrupt::output(Command::new(&key.0).args(["-c", &format!("import {modules}")]))
            .is_ok_and(|o| o.status.success());
    seen.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, ok);
    ok
}
