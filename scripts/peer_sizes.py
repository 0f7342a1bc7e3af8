#!/usr/bin/env python3
"""Peer check of document sizes: pymongo's bson encoder measures the size corpus.

Reads tests/fixtures/sizes/corpus.ndjson (one canonical Extended JSON document per line)
with pymongo's bson.json_util.loads in canonical mode and writes, for each line,
`<line number>\\t<len(bson.encode(doc))>` to tests/fixtures/sizes/expected.tsv. The Rust
test tests/suite/sizes_corpus.rs reads the same corpus with Squillion's reader and asserts the
same sizes.

Usage:
  python3 scripts/peer_sizes.py           rewrite expected.tsv
  python3 scripts/peer_sizes.py --check   recompute and compare; exit 1 on any difference

Needs `pip install pymongo`.
"""
import argparse
import sys
from pathlib import Path

import bson
from bson import json_util
from bson.binary import UuidRepresentation

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "sizes" / "corpus.ndjson"
EXPECTED = ROOT / "tests" / "fixtures" / "sizes" / "expected.tsv"
HEADER = "# line\tsize (len(bson.encode(doc)) by pymongo {version}; written by scripts/peer_sizes.py)"


def sizes():
    options = json_util.CANONICAL_JSON_OPTIONS.with_options(
        uuid_representation=UuidRepresentation.STANDARD)
    result = []
    for number, line in enumerate(CORPUS.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        doc = json_util.loads(line, json_options=options)
        result.append((number, len(bson.encode(doc, codec_options=options))))
    return result


def render(rows):
    import pymongo
    lines = [HEADER.format(version=pymongo.version)]
    lines += [f"{number}\t{size}" for number, size in rows]
    return "\n".join(lines) + "\n"


def parse(text):
    rows = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        number, size = line.split("\t")
        rows.append((int(number), int(size)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed expected.tsv instead of writing it")
    args = parser.parse_args()
    rows = sizes()
    if not args.check:
        EXPECTED.write_text(render(rows), encoding="utf-8")
        print(f"wrote {len(rows)} sizes to {EXPECTED.relative_to(ROOT)}", file=sys.stderr)
        return 0
    committed = parse(EXPECTED.read_text(encoding="utf-8"))
    if committed == rows:
        print(f"peer sizes agree: {len(rows)} documents", file=sys.stderr)
        return 0
    mine, theirs = dict(rows), dict(committed)
    for number in sorted(set(mine) | set(theirs)):
        if mine.get(number) != theirs.get(number):
            print(f"line {number}: pymongo {mine.get(number)}, expected.tsv {theirs.get(number)}",
                  file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
