// Figures for docs/performance.md, measured on the release build (a timed harness, not a
// pass/fail gate except for the page weight's budget): what the page loads (gzipped), time from
// navigation to the first rendered cluster on a cold cache, and frames per second while playing
// the 500-node preset and a 1,000-node cluster.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { BASE_URL, launchBrowser, openPage, rendererRss, wasmBytes } from './support/browser.mjs';

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
  // The budget (issue 4, raised to 660 KB as the developers' guide allows; the same figure as
  // `cargo xtask size`'s BUDGET): everything the page loads, gzipped. Deterministic: the same
  // build gives the same bytes.
  assert.ok(total <= 660_000, `the page loads ${total} bytes gzipped, over the 660,000-byte budget`);
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

/** `kubectl get nodes -o json` of a managed cluster: `n` nodes with the usual noise. */
function nodeList(n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const name = `gke-prod-default-pool-${(0x8f2a1c3e + (i >> 6)).toString(16)}-n${i}`;
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        uid: `6a1f0c2e-${i.toString(16).padStart(4, '0')}-4d0b-9f5a-1c2d3e4f5a6b`,
        resourceVersion: String(1_000_000 + i),
        creationTimestamp: '2026-10-01T08:00:00Z',
        annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
        labels: {
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/os': 'linux',
          'kubernetes.io/hostname': name,
          'node.kubernetes.io/instance-type': 'e2-standard-4',
          'topology.kubernetes.io/region': 'europe-west1',
          'topology.kubernetes.io/zone': `europe-west1-${'bcd'[i % 3]}`,
          'cloud.google.com/gke-nodepool': 'default-pool',
          'cloud.google.com/gke-os-distribution': 'cos',
        },
        managedFields: [
          { manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-11-29T08:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:images': {} } } },
        ],
      },
      spec: { podCIDR: `10.${i >> 8}.${i & 255}.0/24`, providerID: `gce://prod/europe-west1-b/${name}`, ...(i % 50 === 0 ? { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } : {}) },
      status: {
        capacity: { cpu: '4', memory: '16393244Ki', pods: '110', 'ephemeral-storage': '98831908Ki' },
        allocatable: { cpu: '3920m', memory: '13292572Ki', pods: '110', 'ephemeral-storage': '47060071478' },
        conditions: [
          { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: '2026-11-29T08:00:00Z', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
          { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-29T08:00:00Z', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
        ],
        images: [{ names: ['gke.gcr.io/gke-metrics-agent@sha256:0123456789abcdef'], sizeBytes: 90000000 }],
        nodeInfo: { kubeletVersion: 'v1.33.5-gke.1000', osImage: 'Container-Optimized OS from Google', containerRuntimeVersion: 'containerd://1.7.27' },
      },
    });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 2);
}

