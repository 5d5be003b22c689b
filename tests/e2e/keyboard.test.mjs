// Keyboard, screen-reader announcements and honest states (issue 24), in the release build:
// the main path walked with the keyboard alone; Esc closes what it opened and gives focus back;
// keys on a focused widget never drive the simulation; live regions stay calm while playing;
// copy actions confirm; the page says why when it cannot boot; the first-visit suggestions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, recordProblems } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function fresh(query = '', viewport = { width: 1280, height: 800 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems = [];
  recordProblems(page, problems);
  await page.goto(`${BASE_URL}${query}`);
  await page.getByTestId('clock').waitFor({ timeout: 30_000 });
  return { context, page, problems };
}

/** What has focus: its tag, role, accessible-ish name, id and data-item. */
function focused(page) {
  return page.evaluate(() => {
    const e = document.activeElement;
    return {
      tag: e?.tagName.toLowerCase(),
      role: e?.getAttribute('role') ?? '',
      id: e?.id ?? '',
      name: (e?.getAttribute('aria-label') ?? e?.textContent ?? '').trim(),
      item: e?.getAttribute('data-item') ?? '',
    };
  });
}

/** Presses Tab (Shift+Tab with `back`) until `wanted(focus)` holds; returns how many presses it took. */
async function tabTo(page, wanted, max = 80, back = false) {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (wanted(await focused(page))) return i;
  }
  throw new Error(`not reached with ${max} Tab presses; focus is on ${JSON.stringify(await focused(page))}`);
}

/** The clock's reading, `t = 12.3s`. */
const clock = (page) => page.getByTestId('clock').evaluate((e) => e.textContent.match(/t = [\d.]+s/)[0]);

