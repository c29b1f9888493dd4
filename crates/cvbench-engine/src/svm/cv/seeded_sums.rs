//! The one-sided restore of the seeded nu formulations' starts: a set of
//! variables in `[0, u]` whose sum must be `T` (one-class: all of them,
//! `T = nu l`; nu-SVR: the `a` and, apart, the `a*`, `T = C nu l / 2`
//! each; nu-SVC per class pair: each label's, `T = nu l / 2`).
//!
//! The seed keeps the previous round's values of the kept rows and the
//! entered rows' guesses; their sum `S` misses `T` by the rows that left
//! and entered. The difference is taken up by the entered rows first, then
//! by the kept rows:
//!
//! - `S > T`: the group's values scaled towards zero by `1 - excess /
//!   total` (all to zero where the group's `total` is smaller, the rest of
//!   the excess left to the next group);
//! - `S < T`: the group's values moved towards `u` by the same fraction of
//!   their room, `v += (u - v) min(1, deficit / room)`.
//!
//! Values never leave `[0, u]`, and zero stays zero when the sum falls
//! (at-bound values stay at the bound when it rises). Where `T` lies
//! outside `[0, u n]` no start is feasible and the caller falls back to
//! LIBSVM's own start (as svm-train trains such a fold).

/// Move `v` (in `[0, u]`) to the sum `target`, the `entered` ones first
/// (see the module doc). `false` (and `v` untouched) where `target` is
/// outside `[0, u n]`.
pub(crate) fn restore_sum(v: &mut [f64], entered: &[bool], target: f64, u: f64) -> bool {
    if !(target >= 0.0 && target <= u * v.len() as f64) {
        return false;
    }
    let s: f64 = v.iter().sum();
    if s > target {
        let mut excess = s - target;
        for pass in [true, false] {
            let total: f64 = group(v, entered, pass).map(|x| *x).sum();
            if total <= 0.0 || excess <= 0.0 {
                continue;
            }
            let f = (1.0 - excess / total).max(0.0);
            group(v, entered, pass).for_each(|x| *x *= f);
            excess = (excess - total).max(0.0);
        }
    } else if s < target {
        let mut deficit = target - s;
        for pass in [true, false] {
            let room: f64 = group(v, entered, pass).map(|x| u - *x).sum();
            if room <= 0.0 || deficit <= 0.0 {
                continue;
            }
            let f = (deficit / room).min(1.0);
            group(v, entered, pass).for_each(|x| *x += (u - *x) * f);
            deficit = (deficit - room).max(0.0);
        }
    }
    for x in v.iter_mut() {
        *x = x.clamp(0.0, u);
    }
    true
}

fn group<'a>(
    v: &'a mut [f64],
    entered: &'a [bool],
    pass: bool,
) -> impl Iterator<Item = &'a mut f64> + 'a {
    v.iter_mut()
        .zip(entered)
        .filter(move |(_, &e)| e == pass)
        .map(|(x, _)| x)
}

#[cfg(test)]
mod tests {
    use super::restore_sum;

    #[test]
    fn the_sum_is_restored_within_the_bounds() {
        for (v, target) in [
            (vec![1.0, 0.5, 0.0, 1.0, 0.2], 1.0),
            (vec![1.0, 0.5, 0.0, 1.0, 0.2], 3.9),
            (vec![0.0, 0.0, 0.0], 2.5),
            (vec![0.7, 0.3], 1.0),
            (vec![1.0, 1.0, 1.0, 0.0], 0.5),
        ] {
            let entered: Vec<bool> = (0..v.len()).map(|i| i % 2 == 1).collect();
            let mut out = v.clone();
            assert!(restore_sum(&mut out, &entered, target, 1.0));
            let s: f64 = out.iter().sum();
            assert!((s - target).abs() < 1e-12, "{out:?} {target}");
            assert!(out.iter().all(|&x| (0.0..=1.0).contains(&x)));
        }
        let mut v = vec![0.5, 0.5];
        assert!(!restore_sum(&mut v, &[true, false], 2.5, 1.0));
        assert_eq!(v, vec![0.5, 0.5]);
    }
}
