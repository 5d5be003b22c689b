// Share links and saves in the test's own hands (the format of crates/play/scenario-file/src/share.rs:
// `#s=<version>.<base64url(raw DEFLATE(JSON))>[&t=<seconds>]`), to craft links and saves the
// page did not write and to read what it stored.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** `#s=<version>.…` holding `json` (a scenario file's structure, plus `view`). */
export function shareFragment(json, { version = 1, t } = {}) {
  const data = deflateRawSync(Buffer.from(JSON.stringify(json))).toString('base64url');
  return `#s=${version}.${data}${t === undefined ? '' : `&t=${t}`}`;
}

/** The JSON inside a `#s=1.…` fragment (or a whole address holding one). */
export function readFragment(fragment) {
  const payload = /s=\d+\.([A-Za-z0-9_-]+)/.exec(fragment)?.[1];
  if (!payload) throw new Error(`no share payload in ${fragment.slice(0, 80)}`);
  return JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url')).toString());
}
