"""Writes a mongodump archive (`mongodump --archive`, optionally `--gzip`) as mongo-tools'
common/archive/spec.md describes it: the peer that tests/archive18.rs reads back with
`squillion infer`. BSON comes from pymongo's `bson`, the CRC from the table below (CRC-64 with
the ECMA-182 polynomial, reflected, all bits set before and after: Go's hash/crc64 ECMA), so
nothing here is Squillion's own code.

Usage: python3 mongodump_archive.py OUT [--gzip] [--block N] [--bad-crc DB.COLL]
       [--no-eof DB.COLL] < input

Each input line is canonical Extended JSON, one of
  {"ns": "db.coll", "doc": {...}}          a document of that collection
  {"ns": "db.coll", "metadata": {...}}     its metadata (what .metadata.json holds)
  {"ns": "db.coll", "type": "view"}        its type in the prelude (default "collection")
Collections are written in blocks of N documents (default 3), interleaved round-robin as
mongodump's parallel threads interleave them.
"""

import gzip
import struct
import sys

import bson
from bson import json_util
from bson.int64 import Int64

MASK = (1 << 64) - 1
POLY = 0xC96C5795D7870F42  # ECMA-182, reflected
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ POLY if c & 1 else c >> 1
    TABLE.append(c)


def crc64(data, crc=0):
    """Go's crc64.Update(crc, ECMA table, data)."""
    crc ^= MASK
    for b in data:
        crc = TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ MASK


assert crc64(b"123456789") == 0x995DC9BBDF1939FA, "CRC-64/XZ check value"

TERMINATOR = b"\xff\xff\xff\xff"


def main(argv):
    out = argv[0]
    opts = argv[1:]
    gz = "--gzip" in opts
    block = int(opts[opts.index("--block") + 1]) if "--block" in opts else 3
    bad_crc = opts[opts.index("--bad-crc") + 1] if "--bad-crc" in opts else None
    no_eof = opts[opts.index("--no-eof") + 1] if "--no-eof" in opts else None
    order, docs, meta, types = [], {}, {}, {}
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json_util.loads(line, json_options=json_util.CANONICAL_JSON_OPTIONS)
        ns = item["ns"]
        if ns not in docs:
            order.append(ns)
            docs[ns] = []
        if "doc" in item:
            docs[ns].append(bson.encode(item["doc"]))
        if "metadata" in item:
            meta[ns] = item["metadata"]
        if "type" in item:
            types[ns] = item["type"]
    parts = [struct.pack("<I", 0x8199E26D)]
    parts.append(
        bson.encode(
            {
                "concurrent_collections": 4,
                "version": "0.1",
                "server_version": "8.0.4",
                "tool_version": "100.10.0",
            }
        )
    )
    for ns in order:
        db, coll = ns.split(".", 1)
        text = json_util.dumps(
            meta.get(ns, {"indexes": [], "uuid": "", "collectionName": coll, "type": "collection"}),
            json_options=json_util.CANONICAL_JSON_OPTIONS,
        )
        parts.append(
            bson.encode(
                {
                    "db": db,
                    "collection": coll,
                    "metadata": text,
                    "size": sum(len(d) for d in docs[ns]),
                    "type": types.get(ns, "collection"),
                }
            )
        )
    parts.append(TERMINATOR)
    at = {ns: 0 for ns in order}
    crc = {ns: 0 for ns in order}
    while any(at[ns] < len(docs[ns]) for ns in order):
        for ns in order:
            chunk = docs[ns][at[ns] : at[ns] + block]
            if not chunk:
                continue
            db, coll = ns.split(".", 1)
            parts.append(bson.encode({"db": db, "collection": coll, "EOF": False, "CRC": Int64(0)}))
            for d in chunk:
                crc[ns] = crc64(d, crc[ns])
                parts.append(d)
            parts.append(TERMINATOR)
            at[ns] += len(chunk)
    for ns in order:
        if ns == no_eof or types.get(ns) == "view":
            continue
        db, coll = ns.split(".", 1)
        value = crc[ns] ^ (1 if ns == bad_crc else 0)
        signed = value - (1 << 64) if value >= 1 << 63 else value
        parts.append(bson.encode({"db": db, "collection": coll, "EOF": True, "CRC": Int64(signed)}))
        parts.append(TERMINATOR)
    data = b"".join(parts)
    if gz:
        data = gzip.compress(data)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv[1:])
