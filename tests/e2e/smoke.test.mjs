// Smoke test of the built playground: it loads, shows its heading, and nothing goes wrong on
// the way (no console error, page error or failed request).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { BASE_URL, launchBrowser, openPage } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

test('the playground loads with its heading and no errors', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL, { waitUntil: 'load' });
  const heading = page.getByRole('heading', { level: 1, name: 'DaemonSet Playground' });
  await heading.waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const shots = new URL('./screenshots/', import.meta.url);
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: new URL('smoke.tmp.png', shots).pathname });
  assert.deepEqual(problems, []);
});

test('a wasm trap shows a banner, and Reload brings the saved session back', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  // Something the autosave keeps: the open panel.
  await page.getByRole('tab', { name: 'Events' }).click();
  assert.equal(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByRole('alert').filter({ hasText: 'internal error' }).count(), 0);
  // What a panic is in the release build: an uncaught WebAssembly.RuntimeError.
  await page.evaluate(() =>
    setTimeout(() => {
      throw new WebAssembly.RuntimeError('unreachable');
    }),
  );
  const banner = page.getByRole('alert').filter({ hasText: 'internal error' });
  await banner.waitFor();
  assert.match(await banner.textContent(), /reload.*Error: unreachable/s);
  // A second trap does not stack a second banner.
  await page.evaluate(() =>
    setTimeout(() => {
      throw new WebAssembly.RuntimeError('again');
    }),
  );
  await page.waitForTimeout(100);
  assert.equal(await page.locator('.crash').count(), 1);
  assert.deepEqual(problems, ['page error: unreachable', 'page error: again']);
  await banner.getByRole('button', { name: 'Reload' }).click();
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('.crash').count(), 0);
  assert.equal(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected'), 'true');
});
