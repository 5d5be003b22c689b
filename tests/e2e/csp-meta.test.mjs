// A CSP that travels (issue 27): the release index.html carries the strict policy as a meta tag
// (crates/tools/xtask/src/pack.rs), so a host that sends no headers at all still gets it. This test
// serves dist/ with a plain static server of its own (a Content-Type and nothing else), checks
// that the policy is enforced (a planted inline script does not run and is reported), tours the
// panels and dialogs without a violation, and sees no request leave the site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { launchBrowser, openPage } from './support/browser.mjs';

const DIST = new URL('../../dist/', import.meta.url).pathname;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

let browser;
let server;
let base;
before(async () => {
  browser = await launchBrowser();
  server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(DIST, path.endsWith('/') ? `${path}index.html` : path));
    try {
      if (!file.startsWith(DIST)) throw new Error('outside dist');
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('with no headers from the host, the meta policy is enforced and nothing leaves the site', async () => {
  const { page, problems } = await openPage(browser);
  const violations = [];
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      window.reportViolation(`${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  const response = await page.goto(base, { waitUntil: 'load' });
  assert.equal(response.headers()['content-security-policy'], undefined, 'the server sends none');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(policy, /(^|; )default-src 'self'(;|$)/);
  assert.match(policy, /(^|; )script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.match(policy, /(^|; )connect-src 'self'(;|$)/);
  assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|data:|\*/);

  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  assert.ok((await page.locator('article[data-node]').count()) > 0, 'the cluster rendered');
  for (const tab of ['Explain', 'YAML', 'Terminal', 'Events', 'Chart', 'Script']) {
    await page.getByRole('tab', { name: tab }).click();
  }
  await page.getByRole('button', { name: 'Step to the next change' }).click();
  for (const tool of ['Share link', 'Embed', 'Import nodes', 'Run on a real cluster']) {
    await page.getByRole('button', { name: tool, exact: true }).click();
  }
  await page.waitForLoadState('networkidle');
  assert.deepEqual(violations, [], 'the playground itself needs nothing the policy forbids');

  // The policy is really enforced: an inline script planted in the page does not run.
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__planted = true';
    document.head.append(s);
    return window.__planted === true;
  });
  assert.equal(ran, false, 'an inline script ran');
  await page.waitForFunction(() => true);
  await page.waitForTimeout(100);
  assert.ok(
    violations.some((v) => v.startsWith('script-src')),
    `the planted script was reported: ${violations.join(', ')}`,
  );
  const origin = new URL(base).origin;
  const foreign = requests.filter((u) => new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'every request stays on the site');
  assert.ok(requests.some((u) => u.endsWith('.wasm.lzma')), requests.join('\n'));
  assert.deepEqual(problems.filter((p) => !p.includes('Content Security Policy')), []);
});

test('the embed demo page carries the same policy', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${base}public/embed-demo.html`);
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const index = await (await fetch(base)).text();
  assert.ok(index.includes(`content="${policy}"`), 'the demo page and index.html differ');
  // Served without CORS headers, the demo's sandboxed embeds cannot load: only the policy's
  // presence is checked here (csp.test.mjs and share-embed.test.mjs play them on the e2e server).
  assert.ok(problems.every((p) => /CORS|Failed to load|net::ERR_FAILED|request failed/.test(p)), problems.join('\n'));
});
