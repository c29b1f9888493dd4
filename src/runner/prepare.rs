//! Planning a config for a run: find its kind, run the shared checks, plan
//! it (loading its data) and compute each cell's identity for resuming.

use super::store;
use crate::config::ConfigFile;
use crate::experiments::{registry, Context, ExperimentError, Kind, Plan};
use std::path::{Path, PathBuf};

/// A planned config: its kind, plan, cell identities and run folder.
pub struct Prepared {
    /// The experiment kind.
    pub kind: &'static dyn Kind,
    /// The plan.
    pub plan: Box<dyn Plan>,
    /// Every cell's identity (see [`store::identities`]).
    pub identities: Vec<String>,
    /// The run folder `<out>/<name>`.
    pub dir: PathBuf,
}

/// Plan a config (loading its data) and compute its cells' identities.
pub fn prepare(cfg: &ConfigFile, ctx: &Context, out: &Path) -> Result<Prepared, ExperimentError> {
    let kind = kind_of(cfg)?;
    ctx.set_config_dir(cfg.path.parent());
    let _ = ctx.take_used();
    crate::experiments::preflight(cfg, ctx)?;
    let plan = kind.plan(cfg, ctx)?;
    let data = ctx.take_used();
    let identities = store::identities(kind.name(), &cfg.text, plan.as_ref(), &data);
    let dir = out.join(plan.name());
    Ok(Prepared {
        kind,
        plan,
        identities,
        dir,
    })
}

/// Plan a config and list its cells (for `cvbench validate`).
pub fn validate(cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
    let kind = kind_of(cfg)?;
    ctx.set_config_dir(cfg.path.parent());
    crate::experiments::preflight(cfg, ctx)?;
    kind.plan(cfg, ctx)
}

/// The experiment kind a config names (an error naming the known kinds otherwise).
fn kind_of(cfg: &ConfigFile) -> Result<&'static dyn Kind, ExperimentError> {
    let known: Vec<&str> = registry::kinds().iter().map(|k| k.name()).collect();
    let name = cfg.kind(&known)?;
    // `cfg.kind` only returns names from `known`, so the search succeeds.
    registry::kind_named(&name).ok_or_else(|| {
        ExperimentError::Config(cfg.invalid(
            0..0,
            &format!("unknown kind `{name}`"),
            "use a known kind",
        ))
    })
}
