// End-to-end: the Chinese translation is a file of its own (zh-CN.json, scripts/translations.mjs)
// that the page fetches when the language is first needed, never compiled into the modules
// (src/lang/translations.rs, docs/size.md). An English visit never downloads it and the service
// worker does not precache it; a Chinese browser gets its first picture in Chinese, with no
// English shown before; a switch to 简体中文 fetches it once, a worker draws in Chinese after it
// too, and from then on it works offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, SHOTS } from './browser.mjs';
import { serve } from './serve.mjs';

const DIST = process.env.SQUILLION_DIST ?? 'dist';
/** The playground's tab, in each language (locales/*\/page.ftl). */
const PLAYGROUND = { en: 'Design playground', zh: '设计演练场' };
const TAB = 'nav.tabs a[href="#playground"]';

/** Records, in the page, every text the playground's tab showed, in order. */
function recordTab() {
  window.__tabTexts = [];
  const look = () => {
    const tab = document.querySelector('nav.tabs a[href="#playground"]');
    const text = tab?.textContent.trim();
    if (text && window.__tabTexts.at(-1) !== text) window.__tabTexts.push(text);
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
}

/** A site of its own (the offline case closes its server). */
async function site() {
  const dir = mkdtempSync(join(tmpdir(), 'squillion-translations-'));
  cpSync(DIST, dir, { recursive: true });
  return { dir, server: await serve(dir) };
}

test('the translation is not in the service worker precache and has a file of its own', () => {
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  const files = JSON.parse(sw.match(/const FILES = (\[.*\]);/)[1]);
  const lazy = JSON.parse(sw.match(/const LAZY = (\[.*\]);/)[1]);
  assert.ok(!files.includes('zh-CN.json'), 'not precached');
  assert.ok(lazy.includes('zh-CN.json'), 'kept when fetched');
  const file = JSON.parse(readFileSync(join(DIST, 'zh-CN.json'), 'utf8'));
  assert.equal(file.lang, 'zh-CN');
  assert.match(file.page, /^view-playground = 设计演练场$/m);
  assert.ok(file.messages.length > 10_000);
  assert.equal(Object.keys(file.presets).length, 17);
  // Nothing of it is in the modules: its words are only in the file.
  const wasm = readFileSync(join(DIST, 'squillion_bg.wasm')).toString('utf8');
  assert.ok(!wasm.includes('设计演练场'), 'the page module carries no Chinese catalogue');
  assert.ok(!readFileSync(join(DIST, 'squillion-tools_bg.wasm')).toString('utf8').includes('设计演练场'));
});

test('an English visit never downloads the translation; a Chinese browser shows Chinese from its first picture', async () => {
  const { dir, server } = await site();
  const browser = await launch();
  try {
    const en = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 720 } });
    const page = await en.newPage();
    await page.goto(`${server.url}#playground`);
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    assert.equal((await page.textContent(TAB)).trim(), PLAYGROUND.en);
    assert.equal(server.stats.sent['/zh-CN.json'] ?? 0, 0, JSON.stringify(server.stats.sent));
    await en.close();

    const zh = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 720 } });
    await zh.addInitScript(recordTab);
    const zpage = await zh.newPage();
    const errors = [];
    zpage.on('pageerror', (e) => errors.push(String(e)));
    await zpage.goto(`${server.url}#playground`);
    await zpage.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    assert.deepEqual(await zpage.evaluate(() => window.__tabTexts), [PLAYGROUND.zh], 'no English before the Chinese');
    assert.equal(await zpage.getAttribute('html', 'lang'), 'zh-CN');
    // Fetched (the page's fetch, started by boot.js beside the module; the worker's own may be a
    // revalidation that sends no body).
    assert.ok((server.stats.sent['/zh-CN.json'] ?? 0) >= 1, JSON.stringify(server.stats.sent));
    assert.deepEqual(errors, []);
    await zh.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a switch to 简体中文 fetches the translation, a worker made after it draws in Chinese, and it stays Chinese offline', async () => {
  const { dir, server } = await site();
  const browser = await launch();
  /** Opens the Diagram view (drawn by a tools worker) and waits for its picture. */
  const diagram = async (page) => {
    await page.click('#show-diagram');
    await page.waitForSelector('.diagram-picture[data-design] svg', { timeout: 180_000 });
    return page.textContent('.diagram-picture[data-design] svg');
  };
  try {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}#playground`);
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 60_000 });

    await page.selectOption('#lang-switch', 'zh-CN');
    await page.waitForFunction((want) => document.querySelector('nav.tabs a[href="#playground"]')?.textContent.trim() === want, PLAYGROUND.zh);
    assert.equal(server.stats.sent['/zh-CN.json'], 1, JSON.stringify(server.stats.sent));
    // The diagram's labels are written by the tools worker (src/ui/diagram.rs), which is told
    // `lang: zh-CN` and fetches the file itself before it draws.
    assert.match(await diagram(page), /«集合»/, 'the worker drew in Chinese');
    await page.locator('.diagram-picture[data-design]').screenshot({ path: `${SHOTS}/translations-diagram-zh.png` });

    // Offline: the page reloads in Chinese from the service worker's copy, and draws again.
    const online = server.stats.requests;
    await server.close();
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    assert.equal((await page.textContent(TAB)).trim(), PLAYGROUND.zh);
    assert.match(await diagram(page), /«集合»/, 'drawn in Chinese offline');
    assert.equal(server.stats.requests, online, 'nothing reached the (closed) server');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
