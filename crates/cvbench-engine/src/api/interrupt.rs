//! Ctrl-C and cancellation: the handler that removes what a run leaves
//! half-written, temporary files and folders removed on interrupt, child
//! processes killed with the run, and the cooperative cancellation of the
//! library calls (the Python package's Ctrl-C).

/// Install the handler; the message it prints; stop now if interrupted.
pub use crate::interrupt::{install, set_message, stop_if_interrupted};

/// Temporary files and folders removed on interrupt; a path registered for
/// removal until its guard drops; the lock held while a file is replaced.
pub use crate::interrupt::{register, write_guard, Registered, TempDir, TempFile};

/// A child process's output (killed on interrupt); whether a process id is
/// alive; removing temporary folders of runs that died.
pub use crate::interrupt::{output, pid_alive, remove_orphan_temp_dirs};

/// Cooperative cancellation: a token, the scope a call runs in.
pub use crate::cancel::{scope, CancelToken};
