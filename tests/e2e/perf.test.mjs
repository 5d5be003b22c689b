// Figures for the README, measured on the release build (a timed harness, not a pass/fail gate
// except where a budget is stated): what the page loads (gzipped), time from navigation to the
// first rendered cluster on a cold cache, and frames per second while playing the 500-node
// preset and a 1,000-node cluster.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { BASE_URL, launchBrowser, openPage } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Frames per second over `ms` while the page plays, and the longest frame. */
async function fps(page, ms = 5000) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        let frames = 0;
        let worst = 0;
        const start = performance.now();
        let last = start;
        const tick = (t) => {
          frames++;
          worst = Math.max(worst, t - last);
          last = t;
          if (t - start < ms) requestAnimationFrame(tick);
          else resolve({ fps: (frames * 1000) / (t - start), worstFrameMs: worst });
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

async function play(page, speed) {
  await page.getByLabel('Speed').selectOption(String(speed));
  await page.getByRole('button', { name: 'Play' }).click();
}

test('page weight and cold load', async () => {
  // A fresh context has an empty cache.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const loaded = [];
  page.on('response', async (res) => {
    try {
      const body = await res.body();
      loaded.push({ url: new URL(res.url()).pathname, raw: body.length, gz: gzipSync(body, { level: 9 }).length });
    } catch {
      // Redirects and the like have no body.
    }
  });
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.locator('article.node').first().waitFor({ timeout: 30_000 });
  const firstCluster = await page.evaluate(() => performance.now());
  await page.waitForTimeout(200);
  const total = loaded.reduce((s, f) => s + f.gz, 0);
  for (const f of loaded) console.log(`# load ${f.url}: ${(f.raw / 1024).toFixed(1)} KiB raw, ${(f.gz / 1024).toFixed(1)} KiB gzip`);
  console.log(`# total gzip: ${(total / 1024).toFixed(1)} KiB (${total} bytes) over ${loaded.length} files`);
  console.log(`# navigation → first rendered cluster (cold cache): ${firstCluster.toFixed(0)} ms`);
  assert.ok(loaded.length > 0);
  await context.close();
});

test('frames per second: the 500-node preset', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByLabel('Preset').selectOption('cluster-500-nodes');
  await page.locator('.tiles button').first().waitFor();
  for (const speed of [1, 8]) {
    await play(page, speed);
    const f = await fps(page);
    await page.getByRole('button', { name: 'Pause' }).click();
    console.log(`# 500-node preset at ${speed}×: ${f.fps.toFixed(1)} fps, longest frame ${f.worstFrameMs.toFixed(0)} ms`);
  }
  assert.deepEqual(problems, []);
});

test('frames per second: a 1,000-node cluster', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByLabel('Preset').selectOption('cluster-500-nodes');
  await page.locator('.tiles button').first().waitFor();
  // 500 more nodes through the UI (each a `node add` line in the script).
  await page.getByRole('button', { name: '+ Add nodes' }).click();
  await page.getByLabel('Name prefix').fill('extra');
  await page.getByLabel('How many').fill('499');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('.tiles button').length >= 1000, null, { timeout: 60_000 });
  for (const speed of [1, 8]) {
    await play(page, speed);
    const f = await fps(page);
    await page.getByRole('button', { name: 'Pause' }).click();
    console.log(`# 1,000-node cluster at ${speed}×: ${f.fps.toFixed(1)} fps, longest frame ${f.worstFrameMs.toFixed(0)} ms`);
  }
  assert.deepEqual(problems, []);
});
