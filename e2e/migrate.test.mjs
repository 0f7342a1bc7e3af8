// End-to-end: the Migrate panel. "Migrate…" beside "Advise…" (and the comparison's verdict,
// "Migrate to WINNER…") opens the plan from the design on show to another, as `squillion
// migrate --json` makes it: the same steps, titles and costs, the check's verdict, and the
// downloads are the CLI's files byte for byte (plan.json) and valid JavaScript (migrate.js); a
// refused pair says why; the panel reads in 简体中文 as `--lang zh-CN` does, and passes axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS, openPreset, everyDesignEvaluated } from './browser.mjs';
import { BIN } from './cli.mjs';
import { audit } from './axe.mjs';
import { openIn } from './zh-check.mjs';

const site = useSite();

/** Returns `squillion migrate --preset PRESET --from FROM --to TO --json --lang LANG`: its
 * stdout and exit code. */
function cliPlan(preset, from, to, lang = 'en') {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build --profile ci --bin squillion (docs/testing.md)`);
  const args = ['migrate', '--preset', preset, '--from', from, '--to', to, '--json', '--lang', lang];
  const run = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, LANG: 'C' } });
  assert.ok(run.status === 0 || run.status === 1, `${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return { stdout: run.stdout, status: run.status };
}

/** Waits until the panel has answered (planned, refused or the same design twice). */
async function settled(page) {
  await page.waitForSelector('#migrate:not([data-state="planning"])', { timeout: 120_000 });
  return page.getAttribute('#migrate', 'data-state');
}

/** Returns the steps the panel shows: `{ number, phase, title, cost, command }`. */
async function shownSteps(page) {
  return page.$$eval('.migrate-step', (steps) => steps.map((s) => ({
    number: Number(s.dataset.number),
    phase: s.dataset.phase,
    title: s.querySelector('.migrate-step-head').textContent.replace(/^\S+\s/, ''),
    cost: s.querySelector('.migrate-cost')?.textContent ?? '',
    command: s.querySelector('.migrate-command').textContent,
  })));
}

/** Returns a download started by clicking `selector`: its file name and text. */
async function downloaded(page, selector) {
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await page.click(selector);
  const d = await started;
  const dir = mkdtempSync(join(tmpdir(), 'squillion-migrate-'));
  try {
    const path = join(dir, d.suggestedFilename());
    await d.saveAs(path);
    return { name: d.suggestedFilename(), text: readFileSync(path, 'utf8'), path, dir };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

test('Migrate… plans from the design on show to another, as squillion migrate does, with its files', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'person-tasks');
  await page.click('.design-button[data-design="normalized"]');
  await page.click('#open-migrate');
  assert.equal(await page.getAttribute('#open-migrate', 'aria-expanded'), 'true');
  assert.equal(await page.inputValue('#migrate-from'), 'normalized', 'from: the design on show');
  assert.equal(await page.inputValue('#migrate-to'), 'person-ids', 'to: the first other design');
  assert.equal(await settled(page), 'planned');

  const cli = cliPlan('person-tasks', 'normalized', 'person-ids');
  assert.equal(cli.status, 0);
  const plan = JSON.parse(cli.stdout);
  const steps = await shownSteps(page);
  assert.deepEqual(steps.map((s) => [s.number, s.phase, s.title, s.command]),
    plan.steps.map((s) => [s.number, s.phase, s.title, s.command]), 'the CLI\'s steps, in order');
  // The rebuild's cost, as the CLI's own test prices it: 1,000,000 person arrays written.
  const rebuild = steps.find((s) => s.title.startsWith('Write into each person'));
  assert.match(rebuild.cost, /writes 1,000,000 docs/);
  const n = (x) => Math.round(x).toLocaleString('en-US');
  assert.ok((await page.textContent('.migrate-total')).startsWith(
    `Total: reads ${n(plan.total.docs_read)} docs`), 'the CLI\'s total');
  assert.ok((await page.textContent('.migrate-total')).includes(
    `writes ${n(plan.total.docs_written)} docs`), 'the CLI\'s total');
  assert.equal(await page.getAttribute('.migrate-check', 'data-passed'), 'true');
  assert.match(await page.textContent('.migrate-check'), /^Checked on the engine: \d+ commands/);
  assert.match(await page.textContent('.migrate-changes'), /tasks: reference_in_child → reference_in_parent/);

  const json = await downloaded(page, '.migrate-plan');
  try {
    assert.equal(json.name, 'person-tasks-normalized-to-person-ids.json');
    assert.equal(json.text, cli.stdout.trimEnd(), 'plan.json is what squillion migrate --json prints');
  } finally {
    rmSync(json.dir, { recursive: true, force: true });
  }
  const script = await downloaded(page, '.migrate-script');
  try {
    assert.equal(script.name, 'person-tasks-normalized-to-person-ids.js');
    assert.match(script.text, /const FROM_STEP = 1;/);
    const check = spawnSync(process.execPath, ['--check', script.path], { encoding: 'utf8' });
    assert.equal(check.status, 0, `node --check migrate.js: ${check.stderr}`);
  } finally {
    rmSync(script.dir, { recursive: true, force: true });
  }
  await page.screenshot({ path: `${SHOTS}/migrate-person-tasks.png`, fullPage: false });
  const violations = await audit(page, '#migrate');
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));

  // The same design twice: nothing to plan.
  await page.selectOption('#migrate-to', 'normalized');
  assert.equal(await settled(page), 'same');
  assert.equal(await page.$$eval('.migrate-step', (s) => s.length), 0);
  assert.equal(await page.isDisabled('.migrate-plan'), true);

  // Close: the panel goes, the button is released.
  await page.click('.migrate-close');
  await page.waitForSelector('#migrate', { state: 'detached' });
  assert.equal(await page.getAttribute('#open-migrate', 'aria-expanded'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a pair the planner refuses says why, as squillion migrate does', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'host-logs');
  await page.click('.design-button[data-design="normalized"]');
  await page.click('#open-migrate');
  await page.selectOption('#migrate-to', 'embed-all');
  assert.equal(await settled(page), 'refused');
  const cli = cliPlan('host-logs', 'normalized', 'embed-all');
  assert.equal(cli.status, 1);
  const { refused } = JSON.parse(cli.stdout);
  assert.equal(refused.kind, 'over_limit');
  assert.equal(await page.textContent('.migrate-status'), `Not planned: ${refused.message}`);
  await page.screenshot({ path: `${SHOTS}/migrate-refused.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the verdict offers the migration to its winner', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'person-tasks');
  await everyDesignEvaluated(page);
  const winner = await page.getAttribute('.verdict-text', 'data-winner');
  assert.ok(winner, 'person-tasks has a winner');
  const other = winner === 'normalized' ? 'two-way' : 'normalized';
  await page.click(`.design-button[data-design="${other}"]`);
  await page.click('.verdict-migrate');
  await page.waitForSelector('#migrate');
  assert.equal(await page.inputValue('#migrate-from'), other);
  assert.equal(await page.inputValue('#migrate-to'), winner);
  assert.equal(await settled(page), 'planned');
  assert.deepEqual(errors, []);
  await page.close();
});

test('在简体中文中，迁移面板与 squillion migrate --lang zh-CN 一致', async () => {
  const { context, page, errors } = await openIn(site, 'zh-CN');
  await page.waitForSelector('.collection');
  await openPreset(page, 'person-tasks');
  await page.click('.design-button[data-design="normalized"]');
  await page.click('#open-migrate');
  await page.selectOption('#migrate-to', 'two-way');
  assert.equal(await settled(page), 'planned');
  const plan = JSON.parse(cliPlan('person-tasks', 'normalized', 'two-way', 'zh-CN').stdout);
  const steps = await shownSteps(page);
  assert.deepEqual(steps.map((s) => s.title), plan.steps.map((s) => s.title));
  assert.match(steps[0].title, /在每个 person 的 tasks 中写入/);
  assert.match(await page.textContent('.migrate-total'), /^合计：读取 31,000,000 个文档/);
  assert.match(await page.textContent('#migrate-title'), /^迁移$/);
  assert.match(await page.textContent('.migrate-check'), /^已在引擎上检查/);
  await page.screenshot({ path: `${SHOTS}/migrate-zh.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
