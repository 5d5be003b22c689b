// Issue 5 end to end on the release build: share links replay what their author saw, edits
// survive a reload, a corrupt link is explained without touching saved work, the demo page's
// sandboxed embeds work, and a real cluster's nodes import with the right placements.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { BASE_URL, launchBrowser } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** A fresh browser context (own storage, empty cache) and a page that records problems. */
async function fresh() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return { context, page, problems };
}

async function ready(page) {
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
}

async function clock(page) {
  const t = await page.getByTestId('clock').textContent();
  return Number.parseFloat(t.replace(/[^0-9.]/g, ''));
}

async function cordon(page, node) {
  await page.locator(`article.node[data-node="${node}"]`).click();
  await page.locator('.explain .actions').getByRole('button', { name: 'Cordon' }).click();
}

async function scriptText(page) {
  await page.getByRole('tab', { name: 'Script' }).click();
  return page.locator('.script ol').textContent();
}

async function counters(page) {
  return page.locator('tr[data-ds] td[data-col]').allTextContents();
}

/**
 * Puts a link in the address bar of an open page, as a user pastes one: only the fragment
 * changes, and the page reloads itself to open it.
 */
async function paste(page, url) {
  const reloaded = page.waitForEvent('load');
  await page.goto(url);
  await reloaded;
}

/** A share link to the default preset with `node` cordoned, made in a browser of its own. */
async function linkWithCordon(node) {
  const author = await fresh();
  await author.page.goto(BASE_URL);
  await ready(author.page);
  await cordon(author.page, node);
  await author.page.getByRole('button', { name: 'Share link' }).click();
  const link = await author.page.getByRole('textbox', { name: 'Share link' }).inputValue();
  await author.context.close();
  return link;
}

/** A fresh browser whose saved session is the default preset with `node` cordoned. */
async function savedSessionWithCordon(node) {
  const session = await fresh();
  await session.page.goto(BASE_URL);
  await ready(session.page);
  await cordon(session.page, node);
  await session.page.waitForTimeout(300);
  return session;
}

async function playTo(page, t) {
  await page.getByLabel('Speed').selectOption('8');
  await page.getByRole('button', { name: 'Play' }).click();
  while ((await clock(page)) < t) await page.waitForTimeout(50);
  await page.getByRole('button', { name: 'Pause' }).click();
}

