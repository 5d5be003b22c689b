// Starts the playground. trunk would write this loader inline into index.html; as a file it lets
// the page run under a strict Content-Security-Policy (`script-src 'self' 'wasm-unsafe-eval'`,
// no 'unsafe-inline'; DESIGN §6). Trunk.toml's `pattern_script` loads it with the build's hashed
// file names in the query: `boot.js?js=/dsplay-app-<hash>.js&wasm=/dsplay-app-<hash>_bg.wasm`.
const params = new URL(import.meta.url).searchParams;

// Only files of this site: the names come from index.html, never from the page's address.
function sameOrigin(name) {
  const value = params.get(name);
  const url = value && new URL(value, import.meta.url);
  if (!url || url.origin !== new URL(import.meta.url).origin) {
    throw new Error(`boot.js: the ${name}= parameter must name a file of this site, not ${value}`);
  }
  return url;
}

// The simulator never panics on any input (DESIGN §6); if it ever does, the wasm traps
// (`unreachable`: the page is built with panic=immediate-abort) and stops answering. Say so
// plainly instead of leaving a frozen page, and offer the reload that brings the autosave back.
let crashed = false;
function crashBanner(error) {
  if (crashed || !(error instanceof WebAssembly.RuntimeError)) return;
  crashed = true;
  const banner = document.createElement('div');
  banner.className = 'crash';
  banner.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent =
    'The playground stopped on an internal error — a bug in it, not in your scenario. ' +
    'What was saved in this browser before it stopped comes back when you reload ' +
    `(embedded pages keep nothing). Error: ${error.message}`;
  const reload = document.createElement('button');
  reload.type = 'button';
  reload.textContent = 'Reload';
  reload.addEventListener('click', () => location.reload());
  banner.append(text, reload);
  document.body.prepend(banner);
  reload.focus();
}
addEventListener('error', (e) => crashBanner(e.error));
addEventListener('unhandledrejection', (e) => crashBanner(e.reason));

const bindings = await import(sameOrigin('js').href);
await bindings.default({ module_or_path: sameOrigin('wasm') });
