//! Experiments: one module per paper, mapping a cell of a config to rows.

pub mod progressive;
