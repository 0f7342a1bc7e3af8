// The export check of `squillion migrate`'s scripts, on a peer engine: each plan's migrate.js
// runs, as mongosh would run it, against the source design's exported sample held by mingo
// (npm), and the result must have the target design's collections and fields.
//
//   node scripts/migrate-check.mjs BIN [PRESET:FROM:TO…]
//
// Without pairs: every ordered pair of every preset's designs (`BIN presets --json`) that
// `BIN migrate` plans (the refused ones are counted and skipped: tests/suite/migrate.rs checks
// that they are refused with a reason). For each pair: `BIN export --preset PRESET --design FROM` (the sample, canonical Extended
// JSON, and setup.js), `BIN migrate … --out` (migrate.js) and `BIN export … --design TO` (what
// the result must look like). The stand-in `db` answers what the script asks with mingo:
// find(…).sort(…).limit(…).toArray() for the batches, aggregate (every stage one mongod knows,
// `$merge` last, its options as mongod takes them, `$lookup` and `$merge` resolved by name),
// updateMany (update operators or a pipeline), createIndex, dropIndex (of an index that
// exists), drop. After the script: the same non-empty collections as the target's export, every
// collection's top-level fields the same as the target's documents have, and no document of
// a collection without a parent array left with the source's array or reference.
// Prints "N passed, M failed" and exits 1 on any failure (or when no pair is planned).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import vm from "node:vm";
import { EJSON, ObjectId } from "bson";
import mingo from "mingo";

/** The aggregation stages mongod accepts that a migration may use. */
const STAGES = new Set([
  "$match", "$project", "$addFields", "$set", "$unset", "$unwind", "$group", "$sort", "$limit",
  "$skip", "$lookup", "$replaceRoot", "$replaceWith", "$merge", "$out", "$count", "$facet",
]);
/** `$merge`'s options and the values mongod takes for them. */
const MERGE_WHEN_MATCHED = new Set(["replace", "keepExisting", "merge", "fail"]);
const MERGE_WHEN_NOT_MATCHED = new Set(["insert", "discard", "fail"]);
const UPDATE_OPERATORS = new Set(["$set", "$unset", "$rename", "$inc", "$push", "$pull", "$addToSet"]);

/** A value of the sample as mingo holds it: ObjectIds as their hex (they sort and compare
 * alike), dates as Dates, numbers as numbers. */
function plain(v) {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== "object" || v instanceof Date) return v;
  if (v._bsontype === "ObjectId") return v.toHexString();
  if (v._bsontype === "Int32" || v._bsontype === "Double") return v.valueOf();
  if (v._bsontype === "Long") return Number(v.toString());
  if (v._bsontype) return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = plain(x);
  return out;
}

