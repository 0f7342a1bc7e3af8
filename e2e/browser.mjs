// Launches Debian's Chromium through playwright-core (which never downloads a browser).
import { before, after } from 'node:test';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Returns a headless Chromium with a fresh profile; flags keep it off the closed network. */
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Opens a page that records console errors and page errors into `errors`. */
export async function openPage(browser, url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  return { page, errors };
}

/** Where end-to-end tests save screenshots for review. */
export const SHOTS = 'target/screenshots';

/**
 * Registers node:test hooks that serve the built site (SQUILLION_DIST, default dist/) on
 * 127.0.0.1 and launch Chromium for the tests of one file. Returns an object whose `server`
 * and `browser` are set once the hooks have run.
 */
export function useSite() {
  const site = {};
  before(async () => {
    site.server = await serve(process.env.SQUILLION_DIST ?? 'dist');
    site.browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/** Waits until every design of the compare table has been evaluated (none pending). */
export async function everyDesignEvaluated(page) {
  await page.waitForFunction(
    () => [...document.querySelectorAll('.compare-table thead th[data-design]')].every((th) => th.dataset.state !== 'pending'),
    null,
    { timeout: 240_000 },
  );
}

/** Opens the model editor's JSON tab (the Form tab is the default). */
export async function showJson(page) {
  await page.click('#tab-json');
}

/**
 * Opens the preset called `name` (file name without .json; `blank`) from the preset chooser,
 * and waits until the playground has taken it in (its designs are analysed a task each
 * before it: `#results` is `aria-busy` until then).
 */
export async function openPreset(page, name) {
  await page.click('#choose-preset');
  await page.click(`.preset-card[data-preset="${name}"]`);
  await page.waitForSelector('.chooser', { state: 'detached' });
  await page.waitForSelector('#results:not([aria-busy])', { state: 'attached' });
}

/** Dispatches, on the "Start from your data" dialog's drop zone, a dragover then a drop whose
 * DataTransfer holds `files` (`{name, bytes}`, bytes an array of numbers), as a desktop's file
 * manager drops them (not the file picker); `betweenDragAndDrop` runs after the dragover (a
 * check of how the zone shows the drag). */
export async function dropFiles(page, files, betweenDragAndDrop = async () => {}) {
  const transfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
    return dt;
  }, files);
  await page.dispatchEvent('.infer-drop', 'dragover', { dataTransfer: transfer });
  await betweenDragAndDrop();
  await page.dispatchEvent('.infer-drop', 'drop', { dataTransfer: transfer });
}
