//! The contour figure of a (C, gamma) grid search: CV accuracy over
//! (log2 C, log2 gamma) as shaded cells with iso-accuracy lines (marching
//! squares), the best point marked, legend and colour scale beside the plot
//! (never over the data). SVG and PNG, fonts embedded. Names no experiment
//! kind: `cvbench grid` and the `svm_grid` kind both draw through it.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

/// What the contour shows.
#[derive(Clone, Debug, Default)]
pub struct ContourData {
    /// Title (the dataset).
    pub title: String,
    /// A line under the title: data, folds, repetitions.
    pub subtitle: String,
    /// `(log2 C, log2 gamma, CV accuracy %)` of every computed point.
    pub points: Vec<(f64, f64, f64)>,
    /// The C axis range as given (`begin`, `end`).
    pub c_range: (f64, f64),
    /// The gamma axis range as given.
    pub g_range: (f64, f64),
    /// The chosen point `(log2 C, log2 gamma, rate)`.
    pub best: Option<(f64, f64, f64)>,
}

/// Offsets below the best rate at which iso-lines are drawn, and their style
/// (0 solid thick, 1 dashed, 2 dotted, 3 thin).
const LEVELS: [(f64, usize); 4] = [(1.0, 0), (2.0, 1), (5.0, 2), (10.0, 3)];

fn sorted_unique(v: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut x: Vec<f64> = v.collect();
    x.sort_by(f64::total_cmp);
    x.dedup();
    x
}

/// Segments of the iso-line `z = level` over the grid `z[i][j]` at
/// `(xs[i], ys[j])` (marching squares; saddles resolved by the cell mean).
pub fn iso_segments(xs: &[f64], ys: &[f64], z: &[Vec<f64>], level: f64) -> Vec<[(f64, f64); 2]> {
    let mut segs = Vec::new();
    for i in 0..xs.len().saturating_sub(1) {
        for j in 0..ys.len().saturating_sub(1) {
            // corners counter-clockwise: (i,j), (i+1,j), (i+1,j+1), (i,j+1)
            let c = [
                (xs[i], ys[j], z[i][j]),
                (xs[i + 1], ys[j], z[i + 1][j]),
                (xs[i + 1], ys[j + 1], z[i + 1][j + 1]),
                (xs[i], ys[j + 1], z[i][j + 1]),
            ];
            if c.iter().any(|p| !p.2.is_finite()) {
                continue;
            }
            let above: Vec<bool> = c.iter().map(|p| p.2 >= level).collect();
            // crossing point on edge e (between corner e and e+1)
            let cross = |e: usize| -> Option<(f64, f64)> {
                let (a, b) = (c[e], c[(e + 1) % 4]);
                if above[e] == above[(e + 1) % 4] {
                    return None;
                }
                let t = (level - a.2) / (b.2 - a.2);
                Some((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)))
            };
            let pts: Vec<(usize, (f64, f64))> =
                (0..4).filter_map(|e| cross(e).map(|p| (e, p))).collect();
            match pts.len() {
                2 => segs.push([pts[0].1, pts[1].1]),
                4 => {
                    let mean = c.iter().map(|p| p.2).sum::<f64>() / 4.0;
                    // Corner 0's region is joined to the centre when it agrees with it.
                    if (mean >= level) == above[0] {
                        segs.push([pts[0].1, pts[1].1]);
                        segs.push([pts[2].1, pts[3].1]);
                    } else {
                        segs.push([pts[3].1, pts[0].1]);
                        segs.push([pts[1].1, pts[2].1]);
                    }
                }
                _ => {}
            }
        }
    }
    segs
}

