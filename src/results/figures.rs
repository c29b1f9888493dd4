//! Figures with plotters: grids of panels with line series, markers and error
//! bars, written as SVG and PNG. Log axes are drawn by plotting `log10` of the
//! values with tick labels in the original units (powers of ten: `1e3`,
//! `1e4`, ...), so every panel shares one code path. Each panel has its own
//! legend to the right of its plot area (never over the data), one entry per
//! series with the series' line style and marker. Fonts are embedded (DejaVu
//! Sans), nothing comes from the system.

mod axis;

use super::ResultsError;
use axis::{range, tick_label, ticks, tx, Axis};
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
    /// Marker: 0 circle, 1 triangle, 2 square, 3 cross, 4 diamond.
    pub marker: usize,
    /// Draw each point as a bar from the bottom of the panel (with the
    /// marker on top) instead of a line.
    pub bars: bool,
}

/// How a series' line and marker are drawn besides its colour and marker
/// shape (`Panel::styles`, by series index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Style {
    /// Dashed line (e.g. a second method, or a closed-form curve).
    pub dashed: bool,
    /// Thin line, no markers, drawn under the other series (closed-form
    /// or reference curves).
    pub thin: bool,
    /// Hollow markers (e.g. the randomized order beside the fixed one).
    pub hollow: bool,
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
    /// Category names for the integer x positions 0, 1, ... (a categorical
    /// x axis; empty: numeric).
    pub x_ticks: Vec<String>,
    /// Line styles by series index (missing entries: solid, normal width,
    /// filled markers).
    pub styles: Vec<Style>,
}

impl Panel {
    /// Add a series with a style.
    pub fn push(&mut self, series: Series, style: Style) {
        self.styles.resize(self.series.len(), Style::default());
        self.series.push(series);
        self.styles.push(style);
    }

    /// The style of series `i`.
    pub fn style(&self, i: usize) -> Style {
        self.styles.get(i).copied().unwrap_or_default()
    }
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

/// What tells a series apart in a legend: colour, marker, bars and line style.
pub type StyleKey = (usize, usize, bool, Style);

/// The legend of each panel as drawn: label and style key of every series.
pub fn legend(fig: &Figure) -> Vec<Vec<(String, StyleKey)>> {
    fig.panels
        .iter()
        .map(|p| {
            p.series
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    (
                        s.label.clone(),
                        (s.color % PALETTE.len(), s.marker % 10, s.bars, p.style(i)),
                    )
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
thread_local! {
    /// Every figure rendered on this thread, with its SVG path (tests read it
    /// to check the legend against the SVG).
    pub static RENDERED: std::cell::RefCell<Vec<(PathBuf, Figure)>> =
        const { std::cell::RefCell::new(Vec::new()) };
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

pub(crate) fn register_fonts() {
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

/// The lower end of an error bar `y − err`; on a log axis a bar reaching
/// zero or below is cut at `y` (its lower half cannot be drawn).
fn bar_low(y: f64, err: f64, log: bool) -> f64 {
    let low = y - err.abs();
    if log && low <= 0.0 {
        y
    } else {
        low
    }
}

fn marker_element<DB: DrawingBackend>(
    marker: usize,
    at: (i32, i32),
    color: RGBColor,
    hollow: bool,
) -> DynElement<'static, DB, (i32, i32)> {
    let (x, y) = at;
    // Markers 5..9 are the hollow forms of 0..4, so that up to ten series
    // differ by marker shape or fill, not by colour alone.
    let hollow = hollow || (marker / 5) % 2 == 1;
    let fill: ShapeStyle = if hollow {
        color.stroke_width(2)
    } else {
        color.filled()
    };
    match marker % 5 {
        0 => Circle::new((x, y), 4, fill).into_dyn(),
        1 => TriangleMarker::new((x, y), 5, fill).into_dyn(),
        2 => Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], fill).into_dyn(),
        3 => Cross::new((x, y), 5, color.stroke_width(2)).into_dyn(),
        _ => {
            if hollow {
                PathElement::new(
                    vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y), (x, y - 5)],
                    color.stroke_width(2),
                )
                .into_dyn()
            } else {
                Polygon::new(vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)], fill).into_dyn()
            }
        }
    }
}

const LEGEND_FONT: u32 = 13;

