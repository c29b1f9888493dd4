//! Fuzz tests on stable Rust (proptest): the LibSVM, IDX and UCI readers and
//! the config path (parse, shared checks, each kind's plan) get arbitrary
//! bytes and mutated real-looking inputs, and config keys and sizes at their
//! edges (`fuzz_config_keys_and_sizes`). Each must return a value or an
//! error: never panic, abort, or ask the allocator for more than a small
//! multiple of the input's size (a counting global allocator records the
//! largest single request).
//!
//! `FUZZ_CASES` sets the cases per test (default: a few hundred, seconds in
//! debug) and `FUZZ_SEED` their seed (default fixed); `make fuzz` runs a long campaign in release and prints the count
//! of inputs tried (lines `fuzz-inputs <test> <count>`).
//!
//! This file is the harness (the counting allocator, the seeded runner,
//! the mutations of seed inputs); each target is a module of its own
//! beside it, by subject.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The global allocator, recording the largest single request and refusing
/// any above [`HARD_CAP`] (the process then aborts with "memory allocation of
/// N bytes failed": a clear failure instead of a machine swapping, since a
/// huge zeroed request can succeed lazily and be filled for hours).
struct Counting;

static MAX_REQUEST: AtomicUsize = AtomicUsize::new(0);

/// No input here needs more than this in one allocation.
const HARD_CAP: usize = 1 << 30;

// SAFETY: every method forwards to `System` unchanged, or returns null (an
// allocation failure, which callers must handle); the counter is an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        MAX_REQUEST.fetch_max(l.size(), Ordering::Relaxed);
        if l.size() > HARD_CAP {
            return std::ptr::null_mut();
        }
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        MAX_REQUEST.fetch_max(l.size(), Ordering::Relaxed);
        if l.size() > HARD_CAP {
            return std::ptr::null_mut();
        }
        System.alloc_zeroed(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        MAX_REQUEST.fetch_max(new_size, Ordering::Relaxed);
        if new_size > HARD_CAP {
            return std::ptr::null_mut();
        }
        System.realloc(p, l, new_size)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fuzz tests run one at a time, so that the allocation record is theirs.
static SERIAL: Mutex<()> = Mutex::new(());

fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The test suite draws the same inputs on every run (seed
/// [`DEFAULT_SEED`]), so CI cannot fail by chance; `FUZZ_SEED=random` (what
/// `make fuzz` sets) or `FUZZ_SEED=<u64>` explores or replays other inputs.
fn runner(cases: u32) -> TestRunner {
    runner_part(cases, 0)
}

/// Runner `part` of several that share one test's cases on threads of
/// their own: part 0 is [`runner`], part `i` draws from the seed plus `i`.
fn runner_part(cases: u32, part: u64) -> TestRunner {
    let seed = match std::env::var("FUZZ_SEED").ok().as_deref() {
        Some("random") => RngSeed::Random,
        Some(v) => RngSeed::Fixed(
            v.parse::<u64>()
                .expect("FUZZ_SEED is `random` or a u64")
                .wrapping_add(part),
        ),
        None => RngSeed::Fixed(DEFAULT_SEED.wrapping_add(part)),
    };
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: seed,
        ..Config::default()
    })
}

/// The seed of the test suite's fuzz inputs.
const DEFAULT_SEED: u64 = 20_261_123;

/// Run `f` on `input` and check the largest allocation request stays
/// within `factor` times the input plus a fixed slack.
fn bounded<T>(input_len: usize, factor: usize, f: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    MAX_REQUEST.store(0, Ordering::Relaxed);
    let out = f();
    let max = MAX_REQUEST.load(Ordering::Relaxed);
    let limit = factor * input_len + (1 << 20);
    prop_assert!(
        max <= limit,
        "largest allocation {max} bytes for a {input_len}-byte input (limit {limit})"
    );
    Ok(out)
}

/// A mutation of a seed input.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, usize),
    Delete(usize, usize),
    Truncate(usize),
    Repeat(usize, usize),
    /// Insert a token at the start of a line.
    InsertLine(usize, usize),
    /// Replace what follows a `= ` up to the end of its line with a token.
    ReplaceValue(usize, usize),
}