test('a share link opens the same cluster, DaemonSet, script and time in a fresh browser', async () => {
  const a = await fresh();
  await a.page.goto(BASE_URL);
  await ready(a.page);
  await cordon(a.page, 'worker3');
  await playTo(a.page, 8);
  await a.page.getByRole('button', { name: 'Share link' }).click();
  const link = await a.page.getByRole('textbox', { name: 'Share link' }).inputValue();
  await a.page.getByRole('button', { name: 'Copy link' }).click();
  assert.match(a.page.url(), /#s=1\./, 'Copy link puts the link in the address bar');
  assert.match(link, /#s=1\.[A-Za-z0-9_-]+&t=\d/);
  const want = {
    t: await clock(a.page),
    nodes: await a.page.locator('article.node').evaluateAll((ns) => ns.map((n) => n.dataset.node)),
    counters: await counters(a.page),
    script: await scriptText(a.page),
  };
  assert.match(want.script, /kubectl cordon worker3/);

  const b = await fresh();
  await b.page.goto(link);
  await ready(b.page);
  const got = {
    t: await clock(b.page),
    nodes: await b.page.locator('article.node').evaluateAll((ns) => ns.map((n) => n.dataset.node)),
    counters: await counters(b.page),
    script: await scriptText(b.page),
  };
  assert.deepEqual(got, want);
  assert.ok(await b.page.locator('article.node[data-node="worker3"].cordoned').count(), 'worker3 shows cordoned');
  assert.deepEqual(a.problems, []);
  assert.deepEqual(b.problems, []);
  await a.context.close();
  await b.context.close();
});

test('edits survive a reload; a corrupt link shows a message and the saved work survives', async () => {
  const { context, page, problems } = await fresh();
  await page.goto(BASE_URL);
  await ready(page);
  await cordon(page, 'worker2');
  await page.getByLabel('Theme').selectOption('dark');
  await page.waitForTimeout(300);
  await page.reload();
  await ready(page);
  assert.match(await scriptText(page), /kubectl cordon worker2/, 'the edit is back after a reload');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'so is the theme');
  assert.ok(await page.locator('article.node[data-node="worker2"].cordoned').count());

  // A link cut short and changed on the way.
  await paste(page, `${BASE_URL}#s=1.q1YqzUvPLEnVTc7PK0ktLlGyUlAqSSxOzbEtzsjPS8ksqlSq5QIA~~&t=5`);
  await ready(page);
  const notice = await page.getByTestId('notice').textContent();
  assert.match(notice, /share link cannot be opened/i);
  assert.match(notice, /hint:/);
  assert.match(notice, /untouched/);
  assert.match(await scriptText(page), /kubectl cordon worker2/, 'the saved work is what shows');
  const saved = await page.evaluate(() => localStorage.getItem('dsplay.autosave'));
  assert.ok(saved && saved.startsWith('#s=1.'), 'the saved work is still in storage');
  // An unknown format version is named.
  await paste(page, `${BASE_URL}#s=9.abc`);
  await ready(page);
  assert.match(await page.getByTestId('notice').textContent(), /9/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('opening a link keeps the saved session aside and can restore it; a link pasted into the address bar opens', async () => {
  const link = await linkWithCordon('worker4');
  const { context, page, problems } = await savedSessionWithCordon('worker2');
  // Pasted into the address bar of the open page: only the fragment changes.
  await paste(page, link);
  await ready(page);
  assert.match(await scriptText(page), /kubectl cordon worker4/, 'the link opened');
  assert.doesNotMatch(await scriptText(page), /worker2/);
  const kept = await page.getByTestId('kept').textContent();
  assert.match(kept, /Your previous session \(“[^”]+”, \d+ script lines?, kept at \d\d:\d\d\) was kept aside/, 'names the previous session in words');
  assert.doesNotMatch(kept, /dsplay\./, 'not by its storage key');
  await page.getByTestId('kept').getByRole('button', { name: 'Restore it' }).click();
  assert.match(await scriptText(page), /kubectl cordon worker2/, 'the previous session is back');
  assert.doesNotMatch(page.url(), /#s=/, 'the link left the address');
  await page.waitForTimeout(1200);
  await page.reload();
  await ready(page);
  assert.match(await scriptText(page), /kubectl cordon worker2/, 'and it is what a reload restores');
  assert.equal(await page.getByTestId('kept').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('two tabs at once: each keeps its newest session, and a new tab offers the other one', async () => {
  const { context, page: a, problems } = await fresh();
  await a.goto(BASE_URL);
  await ready(a);
  await cordon(a, 'worker2');
  await a.waitForTimeout(500);
  const b = await context.newPage();
  b.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await b.goto(BASE_URL);
  await ready(b);
  assert.match(await scriptText(b), /kubectl cordon worker2/, 'the second tab restores the first tab\'s session');
  await cordon(b, 'worker3');
  await b.waitForTimeout(500);
  // The first tab saves again, over the second tab's session.
  await cordon(a, 'worker4');
  await a.waitForTimeout(500);
  const tabKept = () =>
    a.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('dsplay.autosave.kept.tab-')));
  assert.equal((await tabKept()).length, 1, 'the second tab\'s session is kept aside, once');
  await cordon(b, 'worker');
  await b.waitForTimeout(500);
  await cordon(a, 'worker');
  await a.waitForTimeout(500);
  assert.equal((await tabKept()).length, 1, 'saving in turns rewrites that one copy');
  await a.close();
  await b.close();

  // Both closed: a new tab opens the session saved last and offers the other tab's.
  const c = await context.newPage();
  c.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await c.goto(BASE_URL);
  await ready(c);
  const last = await scriptText(c);
  assert.match(last, /kubectl cordon worker4/);
  assert.doesNotMatch(last, /worker3/);
  const kept = await c.getByTestId('kept').textContent();
  assert.match(kept, /Another tab's session/);
  assert.match(kept, /open at the same time \(“[^”]+”, \d+ script lines?\)/);
  assert.doesNotMatch(kept, /dsplay\./, 'not by its storage key');
  await c.getByTestId('kept').getByRole('button', { name: 'Restore it' }).click();
  const other = await scriptText(c);
  assert.match(other, /kubectl cordon worker3/, 'the other tab\'s session, with its last edit');
  assert.match(other, /kubectl cordon worker(?!\d)/);
  assert.doesNotMatch(other, /worker4/);
  await c.waitForTimeout(500);
  await c.close();

  // Restoring swapped the two: the first tab's session is the one kept now. Dismiss archives it.
  const d = await context.newPage();
  d.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await d.goto(BASE_URL);
  await ready(d);
  assert.match(await scriptText(d), /kubectl cordon worker3/, 'the restored session is the saved one');
  await d.getByTestId('kept').getByRole('button', { name: 'Dismiss' }).click();
  const keys = await d.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('dsplay.autosave.kept.')));
  assert.equal(keys.length, 1, `one kept session: ${keys}`);
  assert.match(keys[0], /^dsplay\.autosave\.kept\.\d+$/, 'dismissed: archived, not offered again');
  await d.reload();
  await ready(d);
  assert.equal(await d.getByTestId('kept').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with the storage full, opening a link does not save over the session it could not keep', async () => {
  const link = await linkWithCordon('worker4');
  const { context, page, problems } = await savedSessionWithCordon('worker2');
  const before = await page.evaluate(() => localStorage.getItem('dsplay.autosave'));
  assert.ok(before, 'the session is saved');
  // Fill the origin's storage until not even one more character fits.
  await page.evaluate(() => {
    let n = 1 << 20;
    let i = 0;
    while (n > 0) {
      try {
        localStorage.setItem(`fill${i++}`, 'x'.repeat(n));
      } catch {
        n >>= 1;
      }
    }
  });
  await paste(page, link);
  await ready(page);
  assert.match(await scriptText(page), /kubectl cordon worker4/, 'the link opened');
  const notice = await page.getByTestId('notice').textContent();
  assert.match(notice, /could not be kept aside/);
  assert.match(notice, /will not save over it/);
  await cordon(page, 'worker3');
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => localStorage.getItem('dsplay.autosave')), before, 'the old session is still the saved one');
  const unsaved = await page.getByTestId('unsaved').textContent();
  assert.match(unsaved, /not saved in this browser/, 'the toolbar says this session is not saved');
  assert.match(unsaved, /Download YAML/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the demo page renders three working embeds in sandboxed iframes', async () => {
  const { context, page, problems } = await fresh();
  await page.goto(new URL('public/embed-demo.html', BASE_URL).href);
  // The docs-like embeds (the host-driven one above them is embed-api.test.mjs's).
  const docs = 'iframe[id^="embed-f"]';
  const frames = page.locator(docs);
  assert.equal(await frames.count(), 3);
  for (let i = 0; i < 3; i++) {
    const el = frames.nth(i);
    await el.scrollIntoViewIfNeeded();
    assert.equal(await el.getAttribute('sandbox'), 'allow-scripts');
    const frame = page.frameLocator(docs).nth(i);
    await frame.locator('tr[data-ds]').waitFor({ timeout: 30_000 });
    await frame.locator('article.node, .tiles button').first().waitFor();
    // Autoplay: the clock moves.
    const t0 = await frame.getByTestId('clock').textContent();
    await page.waitForTimeout(700);
    assert.notEqual(await frame.getByTestId('clock').textContent(), t0, `embed ${i + 1} plays`);
  }
  // The whole page in the viewport: Chromium does not paint a cross-origin iframe outside it
  // (offscreen embeds are throttled), so a full-page screenshot of an 800-px viewport showed the
  // second and third embeds blank.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height });
  await page.waitForTimeout(500);
  await page.screenshot({ path: new URL('./screenshots/embed-demo.png', import.meta.url).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('an embed address with a mistyped option still plays, and says which option and why', async () => {
  const { context, page, problems } = await fresh();
  await page.goto(new URL('?embed=1&autoplay=1&preset=f3-taint&speed=4&theme=purple&utm_source=docs', BASE_URL).href);
  await page.locator('tr[data-ds]').waitFor({ timeout: 30_000 });
  const notice = await page.getByTestId('notice').textContent();
  assert.match(notice, /has options the playground cannot use/);
  assert.match(notice, /`preset=f3-taint`: no preset has this id\n\s+hint: did you mean `preset=f3-taints`\? The presets are f1-one-pod-per-node, /);
  assert.match(notice, /`theme=purple`: not a theme/);
  assert.doesNotMatch(notice, /speed=4|utm_source/, 'good and unknown options are not reported');
  // The page opened what it could: the default preset, playing at 4×.
  const t0 = await page.getByTestId('clock').textContent();
  await page.waitForTimeout(700);
  assert.notEqual(await page.getByTestId('clock').textContent(), t0, 'the embed plays');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await page.getByTestId('notice').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('importing a recorded `kubectl get nodes -o yaml` places the pods right', async () => {
  const fixture = await readFile(new URL('../../crates/play/scenario/tests/fixtures/gke-nodes.yaml', import.meta.url), 'utf8');
  const { context, page, problems } = await fresh();
  await page.goto(BASE_URL);
  await ready(page);
  await page.getByRole('button', { name: 'Import nodes' }).click();
  await page.getByLabel('Nodes to import').fill(fixture);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('article.node[data-node="gke-prod-gpu-pool-5d19e2b7-w2lf"]').waitFor();
  console.log(`# import of ${fixture.length} bytes (5 GKE nodes) → first render: ${Date.now() - t0} ms`);
  await playTo(page, 10);
  // fluentd tolerates neither the GPU taint nor anything else special: every node but the GPU
  // one runs it, the cordoned one included (daemon pods tolerate unschedulable).
  const decisions = await page
    .locator('article.node')
    .evaluateAll((ns) => Object.fromEntries(ns.map((n) => [n.dataset.node, n.dataset.decision])));
  assert.equal(decisions['gke-prod-gpu-pool-5d19e2b7-w2lf'], 'no-pod');
  for (const n of ['gke-prod-default-pool-8f2a1c3e-x7k2', 'gke-prod-default-pool-8f2a1c3e-q9vd', 'gke-prod-default-pool-2b7e9d41-m4tc']) {
    assert.equal(decisions[n], 'pod', n);
    assert.equal(await page.locator(`article.node[data-node="${n}"] li.pod`).count(), 1, `${n} runs a pod`);
  }
  assert.equal(await page.locator('article.node[data-node="gke-prod-gpu-pool-5d19e2b7-w2lf"] li.pod').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
