// End-to-end: `squillion diagram --format mermaid` is Mermaid that Mermaid itself reads. The
// CLI's output for a few presets' designs (and a model's diagram, and one in Chinese) is
// parsed (`mermaid.parse`) and drawn (`mermaid.render`) by npm's mermaid in headless Chromium,
// and the drawing names what the design holds; every preset's every design is parsed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { launch } from './browser.mjs';
import { BIN, readPresets } from './cli.mjs';

const MERMAID = 'node_modules/mermaid/dist/mermaid.min.js';

let browser;
let page;

before(async () => {
  assert.ok(existsSync(MERMAID), `${MERMAID} is missing: npm install`);
  browser = await launch();
  page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ path: MERMAID });
  await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false }));
});

after(async () => {
  await browser?.close();
});

/** Returns `squillion diagram ARGS` (Mermaid), asserting exit 0. */
function diagram(args) {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build --profile ci --bin squillion (docs/testing.md)`);
  const run = spawnSync(BIN, ['diagram', ...args], { encoding: 'utf8', env: { ...process.env, LANG: 'C' } });
  assert.equal(run.status, 0, `${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return run.stdout;
}

/** Parses and renders `source` with Mermaid; returns the SVG, or throws Mermaid's error. */
async function render(source, id) {
  return page.evaluate(
    async ({ source, id }) => {
      const parsed = await window.mermaid.parse(source);
      if (!parsed) throw new Error('mermaid.parse returned false');
      const { svg } = await window.mermaid.render(id, source);
      return svg;
    },
    { source, id },
  );
}

const CASES = [
  // [args, texts the drawing must show]
  [['presets/blog.json', '--design', 'one-query'], ['post.comments', 'author_name', 'unbounded']],
  [['presets/blog.json', '--design', 'normalized'], ['comment', 'postId']],
  [['presets/blog.json'], ['author', 'comments']],
  [['--preset', 'message-attachments', '--design', 'gridfs'], ['fs.files', 'fs.chunks', 'GridFS chunks', 'files_id']],
  [['--preset', 'host-logs', '--design', 'time-series'], ['system.buckets.logmsg', 'time-series buckets']],
  [['--preset', 'social-graph', '--design', 'tbc'], ['tbc', 'followers continuation']],
  [['--preset', 'category-tree', '--design', 'array-of-ancestors'], ['ancestors']],
  [['--preset', 'shopping-cart', '--design', 'snapshot'], ['copy of']],
  [['--preset', 'social-feed', '--design', 'bucketed'], ['activities']],
  [['--preset', 'blog', '--design', 'one-query', '--lang', 'zh-CN'], ['post.comments', '内嵌']],
  // What moved since another design, as the second member of the marked boxes.
  [['--preset', 'blog', '--design', 'one-query', '--since', 'normalized'], ['✚ not in normalized', '± changed from normalized']],
  [['--preset', 'message-attachments', '--design', 'gridfs', '--since', 'embedded', '--lang', 'zh-CN'], ['fs.chunks', '中没有']],
];

for (const [i, [args, texts]] of CASES.entries()) {
  test(`mermaid parses and draws squillion diagram ${args.join(' ')}`, async () => {
    const source = diagram(args);
    assert.match(source, /^classDiagram\n/);
    const svg = await render(source, `d${i}`);
    assert.match(svg, /^<svg/);
    for (const t of texts) assert.ok(svg.includes(t), `the drawing shows ${t}`);
  });
}

test('mermaid refuses a broken diagram (the check can fail)', async () => {
  const source = diagram(['presets/blog.json', '--design', 'normalized']).replace('-->', '-->>>');
  await assert.rejects(render(source, 'broken'));
});

test('mermaid parses the diagram of every design of every preset, and every model diagram', async () => {
  let parsed = 0;
  for (const { name, designs } of readPresets()) {
    for (const design of [null, ...designs, 'custom']) {
      const args = ['--preset', name, ...(design ? ['--design', design] : [])];
      const source = diagram(args);
      const ok = await page.evaluate(async (s) => {
        try {
          return String(await window.mermaid.parse(s));
        } catch (e) {
          return String(e);
        }
      }, source);
      assert.ok(ok !== 'false' && !ok.startsWith('Error'), `${args.join(' ')}: ${ok}`);
      parsed += 1;
    }
  }
  assert.ok(parsed > 60, `${parsed} diagrams parsed`);
});
