// Runs $out / $merge cases with mingo for the write differential test in
// tests/suite/differential_mingo.rs (engine_writes_agree_with_mingo).
//
// Input (argv[2]): canonical Extended JSON {"cases": [{"source": [...], "target": [...],
// "same": bool, "pipeline": [...], "stage": {"$out": ...} | {"$merge": ...}}]}. The pipeline
// reads a copy of `source`; the stage writes into `target` (a copy of `source` when `same`),
// as the engine materializes the pipeline's output before writing. $out gets an empty array
// (the engine's $out replaces the collection; mingo's appends to what it is given), and the
// stage's target is always named "t" (mingo resolves only string names).
// Output: one JSON line per case: {"target": [...]} (the written collection) or {"error"}.
import fs from "node:fs";
import mingo from "mingo";
import "mingo/init/system";

function fromEjson(v) {
  if (Array.isArray(v)) return v.map(fromEjson);
  if (v === null || typeof v !== "object") return v;
  if ("$numberInt" in v) return Number(v.$numberInt);
  if ("$numberLong" in v) return Number(v.$numberLong);
  if ("$numberDouble" in v) return Number(v.$numberDouble);
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = fromEjson(x);
  return out;
}

const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const lines = [];
for (const c of input.cases) {
  try {
    const source = fromEjson(c.source);
    let target = c.same ? fromEjson(c.source) : fromEjson(c.target);
    let stage = fromEjson(c.stage);
    if ("$out" in stage) {
      target = [];
      stage = { $out: "t" };
    } else {
      const spec = typeof stage.$merge === "string" ? { into: stage.$merge } : { ...stage.$merge };
      spec.into = "t";
      stage = { $merge: spec };
    }
    const pipeline = [...fromEjson(c.pipeline), stage];
    mingo.aggregate(source, pipeline, { collectionResolver: () => target });
    lines.push(JSON.stringify({ target }));
  } catch (e) {
    lines.push(JSON.stringify({ error: String(e && e.message) }));
  }
}
process.stdout.write(lines.join("\n") + "\n");