test('a keyboard-only walkthrough: load, play, step, choose a node, read Explain, edit YAML, apply, every panel, share', async () => {
  const { context, page, problems } = await fresh('?preset=f1-one-pod-per-node');

  // The first Tab reaches "Skip to panels"; it lands on the selected tab.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).name, 'Skip to panels');
  await page.keyboard.press('Enter');
  assert.deepEqual(
    [(await focused(page)).role, (await focused(page)).id],
    ['tab', 'tab-explain'],
    'Skip to panels lands on the selected tab',
  );

  // Play and pause with the Play button; Pause ends with a spoken summary.
  await page.locator('body').evaluate(() => document.activeElement.blur());
  await tabTo(page, (f) => f.name === 'Play');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  await page.waitForTimeout(1500);
  assert.equal((await focused(page)).name, 'Pause', 'focus stays on the button');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Play' }).waitFor();
  assert.match(await page.getByTestId('summary').textContent(), /^t = \d+\.\ds\. fluentd: \d+ desired, \d+ current/);

  // Step: the button moves the clock on.
  const before = await clock(page);
  await tabTo(page, (f) => f.name === 'Step to the next change');
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (b) => document.querySelector('[data-testid=clock]').textContent.match(/t = [\d.]+s/)[0] !== b,
    before,
  );

  // The node cards are one tab stop; arrows move between them and never step the simulation.
  const first = await tabTo(page, (f) => f.item !== '');
  assert.ok(first > 0);
  const at = await clock(page);
  const start = (await focused(page)).item;
  await page.keyboard.press('ArrowRight');
  const second = (await focused(page)).item;
  assert.notEqual(second, start, '→ moves to the next node');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await focused(page)).item, start, '← moves back');
  await page.keyboard.press('End');
  const last = (await focused(page)).item;
  assert.equal(last, await page.locator('[data-item]').last().getAttribute('data-item'), 'End goes to the last node');
  await page.keyboard.press('Home');
  assert.equal((await focused(page)).item, start, 'Home goes to the first node');
  assert.equal(await clock(page), at, 'arrows on a node do not step');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  // Explain tells about the chosen node.
  await page.waitForFunction(
    (n) => document.querySelector('#side-panel')?.textContent.includes(n),
    second,
  );
  // Tab leaves the grid in one press (it is one stop), on to the panels.
  const leave = await tabTo(page, (f) => f.item === '');
  assert.equal(leave, 1, 'one Tab leaves the node grid');

  // The tabs: arrows select each panel and keep focus on the tabs, the Terminal's too.
  await tabTo(page, (f) => f.role === 'tab');
  await page.keyboard.press('Home');
  const seen = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('ArrowRight');
    const f = await focused(page);
    assert.equal(f.role, 'tab', `focus stays on the tabs (after ${seen.join(', ')})`);
    seen.push(f.id);
  }
  assert.deepEqual(seen, ['tab-yaml', 'tab-terminal', 'tab-events', 'tab-chart', 'tab-script']);

  // YAML: into the editor, change the image, Esc back to the tab, Tab on to Apply.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.equal((await focused(page)).id, 'tab-yaml');
  await tabTo(page, (f) => f.tag === 'textarea');
  const text = await page.getByLabel('DaemonSet manifest (YAML)').inputValue();
  const image = text.match(/image: (\S+)/)[1];
  await page.evaluate(
    ([img]) => {
      const ta = document.activeElement;
      const i = ta.value.indexOf(img) + img.length;
      ta.setSelectionRange(i, i);
    },
    [image],
  );
  await page.keyboard.type('-next');
  await page.keyboard.press('Escape');
  assert.equal((await focused(page)).id, 'tab-yaml', 'Esc in the editor goes to its tab');
  await tabTo(page, (f) => f.name === 'Apply');
  await page.keyboard.press('Enter');
  await page.getByTestId('caption').filter({ hasText: '$ kubectl apply' }).waitFor();

  // Share, back up the page (forward, Tab would enter the editor, where it indents):
  // Enter opens, Esc closes and gives focus back to the button.
  await tabTo(page, (f) => f.id === 'tool-share', 80, true);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Copy link' }).waitFor();
  await tabTo(page, (f) => f.name === 'Copy link');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Copy link' }).waitFor({ state: 'detached' });
  assert.equal((await focused(page)).id, 'tool-share', 'Esc gives focus back to Share link');
  // Embed the same way.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).id, 'tool-embed');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Copy embed snippet' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Copy embed snippet' }).waitFor({ state: 'detached' });
  assert.equal((await focused(page)).id, 'tool-embed');

  assert.deepEqual(problems, []);
  await context.close();
});

test('500 nodes: the tiles are one tab stop, arrows move by rows and never step, Esc closes Add nodes', async () => {
  const { context, page, problems } = await fresh('?preset=cluster-500-nodes');
  await page.locator('.compact-toggle input').focus();
  const presses = await tabTo(page, (f) => f.role === 'tab', 40);
  assert.ok(presses <= 6, `${presses} Tab presses from the compact switch to the panels`);

  await page.locator('body').evaluate(() => document.activeElement.blur());
  await tabTo(page, (f) => f.item !== '');
  const at = await clock(page);
  const start = (await focused(page)).item;
  // Where the focused tile is on the page (not in the viewport: focusing may scroll).
  const box = async () =>
    page.evaluate(() => {
      const r = document.activeElement.getBoundingClientRect();
      return { top: r.top + window.scrollY, left: r.left + window.scrollX };
    });
  const a = await box();
  await page.keyboard.press('ArrowDown');
  const b = await box();
  assert.ok(b.top > a.top && Math.abs(b.left - a.left) < 2, '↓ goes to the tile below');
  await page.keyboard.press('ArrowUp');
  assert.equal((await focused(page)).item, start, '↑ comes back');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await clock(page), at, 'arrows on a tile do not step');

  // Add nodes: Esc closes the form and gives focus back to its button.
  await page.locator('#add-nodes').focus();
  await page.keyboard.press('Enter');
  await page.locator('#add-nodes[aria-expanded=true]').waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await page.locator('#add-nodes[aria-expanded=false]').waitFor();
  assert.equal((await focused(page)).id, 'add-nodes');
  assert.deepEqual(problems, []);
  await context.close();
});

