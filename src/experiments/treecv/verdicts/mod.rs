//! The `treecv` kind's verdicts: Table 2 against the paper's numbers
//! (`scorecard.rs`, with the bootstrap intervals of its ratios in
//! `bootstrap.rs`), Figure 2's pattern and quoted times (`figure2.rs`), each
//! with its rule; the paper's numbers, typed, in [`published`].

mod bootstrap;
mod figure2;
pub mod published;
pub mod scorecard;
