// Checks `squillion export` folders with MongoDB's own JavaScript BSON library:
//   node scripts/export-check.mjs DIR [DIR…]
// For each folder: every line of every collection file parses with npm bson's EJSON
// (canonical Extended JSON), the document counts and BSON sizes (BSON.calculateObjectSize)
// match manifest.json, every document satisfies its collection's $jsonSchema validator
// (checked with ajv, taught MongoDB's `bsonType` keyword), and setup.js and workload.js are
// valid JavaScript (node --check), and setup.js, run against a stand-in `db`, asks only what
// mongod accepts (time-series and index options, no `system.` collection by hand, every
// collection created). Files are read line by line, so large exports are fine.
// Prints "N passed, M failed" and exits 1 on any failure.
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import vm from "node:vm";
import { BSON, EJSON } from "bson";
import Ajv from "ajv";

/** The BSON type alias ($type / bsonType) of a value parsed with EJSON in canonical mode. */
function bsonTypeOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (v instanceof Date) return "date";
  if (v instanceof RegExp) return "regex";
  switch (typeof v) {
    case "string": return "string";
    case "boolean": return "bool";
    case "number": return Number.isInteger(v) ? "int" : "double";
    case "bigint": return "long";
  }
  const types = {
    ObjectId: "objectId", Int32: "int", Long: "long", Double: "double", Decimal128: "decimal",
    Binary: "binData", Timestamp: "timestamp", BSONRegExp: "regex", Code: "javascript",
    MinKey: "minKey", MaxKey: "maxKey",
  };
  return types[v._bsontype] ?? "object";
}

const ajv = new Ajv({ strict: false, allErrors: false });
// MongoDB's $jsonSchema says `bsonType` where JSON Schema says `type`; `number` matches any
// numeric type, as in MongoDB.
ajv.addKeyword({
  keyword: "bsonType",
  errors: false,
  validate(schema, data) {
    const want = Array.isArray(schema) ? schema : [schema];
    const got = bsonTypeOf(data);
    return want.includes(got) ||
      (want.includes("number") && ["int", "long", "double", "decimal"].includes(got));
  },
});

/** The options `createCollection` accepts for a time-series collection, as mongod checks them. */
const GRANULARITIES = ["seconds", "minutes", "hours"];
function timeseriesProblem(ts) {
  if (typeof ts !== "object" || ts === null) return "timeseries must be an object";
  const known = ["timeField", "metaField", "granularity", "bucketMaxSpanSeconds", "bucketRoundingSeconds"];
  const unknown = Object.keys(ts).filter((k) => !known.includes(k));
  if (unknown.length) return `unknown timeseries option(s) ${unknown}`;
  if (typeof ts.timeField !== "string" || ts.timeField === "") return "timeField must be a non-empty string";
  if (ts.metaField !== undefined && (typeof ts.metaField !== "string" || ts.metaField === ts.timeField)) {
    return "metaField must be a string other than timeField";
  }
  if (ts.granularity !== undefined && !GRANULARITIES.includes(ts.granularity)) {
    return `granularity ${ts.granularity} is not one of ${GRANULARITIES}`;
  }
  if ((ts.bucketMaxSpanSeconds !== undefined) !== (ts.bucketRoundingSeconds !== undefined) ||
      (ts.bucketMaxSpanSeconds !== undefined && ts.bucketMaxSpanSeconds !== ts.bucketRoundingSeconds) ||
      (ts.bucketMaxSpanSeconds !== undefined && ts.granularity !== undefined)) {
    return "bucketMaxSpanSeconds and bucketRoundingSeconds go together, equal, without granularity";
  }
  return null;
}

/** The options `createIndex` accepts here (mongod's, those an export uses). */
function indexOptionsProblem(o) {
  if (o === undefined) return null;
  const known = ["name", "unique", "sparse", "partialFilterExpression", "collation"];
  const unknown = Object.keys(o).filter((k) => !known.includes(k));
  if (unknown.length) return `unknown createIndex option(s) ${unknown}`;
  if (o.collation !== undefined) {
    const c = o.collation;
    if (typeof c.locale !== "string") return "collation.locale must be a string";
    if (c.strength !== undefined && !(Number.isInteger(c.strength) && c.strength >= 1 && c.strength <= 5)) {
      return "collation.strength must be an integer from 1 to 5";
    }
  }
  return null;
}

