// Issue 27 item 7 end to end on the release build: the autosave (crates/front/app/src/persist.rs)
// when the browser's storage fails it — full while editing, a corrupt or foreign save, a save
// of another format version, two tabs editing at once. The page keeps working, says what
// happened in words, and never destroys a session silently.
//
// Covered elsewhere, not repeated: a full storage when a link replaces the saved session
// (share-embed.test.mjs, "with the storage full, opening a link …"), and two tabs saving in
// turns, each keeping its newest session (share-embed.test.mjs, "two tabs at once …").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, recordProblems } from './support/browser.mjs';
import { readFragment, shareFragment } from './support/share.mjs';

const AUTOSAVE = 'dsplay.autosave';
const DEFAULT_TITLE = 'One pod per eligible node';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function fresh() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  recordProblems(page, problems);
  return { context, page, problems };
}

async function ready(page) {
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
}

async function cordon(page, node) {
  await page.locator(`article.node[data-node="${node}"]`).click();
  await page.locator('.explain .actions').getByRole('button', { name: 'Cordon' }).click();
  await page.locator(`article.node[data-node="${node}"].cordoned`).waitFor();
}

async function scriptText(page) {
  await page.getByRole('tab', { name: 'Script' }).click();
  return page.locator('.script ol').textContent();
}

const saved = (page) => page.evaluate((k) => localStorage.getItem(k), AUTOSAVE);
const savedScript = async (page) => readFragment(await saved(page)).script ?? [];
const keys = (page, prefix) =>
  page.evaluate((p) => Object.keys(localStorage).filter((k) => k.startsWith(p)).sort(), prefix);

/** Opens the playground with `value` as its saved session (written before the app starts). */
async function openWithSave(value, { full = false } = {}) {
  const s = await fresh();
  // Opened alone, the icon makes Chromium ask for /favicon.ico, which the site does not have.
  await s.context.route('**/favicon.ico', (r) => r.fulfill({ status: 204 }));
  // A file of the same origin that is not the app: the save is in place before the app reads.
  await s.page.goto(new URL('public/favicon.svg', BASE_URL).href);
  await s.page.evaluate(([k, v]) => localStorage.setItem(k, v), [AUTOSAVE, value]);
  if (full) await s.context.addInitScript(fullStorage);
  await s.page.goto(BASE_URL);
  await ready(s.page);
  return s;
}

/** Makes every storage write fail as a full storage does (Chromium's QuotaExceededError). */
function fullStorage() {
  window.__setItem ??= Storage.prototype.setItem;
  Storage.prototype.setItem = function () {
    throw new DOMException("Failed to execute 'setItem' on 'Storage': the quota has been exceeded.", 'QuotaExceededError');
  };
}

