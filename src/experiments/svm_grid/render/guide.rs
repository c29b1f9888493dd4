//! The practical guide's Appendix A (Hsu, Chang & Lin): test accuracy at
//! each step beside the published numbers.

use crate::experiments::svm_grid::rows::{GridRow, ROLE_GUIDE};
use crate::experiments::svm_grid::verdicts::published::Published;
use crate::experiments::ExperimentError;
use crate::pyfmt::py_float;
use crate::results::md_table::MdTable;
use std::fmt::Write as _;

/// The table with its caption (empty where the run has no guide rows).
pub fn guide_table(rows: &[GridRow]) -> Result<String, ExperimentError> {
    let mut md = String::new();
    let guide: Vec<&GridRow> = rows.iter().filter(|r| r.role == ROLE_GUIDE).collect();
    if !guide.is_empty() {
        let published = Published::load()?;
        let _ = writeln!(md, "**The practical guide's Appendix A** (Hsu, Chang & Lin): test accuracy with default parameters on the original data, after scaling to [-1, 1] (ranges learned on the training file, applied to the test file, as `svm-scale -s`/`-r`), at the (C, gamma) our grid chooses (as today's `grid.py`) and at the guide's published choice\n");
        let mut t = MdTable::new([
            "dataset",
            "step",
            "C",
            "gamma",
            "CV rate %",
            "test accuracy % (ours)",
            "published %",
        ]);
        for r in &guide {
            let p = published.guide.iter().find(|g| g.dataset == r.core.dataset);
            let pubv = p.map(|p| match r.step.as_str() {
                "original-default" => format!("{}", p.original),
                "scaled-default" => format!("{}", p.scaled),
                "grid-chosen" => format!(
                    "{} (at C = {}, gamma = {})",
                    p.grid,
                    2f64.powf(p.log2c),
                    2f64.powf(p.log2g)
                ),
                "guide-point" => format!("{}", p.grid),
                _ => "–".into(),
            });
            t.row([
                r.core.dataset.clone(),
                r.step.clone(),
                r.c.map_or("–".into(), py_float),
                r.gamma.map_or("–".into(), |g| format!("{g:.6}")),
                r.cv_rate.map_or("–".into(), py_float),
                r.rate.map_or("–".into(), |v| {
                    format!("{v:.3} ({}/{})", r.correct, r.n_test)
                }),
                pubv.unwrap_or_else(|| "–".into()),
            ]);
        }
        md.push_str(&t.markdown());
        md.push('\n');
    }
    Ok(md)
}