/** A fresh playground with `n` nodes imported from a file: the MB picked, ms until every tile shows. */
async function withImportedNodes(page, n) {
  await page.goto(BASE_URL, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  const json = nodeList(n);
  await page.getByRole('button', { name: 'Import nodes' }).click();
  const t0 = Date.now();
  await page.getByLabel('Open a nodes file').setInputFiles({ name: 'nodes.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await page.locator(`.tiles button[data-node$="-n${n - 1}"]`).waitFor({ timeout: 60_000 });
  return { mb: json.length / 1e6, ms: Date.now() - t0 };
}

test('importing 2,000 real nodes in the browser', async () => {
  const { page, problems } = await openPage(browser);
  const { mb, ms } = await withImportedNodes(page, 2000);
  const caption = await page.getByTestId('caption').textContent();
  console.log(`# import of 2,000 nodes (kubectl get nodes -o json, ${mb.toFixed(1)} MB) → cluster rendered: ${ms} ms; the app says: ${caption}`);
  assert.match(caption, /imported 2000 nodes/);
  assert.deepEqual(problems, []);
});

test('5,000 nodes: import, play, step back, seek', async () => {
  const { page, problems } = await openPage(browser);
  const { mb, ms } = await withImportedNodes(page, 5000);
  console.log(`# 5,000 nodes (${mb.toFixed(1)} MB) picked → tiles on screen: ${ms} ms; the app says: ${await page.getByTestId('caption').textContent()}`);
  // The DaemonSet creates its 5,000 pods in the first seconds: the busiest stretch.
  await play(page, 8);
  const f = await fps(page, 4000);
  await page.getByRole('button', { name: 'Pause' }).click();
  console.log(`# 5,000 nodes, pods being created, at 8×: ${f.fps.toFixed(1)} fps, longest frame ${f.worstFrameMs.toFixed(0)} ms`);
  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  let t0 = Date.now();
  await page.getByRole('button', { name: 'Step back' }).click();
  await settle();
  console.log(`# 5,000 nodes: step back → next frame ${Date.now() - t0} ms`);
  const box = await page.getByLabel('Timeline').boundingBox();
  t0 = Date.now();
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
  await settle();
  console.log(`# 5,000 nodes: seek to 30 % → next frame ${Date.now() - t0} ms`);
  const ds = await page.locator('section.counters tbody tr').first().textContent().catch(() => '');
  // One node in 50 is tainted NoSchedule (`dedicated=db`): 4,900 want a pod.
  assert.ok(ds.includes('4900'), `DESIRED is 4,900: ${ds}`);
  assert.deepEqual(problems, []);
});

test('5,000 nodes: the same burst with the Events panel open', async () => {
  const { page, problems } = await openPage(browser);
  await withImportedNodes(page, 5000);
  await page.getByRole('tab', { name: 'Events' }).click();
  await play(page, 8);
  const f = await fps(page, 4000);
  await page.getByRole('button', { name: 'Pause' }).click();
  // Thousands of events by then; the panel draws the first 200 and counts the rest.
  const more = await page.locator('section.events tr.more').textContent();
  console.log(`# 5,000 nodes, pods being created, at 8×, Events panel open: ${f.fps.toFixed(1)} fps, longest frame ${f.worstFrameMs.toFixed(0)} ms (${more.trim().slice(0, 40)}…)`);
  assert.deepEqual(problems, []);
});

// Issue 25, item 3: what time travel holds after a long run at the upstream limit. The share
// link of `cluster-5000-nodes` opened at t=86,400 s: the page seeks a virtual day on (through
// the rollout of 5,000 pods, then a cluster at rest), keeping its checkpoints as it goes.
test('5,000 nodes: the tab\'s memory after 24 virtual hours', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?preset=cluster-5000-nodes`, { waitUntil: 'load' });
  await page.locator('.tiles button[data-node="node5000"]').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Share link' }).click();
  // A link made at t=0 carries no `&t=`.
  const link = `${(await page.getByRole('textbox', { name: 'Share link' }).inputValue()).replace(/&t=[\d.]+/, '')}&t=86400`;
  await page.close();
  // A browser of its own, whose one page is this tab (the other tests leave their pages open).
  const own = await launchBrowser();
  const { page: day, problems: dayProblems } = await openPage(own);
  const t0 = Date.now();
  await day.goto(link, { waitUntil: 'load' });
  await day.waitForFunction(() => document.querySelector('[data-testid=clock]')?.textContent.includes('86400.0s'), null, {
    // About 5 min on an idle 2-core machine: 2 min through the rollout, 3 min through a day
    // at rest (the page's simulator checks 5,000 nodes at each node-monitor period).
    timeout: 1_200_000,
    polling: 1000,
  });
  const seek = (Date.now() - t0) / 1000;
  await day.waitForTimeout(1000);
  // The tab: its renderer's resident memory, of which the app's wasm memory and the JS heap.
  const m = {
    rss: (await rendererRss(own)).largest,
    wasm: await wasmBytes(day),
    js: await day.evaluate(() => performance.memory?.usedJSHeapSize ?? 0),
  };
  const mb = (b) => (b / 1e6).toFixed(0);
  console.log(
    `# 5,000 nodes, 24 virtual hours (share link at t=86400, reached in ${seek.toFixed(0)} s): tab ${mb(m.rss)} MB resident (wasm memory ${mb(m.wasm)} MB, JS heap ${mb(m.js)} MB)`,
  );
  await own.close();
  assert.ok(m.rss > 0 && m.wasm > 0, `measured: ${JSON.stringify(m)}`);
  assert.deepEqual(problems, []);
  assert.deepEqual(dayProblems, []);
});
