// Issue 27 item 4 end to end on the release build: hostile strings — markup, an RTL override,
// a 10,000-character value, emoji, control characters and NUL — typed or loaded into every
// field a user controls (node names, labels, taints, the YAML editor, the terminal, event
// messages, a lesson file loaded through the Embed API, the page address, a crafted share
// link) render as text: no element is made from them, no script runs, an override cannot turn
// the text around it, and the page does not grow sideways at 1280×800.
// Values the API server refuses (a node's name and labels) are refused with its message,
// shown as text; an event carries hostile text through an image's name, which it accepts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { BASE_URL, launchBrowser, recordProblems } from './support/browser.mjs';
import { shareFragment } from './support/share.mjs';

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;

const PWN = 'window.__pwned=1';
const SCRIPT = `<script>${PWN}</script>`;
const IMG = `"><img src=x onerror=${PWN}>`;
const RLO = '\u202Egnp.exe';
const EMOJI = '🐙👩‍👩‍👧‍👦';
const CTRL = 'bell\u0007esc\u001b[31mnul\u0000end';
const LONG = 'a'.repeat(10_000);
const MARKUP = `${SCRIPT}${IMG}`;
const HOSTILE = `${MARKUP}${RLO}${EMOJI}`;

let browser;
before(async () => {
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
});

/**
 * A fresh browser at 1280×800 with traps set before the page runs: `window.__pwned` is what an
 * injected script would set, `window.__csp` collects policy violations (an injected inline
 * script or handler is one), and every dialog, page error and console error is recorded.
 */
async function fresh() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.__pwned = 0;
    window.__csp = [];
    addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective}: ${e.sample}`));
  });
  const page = await context.newPage();
  const problems = [];
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  recordProblems(page, problems);
  return { context, page, problems };
}

async function ready(page) {
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
}

/**
 * What the hostile text did to a document: elements made from it, scripts run, policy
 * violations, user text whose bidi is not isolated, and how far the page overflows sideways.
 *
 * Isolated: the innermost element holding an RTL override is a `<bdi>`, is styled
 * `unicode-bidi: isolate|plaintext`, or is no inline box (a block, a table cell, a form
 * control): CSS runs the bidi algorithm per block, and an atomic inline is one neutral
 * character to its line, so an override inside those cannot turn the text around them.
 * `aria-hidden` mirrors, like the editor's highlighting under its textarea, are left out.
 */
function damage(scriptsBefore) {
  const isolated = (el) => {
    const style = getComputedStyle(el);
    return el.tagName === 'BDI' || /isolate|plaintext/.test(style.unicodeBidi) || style.display !== 'inline';
  };
  const leaks = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.data.includes('\u202E') || el.closest('[aria-hidden="true"]')) continue;
    if (!isolated(el)) leaks.push(`<${el.tagName.toLowerCase()} class="${el.className}">: ${getComputedStyle(el).unicodeBidi}`);
  }
  // Isolating the element is not enough where app text follows the user's in one text node
  // (a message quoting a name): the override turns that text around unless the value itself
  // is isolated. Every RLO payload below ends its hostile string, so the first word of two
  // or more letters after it, on the same line, is the app's and must read left to right.
  const range = document.createRange();
  const rect = (n, i) => {
    range.setStart(n, i);
    range.setEnd(n, i + 1);
    return range.getBoundingClientRect();
  };
  const walker2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker2.nextNode(); n; n = walker2.nextNode()) {
    const at = n.data.indexOf('\u202Egnp.exe');
    if (at < 0 || n.parentElement.closest('[aria-hidden="true"]')) continue;
    const after = n.data.slice(at + 8).split('\n')[0];
    const word = /[A-Za-z]{2,}/.exec(after);
    if (!word) continue;
    const first = rect(n, at + 8 + word.index);
    const last = rect(n, at + 8 + word.index + word[0].length - 1);
    if (first.width > 0 && first.top === last.top && first.left > last.left) {
      leaks.push(`"${word[0]}" after the override reads right to left in <${n.parentElement.tagName.toLowerCase()} class="${n.parentElement.className}">`);
    }
  }
  for (const c of document.querySelectorAll('input, textarea')) {
    if (c.value.includes('\u202E') && !isolated(c)) leaks.push(`<${c.tagName.toLowerCase()}> value`);
  }
  return {
    made: [...document.querySelectorAll('img[src="x"], [onerror]')].map((e) => e.outerHTML.slice(0, 80)),
    scripts: document.querySelectorAll('script').length - scriptsBefore,
    pwned: window.__pwned,
    csp: window.__csp,
    leaks,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
}

/** Asserts that `target` (a page or a frame) holds the hostile text as text only. */
async function assertInert(target, scriptsBefore, where) {
  const d = await target.evaluate(damage, scriptsBefore);
  assert.deepEqual(d.made, [], `${where}: no element made from the text`);
  assert.equal(d.scripts, 0, `${where}: no script element added`);
  assert.equal(d.pwned, 0, `${where}: no script ran`);
  assert.deepEqual(d.csp, [], `${where}: nothing the policy had to block`);
  assert.deepEqual(d.leaks, [], `${where}: user text with an RTL override is isolated`);
  assert.ok(d.overflow <= 0, `${where}: the page overflows sideways by ${d.overflow} px`);
}

const scripts = (target) => target.evaluate(() => document.querySelectorAll('script').length);

async function shot(page, name) {
  await page.screenshot({ path: `${SHOTS}hostile-${name}.png` });
}

async function terminal(page, line) {
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const prompt = page.getByLabel('kubectl command');
  await prompt.fill(line);
  await prompt.press('Enter');
}

const image = `registry.example/agent${IMG}${EMOJI}${RLO}`;
/** A DaemonSet whose annotations and image carry the hostile text (valid: the API keeps it). */
const manifest = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: hostile
  namespace: default
  annotations:
    note: ${JSON.stringify(CTRL + HOSTILE)}
    long: ${JSON.stringify(LONG)}
spec:
  selector:
    matchLabels: {app: hostile}
  template:
    metadata:
      labels: {app: hostile}
    spec:
      containers:
      - name: agent
        image: ${JSON.stringify(image)}
`;