fn shade(t: f64) -> RGBColor {
    // A light-to-dark blue ramp (readable in grey scale too).
    let t = t.clamp(0.0, 1.0);
    let lerp = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(lerp(247.0, 8.0), lerp(251.0, 48.0), lerp(255.0, 107.0))
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    d: &ContourData,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let (top, body) = root.split_vertically(64);
    top.draw(&Text::new(
        d.title.clone(),
        (20, 8),
        ("sans-serif", 22).into_font().style(FontStyle::Bold),
    ))
    .map_err(e)?;
    top.draw(&Text::new(d.subtitle.clone(), (20, 38), ("sans-serif", 14)))
        .map_err(e)?;
    let (w, _) = body.dim_in_pixel();
    let (plot, side) = body.split_horizontally(w.saturating_sub(300));

    let xs = sorted_unique(d.points.iter().map(|p| p.0));
    let ys = sorted_unique(d.points.iter().map(|p| p.1));
    let mut z = vec![vec![f64::NAN; ys.len()]; xs.len()];
    for &(c, g, r) in &d.points {
        let i = xs.iter().position(|&x| x == c).unwrap_or(0);
        let j = ys.iter().position(|&y| y == g).unwrap_or(0);
        z[i][j] = r;
    }
    let half = |v: &[f64]| {
        if v.len() > 1 {
            (v[1] - v[0]) / 2.0
        } else {
            0.5
        }
    };
    let (hx, hy) = (half(&xs), half(&ys));
    let (x0, x1) = (
        xs.first().copied().unwrap_or(d.c_range.0.min(d.c_range.1)) - hx,
        xs.last().copied().unwrap_or(d.c_range.0.max(d.c_range.1)) + hx,
    );
    let (y0, y1) = (
        ys.first().copied().unwrap_or(d.g_range.0.min(d.g_range.1)) - hy,
        ys.last().copied().unwrap_or(d.g_range.0.max(d.g_range.1)) + hy,
    );
    let rmin = d.points.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let rmax = d
        .points
        .iter()
        .map(|p| p.2)
        .fold(f64::NEG_INFINITY, f64::max);
    let norm = |r: f64| {
        if rmax > rmin {
            (r - rmin) / (rmax - rmin)
        } else {
            0.5
        }
    };

    let mut chart = ChartBuilder::on(&plot)
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("log2(C)")
        .y_desc("log2(gamma)")
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(e)?;
    chart
        .draw_series(d.points.iter().map(|&(c, g, r)| {
            Rectangle::new(
                [(c - hx, g - hy), (c + hx, g + hy)],
                shade(norm(r)).filled(),
            )
        }))
        .map_err(e)?;
    let best_rate = d.best.map(|b| b.2).unwrap_or(rmax);
    for &(off, style) in &LEVELS {
        let level = best_rate - off;
        let segs = iso_segments(&xs, &ys, &z, level);
        let color = if style == 3 {
            RGBColor(90, 90, 90)
        } else {
            BLACK
        };
        match style {
            0 => chart
                .draw_series(
                    segs.iter()
                        .map(|s| PathElement::new(s.to_vec(), color.stroke_width(3))),
                )
                .map_err(e)?,
            1 => chart
                .draw_series(segs.iter().map(|s| {
                    let (a, b) = (s[0], s[1]);
                    let p = |t: f64| (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
                    PathElement::new(vec![p(0.2), p(0.8)], color.stroke_width(2))
                }))
                .map_err(e)?,
            2 => chart
                .draw_series(segs.iter().flat_map(|s| {
                    let (a, b) = (s[0], s[1]);
                    [0.25, 0.75].map(|t| {
                        Circle::new(
                            (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)),
                            2,
                            color.filled(),
                        )
                    })
                }))
                .map_err(e)?,
            _ => chart
                .draw_series(
                    segs.iter()
                        .map(|s| PathElement::new(s.to_vec(), color.stroke_width(1))),
                )
                .map_err(e)?,
        };
    }
    if let Some((c, g, _)) = d.best {
        chart
            .draw_series([
                Cross::new((c, g), 9, RED.stroke_width(3)),
                Cross::new((c, g), 9, RED.stroke_width(3)),
            ])
            .map_err(e)?;
        chart
            .draw_series([Circle::new((c, g), 12, RED.stroke_width(2))])
            .map_err(e)?;
    }

    // Legend and colour scale, beside the plot.
    let f = ("sans-serif", 14);
    let mut y = 30;
    side.draw(&Text::new(
        "iso-accuracy lines",
        (10, y),
        f.into_font().style(FontStyle::Bold),
    ))
    .map_err(e)?;
    for &(off, style) in &LEVELS {
        y += 26;
        let l = (10, y + 7);
        let r = (50, y + 7);
        match style {
            0 => side
                .draw(&PathElement::new(vec![l, r], BLACK.stroke_width(3)))
                .map_err(e)?,
            1 => {
                side.draw(&PathElement::new(
                    vec![(10, y + 7), (24, y + 7)],
                    BLACK.stroke_width(2),
                ))
                .map_err(e)?;
                side.draw(&PathElement::new(
                    vec![(36, y + 7), (50, y + 7)],
                    BLACK.stroke_width(2),
                ))
                .map_err(e)?
            }
            2 => {
                for x in [14, 26, 38, 50] {
                    side.draw(&Circle::new((x, y + 7), 2, BLACK.filled()))
                        .map_err(e)?;
                }
            }
            _ => side
                .draw(&PathElement::new(
                    vec![l, r],
                    RGBColor(90, 90, 90).stroke_width(1),
                ))
                .map_err(e)?,
        }
        side.draw(&Text::new(
            format!("{:.2}% (best - {off})", best_rate - off),
            (60, y),
            f,
        ))
        .map_err(e)?;
    }
    if let Some((c, g, r)) = d.best {
        y += 34;
        side.draw(&Cross::new((30, y + 7), 9, RED.stroke_width(3)))
            .map_err(e)?;
        side.draw(&Circle::new((30, y + 7), 12, RED.stroke_width(2)))
            .map_err(e)?;
        side.draw(&Text::new(format!("best: {r}%"), (60, y), f))
            .map_err(e)?;
        side.draw(&Text::new(
            format!("log2 C = {c}, log2 gamma = {g}"),
            (60, y + 18),
            f,
        ))
        .map_err(e)?;
    }
    y += 56;
    side.draw(&Text::new(
        "CV accuracy (cell shade)",
        (10, y),
        f.into_font().style(FontStyle::Bold),
    ))
    .map_err(e)?;
    for k in 0..=4 {
        let t = k as f64 / 4.0;
        let yy = y + 24 + 22 * k;
        side.draw(&Rectangle::new(
            [(10, yy), (40, yy + 18)],
            shade(t).filled(),
        ))
        .map_err(e)?;
        side.draw(&Rectangle::new(
            [(10, yy), (40, yy + 18)],
            BLACK.stroke_width(1),
        ))
        .map_err(e)?;
        side.draw(&Text::new(
            format!("{:.2}%", rmin + t * (rmax - rmin)),
            (50, yy + 2),
            f,
        ))
        .map_err(e)?;
    }
    root.present().map_err(e)
}

