//! The integration tests of the `cvbench` binary and library, one test
//! binary: each `tests/<name>.rs` is a module here (its tests are named
//! `<name>::...`; `cargo test --test suite <name>::` runs one file's), so the
//! suite links once instead of once per file. Three files stay their own
//! binaries because they watch the whole process: `threads.rs` (rayon's
//! global pool), `svm_bounded_memory.rs` (the peak memory of all children)
//! and `fuzz_inputs/` (`make fuzz` runs it alone). The manifest lists them.

mod common;

mod bad_input_exits_2;
mod cli;
mod determinism;
mod engine_face;
mod engine_face_size;
mod golden_quick;
mod grid_cli;
mod grid_formulations;
mod grid_precomputed;
mod grid_resume_and_outputs;
mod inputs_checked_before_use;
mod interrupt_and_resume;
mod kind_layout;
mod layers;
mod learner_spec;
mod output_conventions;
mod output_files;
mod output_targets;
mod readme;
mod report_own_runs;
mod report_text;
mod run_cell_memory;
mod shard;
mod shared_run_folder;
mod stored_verdicts_agree;
mod svm_batched;
mod svm_cli_formulation_cv;
mod svm_cli_formulations;
mod svm_cli_parity;
mod svm_cli_precomputed;
mod svm_cli_probability_formulations;
mod svm_cv_formulations;
mod svm_cv_kind;
mod svm_cv_solver_axis;
mod svm_grid_formulations;
mod svm_grid_kind;
mod svm_libsvm;
mod svm_model_file;
mod svm_model_overwrite;
mod svm_multiclass;
mod svm_multiclass_grid;
mod svm_multiclass_kinds;
mod svm_multiclass_seeded;
mod svm_seeding;
mod svm_seeding_cache;
mod svm_seeding_orders;
mod svm_train_edge_cases;
mod verdict_rules_own_data;
mod verdict_rules_timing_repeats;
mod verdicts;
mod zero_based_files;
