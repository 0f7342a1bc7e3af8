//! Documents spread over several lines ([`super::super::gather`]): pretty-printed arrays and
//! documents, mongosh's output, strings holding brackets, broken and never-closing documents.

use std::collections::BTreeMap;

use super::infer;
use crate::infer::Inference;
use crate::model::BsonType;

/// Returns the model's field names of the one entity, in order.
fn names(inferred: &crate::infer::Inferred) -> Vec<String> {
    inferred.model.entities[0]
        .fields
        .0
        .iter()
        .map(|(n, _)| n.clone())
        .collect()
}

#[test]
fn a_pretty_printed_array_is_read_whole() {
    // What `mongoexport --jsonArray --pretty` writes, with a one-line element among them.
    let text = "[\n  {\n    \"_id\": 1,\n    \"name\": \"a\",\n    \"tags\": [\n      \"x\",\n      \"y\"\n    ]\n  },\n  {\"_id\": 2, \"name\": \"bb\"},\n  {\n    \"_id\": 3,\n    \"name\": \"ccc\"\n  }\n]\n";
    let (inferred, summary) = infer(text, 1000);
    assert_eq!((summary.documents, summary.skipped), (3, 0));
    assert_eq!(names(&inferred), ["_id", "name", "tags"]);
    let name = inferred.model.entities[0].fields.get("name").unwrap();
    assert_eq!(name.ty, BsonType::String);
    assert_eq!(name.presence, None);
}

#[test]
fn pretty_documents_one_after_another() {
    // `mongoexport --pretty`: each document over several lines, no array; and a one-line
    // document between them, and one closing and the next opening on one line.
    let text = "{\n\t\"_id\": 1,\n\t\"o\": {\n\t\t\"x\": true\n\t}\n}\n{\"_id\": 2, \"o\": {}}\n{\n\t\"_id\": 3\n} {\n\t\"_id\": 4\n}\n";
    let (inferred, summary) = infer(text, 1000);
    assert_eq!((summary.documents, summary.skipped), (4, 0));
    assert_eq!(inferred.report.entities[0].documents, 4);
    let o = inferred.model.entities[0].fields.get("o").unwrap();
    assert_eq!(o.presence, Some(0.5));
}

#[test]
fn mongosh_output_with_shell_forms() {
    let text = "[\n  {\n    _id: ObjectId('65a1b2c3d4e5f60718293a4b'),\n    at: ISODate('2024-01-01T00:00:00.000Z'),\n    n: NumberLong('7'),\n    name: 'Ann'\n  },\n  {\n    _id: ObjectId('65a1b2c3d4e5f60718293a4c'),\n    at: ISODate('2024-01-03T00:00:00.000Z'),\n    n: NumberLong('9'),\n    name: 'Bob'\n  }\n]\n";
    let (inferred, summary) = infer(text, 1000);
    assert_eq!((summary.documents, summary.skipped), (2, 0));
    let f = &inferred.model.entities[0].fields;
    assert_eq!(f.get("_id").unwrap().ty, BsonType::ObjectId);
    assert_eq!(f.get("at").unwrap().ty, BsonType::Date);
    assert_eq!(f.get("n").unwrap().ty, BsonType::Long);
}

#[test]
fn brackets_and_escaped_quotes_inside_strings_do_not_count() {
    let text = "{\n  \"s\": \"a } ] \\\" {\",\n  't': '[ \\' {',\n  \"u\": \"\\\\\"\n}\n{\n  \"s\": \"}}}\"\n}\n";
    let (inferred, summary) = infer(text, 1000);
    assert_eq!((summary.documents, summary.skipped), (2, 0));
    let s = inferred.model.entities[0].fields.get("s").unwrap();
    assert_eq!(s.presence, None);
    assert_eq!(
        inferred.model.entities[0].fields.get("t").unwrap().presence,
        Some(0.5)
    );
}

#[test]
fn a_malformed_document_is_reported_at_its_real_line_and_the_next_still_read() {
    // Line 7 holds the unquoted word; line 13 starts a document missing its closing brace,
    // which the next document at its indentation ends.
    let text = "[\n  {\n    \"_id\": 1\n  },\n  {\n    \"_id\": 2,\n    \"name\": oops\n  },\n  {\n    \"_id\": 3\n  }\n]\n";
    let (inferred, summary) = infer(text, 1000);
    assert_eq!((summary.documents, summary.skipped), (2, 1));
    let skipped = &inferred.report.skipped[0];
    assert_eq!(skipped.line, 7);
    assert!(skipped.message.starts_with("column 13: "), "{skipped:?}");

    let text = "{\n  \"_id\": 1,\n  \"a\": [1, 2\n}\n{\n  \"_id\": 2\n}\n";
    let (inferred, summary) = infer(text, 1000);
    assert_eq!((summary.documents, summary.skipped), (1, 1));
    assert_eq!(inferred.report.skipped[0].line, 4);
    assert_eq!(inferred.report.entities[0].documents, 1);
}

