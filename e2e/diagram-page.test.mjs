// End-to-end: the playground's Diagram view. The switch beside the collection cards shows the
// chosen design drawn by the tools module's worker: its boxes are the design's collections (the
// golden evaluation's) and say what `squillion diagram --format svg` says; switching designs
// redraws it; "Download SVG" is the CLI's picture, "Download PNG" a PNG; the view reads in both
// themes, in workshop mode at 1280×720 (screenshots of three presets) and in 简体中文, reached
// by the keyboard, and passes axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';
import { BIN, readExpected } from './cli.mjs';
import { audit } from './axe.mjs';
import { openIn } from './zh-check.mjs';

const site = useSite();

/** The playground's Diagram view (the editor's Diagram tab has one of its own). */
const VIEW = '.results-switches ~ .diagram-view';

/** Returns `squillion diagram --preset PRESET [--design DESIGN [--since SINCE]] --format svg`
 * (`design` null: the model's own diagram); with `withStderr`, `{ svg, stderr }`. */
function cliSvg(preset, design, lang = 'en', since = null, withStderr = false) {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build --profile ci --bin squillion (docs/testing.md)`);
  const args = ['diagram', '--preset', preset, '--format', 'svg', '--lang', lang];
  if (design !== null) args.push('--design', design);
  if (since !== null) args.push('--since', since);
  const run = spawnSync(BIN, args, { encoding: 'utf8', env: { ...process.env, LANG: 'C' } });
  assert.equal(run.status, 0, `${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return withStderr ? { svg: run.stdout, stderr: run.stderr } : run.stdout;
}

/** Returns the heads of the boxes of an SVG document (its text, or the page's picture when
 * `svg` is null, or the one under `root`): `[title, tag]` for every box, in order, and
 * `[title, tag, mark]` for a box marked with what moved (`✚ not in D0`), read with the
 * browser's parser. */
async function heads(page, svg = null, root = '.diagram-picture') {
  return page.evaluate(([svg, root]) => {
    const top = svg === null
      ? document.querySelector(`${root} svg`)
      : new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
    return [...top.querySelectorAll('text')]
      .map((t) => [...t.querySelectorAll('tspan')].map((s) => s.textContent))
      .filter((lines) => (lines.length === 2 || lines.length === 3) && /^«.*»$/.test(lines[1]))
      .map(([title, tag, mark]) => (mark === undefined ? [title, tag.slice(1, -1)] : [title, tag.slice(1, -1), mark]));
  }, [svg, root]);
}

/** The collections a box head names (the boxes of embedded documents left out). */
const collectionsOf = (hs, embedded = 'embedded') => hs.filter(([, tag]) => tag !== embedded).map(([t]) => t).sort();

/** Returns the golden evaluation's collection names of a preset's design. */
const goldenCollections = (preset, design) => readExpected(preset, `${design}.json`).collections.map((c) => c.name).sort();

/** Waits until the Diagram view shows the picture of `design`. */
async function shown(page, design) {
  await page.waitForSelector(`.diagram-view[data-state="shown"] .diagram-picture[data-design="${design}"] svg`, { timeout: 120_000 });
}

/** Returns the pressed design of the design bar. */
const pressed = (page) => page.$eval('.design-button[aria-pressed="true"]', (b) => b.dataset.design);

/** Opens the playground at 1280×720 on `preset`, switched to the Diagram view. */
async function diagramOf(preset, colorScheme = 'light') {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme });
  await page.waitForSelector('.collection');
  await openPreset(page, preset);
  await page.click('#show-diagram');
  const design = await pressed(page);
  await shown(page, design);
  return { page, errors, design };
}

