// The playground runs under a strict Content-Security-Policy (DESIGN §6). The e2e static server
// sends one on every response (`STRICT_CSP` in crates/tools/xtask/src/static_server.rs), so the whole
// suite runs under it; this test pins that the policy is really there and really strict, that
// the built page has no inline script or style for it to block, and that a tour of the panels
// and dialogs reports no violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, launchBrowser, openPage } from './support/browser.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

test('the page runs under a strict CSP with no violation', async () => {
  const { page, problems } = await openPage(browser);
  const violations = [];
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      window.reportViolation(`${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  const response = await page.goto(BASE_URL, { waitUntil: 'load' });
  const csp = response.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/, `served policy: ${csp}`);
  assert.match(csp, /style-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'|data:|\*/);

  const html = await response.text();
  assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/, 'an inline <script> in index.html');
  assert.doesNotMatch(html, /<style|\sstyle=/, 'an inline style in index.html');

  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  assert.ok((await page.locator('article[data-node]').count()) > 0, 'the cluster rendered');
  for (const tab of ['Explain', 'YAML', 'Terminal', 'Events', 'Chart', 'Script']) {
    await page.getByRole('tab', { name: tab }).click();
  }
  await page.getByRole('button', { name: 'Step to the next change' }).click();
  await page.getByRole('button', { name: 'Share link' }).click();
  assert.match(await page.getByRole('textbox', { name: 'Share link' }).inputValue(), /#s=1\./);
  await page.getByRole('heading', { level: 1 }).click();
  await page.locator('body').press('?');
  await page.getByRole('dialog').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle');
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
});
