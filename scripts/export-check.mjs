// Checks `squillion export` folders with MongoDB's own JavaScript BSON library:
//   node scripts/export-check.mjs DIR [DIR…]
// For each folder: every line of every collection file parses with npm bson's EJSON
// (canonical Extended JSON), the document counts and BSON sizes (BSON.calculateObjectSize)
// match manifest.json, every document satisfies its collection's $jsonSchema validator
// (checked with ajv, taught MongoDB's `bsonType` keyword), and setup.js and workload.js are
// valid JavaScript (node --check). Files are read line by line, so large exports are fine.
// Prints "N passed, M failed" and exits 1 on any failure.
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
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
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
