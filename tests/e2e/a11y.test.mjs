// Accessibility (issue 24): axe-core's WCAG 2.2 A/AA rules and its best practices on every kind
// of page, in both themes. No serious or critical violation is allowed; moderate and minor
// ones are printed (`# axe …` lines) so they stay in view. axe reads the DOM as a screen reader
// would: names, roles, contrast, target sizes, focusable scrolling regions, headings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { BASE_URL, launchBrowser } from './support/browser.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/**
 * axe's serious and critical violations on the page as it is now, one line each: rule, impact,
 * first targets. The others are printed.
 */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
    TAGS,
  );
  const line = (v) =>
    `${v.id} (${v.impact}): ${v.nodes.length}× e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`;
  const blocking = (v) => v.impact === 'serious' || v.impact === 'critical';
  for (const v of found.filter((v) => !blocking(v))) console.log(`# axe ${page.url()}: ${line(v)}`);
  return found.filter(blocking).map(line);
}

/** A page with axe allowed in: the page's CSP forbids injected scripts, rightly. */
async function open(query, theme, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, bypassCSP: true, colorScheme: theme });
  const page = await context.newPage();
  await page.goto(`${BASE_URL}${query}`, { waitUntil: 'load' });
  await page.locator('main, .page, .app').first().waitFor();
  await page.waitForTimeout(600);
  return { page, context };
}

const PAGES = [
  ['the playground', ''],
  ['500 nodes as tiles', '?preset=cluster-500-nodes'],
  ['a lesson', '?lesson=max-surge'],
  ['a comparison', '?compare=f4-rolling-update-max-unavailable-1,f5-rolling-update-max-unavailable-2'],
  ['an embed with the chart', '?embed=1&panel=chart&preset=f4-rolling-update-max-unavailable-1'],
  ['an embed with the events', '?embed=1&panel=events&preset=bad-rollout-undo'],
];

for (const [name, query] of PAGES) {
  for (const theme of ['light', 'dark']) {
    test(`axe: ${name}, ${theme} theme, after playing a while`, async () => {
      const { page, context } = await open(query, theme);
      // Some states only exist once the rollout runs: pods in every colour, events, a chart.
      const play = page.getByRole('button', { name: 'Play' });
      if (await play.count()) {
        await page.getByLabel('Speed').first().selectOption('16');
        await play.first().click();
        await page.waitForTimeout(1500);
        await page.getByRole('button', { name: 'Pause' }).first().click();
      }
      assert.deepEqual(await violations(page), [], `${name} (${theme})`);
      await context.close();
    });
  }
}

test('axe: every panel of the playground, one after the other', async () => {
  const { page, context } = await open('?preset=bad-rollout-undo', 'light');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForTimeout(1500);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.locator('article.node').first().click();
  const problems = [];
  for (const tab of ['Explain', 'YAML', 'Terminal', 'Events', 'Chart', 'Script']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForTimeout(200);
    for (const v of await violations(page)) problems.push(`${tab}: ${v}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
