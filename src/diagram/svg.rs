//! A drawing as a standalone SVG picture, laid out by the `layout-rs` crate (a Sugiyama-style
//! layered layout, as Graphviz's `dot` does it): one record per box, its title and tag on
//! top and its lines below, and the lines between boxes as labelled arrows.
//!
//! `layout-rs` sizes every text at one font size per character (wide enough for CJK text, a
//! little roomy for Latin), so a box always holds its text. The picture stands alone (white
//! boxes, black lines and text, a warned box's outline red, a box that moved since the design
//! it is compared with outlined blue): the page's Diagram view restyles
//! those colours for its theme (`.diagram-picture` in public/style.css).
//!
//! The crate's layout asserts rather than returns errors: in the page it runs only in the tools
//! module's worker (`ui::diagram`), where a failed assertion traps that worker and the page
//! says so. A drawing without boxes is refused before it is laid out ([`render_checked`]).

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, RecordDef, ShapeKind};
use layout::topo::layout::VisualGraph;

use super::drawing::{Drawing, LinkKind};

/// The font size of every text, in pixels.
const FONT_SIZE: usize = 13;

/// Returns `drawing` as an SVG document.
pub fn render(drawing: &Drawing) -> String {
    let mut graph = VisualGraph::new(Orientation::TopToBottom);
    let mut handles = Vec::new();
    for n in &drawing.nodes {
        let mut head = format!("{}\n«{}»", n.title, n.tag);
        if let Some(m) = &n.change {
            head.push('\n');
            head.push_str(&m.text);
        }
        let mut parts = vec![RecordDef::new_text(&head)];
        if !n.lines.is_empty() {
            parts.push(RecordDef::new_text(&n.lines.join("\n")));
        }
        let record = ShapeKind::new_record(&RecordDef::Array(parts));
        // A warned box stays red when it also moved: the warning matters more.
        let (line, width) = match (n.warned, &n.change) {
            (true, _) => ("red", 2),
            (false, Some(_)) => ("blue", 2),
            (false, None) => ("black", 1),
        };
        let look = StyleAttr::new(
            Color::fast(line),
            width,
            Some(Color::fast("white")),
            0,
            FONT_SIZE,
        );
        // Sized by the crate from its text (`Element::resize` keeps a record's size).
        let size = layout::std_shapes::render::get_shape_size(
            Orientation::TopToBottom,
            &record,
            FONT_SIZE,
            false,
        );
        let element = Element::create(record, look, Orientation::TopToBottom, size);
        handles.push((n.id.clone(), graph.add_node(element)));
    }
    let handle = |id: &str| handles.iter().find(|(i, _)| i == id).map(|(_, h)| *h);
    for l in &drawing.links {
        let (Some(from), Some(to)) = (handle(&l.from), handle(&l.to)) else {
            continue;
        };
        let mut text = l.label.clone();
        if !l.from_end.is_empty() || !l.to_end.is_empty() {
            text.push_str(&format!(
                " [{} → {}]",
                or_dash(&l.from_end),
                or_dash(&l.to_end)
            ));
        }
        let style = match l.kind {
            LinkKind::Refers => LineStyleKind::Dashed,
            LinkKind::Nests | LinkKind::Relates => LineStyleKind::Normal,
        };
        let look = StyleAttr::new(Color::fast("black"), 1, None, 0, FONT_SIZE - 2);
        let arrow = Arrow::new(
            LineEndKind::None,
            LineEndKind::Arrow,
            style,
            &text,
            &look,
            &None,
            &None,
        );
        graph.add_edge(arrow, from, to);
    }
    let mut svg = SVGWriter::new();
    graph.do_it(false, false, false, &mut svg);
    fit_height(&svg.finalize())
}

/// Returns `drawing` as an SVG document, or why it is not laid out: a drawing without boxes
/// (a model without entities) has nothing to lay out.
pub fn render_checked(drawing: &Drawing) -> Result<String, String> {
    if drawing.nodes.is_empty() {
        return Err("the design has no collection to draw".to_string());
    }
    Ok(render(drawing))
}