/**
 * Runs setup.js against a stand-in `db` that records what it asks for, and checks it as mongod
 * would without a server: no `system.` collection created by hand, time-series options valid,
 * index options valid, two indexes on the same keys told apart by name, and every collection
 * of the manifest created (a time series' `system.buckets.<name>` by `createCollection(name,
 * { timeseries })`).
 */
function checkSetup(dir, manifest) {
  const created = new Map();
  const indexes = [];
  const db = {
    createCollection(name, options = {}) {
      created.set(name, options);
    },
    getCollection(name) {
      return {
        createIndex(keys, options) {
          indexes.push({ collection: name, keys, options });
        },
      };
    },
    adminCommand() {
      return { isdbgrid: 0 };
    },
    getName() {
      return "squillion";
    },
  };
  const sandbox = { db, sh: {}, print() {} };
  try {
    vm.runInNewContext(readFileSync(join(dir, "setup.js"), "utf8"), sandbox, { timeout: 10000 });
  } catch (e) {
    check(false, `${dir}/setup.js: ${e}`);
    return;
  }
  for (const [name, options] of created) {
    check(!name.startsWith("system."), `${dir}/setup.js: createCollection(${name}): a system collection`);
    if (options.timeseries !== undefined) {
      const p = timeseriesProblem(options.timeseries);
      check(p === null, `${dir}/setup.js: createCollection(${name}): ${p}`);
    }
  }
  for (const ix of indexes) {
    const p = indexOptionsProblem(ix.options);
    check(p === null, `${dir}/setup.js: ${ix.collection}.createIndex(${JSON.stringify(ix.keys)}): ${p}`);
    const same = indexes.filter((x) => x.collection === ix.collection && JSON.stringify(x.keys) === JSON.stringify(ix.keys));
    const names = new Set(same.map((x) => x.options?.name ?? "default"));
    check(names.size === same.length, `${dir}/setup.js: ${ix.collection}: two indexes on ${JSON.stringify(ix.keys)} with the same name`);
  }
  for (const c of manifest.collections) {
    const view = c.name.startsWith("system.buckets.") ? c.name.slice("system.buckets.".length) : null;
    const ok = view === null ? created.has(c.name) : created.get(view)?.timeseries !== undefined;
    check(ok, `${dir}/setup.js: collection ${c.name} is not created`);
  }
}

let passed = 0;
let failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else {
    failed++;
    console.error(`FAIL ${what}`);
  }
}

for (const dir of process.argv.slice(2)) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  for (const c of manifest.collections) {
    const validate = ajv.compile(c.validator);
    let count = 0, bytes = 0, invalid = 0, firstError = "";
    const lines = createInterface({ input: createReadStream(join(dir, c.file)), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line === "") continue;
      const doc = EJSON.parse(line, { relaxed: false });
      count++;
      bytes += BSON.calculateObjectSize(doc);
      if (!validate(doc)) {
        invalid++;
        firstError ||= `${line.slice(0, 200)}: ${ajv.errorsText(validate.errors)}`;
      }
    }
    check(count === c.documents, `${dir}/${c.file}: ${count} documents, manifest says ${c.documents}`);
    check(bytes === c.bson_bytes, `${dir}/${c.file}: ${bytes} BSON bytes, manifest says ${c.bson_bytes}`);
    check(invalid === 0, `${dir}/${c.file}: ${invalid} document(s) fail $jsonSchema, first ${firstError}`);
  }
  for (const js of ["setup.js", "workload.js"]) {
    const r = spawnSync(process.execPath, ["--check", join(dir, js)], { encoding: "utf8" });
    check(r.status === 0, `${dir}/${js}: node --check: ${r.stderr}`);
  }  checkSetup(dir, manifest);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
