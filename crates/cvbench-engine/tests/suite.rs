//! The engine's integration tests, one test binary: each `tests/<name>.rs`
//! is a module here (`cargo test -p cvbench-engine --test suite <name>::`
//! runs one file's), so the suite links once instead of once per file. Two
//! files stay their own binaries because they watch the whole process:
//! `api_cancel.rs` (a cancelled token stops every call of the process) and
//! `large_feature_index.rs` (its global allocator records every request).
//! The manifest lists them.

mod cv_invariants;
mod data_real;
mod formulation_cv;
mod formulation_seeded_cv;
mod formulations;
mod formulations_batched;
mod nu_svc_cv_feasibility;
mod precomputed_kernel;
mod svm_solver;
mod svr_seeded_cv;
mod treecv_real;