test('storage full while editing: the page keeps working, says the session is not saved, and loses nothing', async () => {
  const { context, page, problems } = await fresh();
  await page.goto(BASE_URL);
  await ready(page);
  await cordon(page, 'worker2');
  await page.waitForFunction((k) => localStorage.getItem(k)?.length > 0, AUTOSAVE);
  assert.ok((await savedScript(page)).includes('kubectl cordon worker2'));

  await page.evaluate(fullStorage);
  await cordon(page, 'worker3');
  const unsaved = page.getByTestId('unsaved');
  await unsaved.waitFor();
  assert.match(
    await unsaved.textContent(),
    /not saved in this browser: the browser refused to store it \(its storage for this site may be full\)\. Download YAML or a share link keeps it\./,
  );
  assert.doesNotMatch((await savedScript(page)).join('\n'), /worker3/, 'the stored session is the last one that fit');
  // The page goes on: another edit, the terminal, time.
  await cordon(page, 'worker4');
  await page.getByRole('tab', { name: 'Terminal' }).click();
  await page.getByLabel('kubectl command').fill('kubectl get nodes');
  await page.getByLabel('kubectl command').press('Enter');
  await page.waitForFunction(() => /worker4\s+Ready,SchedulingDisabled/.test(document.querySelector('[data-testid=terminal-output]').textContent));
  await page.getByRole('button', { name: 'Step to the next change' }).click();
  const inMemory = await scriptText(page);
  for (const n of ['worker2', 'worker3', 'worker4']) assert.match(inMemory, new RegExp(`kubectl cordon ${n}`));
  // A share link still carries the whole session out of the page.
  await page.getByRole('button', { name: 'Share link' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  assert.ok(readFragment(link).script.includes('kubectl cordon worker4'), 'the share link holds every edit');

  // Room again: the next change saves everything, and the warning goes.
  await page.evaluate(() => {
    Storage.prototype.setItem = window.__setItem;
  });
  await cordon(page, 'worker');
  await unsaved.waitFor({ state: 'detached' });
  const script = await savedScript(page);
  for (const n of ['worker2', 'worker3', 'worker4', 'worker']) assert.ok(script.includes(`kubectl cordon ${n}`), `${n} in ${script}`);
  await page.reload();
  await ready(page);
  assert.match(await scriptText(page), /kubectl cordon worker3[^]*kubectl cordon worker4/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** A save of the default preset with one cordon, as this build writes it. */
const goodSave = () =>
  shareFragment({ scenario: 'mine', title: 'Mine', nodes: [{ name: 'a' }], script: ['kubectl cordon a'] }, { t: 3 });

const CORRUPT = {
  garbage: 'not a session at all <b>!</b>',
  empty: '',
  truncated: goodSave().slice(0, 30),
  'a character changed': goodSave().replace(/\.(.)/, (_, c) => `.${c === '~' ? 'A' : '~'}`),
  'JSON that is not a scenario': shareFragment({ hello: 'world' }),
  'a scenario with a wrong field': shareFragment({ scenario: 'x', nodes: 'three' }),
  'a payload that is not JSON': `#s=1.${Buffer.from('{"scenario": "x",').toString('base64url')}`,
};

for (const [what, value] of Object.entries(CORRUPT)) {
  test(`a corrupt save (${what}) is explained, kept aside, and the default preset opens`, async () => {
    const { context, page, problems } = await openWithSave(value);
    const notice = await page.getByTestId('notice').textContent();
    assert.match(notice, /^Your saved work could not be restored: .+\n\s+hint: /);
    const key = /kept in localStorage under “(dsplay\.autosave\.unreadable\.\d+)”/.exec(notice)?.[1];
    assert.ok(key, `the notice says where the save is kept: ${notice}`);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), key), value, 'kept byte for byte');
    assert.equal(await page.locator('.preset h2').textContent(), DEFAULT_TITLE);
    assert.equal(await page.getByTestId('kept').count(), 0, 'nothing else was moved');
    // The page works and saves its own session; the unreadable one stays.
    await cordon(page, 'worker2');
    await page.waitForFunction((k) => localStorage.getItem(k)?.startsWith('#s=1.'), AUTOSAVE);
    await page.reload();
    await ready(page);
    assert.equal(await page.getByTestId('notice').count(), 0, 'explained once');
    assert.deepEqual(await keys(page, 'dsplay.autosave.unreadable.'), [key]);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), key), value);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('a corrupt save with the storage full is not destroyed and not saved over', async () => {
  const value = CORRUPT.truncated;
  const { context, page, problems } = await openWithSave(value, { full: true });
  const notice = await page.getByTestId('notice').textContent();
  assert.match(notice, /^Your saved work could not be restored: /);
  assert.match(notice, /could not be kept aside/);
  assert.equal(await page.locator('.preset h2').textContent(), DEFAULT_TITLE);
  await cordon(page, 'worker2');
  assert.match(await page.getByTestId('unsaved').textContent(), /does not save over the session it could not keep aside/);
  assert.equal(await saved(page), value, 'the unreadable save is still where it was');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a save of an older format: format 0 is kept aside and named; a format-1 save of the oldest shape opens and is rewritten', async () => {
  const payload = goodSave().slice('#s=1.'.length);
  const old = await openWithSave(`#s=0.${payload}`);
  const notice = await old.page.getByTestId('notice').textContent();
  assert.match(notice, /share format 0; this version of the playground reads format 1/);
  const key = /“(dsplay\.autosave\.unreadable\.\d+)”/.exec(notice)?.[1];
  assert.equal(await old.page.evaluate((k) => localStorage.getItem(k), key), `#s=0.${payload}`);
  assert.equal(await old.page.locator('.preset h2').textContent(), DEFAULT_TITLE);
  assert.deepEqual(old.problems, []);
  await old.context.close();

  // The first saves had no `view` and no time: read as they are, then saved in today's shape.
  const first = { scenario: 'mine', title: 'Mine', nodes: [{ name: 'a' }], script: ['kubectl cordon a'] };
  const original = shareFragment(first);
  const { context, page, problems } = await openWithSave(original);
  assert.equal(await page.getByTestId('notice').count(), 0);
  assert.equal(await page.locator('.preset h2').textContent(), 'Mine');
  assert.match(await scriptText(page), /kubectl cordon a/);
  await page.waitForFunction(([k, o]) => localStorage.getItem(k) !== o, [AUTOSAVE, original]);
  const now = readFragment(await saved(page));
  assert.equal(now.title, 'Mine');
  assert.deepEqual(now.script, first.script);
  assert.equal(now.view?.panel, 'script', 'rewritten with the view');
  assert.deepEqual(problems, []);
  await context.close();
});

test('two tabs opened on the same session, both editing: each tab\'s work is stored', async () => {
  const { context, page: a, problems } = await fresh();
  await a.goto(BASE_URL);
  await ready(a);
  const b = await context.newPage();
  recordProblems(b, problems);
  await b.goto(BASE_URL);
  await ready(b);
  // Both started from the same saved session; A saves first, then B over it.
  await cordon(a, 'worker2');
  await a.waitForTimeout(300);
  await cordon(b, 'worker3');
  await b.waitForTimeout(300);
  const stored = await savedScript(b);
  assert.ok(stored.includes('kubectl cordon worker3') && !stored.includes('kubectl cordon worker2'), 'B saved last');
  const kept = await keys(b, 'dsplay.autosave.kept.tab-');
  assert.equal(kept.length, 1, 'A\'s session was kept aside, not written over');
  const aSession = readFragment(await b.evaluate((k) => localStorage.getItem(k), kept[0]));
  assert.ok(aSession.script.includes('kubectl cordon worker2'), 'with A\'s edit');
  // Neither tab crashed or lost what it shows.
  assert.match(await scriptText(a), /kubectl cordon worker2/);
  assert.match(await scriptText(b), /kubectl cordon worker3/);
  assert.deepEqual(problems, []);
  await context.close();
});
