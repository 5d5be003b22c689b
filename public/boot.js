// Starts the playground. trunk would write this loader inline into index.html; as a file it lets
// the page run under a strict Content-Security-Policy (`script-src 'self' 'wasm-unsafe-eval'`,
// no 'unsafe-inline'; DESIGN §6). Trunk.toml's `pattern_script` loads it with the build's hashed
// file names in the query: `boot.js?js=/dsplay-app-<hash>.js&wasm=/dsplay-app-<hash>_bg.wasm`.
// The release build packs the wasm (`wasm=…_bg.wasm.lzma`, crates/tools/xtask/src/pack.rs): it is
// unpacked here as it downloads (unlzma.js, with the decoder module unlzma.wasm), and the
// browser compiles it as it is unpacked.
import { LzmaDecoderStream } from './unlzma.js';

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

// The app's exports, once its glue is imported (crates/front/app/src/crash.rs).
let app = null;

// One banner at the top of the page, role=alert, with a Reload button that takes the focus,
// and a button that runs `download` (which returns why it could not, if it could not). A crash
// banner (with `download`) takes the focus itself instead: a crash on a key press (Enter in the
// terminal) would otherwise send the rest of that key to Reload, which would reload at once.
let bannerShown = false;
function banner(message, download) {
  if (bannerShown) return;
  bannerShown = true;
  const box = document.createElement('div');
  box.className = 'crash';
  box.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = message;
  const button = (label, click) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', click);
    box.append(b);
    return b;
  };
  box.append(text);
  const reload = button('Reload', () => location.reload());
  if (download) {
    button('Download scenario', () => {
      const failed = download();
      if (failed) text.textContent = `${message} The download failed: ${failed}.`;
    });
  }
  document.body.prepend(box);
  if (download) {
    box.tabIndex = -1;
    box.focus();
  } else {
    reload.focus();
  }
}

// The simulator never panics on any input (DESIGN §6); if it ever does, the wasm traps
// (`unreachable`: the page is built with panic=immediate-abort, so no panic hook runs) and
// stops answering. Say so plainly instead of leaving a frozen page; tell the app to change and
// save nothing more, so the last save is the session before the failing change; offer the
// reload that brings it back, and that session as a file.
function crashBanner(error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return;
  app?.stopped_by_a_crash();
  banner(
    'The playground stopped on an internal error — a bug in it, not in your scenario. ' +
      'What was saved in this browser before it stopped comes back when you reload ' +
      `(embedded pages keep nothing). Error: ${error.message}`,
    app?.download_saved_scenario,
  );
}
addEventListener('error', (e) => crashBanner(e.error));
addEventListener('unhandledrejection', (e) => crashBanner(e.reason));

// The app's wasm as a Response the glue can compile while it streams in.
let unpack = null;
async function wasmResponse(url) {
  // The decoder module loads while the request for the packed wasm goes out.
  if (url.pathname.endsWith('.lzma')) unpack = new LzmaDecoderStream();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status} ${response.statusText}`);
  if (!unpack) return response;
  return new Response(response.body.pipeThrough(unpack), { headers: { 'Content-Type': 'application/wasm' } });
}

// Click-to-load (`?embed=1&ctl=1`, docs/embed.md): no wasm or glue is fetched before the click.
const page = new URLSearchParams(location.search);
const on = (name) => page.has(name) && page.get(name) !== '0';
if (on('embed') && on('ctl')) await clickToLoad();

async function clickToLoad() {
  document.getElementById('boot-fallback')?.remove();
  const theme = page.get('theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  const box = document.createElement('main');
  box.className = 'ctl-preview';
  const title = document.createElement('h1');
  title.textContent = 'DaemonSet Playground';
  const go = document.createElement('button');
  go.type = 'button';
  go.className = 'primary';
  go.textContent = on('autoplay') ? '▶ Play' : '▶ Load the simulator';
  const note = document.createElement('p');
  note.textContent = 'The Kubernetes DaemonSet controller in your browser: a click loads it (about 0.6 MB).';
  box.append(title, go, note);
  document.body.append(box);
  // Titles: public/embed-titles.json (tested against the presets); a share link keeps this one.
  fetch(new URL('embed-titles.json', import.meta.url))
    .then((r) => (r.ok ? r.json() : null))
    .then((t) => {
      const id = page.get('preset') ?? (location.hash.startsWith('#s=') ? null : t?.default);
      const known = id && Object.hasOwn(t?.titles ?? {}, id) ? t.titles[id] : null;
      if (typeof known === 'string') title.textContent = known;
    })
    .catch(() => {}); // the generic title stays
  await new Promise((clicked) => go.addEventListener('click', clicked, { once: true }));
  box.remove();
}

try {
  // Start the download before the glue's import: the two go in parallel.
  const wasm = wasmResponse(sameOrigin('wasm'));
  wasm.catch(() => {}); // reported below, once
  const bindings = await import(sameOrigin('js').href);
  app = bindings;
  await bindings.default({ module_or_path: wasm });
  document.getElementById('boot-fallback')?.remove();
} catch (error) {
  // The fallback's words stay, shown at once: they say what a host must do.
  document.getElementById('boot-fallback')?.setAttribute('data-failed', '');
  // The page could not start (a download cut short or damaged, a file missing): say so where
  // the playground would be, instead of an empty page.
  // A decoder error reaches the compiler only as "failed to read from a ReadableStream".
  const cause = unpack?.error ?? error;
  console.error(cause);
  if (cause instanceof WebAssembly.RuntimeError) crashBanner(cause);
  else banner(`The playground could not load: ${cause.message}. Reloading fixes a broken download.`);
}
