//! Figures with plotters: grids of panels with line series, markers and error
//! bars, written as SVG and PNG. Log axes are drawn by plotting `log10` of the
//! values with tick labels in the original units, so every panel shares one
//! code path. Fonts are embedded (DejaVu Sans), nothing comes from the system.

use super::ResultsError;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// One line on a panel: points `(x, y, error)`; `error` is drawn as a bar of ±error.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Legend entry.
    pub label: String,
    /// `(x, y, half-width of the error bar)`; use 0 for no bar.
    pub points: Vec<(f64, f64, f64)>,
    /// Colour index into the palette.
    pub color: usize,
    /// Marker: 0 circle, 1 triangle, 2 cross.
    pub marker: usize,
}

/// One panel (a chart).
#[derive(Clone, Debug, Default)]
pub struct Panel {
    /// Panel title.
    pub title: String,
    /// X-axis label.
    pub x_label: String,
    /// Y-axis label.
    pub y_label: String,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The lines.
    pub series: Vec<Series>,
}

/// A figure: a title, a caption line and a `rows × cols` grid of panels.
#[derive(Clone, Debug, Default)]
pub struct Figure {
    /// Figure title (drawn at the top).
    pub title: String,
    /// A second line under the title (e.g. data provenance, "synthetic").
    pub caption: String,
    /// Grid rows.
    pub rows: usize,
    /// Grid columns.
    pub cols: usize,
    /// Panels in row-major order (`rows * cols` at most).
    pub panels: Vec<Panel>,
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded font is valid; failure here would only drop text.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

fn tx(v: f64, log: bool) -> f64 {
    if log {
        v.max(1e-300).log10()
    } else {
        v
    }
}

fn tick(v: f64, log: bool) -> String {
    let x = if log { 10f64.powf(v) } else { v };
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e5).contains(&a) {
        format!("{x:.0e}")
    } else if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 1.0 {
        format!("{x:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .into()
    } else {
        format!("{x:.4}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .into()
    }
}

fn range(vals: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo {
        (hi - lo) * 0.06
    } else {
        lo.abs() * 0.05 + 0.05
    };
    (lo - pad, hi + pad)
}

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> Result<(), String> {
    let (x0, x1) = range(
        p.series
            .iter()
            .flat_map(|s| s.points.iter().map(|q| tx(q.0, p.log_x))),
    );
    let (y0, y1) = range(p.series.iter().flat_map(|s| {
        s.points.iter().flat_map(|q| {
            [
                tx(q.1 - q.2.abs(), p.log_y),
                tx(q.1 + q.2.abs(), p.log_y),
                tx(q.1, p.log_y),
            ]
        })
    }));
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, ("sans-serif", 20).into_font())
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| e.to_string())?;
    let (lx, ly) = (p.log_x, p.log_y);
    chart
        .configure_mesh()
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .x_label_formatter(&|v| tick(*v, lx))
        .y_label_formatter(&|v| tick(*v, ly))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .x_labels(6)
        .y_labels(7)
        .draw()
        .map_err(|e| e.to_string())?;
    for s in &p.series {
        let color = PALETTE[s.color % PALETTE.len()];
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|q| (tx(q.0, lx), tx(q.1, ly)))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 22, y)], color.stroke_width(3))
            });
        let marker = s.marker;
        chart
            .draw_series(
                pts.iter()
                    .map(|&(x, y)| -> DynElement<'static, DB, (f64, f64)> {
                        match marker % 3 {
                            0 => Circle::new((x, y), 4, color.filled()).into_dyn(),
                            1 => TriangleMarker::new((x, y), 5, color.filled()).into_dyn(),
                            _ => Cross::new((x, y), 5, color.stroke_width(2)).into_dyn(),
                        }
                    }),
            )
            .map_err(|e| e.to_string())?;
        let bars = s.points.iter().filter(|q| q.2 > 0.0).map(|q| {
            PathElement::new(
                vec![
                    (tx(q.0, lx), tx(q.1 - q.2, ly)),
                    (tx(q.0, lx), tx(q.1 + q.2, ly)),
                ],
                color.stroke_width(1),
            )
        });
        chart.draw_series(bars).map_err(|e| e.to_string())?;
    }
    // Put the legend in the corner that covers the fewest data points.
    let corners = [
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::LowerLeft, false, false),
        (SeriesLabelPosition::LowerRight, true, false),
    ];
    let covered = |right: bool, upper: bool| {
        p.series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|q| {
                let fx = (tx(q.0, lx) - x0) / (x1 - x0);
                let fy = (tx(q.1, ly) - y0) / (y1 - y0);
                (if right { fx > 0.55 } else { fx < 0.45 })
                    && (if upper { fy > 0.6 } else { fy < 0.4 })
            })
            .count()
    };
    let legend_at = corners
        .iter()
        .min_by_key(|(_, right, upper)| covered(*right, *upper))
        .map_or(SeriesLabelPosition::UpperLeft, |c| c.0.clone());
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .position(legend_at)
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(())
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, fig: &Figure) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (title_area, body) = root.split_vertically(70);
    title_area
        .draw(&Text::new(
            fig.title.as_str(),
            (15, 8),
            ("sans-serif", 24).into_font().style(FontStyle::Bold),
        ))
        .map_err(|e| e.to_string())?;
    title_area
        .draw(&Text::new(
            fig.caption.as_str(),
            (15, 40),
            ("sans-serif", 16).into_font(),
        ))
        .map_err(|e| e.to_string())?;
    let areas = body.split_evenly((fig.rows.max(1), fig.cols.max(1)));
    for (area, panel) in areas.iter().zip(&fig.panels) {
        draw_panel(area, panel)?;
    }
    root.present().map_err(|e| e.to_string())
}

