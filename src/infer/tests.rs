//! The reader and the inference of small inputs.

use std::collections::BTreeMap;
use std::io::{BufReader, Cursor};

use super::*;
use crate::model::{BsonType, Distribution};

fn infer(text: &str, max_line: usize) -> (Inferred, SourceSummary) {
    let mut inference = Inference::with_max_line(max_line);
    // A tiny buffer: lines are assembled over many reads.
    let reader = BufReader::with_capacity(3, Cursor::new(text.as_bytes().to_vec()));
    let summary = inference.read("c", "c.json", reader).unwrap();
    (inference.finish(&BTreeMap::new()).unwrap(), summary)
}

#[test]
fn crlf_lines_blank_lines_and_a_last_line_without_newline() {
    let (inferred, summary) = infer("{\"a\": 1}\r\n\r\n{\"a\": 2, \"b\": \"xyz\"}", 1000);
    assert_eq!((summary.documents, summary.skipped), (2, 0));
    let e = &inferred.model.entities[0];
    assert_eq!(e.fields.get("a").map(|f| f.ty), Some(BsonType::Int));
    let b = e.fields.get("b").unwrap();
    assert_eq!(b.presence, Some(0.5));
    assert_eq!(b.length, Some(Distribution::fixed(3.0)));
}

#[test]
fn an_over_long_line_is_skipped_with_its_number() {
    let long = format!("{{\"a\": \"{}\"}}", "x".repeat(100));
    let (inferred, summary) = infer(&format!("{{\"a\": \"y\"}}\n{long}\n{{\"a\": \"z\"}}\n"), 50);
    assert_eq!((summary.documents, summary.skipped), (2, 1));
    assert_eq!(inferred.report.skipped[0].line, 2);
    assert!(inferred.report.skipped[0]
        .message
        .contains("longer than 50 bytes"));
}

#[test]
fn invalid_utf8_is_skipped() {
    let mut inference = Inference::new();
    let bytes = b"{\"a\": 1}\n{\"a\": \"\xff\"}\n".to_vec();
    let s = inference.read("c", "c.json", Cursor::new(bytes)).unwrap();
    assert_eq!((s.documents, s.skipped), (1, 1));
    assert_eq!(inference.skipped().0[0].message, "not UTF-8");
}

#[test]
fn number_ranges_nested_objects_and_scalar_arrays() {
    let (inferred, _) = infer(
        "{\"n\": 3, \"o\": {\"x\": true}, \"t\": [\"ab\", \"abcd\"]}\n\
         {\"n\": -2.5, \"o\": {}, \"t\": []}\n\
         {\"n\": 10, \"o\": {\"x\": false, \"y\": null}, \"t\": [\"abc\"]}\n",
        1000,
    );
    let f = &inferred.model.entities[0].fields;
    let n = f.get("n").unwrap();
    assert_eq!(
        (n.ty, n.min, n.max),
        (BsonType::Int, Some(-2.5), Some(10.0))
    );
    let o = f.get("o").unwrap();
    assert_eq!(o.fields.get("x").map(|x| x.presence), Some(Some(2.0 / 3.0)));
    assert_eq!(o.fields.get("y").map(|y| y.ty), Some(BsonType::Null));
    let t = f.get("t").unwrap();
    assert_eq!(t.items, Some(BsonType::String));
    assert_eq!(t.count, Some(Distribution::Uniform { min: 0.0, max: 2.0 }));
    assert_eq!(t.length, Some(Distribution::Uniform { min: 2.0, max: 4.0 }));
    let row = inferred.report.entities[0]
        .fields
        .iter()
        .find(|r| r.path == "n")
        .unwrap();
    assert_eq!(row.types.len(), 2);
    assert_eq!(
        (row.types[0].ty.as_str(), row.types[0].share),
        ("int", 2.0 / 3.0)
    );
}

#[test]
fn counts_must_name_a_collection_read() {
    let mut inference = Inference::new();
    inference
        .read("c", "c.json", Cursor::new(b"{\"a\": 1}\n".to_vec()))
        .unwrap();
    let counts = BTreeMap::from([("d".to_string(), 5.0)]);
    assert!(matches!(
        inference.finish(&counts),
        Err(InferError::UnknownCount(_))
    ));
    assert!(matches!(
        Inference::new().finish(&BTreeMap::new()),
        Err(InferError::NothingInferred)
    ));
}

#[test]
fn columns_are_the_lines_own() {
    let (inferred, _) = infer("{\"a\": 1}\n  {\"b\" 2}  \n", 1000);
    assert_eq!(inferred.report.skipped[0].line, 2);
    assert!(
        inferred.report.skipped[0]
            .message
            .starts_with("column 8: expected ':'"),
        "{:?}",
        inferred.report.skipped
    );
    let (inferred, _) = infer("[{\"a\": 1},{\"b\" 2}]\n", 1000);
    assert!(
        inferred.report.skipped[0]
            .message
            .starts_with("column 16: expected ':'"),
        "{:?}",
        inferred.report.skipped
    );
    let (inferred, _) = infer("[\n  {\"a\": 1},\n  {\"b\" 2}\n]\n", 1000);
    assert_eq!(inferred.report.skipped[0].line, 3);
    assert!(
        inferred.report.skipped[0]
            .message
            .starts_with("column 8: expected ':'"),
        "{:?}",
        inferred.report.skipped
    );
}
