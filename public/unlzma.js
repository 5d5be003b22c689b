// Unpacks the release page's wasm (`…_bg.wasm.lzma`, packed by `cargo xtask`'s pack step) as it
// downloads, with our LZMA decoder compiled to a wasm module of its own (crates/base/unlzma, built
// into `public/unlzma.wasm` beside this file): `response.body.pipeThrough(new
// LzmaDecoderStream())`, as with the browser's DecompressionStream.

/** A damaged or cut-off download. */
export class LzmaError extends Error {
  constructor(message) {
    super(message);
    this.name = 'LzmaError';
  }
}

// The decoder's error codes (crates/base/unlzma's `Error`), in words.
const MESSAGES = {
  1: 'the file is shorter than its 13-byte header',
  2: 'byte 0 (lc/lp/pb) is above 224: not an .lzma file',
  3: 'the header does not state the unpacked size',
  4: 'the header states an unpacked size above 1 GiB',
  5: "the range coder's first byte is not 0",
  6: 'a repeated match before any output',
  7: 'a match reaches back before the first byte',
  8: 'a match runs past the size the header states',
  9: 'the file ends before the size its header states is unpacked',
  10: 'an end marker before the size the header states',
  11: 'no memory for the unpacked bytes',
};

// What the decoder takes per call (its `Stream::CHUNK`): small, so that its optimised code,
// compiled in the background after the first calls, takes over early.
const CHUNK = 16 * 1024;

async function instantiate(url) {
  const response = await fetch(url);
  if (!response.ok) throw new LzmaError(`${url.pathname}: HTTP ${response.status} ${response.statusText}`);
  // 13 KB: nothing to gain from streaming compilation, and no dependence on the MIME type.
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  return instance.exports;
}

export class LzmaDecoderStream extends TransformStream {
  /** What stopped the decoder, if anything: an LzmaError, or the decoder module's failure. */
  error = null;

  constructor(decoderUrl = new URL('unlzma.wasm', import.meta.url)) {
    let x = null; // the decoder's exports
    let emitted = 0;
    // Decodes the `length` bytes just copied to the decoder's chunk buffer; passes on what it
    // unpacked.
    const push = (length, last, controller) => {
      const code = x.unlzma_push(length, last ? 1 : 0);
      if (code !== 0) {
        const what = MESSAGES[-code] ?? `error ${-code}`;
        // Kept: whoever reads the stream sees only a generic network error.
        this.error = new LzmaError(`the packed wasm is damaged at byte ${x.unlzma_error_at()}: ${what}`);
        throw this.error;
      }
      const produced = x.unlzma_produced() >>> 0;
      if (produced > emitted) {
        const at = (x.unlzma_output() >>> 0) + emitted;
        // A copy: the compiler keeps the chunk, and the decoder's memory is its own.
        controller.enqueue(new Uint8Array(x.memory.buffer, at, produced - emitted).slice());
        emitted = produced;
      }
    };
    super({
      start: async () => {
        try {
          x = await instantiate(decoderUrl);
        } catch (error) {
          this.error = error;
          throw error;
        }
      },
      transform(chunk, controller) {
        for (let i = 0; i < chunk.length; i += CHUNK) {
          const piece = chunk.subarray(i, i + CHUNK);
          new Uint8Array(x.memory.buffer, x.unlzma_chunk() >>> 0, piece.length).set(piece);
          push(piece.length, false, controller);
        }
      },
      flush(controller) {
        push(0, true, controller);
      },
    });
  }
}
