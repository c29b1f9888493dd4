//! Jobs of uneven length (a grid's gammas) run `width` at a time on the
//! current rayon pool, each worker taking the next job as soon as it is
//! free, and their results handed to a sink on the calling thread in job
//! order.
//!
//! Running the jobs in fixed chunks of `width` made every chunk wait for
//! its slowest job (the large gammas of a grid take several times as long
//! as the small ones). Here at most `width` jobs are under way at once (so
//! at most `width` kernel matrices are alive), jobs start in index order,
//! and the sink sees the same sequence as with one thread; only the
//! timing differs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Run `job(0..n)` with at most `width` under way at once, calling `sink`
/// on the calling thread with each result in index order (as soon as every
/// earlier one has been handed over). The first error (of a job or of the
/// sink, the earliest index first) stops the run: jobs not yet started are
/// not started.
pub fn run_in_order<T, E>(
    n: usize,
    width: usize,
    job: &(dyn Fn(usize) -> Result<T, E> + Sync),
    sink: &mut dyn FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let take = || {
        let i = next.fetch_add(1, Ordering::SeqCst);
        (i < n && !stop.load(Ordering::SeqCst)).then_some(i)
    };
    // A failed job stops the run at once, on whichever thread ran it: every
    // earlier index was already taken (jobs are taken in index order), so
    // the earliest error is still the one reported.
    let run = |i: usize| {
        let r = job(i);
        if r.is_err() {
            stop.store(true, Ordering::SeqCst);
        }
        r
    };
    let (tx, rx) = mpsc::channel::<(usize, Result<T, E>)>();
    let mut done: BTreeMap<usize, Result<T, E>> = BTreeMap::new();
    let mut handed = 0usize;
    let mut failed: Option<E> = None;
    // Hands over the results that are next in order; records the first
    // error and stops the run.
    let mut flush = |done: &mut BTreeMap<usize, Result<T, E>>, failed: &mut Option<E>| {
        while failed.is_none() {
            let Some(r) = done.remove(&handed) else { break };
            let r = r.and_then(|v| sink(handed, v));
            handed += 1;
            if let Err(e) = r {
                *failed = Some(e);
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    rayon::in_place_scope(|s| {
        for _ in 1..width.max(1) {
            let tx = tx.clone();
            let take = &take;
            let run = &run;
            s.spawn(move |_| {
                while let Some(i) = take() {
                    if tx.send((i, run(i))).is_err() {
                        break;
                    }
                }
            });
        }
        // The calling thread is a worker too, and hands results over
        // between its jobs.
        while let Some(i) = take() {
            done.insert(i, run(i));
            done.extend(rx.try_iter());
            flush(&mut done, &mut failed);
        }
    });
    drop(tx);
    done.extend(rx.try_iter());
    flush(&mut done, &mut failed);
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_order_whatever_the_job_lengths() {
        for threads in [1, 2, 4] {
            let pool = crate::svm::cv::pool::build(threads).unwrap();
            for width in [1, 2, 3] {
                let mut seen = Vec::new();
                let job = |i: usize| -> Result<usize, String> {
                    // Early jobs are the slow ones.
                    std::thread::sleep(std::time::Duration::from_millis(
                        ((7 - i.min(7)) * 2) as u64,
                    ));
                    Ok(i * i)
                };
                pool.install(|| {
                    run_in_order(9, width, &job, &mut |i, v| {
                        seen.push((i, v));
                        Ok(())
                    })
                })
                .unwrap();
                let want: Vec<(usize, usize)> = (0..9).map(|i| (i, i * i)).collect();
                assert_eq!(seen, want, "{threads} threads, width {width}");
            }
        }
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let pool = crate::svm::cv::pool::build(2).unwrap();
        let started = AtomicUsize::new(0);
        let job = |i: usize| -> Result<usize, String> {
            started.fetch_add(1, Ordering::SeqCst);
            if i > 3 {
                // Later jobs take a while, as a grid's gammas do: the other
                // thread cannot run through all of them in the instant
                // between job 3 being taken and its failure being known.
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            if i == 3 {
                Err(format!("job {i} failed"))
            } else {
                Ok(i)
            }
        };
        let mut seen = Vec::new();
        let r = pool.install(|| {
            run_in_order(100, 2, &job, &mut |i, _| {
                seen.push(i);
                Ok(())
            })
        });
        assert_eq!(r, Err("job 3 failed".to_string()));
        assert_eq!(seen, vec![0, 1, 2], "results before the error only");
        // Job 3's failure stops the run on the thread that ran it, whatever
        // the other thread is doing (before, it was known only when the
        // calling thread next handed results over, and under load the other
        // thread could run every job first).
        let n = started.load(Ordering::SeqCst);
        assert!(n < 100, "later jobs not started ({n} started)");
        // A sink error stops it too.
        let r = pool.install(|| {
            run_in_order(50, 2, &|i: usize| Ok::<usize, String>(i), &mut |i, _| {
                if i == 5 {
                    Err("sink".to_string())
                } else {
                    Ok(())
                }
            })
        });
        assert_eq!(r, Err("sink".to_string()));
    }
}
