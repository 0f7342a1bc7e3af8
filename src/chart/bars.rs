//! Horizontal bar charts as numbers: the scale (linear or logarithmic, chosen from the data),
//! its ticks, and where every label, bar and value goes for a given width and font size, so
//! that the page only draws and nothing overlaps or is clipped (tested here, natively).
//!
//! Text is measured as monospace: every column is [`CHAR_EM`] of the font size wide, which is
//! what the page's monospace fonts draw (DejaVu Sans Mono is 0.602 em), with a margin. A wide
//! character (Chinese, Japanese, Korean, full-width forms) takes two columns, as the Unicode
//! East Asian Width property says and terminals draw it ([`columns`]).

/// Width of one monospace character, in em (a little over the 0.6 of common monospace fonts).
pub const CHAR_EM: f64 = 0.62;

/// Returns the monospace columns `text` takes: one per character, two per wide character
/// (a CJK ideograph is about 1 em wide, two columns of 0.62 em), by the `unicode-width` crate.
pub fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// Returns the width of `text` in monospace at `font` pixels.
pub fn text_width(text: &str, font: f64) -> f64 {
    columns(text) as f64 * CHAR_EM * font
}

/// Returns `text`, cut with an ellipsis to fit `width` pixels at `font` (whole when it fits).
pub fn fit_text(text: &str, width: f64, font: f64) -> String {
    if text_width(text, font) <= width {
        return text.to_string();
    }
    let room = (width / (CHAR_EM * font)).floor() as usize;
    if room == 0 {
        return String::new();
    }
    // Whole characters while they and the ellipsis (one column) fit.
    let mut out = String::new();
    let mut used = 1;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// How values map to bar lengths.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// From 0 to `top`, ticks every `step`.
    Linear {
        /// The axis end (a tick).
        top: f64,
        /// Between ticks.
        step: f64,
    },
    /// Base 10 over whole decades, from 10^`lo` to 10^`hi`. Zero has no logarithm: it gets no
    /// bar (its value is still written next to where the bar would start).
    Log {
        /// Exponent of the first decade (the axis).
        lo: i32,
        /// Exponent of the last decade.
        hi: i32,
    },
}

/// Positive values spanning more than this ratio get a log scale: on a linear one the
/// smaller bars would be invisible.
pub const LOG_RATIO: f64 = 100.0;