test('the Diagram view draws one box per collection, as squillion diagram does, and follows the design bar', async () => {
  const { page, errors, design } = await diagramOf('blog');
  assert.equal(await page.getAttribute('#show-diagram', 'aria-pressed'), 'true');
  assert.equal(await page.$$eval('.collection', (c) => c.length), 0, 'the cards make way for the diagram');
  const first = await heads(page);
  assert.deepEqual(collectionsOf(first), goldenCollections('blog', design));
  assert.deepEqual(first, await heads(page, cliSvg('blog', design)), 'the boxes the CLI draws');
  assert.ok(first.every((h) => h.length === 2), 'the first picture is compared with nothing');
  assert.equal(await page.$(`${VIEW} .diagram-changes`), null);

  // Another design: redrawn, with that design's collections, marked with what moved since the
  // design shown before, as `squillion diagram --since` marks it.
  const other = design === 'normalized' ? 'one-query' : 'normalized';
  const designLabel = await page.textContent(`.design-button[data-design="${design}"] .design-label`);
  await page.click(`.design-button[data-design="${other}"]`);
  await shown(page, other);
  const second = await heads(page);
  assert.deepEqual(collectionsOf(second), goldenCollections('blog', other));
  assert.notDeepEqual(second, first, 'the boxes change with the design');
  const since = cliSvg('blog', other, 'en', design, true);
  assert.deepEqual(second, await heads(page, since.svg));
  assert.ok(second.some((h) => h.length === 3), `some box is marked: ${JSON.stringify(second)}`);
  const blue = await page.$$eval('.diagram-picture svg rect[stroke="#0000ffff"]', (r) => r.length);
  // As many blue outlines (each record's parts) as the CLI's --since picture has.
  const cliBlue = since.svg.split('stroke="#0000ffff"').length - 1;
  assert.ok(blue >= 1 && blue === cliBlue, `${blue} blue outlines on the page, ${cliBlue} in the CLI's picture`);
  const line = await page.textContent(`${VIEW} .diagram-changes`);
  // The CLI's line lists the same boxes: `since D0: not there: …; changed: …; gone: …`.
  const [, added, changed, gone] = since.stderr.match(/not there: (.*); changed: (.*); gone: (.*)/);
  for (const names of [added, changed, gone]) {
    for (const name of names.split(', ').filter((n) => n !== '–')) assert.ok(line.includes(name), `${name} in "${line}"`);
  }
  assert.ok(line.startsWith('Since '), line);
  assert.ok(line.includes(designLabel), `the line names ${designLabel}: ${line}`);

  // Back to the cards and to the diagram again: the picture is there at once.
  await page.click('#show-collections');
  await page.waitForSelector('.collection');
  await page.click('#show-diagram');
  await shown(page, other);

  // The downloads: the CLI's SVG, and a PNG.
  const dir = mkdtempSync(join(tmpdir(), 'squillion-diagram-'));
  try {
    const svgDownload = page.waitForEvent('download', { timeout: 60_000 });
    await page.click(`${VIEW} .diagram-svg`);
    const svg = await svgDownload;
    assert.equal(svg.suggestedFilename(), `blog-${other}.svg`);
    await svg.saveAs(join(dir, 'd.svg'));
    const text = readFileSync(join(dir, 'd.svg'), 'utf8');
    assert.match(text, /^<\?xml/);
    assert.ok(text.endsWith('</svg>'));
    // The same picture as the CLI's, but for the order of its font classes (a hash map's).
    const noStyle = (s) => s.replace(/<style>[\s\S]*?<\/style>/, '');
    assert.equal(noStyle(text), noStyle(cliSvg('blog', other, 'en', design)), 'the downloaded SVG is the CLI\'s (--since)');

    const pngDownload = page.waitForEvent('download', { timeout: 60_000 });
    await page.click(`${VIEW} .diagram-png`);
    const png = await pngDownload;
    assert.equal(png.suggestedFilename(), `blog-${other}.png`);
    await png.saveAs(join(dir, 'd.png'));
    const bytes = readFileSync(join(dir, 'd.png'));
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    // Twice the picture's own size (within the rounding of its width to whole pixels).
    const width = bytes.readUInt32BE(16);
    const svgWidth = await page.$eval('.diagram-picture svg', (s) => Number(s.getAttribute('width')));
    assert.ok(Math.abs(width - svgWidth * 2) <= 2, `${width} px for a picture ${svgWidth} wide`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the switch is reached and worked by the keyboard', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await page.focus('#show-collections');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'show-diagram');
  await page.keyboard.press('Enter');
  await shown(page, await pressed(page));
  assert.equal(await page.getAttribute('#show-diagram', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('#show-collections', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [preset, design] of [['blog', 'one-query'], ['message-attachments', 'gridfs'], ['social-graph', 'tbc']]) {
  test(`screenshots of ${preset} (${design}) at 1280×720, normal and workshop mode, light and dark`, async () => {
    const { page, errors } = await diagramOf(preset);
    await page.click(`.design-button[data-design="${design}"]`);
    await shown(page, design);
    const tags = preset === 'message-attachments' ? ['GridFS files', 'GridFS chunks'] : ['collection'];
    assert.ok((await heads(page)).some(([, tag]) => tags.includes(tag)));
    // The boxes' text is not hidden: no box painted after a text and over it is filled (a
    // record's outline, drawn last, must stay transparent in the page's colours too).
    const hidden = await page.evaluate(() => {
      const all = [...document.querySelectorAll('.diagram-picture svg rect, .diagram-picture svg text')];
      const inside = (a, b) => b.x <= a.x && b.y <= a.y && b.x + b.width >= a.x + a.width && b.y + b.height >= a.y + a.height;
      return all.flatMap((t, i) => {
        if (t.tagName !== 'text') return [];
        const over = all.slice(i + 1).filter((r) => r.tagName === 'rect' && inside(t.getBBox(), r.getBBox()));
        const filled = over.filter((r) => !/^(none|rgba\(.*,\s*0\))$/.test(getComputedStyle(r).fill));
        return filled.length ? [t.textContent.slice(0, 40)] : [];
      });
    });
    assert.deepEqual(hidden, [], 'every text of a box shows');
    await page.evaluate(() => document.querySelector('.results-switches').scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/diagram-${preset}-1280.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/diagram-${preset}-dark-1280.png` });
    // Dark: the boxes take the panel's colour and the text the ink's, not the standalone
    // picture's white and black.
    const look = await page.$eval('.diagram-picture svg', (svg) => ({
      box: getComputedStyle(svg.querySelector('rect')).fill,
      text: getComputedStyle(svg.querySelector('text')).fill,
    }));
    assert.notEqual(look.box, 'rgb(255, 255, 255)', 'the boxes follow the dark theme');
    assert.notEqual(look.text, 'rgb(0, 0, 0)', 'the text follows the dark theme');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('w');
    await page.waitForTimeout(300);
    await page.evaluate(() => document.querySelector('.results-switches').scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/diagram-${preset}-workshop-1280.png` });
    // Workshop: the boxes' text at 18 px on screen, the lines' labels at 15 px.
    const px = await page.$$eval('.diagram-picture svg text', (ts) => ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a));
    assert.ok(Math.min(...px) >= 15, `workshop text: ${Math.min(...px)} px`);
    assert.ok(Math.max(...px) >= 18, `workshop text: ${Math.max(...px)} px`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the Diagram view passes axe in the light and dark themes and in workshop mode', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page, errors } = await diagramOf('blog', scheme);
    const found = (await audit(page)).map((v) => `${scheme}: ${v}`);
    await page.keyboard.press('w');
    await page.waitForTimeout(300);
    found.push(...(await audit(page)).map((v) => `${scheme} workshop: ${v}`));
    assert.deepEqual(found, [], `\n${found.join('\n')}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the Diagram view in 简体中文: its labels and the diagram\'s words', async () => {
  const { context, page, errors } = await openIn(site, 'zh-CN');
  await page.waitForSelector('.collection');
  assert.equal((await page.textContent('#show-diagram')).trim(), '结构图');
  await page.click('#show-diagram');
  const design = await pressed(page);
  await shown(page, design);
  assert.equal((await page.textContent(`${VIEW} .diagram-svg`)).trim(), '下载 SVG');
  const hs = await heads(page);
  assert.ok(hs.some(([, tag]) => tag === '集合'), JSON.stringify(hs));
  assert.deepEqual(collectionsOf(hs, '内嵌'), collectionsOf(await heads(page, cliSvg('social-feed', design, 'zh-CN')), '内嵌'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the editor\'s Diagram tab draws the model before any design, as squillion diagram MODEL does', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'blog');
  // The arrows move between the three tabs: JSON → Diagram → Form (around), End → Diagram.
  await page.click('#tab-json');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => document.activeElement?.id === id, 'tab-diagram', { timeout: 5000 });
  assert.equal(await page.getAttribute('#tab-diagram', 'aria-selected'), 'true');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => document.activeElement?.id === id, 'tab-form', { timeout: 5000 });
  await page.keyboard.press('End');
  await page.waitForFunction((id) => document.activeElement?.id === id, 'tab-diagram', { timeout: 5000 });
  assert.equal(await page.isVisible('#panel-form'), false);
  await page.waitForSelector('#panel-diagram .diagram-view[data-state="shown"] .diagram-picture svg', { timeout: 120_000 });
  const hs = await heads(page, null, '#panel-diagram .diagram-picture');
  assert.deepEqual(hs, await heads(page, cliSvg('blog', null)), 'the boxes the CLI draws for the model');
  assert.deepEqual(hs.map(([t]) => t).sort(), ['author', 'comment', 'post'].sort(), JSON.stringify(hs));
  assert.ok(hs.every(([, tag]) => tag === 'entity'), JSON.stringify(hs));
  assert.match(await page.textContent('#panel-diagram figcaption'), /before any design/);
  // An edit of the model redraws it: a fourth entity gets a box.
  await page.click('#tab-json');
  const text = JSON.parse(await page.inputValue('#model-input'));
  text.entities.push({ name: 'tag', count: 100, fields: { label: { type: 'string' } } });
  await page.fill('#model-input', JSON.stringify(text, null, 2));
  await page.click('#tab-diagram');
  await page.waitForFunction(() => [...document.querySelectorAll('#panel-diagram .diagram-picture svg tspan')].some((t) => t.textContent === 'tag'), null, { timeout: 120_000 });
  await page.screenshot({ path: `${SHOTS}/diagram-model-1280.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