/// Render to `png` and to the same path with extension `.svg`, each written
/// as [`super::output::write_user_file`] writes a file the user named (a
/// link is written through, a device written to, a folder refused). Returns
/// both paths.
pub fn render_to(d: &ContourData, png: &Path) -> Result<Vec<PathBuf>, super::ResultsError> {
    super::figures::register_fonts();
    let (w, h) = (1100u32, 720u32);
    let svg = png.with_extension("svg");
    let figure = |path: &Path, message: String| super::ResultsError::Figure {
        path: path.to_path_buf(),
        message,
    };
    let mut s = String::new();
    draw(
        SVGBackend::with_string(&mut s, (w, h)).into_drawing_area(),
        d,
    )
    .map_err(|m| figure(&svg, m))?;
    let bytes = super::png::draw_png((w, h), |area| draw(area, d)).map_err(|m| figure(png, m))?;
    super::output::write_user_file(&svg, s.as_bytes(), &[], &[])?;
    super::output::write_user_file(png, &bytes, &[], &[])?;
    Ok(vec![svg, png.to_path_buf()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_segments_follow_a_plane() {
        // z = x: the level 0.5 line is x = 0.5 over y in [0, 2].
        let xs = [0.0, 1.0];
        let ys = [0.0, 1.0, 2.0];
        let z = vec![vec![0.0; 3], vec![1.0; 3]];
        let s = iso_segments(&xs, &ys, &z, 0.5);
        assert_eq!(s.len(), 2);
        for seg in s {
            assert!((seg[0].0 - 0.5).abs() < 1e-12 && (seg[1].0 - 0.5).abs() < 1e-12);
        }
    }

    #[test]
    fn renders_svg_and_png() {
        let dir = tempfile::tempdir().unwrap();
        let mut pts = vec![];
        for c in [-1.0, 1.0, 3.0] {
            for g in [-3.0f64, -1.0, 1.0] {
                pts.push((c, g, 80.0 + c - g.abs()));
            }
        }
        let d = ContourData {
            title: "synthetic".into(),
            subtitle: "synthetic grid".into(),
            points: pts,
            c_range: (-1.0, 3.0),
            g_range: (1.0, -3.0),
            best: Some((3.0, -1.0, 82.0)),
        };
        let files = render_to(&d, &dir.path().join("g.png")).unwrap();
        assert!(files.iter().all(|f| f.exists()));
    }
}
