#!/usr/bin/env python3
"""Writes tests/fixtures/sizes/corpus.ndjson: varied documents in canonical Extended JSON.

The corpus is data: this script only documents how it was made (deterministic, seed 7).
Run scripts/peer_sizes.py afterwards to (re)write expected.tsv with pymongo's sizes.

DBPointer is absent on purpose: pymongo reads {"$dbPointer": …} as a DBRef and encodes it as
a document, so the peer would measure a different value (our unit tests check DBPointer
sizes against bson-rust's encoder instead). $uuid is written as $binary subtype 04.
"""
import datetime
import random
import sys
from pathlib import Path

from bson import (Binary, Code, Decimal128, Int64, MaxKey, MinKey, ObjectId, Regex,
                  Timestamp, json_util)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "sizes" / "corpus.ndjson"
UTC = datetime.timezone.utc
rnd = random.Random(7)


def oid():
    return ObjectId(bytes(rnd.randrange(256) for _ in range(12)))


def date(ms):
    return datetime.datetime(1970, 1, 1, tzinfo=UTC) + datetime.timedelta(milliseconds=ms)


def nested(depth):
    doc = {"leaf": 1}
    for _ in range(depth - 1):
        doc = {"n": doc}
    return doc


def nested_arrays(depth):
    value = [1]
    for _ in range(depth - 2):
        value = [value]
    return {"a": value}


docs = [
    {},
    {"a": 1},
    {"_id": oid()},
    {"i32": 2147483647, "i32min": -2147483648, "i64": Int64(2147483648), "i64max": Int64(2**63 - 1)},
    {"d": 1.0, "neg0": -0.0, "inf": float("inf"), "ninf": float("-inf"), "nan": float("nan"), "tiny": 5e-324, "big": 1.7976931348623157e308},
    {"s": "", "t": "hello", "nul": "a\x00b", "esc": "quote \" backslash \\ tab \t nl \n"},
    {"unicode": "héllo wörld", "cjk": "你的名字", "emoji": "😀🚀", "mixed": "Ελληνικά и русский"},
    {"ключ": 1, "名前": "値", "emoji🔑": True, "": "empty key"},
    {"t": True, "f": False, "n": None},
    {"empty_doc": {}, "empty_array": [], "nested_empty": [[], {}, [{}]]},
    {"dates": [date(0), date(-1), date(1704067200000), date(253402300799999), date(-62135596800000)]},
    {"dec": [Decimal128("0"), Decimal128("-0"), Decimal128("9.99"), Decimal128("1E+6144"), Decimal128("Infinity"), Decimal128("NaN"), Decimal128("-1.234567890123456789012345678901234E-6143")]},
    {"bin0": Binary(b"", 0), "bin1": Binary(b"\x01\x02\x03", 0), "fn": Binary(b"code", 1)},
    {"old": Binary(b"\x01\x02\x03\x04\x05", 2), "old_empty": Binary(b"", 2)},
    {"uuid_old": Binary(bytes(range(16)), 3), "uuid": Binary(bytes(range(16, 32)), 4), "md5": Binary(bytes(16), 5)},
    {"encrypted": Binary(b"\x00" * 40, 6), "column": Binary(b"\x01" * 7, 7), "sensitive": Binary(b"x", 8), "vector": Binary(b"\x03\x00\x01\x02", 9), "user": Binary(b"custom", 0x80), "user_ff": Binary(b"\xff", 0xFF)},
    {"re": Regex("^ab+c$", "i"), "re2": Regex("a.b", "imsux"), "re_empty": Regex("", ""), "re_uni": Regex("é+", "u")},
    {"ts": Timestamp(0, 0), "ts2": Timestamp(1700000000, 7), "tsmax": Timestamp(4294967295, 4294967295)},
    {"min": MinKey(), "max": MaxKey()},
    {"code": Code("function() { return 1; }"), "code_empty": Code("")},
    {"scoped": Code("function() { return x; }", {"x": 1}), "scoped_empty": Code("f()", {}), "scoped_nested": Code("g(y)", {"y": {"z": [1, 2]}})},
    {"arr": [1, "two", 3.0, None, True, [4], {"five": 5}]},
]

# Arrays around the index digit boundaries.
for n in (9, 10, 11, 99, 100, 101, 999, 1000, 1001):
    docs.append({"n": n, "ints": list(range(n))})
docs.append({"strings": ["x" * (i % 7) for i in range(1000)]})
docs.append({"oids": [oid() for _ in range(100)]})
docs.append({"docs": [{"i": i, "name": f"item {i}"} for i in range(100)]})
docs.append({"longs": [Int64(i * 3_000_000_000) for i in range(10)]})

# Deep nesting: 1, 2, 50, 100 (the limit) and 101 (one over).
for depth in (2, 50, 100, 101):
    docs.append(nested(depth))
docs.append(nested_arrays(100))
docs.append(nested_arrays(101))

# Long values.
docs.append({"long_string": "a" * 100_000})
docs.append({"long_unicode": "é" * 10_000, "long_key_" + "k" * 200: 1})
docs.append({"blob": Binary(bytes(rnd.randrange(256) for _ in range(65_536)), 0)})

