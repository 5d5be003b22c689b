// Workloads that fail, on the release build: a broken template crash-loops on one node, the
// rolling update stops at maxUnavailable and says why, and `kubectl rollout undo` typed in the
// terminal brings every node back to the working version.
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

const shots = new URL('./screenshots/', import.meta.url);

async function cell(page, ds, col) {
  return (await page.locator(`tr[data-ds="${ds}"] td[data-col="${col}"]`).textContent())?.trim();
}

/** Plays at `speed` until `done()` holds or `ms` pass; then pauses. */
async function playUntil(page, speed, done, ms = 30_000) {
  await page.getByLabel('Speed').selectOption(String(speed));
  await page.getByRole('button', { name: 'Play' }).click();
  const deadline = Date.now() + ms;
  let ok = await done();
  while (!ok && Date.now() < deadline) {
    await page.waitForTimeout(100);
    ok = await done();
  }
  await page.getByRole('button', { name: 'Pause' }).click();
  return ok;
}

test('a broken rollout crash-loops on one node, stops, and rollout undo recovers', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?preset=bad-rollout-undo`, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.locator('.preset h2').waitFor();

  const stalled = page.locator('[data-testid="waves"] li[data-ds="agent"] .stalled');
  const looping = page.locator('li.pod.trouble', { hasText: 'CrashLoopBackOff' });
  assert.ok(
    await playUntil(page, 2, async () => (await stalled.count()) > 0 && (await looping.count()) > 0),
    'the wave stalls on a crash-looping pod',
  );
  assert.match(
    await stalled.textContent(),
    /waiting: 1 updated pod not available \((CrashLoopBackOff|Error)[^)]*\); maxUnavailable 1 reached/,
  );
  assert.equal(await cell(page, 'agent', 'up-to-date'), '1');
  assert.equal(await cell(page, 'agent', 'available'), '3');
  assert.match(await looping.first().textContent(), /CrashLoopBackOff ↻\d+ · restarting in \d+ s/);
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: new URL('bad-rollout-stalled.png', shots).pathname, fullPage: true });

  await page.getByRole('tab', { name: 'Terminal' }).click();
  const prompt = page.getByLabel('kubectl command');
  await prompt.fill('kubectl get pods');
  await prompt.press('Enter');
  assert.match(await page.getByTestId('terminal-output').textContent(), /0\/1\s+CrashLoopBackOff\s+\d+ \(\d+s ago\)/);
  await prompt.fill('kubectl rollout undo ds/agent');
  await prompt.press('Enter');
  assert.match(await page.getByTestId('terminal-output').textContent(), /daemonset\.apps\/agent rolled back/);
  assert.ok(
    await playUntil(
      page,
      1,
      async () =>
        (await cell(page, 'agent', 'available')) === '4' &&
        (await cell(page, 'agent', 'up-to-date')) === '4' &&
        (await page.locator('li.pod.trouble').count()) === 0,
    ),
    'every node runs version 1 again',
  );
  await page.screenshot({ path: new URL('bad-rollout-undone.png', shots).pathname, fullPage: true });
  assert.deepEqual(problems, []);
});
