// Runs mongodb-schema (the analyzer behind Compass's schema tab) on mongoexport lines, for the
// peer check in tests/suite/infer_peer.rs.
//
// Input (argv[2]): canonical Extended JSON, one document per line. Output: one JSON object,
// path → {probability, types: {alias: probability}, lengths?: {min, max, total, arrays}}, with
// paths written as `squillion infer` writes them (`meta.a`, `tags.[]`, `items.[].sku`):
// `probability` is the share of the enclosing documents holding the field (1 for array
// elements), each type's probability the share of the enclosing documents (of the elements
// for array elements) holding a value of that type.
import fs from 'node:fs';
import { EJSON } from 'bson';
import { parseSchema } from 'mongodb-schema';

const ALIAS = {
  Int32: 'int', Double: 'double', Long: 'long', String: 'string', Boolean: 'bool', Date: 'date',
  ObjectId: 'objectId', Document: 'object', Array: 'array', Null: 'null', Decimal128: 'decimal',
  Binary: 'binData', Timestamp: 'timestamp', BSONRegExp: 'regex', RegExp: 'regex', Code: 'javascript',
  MinKey: 'minKey', MaxKey: 'maxKey',
};

const docs = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.trim()).map((l) => EJSON.parse(l, { relaxed: false }));
const schema = await parseSchema(docs);
const out = {};

function types(path, list) {
  for (const t of list) {
    if (t.bsonType === 'Undefined') continue;
    out[path].types[ALIAS[t.bsonType] ?? t.bsonType] = t.probability;
    if (t.bsonType === 'Document') fields(path, t.fields);
    if (t.bsonType === 'Array') {
      const lengths = t.lengths;
      out[path].lengths = { min: lengths.reduce((a, b) => Math.min(a, b), Infinity), max: lengths.reduce((a, b) => Math.max(a, b), 0), total: t.totalCount, arrays: lengths.length };
      const el = `${path}.[]`;
      out[el] = { probability: 1, types: {} };
      types(el, t.types);
    }
  }
}

function fields(prefix, list) {
  for (const f of list) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    out[path] = { probability: f.probability, types: {} };
    types(path, f.types);
  }
}

fields('', schema.fields);
console.log(JSON.stringify({ count: docs.length, fields: out }));