/** Runs `bin args`, asserting an exit code of 0 (or 1 when `allowOne`). */
function run(bin, args, allowOne = false) {
  const r = spawnSync(bin, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, LANG: "C" } });
  if (!(r.status === 0 || (allowOne && r.status === 1))) {
    throw new Error(`${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  }
  return r;
}

/** Reads an export folder: its collections' documents by name, and the indexes setup.js makes. */
function readExport(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  const collections = new Map();
  for (const c of manifest.collections) {
    const text = readFileSync(join(dir, c.file), "utf8");
    const docs = text.split("\n").filter((l) => l.trim()).map((l) => plain(EJSON.parse(l, { relaxed: false })));
    collections.set(c.name, docs);
  }
  const indexes = new Map();
  const setup = readFileSync(join(dir, "setup.js"), "utf8");
  for (const m of setup.matchAll(/db\.getCollection\("([^"]+)"\)\.createIndex\((\{[^)]*?\})/g)) {
    const keys = JSON.stringify(JSON.parse(m[2]));
    indexes.set(m[1], [...(indexes.get(m[1]) ?? []), keys]);
  }
  return { collections, indexes };
}

/** Returns a stand-in `db` over `data` (collections by name) that checks what it is asked; the
 * problems found go into `problems`. */
function standIn(data, indexes, problems) {
  const coll = (name) => {
    if (!data.has(name)) data.set(name, []);
    return data.get(name);
  };
  const resolve = (name) => {
    if (typeof name !== "string") problems.push(`a stage names a collection by ${JSON.stringify(name)}, not by its name`);
    return coll(name);
  };
  const checkPipeline = (name, pipeline) => {
    pipeline.forEach((stage, i) => {
      const keys = Object.keys(stage);
      if (keys.length !== 1 || !STAGES.has(keys[0])) problems.push(`${name}.aggregate: stage ${i} is not one mongod knows: ${JSON.stringify(stage)}`);
      if (keys[0] === "$merge") {
        const m = stage.$merge;
        if (i !== pipeline.length - 1) problems.push(`${name}.aggregate: $merge is not the last stage`);
        if (typeof m.into !== "string" || m.into === "") problems.push(`${name}.aggregate: $merge.into ${JSON.stringify(m.into)}`);
        if (m.whenMatched !== undefined && !MERGE_WHEN_MATCHED.has(m.whenMatched) && !Array.isArray(m.whenMatched)) problems.push(`${name}.aggregate: $merge.whenMatched ${m.whenMatched}`);
        if (m.whenNotMatched !== undefined && !MERGE_WHEN_NOT_MATCHED.has(m.whenNotMatched)) problems.push(`${name}.aggregate: $merge.whenNotMatched ${m.whenNotMatched}`);
        if (m.on !== undefined && m.on !== "_id") {
          // mongod needs a unique index on `on` other than _id.
          const unique = (indexes.get(m.into) ?? []).some((k) => k === JSON.stringify({ [m.on]: 1 }));
          if (!unique) problems.push(`${name}.aggregate: $merge on ${m.on} without a unique index on it`);
        }
      }
      if (keys[0] === "$lookup" && typeof stage.$lookup.from !== "string") problems.push(`${name}.aggregate: $lookup.from is not a name`);
    });
  };
  const collection = (name) => ({
    find(filter = {}, projection = {}) {
      let sort = null;
      let limit = 0;
      const cursor = {
        sort(s) { sort = s; return cursor; },
        limit(n) { limit = n; return cursor; },
        toArray() {
          let c = mingo.find(coll(name), plain(filter), plain(projection));
          if (sort) c = c.sort(sort);
          if (limit) c = c.limit(limit);
          return c.all();
        },
      };
      return cursor;
    },
    aggregate(pipeline) {
      const p = plain(pipeline);
      checkPipeline(name, p);
      const last = p[p.length - 1];
      if (!last || !("$merge" in last)) return mingo.aggregate(coll(name), p, { collectionResolver: resolve });
      // mongod's $merge gives a result document without _id a new ObjectId (the manual's
      // "_id Field Generation"); mingo's inserts it without one.
      const results = mingo.aggregate(coll(name), p.slice(0, -1), { collectionResolver: resolve });
      for (const r of results) if (!("_id" in r)) r._id = new ObjectId().toHexString();
      return mingo.aggregate(results, [last], { collectionResolver: resolve });
    },
    updateMany(filter, update) {
      const u = plain(update);
      if (!Array.isArray(u)) {
        for (const op of Object.keys(u)) if (!UPDATE_OPERATORS.has(op)) problems.push(`${name}.updateMany: ${op} is not an update operator`);
      }
      return mingo.updateMany(coll(name), plain(filter), u);
    },
    createIndex(keys) {
      const k = JSON.stringify(keys);
      const have = indexes.get(name) ?? [];
      if (have.includes(k)) problems.push(`${name}.createIndex(${k}): the index exists already`);
      indexes.set(name, [...have, k]);
      coll(name);
      return `${Object.entries(keys).map(([f, d]) => `${f}_${d}`).join("_")}`;
    },
    dropIndex(keys) {
      const k = JSON.stringify(keys);
      const have = indexes.get(name) ?? [];
      if (!have.includes(k)) problems.push(`${name}.dropIndex(${k}): no such index (mongod: IndexNotFound)`);
      indexes.set(name, have.filter((x) => x !== k));
    },
    drop() {
      if (!data.has(name)) problems.push(`${name}.drop(): no such collection`);
      data.delete(name);
      indexes.delete(name);
      return true;
    },
  });
  return new Proxy({}, {
    get(_, prop) {
      if (prop === "getCollection") return (n) => collection(n);
      if (typeof prop !== "string") return undefined;
      return collection(prop);
    },
  });
}

/** Returns the union of the top-level field names of `docs`, sorted. */
const fieldsOf = (docs) => [...new Set(docs.flatMap((d) => Object.keys(d)))].sort();

/** Checks one pair; returns its problems (none: passed), or null when the pair is refused. */
function checkPair(bin, preset, from, to) {
  const dir = mkdtempSync(join(tmpdir(), "squillion-migrate-check-"));
  const problems = [];
  try {
    const planned = run(bin, ["migrate", "--preset", preset, "--from", from, "--to", to, "--out", join(dir, "plan")], true);
    if (planned.status === 1) return null;
    const exportOf = (design) => {
      const out = join(dir, `export-${design}`);
      // Exit 1 only says a document is over 16 MiB: the files are still written.
      run(bin, ["export", "--preset", preset, "--design", design, "--max-documents", "100", "--max-elements", "100", "--out", out], true);
      return readExport(out);
    };
    const source = exportOf(from);
    const target = exportOf(to);
    const script = readFileSync(join(dir, "plan", "migrate.js"), "utf8");
    const printed = [];
    const context = vm.createContext({
      db: standIn(source.collections, source.indexes, problems),
      print: (...a) => printed.push(a.join(" ")),
      EJSON: { stringify: (v) => JSON.stringify(v) },
    });
    vm.runInContext(script, context, { filename: "migrate.js", timeout: 120_000 });
    const after = source.collections;
    const names = (m) => [...m.entries()].filter(([, d]) => d.length > 0).map(([n]) => n).sort();
    const got = names(after);
    const want = names(target.collections);
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`collections ${got} after the script, ${want} in ${to}`);
    for (const name of want) {
      const g = fieldsOf(after.get(name) ?? []);
      const w = fieldsOf(target.collections.get(name));
      if (JSON.stringify(g) !== JSON.stringify(w)) problems.push(`${name}: fields ${g} after the script, ${w} in ${to}`);
    }
    const plan = JSON.parse(readFileSync(join(dir, "plan", "plan.json"), "utf8"));
    const deploys = plan.steps.some((s) => s.command.startsWith("// the application"));
    if (deploys && !printed.some((l) => l.includes("deploy the application"))) problems.push("the script never reached the switch");
  } catch (e) {
    problems.push(String(e?.stack ?? e));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

const [bin, ...asked] = process.argv.slice(2);
if (!bin) {
  console.error("usage: node scripts/migrate-check.mjs BIN [PRESET:FROM:TO…]");
  process.exit(2);
}
/** Every ordered pair of every preset's designs. */
function everyPair() {
  const presets = JSON.parse(run(bin, ["presets", "--json"]).stdout);
  return presets.flatMap((p) => {
    const ids = p.designs.map((d) => (typeof d === "string" ? d : d.id));
    return ids.flatMap((a) => ids.filter((b) => b !== a).map((b) => `${p.name}:${a}:${b}`));
  });
}
const pairs = asked.length > 0 ? asked : everyPair();
let passed = 0;
let failed = 0;
let refused = 0;
for (const pair of pairs) {
  const [preset, from, to] = pair.split(":");
  const problems = checkPair(bin, preset, from, to);
  if (problems === null) {
    refused += 1;
  } else if (problems.length === 0) {
    passed += 1;
    console.log(`ok ${preset} ${from} → ${to}`);
  } else {
    failed += 1;
    console.log(`FAIL ${preset} ${from} → ${to}\n  ${problems.slice(0, 8).join("\n  ")}`);
  }
}
console.log(`${passed} passed, ${failed} failed (${refused} pairs refused by the planner, not checked)`);
// No pair planned is a failure too: the check would then check nothing.
process.exit(failed === 0 && passed > 0 ? 0 : 1);
