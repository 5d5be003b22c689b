// The soak (issue 27): hours of virtual time on the 500-node preset with random actions, in the
// release page, as a learner would drive it from the terminal. Opt-in, not in CI (it runs for
// many minutes): `cargo xtask test --soak` (or `--only soak`) serves dist/ and runs this file.
//
// Holds: no crash (the crash banner never shows, no page error, no console error), wasm memory
// under 300 MB, and prints
// the figures for docs/performance.md: wasm memory (linear memory's size) and the renderer's
// resident memory as virtual time goes on, the frame time (p95, max) while playing at 64×, and
// how long each virtual hour took. SOAK_HOURS (default 24) and SOAK_SEED (default 1) vary it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, openPage, rendererRss, wasmBytes } from '../support/browser.mjs';

const HOURS = Number(process.env.SOAK_HOURS ?? 24);
const SEED = Number(process.env.SOAK_SEED ?? 1);
const NODES = 500;

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** mulberry32: a small seeded generator, so a seed replays the same actions. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The virtual clock, in seconds ("t = 1234.5s"). */
async function clock(page) {
  const text = await page.getByTestId('clock').textContent();
  return Number(/t = ([\d.]+)s/.exec(text)?.[1] ?? NaN);
}

/**
 * Plays at the top speed until the clock reaches `until` seconds (or `wallMs` pass), then pauses;
 * returns each frame's time (ms) meanwhile. Time passes only by playing: the terminal's
 * commands are edits at the current moment (`sleep` is for scripts).
 */
async function playUntil(page, until, wallMs) {
  await page.getByLabel('Speed').selectOption('64');
  await page.getByRole('button', { name: 'Play' }).click();
  const times = await page.evaluate(
    ([until, wallMs]) =>
      new Promise((resolve) => {
        const out = [];
        const start = performance.now();
        let last = start;
        const clock = document.querySelector('[data-testid="clock"]');
        const tick = (t) => {
          out.push(t - last);
          last = t;
          const now = Number(/t = ([\d.]+)s/.exec(clock.textContent)?.[1] ?? 0);
          if (now < until && t - start < wallMs) requestAnimationFrame(tick);
          else resolve(out);
        };
        requestAnimationFrame(tick);
      }),
    [until, wallMs],
  );
  await page.getByRole('button', { name: 'Pause' }).click();
  return times.slice(1); // the first is the wait for the first frame
}

const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

test(`soak: ${HOURS} h of virtual time on ${NODES} nodes with random actions (seed ${SEED})`, async () => {
  const { page, problems } = await openPage(browser);
  const started = Date.now();
  await page.goto(`${BASE_URL}?preset=cluster-500-nodes`, { waitUntil: 'load' });
  await page.locator('.tiles button').first().waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const prompt = page.getByLabel('kubectl command');
  const output = page.getByTestId('terminal-output');

  const random = rng(SEED);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const node = () => `node${1 + Math.floor(random() * NODES)}`;
  const added = [];
  let generation = 2;
  let added_n = 0;
  const actions = [
    () => `node add soak${++added_n} --label zone=z${added_n % 3}`,
    () => (added.length ? `node remove ${added.splice(Math.floor(random() * added.length), 1)[0]}` : 'kubectl get ds agent'),
    () => `node stop ${node()}`,
    () => `node start ${node()}`,
    () => `kubectl taint node ${node()} soak=x:NoSchedule --overwrite`,
    () => `kubectl taint node ${node()} soak-`,
    () => `kubectl taint node ${node()} evict=x:NoExecute --overwrite`,
    () => `kubectl taint node ${node()} evict-`,
    () => `kubectl label node ${node()} tier=t${Math.floor(random() * 3)} --overwrite`,
    () => `kubectl cordon ${node()}`,
    () => `kubectl uncordon ${node()}`,
    () => `kubectl set env ds/agent -c app FOO=${++generation}`,
    () => 'kubectl rollout undo ds/agent',
    () => `pod crash --node ${node()}`,
    () => `pod fail --node ${node()}`,
    () => 'kubectl get ds agent',
  ];
  let commands = 0;
  let refused = 0;
  const run = async (line) => {
    await prompt.fill(line);
    await prompt.press('Enter');
    commands++;
    if (line.startsWith('node add ')) added.push(line.split(' ')[2]);
  };

  const samples = [];
  const frameTimes = [];
  const hourWall = [];
  let hourStarted = Date.now();
  const end = HOURS * 3600;
  let now = await clock(page);
  const first = { hour: now / 3600, wasm: await wasmBytes(page), rss: (await rendererRss(browser)).total };
  samples.push(first);
  console.log(`# soak t=${first.hour.toFixed(1)} h: wasm memory ${mb(first.wasm)}, renderer RSS ${mb(first.rss)} (the preset played)`);
  let nextSample = 2 * 3600;
  while (now < end) {
    for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) await run(pick(actions)());
    const target = Math.min(end, now + 60 * (5 + Math.floor(random() * 36)));
    frameTimes.push(...(await playUntil(page, target, 10 * 60_000)));
    const before = now;
    now = await clock(page);
    assert.ok(now > before, `the clock stopped at ${before} s`);
    if (Math.floor(now / 3600) > hourWall.length) {
      hourWall.push(Date.now() - hourStarted);
      hourStarted = Date.now();
    }
    if (now >= nextSample || now >= end) {
      nextSample += 2 * 3600;
      const sample = { hour: now / 3600, wasm: await wasmBytes(page), rss: (await rendererRss(browser)).total };
      samples.push(sample);
      console.log(`# soak t=${sample.hour.toFixed(1)} h: wasm memory ${mb(sample.wasm)}, renderer RSS ${mb(sample.rss)}, ${commands} commands`);
    }
    assert.equal(await page.locator('.crash').count(), 0, 'the crash banner showed');
    assert.deepEqual(problems, [], 'page problems');
  }
  const text = await output.textContent();
  if (process.env.SOAK_TRANSCRIPT) console.log(text);
  refused = (text.match(/^error: /gm) ?? []).length;
  const last = samples.at(-1);
  const peakWasm = Math.max(...samples.map((s) => s.wasm));
  const peakRss = Math.max(...samples.map((s) => s.rss));
  console.log(`# soak: ${HOURS} h virtual on ${NODES} nodes, seed ${SEED}: ${commands} commands (${refused} refused by the cluster, as a real one would), ${((Date.now() - started) / 60000).toFixed(1)} min wall`);
  console.log(`# soak: wasm memory at the end ${mb(last.wasm)}, peak ${mb(peakWasm)}; renderer RSS peak ${mb(peakRss)}`);
  console.log(`# soak: frame time at 64× over ${frameTimes.length} frames: p50 ${percentile(frameTimes, 50).toFixed(1)} ms, p95 ${percentile(frameTimes, 95).toFixed(1)} ms, max ${Math.max(...frameTimes).toFixed(1)} ms`);
  if (hourWall.length) {
    console.log(`# soak: wall time per virtual hour: median ${(percentile(hourWall, 50) / 1000).toFixed(1)} s, max ${(Math.max(...hourWall) / 1000).toFixed(1)} s`);
  }
  assert.ok(samples.length >= 2, 'too few samples');
  // The time-travel history grows with virtual time (≈ 10 MB per hour at 500 nodes, measured);
  // the tab's bound for a day of it is 300 MB.
  assert.ok(peakWasm < 300 * 1048576, `wasm memory peaked at ${mb(peakWasm)}, over 300 MB`);
});
