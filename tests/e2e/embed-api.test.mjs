// Issue 23 part 5 end to end on the release build: the Embed API (docs/embed.md) between a
// host page and a sandboxed embed — ready and state out, play/pause/seek/speed/step/load in,
// malformed messages ignored without a panic — the demo page's host buttons, and click-to-load
// (`&ctl=1`), which must not request the wasm or its glue before the click.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const SHOTS = new URL('./screenshots/', import.meta.url).pathname;

/**
 * A host page (served by the test, on the playground's origin) with one sandboxed embed of
 * `query`; `window.received` collects every message the embed posts, from before it loads.
 */
async function host(query) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  const problems = [];
  const debug = [];
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    if (m.type() === 'debug') debug.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const url = new URL('e2e-embed-host.html', BASE_URL).href;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>host</title><iframe sandbox="allow-scripts" width="1000" height="640"
        src="./?embed=1&${query}"></iframe>`,
    }),
  );
  await page.addInitScript(() => {
    window.received = [];
    addEventListener('message', (e) => {
      if (e.source === document.querySelector('iframe')?.contentWindow) window.received.push(e.data);
    });
  });
  await page.goto(url);
  const frame = page.frameLocator('iframe');
  return { context, page, frame, problems, debug, requests };
}

/** Posts `message` into the embed, as a host page does. */
async function send(page, message) {
  await page.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), message);
}

const states = (page) => page.evaluate(() => window.received.filter((m) => m?.type === 'dsplay:state'));
const lastState = async (page) => (await states(page)).at(-1);

/** Waits until the newest state satisfies `ok`. */
async function stateWhere(page, ok, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await lastState(page);
    if (s && ok(s)) return s;
    if (Date.now() > deadline) assert.fail(`no dsplay:state where ${what}; last: ${JSON.stringify(s)}`);
    await page.waitForTimeout(100);
  }
}

const clock = async (frame) => Number.parseFloat((await frame.getByTestId('clock').textContent()).replace(/[^0-9.]/g, ''));

test('a host receives ready and states, and its pause, seek, speed, step and play take effect', async () => {
  const { context, page, frame, problems } = await host('autoplay=1&speed=4&preset=f4-rolling-update-max-unavailable-1');
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:ready'), null, { timeout: 30_000 });
  const first = await stateWhere(page, (s) => s.t > 1, 't moves (autoplay)');
  assert.deepEqual(Object.keys(first).sort(), ['counters', 't', 'type']);
  const [name, c] = Object.entries(first.counters)[0];
  assert.equal(name, 'ru1');
  assert.deepEqual(Object.keys(c).sort(), ['available', 'current', 'desired', 'ready', 'updated']);
  assert.ok(Object.values(c).every(Number.isInteger), JSON.stringify(c));
  assert.equal(
    (await page.evaluate(() => window.received.filter((m) => m?.type === 'dsplay:ready'))).length,
    1,
    'ready is sent once',
  );

  await send(page, { type: 'dsplay:pause' });
  await frame.getByRole('button', { name: 'Play' }).waitFor();
  await page.waitForTimeout(300);
  const paused = await states(page);
  await page.waitForTimeout(1000);
  const after = await states(page);
  assert.equal(after.length, paused.length, 'no state while paused: nothing changed, nothing is sent');
  const t0 = await clock(frame);
  assert.equal(Math.abs(after.at(-1).t - t0) < 0.05, true, `the last state's t ${after.at(-1).t} is the clock's ${t0}`);
  // Identical states are never sent twice in a row.
  const all = await states(page);
  for (let i = 1; i < all.length; i++) {
    assert.notDeepEqual(all[i], all[i - 1], `state ${i} repeats the one before`);
  }

  await send(page, { type: 'dsplay:seek', t: 30 });
  const at30 = await stateWhere(page, (s) => s.t === 30, 't = 30');
  assert.equal(await clock(frame), 30);
  assert.equal(at30.counters.ru1.desired, 4, JSON.stringify(at30));
  await send(page, { type: 'dsplay:seek', t: 2 });
  await stateWhere(page, (s) => s.t === 2, 'back at t = 2');

  await send(page, { type: 'dsplay:speed', x: 3 });
  await page.waitForTimeout(300);
  assert.equal(await frame.locator('select[aria-label="Speed"]').evaluate((s) => s.value), '4', '3× asked, the nearest speed is 4×');

  await send(page, { type: 'dsplay:step' });
  const stepped = await stateWhere(page, (s) => s.t > 2, 'a step moves t');
  await page.waitForTimeout(500);
  assert.equal((await lastState(page)).t, stepped.t, 'a step pauses, as the Step button does');

  await send(page, { type: 'dsplay:play' });
  await stateWhere(page, (s) => s.t > stepped.t + 1, 'playing again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a far seek goes a tick at a time: the frame paints on the way, says where to, and lands on t', async () => {
  // Seven virtual days of the default preset: seconds of simulation. In one call (as before)
  // the frame froze until done, and 30 days on 500 nodes froze it for many minutes.
  const week = 7 * 24 * 3600;
  const { context, page, frame, problems } = await host('preset=f1-one-pod-per-node');
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:state'), null, { timeout: 30_000 });
  await send(page, { type: 'dsplay:seek', t: week });
  await stateWhere(page, (s) => s.t > 0 && s.t < week, 'on its way (a frame painted mid-seek)');
  await frame.getByText(`seeking to t=${week}.0s`).waitFor({ timeout: 10_000 });
  const landed = await stateWhere(page, (s) => s.t === week, `t = ${week}`, 120_000);
  assert.deepEqual(Object.values(landed.counters)[0], { desired: 4, current: 4, ready: 4, updated: 4, available: 4 });
  assert.equal(await clock(frame), week);
  await page.waitForTimeout(500);
  assert.equal((await lastState(page)).t, week, 'paused there: the seek is over');
  assert.deepEqual(problems, []);
  await context.close();
});

test('malformed, unknown and foreign messages are ignored, counted, and never panic', async () => {
  const { context, page, frame, problems, debug } = await host('preset=f1-one-pod-per-node');
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:state'), null, { timeout: 30_000 });
  await send(page, { type: 'dsplay:seek', t: 5 });
  await stateWhere(page, (s) => s.t === 5, 't = 5');
  const bad = await page.evaluate(() => {
    const w = document.querySelector('iframe').contentWindow;
    const messages = [
      null,
      undefined,
      'dsplay:play',
      42,
      [1, 2, 3],
      {},
      { type: 7 },
      { type: 'dsplay:rewind' },
      { type: 'dsplay:seek', t: 'x' },
      { type: 'dsplay:seek', t: -1 },
      { type: 'dsplay:seek', t: Infinity },
      { type: 'dsplay:seek', t: 1e300 },
      { type: 'dsplay:seek' },
      { type: 'dsplay:speed', x: NaN },
      { type: 'dsplay:speed', x: -4 },
      { type: 'dsplay:speed', x: '4' },
      { type: 'dsplay:load', scenario: 5 },
      { type: 'dsplay:load', scenario: 'x'.repeat(2_000_000) },
      { type: 'dsplay:seek', t: { valueOf: 9 }, junk: Array.from({ length: 200_000 }, (_, i) => ({ i })) },
    ];
    for (const m of messages) w.postMessage(m, '*');
    return messages.length;
  });
  const countedUpTo = async (n) => {
    const deadline = Date.now() + 10_000;
    while (debug.filter((d) => d.startsWith('dsplay: ignored message')).length < n && Date.now() < deadline) {
      await page.waitForTimeout(100);
    }
  };
  // The host's messages first: the frame is another process, and a message it posts to itself
  // can overtake the host's last (200,000-element) one still crossing over.
  await countedUpTo(bad);
  // A message from the frame itself is not the host's: ignored too.
  const embed = page.frames().find((f) => f !== page.mainFrame());
  await embed.evaluate(() => postMessage({ type: 'dsplay:seek', t: 9 }, '*'));
  const ignored = bad + 1;
  await countedUpTo(ignored);
  const counted = debug.filter((d) => d.startsWith('dsplay: ignored message'));
  assert.equal(counted.length, ignored, counted.join('\n'));
  assert.equal(counted.at(-1), `dsplay: ignored message ${ignored} dsplay:seek not from the parent window`);
  assert.ok(counted.includes('dsplay: ignored message 9 dsplay:seek `t` is not a number of seconds from 0 to 2592000'), counted.join('\n'));
  assert.ok(counted.includes('dsplay: ignored message 14 dsplay:speed `x` is not a finite number above 0'), counted.join('\n'));
  assert.ok(counted.some((d) => /^dsplay: ignored message 18 dsplay:load `scenario` is over 1 Mi characters$/.test(d)), counted.join('\n'));
  // Nothing moved, and the frame still answers.
  assert.equal((await lastState(page)).t, 5);
  assert.equal(await clock(frame), 5);
  await send(page, { type: 'dsplay:seek', t: 7 });
  await stateWhere(page, (s) => s.t === 7, 'a good message after the bad ones still works');
  assert.equal(await frame.locator('.crash').count(), 0, 'no crash banner (a panic traps the wasm)');
  assert.deepEqual(problems, []);
  await context.close();
});

test('dsplay:load opens a scenario; a bad one shows the file error and keeps the current one', async () => {
  const { context, page, frame, problems } = await host('preset=f1-one-pod-per-node');
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:state'), null, { timeout: 30_000 });
  await send(page, { type: 'dsplay:load', scenario: 'scenario: broken\ntitle: x\nnodes:\n  - name: a\n    colour: red\n' });
  const error = frame.getByTestId('load-error');
  await error.waitFor();
  assert.match(await error.textContent(), /^scenario\.yaml was not opened: scenario\.yaml:\d+:\d+: /);
  assert.equal(await frame.locator('tr[data-ds]').getAttribute('data-ds'), 'fluentd', 'the current scenario stays');
  const scenario = await page.evaluate(async () => {
    const r = await fetch('/public/embed-demo.js');
    return (await r.text()).match(/const SCENARIO = `([^`]*)`/)[1];
  });
  await send(page, { type: 'dsplay:load', scenario });
  await frame.locator('tr[data-ds="host-agent"]').waitFor();
  assert.equal(await error.count(), 0, 'the error goes once a scenario opens');
  await send(page, { type: 'dsplay:seek', t: 20 });
  const s = await stateWhere(page, (x) => x.t === 20 && 'host-agent' in x.counters, 'the loaded scenario at 20 s');
  assert.deepEqual(s.counters['host-agent'], { desired: 2, current: 2, ready: 2, updated: 2, available: 2 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('click-to-load shows a static preview and loads the simulator only after the click', async () => {
  const { context, page, frame, problems, requests } = await host('ctl=1&autoplay=1&preset=f3-taints');
  const go = frame.getByRole('button', { name: '▶ Play' });
  await go.waitFor({ timeout: 30_000 });
  await frame.getByRole('heading', { name: 'Taints — NoSchedule keeps pods, NoExecute evicts' }).waitFor();
  await page.waitForTimeout(1500);
  const app = (p) => /\.wasm(\.lzma)?$/.test(p) && !p.endsWith('/unlzma.wasm');
  const early = [...requests];
  assert.deepEqual(early.filter((p) => p.endsWith('.wasm') || p.endsWith('.lzma') || /dsplay-app-[0-9a-f]+\.js$/.test(p)), [], early.join('\n'));
  assert.equal(await page.evaluate(() => window.received.length), 0, 'nothing is sent before the simulator loads');
  await page.locator('iframe').screenshot({ path: `${SHOTS}embed-click-to-load.png` });
  await go.click();
  await frame.locator('tr[data-ds]').waitFor({ timeout: 30_000 });
  assert.equal(requests.filter(app).length, 1, requests.join('\n'));
  assert.ok(requests.some((p) => /dsplay-app-[0-9a-f]+\.js$/.test(p)), 'the glue after the click');
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:ready'));
  const t0 = await clock(frame);
  await page.waitForTimeout(700);
  assert.notEqual(await clock(frame), t0, 'the preview said Play: it plays');
  assert.equal(await frame.locator('.ctl-preview').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the demo page drives its embed with host buttons and logs what the embed sends', async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(new URL('public/embed-demo.html', BASE_URL).href);
  const status = page.getByTestId('host-status');
  const log = page.getByTestId('host-log');
  await page.waitForFunction(() => /connected/.test(document.querySelector('.host-status').textContent), null, { timeout: 30_000 });
  const frame = page.frameLocator('#embed-api');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForTimeout(800);
  await page.getByRole('button', { name: 'Pause' }).click();
  await frame.getByRole('button', { name: 'Play' }).waitFor();
  await page.getByRole('button', { name: 'Speed 4×' }).click();
  await page.getByRole('button', { name: 'Seek to 30 s' }).click();
  await log.locator('li', { hasText: 'dsplay:state t=30.00s' }).waitFor();
  assert.equal(await clock(frame), 30);
  await page.getByRole('button', { name: 'Step' }).click();
  await page.getByRole('button', { name: 'Load a scenario' }).click();
  await frame.locator('tr[data-ds="host-agent"]').waitFor();
  await log.locator('li', { hasText: 'host-agent' }).first().waitFor();
  assert.equal(await frame.locator('select[aria-label="Speed"]').evaluate((s) => s.value), '1', 'a load restarts at the page’s speed');
  assert.match(await status.textContent(), /connected/);
  assert.equal(await log.locator('li[data-type="dsplay:ready"]').count(), 1);
  await page.getByRole('button', { name: 'Seek to 30 s' }).click();
  await log.locator('li', { hasText: /t=30\.00s host-agent 2\/2\/2\/2\/2/ }).waitFor();
  // The buttons, the embed and the log in one picture.
  await page.setViewportSize({ width: 1100, height: 1400 });
  await page.waitForTimeout(300);
  const top = await page.locator('h2').first().boundingBox();
  const bottom = await log.boundingBox();
  await page.screenshot({
    path: `${SHOTS}embed-api-demo.png`,
    clip: { x: 0, y: top.y - 10, width: 1100, height: bottom.y + bottom.height - top.y + 20 },
  });
  assert.deepEqual(problems, []);
  await context.close();
});
