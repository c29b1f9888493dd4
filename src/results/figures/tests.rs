//! Tests of the figures: text, legends, ticks, files written.

use super::*;

#[test]
fn renders_svg_and_png_with_text() {
    let dir = tempfile::tempdir().unwrap();
    let series = Series {
        bars: false,
        label: "TreeCV".into(),
        points: vec![(1e3, 0.1, 0.01), (1e4, 1.0, 0.1), (1e5, 10.0, 0.0)],
        color: 0,
        marker: 0,
    };
    let mut log = Panel {
        title: "log".into(),
        x_label: "n".into(),
        y_label: "seconds".into(),
        log_x: true,
        log_y: true,
        ..Panel::default()
    };
    log.push(series.clone(), Style::default());
    let mut closed = series.clone();
    closed.label = "closed form".into();
    log.push(
        closed,
        Style {
            dashed: true,
            thin: true,
            hollow: false,
        },
    );
    let fig = Figure {
        title: "t".into(),
        caption: "synthetic".into(),
        rows: 1,
        cols: 2,
        panels: vec![
            log,
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
    // Log ticks are powers of ten, not 3162.
    let compact: String = svg.split_whitespace().collect();
    assert!(
        compact.contains(">1e4</text>") && !compact.contains(">3162</text>"),
        "log ticks"
    );
    let png = std::fs::read(&files[1]).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "only the figure's files: {names:?}");
    assert!(check_rendered().is_empty());
}

#[test]
fn tick_labels_are_distinct_and_log_ticks_are_powers_of_ten() {
    let (t, d) = ticks(10.68, 10.74, false);
    let labels: Vec<String> = t.iter().map(|v| tick_label(*v, false, d)).collect();
    let mut u = labels.clone();
    u.dedup();
    assert_eq!(u, labels, "{labels:?}");
    let (t, _) = ticks(2.9, 5.8, true);
    let labels: Vec<String> = t.iter().map(|v| tick_label(*v, true, 0)).collect();
    assert_eq!(labels, ["1e3", "1e4", "1e5"]);
    assert_eq!(tick_label(0.0, true, 0), "1");
    assert_eq!(tick_label(2.0, true, 0), "100");
    assert_eq!(tick_label(-1.0, true, 0), "0.1");
    // A short log range gets 1-2-5 ticks.
    let (t, _) = ticks(0.1, 0.9, true);
    let labels: Vec<String> = t.iter().map(|v| tick_label(*v, true, 0)).collect();
    assert_eq!(labels, ["2", "5"]);
}

#[test]
fn duplicated_styles_and_labels_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let s = Series {
        label: "a".into(),
        points: vec![(1.0, 1.0, 0.0), (2.0, 2.0, 0.0)],
        ..Series::default()
    };
    let mut b = s.clone();
    b.label = "b".into();
    let fig = Figure {
        rows: 1,
        cols: 1,
        panels: vec![Panel {
            series: vec![s, b],
            ..Panel::default()
        }],
        ..Figure::default()
    };
    render(&fig, dir.path(), "dup").unwrap();
    let p = check_rendered();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].contains("style of another series"));
}
