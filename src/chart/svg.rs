//! The charts' SVG content as a tree of plain nodes (tag, attributes, text), which the page
//! turns into DOM elements with `createElementNS`, `setAttribute` and `textContent`: user
//! names (designs, collections, operations) are only ever set as text, never parsed as markup.
//! A chart is redrawn whole whenever its data or size changes, so it needs no fine-grained
//! reactivity, and a tree is far smaller in the page's wasm than one `view!` per element
//! (about 15 KB gzip for the two charts).

/// One SVG element: its tag, attributes in order, text content and children.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// Element name (`rect`, `text`, `g`, `line`, `title`).
    pub tag: &'static str,
    /// Attributes, in the order written.
    pub attrs: Vec<(String, String)>,
    /// Text content, set as text.
    pub text: Option<String>,
    /// Child elements.
    pub children: Vec<Node>,
}

impl Node {
    fn new(tag: &'static str, attrs: Vec<(String, String)>) -> Node {
        Node {
            tag,
            attrs,
            ..Node::default()
        }
    }

    /// Returns the value of attribute `name`, if set.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Returns `(name, value)` as an owned attribute.
fn a(name: &str, value: impl ToString) -> (String, String) {
    (name.to_string(), value.to_string())
}

/// Returns a coordinate as written: two decimals.
fn n(v: f64) -> String {
    format!("{v:.2}")
}

/// A chart's content being built: the finished top-level nodes and the groups still open.
#[derive(Default)]
pub struct Svg {
    root: Vec<Node>,
    open: Vec<Node>,
}

impl Svg {
    /// Adds `node` to the group opened last, else at the top.
    fn push(&mut self, node: Node) {
        match self.open.last_mut() {
            Some(g) => g.children.push(node),
            None => self.root.push(node),
        }
    }

    /// Adds a line.
    pub fn line(&mut self, class: &str, x1: f64, x2: f64, y1: f64, y2: f64) {
        self.push(Node::new(
            "line",
            vec![
                a("class", class),
                a("x1", n(x1)),
                a("x2", n(x2)),
                a("y1", n(y1)),
                a("y2", n(y2)),
            ],
        ));
    }

    /// Adds text (hidden from assistive technology: the bars' labels say everything), anchored
    /// at its start, or at `anchor` (`middle`, `end`).
    pub fn text(&mut self, class: &str, x: f64, y: f64, anchor: &str, body: &str) {
        let mut t = Node::new(
            "text",
            vec![
                a("class", class),
                a("x", n(x)),
                a("y", n(y)),
                a("text-anchor", anchor),
                a("aria-hidden", "true"),
            ],
        );
        t.text = Some(body.to_string());
        self.push(t);
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
        let mut attrs = vec![
            a("class", class),
            a("x", n(x)),
            a("y", n(y)),
            a("width", n(w)),
            a("height", n(h)),
            a("role", "img"),
            a("aria-label", label),
        ];
        attrs.extend(data.iter().map(|(k, v)| a(&format!("data-{k}"), v)));
        let mut r = Node::new("rect", attrs);
        let mut title = Node::new("title", Vec::new());
        title.text = Some(label.to_string());
        r.children.push(title);
        self.push(r);
    }

    /// Opens a group with its accessible label and `data` attributes; [`Svg::close`] ends it.
    pub fn group(&mut self, class: &str, label: &str, data: &[(&str, &str)]) {
        let mut attrs = vec![
            a("class", class),
            a("role", "group"),
            a("aria-label", label),
        ];
        attrs.extend(data.iter().map(|(k, v)| a(&format!("data-{k}"), v)));
        self.open.push(Node::new("g", attrs));
    }

    /// Closes the group opened last.
    pub fn close(&mut self) {
        if let Some(g) = self.open.pop() {
            self.push(g);
        }
    }

    /// Returns the content, closing any group left open.
    pub fn finish(mut self) -> Vec<Node> {
        while !self.open.is_empty() {
            self.close();
        }
        self.root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kept_as_text_in_attributes_and_titles() {
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
        let nodes = svg.finish();
        let rect = &nodes[0];
        assert_eq!(rect.tag, "rect");
        // Set with setAttribute and textContent: verbatim, nothing to escape or parse.
        assert_eq!(rect.attr("aria-label"), Some("<script>, \"x\": 3"));
        assert_eq!(rect.attr("data-design"), Some("a\"b"));
        assert_eq!(rect.attr("data-value"), Some("3"));
        assert_eq!(rect.attr("width"), Some("30.50"));
        assert_eq!(rect.children[0].tag, "title");
        assert_eq!(rect.children[0].text.as_deref(), Some("<script>, \"x\": 3"));
        assert_eq!(nodes[1].text.as_deref(), Some("1 < 2 & 3"));
        assert_eq!(nodes[1].attr("aria-hidden"), Some("true"));
    }

    #[test]
    fn groups_hold_what_is_drawn_while_they_are_open() {
        let mut svg = Svg::default();
        svg.group("bar", "Normalized: 3 GiB in all", &[("state", "done")]);
        svg.line("grid", 0.0, 0.0, 1.0, 2.0);
        svg.close();
        svg.line("axis", 0.0, 0.0, 1.0, 2.0);
        svg.group("left", "open", &[]);
        svg.line("tick", 0.0, 0.0, 1.0, 2.0);
        let nodes = svg.finish();
        assert_eq!(nodes.len(), 3, "{nodes:?}");
        assert_eq!(nodes[0].tag, "g");
        assert_eq!(
            nodes[0].attr("aria-label"),
            Some("Normalized: 3 GiB in all")
        );
        assert_eq!(nodes[0].attr("data-state"), Some("done"));
        assert_eq!(nodes[0].children.len(), 1);
        assert_eq!(nodes[1].attr("class"), Some("axis"));
        // A group left open is closed by finish.
        assert_eq!(nodes[2].children[0].attr("class"), Some("tick"));
    }
}
