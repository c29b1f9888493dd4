//! Cooperative cancellation of the library calls (the Python package's
//! Ctrl-C): a token, and the scope a call runs in. Ctrl-C handling for a
//! process, temporary files and child processes are the harness's.

/// Cooperative cancellation: a token, the scope a call runs in.
pub use crate::cancel::{scope, CancelToken};
