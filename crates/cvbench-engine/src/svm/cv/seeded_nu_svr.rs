//! The seed of a nu-SVR CV round (`-s 4 --seeding sir`): LIBSVM's
//! `solve_nu_svr` solves SVR's `2l`-variable dual (`a`, `a*` in `[0, C]`)
//! with `Solver_NU`'s two equality constraints, `sum (a_i - a*_i) = 0` and
//! `sum (a_i + a*_i) = C nu l`, that is `sum a_i = sum a*_i = C nu l / 2`
//! (its start fills `a_i = a*_i = min(C, left)` from the top).
//!
//! Round `h` starts from round `h - 1`'s solution: kept rows keep their
//! pair (`a_i = max(beta_i, 0)`, `a*_i = max(-beta_i, 0)`, `beta` the
//! row's coefficient); rows that left drop; an entered row starts at the
//! value the optimality conditions give it under round `h - 1`'s model and
//! tube (`epsilon = -r`, what `solve_nu_svr` prints): `a = C` where `y -
//! f(x) > epsilon`, `a* = C` where `< -epsilon`, else zero. Each side's sum
//! is then moved to `C nu l / 2` by [`super::seeded_sums::restore_sum`]
//! (entered rows first, bound `C`), both constraints held; where no such
//! start exists the round starts from LIBSVM's fill.

use super::seeded_sums::restore_sum;

/// An entered row's `(a, a*)` from its residual `y - f(x)` and the
/// previous round's tube `epsilon` (bound `c`).
pub(crate) fn entered_guess(resid: f64, epsilon: f64, c: f64) -> [f64; 2] {
    if resid > epsilon {
        [c, 0.0]
    } else if resid < -epsilon {
        [0.0, c]
    } else {
        [0.0, 0.0]
    }
}

/// The `2l` starting variables (`a_1..a_l, a*_1..a*_l`) from the kept
/// pairs and the guesses `pairs` (`entered` marking the guesses), or
/// `None` (LIBSVM's start).
pub(crate) fn seed(pairs: &[[f64; 2]], entered: &[bool], c: f64, nu: f64) -> Option<Vec<f64>> {
    let l = pairs.len();
    let target = c * nu * l as f64 / 2.0;
    let mut a: Vec<f64> = pairs.iter().map(|p| p[0].min(c)).collect();
    let mut a_star: Vec<f64> = pairs.iter().map(|p| p[1].min(c)).collect();
    if !(restore_sum(&mut a, entered, target, c) && restore_sum(&mut a_star, entered, target, c)) {
        return None;
    }
    a.extend(a_star);
    Some(a)
}