impl Scale {
    /// Returns the scale for `values`: logarithmic when the positive, finite ones span more
    /// than [`LOG_RATIO`] (one read against a million scanned), else linear from 0.
    pub fn choose(values: &[f64]) -> Scale {
        let positive: Vec<f64> = values
            .iter()
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0)
            .collect();
        let min = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let max = positive.iter().copied().fold(0.0, f64::max);
        if !positive.is_empty() && max / min > LOG_RATIO {
            Scale::log(min, max)
        } else if positive.iter().all(|v| v.fract() == 0.0) {
            Scale::whole(max)
        } else {
            Scale::linear(max, 10.0)
        }
    }

    /// Returns a linear scale for whole numbers (round trips): ticks at least 1 apart, so no
    /// tick says "half a round trip".
    pub fn whole(max: f64) -> Scale {
        match Scale::linear(max, 10.0) {
            Scale::Linear { step, .. } if step < 1.0 => Scale::Linear {
                top: max.ceil().max(1.0),
                step: 1.0,
            },
            s => s,
        }
    }

    /// Returns a log scale over the decades enclosing `min` and `max` (positive).
    pub fn log(min: f64, max: f64) -> Scale {
        let lo = min.log10().floor() as i32;
        let hi = (max.log10().ceil() as i32).max(lo + 1);
        Scale::Log { lo, hi }
    }

    /// Returns a linear scale from 0 to a "nice" top at or above `max`: 1, 2, 2.5 or 5 times a
    /// power of `base` (10 for counts) times a power of ten, in 2 to 6 steps.
    pub fn linear(max: f64, base: f64) -> Scale {
        let max = if max.is_finite() && max > 0.0 {
            max
        } else {
            1.0
        };
        // The unit: the largest power of `base` (1024 for bytes) not above max, so that ticks
        // are round in the unit they are read in (200 MiB, not 209,715,200 bytes).
        let unit = if base == 10.0 {
            1.0
        } else {
            let mut u = 1.0;
            while u * base <= max {
                u *= base;
            }
            u
        };
        let m = max / unit;
        let mag = 10f64.powf((m / 4.0).log10().floor());
        let step = [1.0, 2.0, 2.5, 5.0, 10.0, 20.0]
            .iter()
            .map(|k| k * mag)
            .find(|s| m / s <= 5.0)
            .unwrap_or(mag * 20.0);
        let steps = (m / step - 1e-9).ceil().max(1.0);
        Scale::Linear {
            top: steps * step * unit,
            step: step * unit,
        }
    }

    /// Returns true for a log scale.
    pub fn is_log(&self) -> bool {
        matches!(self, Scale::Log { .. })
    }

    /// Returns where `value` falls, from 0 (the axis) to 1 (the end): 0 for zero, negative or
    /// invalid values. On a log scale the first decade sits at 4% so that its bars (a single
    /// round trip) stay visible; values below it are drawn at it.
    pub fn fraction(&self, value: f64) -> f64 {
        if !(value.is_finite() && value > 0.0) {
            return 0.0;
        }
        match *self {
            Scale::Linear { top, .. } => (value / top).clamp(0.0, 1.0),
            Scale::Log { lo, hi } => {
                let span = f64::from(hi - lo);
                let f = ((value.log10() - f64::from(lo)) / span).clamp(0.0, 1.0);
                0.04 + 0.96 * f
            }
        }
    }

    /// Returns the ticks, from the axis: 0, step, 2·step… or 1, 10, 100…
    pub fn ticks(&self) -> Vec<f64> {
        match *self {
            Scale::Linear { top, step } => {
                let n = (top / step).round() as usize;
                (0..=n).map(|i| step * i as f64).collect()
            }
            Scale::Log { lo, hi } => (lo..=hi).map(|e| 10f64.powi(e)).collect(),
        }
    }
}

/// A tick of the axis: its value, its x, and whether its label is drawn (labels that would
/// overlap their neighbour are left out; the grid line stays).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tick {
    /// The value.
    pub value: f64,
    /// Its x in the chart.
    pub x: f64,
    /// True when its label is drawn.
    pub labelled: bool,
}

/// What a horizontal bar chart holds, in pixels and characters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// Width of the chart.
    pub width: f64,
    /// Font size of every label.
    pub font: f64,
    /// Widest bar label (a design's name), in characters.
    pub label_chars: usize,
    /// Widest value written after a bar, in characters.
    pub value_chars: usize,
    /// Groups (operations); 1 for a chart without group headings.
    pub groups: usize,
    /// Bars per group (designs).
    pub bars: usize,
    /// True when each group has a heading line above its bars.
    pub headings: bool,
}

/// One bar's row: its label and value baselines and the bar's box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Top of the bar.
    pub y: f64,
    /// Height of the bar.
    pub h: f64,
    /// Baseline of the text on this row (the label on the left, the value after the bar).
    pub text_y: f64,
}

/// One group: its heading's baseline (when the chart has headings) and its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Baseline of the heading.
    pub heading_y: f64,
    /// One row per bar.
    pub rows: Vec<Row>,
}

/// Where everything of a horizontal bar chart goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Width of the chart.
    pub width: f64,
    /// Height of the chart.
    pub height: f64,
    /// Room for the bar labels, left of the plot (their right edge is `plot_x - gap`).
    pub label_w: f64,
    /// Left edge of the plot (the axis).
    pub plot_x: f64,
    /// Width of the plot; values are written after the bars, in the room right of it.
    pub plot_w: f64,
    /// Baseline of the tick labels (above the plot).
    pub tick_y: f64,
    /// Top and bottom of the plot (the grid lines' extent).
    pub plot_top: f64,
    /// Bottom of the plot.
    pub plot_bottom: f64,
    /// The groups, top to bottom.
    pub groups: Vec<Group>,
    /// Space between a label, the axis, a bar's end and its value.
    pub gap: f64,
}