fn mutation(n_tokens: usize) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Flip(p, b)),
        2 => (any::<usize>(), 0..n_tokens).prop_map(|(p, t)| Mutation::Insert(p, t)),
        2 => (any::<usize>(), 1usize..16).prop_map(|(p, k)| Mutation::Delete(p, k)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), 1usize..64).prop_map(|(p, k)| Mutation::Repeat(p, k)),
        4 => (any::<usize>(), 0..n_tokens).prop_map(|(p, t)| Mutation::InsertLine(p, t)),
        4 => (any::<usize>(), 0..n_tokens).prop_map(|(p, t)| Mutation::ReplaceValue(p, t)),
    ]
}

fn apply(seed: &[u8], muts: &[Mutation], tokens: &[&[u8]]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for m in muts {
        let at = |p: usize, v: &Vec<u8>| if v.is_empty() { 0 } else { p % (v.len() + 1) };
        match *m {
            Mutation::Flip(p, b) => {
                if !v.is_empty() {
                    let i = p % v.len();
                    v[i] = b;
                }
            }
            Mutation::Insert(p, t) => {
                let i = at(p, &v);
                v.splice(i..i, tokens[t].iter().copied());
            }
            Mutation::Delete(p, k) => {
                let i = at(p, &v);
                let j = (i + k).min(v.len());
                v.drain(i..j);
            }
            Mutation::Truncate(p) => {
                let i = at(p, &v);
                v.truncate(i);
            }
            Mutation::InsertLine(p, t) => {
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(
                        v.iter()
                            .enumerate()
                            .filter(|(_, &b)| b == b'\n')
                            .map(|(i, _)| i + 1),
                    )
                    .collect();
                let i = starts[p % starts.len()];
                let mut tok = tokens[t].to_vec();
                if tok.last() != Some(&b'\n') {
                    tok.push(b'\n');
                }
                v.splice(i..i, tok);
            }
            Mutation::ReplaceValue(p, t) => {
                let eqs: Vec<usize> = v
                    .windows(2)
                    .enumerate()
                    .filter(|(_, w)| w == b"= ")
                    .map(|(i, _)| i + 2)
                    .collect();
                if !eqs.is_empty() {
                    let i = eqs[p % eqs.len()];
                    let j = v[i..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(v.len(), |k| i + k);
                    v.splice(i..j, tokens[t].iter().copied());
                }
            }
            Mutation::Repeat(p, k) => {
                let i = at(p, &v);
                let j = (i + k).min(v.len());
                let chunk = v[i..j].to_vec();
                v.splice(j..j, chunk);
            }
        }
    }
    v
}

/// A seed chosen from `seeds` with up to 8 mutations, or arbitrary bytes.
fn input(seeds: Vec<Vec<u8>>, tokens: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    let n = seeds.len();
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..600),
        5 => (0..n, proptest::collection::vec(mutation(tokens.len()), 0..6))
            .prop_map(move |(s, m)| apply(&seeds[s], &m, tokens)),
    ]
}

static NUMBER_TOKENS: &[&[u8]] = &[
    b"4294967295",
    b"4294967296",
    b"18446744073709551615",
    b"134217729",
    b"-1",
    b"0",
    b"1e309",
    b"-1e-320",
    b"nan",
    b"inf",
    b":",
    b"::",
    b" ",
    b",",
    b"\t",
    b"\n",
    b"\r\n",
    b"#",
    b"qid:",
    b"\xff\xfe",
    b"+1 ",
];

fn report(name: &str, count: &AtomicUsize) {
    println!("fuzz-inputs {name} {}", count.load(Ordering::Relaxed));
}

/// The fuzz targets for the dataset readers.
mod readers;

/// The fuzz targets for the config path and config file reads.
mod config_path;

/// The fuzz target for config keys and sizes.
mod config_keys;

/// The fuzz target for output paths (`export -o`, `run --out`, `report DIR`).
mod output_paths;

/// The fuzz target for grid ranges.
mod grid_ranges;

/// The fuzz target for environment values.
mod environment;
