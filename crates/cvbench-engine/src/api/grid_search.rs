//! Grids below [`super::grid`]: `(C, gamma)` ranges and points, the grid
//! engine (binary, with its reuse levels) and the one-vs-one grid, the
//! best point, and the distance tables a grid shares across gammas.

/// Ranges (`-log2c`'s begin, end, step), points, a grid; the limits on
/// exponents and points.
pub use crate::{
    svm::grid::range::{EXPONENTS, MAX_POINTS},
    svm::grid::{Axis, Grid, Point},
};

/// The grid engine: its options, reuse levels, a point's result, a fold's
/// statistics, the cost counters.
pub use crate::svm::grid::{run_grid, FoldStat, GridCost, GridOptions, PointResult, Reuse};

/// The one-vs-one grid and its options.
pub use crate::svm::multiclass::grid::{run_grid_ovo, run_grid_ovo_with, OvoGridOptions};

/// The best point (`grid.py`'s rule).
pub use crate::svm::grid::select::Best;

/// The pairwise distances a grid shares across gammas: the table, its
/// size, the rows in fold order and the table of that order.
pub use crate::{
    svm::kernel::distances::{bytes_needed, Distances},
    svm::kernel::fold_order::{distances as fold_distances, FoldOrder},
};