test('node names, labels and taints: hostile values are refused, the refusal shown as text', async () => {
  const { context, page, problems } = await fresh();
  await page.goto(BASE_URL);
  await ready(page);
  const before = await scripts(page);

  await page.getByRole('button', { name: '+ Add nodes' }).click();
  const form = page.getByRole('form', { name: 'Add nodes' });
  await form.getByLabel('Name prefix').fill(HOSTILE);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  const formError = form.locator('.error');
  await formError.waitFor();
  assert.match(await formError.textContent(), /<img src=x onerror=/, 'the refused name is named, as text');
  await assertInert(page, before, 'a hostile node name');
  await form.getByLabel('Name prefix').fill('ok');
  await form.getByLabel('Taints').fill(`k=${SCRIPT}:NoSchedule${RLO}`);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await page.waitForFunction(() => /<script>/.test(document.querySelector('.add-form .error')?.textContent ?? ''));
  await assertInert(page, before, 'a hostile taint on new nodes');
  await shot(page, 'add-nodes');
  await form.getByRole('button', { name: 'Cancel' }).click();

  // The node's own forms, in the Explain panel, run as commands: the API server refuses.
  await page.locator('article.node[data-node="worker2"]').click();
  const explain = page.locator('.explain');
  await explain.getByLabel('Label', { exact: true }).fill(`note=${CTRL}${HOSTILE}`);
  await explain.getByRole('button', { name: 'Add label' }).click();
  await page.waitForFunction(() => /<script>/.test(document.querySelector('.explain pre.error')?.textContent ?? ''));
  await assertInert(page, before, 'a hostile label in the node form');
  await explain.getByLabel('Taint', { exact: true }).fill(`x=${IMG}:NoExecute`);
  await explain.getByRole('button', { name: 'Add taint' }).click();
  await page.waitForFunction(() => /<img src=x/.test(document.querySelector('.explain pre.error')?.textContent ?? ''));
  await assertInert(page, before, 'a hostile taint in the node form');
  await shot(page, 'explain');

  // The terminal reaches the API directly: it refuses the name (not an RFC 1123 subdomain) and
  // the label values (not label values), quoting them as Go's %q does, bidi controls escaped.
  // (The forms above ran as commands too, so their refusals are in the terminal already.)
  const invalid = () => (document.querySelector('[data-testid=terminal-output]')?.textContent.match(/is invalid/g) ?? []).length;
  await page.getByRole('tab', { name: 'Terminal' }).click();
  await page.getByTestId('terminal-output').waitFor();
  const earlier = await page.evaluate(invalid);
  await terminal(page, `node add '${IMG}${EMOJI}${RLO}'`);
  await terminal(page, `kubectl label node worker2 long=${LONG} note='${SCRIPT}${RLO}'`);
  await page.waitForFunction(`(${invalid})() === ${earlier + 2}`);
  const screen = await page.getByTestId('terminal-output').textContent();
  assert.ok(screen.includes(`The Node "\\"><img src=x onerror=${PWN}>${EMOJI}\\u202egnp.exe" is invalid: `), screen.slice(0, 600));
  assert.ok(screen.includes('* metadata.name: Invalid value: '), 'the name is refused');
  assert.ok(screen.includes('must be no more than 63 characters'), 'the 10,000-character value is refused');
  assert.equal(await page.locator('article.node').count(), 5, 'no node was added');
  await assertInert(page, before, 'a hostile node and 10,000-character label from the terminal');
  await shot(page, 'node-terminal');
  // The longest name a node can have (its kubernetes.io/hostname label is a label value: 63
  // characters, here with no place to break) fits its card.
  const longest = 'n'.repeat(63);
  await terminal(page, `node add ${longest}`);
  const card = page.locator(`article.node[data-node="${longest}"]`);
  await card.waitFor();
  assert.ok(await card.evaluate((c) => c.scrollWidth <= c.clientWidth), 'the name wraps inside its card');
  await assertInert(page, before, 'a 63-character node name');
  await card.screenshot({ path: `${SHOTS}hostile-node-card.png` });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the terminal and the YAML editor show hostile text as text', async () => {
  const { context, page, problems } = await fresh();
  await page.goto(BASE_URL);
  await ready(page);
  const before = await scripts(page);

  await terminal(page, `kubectl label node worker2 note='${HOSTILE}'`);
  await terminal(page, `kubectl get pods '${SCRIPT}${RLO}'`);
  await terminal(page, `${MARKUP} ${EMOJI} ${CTRL} ${RLO}`);
  await terminal(page, `kubectl label node worker3 long=${LONG}`);
  const screen = page.getByTestId('terminal-output');
  await page.waitForFunction(() => /a{200}/.test(document.querySelector('[data-testid=terminal-output]').textContent));
  const said = await screen.textContent();
  const shown = `${MARKUP}\\u202egnp.exe${EMOJI}`;
  assert.ok(said.includes(`$ kubectl label node worker2 note='${shown}'`), 'echoed as typed, the override shown as \\u202e');
  assert.ok(said.includes(`$ ${MARKUP} ${EMOJI} `), 'so is a line that is not a command');
  await assertInert(page, before, 'the terminal');
  await shot(page, 'terminal');

  await page.getByRole('tab', { name: 'YAML' }).click();
  await page.getByLabel('Manifest', { exact: true }).selectOption('+new');
  const editor = page.getByLabel('DaemonSet manifest (YAML)');
  // First a manifest the decoder refuses, at a line holding the hostile text.
  await editor.fill(`${manifest}  bad: [${HOSTILE}\n`);
  await page.locator('.yaml-editor .diag').first().waitFor();
  await assertInert(page, before, 'a refused manifest');
  await editor.fill(manifest);
  await page.waitForFunction(() => !document.querySelector('.yaml-editor .diag'));
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator('tr[data-ds="hostile"]').waitFor();
  await assertInert(page, before, 'the YAML editor');
  await shot(page, 'yaml');

  // The annotations travel into describe and -o yaml.
  await terminal(page, 'kubectl describe ds hostile');
  await terminal(page, 'kubectl get ds hostile -o yaml');
  await page.waitForFunction(() => /kind: DaemonSet/.test(document.querySelector('[data-testid=terminal-output]').textContent));
  await assertInert(page, before, 'describe and -o yaml');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a crafted share link: its title, description, file names, script and events render as text', async () => {
  const { context, page, problems } = await fresh();
  const link = shareFragment({
    scenario: 'hostile',
    title: `${CTRL} ${HOSTILE}`,
    description: `${IMG} ${LONG} ${EMOJI} ${CTRL} ${RLO}`,
    nodes: [{ name: 'worker' }],
    images: { [image]: { pullSeconds: 1 } },
    files: { [`${SCRIPT}.yaml`]: manifest },
    script: [`kubectl apply -f '${SCRIPT}.yaml'`, `kubectl label node worker note='${IMG}${RLO}'`],
  });
  await page.goto(`${BASE_URL}${link}`);
  await ready(page);
  const before = await scripts(page);
  assert.equal(await page.locator('.preset h2').textContent(), `${CTRL} ${HOSTILE}`);
  assert.ok((await page.locator('.story').textContent()).startsWith(IMG));
  await assertInert(page, before, 'the story');
  await shot(page, 'share-link');
  await page.getByRole('tab', { name: 'Script' }).click();
  assert.match(await page.locator('.script ol').textContent(), /kubectl label node worker note='"><img src=x/);
  await page.getByRole('button', { name: 'Step to the next change' }).click();
  await page.getByRole('button', { name: 'Step to the next change' }).click();
  await assertInert(page, before, 'the script');
  // The image's name travels into the kubelet's events.
  await page.getByRole('button', { name: 'Play' }).click();
  await page.getByRole('tab', { name: 'Events' }).click();
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid=events] td')].some((td) => td.textContent.startsWith('Pulling image "registry.example/agent\\"><img src=x')),
    null,
    { timeout: 30_000 },
  );
  await page.getByRole('button', { name: 'Pause' }).click();
  await assertInert(page, before, 'the events');
  await shot(page, 'events');
  await page.getByRole('tab', { name: 'YAML' }).click();
  assert.ok((await page.getByLabel('Manifest', { exact: true }).textContent()).includes(`${SCRIPT}.yaml`));
  await assertInert(page, before, 'a file name');

  // A node name the API refuses: the link says why, as text.
  await page.goto(`${BASE_URL}${shareFragment({ scenario: 'x', nodes: [{ name: HOSTILE }] })}`);
  await ready(page);
  assert.match(await page.getByTestId('notice').textContent(), /<img src=x onerror=/);
  await assertInert(page, await scripts(page), 'a refused node name in a link');
  await shot(page, 'share-link-refused');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the page address: hostile preset, panel, lesson and compare values are named as text', async () => {
  const { context, page, problems } = await fresh();
  const q = encodeURIComponent(`${LONG} ${HOSTILE}`);
  await page.goto(`${BASE_URL}?preset=${q}&panel=${q}`);
  await ready(page);
  const notice = await page.getByTestId('notice').textContent();
  assert.ok(notice.includes(`\`preset=${LONG} ${MARKUP}`), notice.slice(0, 200));
  await assertInert(page, await scripts(page), '?preset= and ?panel=');
  await shot(page, 'address');

  await page.goto(`${BASE_URL}?lesson=${q}`);
  const lessonError = page.getByTestId('lesson-error');
  await lessonError.waitFor({ timeout: 30_000 });
  assert.ok((await lessonError.textContent()).includes(`There is no lesson “${LONG} ${MARKUP}`));
  await assertInert(page, await scripts(page), '?lesson=');
  await shot(page, 'lesson-id');

  await page.goto(`${BASE_URL}?compare=${q},${q}`);
  await page.waitForFunction(() => document.body.textContent.includes('<img src=x'), null, { timeout: 30_000 });
  await assertInert(page, await scripts(page), '?compare=');
  await shot(page, 'compare');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lesson file with hostile text, loaded through the Embed API, shows as text', async () => {
  const { context, page, problems } = await fresh();
  const url = new URL('e2e-hostile-host.html', BASE_URL).href;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>host</title><iframe sandbox="allow-scripts" width="1200" height="720"
        src="./?embed=1&preset=f1-one-pod-per-node"></iframe>`,
    }),
  );
  await page.goto(url);
  const frame = page.frameLocator('iframe');
  await frame.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  const inner = page.frames().find((f) => f !== page.mainFrame());
  const before = await scripts(inner);
  const send = (m) => page.evaluate((x) => document.querySelector('iframe').contentWindow.postMessage(x, '*'), m);
  const lesson = `scenario: hostile-lesson
title: ${JSON.stringify(`${CTRL} ${HOSTILE}`)}
description: ${JSON.stringify(`${IMG} ${LONG} ${RLO}`)}
nodes:
  - name: worker
files:
  ds.yaml: ${JSON.stringify(manifest)}
script:
  - kubectl apply -f ds.yaml
lesson:
  - title: ${JSON.stringify(HOSTILE)}
    text: ${JSON.stringify(`**${IMG}** [${SCRIPT}](javascript:${PWN}) \`${RLO}\` ${EMOJI}`)}
`;
  await send({ type: 'dsplay:load', scenario: lesson });
  const title = frame.getByRole('heading', { level: 2 }).first();
  await frame.getByRole('heading', { level: 2, name: '<img src=x' }).waitFor({ timeout: 30_000 });
  assert.equal(await title.textContent(), `${CTRL} ${HOSTILE}`);
  await assertInert(inner, before, 'a loaded lesson file');
  assert.equal(await frame.locator('a[href^="javascript:"]').count(), 0, 'no javascript: link');
  await shot(page, 'embed-load');

  // One the page refuses: the error quotes the file, as text.
  await send({ type: 'dsplay:load', scenario: `scenario: x\ntitle: t\nnodes:\n  - name: ${JSON.stringify(HOSTILE)}\n` });
  const error = frame.getByTestId('load-error');
  await error.waitFor();
  assert.match(await error.textContent(), /^scenario\.yaml was not opened: /);
  await assertInert(inner, before, 'a refused lesson file');
  await shot(page, 'embed-load-refused');
  assert.deepEqual(problems, []);
  await context.close();
});
