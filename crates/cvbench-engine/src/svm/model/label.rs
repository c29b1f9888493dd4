//! The class a label belongs to, as LIBSVM decides it.
//!
//! `svm-train` reads every label as a `double` but groups the rows into
//! classes by `(int)label` (`svm_group_classes`), and its models store and
//! predict those integers. A prediction counts as correct only when it
//! equals the label as written, so a class written `1.5` is predicted `1`
//! and never counted correct; labels `2.5` and `2` are one class. The engine
//! does exactly that: every grouping of rows into classes goes through
//! [`class_label`], every count of correct predictions compares with the
//! label as read.

/// The class of label `v`: C's `(int)v`, truncation toward zero. Values
/// outside `i32`'s range give `i32::MIN`, as x86's conversion does (C
/// leaves it undefined); NaN gives `i32::MIN` too (callers reject it first).
#[inline]
pub fn class_label(v: f64) -> f64 {
    let t = v.trunc();
    if t >= f64::from(i32::MIN) && t <= f64::from(i32::MAX) {
        t
    } else {
        f64::from(i32::MIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_label_truncates_toward_zero_like_a_c_int_cast() {
        assert_eq!(class_label(1.5), 1.0);
        assert_eq!(class_label(-1.5), -1.0);
        assert_eq!(class_label(2.0), 2.0);
        assert_eq!(class_label(-0.7), 0.0);
        assert_eq!(class_label(3e10), f64::from(i32::MIN));
        assert_eq!(class_label(-3e10), f64::from(i32::MIN));
    }
}
