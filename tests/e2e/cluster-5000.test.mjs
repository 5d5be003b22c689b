// Issue 25: the preset at the upstream scalability limit. `?preset=cluster-5000-nodes` renders
// its 5,000 tiles and plays with no console error; a tile's hover names its node, and a click
// opens that node in Explain.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, openPage } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const clock = async (page) =>
  Number.parseFloat((await page.getByTestId('clock').textContent()).replace(/[^0-9.]/g, ''));

test('cluster-5000-nodes renders 5,000 tiles, plays, and a tile hovered and clicked is its node', async () => {
  const { page, problems } = await openPage(browser);
  const t0 = Date.now();
  await page.goto(`${BASE_URL}?preset=cluster-5000-nodes`, { waitUntil: 'load' });
  await page.locator('.tiles button[data-node="node5000"]').waitFor({ timeout: 60_000 });
  console.log(`# ?preset=cluster-5000-nodes → 5,000 tiles on screen: ${Date.now() - t0} ms`);
  assert.equal(await page.locator('.tiles button[data-node]').count(), 5000);

  // Plays: the DaemonSet wants a pod on every node, and the clock moves.
  await page.getByLabel('Speed').selectOption('16');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForFunction(
    () => document.querySelector('tr[data-ds="agent"] td[data-col="desired"]')?.textContent.trim() === '5000',
    null,
    { timeout: 60_000 },
  );
  await page.waitForFunction(() => Number.parseFloat(document.querySelector('[data-testid=clock]').textContent.replace(/[^0-9.]/g, '')) >= 5, null, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  assert.ok((await clock(page)) >= 5);

  // Hover: the tile under the pointer carries its node's name (its tooltip and accessible name).
  const tile = page.locator('.tiles button[data-node="node4321"]');
  await tile.scrollIntoViewIfNeeded();
  await tile.hover();
  const hovered = await page.evaluate(() => {
    const under = document.querySelectorAll(':hover');
    const b = under[under.length - 1];
    return { node: b?.dataset.node, title: b?.getAttribute('title') ?? '' };
  });
  assert.equal(hovered.node, 'node4321');
  assert.match(hovered.title, /^node4321 — Ready — /);

  // Click: Explain opens on that node.
  await tile.click();
  await page.waitForFunction(() => document.querySelector('.explain .explain-head h3')?.textContent === 'node4321', null, { timeout: 30_000 });
  assert.deepEqual(problems, []);
});
