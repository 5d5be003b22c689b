// Shared set-up for the end-to-end tests: one headless Debian Chromium (never a downloaded
// browser), and a page that records every console error, page error and failed request.
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

/** Where the built playground is served: `cargo xtask test` sets it; default = `cargo xtask serve`. */
export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080/';

// As root, with the network closed: no sandbox, no GPU, no background traffic.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/**
 * Opens a page that collects problems: `problems` lists each console error, uncaught page
 * error, failed request and HTTP error response, as a readable line.
 */
export async function openPage(browser) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  recordProblems(page, problems);
  return { page, problems };
}

/** Adds to `problems` each console error, page error, failed request and HTTP error of `page`. */
export function recordProblems(page, problems) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => {
    const error = req.failure()?.errorText;
    // The browser fetches the icon on its own and drops that fetch when the test navigates
    // on: not a request of ours, and nothing the page could do about it.
    if (error === 'net::ERR_ABORTED' && new URL(req.url()).pathname.endsWith('/favicon.svg')) return;
    problems.push(`request failed: ${req.url()} (${error})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
}

/** The size of the app's wasm linear memory in `page`, in bytes (the glue hands back its exports). */
export async function wasmBytes(page) {
  return page.evaluate(async () => {
    const boot = document.querySelector('script[src*="boot.js"]');
    const js = new URL(boot.src).searchParams.get('js');
    const glue = await import(js);
    const wasm = await glue.default(); // initialised already: returns the same exports
    return wasm.memory.buffer.byteLength;
  });
}

/**
 * Resident memory of `browser`'s renderer processes, in bytes: all of them (`total`; pages they
 * share, such as V8's snapshot, count in each) and the largest (`largest`: with one page open,
 * that page's renderer). Their ids from the browser (CDP `SystemInfo.getProcessInfo`), their
 * sizes from Linux's /proc (0 elsewhere).
 */
export async function rendererRss(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  let total = 0;
  let largest = 0;
  for (const { id, type } of processInfo) {
    if (type !== 'renderer') continue;
    try {
      const status = await readFile(`/proc/${id}/status`, 'utf8');
      const bytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      total += bytes;
      largest = Math.max(largest, bytes);
    } catch {
      // The process ended meanwhile.
    }
  }
  return { total, largest };
}
