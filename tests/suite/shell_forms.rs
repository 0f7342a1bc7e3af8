//! Documents written in mongosh syntax equal the same documents in canonical Extended JSON
//! (tests/fixtures/shell_forms/cases.txt), and have the same size.
#![cfg(not(target_arch = "wasm32"))]

use squillion::ejson::{parse_document, to_shell_string};
use squillion::size::document_size;

const CASES: &str = include_str!("../fixtures/shell_forms/cases.txt");

#[test]
fn shell_forms_equal_canonical_extended_json() {
    let body: String = CASES
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut count = 0;
    for (i, pair) in body.split("====\n").enumerate() {
        let (shell, canonical) = pair.split_once("----\n").expect("a pair separated by ----");
        let shell = parse_document(shell).unwrap_or_else(|e| panic!("case {}: shell: {e}", i + 1));
        let canonical =
            parse_document(canonical).unwrap_or_else(|e| panic!("case {}: canonical: {e}", i + 1));
        // Compare encodings: NaN never equals itself.
        assert_eq!(
            shell.to_vec().unwrap(),
            canonical.to_vec().unwrap(),
            "case {}",
            i + 1
        );
        assert_eq!(document_size(&shell), document_size(&canonical));
        let written = to_shell_string(&bson::Bson::Document(shell.clone()), true);
        let again =
            parse_document(&written).unwrap_or_else(|e| panic!("case {}: {written}: {e}", i + 1));
        assert_eq!(
            again.to_vec().unwrap(),
            shell.to_vec().unwrap(),
            "case {}: {written}",
            i + 1
        );
        count += 1;
    }
    assert_eq!(count, 5);
}