# From the articles in shared/seeds/.
# 000: social graph, followers embedded in the producer, overflow in `tbc`.
docs.append({"_id": oid(), "username": "batman", "email": "batman@waynetech.com", "following": [oid(), oid()]})
docs.append({"_id": oid(), "username": "joker", "email": "joker@mailinator.com", "followers": [oid() for _ in range(3)]})
docs.append({"_id": oid(), "username": "wil", "email": "wil@example.com", "tbc": [oid(), oid()], "followers": [oid() for _ in range(1000)]})
docs.append({"_id": oid(), "followers": [oid() for _ in range(1000)]})
# 001: order with embedded items and a stored total; blog post; page analytics (6 hours,
# per-minute counters); game inventory as keyed sub-documents and as an array.
docs.append({"_id": oid(), "customer": "Kate Monster", "ordered_at": date(1704067200000),
             "address": {"street": "123 Sesame St", "city": "Anytown", "cc": "USA"},
             "items": [{"sku": "A-1", "name": "left-handed smoke shifter", "qty": 2, "price": Decimal128("19.99")},
                       {"sku": "B-7", "name": "#4 grommet", "qty": 10, "price": Decimal128("0.94")}],
             "total": Decimal128("49.38")})
docs.append({"_id": oid(), "title": "Schema design", "author": "kristina", "slug": "schema-design",
             "date": date(1262304000000), "tags": ["mongodb", "schema"], "text": "Lorem ipsum " * 50})
docs.append({"_id": oid(), "threadId": oid(), "date": date(1262304000123), "author": "anon", "text": "first post!"})
docs.append({"_id": "pageId", "start": date(1262304000000),
             "visits": {"minutes": [[0] * 60 for _ in range(6)], "hours": [0] * 6}})
docs.append({"_id": "pageId2", "start": date(1262325600000),
             "visits": {"minutes": [[rnd.randrange(100000) for _ in range(60)] for _ in range(6)], "hours": [Int64(rnd.randrange(10**10)) for _ in range(6)]}})
docs.append({"_id": "fred", "items": {"slingshot": {"type": "weapon", "damage": 23, "ranged": True},
                                      "jar": {"type": "container", "contains": "fairy"},
                                      "sword": {"type": "weapon", "damage": 50, "ranged": False}}})
docs.append({"_id": "fred", "items": [{"id": "slingshot", "type": "weapon", "damage": 23, "ranged": True},
                                      {"id": "jar", "type": "container", "contains": "fairy"},
                                      {"id": "sword", "type": "weapon", "damage": 50, "ranged": False}]})
docs.append({"_id": "apple", "count": 7, "total": 3.5})
# 002: one-to-few, one-to-many, one-to-squillions.
docs.append({"name": "Kate Monster", "ssn": "123-456-7890",
             "addresses": [{"street": "123 Sesame St", "city": "Anytown", "cc": "USA"},
                           {"street": "123 Avenue Q", "city": "New York", "cc": "USA"}]})
docs.append({"_id": oid(), "partno": "123-aff-456", "name": "#4 grommet", "qty": 94, "cost": 0.94, "price": 3.99})
docs.append({"name": "left-handed smoke shifter", "manufacturer": "Acme Corp", "catalog_number": 1234, "parts": [oid() for _ in range(3)]})
docs.append({"name": "left-handed smoke shifter", "manufacturer": "Acme Corp", "catalog_number": 1234,
             "parts": [{"id": oid(), "name": n} for n in ("#4 grommet", "fan blade assembly", "power switch")]})
docs.append({"time": date(1396000961382), "message": "cpu is on fire!", "ipaddr": "127.66.66.66", "host": oid()})
docs.append({"_id": oid(), "name": "Kate Monster", "tasks": [oid() for _ in range(3)]})
docs.append({"_id": oid(), "description": "Write lesson plan", "due_date": date(1396310400000), "owner": oid()})
# 003: movie showing prices per channel, three ways.
docs.append({"scheduleId": "0001", "movie": "你的名字", "price": {"gewala": 30, "maoyan": 50, "taopiao": 20}})
docs.append({"scheduleId": "0001", "movie": "你的名字", "channel": "gewala", "price": 30})
docs.append({"scheduleId": "0001", "movie": "你的名字",
             "provider": [{"channel": "gewala", "price": 30}, {"channel": "maoyan", "price": 50}, {"channel": "taopiao", "price": 20}]})
# 004: social feed: fan-out on read, on write, bucketed (50 activities per document).
docs.append({"author": "Eisneim", "to": ["Terry", "Jane"], "date": date(1700000000000), "type": "publish", "content": "一条新微博的内容"})
docs.append({"owner": "Terry", "author": "Eisneim", "date": date(1700000000000), "type": "publish", "content": "一条新微博的内容"})
docs.append({"owner": oid(), "sequence": 3, "activities": [
    {"author": oid(), "date": date(1700000000000 + i * 60000), "type": "publish", "content": f"微博 {i}"} for i in range(50)]})


def main():
    options = json_util.CANONICAL_JSON_OPTIONS
    lines = [json_util.dumps(doc, json_options=options, ensure_ascii=False) for doc in docs]
    CORPUS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} documents to {CORPUS.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
