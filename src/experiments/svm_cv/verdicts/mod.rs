//! The `svm_cv` kind's verdicts on Wen et al. (AAAI 2017): the paper's
//! numbers, typed ([`published`]), the scorecard rows of Table 1, Table 3 and
//! the leave-one-out figure ([`scorecard`]) and the rules that turn numbers
//! into verdicts, each a function a unit test flips (`scorecard_rules.rs`); what a
//! "not run" row lacks, and what it would cost ([`missing`]); what they read
//! from a stored run ([`stored`]); the Table 3 points of ablation runs,
//! which have no seeding table ([`table3_ablation`]); our own speed targets
//! for the engine, checks of ours beside the run's cost table ([`targets`]);
//! issue 58's targets on a run over dataset sizes ([`scaling_targets`]);
//! and the checks of a run of another formulation than C-SVC
//! ([`formulation`]).

pub mod formulation;
pub mod missing;
#[cfg(test)]
mod missing_tests;
pub mod published;
pub mod scaling_targets;
pub mod scorecard;
pub mod scorecard_rules;
#[cfg(test)]
mod scorecard_rules_tests;
#[cfg(test)]
mod scorecard_tests;
pub mod stored;
pub mod table3_ablation;
pub mod targets;