#[test]
fn a_never_closing_document_is_bounded_and_reported() {
    // Opened on line 2, never closed: kept only up to the longest line, reported at its
    // first line, and memory stays bounded however long the rest is.
    let mut text = String::from("{\"_id\": 0}\n{\n");
    for i in 0..1000 {
        text.push_str(&format!("  \"f{i}\": [\n"));
    }
    let (inferred, summary) = infer(&text, 200);
    assert_eq!((summary.documents, summary.skipped), (1, 1));
    let skipped = &inferred.report.skipped[0];
    assert_eq!(skipped.line, 2);
    assert_eq!(skipped.message, "document longer than 200 bytes");

    // Short enough to be kept: reported where the input ends.
    let (inferred, summary) = infer("{\"_id\": 0}\n{\n  \"a\": 1,\n", 200);
    assert_eq!((summary.documents, summary.skipped), (1, 1));
    assert_eq!(inferred.report.skipped[0].line, 3);
}

#[test]
fn a_document_past_the_longest_line_is_passed_over_and_the_next_read() {
    let long = format!("  \"a\": \"{}\",\n", "x".repeat(100));
    let text = format!("{{\n{long}  \"b\": [\n    {{\"c\": 1}}\n  ]\n}}\n{{\n  \"a\": \"y\"\n}}\n");
    let (inferred, summary) = infer(&text, 60);
    assert_eq!((summary.documents, summary.skipped), (1, 1));
    assert_eq!(inferred.report.skipped[0].line, 1);
    assert_eq!(names(&inferred), ["a"]);
}

#[test]
fn progress_reports_bytes_and_documents_at_the_end() {
    let text = "[\n  {\"a\": 1},\n  {\n    \"a\": 2\n  }\n]\n";
    let mut inference = Inference::new();
    let mut seen = Vec::new();
    inference
        .read_with_progress("c", "c.json", text.as_bytes(), &mut |b, d| {
            seen.push((b, d))
        })
        .unwrap();
    assert_eq!(seen.last(), Some(&(text.len() as u64, 2)));
    assert!(inference.finish(&BTreeMap::new()).is_ok());
}

#[test]
fn any_cut_of_a_pretty_array_reads_without_a_panic() {
    // Every prefix and every line dropped: never a panic, never more documents than there are.
    let text = "[\n  {\n    _id: ObjectId('65a1b2c3d4e5f60718293a4b'),\n    s: \"} ]\\\"\",\n    a: [ { b: 1 }, [ 2 ] ]\n  },\n  {\"x\": 'y'}\n]\n";
    for cut in 0..=text.len() {
        let Some(prefix) = text.get(..cut) else {
            continue;
        };
        let mut inference = Inference::with_max_line(40);
        let s = inference.read("c", "c.json", prefix.as_bytes()).unwrap();
        assert!(s.documents <= 2, "{prefix:?}");
    }
    let lines: Vec<&str> = text.lines().collect();
    for drop in 0..lines.len() {
        let kept: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != drop)
            .map(|(_, l)| *l)
            .collect();
        let mut inference = Inference::new();
        let s = inference
            .read("c", "c.json", kept.join("\n").as_bytes())
            .unwrap();
        assert!(s.documents <= 2);
    }
}

#[test]
fn a_line_not_utf8_inside_a_document_skips_that_document_once() {
    let mut inference = Inference::new();
    let bytes = b"{\n  \"a\": \"\xff\",\n  \"b\": 1\n}\n{\"a\": \"z\"}\n".to_vec();
    let s = inference.read("c", "c.json", bytes.as_slice()).unwrap();
    assert_eq!((s.documents, s.skipped), (1, 1));
    let skipped = &inference.skipped().0[0];
    assert_eq!(
        (skipped.line, skipped.message.as_str()),
        (1, "line 2 is not UTF-8")
    );
}

#[test]
fn random_bracket_soup_never_panics_and_reports_real_lines() {
    // 3,000 texts of brackets, quotes, escapes, shell forms and newlines (a fixed xorshift
    // sequence): never a panic, every skip at a line of the input, never more documents than
    // `{` in the text.
    const TOKENS: [&str; 18] = [
        "{",
        "}",
        "[",
        "]",
        "\"",
        "'",
        "\\",
        "\n",
        "\n  ",
        "\n{",
        ", ",
        ": ",
        "a",
        "1",
        "\"x\"",
        "ObjectId('65a1b2c3d4e5f60718293a4b')",
        "\r\n",
        "é",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = next() % 60;
        let text: String = (0..len)
            .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
            .collect();
        let mut inference = Inference::with_max_line(24);
        let s = inference.read("c", "c.json", text.as_bytes()).unwrap();
        let lines = text.split('\n').count() as u64;
        assert!(s.documents <= text.matches('{').count() as u64, "{text:?}");
        for skipped in inference.skipped().0 {
            assert!((1..=lines).contains(&skipped.line), "{text:?}: {skipped:?}");
        }
    }
}
