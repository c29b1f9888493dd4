//! Seeds: one base seed derived into independent streams by name, and the
//! generator every shuffle of the engine draws from.

/// Derive a seed from a base and a name; mix 64 bits; the generator of a
/// seed.
pub use crate::seed::{derive, mix64, rng};
