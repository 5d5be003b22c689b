// A panic in the middle of an edit loses nothing (crates/front/app/src/crash.rs): the page says so
// with Reload and Download scenario, saves nothing after the panic, the download is the session
// before the failing edit, and Reload restores that session.
//
// It runs on a test build of the page (`--features planted-panic`, built apart by xtask's build
// step and served at E2E_PLANTED_PANIC_URL) whose terminal has one more command:
// `planted-panic <command>` runs the command, then panics before the edit is done.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launchBrowser, openPage } from './support/browser.mjs';

const URL = process.env.E2E_PLANTED_PANIC_URL;

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const saved = (page) => page.evaluate(() => localStorage.getItem('dsplay.autosave'));

test('a panic inside an edit keeps the session before it: banner, download, reload', async () => {
  assert.ok(
    URL,
    'E2E_PLANTED_PANIC_URL is not set: `cargo xtask test --only build,e2e` builds the planted-panic page and serves it',
  );
  const { page, problems } = await openPage(browser);
  await page.goto(URL, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const prompt = page.getByLabel('kubectl command');

  // An edit that is saved.
  await page.waitForFunction(() => localStorage.getItem('dsplay.autosave') !== null);
  const first = await saved(page);
  await prompt.fill('kubectl label node control-plane before=panic');
  await prompt.press('Enter');
  await page.waitForFunction((s) => localStorage.getItem('dsplay.autosave') !== s, first);
  const beforePanic = await saved(page);

  // The edit that panics half-way: its command has run when the page stops.
  await prompt.fill('planted-panic kubectl label node control-plane during=panic');
  await prompt.press('Enter');
  const banner = page.getByRole('alert').filter({ hasText: 'internal error' });
  await banner.waitFor();
  assert.match(await banner.textContent(), /reload.*Error: unreachable/s);
  const reload = banner.getByRole('button', { name: 'Reload' });
  const download = banner.getByRole('button', { name: 'Download scenario' });
  assert.ok((await reload.isVisible()) && (await download.isVisible()));

  // Nothing is saved after the panic: not the half-done edit, not a panel change, not time.
  // (The page is stopped: showing the Chart reads the half-changed simulation and traps again.)
  await page.getByRole('tab', { name: 'Chart' }).click();
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForTimeout(1_500);
  assert.equal(await saved(page), beforePanic);

  // The download is the scenario as saved before the panic.
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  assert.match(file.suggestedFilename(), /\.yaml$/);
  const yaml = await readFile(await file.path(), 'utf8');
  assert.match(yaml, /^scenario: /m);
  assert.match(yaml, /kubectl label node control-plane before=panic/);
  assert.doesNotMatch(yaml, /during=panic/);
  assert.match(await banner.locator('p').textContent(), /Error: unreachable$/, 'the download said nothing failed');

  // Reload restores the session: the edit before the panic, the Terminal panel, nothing after.
  await reload.click();
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('.crash').count(), 0);
  assert.equal(await page.getByRole('tab', { name: 'Terminal' }).getAttribute('aria-selected'), 'true');
  await page.getByRole('tab', { name: 'Script' }).click();
  const script = await page.getByRole('region', { name: 'Script' }).textContent();
  assert.match(script, /kubectl label node control-plane before=panic/);
  assert.doesNotMatch(script, /during=panic/);
  assert.ok(problems.length > 0);
  assert.deepEqual(
    problems.filter((p) => p !== 'page error: unreachable'),
    [],
    'nothing failed but the planted panic (and the stopped page it left)',
  );
});