/// Split `text` into lines of at most `width` pixels (at `font` px).
fn wrap(text: &str, width: u32, font: u32) -> Vec<String> {
    let per_char = f64::from(font) * 0.58;
    let max_chars = ((f64::from(width) / per_char) as usize).max(8);
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in text.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > max_chars {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Width of a panel's legend column, in pixels.
fn legend_width(p: &Panel) -> u32 {
    let longest = p
        .series
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0);
    if longest == 0 {
        0
    } else {
        ((longest as f64 * f64::from(LEGEND_FONT) * 0.58) as u32 + 48).clamp(90, 330)
    }
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

fn draw_series<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    p: &Panel,
    i: usize,
    y0: f64,
) -> Result<(), String> {
    let s = &p.series[i];
    let st = p.style(i);
    let (lx, ly) = (p.log_x, p.log_y);
    let color = PALETTE[s.color % PALETTE.len()];
    let width = if st.thin { 1 } else { 2 };
    let pts: Vec<(f64, f64)> = s
        .points
        .iter()
        .map(|q| (tx(q.0, lx), tx(q.1, ly)))
        .collect();
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    if s.bars {
        let n = p.series.iter().filter(|s| s.bars).count().max(1);
        let half = 0.8 / (2.0 * n as f64);
        chart
            .draw_series(pts.iter().map(|&(x, y)| {
                Rectangle::new([(x - half, y0), (x + half, y)], color.mix(0.55).filled())
            }))
            .map_err(e)?;
    } else if st.dashed {
        chart
            .draw_series(DashedLineSeries::new(
                pts.clone(),
                7,
                5,
                color.stroke_width(width),
            ))
            .map_err(e)?;
    } else {
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(width)))
            .map_err(e)?;
    }
    if !st.thin {
        let marker = s.marker;
        let hollow = st.hollow;
        chart
            .draw_series(pts.iter().map(|&(x, y)| {
                EmptyElement::at((x, y)) + marker_element::<DB>(marker, (0, 0), color, hollow)
            }))
            .map_err(e)?;
    }
    let bars = s.points.iter().filter(|q| q.2 > 0.0).map(|q| {
        PathElement::new(
            vec![
                (tx(q.0, lx), tx(bar_low(q.1, q.2, ly), ly)),
                (tx(q.0, lx), tx(q.1 + q.2, ly)),
            ],
            color.stroke_width(1),
        )
    });
    chart.draw_series(bars).map_err(e)?;
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let font = ("sans-serif", LEGEND_FONT).into_font();
    let mut y = 40;
    for (i, s) in p.series.iter().enumerate() {
        let st = p.style(i);
        let color = PALETTE[s.color % PALETTE.len()];
        let width = if st.thin { 1 } else { 2 };
        let (x0, x1) = (6, 34);
        if s.bars {
            area.draw(&Rectangle::new(
                [(x0, y - 5), (x1, y + 5)],
                color.mix(0.55).filled(),
            ))
            .map_err(e)?;
        } else if st.dashed {
            for (a, b) in [(x0, x0 + 8), (x0 + 12, x0 + 20), (x0 + 24, x1)] {
                area.draw(&PathElement::new(
                    vec![(a, y), (b, y)],
                    color.stroke_width(width),
                ))
                .map_err(e)?;
            }
        } else {
            area.draw(&PathElement::new(
                vec![(x0, y), (x1, y)],
                color.stroke_width(width),
            ))
            .map_err(e)?;
        }
        if !st.thin {
            area.draw(&marker_element::<DB>(
                s.marker,
                ((x0 + x1) / 2, y),
                color,
                st.hollow,
            ))
            .map_err(e)?;
        }
        area.draw(&Text::new(
            s.label.clone(),
            (x1 + 6, y - 7),
            font.clone().color(&BLACK),
        ))
        .map_err(e)?;
        y += 20;
    }
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &Panel) -> Result<(), String> {
    let (w, _) = area.dim_in_pixel();
    let lw = legend_width(p).min(w / 2);
    let (plot_area, legend_area) = area.split_horizontally(w - lw);
    // Title: wrapped to the panel's width so that neighbours never overlap.
    let title_lines = wrap(&p.title, w.saturating_sub(20), 15);
    let title_h = if p.title.is_empty() {
        6
    } else {
        8 + 18 * title_lines.len() as u32
    };
    let (title_area, _) = area.split_vertically(title_h);
    for (i, line) in title_lines.iter().enumerate() {
        title_area
            .draw(&Text::new(
                line.clone(),
                (10, 4 + 18 * i as i32),
                ("sans-serif", 15).into_font().style(FontStyle::Bold),
            ))
            .map_err(|e| e.to_string())?;
    }
    let (_, plot_area) = plot_area.split_vertically(title_h);
    let (x0, x1) = if p.x_ticks.is_empty() {
        range(
            p.series
                .iter()
                .flat_map(|s| s.points.iter().map(|q| tx(q.0, p.log_x))),
        )
    } else {
        (-0.5, p.x_ticks.len() as f64 - 0.5)
    };
    let (y0, y1) = range(p.series.iter().flat_map(|s| {
        s.points.iter().flat_map(|q| {
            [
                tx(bar_low(q.1, q.2, p.log_y), p.log_y),
                tx(q.1 + q.2.abs(), p.log_y),
                tx(q.1, p.log_y),
            ]
        })
    }));
    let y0 = if p.series.iter().any(|s| s.bars) && !p.log_y {
        y0.min(0.0)
    } else {
        y0
    };
    let (xt, xd) = if p.x_ticks.is_empty() {
        ticks(x0, x1, p.log_x)
    } else {
        ((0..p.x_ticks.len()).map(|i| i as f64).collect(), 0)
    };
    let (yt, yd) = ticks(y0, y1, p.log_y);
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(8)
        .x_label_area_size(45)
        .y_label_area_size(72)
        .build_cartesian_2d(
            Axis {
                lo: x0,
                hi: x1,
                ticks: xt,
            },
            Axis {
                lo: y0,
                hi: y1,
                ticks: yt,
            },
        )
        .map_err(|e| e.to_string())?;
    let (lx, ly) = (p.log_x, p.log_y);
    let cats = &p.x_ticks;
    let x_fmt = |v: &f64| {
        if cats.is_empty() {
            tick_label(*v, lx, xd)
        } else if (v - v.round()).abs() < 1e-6 && v.round() >= 0.0 {
            cats.get(v.round() as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let y_fmt = |v: &f64| tick_label(*v, ly, yd);
    chart
        .configure_mesh()
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()
        .map_err(|e| e.to_string())?;
    // Thin (closed-form, reference) series first, so that they lie under the others.
    let mut order: Vec<usize> = (0..p.series.len()).collect();
    order.sort_by_key(|&i| !p.style(i).thin);
    for i in order {
        draw_series(&mut chart, p, i, y0)?;
    }
    if lw > 0 {
        draw_legend(&legend_area, p)?;
    }
    Ok(())
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, fig: &Figure) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (w, _) = root.dim_in_pixel();
    let caption = wrap(&fig.caption, w.saturating_sub(30), 15);
    let head = 44 + 20 * caption.len() as u32;
    let (title_area, body) = root.split_vertically(head);
    title_area
        .draw(&Text::new(
            fig.title.as_str(),
            (15, 8),
            ("sans-serif", 22).into_font().style(FontStyle::Bold),
        ))
        .map_err(|e| e.to_string())?;
    for (i, line) in caption.iter().enumerate() {
        title_area
            .draw(&Text::new(
                line.clone(),
                (15, 38 + 20 * i as i32),
                ("sans-serif", 15).into_font(),
            ))
            .map_err(|e| e.to_string())?;
    }
    let areas = body.split_evenly((fig.rows.max(1), fig.cols.max(1)));
    for (area, panel) in areas.iter().zip(&fig.panels) {
        draw_panel(area, panel)?;
    }
    root.present().map_err(|e| e.to_string())
}

/// Render `fig` to `<dir>/<stem>.svg` and `<dir>/<stem>.png` (written atomically).
pub fn render(fig: &Figure, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, ResultsError> {
    register_fonts();
    let legend = fig.panels.iter().map(legend_width).max().unwrap_or(0);
    let caption_lines = fig.caption.len().div_ceil(120).max(1) as u32;
    let (w, h) = (
        (fig.cols.max(1) as u32 * (520 + legend)).max(1000),
        fig.rows.max(1) as u32 * 440 + 44 + 20 * caption_lines,
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
    // The PNG is drawn in memory and written as every other file is.
    let png =
        super::png::draw_png((w, h), |area| draw(area, fig)).map_err(|m| err(&png_path, m))?;
    super::table::write_atomic(&png_path, &png)?;
    #[cfg(test)]
    RENDERED.with(|r| r.borrow_mut().push((svg_path.clone(), fig.clone())));
    Ok(vec![svg_path, png_path])
}

/// Test helper: check the legend of every figure rendered on this thread
/// (since the last call) against its SVG: one legend entry per series (its
/// label in the SVG), distinct labels and distinct styles within a panel.
/// Returns the problems found and clears the log.
#[cfg(test)]
pub fn check_rendered() -> Vec<String> {
    let figs = RENDERED.with(|r| std::mem::take(&mut *r.borrow_mut()));
    let mut problems = Vec::new();
    for (path, fig) in &figs {
        let svg = std::fs::read_to_string(path).unwrap_or_default();
        // The content of every <text> element, trimmed.
        let texts: Vec<&str> = svg
            .split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = t.split_once('>')?.1;
                Some(body.split("</text>").next()?.trim())
            })
            .collect();
        for (pi, entries) in legend(fig).iter().enumerate() {
            let mut labels = std::collections::HashSet::new();
            let mut styles = std::collections::HashSet::new();
            for (label, style) in entries {
                if label.is_empty() {
                    problems.push(format!(
                        "{}: panel {pi}: a series has no label",
                        path.display()
                    ));
                }
                if !labels.insert(label.clone()) {
                    problems.push(format!(
                        "{}: panel {pi}: label `{label}` twice",
                        path.display()
                    ));
                }
                if !styles.insert(*style) {
                    problems.push(format!(
                        "{}: panel {pi}: `{label}` has the style of another series",
                        path.display()
                    ));
                }
                let escaped = label
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;")
                    .replace('\'', "&apos;");
                if !texts.iter().any(|t| *t == escaped) {
                    problems.push(format!(
                        "{}: `{label}` is not in the SVG legend",
                        path.display()
                    ));
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests;
