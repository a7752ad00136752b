//! Hand-written SVG plots: readable in any browser, no fonts or system
//! libraries needed. Axes with ticks and labels, a title and a legend.

use std::fmt::Write as _;

use crate::ReliabilityBin;

/// One named series of (x, y) points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points.
    pub points: Vec<(f64, f64)>,
}

const W: f64 = 760.0;
const H: f64 = 440.0;
const L: f64 = 70.0;
const R: f64 = 20.0;
const T: f64 = 40.0;
const B: f64 = 60.0;
const COLORS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn px(&self, x: f64) -> f64 {
        L + (x - self.x.0) / (self.x.1 - self.x.0).max(f64::EPSILON) * (W - L - R)
    }
    fn py(&self, y: f64) -> f64 {
        H - B - (y - self.y.0) / (self.y.1 - self.y.0).max(f64::EPSILON) * (H - T - B)
    }
}

fn axes(svg: &mut String, f: &Frame, title: &str, xlabel: &str, ylabel: &str) {
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/><text x="{}" y="24" text-anchor="middle" font-size="16">{}</text>"#,
        W / 2.0,
        esc(title)
    );
    let _ = write!(
        svg,
        r##"<line x1="{L}" y1="{}" x2="{}" y2="{}" stroke="#000"/><line x1="{L}" y1="{T}" x2="{L}" y2="{}" stroke="#000"/>"##,
        H - B,
        W - R,
        H - B,
        H - B
    );
    for i in 0..=5 {
        let fx = f.x.0 + (f.x.1 - f.x.0) * f64::from(i) / 5.0;
        let fy = f.y.0 + (f.y.1 - f.y.0) * f64::from(i) / 5.0;
        let (x, y) = (f.px(fx), f.py(fy));
        let _ = write!(
            svg,
            r##"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="#000"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text><line x1="{}" y1="{y:.1}" x2="{L}" y2="{y:.1}" stroke="#000"/><text x="{}" y="{:.1}" text-anchor="end">{}</text><line x1="{L}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#eee"/>"##,
            H - B,
            H - B + 5.0,
            H - B + 20.0,
            tick(fx),
            L - 5.0,
            L - 8.0,
            y + 4.0,
            tick(fy),
            W - R
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text><text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">{}</text>"#,
        (L + W - R) / 2.0,
        H - 15.0,
        esc(xlabel),
        (T + H - B) / 2.0,
        (T + H - B) / 2.0,
        esc(ylabel)
    );
}

fn tick(v: f64) -> String {
    if v.abs() >= 100.0 || v == v.round() {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn legend(svg: &mut String, names: &[&str]) {
    for (i, n) in names.iter().enumerate() {
        let y = T + 10.0 + 16.0 * i as f64;
        let c = COLORS[i % COLORS.len()];
        let _ = write!(
            svg,
            r#"<rect x="{}" y="{}" width="12" height="12" fill="{c}"/><text x="{}" y="{}">{}</text>"#,
            W - R - 180.0,
            y - 10.0,
            W - R - 162.0,
            y,
            esc(n)
        );
    }
}

fn bounds(series: &[Series]) -> Frame {
    let pts = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    Frame {
        x: (x0, x1.max(x0 + 1.0)),
        y: (0.0, if y1 <= 1.0 { 1.0 } else { y1 * 1.05 }),
    }
}

/// Figure 1(b) of the 1999 paper: each page's relevance as a dot against
/// pages fetched, with the moving average as a line.
pub fn harvest_plot(title: &str, relevance: &[f64], window: usize) -> String {
    let ma = crate::HarvestTracker::moving(relevance, window);
    let f = Frame {
        x: (0.0, (relevance.len() as f64).max(1.0)),
        y: (0.0, 1.0),
    };
    let mut svg = String::new();
    axes(&mut svg, &f, title, "pages fetched", "relevance");
    for (i, &r) in relevance.iter().enumerate() {
        let _ = write!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="1" fill="#999"/>"##,
            f.px(i as f64 + 1.0),
            f.py(r)
        );
    }
    polyline(
        &mut svg,
        &f,
        ma.iter().enumerate().map(|(i, &y)| (i as f64 + 1.0, y)),
        COLORS[1],
    );
    legend(
        &mut svg,
        &[
            "relevance of each page",
            &format!("moving average ({window})"),
        ],
    );
    svg.push_str("</svg>\n");
    svg
}

fn polyline(svg: &mut String, f: &Frame, pts: impl Iterator<Item = (f64, f64)>, color: &str) {
    let mut p = String::new();
    for (x, y) in pts {
        let _ = write!(p, "{:.1},{:.1} ", f.px(x), f.py(y));
    }
    let _ = write!(
        svg,
        r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
        p.trim_end()
    );
}

/// Several series as dots, one colour each (Bergmark's Figures 7–8:
/// correlation against download order).
pub fn scatter(title: &str, xlabel: &str, ylabel: &str, series: &[Series]) -> String {
    let f = bounds(series);
    let mut svg = String::new();
    axes(&mut svg, &f, title, xlabel, ylabel);
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        for &(x, y) in &s.points {
            let _ = write!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="1.5" fill="{color}"/>"#,
                f.px(x),
                f.py(y)
            );
        }
    }
    legend(
        &mut svg,
        &series.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
    );
    svg.push_str("</svg>\n");
    svg
}

