//! The charts' SVG content written as markup text: a chart is redrawn whole whenever its data
//! or size changes, so it needs no fine-grained reactivity, and text is far smaller in the
//! page's wasm than one `view!` per element (about 15 KB gzip for the two charts). Every
//! name written is escaped.

use std::fmt::Write as _;

/// Returns `s` with the five XML special characters escaped, for text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The markup of a chart's content.
#[derive(Default)]
pub struct Svg(String);

impl Svg {
    /// Adds a line.
    pub fn line(&mut self, class: &str, x1: f64, x2: f64, y1: f64, y2: f64) {
        let _ = write!(
            self.0,
            r#"<line class="{class}" x1="{x1:.2}" x2="{x2:.2}" y1="{y1:.2}" y2="{y2:.2}"/>"#
        );
    }

    /// Adds text (hidden from assistive technology: the bars' labels say everything), anchored
    /// at its start, or at `anchor` (`middle`, `end`).
    pub fn text(&mut self, class: &str, x: f64, y: f64, anchor: &str, body: &str) {
        let _ = write!(
            self.0,
            r#"<text class="{class}" x="{x:.2}" y="{y:.2}" text-anchor="{anchor}" aria-hidden="true">{}</text>"#,
            esc(body)
        );
    }

    /// Adds a bar (or a part of one) with its accessible label, also its tooltip, and `data`
    /// attributes (`("design", name)` is written `data-design="name"`).
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        class: &str,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        label: &str,
        data: &[(&str, &str)],
    ) {
        let label = esc(label);
        let _ = write!(
            self.0,
            r#"<rect class="{class}" x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" role="img" aria-label="{label}""#
        );
        for (k, v) in data {
            let _ = write!(self.0, r#" data-{k}="{}""#, esc(v));
        }
        let _ = write!(self.0, "><title>{label}</title></rect>");
    }

    /// Opens a group with its accessible label and `data` attributes; [`Svg::close`] ends it.
    pub fn group(&mut self, class: &str, label: &str, data: &[(&str, &str)]) {
        let _ = write!(
            self.0,
            r#"<g class="{class}" role="group" aria-label="{}""#,
            esc(label)
        );
        for (k, v) in data {
            let _ = write!(self.0, r#" data-{k}="{}""#, esc(v));
        }
        self.0.push('>');
    }

    /// Closes the group opened last.
    pub fn close(&mut self) {
        self.0.push_str("</g>");
    }

    /// Returns the markup.
    pub fn finish(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_in_text_and_attributes() {
        assert_eq!(esc(r#"a<b>&"c"'"#), "a&lt;b&gt;&amp;&quot;c&quot;&#39;");
        let mut svg = Svg::default();
        svg.rect(
            "bar c0",
            1.0,
            2.0,
            30.5,
            4.0,
            "<script>, \"x\": 3",
            &[("design", "a\"b"), ("value", "3")],
        );
        svg.text("tick", 5.0, 6.0, "middle", "1 < 2 & 3");
        let m = svg.finish();
        assert!(!m.contains("<script>"), "{m}");
        assert!(
            m.contains(r#"aria-label="&lt;script&gt;, &quot;x&quot;: 3""#),
            "{m}"
        );
        assert!(
            m.contains("<title>&lt;script&gt;, &quot;x&quot;: 3</title>"),
            "{m}"
        );
        assert!(
            m.contains(r#"data-design="a&quot;b" data-value="3""#),
            "{m}"
        );
        assert!(m.contains(r#"width="30.50""#), "{m}");
        assert!(m.contains(">1 &lt; 2 &amp; 3</text>"), "{m}");
        assert_eq!(m.matches("<rect").count(), m.matches("</rect>").count());
    }

    #[test]
    fn groups_close_what_they_open() {
        let mut svg = Svg::default();
        svg.group("bar", "Normalized: 3 GiB in all", &[("state", "done")]);
        svg.line("grid", 0.0, 0.0, 1.0, 2.0);
        svg.close();
        let m = svg.finish();
        assert!(m.starts_with(r#"<g class="bar" role="group" aria-label="Normalized: 3 GiB in all" data-state="done">"#));
        assert!(m.ends_with("</g>"));
    }
}