/// Room kept under the lowest box: for a line that loops back to its own box below it.
const MARGIN: f64 = 40.0;

/// Returns `svg` as tall as its boxes. `layout-rs` grows the picture by ten pixels per byte of
/// every text below where the text starts (its `SVGWriter::draw_text`), which leaves a blank
/// strip taller than the drawing under a box of many lines; every text and line lies in or
/// between the boxes, so the lowest box (and [`MARGIN`]) is the picture's height.
fn fit_height(svg: &str) -> String {
    let attr = |tag: &str, name: &str| -> Option<f64> {
        tag.split(&format!(" {name}=\""))
            .nth(1)?
            .split('"')
            .next()?
            .parse()
            .ok()
    };
    let bottom = svg
        .split("<rect ")
        .skip(1)
        .filter_map(|r| Some(attr(r, "y")? + attr(r, "height")?))
        .fold(0.0, f64::max);
    let Some(header) = svg.split('>').find(|t| t.contains("<svg ")) else {
        return svg.to_string();
    };
    let (Some(width), Some(height)) = (attr(header, "width"), attr(header, "height")) else {
        return svg.to_string();
    };
    let fitted = (bottom + MARGIN).ceil();
    if bottom <= 0.0 || fitted >= height {
        return svg.to_string();
    }
    let new_header = header
        .replacen(
            &format!(" height=\"{height}\""),
            &format!(" height=\"{fitted}\""),
            1,
        )
        .replacen(
            &format!("viewBox=\"0 0 {width} {height}\""),
            &format!("viewBox=\"0 0 {width} {fitted}\""),
            1,
        );
    svg.replacen(header, &new_header, 1)
}

/// Returns `text`, or `–` when it is empty (one end of a line the model does not bound).
fn or_dash(text: &str) -> &str {
    if text.is_empty() {
        "–"
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::drawing::{Link, Node};

    #[test]
    fn a_box_is_as_wide_as_its_longest_line() {
        let node = |id: &str, lines: Vec<&str>| Node {
            id: id.to_string(),
            title: id.to_string(),
            tag: "collection".to_string(),
            lines: lines.into_iter().map(String::from).collect(),
            warned: false,
            structure: Vec::new(),
            change: None,
        };
        let d = Drawing {
            title: "t".to_string(),
            nodes: vec![
                node(
                    "post",
                    vec!["_id: objectId", "a rather long line of text here"],
                ),
                node("comment", vec!["postId: objectId"]),
            ],
            links: vec![Link {
                from: "comment".to_string(),
                to: "post".to_string(),
                kind: LinkKind::Refers,
                label: "postId".to_string(),
                from_end: "3".to_string(),
                to_end: "1".to_string(),
            }],
        };
        let svg = render(&d);
        assert!(svg.starts_with("<?xml"), "{svg}");
        assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("a rather long line of text here"));
        assert!(svg.contains("postId [3 → 1]"));
        // 31 characters at 13 px each, plus padding.
        let widths: Vec<f64> = svg
            .split("<rect")
            .skip(1)
            .filter_map(|r| r.split("width=\"").nth(1)?.split('"').next()?.parse().ok())
            .collect();
        assert!(widths.iter().any(|&w| w >= 31.0 * 13.0), "{widths:?}");
        // No blank strip under the boxes: the picture ends under the lowest one.
        let header = svg.split('>').find(|t| t.contains("<svg ")).unwrap();
        let height: f64 = header
            .split(" height=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(height < 400.0, "{header}");
        assert!(
            header.contains(&format!(" {height}\"")),
            "the viewBox follows: {header}"
        );
    }

    #[test]
    fn a_drawing_without_boxes_is_refused_before_its_layout() {
        let empty = Drawing {
            title: "empty".to_string(),
            ..Drawing::default()
        };
        assert!(render_checked(&empty).is_err());
    }
}
