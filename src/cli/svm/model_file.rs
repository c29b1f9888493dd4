//! `-model FILE`: a model written in LIBSVM's format, atomically (a failed
//! write, a full disk, leaves no partial model and an earlier file at the
//! path unchanged).

use std::path::Path;

use cvbench_engine::api::errors::ModelFileError;
use cvbench_engine::api::training::{model_text, MultiModel};

/// Write `model` to `path` in LIBSVM's model format, atomically.
pub fn write_model(model: &MultiModel, path: &Path) -> Result<(), ModelFileError> {
    let text = model_text(model, path)?;
    crate::atomic_write::write_atomic(path, text.as_bytes()).map_err(ModelFileError::Output)
}
