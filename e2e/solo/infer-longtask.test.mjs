// End-to-end (#35 item 7): inferring about 540 KB of documents in "Start from your data" never
// blocks the page: the worker reads, and what the page does with its answer (the model text
// opened in the editor, the summary, the evaluation of the new model) runs in tasks of at most
// 100 ms each. Measured with a PerformanceObserver of 'longtask' entries (Chromium reports every
// main-thread task over 50 ms) from the click on "Infer" until the page has settled. The
// machine's other work stretches every task (the test command runs two files at a time), so
// the test makes up to ATTEMPTS attempts, each on a fresh page, and passes on the first whose
// longest task is within the limit: a page that blocks fails them all. Every attempt's figures
// are printed. Alone: `node --test e2e/solo/infer-longtask.test.mjs` after a release build
// (SQUILLION_DIST for another dist; SQUILLION_PROFILE=1 prints the hottest functions of the
// longest tasks, docs/testing.md "Profiling the page").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS } from '../browser.mjs';

const site = useSite();
const FIXTURE = 'tests/fixtures/infer/sample_analytics';
/** The longest main-thread task allowed while inferring (ms). */
const LONGEST_TASK_MS = 100;
/** Attempts on a fresh page before the test fails (the machine's load stretches tasks). */
const ATTEMPTS = 3;
let dir;
let files;
let bytes = 0;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'squillion-infer-longtask-'));
  // sample_analytics (233 KB) with its transactions three times, each copy under new _ids:
  // about 590 KB.
  files = [];
  let serial = 0;
  for (const [name, copies] of [['accounts.json', 1], ['customers.json', 1], ['transactions.json', 3]]) {
    const lines = readFileSync(join(FIXTURE, name), 'utf8').split('\n').filter((l) => l.trim());
    const out = [];
    for (let c = 0; c < copies; c++) {
      for (const line of lines) {
        const doc = JSON.parse(line);
        if (c > 0) doc._id = { $oid: (0x5a000000 + serial++).toString(16).padStart(24, '0') };
        out.push(JSON.stringify(doc));
      }
    }
    const text = out.join('\n') + '\n';
    bytes += text.length;
    const path = join(dir, name);
    writeFileSync(path, text);
    files.push(path);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

// History (docs/page.md): 734 ms before 634f489 (`arith::collection_stats`); 110 to 220 ms with
// the model read a task after its text and the forms rendered one entity a task; at most 86 ms
// in 18 of 21 runs at load 2 to 5 with each design's analysis in a task of its own (2026-11-30);
// on a quiet machine no task over 50 ms in 11 runs, 75 ms at most beside two busy processes
// (2026-12-02).
/**
 * Returns, for each of the `count` longest `tasks` ({start, duration} in the page's
 * performance.now() ms), the functions of the CDP CPU `profile` with the most time inside it:
 * inclusive (a function once per sample, whatever its depth) and self. `profiledAt` is the
 * page's performance.now() when the profiler started. With a build whose wasm keeps its names
 * (docs/testing.md, "Profiling the page") the Rust functions are named; `(program)` is the
 * browser's own work (style, layout, paint) and `(garbage collector)` its collector.
 */
function hottest(profile, profiledAt, tasks, count = 3, top = 25) {
  const node = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Sample i is taken at the sum of the first i + 1 deltas (µs, from the profile's start) and
  // stands for the time until the next one.
  const offset = profile.startTime / 1000 - profiledAt;
  let at = profile.startTime;
  const times = profile.timeDeltas.map((d) => (at += d) / 1000 - offset);
  const name = (id) => node.get(id).callFrame.functionName || '(anonymous)';
  return [...tasks]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, count)
    .map((task) => {
      const inclusive = new Map();
      const self = new Map();
      const add = (m, k, ms) => m.set(k, (m.get(k) ?? 0) + ms);
      profile.samples.forEach((id, i) => {
        if (times[i] < task.start || times[i] > task.start + task.duration) return;
        const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
        add(self, name(id), ms);
        const seen = new Set();
        for (let at = id; at !== undefined; at = parent.get(at)) seen.add(name(at));
        for (const n of seen) add(inclusive, n, ms);
      });
      const list = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([n, ms]) => `  ${ms.toFixed(1)} ${n}`).join('\n');
      return `task at ${Math.round(task.start - profiledAt)} ms, ${Math.round(task.duration)} ms\n inclusive:\n${list(inclusive)}\n self:\n${list(self)}`;
    })
    .join('\n');
}

