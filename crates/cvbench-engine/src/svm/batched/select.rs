//! Working-set selection of the batched solver: the most violating
//! variables of each side, as the "thunder" method of ThunderSVM (Wen et
//! al., JMLR 2018) and the maximal violating pairs of Fan, Chen & Lin.
//!
//! With `f_t = -y_t G_t`, LIBSVM's stopping rule compares
//! `m = max { f_t : t in I_up }` with `M = min { f_t : t in I_low }`. The
//! most violating pairs pair the largest `f` of `I_up` with the smallest of
//! `I_low`; the working set takes them side by side (one from the top of
//! `I_up`, one from the bottom of `I_low`, alternately, skipping variables
//! already in), so each inner step on the set can act on the pairs that
//! violate most. After the first set, the newer half of the previous set
//! stays (first in, first out): a variable that just moved keeps its kernel
//! row and its chance to settle. Sorting breaks ties by position, so the
//! set is a function of the state alone.

use crate::svm::smo::optimality::{in_low, in_up};

/// The next working set of at most `q` variables: `keep` (the previous
/// set's newer half, in order) then new ones by violation.
pub(super) fn working_set(
    y: &[i8],
    g: &[f64],
    status: &[u8],
    keep: &[usize],
    q: usize,
) -> Vec<usize> {
    let [up, low] = candidates(y, g, status, q + keep.len(), |_| true);
    let (mut ws, mut taken) = kept(keep, q, y.len());
    let (mut iu, mut il) = (up.iter().peekable(), low.iter().peekable());
    let mut from_up = true;
    while ws.len() < q && (iu.peek().is_some() || il.peek().is_some()) {
        let side = if from_up { &mut iu } else { &mut il };
        from_up = !from_up;
        for &t in side.by_ref() {
            if !taken[t] {
                taken[t] = true;
                ws.push(t);
                break;
            }
        }
    }
    ws
}

/// [`working_set`] for the nu formulations (`Solver_NU`), whose two
/// equality constraints let a step move two variables of the same label
/// only: each label's `I_up` by decreasing `f` and `I_low` by increasing
/// `f`, and the set filled a pair at a time (one of each side) from the
/// label whose next pair violates more (`f_up - f_low`, larger first; ties
/// to label `+1`), after `keep`.
pub(super) fn working_set_nu(
    y: &[i8],
    g: &[f64],
    status: &[u8],
    keep: &[usize],
    q: usize,
) -> Vec<usize> {
    let f = |t: usize| -f64::from(y[t]) * g[t];
    // [label +1, label -1] x [I_up, I_low].
    let sides: Vec<[Vec<usize>; 2]> = [1i8, -1]
        .iter()
        .map(|&label| candidates(y, g, status, q + keep.len(), |t| y[t] == label))
        .collect();
    let (mut ws, mut taken) = kept(keep, q, y.len());
    let mut at = [[0usize; 2]; 2];
    // The next variable of a label's side not yet taken.
    let next = |at: &mut [[usize; 2]; 2], taken: &[bool], s: usize, d: usize| {
        while at[s][d] < sides[s][d].len() && taken[sides[s][d][at[s][d]]] {
            at[s][d] += 1;
        }
        sides[s][d].get(at[s][d]).copied()
    };
    while ws.len() < q {
        let mut best: Option<(usize, f64)> = None;
        for s in 0..2 {
            let gap = match (next(&mut at, &taken, s, 0), next(&mut at, &taken, s, 1)) {
                (Some(u), Some(w)) => f(u) - f(w),
                (None, None) => continue,
                _ => f64::NEG_INFINITY,
            };
            if best.is_none_or(|(_, b)| gap > b) {
                best = Some((s, gap));
            }
        }
        let Some((s, _)) = best else { break };
        for d in 0..2 {
            if ws.len() < q {
                if let Some(t) = next(&mut at, &taken, s, d) {
                    taken[t] = true;
                    ws.push(t);
                }
            }
        }
    }
    ws
}

/// The variables `t` with `pick(t)` of `I_up` by decreasing `f` and of
/// `I_low` by increasing `f`, ties by position, each cut to its first
/// `head`. A side gives at most `q` new variables and skips at most the
/// kept ones, so with `head = q + keep.len()` only that many need sorting
/// (the same order: the comparison is total).
fn candidates(
    y: &[i8],
    g: &[f64],
    status: &[u8],
    head: usize,
    pick: impl Fn(usize) -> bool,
) -> [Vec<usize>; 2] {
    let f = |t: usize| -f64::from(y[t]) * g[t];
    let l = y.len();
    let mut up: Vec<usize> = (0..l)
        .filter(|&t| pick(t) && in_up(y[t], status[t]))
        .collect();
    let mut low: Vec<usize> = (0..l)
        .filter(|&t| pick(t) && in_low(y[t], status[t]))
        .collect();
    sorted_head(&mut up, head, |&a, &b| {
        f(b).total_cmp(&f(a)).then(a.cmp(&b))
    });
    sorted_head(&mut low, head, |&a, &b| {
        f(a).total_cmp(&f(b)).then(a.cmp(&b))
    });
    [up, low]
}