test('announcements stay calm: 500 nodes at 16× for 5 s make at most 3', async () => {
  const { context, page, problems } = await fresh('?preset=cluster-500-nodes');
  // Count each batch of changes to a region a screen reader would speak (aria-live not off,
  // or a status/log/alert role), as it would be queued: one per region per batch.
  await page.evaluate(() => {
    window.__said = [];
    const live = (n) => {
      const e = n.nodeType === 1 ? n : n.parentElement;
      const r = e?.closest('[aria-live], [role=status], [role=log], [role=alert]');
      if (!r) return null;
      const mode = r.getAttribute('aria-live') ?? (r.getAttribute('role') === 'alert' ? 'assertive' : 'polite');
      return mode === 'off' ? null : r;
    };
    new MutationObserver((records) => {
      const regions = new Set(records.map((r) => live(r.target)).filter(Boolean));
      for (const r of regions) if (r.textContent.trim()) window.__said.push(r.textContent.trim().slice(0, 80));
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByLabel('Speed').selectOption('16');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForTimeout(5000);
  const said = await page.evaluate(() => window.__said);
  console.log(`# announcements while playing 500 nodes at 16× for 5 s: ${said.length} ${JSON.stringify(said)}`);
  assert.ok(said.length <= 3, `${said.length} announcements: ${said.join(' | ')}`);
  // Pause: one summary.
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=summary]').textContent.includes('desired'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('Copy link and Copy embed snippet say that they copied, in a status region', async () => {
  const { context, page, problems } = await fresh('?preset=f1-one-pod-per-node', undefined, {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await page.getByRole('button', { name: 'Share link' }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const status = page.getByTestId('copy-status');
  await status.filter({ hasText: /copied/i }).waitFor();
  assert.equal(await status.getAttribute('role'), 'status');
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);

  await page.getByRole('button', { name: 'Embed' }).click();
  await page.getByRole('button', { name: 'Copy embed snippet' }).click();
  await page.getByTestId('copy-status').filter({ hasText: /copied/i }).waitFor();
  assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^<iframe /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a page whose wasm cannot load says why and what the host must do', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(/\.wasm$/, (route) => route.abort('blockedbyclient'));
  await page.goto(BASE_URL);
  const fallback = page.locator('#boot-fallback');
  await fallback.locator('.boot-help').waitFor({ state: 'visible', timeout: 15_000 });
  const words = await fallback.innerText();
  assert.match(words, /WebAssembly/);
  assert.match(words, /Access-Control-Allow-Origin/);
  await page.screenshot({ path: 'target/e2e-shots/boot-fallback.png' }).catch(() => {});
  await context.close();
});

test('the clock says when nothing more will happen', async () => {
  const { context, page, problems } = await fresh('?preset=f1-one-pod-per-node');
  assert.equal(await page.getByTestId('at-rest').count(), 0, 'not at rest before the script ran');
  await page.getByLabel('Speed').selectOption('64');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.getByTestId('at-rest').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('at-rest').textContent(), 'at rest: nothing more will happen');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a first visit shows three things to try; dismissed, they stay dismissed', async () => {
  const { context, page, problems } = await fresh('?preset=f1-one-pod-per-node');
  const strip = page.getByTestId('try-this');
  await strip.waitFor();
  assert.equal(await strip.getByRole('listitem').count(), 3);
  await strip.getByRole('button', { name: 'Dismiss' }).click();
  await strip.waitFor({ state: 'detached' });
  assert.equal((await focused(page)).id, 'story-title', 'focus goes to the story, not to the body');
  await page.reload();
  await page.getByTestId('clock').waitFor();
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('try-this').count(), 0, 'not shown again');
  assert.deepEqual(problems, []);
  await context.close();
});