impl Layout {
    /// Returns the layout of `spec`. Bar labels take at most 40% of the width (longer ones are
    /// cut, see [`fit_text`]); the values' room is kept right of the plot so that the longest
    /// bar's value still fits.
    pub fn new(spec: Spec) -> Layout {
        let f = spec.font.max(1.0);
        let gap = (f * 0.5).round();
        let width = spec.width.max(120.0);
        let label_w = (text_width(&"m".repeat(spec.label_chars), f)).min(width * 0.4);
        let value_w = text_width(&"m".repeat(spec.value_chars), f);
        let plot_x = label_w + gap * 2.0;
        let plot_w = (width - plot_x - value_w - gap * 2.0).max(width * 0.25);
        let bar_h = (f * 1.3).round();
        let row_h = bar_h + (f * 0.3).round();
        let tick_y = f * 1.1;
        let plot_top = tick_y + f * 0.6;
        let mut y = plot_top + f * 0.4;
        let groups = (0..spec.groups)
            .map(|_| {
                let heading_y = y + f * 1.15;
                if spec.headings {
                    y += f * 1.6;
                }
                let rows = (0..spec.bars)
                    .map(|_| {
                        let row = Row {
                            y,
                            h: bar_h,
                            text_y: y + bar_h / 2.0 + f * 0.35,
                        };
                        y += row_h;
                        row
                    })
                    .collect();
                y += f * 0.5;
                Group { heading_y, rows }
            })
            .collect();
        let plot_bottom = y;
        Layout {
            width,
            height: plot_bottom + f * 0.5,
            label_w,
            plot_x,
            plot_w,
            tick_y,
            plot_top,
            plot_bottom,
            groups,
            gap,
        }
    }

    /// Returns the length of `value`'s bar.
    pub fn length(&self, scale: &Scale, value: f64) -> f64 {
        scale.fraction(value) * self.plot_w
    }

    /// Returns the ticks of `scale` along the plot; `label_chars` gives each tick label's
    /// length. A label is drawn when it clears the previous drawn one and the chart's edges.
    pub fn ticks(&self, scale: &Scale, font: f64, label_chars: impl Fn(f64) -> usize) -> Vec<Tick> {
        let mut last_right = f64::NEG_INFINITY;
        scale
            .ticks()
            .into_iter()
            .map(|value| {
                let x = self.plot_x + scale.fraction(value) * self.plot_w;
                let half = text_width(&"m".repeat(label_chars(value)), font) / 2.0;
                let labelled = x - half >= last_right + self.gap * 2.0
                    && x - half >= 0.0
                    && x + half <= self.width;
                if labelled {
                    last_right = x + half;
                }
                Tick { value, x, labelled }
            })
            .collect()
    }
}

/// Returns the `(x, width)` of each segment of a stacked bar of `values` starting at `x0` on
/// a linear `scale` over `len`: segments follow each other, invalid or negative values get
/// width 0.
pub fn stack(values: &[f64], scale: &Scale, x0: f64, len: f64) -> Vec<(f64, f64)> {
    let mut at = x0;
    let mut sum = 0.0;
    values
        .iter()
        .map(|&v| {
            let v = if v.is_finite() && v > 0.0 { v } else { 0.0 };
            sum += v;
            let end = x0 + scale.fraction(sum) * len;
            let seg = (at, (end - at).max(0.0));
            at = end;
            seg
        })
        .collect()
}

