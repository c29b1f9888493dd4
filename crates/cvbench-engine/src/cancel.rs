//! Cooperative cancellation of the library's long calls (a fit, a CV, a
//! grid): the Python package stops one on Ctrl-C this way, where the CLI's
//! Ctrl-C handler (the harness's `interrupt`) would end the process.
//!
//! A caller makes a [`CancelToken`], runs the call inside [`scope`] with it,
//! and [`CancelToken::cancel`]s it from another thread. Every SMO solve
//! ([`crate::svm::smo::solve`]) calls [`check`] when it starts and every
//! (at most) 1000 iterations, and returns [`Cancelled`] (as
//! `SvmError::Cancelled`) once a token in scope is cancelled; so a call
//! stops within one slice of iterations of every solve in flight and starts
//! no new one. The solves run on thread pools nested inside the library,
//! which cannot tell their calls apart: a cancelled token stops every call
//! in scope in the process, not only its own.

// Hidden from the public docs (lib.rs): links to private items resolve
// in the `--document-private-items` view.
#![allow(rustdoc::private_intra_doc_links)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A call was cancelled through its [`CancelToken`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// A flag shared by the caller and the call it may cancel.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

/// Set when some token was cancelled: [`check`]'s fast path (one load)
/// while nothing is.
static ANY: AtomicBool = AtomicBool::new(false);
/// The tokens of the calls in [`scope`].
static ACTIVE: Mutex<Vec<CancelToken>> = Mutex::new(Vec::new());

fn active() -> MutexGuard<'static, Vec<CancelToken>> {
    ACTIVE.lock().unwrap_or_else(|p| p.into_inner())
}

impl CancelToken {
    /// A token not cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Ask the call in scope with this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
        ANY.store(true, Ordering::SeqCst);
    }

    /// Whether [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Run `f` with `token` in scope: [`check`] fails inside it once `token` is
/// cancelled (before or while `f` runs).
pub fn scope<T>(token: &CancelToken, f: impl FnOnce() -> T) -> T {
    struct Leave(CancelToken);
    impl Drop for Leave {
        fn drop(&mut self) {
            let mut a = active();
            if let Some(i) = a.iter().position(|t| Arc::ptr_eq(&t.0, &(self.0).0)) {
                a.swap_remove(i);
            }
            ANY.store(a.iter().any(CancelToken::is_cancelled), Ordering::SeqCst);
        }
    }
    active().push(token.clone());
    if token.is_cancelled() {
        ANY.store(true, Ordering::SeqCst);
    }
    let _leave = Leave(token.clone());
    f()
}

/// `Err(Cancelled)` once a token in [`scope`] is cancelled.
pub fn check() -> Result<(), Cancelled> {
    if !ANY.load(Ordering::Relaxed) {
        return Ok(());
    }
    if active().iter().any(CancelToken::is_cancelled) {
        Err(Cancelled)
    } else {
        Ok(())
    }
}
