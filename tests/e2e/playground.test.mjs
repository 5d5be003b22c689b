// The default preset plays in the browser: press Play and the DaemonSet settles at 4/4/4/4/4,
// the counters `kubectl get ds` prints, with no console error on the way.
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

const COLUMNS = ['desired', 'current', 'ready', 'up-to-date', 'available'];

async function counters(page) {
  const out = {};
  for (const c of COLUMNS) {
    out[c] = (await page.locator(`tr[data-ds="fluentd"] td[data-col="${c}"]`).textContent())?.trim();
  }
  return out;
}

test('the default preset plays and settles at 4/4/4/4/4', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Speed').selectOption('8');
  await page.getByRole('button', { name: 'Play' }).click();
  const want = { desired: '4', current: '4', ready: '4', 'up-to-date': '4', available: '4' };
  const deadline = Date.now() + 30_000;
  let seen = await counters(page);
  while (JSON.stringify(seen) !== JSON.stringify(want) && Date.now() < deadline) {
    await page.waitForTimeout(200);
    seen = await counters(page);
  }
  assert.deepEqual(seen, want);
  // While it plays, the caption follows the latest change (the screen reader is not told each).
  assert.match(await page.getByTestId('caption').textContent(), /^t=\d+\.\ds {2}\S/);
  assert.equal(await page.getByTestId('caption').getAttribute('aria-live'), 'off');
  // Every worker holds one Ready pod of the current revision; the control plane none.
  for (const w of ['worker', 'worker2', 'worker3', 'worker4']) {
    assert.equal(await page.locator(`article[data-node="${w}"] li.pod.ready.rev-new`).count(), 1, w);
  }
  assert.equal(await page.locator('article[data-node="control-plane"] li.pod').count(), 0);
  const shots = new URL('./screenshots/', import.meta.url);
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: new URL('default-preset-settled.png', shots).pathname, fullPage: true });
  assert.deepEqual(problems, []);
});

test('keyboard: the panel tabs are one Tab stop moved by the arrows; Space presses a focused button', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  const tabs = page.getByRole('tab');
  assert.equal(await tabs.count(), 6);
  // Only the selected tab is in the Tab order.
  const stops = await tabs.evaluateAll((ts) => ts.map((t) => [t.textContent, t.tabIndex]));
  assert.deepEqual(stops.filter(([, i]) => i === 0).map(([n]) => n), ['Explain']);
  const clockBefore = await page.getByTestId('clock').textContent();
  await page.getByRole('tab', { name: 'Explain' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByRole('tab', { name: 'YAML' }).getAttribute('aria-selected'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'YAML');
  assert.equal(await page.getByRole('tabpanel').getAttribute('aria-labelledby'), 'tab-yaml');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Script', 'wraps around');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Explain');
  await page.keyboard.press('End');
  assert.equal(await page.getByRole('tab', { name: 'Script' }).getAttribute('aria-selected'), 'true');
  // The arrows moved between tabs, not through time.
  assert.equal(await page.getByTestId('clock').textContent(), clockBefore);
  // Space on a focused button presses that button, and only once: the help's Close button
  // closes the help instead of starting the clock.
  await page.locator('body').press('?');
  // The help takes the focus to its Close button and keeps it there.
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Close');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Close');
  await page.keyboard.press(' ');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.equal(await page.getByRole('button', { name: 'Play' }).count(), 1, 'still paused');
  // Closing the help gives the focus back to where it was.
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Script');
  // Away from any control, Space still plays and pauses.
  await page.evaluate(() => document.activeElement.blur());
  await page.locator('body').press(' ');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  await page.locator('body').press(' ');
  await page.getByRole('button', { name: 'Play' }).waitFor();
  assert.deepEqual(problems, []);
});
