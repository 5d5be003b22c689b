// The release page ships its wasm packed as LZMA (crates/tools/xtask/src/pack.rs) and unpacks it as it
// downloads (public/boot.js, unlzma.js, crates/base/unlzma). These tests check that the page
// loads the packed file and never the raw one, and that a damaged download says so plainly,
// with a Reload that works once the file is whole again.
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

const PACKED = /_bg\.wasm\.lzma$/;
// The packed file itself, not boot.js, whose query ends with its name too.
const isPacked = (url) => PACKED.test(url.pathname);

test('the page loads the packed wasm and its decoder, never the raw wasm', async () => {
  const { page, problems } = await openPage(browser);
  const loaded = [];
  page.on('requestfinished', (req) => loaded.push(new URL(req.url()).pathname));
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  assert.equal(loaded.filter((p) => PACKED.test(p)).length, 1, loaded.join('\n'));
  assert.equal(loaded.filter((p) => p.endsWith('/public/unlzma.wasm')).length, 1, loaded.join('\n'));
  assert.deepEqual(loaded.filter((p) => p.endsWith('.wasm') && !p.endsWith('unlzma.wasm')), []);
  assert.deepEqual(problems, []);
});

/** Serves the packed wasm changed by `damage(bytes)`, until `unroute`. */
async function damaged(page, damage) {
  await page.route(isPacked, async (route) => {
    const body = damage(Buffer.from(await (await route.fetch()).body()));
    // Not `fulfill({ response })`: its Content-Length, of the whole file, would make the
    // browser wait for the missing half.
    await route.fulfill({ status: 200, contentType: 'application/x-lzma', body });
  });
}

for (const [name, damage, says] of [
  ['cut off half-way', (b) => b.subarray(0, b.length >> 1), /could not load: the packed wasm is damaged at byte \d+: the file ends before the size its header states is unpacked/],
  ['not LZMA at all', (b) => Buffer.concat([Buffer.from([0xff]), b.subarray(1)]), /could not load: the packed wasm is damaged at byte 0: byte 0 \(lc\/lp\/pb\) is above 224/],
]) {
  test(`a packed wasm ${name} shows what is wrong, and Reload loads the page once it is whole`, async () => {
    const { page, problems } = await openPage(browser);
    await damaged(page, damage);
    await page.goto(BASE_URL, { waitUntil: 'load' });
    const banner = page.getByRole('alert').filter({ hasText: 'could not load' });
    await banner.waitFor({ timeout: 30_000 });
    assert.match(await banner.textContent(), says);
    // The error also reaches the console, for whoever debugs a host. (A decoder that finds the
    // file damaged before its end stops the download: that request is reported as aborted.)
    const stopped = /^request failed: \S+_bg\.wasm\.lzma \(net::ERR_ABORTED\)$/;
    const others = problems.filter((p) => !stopped.test(p));
    assert.equal(others.length, 1, problems.join('\n'));
    assert.match(others[0], /^console error: LzmaError: the packed wasm is damaged/);
    // The Reload button has the focus: Enter reloads.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Reload');
    await page.unroute(isPacked);
    await banner.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.crash').count(), 0);
  });
}
