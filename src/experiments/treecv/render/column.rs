//! One (method, order) column of a figure panel, styled the same in every
//! figure of the kind: dashed for standard CV, hollow for the randomized
//! order.

use crate::results::figures::{Panel, Series, Style};

/// Add a line of a (method, order) column to a panel, styled by the
/// column: dashed for standard CV, hollow markers for the randomized order.
pub fn push_column(
    panel: &mut Panel,
    (method, order): (&str, &str),
    label: String,
    points: Vec<(f64, f64, f64)>,
    (color, marker): (usize, usize),
) {
    let series = Series {
        bars: false,
        label,
        points,
        color,
        marker,
    };
    let style = Style {
        dashed: method != "treecv",
        thin: false,
        hollow: order == "randomized",
    };
    panel.push(series, style);
}