/// Several series as lines (Figures 3–4, 6–7).
pub fn line_chart(title: &str, xlabel: &str, ylabel: &str, series: &[Series]) -> String {
    let f = bounds(series);
    let mut svg = String::new();
    axes(&mut svg, &f, title, xlabel, ylabel);
    for (i, s) in series.iter().enumerate() {
        polyline(
            &mut svg,
            &f,
            s.points.iter().copied(),
            COLORS[i % COLORS.len()],
        );
    }
    legend(
        &mut svg,
        &series.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
    );
    svg.push_str("</svg>\n");
    svg
}

/// Grouped bars: each series gives (bin centre, count) points (Figures 5, 9).
pub fn histogram(title: &str, xlabel: &str, series: &[Series]) -> String {
    let mut f = bounds(series);
    let bins: usize = series
        .iter()
        .map(|s| s.points.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let width = (f.x.1 - f.x.0) / bins as f64;
    f.x = (f.x.0 - width / 2.0, f.x.1 + width / 2.0);
    let mut svg = String::new();
    axes(&mut svg, &f, title, xlabel, "count");
    let k = series.len().max(1) as f64;
    for (i, s) in series.iter().enumerate() {
        for &(x, y) in &s.points {
            let x0 = f.px(x - width / 2.0 + width * i as f64 / k);
            let x1 = f.px(x - width / 2.0 + width * (i as f64 + 1.0) / k);
            let _ = write!(
                svg,
                r#"<rect x="{x0:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"#,
                f.py(y),
                (x1 - x0 - 1.0).max(0.5),
                f.py(0.0) - f.py(y),
                COLORS[i % COLORS.len()]
            );
        }
    }
    legend(
        &mut svg,
        &series.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
    );
    svg.push_str("</svg>\n");
    svg
}

/// A reliability diagram: for each named series of bins
/// ([`crate::reliability_bins`]), the observed frequency against the mean
/// predicted probability of every non-empty bin, joined by a line, with
/// the dot radius growing with the logarithm of the bin's count (hover
/// shows it: bins of real scores differ by orders of magnitude); the
/// diagonal is perfect calibration.
pub fn reliability_plot(title: &str, series: &[(&str, &[ReliabilityBin])]) -> String {
    let f = Frame {
        x: (0.0, 1.0),
        y: (0.0, 1.0),
    };
    let mut svg = String::new();
    axes(
        &mut svg,
        &f,
        title,
        "mean predicted relevance R (bin)",
        "observed fraction relevant",
    );
    let _ = write!(
        svg,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-dasharray="4 4"/>"##,
        f.px(0.0),
        f.py(0.0),
        f.px(1.0),
        f.py(1.0)
    );
    for (i, (_, bins)) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let used = bins.iter().filter(|b| b.count > 0);
        polyline(
            &mut svg,
            &f,
            used.clone().map(|b| (b.mean_predicted, b.observed)),
            color,
        );
        for b in used {
            let _ = write!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{color}" fill-opacity="0.6"><title>{} pages, predicted {:.3}, observed {:.3}</title></circle>"#,
                f.px(b.mean_predicted),
                f.py(b.observed),
                1.5 + 1.2 * (1.0 + b.count as f64).ln(),
                b.count,
                b.mean_predicted,
                b.observed
            );
        }
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" fill="#555">dashed: perfect calibration; dot radius ∝ log(pages in the bin)</text>"##,
        L + 10.0,
        T + 10.0
    );
    legend(
        &mut svg,
        &series.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
    );
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_well_formed_svg_with_their_parts() {
        let svg = harvest_plot("Soft focus <cycling>", &[0.0, 1.0, 0.5, 0.75], 2);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Soft focus &lt;cycling&gt;"));
        assert_eq!(svg.matches("<circle").count(), 4);
        assert_eq!(svg.matches("<polyline").count(), 1);
        let s = [
            Series {
                name: "a".into(),
                points: vec![(1.0, 2.0), (2.0, 3.0)],
            },
            Series {
                name: "b".into(),
                points: vec![(1.0, 1.0)],
            },
        ];
        assert_eq!(
            line_chart("t", "x", "y", &s).matches("<polyline").count(),
            2
        );
        let dots = scatter("t", "x", "y", &s);
        assert_eq!(dots.matches("<circle").count(), 3, "one dot per point");
        assert_eq!(dots.matches("<polyline").count(), 0);
        let h = histogram("h", "x", &s);
        assert_eq!(
            h.matches("<rect").count(),
            1 + 3 + 2,
            "background, bars, legend swatches"
        );
    }

    #[test]
    fn reliability_plot_draws_non_empty_bins() {
        let bins = crate::reliability_bins(&[0.05, 0.07, 0.95], &[false, true, true], 10);
        let svg = reliability_plot("R <calibration>", &[("naive Bayes", &bins), ("svm", &[])]);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("R &lt;calibration&gt;"));
        assert_eq!(svg.matches("<circle").count(), 2, "two non-empty bins");
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("stroke-dasharray"), "the diagonal");
        assert!(svg.contains("<title>2 pages, predicted 0.060, observed 0.500</title>"));
    }
}
