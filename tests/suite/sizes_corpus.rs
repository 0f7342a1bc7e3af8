//! The peer-checked size corpus: every document of tests/fixtures/sizes/corpus.ndjson, read
//! by our reader, must have the size pymongo measured (tests/fixtures/sizes/expected.tsv,
//! written by scripts/peer_sizes.py), computed arithmetically and by bson-rust's encoder.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use squillion::ejson::{parse_document, parse_stream, to_canonical_ejson};
use squillion::size::{analyze, document_size};

const CORPUS: &str = include_str!("../fixtures/sizes/corpus.ndjson");
const EXPECTED: &str = include_str!("../fixtures/sizes/expected.tsv");

fn expected() -> BTreeMap<usize, u64> {
    EXPECTED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (line, size) = l.split_once('\t').expect("line<TAB>size");
            (
                line.parse().expect("line number"),
                size.parse().expect("size"),
            )
        })
        .collect()
}

#[test]
fn corpus_sizes_equal_the_peer() {
    let expected = expected();
    assert!(
        expected.len() >= 60,
        "the corpus should hold at least 60 documents"
    );
    let mut checked = 0;
    for (i, line) in CORPUS.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let doc = parse_document(line).unwrap_or_else(|e| panic!("corpus line {number}: {e}"));
        let want = expected[&number];
        assert_eq!(
            document_size(&doc),
            want,
            "corpus line {number}: arithmetic size"
        );
        assert_eq!(
            doc.to_vec().unwrap().len() as u64,
            want,
            "corpus line {number}: bson-rust"
        );
        let analysis = analyze(&doc);
        assert_eq!(analysis.size, want, "corpus line {number}: analysis");
        let top: u64 = analysis
            .fields
            .iter()
            .filter(|f| f.depth == 1)
            .map(|f| f.key_bytes + f.value_bytes)
            .sum();
        assert_eq!(top + 5, want, "corpus line {number}: top-level fields + 5");
        checked += 1;
    }
    assert_eq!(checked, expected.len());
}

#[test]
fn corpus_as_one_stream_gives_the_same_documents() {
    let items = parse_stream(CORPUS);
    let expected = expected();
    assert_eq!(items.len(), expected.len());
    for item in items {
        let doc = item.result.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            document_size(&doc),
            expected[&item.line],
            "stream line {}",
            item.line
        );
    }
}

#[test]
fn corpus_round_trips_through_canonical_extended_json() {
    for (i, line) in CORPUS.lines().enumerate() {
        let doc = parse_document(line).unwrap();
        let again = parse_document(&to_canonical_ejson(&doc)).unwrap();
        // NaN never equals itself: compare the encodings instead.
        assert_eq!(
            doc.to_vec().unwrap(),
            again.to_vec().unwrap(),
            "corpus line {}",
            i + 1
        );
    }
}
