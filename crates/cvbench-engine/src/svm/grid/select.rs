//! grid.py's choice of the best point: visiting the points in grid.py's
//! order, a point replaces the best when its rate is higher, or equal with
//! the same gamma and a smaller C (`rate > best_rate or (rate == best_rate
//! and g == best_g and c < best_c)`, on the exponents).

/// The running best: `(log2c, log2g, rate)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Best {
    /// `log2 C` of the best point (`None` for a null axis).
    pub log2c: Option<f64>,
    /// `log2 gamma` of the best point.
    pub log2g: Option<f64>,
    /// Its rate (grid.py's rate: `svm-train`'s `%g` text read back).
    pub rate: f64,
}

impl Default for Best {
    fn default() -> Best {
        Best {
            log2c: None,
            log2g: None,
            rate: -1.0,
        }
    }
}

impl Best {
    /// Visit one point (in grid.py's order).
    pub fn update(&mut self, log2c: Option<f64>, log2g: Option<f64>, rate: f64) {
        let smaller_c = match (log2c, self.log2c) {
            (Some(c), Some(b)) => c < b,
            _ => false,
        };
        if rate > self.rate || (rate == self.rate && log2g == self.log2g && smaller_c) {
            *self = Best { log2c, log2g, rate };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_break_is_grid_pys() {
        let mut b = Best::default();
        b.update(Some(5.0), Some(-7.0), 90.0);
        b.update(Some(-1.0), Some(-7.0), 90.0); // same g, smaller c: taken
        assert_eq!(b.log2c, Some(-1.0));
        b.update(Some(-3.0), Some(-1.0), 90.0); // other g: not taken
        assert_eq!(b.log2g, Some(-7.0));
        b.update(Some(11.0), Some(3.0), 90.5);
        assert_eq!((b.log2c, b.log2g, b.rate), (Some(11.0), Some(3.0), 90.5));
    }
}
