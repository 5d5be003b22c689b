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

const bindings = await import(sameOrigin('js').href);
await bindings.default({ module_or_path: sameOrigin('wasm') });
