//! Numbers printed the way grid.py prints them.
//!
//! grid.py reads each rate from `svm-train -v`'s `%g` text with Python's
//! `float` and prints it (and `2.0**log2c`, the exponents) with Python's
//! `str`, i.e. the shortest round-trip repr: `2.0`, `0.03125`,
//! `3.0517578125e-05`, `96.9893`.

use cvbench_engine::api::data::printf_g as c_fmt_g;

/// Python's `repr(float)`: the shortest digits that round-trip, in fixed
/// notation with a `.0` for whole numbers when the decimal exponent is in
/// `-4..16`, else scientific with a signed two-digit exponent.
pub fn py_float(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("exponent is an integer");
    if (-4..16).contains(&exp) {
        let s = format!("{x}");
        if s.contains('.') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    }
}

/// An exponent as grid.py prints it: a default range holds Python integers
/// (`-5`), a user range floats (`-5.0`).
pub fn py_exponent(x: f64, user: bool) -> String {
    if user {
        py_float(x)
    } else {
        format!("{}", x as i64)
    }
}

/// The rate grid.py gets for `correct` of `n` rows: `svm-train`'s `%g` text
/// of `100 * correct / n`, read back as a float.
pub fn grid_rate(correct: usize, n: usize) -> f64 {
    c_fmt_g(100.0 * correct as f64 / n as f64)
        .parse()
        .expect("%g text parses")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_repr() {
        assert_eq!(py_float(2.0), "2.0");
        assert_eq!(py_float(0.03125), "0.03125");
        assert_eq!(py_float(2f64.powi(-15)), "3.0517578125e-05");
        assert_eq!(py_float(2f64.powi(-14)), "6.103515625e-05");
        assert_eq!(py_float(2f64.powi(-13)), "0.0001220703125");
        assert_eq!(py_float(32768.0), "32768.0");
        assert_eq!(py_float(1e16), "1e+16");
        assert_eq!(py_float(96.9893), "96.9893");
        assert_eq!(py_float(-5.0), "-5.0");
        assert_eq!(py_exponent(-5.0, false), "-5");
    }

    #[test]
    fn printf_g() {
        assert_eq!(c_fmt_g(100.0 * 2996.0 / 3089.0), "96.9893");
        assert_eq!(c_fmt_g(100.0), "100");
        assert_eq!(c_fmt_g(55.555555), "55.5556");
        assert_eq!(c_fmt_g(0.0001234567), "0.000123457");
        assert_eq!(c_fmt_g(1234567.0), "1.23457e+06");
        assert_eq!(grid_rate(1, 3), 33.3333);
    }
}