/// The set's start: `keep`'s first `q`, each once, and which of the `l`
/// variables are taken.
fn kept(keep: &[usize], q: usize, l: usize) -> (Vec<usize>, Vec<bool>) {
    let mut taken = vec![false; l];
    let mut ws = Vec::with_capacity(q);
    for &t in keep.iter().take(q) {
        if !taken[t] {
            taken[t] = true;
            ws.push(t);
        }
    }
    (ws, taken)
}

/// Keep the first `k` of `v` in the order of `cmp` (a total order), sorted.
fn sorted_head(
    v: &mut Vec<usize>,
    k: usize,
    mut cmp: impl FnMut(&usize, &usize) -> std::cmp::Ordering,
) {
    if v.len() > k {
        if k == 0 {
            v.clear();
            return;
        }
        v.select_nth_unstable_by(k - 1, &mut cmp);
        v.truncate(k);
    }
    v.sort_unstable_by(cmp);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::smo::optimality::{FREE, LOWER, UPPER};

    #[test]
    fn the_most_violating_of_each_side_come_first() {
        // f = -y G: rows 0..6.
        let y = [1, 1, -1, -1, 1, -1];
        let g = [-3.0, -0.5, -2.0, 0.1, 1.0, 0.0];
        let status = [LOWER, FREE, LOWER, UPPER, UPPER, FREE];
        // I_up: y=+1 not upper (0, 1), y=-1 not lower (3, 5): f = 3, 0.5, 0.1, 0.
        // I_low: y=+1 not lower (1, 4), y=-1 not upper (2, 5): f = 0.5, -1, -2, 0.
        let ws = working_set(&y, &g, &status, &[], 4);
        assert_eq!(ws, vec![0, 2, 1, 4]);
        // Kept variables come first and are not taken twice.
        let ws = working_set(&y, &g, &status, &[2, 5], 4);
        assert_eq!(ws, vec![2, 5, 0, 4]);
        // A set larger than the problem holds every variable once.
        let mut ws = working_set(&y, &g, &status, &[], 10);
        ws.sort_unstable();
        assert_eq!(ws, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_nu_set_takes_pairs_of_one_label_by_violation() {
        // f = -y G; label +1: rows 0, 1, 4; label -1: rows 2, 3, 5.
        let y = [1, 1, -1, -1, 1, -1];
        let g = [-3.0, -0.5, -2.0, 0.1, 1.0, 0.0];
        let status = [LOWER, FREE, LOWER, UPPER, UPPER, FREE];
        // +1: I_up {0 (f 3), 1 (f 0.5)}, I_low {4 (f -1), 1 (f 0.5)}: gap 4.
        // -1: I_up {3 (f 0.1), 5 (f 0)}, I_low {2 (f -2), 5 (f 0)}: gap 2.1.
        assert_eq!(working_set_nu(&y, &g, &status, &[], 2), vec![0, 4]);
        // Then label -1's pair (2.1 against +1's next, 0.5 - 0.5 = 0).
        assert_eq!(working_set_nu(&y, &g, &status, &[], 4), vec![0, 4, 3, 2]);
        // Kept ones first, never twice; a set larger than the problem
        // holds every variable once.
        assert_eq!(working_set_nu(&y, &g, &status, &[4], 3), vec![4, 0, 1]);
        let mut ws = working_set_nu(&y, &g, &status, &[], 10);
        ws.sort_unstable();
        assert_eq!(ws, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_sorted_head_is_the_head_of_the_sorted_whole() {
        let key = |t: usize| ((t * 37) % 11) as f64;
        let cmp = |a: &usize, b: &usize| key(*a).total_cmp(&key(*b)).then(a.cmp(b));
        let mut all: Vec<usize> = (0..40).collect();
        all.sort_unstable_by(cmp);
        for k in [0, 1, 7, 39, 40, 50] {
            let mut v: Vec<usize> = (0..40).rev().collect();
            sorted_head(&mut v, k, cmp);
            assert_eq!(v, all[..k.min(40)], "k = {k}");
        }
    }
}
