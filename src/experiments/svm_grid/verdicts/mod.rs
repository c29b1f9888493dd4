//! The `svm_grid` kind's verdicts: the scorecard rows for the practical
//! guide's Appendix A, the agreement with `svm-grid` (grid.py) and the speed
//! target, each with its rule (`scorecard.rs`). The guide's published numbers
//! load as `config::Published`.

pub mod scorecard;
