// Every screen size from a 360 px phone up (issue 24): no page is wider than the screen.
// The counters table and long messages scroll or wrap inside their own boxes; the time
// controls wrap and the timeline slider gets a row of its own on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { BASE_URL, launchBrowser } from './support/browser.mjs';

const shots = new URL('./screenshots/', import.meta.url);
let browser;
before(async () => {
  browser = await launchBrowser();
  await mkdir(shots, { recursive: true });
});
after(async () => {
  await browser?.close();
});

const PAGES = [
  ['playground', ''],
  ['500 nodes', '?preset=cluster-500-nodes'],
  ['a lesson', '?lesson=max-surge'],
  ['a comparison', '?compare=f4-rolling-update-max-unavailable-1,f5-rolling-update-max-unavailable-2'],
  ['a bad comparison (a long hint)', '?compare=nope,f2-node-labels'],
  ['an embed with the chart', '?embed=1&panel=chart&preset=f4-rolling-update-max-unavailable-1'],
  ['a corrupt share link', '#s=AAAA'],
];
const SIZES = [
  [360, 740],
  [390, 844],
  [768, 1024],
  [800, 560],
  [1024, 768],
  [1440, 900],
];

/** Elements whose right edge passes the viewport's, outside any box that scrolls them. */
async function overflow(page) {
  return page.evaluate(() => {
    const scrolls = (e) => {
      for (let p = e.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p).overflowX;
        if ((s === 'auto' || s === 'scroll' || s === 'hidden') && p.clientWidth < innerWidth) return true;
      }
      return false;
    };
    return {
      width: document.documentElement.scrollWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !scrolls(e))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
    };
  });
}

for (const [name, query] of PAGES) {
  test(`${name}: no horizontal overflow from 360 px up`, async () => {
    for (const [width, height] of SIZES) {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(`${BASE_URL}${query}`, { waitUntil: 'load' });
      await page.locator('main, .page, .app').first().waitFor();
      await page.waitForTimeout(500);
      const { width: scrollWidth, wide } = await overflow(page);
      if (width === 390 && query === '') {
        await page.screenshot({ path: new URL('responsive-phone.png', shots).pathname, fullPage: true });
      }
      assert.equal(scrollWidth, width, `${name} at ${width}×${height} is ${scrollWidth} px wide: ${wide.join(', ')}`);
      assert.deepEqual(wide, [], `${name} at ${width}×${height}`);
      await page.close();
    }
  });
}

test('on a phone the timeline slider has a row of its own and the clock stays on screen', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(BASE_URL, { waitUntil: 'load' });
  const slider = page.getByLabel('Timeline');
  await slider.waitFor();
  const box = await slider.boundingBox();
  assert.ok(box.width >= 250, `the slider is ${box.width} px wide`);
  const clock = await page.getByTestId('clock').boundingBox();
  assert.ok(clock.x + clock.width <= 390, 'the clock is off-screen');
  await page.close();
});
