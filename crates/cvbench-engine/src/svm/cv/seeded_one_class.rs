//! The seed of a one-class SVM's CV round (`-s 2 --seeding sir`): LIBSVM's
//! `solve_one_class` solves `min 1/2 a^T K a` over `0 <= a_i <= 1`,
//! `sum a_i = nu l` (its start fills `(int)(nu l)` ones from the top).
//!
//! Round `h` starts from round `h - 1`'s solution: kept rows keep their
//! `a_i`; rows that left drop; an entered row (held out by round `h - 1`)
//! starts at the value the optimality conditions give it under round
//! `h - 1`'s model: `1` where it was predicted an outlier (`f(x) <= 0`,
//! label `-1`), else `0`. The sum is then moved to this round's `nu l` by
//! [`super::seeded_sums::restore_sum`] (entered rows first, bound 1);
//! where no such start exists the round starts from LIBSVM's fill.

use super::seeded_sums::restore_sum;

/// An entered row's guess from its held-out prediction (`+1` inside, `-1`
/// outlier).
pub(crate) fn entered_guess(predicted: f64) -> [f64; 2] {
    if predicted < 0.0 {
        [1.0, 0.0]
    } else {
        [0.0, 0.0]
    }
}

/// The start of a round of `l = a.len()` rows from the kept values and
/// the guesses `a` (`entered` marking the guesses), or `None` (LIBSVM's
/// start).
pub(crate) fn seed(mut a: Vec<f64>, entered: &[bool], nu: f64) -> Option<Vec<f64>> {
    let target = nu * a.len() as f64;
    restore_sum(&mut a, entered, target, 1.0).then_some(a)
}
