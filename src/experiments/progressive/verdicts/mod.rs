//! Blum, Kalai & Langford's artifacts judged from stored records: Figure 1
//! (`figure1.rs`), the Section 5 table (`section5_table.rs`), the two
//! conclusions the paper draws from them ([`conclusions`], with the report's
//! conclusions section) and Theorems 1–5 (`theorems.rs`), over the stored
//! runs read back (`stored.rs`); the paper's numbers, typed, in
//! [`published`]. The scorecard rows and their rules are in
//! [`scorecard`].

pub mod conclusions;
mod figure1;
pub mod published;
pub mod scorecard;
pub mod section5_table;
mod stored;
mod theorems;
