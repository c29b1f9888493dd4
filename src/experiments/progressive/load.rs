//! The datasets of a real-data population or stream: a training set and
//! either a named test set or a seeded split of the training set.

use std::sync::Arc;

use crate::experiments::Context;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::seed;

/// Load `train` and either `test` or a split of `train` (seeded).
pub(super) fn load_pair(
    ctx: &Context,
    train: &str,
    test: Option<&str>,
    test_fraction: Option<f64>,
    seed: u64,
) -> Result<(Arc<Dataset>, Arc<Dataset>), String> {
    let load = |name: &str| {
        cvbench_engine::api::data::load_dataset(name, &ctx.data_dir)
            .inspect(|d| ctx.note_use(&format!("registry:{name}"), d))
            .map(Arc::new)
            .map_err(|e| e.to_string())
    };
    let tr = load(train)?;
    match (test, test_fraction) {
        (Some(t), None) => {
            let te = load(t)?;
            if te.d() != tr.d() {
                return Err(format!(
                    "{train} has {} features but {t} has {}",
                    tr.d(),
                    te.d()
                ));
            }
            if te.n() == 0 {
                return Err(format!("test set {t} has no rows"));
            }
            Ok((tr, te))
        }
        (None, Some(f)) if f > 0.0 && f < 1.0 => {
            let n = tr.n();
            let n_test = ((n as f64 * f).round() as usize).clamp(1, n.saturating_sub(1));
            let perm = rand::seq::index::sample(
                &mut seed::rng(seed::derive(seed, &format!("split/{train}"))),
                n,
                n,
            )
            .into_vec();
            let (a, b) = perm.split_at(n - n_test);
            Ok((
                Arc::new(tr.subset(a, format!("{train}(train split)"))),
                Arc::new(tr.subset(b, format!("{train}(test split)"))),
            ))
        }
        (None, Some(_)) => Err("`test_fraction` must be in (0, 1)".into()),
        (Some(_), Some(_)) => Err("give either `test` or `test_fraction`, not both".into()),
        (None, None) => Err("give `test` (a dataset name) or `test_fraction`".into()),
    }
}