/// Render `fig` to `<dir>/<stem>.svg` and `<dir>/<stem>.png` (written atomically).
pub fn render(fig: &Figure, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, ResultsError> {
    register_fonts();
    let (w, h) = (
        (fig.cols.max(1) * 560).max(1000) as u32,
        (fig.rows.max(1) * 420 + 70) as u32,
    );
    let svg_path = dir.join(format!("{stem}.svg"));
    let png_path = dir.join(format!("{stem}.png"));
    let err = |path: &Path, message: String| ResultsError::Figure {
        path: path.to_path_buf(),
        message,
    };
    let mut svg = String::new();
    draw(
        SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area(),
        fig,
    )
    .map_err(|m| err(&svg_path, m))?;
    super::table::write_atomic(&svg_path, svg.as_bytes())?;
    // The PNG is drawn into a temporary file in the same folder, then renamed.
    let tmp = dir.join(format!("{stem}.tmp.png"));
    draw(BitMapBackend::new(&tmp, (w, h)).into_drawing_area(), fig)
        .map_err(|m| err(&png_path, m))?;
    std::fs::rename(&tmp, &png_path).map_err(|source| ResultsError::Io {
        path: png_path.clone(),
        source,
    })?;
    Ok(vec![svg_path, png_path])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_svg_and_png_with_text() {
        let dir = tempfile::tempdir().unwrap();
        let series = Series {
            label: "TreeCV".into(),
            points: vec![(1e3, 0.1, 0.01), (1e4, 1.0, 0.1), (1e5, 10.0, 0.0)],
            color: 0,
            marker: 0,
        };
        let fig = Figure {
            title: "t".into(),
            caption: "synthetic".into(),
            rows: 1,
            cols: 2,
            panels: vec![
                Panel {
                    title: "log".into(),
                    x_label: "n".into(),
                    y_label: "seconds".into(),
                    log_x: true,
                    log_y: true,
                    series: vec![series.clone()],
                },
                Panel {
                    title: "linear".into(),
                    series: vec![series],
                    ..Panel::default()
                },
            ],
        };
        let files = render(&fig, dir.path(), "fig").unwrap();
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        assert!(svg.contains("TreeCV") && svg.contains("synthetic"));
        let png = std::fs::read(&files[1]).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(!dir.path().join("fig.tmp.png").exists());
    }
}
