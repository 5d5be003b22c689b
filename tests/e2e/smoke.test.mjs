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