/// Returns the groups of a chart whose series each name some of them (the cost chart: every
/// design's workload units), each once: the first series' in order, and a name only a later
/// series has right after the name it follows there (at the start if it comes first), so a
/// step a design adds (a lifecycle pattern's) sits beside the operation it belongs to.
pub fn groups<'a>(series: impl IntoIterator<Item = Vec<&'a str>>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for names in series {
        let mut next = 0;
        for unit in names {
            next = match all.iter().position(|u| u == unit) {
                Some(at) => at + 1,
                None => {
                    all.insert(next, unit.to_string());
                    next + 1
                }
            };
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_logarithmic_only_when_values_span_orders_of_magnitude() {
        assert!(Scale::choose(&[1.0, 37.0, 1_200_000.0, 0.0]).is_log());
        assert!(!Scale::choose(&[1.0, 2.0, 3.0]).is_log());
        // Round trips: whole ticks only.
        assert_eq!(Scale::choose(&[1.0, 2.0]).ticks(), vec![0.0, 1.0, 2.0]);
        assert_eq!(Scale::choose(&[1.0, 1.0]).ticks(), vec![0.0, 1.0]);
        assert_eq!(
            Scale::choose(&[0.5, 2.0]).ticks(),
            vec![0.0, 0.5, 1.0, 1.5, 2.0]
        );
        assert_eq!(
            Scale::choose(&[3.0, 40.0]).ticks(),
            vec![0.0, 10.0, 20.0, 30.0, 40.0]
        );
        assert!(!Scale::choose(&[1.0, 100.0]).is_log());
        assert!(!Scale::choose(&[]).is_log());
        assert!(!Scale::choose(&[0.0, f64::NAN]).is_log());
        assert_eq!(
            Scale::choose(&[1.0, 37.0, 1_200_000.0]),
            Scale::Log { lo: 0, hi: 7 }
        );
        // Fractions (half a document per run) get their decade.
        assert_eq!(Scale::log(0.5, 3.0), Scale::Log { lo: -1, hi: 1 });
        assert_eq!(Scale::log(10.0, 10.0), Scale::Log { lo: 1, hi: 2 });
    }

    #[test]
    fn log_bars_start_visible_and_end_at_the_last_decade() {
        let s = Scale::Log { lo: 0, hi: 4 };
        assert_eq!(s.fraction(0.0), 0.0);
        assert_eq!(s.fraction(-3.0), 0.0);
        assert_eq!(s.fraction(f64::NAN), 0.0);
        assert!((s.fraction(1.0) - 0.04).abs() < 1e-12);
        assert!((s.fraction(100.0) - 0.52).abs() < 1e-12);
        assert!((s.fraction(1e4) - 1.0).abs() < 1e-12);
        assert!(
            s.fraction(0.01) > 0.0,
            "below the first decade: drawn at it"
        );
        assert_eq!(s.ticks(), vec![1.0, 10.0, 100.0, 1000.0, 10_000.0]);
        // Each value is further than the one below it.
        let xs: Vec<f64> = [1.0, 2.0, 9.0, 10.0, 11.0, 9999.0]
            .iter()
            .map(|v| s.fraction(*v))
            .collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
    }

    #[test]
    fn linear_ticks_are_round_and_end_at_or_above_the_maximum() {
        for max in [0.3, 1.0, 7.0, 93.0, 100.0, 1234.0, 3.3e9, 0.0, f64::NAN] {
            let s = Scale::linear(max, 10.0);
            let t = s.ticks();
            assert_eq!(t[0], 0.0);
            assert!((2..=7).contains(&t.len()), "{max}: {t:?}");
            let Scale::Linear { top, .. } = s else {
                panic!()
            };
            assert_eq!(*t.last().unwrap(), top);
            assert!(!max.is_finite() || top >= max, "{max}: {t:?}");
            assert!(
                !(max.is_finite() && max > 0.0) || top < max * 2.6,
                "{max}: {t:?}"
            );
        }
        assert_eq!(
            Scale::linear(93.0, 10.0).ticks(),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(Scale::linear(3.0, 10.0).ticks(), vec![0.0, 1.0, 2.0, 3.0]);
    }

    #[test]
    fn byte_ticks_are_round_in_binary_units() {
        const MIB: f64 = 1024.0 * 1024.0;
        let s = Scale::linear(900.0 * MIB, 1024.0);
        assert_eq!(
            s.ticks(),
            [0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]
                .map(|v| v * MIB)
                .to_vec()
        );
        let g = Scale::linear(3.2 * 1024.0 * MIB, 1024.0);
        assert_eq!(g.ticks().last().copied(), Some(4.0 * 1024.0 * MIB));
        assert_eq!(
            Scale::linear(500.0, 1024.0).ticks().last().copied(),
            Some(500.0)
        );
    }

    fn spec(width: f64, groups: usize, bars: usize) -> Spec {
        Spec {
            width,
            font: 12.0,
            label_chars: 16,
            value_chars: 9,
            groups,
            bars,
            headings: true,
        }
    }

    #[test]
    fn rows_follow_each_other_without_overlap_inside_the_chart() {
        for (w, g, b) in [(400.0, 1, 2), (760.0, 4, 5), (1200.0, 7, 6)] {
            let l = Layout::new(spec(w, g, b));
            assert_eq!(l.groups.len(), g);
            let rows: Vec<Row> = l.groups.iter().flat_map(|g| g.rows.clone()).collect();
            assert_eq!(rows.len(), g * b);
            assert!(rows.windows(2).all(|r| r[0].y + r[0].h < r[1].y));
            assert!(rows
                .iter()
                .all(|r| r.y >= l.plot_top && r.y + r.h <= l.plot_bottom));
            assert!(l.plot_bottom <= l.height);
            // A group's heading is above its first bar and below the previous group's last.
            for (i, gr) in l.groups.iter().enumerate() {
                assert!(gr.heading_y <= gr.rows[0].y);
                if i > 0 {
                    let prev = l.groups[i - 1].rows.last().unwrap();
                    assert!(gr.heading_y - 12.0 >= prev.y + prev.h);
                }
            }
            // Labels, plot and the longest value fit the width.
            assert!(l.label_w + l.gap <= l.plot_x);
            let value_end = l.plot_x + l.plot_w + l.gap + text_width(&"m".repeat(9), 12.0);
            assert!(
                value_end <= l.width + 1e-9,
                "{w}: {value_end} > {}",
                l.width
            );
        }
    }

    #[test]
    fn long_labels_are_cut_to_leave_the_plot_room() {
        let mut s = spec(400.0, 1, 3);
        s.label_chars = 80;
        let l = Layout::new(s);
        assert!(l.label_w <= 160.0);
        assert!(l.plot_w >= 100.0);
        let cut = fit_text(&"x".repeat(80), l.label_w, 12.0);
        assert!(text_width(&cut, 12.0) <= l.label_w);
        assert!(cut.ends_with('…'));
        assert_eq!(fit_text("posts", 200.0, 12.0), "posts");
        assert_eq!(fit_text("posts", 1.0, 12.0), "");
    }

    #[test]
    fn tick_labels_never_overlap_nor_leave_the_chart() {
        let l = Layout::new(spec(300.0, 1, 2));
        let s = Scale::Log { lo: -1, hi: 9 };
        let ticks = l.ticks(&s, 12.0, |_| 4);
        assert_eq!(ticks.len(), 11);
        assert!(
            ticks.iter().any(|t| !t.labelled),
            "300 px cannot label 11 decades"
        );
        let shown: Vec<&Tick> = ticks.iter().filter(|t| t.labelled).collect();
        assert!(shown.len() >= 2);
        let half = text_width("mmmm", 12.0) / 2.0;
        assert!(shown.windows(2).all(|w| w[0].x + half < w[1].x - half));
        assert!(shown
            .iter()
            .all(|t| t.x - half >= 0.0 && t.x + half <= l.width));
        let wide = Layout::new(spec(1200.0, 1, 2));
        assert!(wide.ticks(&s, 12.0, |_| 4).iter().all(|t| t.labelled));
    }

    #[test]
    fn stacked_segments_follow_each_other_in_proportion() {
        let s = Scale::Linear {
            top: 200.0,
            step: 50.0,
        };
        let segs = stack(&[30.0, 10.0, -1.0, 60.0], &s, 100.0, 400.0);
        assert_eq!(
            segs,
            vec![(100.0, 60.0), (160.0, 20.0), (180.0, 0.0), (180.0, 120.0)]
        );
    }

    #[test]
    fn groups_are_the_union_in_each_series_order() {
        let shown = groups([
            vec!["record", "read"],
            vec!["record", "count (approximate)", "read"],
            vec!["record", "read", "read old", "archive"],
            vec!["first", "read"],
        ]);
        assert_eq!(
            shown,
            [
                "first",
                "record",
                "count (approximate)",
                "read",
                "read old",
                "archive"
            ]
        );
        assert_eq!(groups(Vec::<Vec<&str>>::new()), Vec::<String>::new());
    }
}
