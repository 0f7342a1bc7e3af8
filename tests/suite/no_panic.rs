//! No input, however broken, makes the readers panic: random token soup and truncated valid
//! documents go through every entry point.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use squillion::ejson::{parse_document, parse_stream, parse_value, Parser};
use squillion::shell::parse_command;

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "'",
    "\"",
    "\\",
    "/",
    "*",
    "//",
    "/*",
    "*/",
    "\n",
    " ",
    "é",
    "😀",
    "a",
    "$",
    "$oid",
    "$date",
    "$numberLong",
    "$binary",
    "$code",
    "$scope",
    "$timestamp",
    "$regex",
    "ObjectId(",
    "new ",
    "Date",
    "ISODate(",
    "NumberLong(",
    "NumberDecimal(",
    "UUID(",
    "BinData(",
    "Timestamp(",
    "MinKey",
    "(",
    ")",
    "1",
    "-",
    "+",
    "e",
    ".",
    "0",
    "9223372036854775808",
    "Infinity",
    "NaN",
    "true",
    "null",
    "undefined",
    "\\u",
    "\\uD83D",
    "\\x",
    "db",
    ".find(",
    ".sort(",
    "getCollection",
    "'2024-01-01'",
    "'5f0c3c0b9d1e8a3f2c4b6a10'",
    "/a/i",
    "/[/]/",
    "\u{feff}",
    "\r\n",
    "\t",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.concat())
}

fn exercise(text: &str) {
    let _ = parse_stream(text);
    let _ = parse_value(text);
    let _ = parse_document(text);
    let _ = parse_command(text);
    for offset in [0, 1, 3, text.len() / 2, text.len(), text.len() + 5] {
        let mut parser = Parser::at(text, offset);
        let _ = parser.parse_value();
        let _ = squillion::ejson::line_column(text, parser.offset());
    }
}

const CORPUS: &str = include_str!("../fixtures/sizes/corpus.ndjson");
const SHELL: &str = include_str!("../fixtures/shell_forms/cases.txt");

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn token_soup_never_panics(text in soup()) {
        exercise(&text);
    }

    #[test]
    fn truncated_and_spliced_documents_never_panic(cut in 0usize..4000, len in 0usize..400, source in any::<bool>()) {
        // The corpus's first few kilobytes: every type, small enough to stay fast.
        let text = if source { SHELL } else { CORPUS.get(..4096).unwrap_or(CORPUS) };
        let mut start = cut.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + len).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        exercise(&text[start..end]);
        exercise(&format!("{}{}", &text[..start], &text[end..]));
    }
}
