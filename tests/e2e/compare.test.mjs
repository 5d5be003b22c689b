// Issue 23 part 4 end to end on the release build: `?compare=` plays presets side by side in
// lockstep, each with counters that settle and a rollout summary; a bad list is explained and
// leaves the saved session alone; the playground's Compare menu opens a fork of the scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, openPage } from './support/browser.mjs';

const F4 = 'f4-rolling-update-max-unavailable-1';
const F5 = 'f5-rolling-update-max-unavailable-2';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Each lane's counters row as `desired/current/ready/up-to-date/available`. */
async function counters(page) {
  return page.locator('.lane .counters tbody tr[data-ds]').evaluateAll((rows) =>
    rows.map((r) =>
      ['desired', 'current', 'ready', 'up-to-date', 'available']
        .map((c) => r.querySelector(`[data-col="${c}"]`).textContent)
        .join('/'),
    ),
  );
}

test('f4 vs f5: two counter tables that settle, and rollouts of about 27 s and 14 s', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?compare=${F4},${F5}&speed=16`);
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('.lane').count(), 2);
  assert.deepEqual(
    await page.locator('.lane').evaluateAll((ls) => ls.map((l) => l.dataset.variant)),
    [F4, F5],
  );
  assert.equal(await page.locator('.lane .counters table').count(), 2);
  await page.getByRole('button', { name: 'Play' }).click();
  // Both durations are known once both rollouts are complete.
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid="duration"]')].every((d) => d.dataset.seconds),
    null,
    { timeout: 60_000 },
  );
  const seconds = await page
    .getByTestId('duration')
    .evaluateAll((ds) => ds.map((d) => Number(d.dataset.seconds)));
  assert.ok(seconds[0] > 25 && seconds[0] < 29, `f4 took ${seconds[0]} s`);
  assert.ok(seconds[1] > 12 && seconds[1] < 16, `f5 took ${seconds[1]} s`);
  const shown = await page.getByTestId('duration').allTextContents();
  assert.match(shown[0].trim(), /^2\d\.\d s$/);
  assert.match(shown[1].trim(), /^1\d\.\d s$/);
  assert.deepEqual(await page.getByTestId('max-unavailable').allTextContents(), ['1', '2']);
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.lane .counters tbody tr[data-ds]')].every((r) =>
        ['desired', 'current', 'ready', 'up-to-date', 'available'].every(
          (c) => r.querySelector(`[data-col="${c}"]`).textContent === '4',
        ),
      ),
    null,
    { timeout: 30_000 },
  );
  assert.deepEqual(await counters(page), ['4/4/4/4/4', '4/4/4/4/4']);
  // One chart, a line per variant in each band, told apart by class (colour and dashes).
  assert.equal(await page.locator('.compare-chart svg[role="img"]').count(), 1);
  assert.equal(await page.locator('.compare-chart g[data-series="unavailable"] path.series.v0').count(), 1);
  assert.equal(await page.locator('.compare-chart g[data-series="unavailable"] path.series.v1').count(), 1);
  // Seeking moves both variants back together.
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('slider', { name: 'Timeline' }).evaluate((s) => {
    s.value = '1';
    s.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="duration"]')].every((d) => !d.dataset.seconds),
  );
  assert.match(await page.getByTestId('clock').textContent(), /t = 1\.0s/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bad compare list is explained and the saved session is left alone', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(BASE_URL);
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  const saved = await page.evaluate(() => localStorage.getItem('dsplay.autosave'));
  assert.ok(saved, 'the playground saved its session');
  const cases = [
    [`${F4},nope`, 'no preset has the id `nope`'],
    [`${F4},${F5.replace('-2', '-3')}`, `did you mean \`${F5}\`?`],
    [F4, 'names 1 scenario'],
    [`${F4},${F4}`, 'named twice'],
    [`${F4},${F5},${F4}:on-delete,${F5}:on-delete,f3-taints`, 'at most 4'],
    [`${F4},${F4}:faster`, '`faster` in'],
    [`shared,shared:on-delete`, 'no `#s=` share link'],
  ];
  for (const [list, said] of cases) {
    await page.goto(`${BASE_URL}?compare=${list}`);
    const error = page.getByTestId('compare-error');
    await error.waitFor({ timeout: 30_000 });
    const text = await error.textContent();
    assert.ok(text.includes(said), `${list}: ${text}`);
    assert.ok(text.includes('hint:'), `${list}: ${text}`);
    assert.equal(await page.locator('.lane').count(), 0);
  }
  assert.equal(await page.evaluate(() => localStorage.getItem('dsplay.autosave')), saved);
  assert.deepEqual(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('dsplay.autosave.kept'))),
    [],
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Compare menu forks the scenario shown; an edited one travels in the link', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?preset=${F4}`);
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.locator('.compare-menu summary').click();
  await page.locator('.compare-menu button[data-strategy="max-surge-1"]').click();
  await page.locator('.lane').nth(1).waitFor({ timeout: 30_000 });
  assert.ok(page.url().endsWith(`?compare=${F4},${F4}:max-surge-1`), page.url());
  assert.match(
    await page.locator('.lane h2').nth(1).textContent(),
    /RollingUpdate, maxSurge 1, maxUnavailable 0/,
  );
  // An edited scenario: its link carries it, named `shared`.
  await page.goto(`${BASE_URL}?preset=f1-one-pod-per-node`);
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.locator('article.node').first().waitFor();
  await page.getByRole('button', { name: '+ Add nodes' }).click();
  await page.locator('form.add-form button[type="submit"]').click();
  await page.locator('article.node[data-node="node"]').waitFor();
  await page.locator('.compare-menu summary').click();
  await page.locator('.compare-menu button[data-strategy="on-delete"]').click();
  await page.locator('.lane').nth(1).waitFor({ timeout: 30_000 });
  assert.match(page.url(), /\?compare=shared,shared:on-delete#s=1\./);
  assert.match(await page.locator('.lane h2').nth(1).textContent(), /OnDelete/);
  // Both variants have the edited cluster; the compare view offers no edits of its own.
  const nodes = await page.locator('.lane').evaluateAll((ls) => ls.map((l) => l.querySelectorAll('[data-node]').length));
  assert.equal(nodes[0], nodes[1]);
  assert.equal(await page.getByRole('button', { name: '+ Add nodes' }).count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a comparison works in an embed', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?embed=1&autoplay=1&speed=64&compare=${F4},${F4}:on-delete`);
  await page.locator('.compare-page.embed .lane').nth(1).waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    () => document.querySelector('[data-testid="duration"]')?.dataset.seconds,
    null,
    { timeout: 60_000 },
  );
  assert.equal(await page.getByText('Open the playground ↗').count(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});