/** Waits until the page has run no task over 50 ms for a whole second (at most 60 s). */
async function quiet(page) {
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let last = performance.now();
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = Math.max(last, e.startTime + e.duration);
        }).observe({ type: 'longtask' });
        const start = performance.now();
        const check = () => (performance.now() - last > 1000 || performance.now() - start > 60_000 ? resolve() : setTimeout(check, 100));
        check();
      }),
  );
}

/** Infers the files on a fresh page; returns the longest task (ms) after the click on "Infer". */
async function attempt(n) {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  // The first model's evaluations land in the background; let them settle so that only what
  // inferring causes is measured.
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 120_000 });
  await quiet(page);
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-dialog');
  await page.setInputFiles('[data-testid=infer-files]', files);
  // Let the file list render, then watch every long task from the click on.
  await quiet(page);
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask' });
  });
  // SQUILLION_PROFILE=1: a CPU profile from the click on, its hottest functions printed for
  // the longest tasks.
  const cdp = process.env.SQUILLION_PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const clicked = await page.evaluate(() => performance.now());
  await page.click('#infer-run');
  // Not `waitForSelector`: its checks of visibility, every frame, force the page's style and
  // layout inside the page's own tasks (a profile showed 35 ms of its queries and 89 ms of
  // style and layout in one 125 ms task). A bare query every 100 ms costs the page nothing.
  await page.waitForFunction(() => document.querySelector('[data-testid=infer-summary]'), null, { polling: 100, timeout: 60_000 });
  const answered = await page.evaluate(() => performance.now());
  // The model opened: the editor, the summary and the new model's evaluation settle.
  await page.waitForTimeout(3_000);
  const tasks = await page.evaluate(() => window.__longTasks);
  if (cdp) console.log(hottest((await cdp.send('Profiler.stop')).profile, clicked, tasks));
  // What the user sees once it has settled: the summary, then (the dialog closed) the inferred
  // model in the editor and its figures.
  await page.screenshot({ path: `${SHOTS}/infer-longtask-summary.png` });
  await page.keyboard.press('Escape');
  await page.waitForSelector('.infer-dialog', { state: 'detached' });
  await page.screenshot({ path: `${SHOTS}/infer-longtask.png` });
  const longest = Math.max(0, ...tasks.map((t) => t.duration));
  console.log(`attempt ${n}: ${bytes} bytes inferred; summary ${Math.round(answered - clicked)} ms after the click; long tasks (start after the click, duration, ms): ${tasks.map((t) => `${Math.round(t.start - clicked)}+${Math.round(t.duration)}`).join(', ') || 'none'}`);
  const model = JSON.parse(await page.inputValue('#model-input'));
  assert.ok(model.entities.some((e) => e.name === 'transactions'));
  assert.deepEqual(errors, []);
  await page.close();
  return longest;
}

test('inferring about 540 KB of documents leaves no main-thread task over 100 ms', async () => {
  assert.ok(bytes > 540_000, `${bytes} bytes`);
  const longest = [];
  for (let n = 1; n <= ATTEMPTS; n += 1) {
    longest.push(await attempt(n));
    if (longest.at(-1) <= LONGEST_TASK_MS) break;
  }
  assert.ok(longest.at(-1) <= LONGEST_TASK_MS, `the longest main-thread task of each attempt: ${longest.map((ms) => `${Math.round(ms)} ms`).join(', ')}`);
});
