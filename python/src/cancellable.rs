//! A library call that Ctrl-C stops: the call runs on a thread of its own
//! inside a [`cvbench_engine::api::cancel::scope`], while the calling thread, the GIL
//! released, waits for it in slices and between them runs Python's signal
//! handlers (`py.check_signals()`). When one raises (`KeyboardInterrupt`
//! on SIGINT), the call's token is cancelled, the call stops at its solves'
//! next check (`SvmError::Cancelled`) and the handler's exception is
//! raised.

use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use cvbench_engine::api::cancel::{scope, CancelToken};
use cvbench_engine::api::errors::SvmError;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::err;

/// How long the calling thread waits between two runs of the signal
/// handlers.
const SLICE: Duration = Duration::from_millis(100);

/// Run `f` (a library call) so that a Python signal handler's exception
/// (Ctrl-C's `KeyboardInterrupt`) stops it; its error as a `ValueError`.
pub fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, SvmError> + Send) -> PyResult<T> {
    let token = CancelToken::new();
    std::thread::scope(|s| {
        let (tx, rx) = channel();
        let in_scope = token.clone();
        let worker = s.spawn(move || {
            // A send fails only when the caller is gone: nothing to tell.
            let _ = tx.send(scope(&in_scope, f));
        });
        let mut rx = rx;
        let mut interrupt = None;
        let out = loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(SLICE);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(r) => break Some(r),
                Err(RecvTimeoutError::Disconnected) => break None,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals() {
                token.cancel();
                interrupt = Some(e);
                break wait(py, rx);
            }
        };
        let joined = py.detach(|| worker.join());
        if let Some(e) = interrupt {
            return Err(e);
        }
        match (out, joined) {
            (Some(r), Ok(())) => r.map_err(err),
            _ => Err(PyRuntimeError::new_err(
                "cvbench: the library call panicked (a bug: please report it)",
            )),
        }
    })
}

/// The call's result after its cancellation (`None`: it panicked).
fn wait<T: Send>(py: Python<'_>, rx: Receiver<Result<T, SvmError>>) -> Option<Result<T, SvmError>> {
    py.detach(move || rx.recv().ok())
}
