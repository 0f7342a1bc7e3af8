// Writes what the CLI says about every preset's every offered design, for the end-to-end test
// that compares the playground's numbers with it (e2e/evaluation.test.mjs):
//
//   node scripts/expected-evals.mjs BIN OUT
//
// OUT/index.json is `BIN presets --json`; OUT/NAME/DESIGN.json is
// `BIN eval --preset NAME --design DESIGN --json` (exit 1, "an error-severity warning", is a
// valid evaluation), and OUT/NAME/custom.json the model's own design (`--design custom`). The timings of each evaluation are printed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [bin, out] = process.argv.slice(2);
if (!bin || !out) {
  console.error('usage: node scripts/expected-evals.mjs BIN OUT');
  process.exit(2);
}
const presets = JSON.parse(execFileSync(bin, ['presets', '--json'], { encoding: 'utf8' }));
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'index.json'), JSON.stringify(presets, null, 2));
let count = 0;
for (const p of presets) {
  mkdirSync(join(out, p.name), { recursive: true });
  // The design bar's Custom, before it is touched, is the preset file's own design
  // (`--design custom`).
  for (const design of [...p.designs, 'custom']) {
    const t0 = performance.now();
    const run = spawnSync(bin, ['eval', '--preset', p.name, '--design', design, '--json'], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.status !== 0 && run.status !== 1) {
      console.error(`${p.name} ${design}: exit ${run.status}\n${run.stderr}`);
      process.exit(1);
    }
    JSON.parse(run.stdout); // fails loudly on anything but JSON
    writeFileSync(join(out, p.name, `${design}.json`), run.stdout);
    count += 1;
    console.log(`${p.name} ${design}: ${Math.round(performance.now() - t0)} ms`);
  }
}
console.log(`${count} evaluations of ${presets.length} presets written to ${out}`);
