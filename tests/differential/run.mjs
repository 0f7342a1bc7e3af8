// Evaluates query cases with mingo (a JavaScript implementation of MongoDB queries) for the
// differential test in tests/suite/differential_mingo.rs.
//
// Input (argv[2]): canonical Extended JSON {"docs": [...], "cases": [{"filter", "sort"?,
// "projection"?}]}. Output: one JSON line per case, in order: {"ids": [...]} (the _ids in
// result order) plus "docs" when the case has a projection, or {"error": "..."}.
import fs from "node:fs";
import mingo from "mingo";
import "mingo/init/system";

function fromEjson(v) {
  if (Array.isArray(v)) return v.map(fromEjson);
  if (v === null || typeof v !== "object") return v;
  if ("$numberInt" in v) return Number(v.$numberInt);
  if ("$numberLong" in v) return Number(v.$numberLong);
  if ("$numberDouble" in v) return Number(v.$numberDouble);
  if ("$regularExpression" in v) return new RegExp(v.$regularExpression.pattern, v.$regularExpression.options);
  if ("$date" in v) return new Date(Number(v.$date.$numberLong));
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = fromEjson(x);
  return out;
}

function toJson(v) {
  return JSON.stringify(v, (_, x) => (typeof x === "number" && !Number.isFinite(x) ? String(x) : x));
}

const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const docs = input.docs.map(fromEjson);
const lines = [];
for (const c of input.cases) {
  try {
    let cursor = mingo.find(docs, fromEjson(c.filter), c.projection ? fromEjson(c.projection) : undefined);
    if (c.sort) cursor = cursor.sort(fromEjson(c.sort));
    const out = cursor.all();
    const line = { ids: out.map((d) => (d._id === undefined ? null : d._id)) };
    if (c.projection) line.docs = out;
    lines.push(toJson(line));
  } catch (e) {
    lines.push(toJson({ error: String(e && e.message) }));
  }
}
process.stdout.write(lines.join("\n") + "\n");
