//! The `svm_grid` kind's verdicts: the scorecard rows for the practical
//! guide's Appendix A, the agreement with `svm-grid` (grid.py) and the speed
//! target, each with its rule (`scorecard.rs`); the guide's published
//! numbers, typed, in [`published`]; the checks of a grid of another
//! formulation than C-SVC ([`formulation`]).

pub mod formulation;
pub mod published;
pub mod scorecard;
