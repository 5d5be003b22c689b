//! An LZMA decoder for the `.lzma` format ("LZMA alone": the 13-byte header of
//! `xz --format=lzma`, then one LZMA1 stream), built as a wasm module of its own.
//!
//! The release page ships the app's wasm packed this way (`cargo xtask`'s pack step): 1.76 MB
//! of wasm is 0.70 MB gzipped but 0.53 MB as LZMA, and static hosts serve gzip. `boot.js`
//! loads this module (a few KB, compiled at once by the browser's baseline compiler) and feeds
//! it the packed bytes as they download; the unpacked bytes go on to the browser's streaming
//! compiler as they come. A decoder in JavaScript spent its first 100 ms in the interpreter.
//!
//! Written for this project from the format's description: a range coder with 11-bit adaptive
//! probabilities, the 12-state literal/match model, lc/lp/pb context bits. It decodes into one
//! buffer of the size the header states, so the output is its own dictionary.
//!
//! Invariants: no input makes it panic, read past its input or write past its output; every
//! malformed input is an [`Error`] with the file offset where it was found. `no_std`, no
//! allocator: the wasm module takes its two buffers straight from `memory.grow`.

// no_std in the wasm module; native builds (the tests, a native cdylib) keep std and its panic
// handler.
#![cfg_attr(target_arch = "wasm32", no_std)]

/// The header's length: properties, dictionary size, unpacked size.
pub const HEADER: usize = 13;
/// More input than one symbol can take (a match reads at most 48 bits, each at most one byte):
/// with this much buffered, a symbol never runs out of input half-way.
pub const SYMBOL_MAX_INPUT: usize = 64;
/// The largest unpacked size accepted, within what a browser gives a wasm memory.
pub const SIZE_MAX: u64 = 1 << 30;

const PROB_INIT: u16 = 1024; // one half, in 11 bits
const MATCH_LEN_MIN: usize = 2;
const END_MARKER: u32 = 0xffff_ffff;

// Offsets into the one table of probabilities.
const IS_MATCH: usize = 0; // [state][posState]: 12 × 16
const IS_REP: usize = IS_MATCH + 192; // [state]
const IS_REP_G0: usize = IS_REP + 12;
const IS_REP_G1: usize = IS_REP_G0 + 12;
const IS_REP_G2: usize = IS_REP_G1 + 12;
const IS_REP0_LONG: usize = IS_REP_G2 + 12; // [state][posState]
const POS_SLOT: usize = IS_REP0_LONG + 192; // [lenState 0..3][64]
const SPEC_POS: usize = POS_SLOT + 256; // the reverse trees of slots 4..13: 114
const ALIGN: usize = SPEC_POS + 114; // 16
const LEN_SIZE: usize = 2 + 16 * 8 + 16 * 8 + 256; // choice, choice2, low[16][8], mid[16][8], high
const MATCH_LEN: usize = ALIGN + 16;
const REP_LEN: usize = MATCH_LEN + LEN_SIZE;
const LITERAL: usize = REP_LEN + LEN_SIZE; // [litState][0x300]

/// What is wrong with an input. The numbers are the wasm module's error codes (boot.js's
/// `unlzma.js` words them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum Error {
    /// Fewer than 13 bytes: no header.
    NoHeader = 1,
    /// Byte 0 (lc/lp/pb) is above 224.
    Properties = 2,
    /// The header says "size unknown"; this decoder needs it stated.
    SizeUnknown = 3,
    /// The stated size is above [`SIZE_MAX`].
    TooBig = 4,
    /// The range coder's first byte is not 0.
    FirstByte = 5,
    /// A repeated match before any output.
    RepBeforeOutput = 6,
    /// A match reaching back before the first byte.
    DistanceTooFar = 7,
    /// A match running past the stated size.
    PastSize = 8,
    /// The input ends before the stated size is unpacked.
    Truncated = 9,
    /// An end marker before the stated size.
    EarlyEnd = 10,
    /// No memory for the output (wasm only).
    OutOfMemory = 11,
}

/// The header: context bits, dictionary size, unpacked size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub lc: u32,
    pub lp: u32,
    pub pb: u32,
    pub dict_size: u32,
    pub size: u64,
}

impl Header {
    pub fn parse(bytes: &[u8]) -> Result<Header, Error> {
        let Some(bytes) = bytes.get(..HEADER) else {
            return Err(Error::NoHeader);
        };
        let mut props = u32::from(bytes[0]);
        if props >= 9 * 5 * 5 {
            return Err(Error::Properties);
        }
        let lc = props % 9;
        props /= 9;
        let lp = props % 5;
        let pb = props / 5;
        let le = |range: core::ops::Range<usize>| {
            bytes[range]
                .iter()
                .rev()
                .fold(0u64, |n, &b| (n << 8) | u64::from(b))
        };
        let size = le(5..13);
        if size == u64::MAX {
            return Err(Error::SizeUnknown);
        }
        if size > SIZE_MAX {
            return Err(Error::TooBig);
        }
        Ok(Header {
            lc,
            lp,
            pb,
            dict_size: le(1..5) as u32,
            size,
        })
    }

    /// How many probabilities the model has: 2 bytes each.
    pub fn probs_len(&self) -> usize {
        LITERAL + (0x300 << (self.lc + self.lp))
    }
}

/// The range coder over one stretch of input. Past the end it reads zeros and sets `overrun`.
struct Rc<'i> {
    range: u32,
    code: u32,
    input: &'i [u8],
    at: usize,
    overrun: bool,
}

impl Rc<'_> {
    #[inline(always)]
    fn normalize(&mut self) {
        if self.range < 1 << 24 {
            self.range <<= 8;
            let byte = match self.input.get(self.at) {
                Some(&b) => {
                    self.at += 1;
                    b
                }
                None => {
                    self.overrun = true;
                    0
                }
            };
            self.code = (self.code << 8) | u32::from(byte);
        }
    }

    #[inline(always)]
    fn bit(&mut self, prob: &mut u16) -> usize {
        let p = *prob;
        let bound = (self.range >> 11) * u32::from(p);
        let b = if self.code < bound {
            self.range = bound;
            *prob = p + ((2048 - p) >> 5);
            0
        } else {
            self.range -= bound;
            self.code -= bound;
            *prob = p - (p >> 5);
            1
        };
        self.normalize();
        b
    }

    /// `probs[1 << bits]`: a bit tree, most significant bit first.
    #[inline(always)]
    fn tree(&mut self, probs: &mut [u16], bits: u32) -> usize {
        let mut m = 1;
        for _ in 0..bits {
            m = (m << 1) | self.bit(&mut probs[m]);
        }
        m - (1 << bits)
    }

    /// A bit tree read least significant bit first.
    fn reverse_tree(&mut self, probs: &mut [u16], bits: u32) -> u32 {
        let mut m = 1;
        let mut symbol = 0;
        for i in 0..bits {
            let b = self.bit(&mut probs[m]);
            m = (m << 1) | b;
            symbol |= (b as u32) << i;
        }
        symbol
    }

    /// Bits with probability one half.
    fn direct(&mut self, bits: u32) -> u32 {
        let mut result = 0;
        for _ in 0..bits {
            self.range >>= 1;
            let b = u32::from(self.code >= self.range);
            self.code -= self.range & b.wrapping_neg();
            result = (result << 1) | b;
            self.normalize();
        }
        result
    }

    /// A match length minus 2 (0..=271), from a length model of [`LEN_SIZE`] probabilities.
    fn length(&mut self, probs: &mut [u16], pos_state: usize) -> usize {
        if self.bit(&mut probs[0]) == 0 {
            return self.tree(&mut probs[2 + pos_state * 8..], 3);
        }
        if self.bit(&mut probs[1]) == 0 {
            return 8 + self.tree(&mut probs[2 + 128 + pos_state * 8..], 3);
        }
        16 + self.tree(&mut probs[2 + 256..], 8)
    }
}

/// The decoder proper, over an output buffer of the stated size and a model's probabilities.
pub struct Decoder<'a> {
    out: &'a mut [u8],
    probs: &'a mut [u16],
    lc: u32,
    lp_mask: usize,
    pb_mask: usize,
    range: u32,
    code: u32,
    started: bool,
    state: usize,
    rep: [u32; 4],
    pos: usize,
    ended: bool,
}

impl<'a> Decoder<'a> {
    /// `out` must hold `header.size` bytes and `probs` `header.probs_len()` values; longer
    /// buffers are cut to size, shorter ones are [`Error::OutOfMemory`].
    pub fn new(header: &Header, out: &'a mut [u8], probs: &'a mut [u16]) -> Result<Self, Error> {
        let size = usize::try_from(header.size).map_err(|_| Error::TooBig)?;
        let out = out.get_mut(..size).ok_or(Error::OutOfMemory)?;
        let probs = probs
            .get_mut(..header.probs_len())
            .ok_or(Error::OutOfMemory)?;
        probs.fill(PROB_INIT);
        Ok(Decoder {
            out,
            probs,
            lc: header.lc,
            lp_mask: (1 << header.lp) - 1,
            pb_mask: (1 << header.pb) - 1,
            range: u32::MAX,
            code: 0,
            started: false,
            state: 0,
            rep: [0; 4],
            pos: 0,
            ended: false,
        })
    }

    /// The bytes unpacked so far.
    pub fn output(&self) -> &[u8] {
        &self.out[..self.pos]
    }

    /// The unpacked size the header states.
    pub fn size(&self) -> usize {
        self.out.len()
    }

    /// Decodes whole symbols from `input` (the stream after the header, from where the last
    /// call stopped). Unless `last`, it stops with [`SYMBOL_MAX_INPUT`] bytes or fewer left, so
    /// that no symbol is cut; with `last`, the input must finish the output. Returns how many
    /// bytes it consumed; an error comes with its offset in `input`.
    pub fn run(&mut self, input: &[u8], last: bool) -> Result<usize, (Error, usize)> {
        let mut rc = Rc {
            range: self.range,
            code: self.code,
            input,
            at: 0,
            overrun: false,
        };
        if !self.started {
            match input.get(..5) {
                None if last => return Err((Error::Truncated, input.len())),
                None => return Ok(0),
                Some(&[first, ..]) if first != 0 => return Err((Error::FirstByte, 0)),
                Some(bytes) => {
                    rc.code = u32::from_be_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
                    rc.range = u32::MAX;
                    rc.at = 5;
                    self.started = true;
                }
            }
        }
        let reserve = if last { 0 } else { SYMBOL_MAX_INPUT };
        let result = self.symbols(&mut rc, reserve);
        self.range = rc.range;
        self.code = rc.code;
        result.map_err(|e| (e, rc.at))?;
        if rc.overrun {
            return Err((Error::Truncated, input.len()));
        }
        if last && self.pos != self.out.len() {
            let error = if self.ended {
                Error::EarlyEnd
            } else {
                Error::Truncated
            };
            return Err((error, rc.at));
        }
        Ok(rc.at)
    }

    fn symbols(&mut self, rc: &mut Rc, reserve: usize) -> Result<(), Error> {
        let size = self.out.len();
        let probs = &mut *self.probs;
        let out = &mut *self.out;
        let mut state = self.state;
        let mut pos = self.pos;
        let [mut rep0, mut rep1, mut rep2, mut rep3] = self.rep;
        let result = loop {
            if pos >= size || self.ended || rc.input.len() - rc.at < reserve || rc.overrun {
                break Ok(());
            }
            let pos_state = pos & self.pb_mask;
            if rc.bit(&mut probs[IS_MATCH + (state << 4) + pos_state]) == 0 {
                let prev = if pos > 0 {
                    usize::from(out[pos - 1])
                } else {
                    0
                };
                let lit_state = ((pos & self.lp_mask) << self.lc) + (prev >> (8 - self.lc));
                let probs = &mut probs[LITERAL + 0x300 * lit_state..][..0x300];
                let mut symbol = 1usize;
                if state >= 7 {
                    // After a match the byte rep0 back predicts this one, bit by bit, until
                    // they differ. (rep0 < pos: checked when it was set.)
                    let mut match_byte = usize::from(out[pos - rep0 as usize - 1]);
                    while symbol < 0x100 {
                        let match_bit = (match_byte >> 7) & 1;
                        match_byte <<= 1;
                        let b = rc.bit(&mut probs[((1 + match_bit) << 8) + symbol]);
                        symbol = (symbol << 1) | b;
                        if b != match_bit {
                            break;
                        }
                    }
                }
                while symbol < 0x100 {
                    symbol = (symbol << 1) | rc.bit(&mut probs[symbol]);
                }
                out[pos] = symbol as u8;
                pos += 1;
                state = match state {
                    0..=3 => 0,
                    4..=9 => state - 3,
                    _ => state - 6,
                };
                continue;
            }
            let len;
            if rc.bit(&mut probs[IS_REP + state]) == 1 {
                if pos == 0 {
                    break Err(Error::RepBeforeOutput);
                }
                if rc.bit(&mut probs[IS_REP_G0 + state]) == 0 {
                    if rc.bit(&mut probs[IS_REP0_LONG + (state << 4) + pos_state]) == 0 {
                        // One byte from rep0 back.
                        state = if state < 7 { 9 } else { 11 };
                        out[pos] = out[pos - rep0 as usize - 1];
                        pos += 1;
                        continue;
                    }
                } else {
                    let distance;
                    if rc.bit(&mut probs[IS_REP_G1 + state]) == 0 {
                        distance = rep1;
                    } else {
                        if rc.bit(&mut probs[IS_REP_G2 + state]) == 0 {
                            distance = rep2;
                        } else {
                            distance = rep3;
                            rep3 = rep2;
                        }
                        rep2 = rep1;
                    }
                    rep1 = rep0;
                    rep0 = distance;
                }
                len = rc.length(&mut probs[REP_LEN..][..LEN_SIZE], pos_state);
                state = if state < 7 { 8 } else { 11 };
            } else {
                rep3 = rep2;
                rep2 = rep1;
                rep1 = rep0;
                len = rc.length(&mut probs[MATCH_LEN..][..LEN_SIZE], pos_state);
                state = if state < 7 { 7 } else { 10 };
                let slot = rc.tree(&mut probs[POS_SLOT + len.min(3) * 64..][..64], 6) as u32;
                if slot < 4 {
                    rep0 = slot;
                } else {
                    let bits = (slot >> 1) - 1;
                    let mut distance = (2 | (slot & 1)) << bits;
                    if slot < 14 {
                        let at = SPEC_POS + distance as usize - slot as usize - 1;
                        distance += rc.reverse_tree(&mut probs[at..], bits);
                    } else {
                        distance += rc.direct(bits - 4) << 4;
                        distance += rc.reverse_tree(&mut probs[ALIGN..][..16], 4);
                    }
                    if distance == END_MARKER {
                        self.ended = true;
                        break Ok(());
                    }
                    rep0 = distance;
                }
                if rep0 as usize >= pos {
                    break Err(Error::DistanceTooFar);
                }
            }
            let len = len + MATCH_LEN_MIN;
            if len > size - pos {
                break Err(Error::PastSize);
            }
            let from = pos - rep0 as usize - 1;
            if from + len <= pos {
                out.copy_within(from..from + len, pos);
            } else {
                // Overlapping: the match repeats what it is writing.
                for i in 0..len {
                    out[pos + i] = out[from + i];
                }
            }
            pos += len;
        };
        self.state = state;
        self.pos = pos;
        self.rep = [rep0, rep1, rep2, rep3];
        result
    }
}

/// A whole `.lzma` file pushed in chunks of at most [`Stream::CHUNK`] bytes, header included:
/// what the wasm module does, with the buffers passed in (`alloc` is asked once, for the output
/// and the probabilities, when the header is complete).
pub struct Stream<'a> {
    /// The unconsumed input (`tail` bytes), then the chunk being pushed.
    input: [u8; Stream::CHUNK + SYMBOL_MAX_INPUT + HEADER],
    tail: usize,
    /// The file offset of `input[0]`.
    base: u64,
    decoder: Option<Decoder<'a>>,
}

impl<'a> Stream<'a> {
    /// Small enough that the browser's optimising compiler takes over `symbols` early: wasm
    /// functions tier up between calls, and a 16 KB chunk is about 50 KB of output.
    pub const CHUNK: usize = 16 * 1024;

    pub const fn new() -> Self {
        Stream {
            input: [0; Stream::CHUNK + SYMBOL_MAX_INPUT + HEADER],
            tail: 0,
            base: 0,
            decoder: None,
        }
    }

    /// Where the next chunk goes: up to [`Stream::CHUNK`] bytes.
    pub fn chunk(&mut self) -> &mut [u8] {
        let tail = self.tail;
        &mut self.input[tail..][..Stream::CHUNK]
    }

    /// The decoder, once the header has been read.
    pub fn decoder(&self) -> Option<&Decoder<'a>> {
        self.decoder.as_ref()
    }

    /// Takes the `len` bytes written into [`Stream::chunk`] and decodes what it can; `last`
    /// says no more follow. An error comes with its file offset.
    pub fn push(
        &mut self,
        len: usize,
        last: bool,
        alloc: impl FnOnce(&Header) -> Option<(&'a mut [u8], &'a mut [u16])>,
    ) -> Result<(), (Error, u64)> {
        let end = self.tail + len.min(Stream::CHUNK);
        let mut start = 0;
        if self.decoder.is_none() {
            if end < HEADER {
                self.tail = end;
                return if last {
                    Err((Error::NoHeader, self.base + end as u64))
                } else {
                    Ok(())
                };
            }
            let header = Header::parse(&self.input[..HEADER]).map_err(|e| (e, self.base))?;
            let (out, probs) = alloc(&header).ok_or((Error::OutOfMemory, self.base))?;
            self.decoder = Some(Decoder::new(&header, out, probs).map_err(|e| (e, self.base))?);
            start = HEADER;
        }
        let Some(decoder) = self.decoder.as_mut() else {
            return Err((Error::OutOfMemory, self.base));
        };
        let used = decoder
            .run(&self.input[start..end], last)
            .map_err(|(e, at)| (e, self.base + (start + at) as u64))?;
        // Once the output is whole, what follows (an end marker, padding) is dropped: the tail
        // stays under SYMBOL_MAX_INPUT + HEADER bytes, and `chunk` always has room.
        let consumed = if decoder.pos == decoder.size() || decoder.ended {
            end
        } else {
            start + used
        };
        self.input.copy_within(consumed..end, 0);
        self.tail = end - consumed;
        self.base += consumed as u64;
        Ok(())
    }
}

impl Default for Stream<'_> {
    fn default() -> Self {
        Stream::new()
    }
}

/// Unpacks a whole file into `out` (which must hold the stated size), with `probs` as scratch.
pub fn decode<'a>(
    file: &[u8],
    out: &'a mut [u8],
    probs: &'a mut [u16],
) -> Result<&'a [u8], (Error, u64)> {
    let header = Header::parse(file).map_err(|e| (e, 0))?;
    let mut decoder = Decoder::new(&header, out, probs).map_err(|e| (e, 0))?;
    decoder
        .run(&file[HEADER..], true)
        .map_err(|(e, at)| (e, (HEADER + at) as u64))?;
    let Decoder { out, .. } = decoder;
    Ok(out)
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    //! The module's exports. boot.js (`public/unlzma.js`) copies each chunk of the
    //! download to `unlzma_chunk()`, calls `unlzma_push`, and reads the new output between
    //! `unlzma_output()` and `unlzma_produced()`.

    use core::cell::UnsafeCell;

    use super::{Header, Stream};

    struct Global(UnsafeCell<Stream<'static>>);
    // SAFETY: a wasm module instance runs on one thread, and no export calls another.
    unsafe impl Sync for Global {}

    static STREAM: Global = Global(UnsafeCell::new(Stream::new()));
    static mut ERROR_AT: f64 = 0.0;

    fn stream() -> &'static mut Stream<'static> {
        // SAFETY: see `Global`: one caller at a time, and no export holds the reference across
        // a call.
        unsafe { &mut *STREAM.0.get() }
    }

    /// Grows the memory by enough pages for `bytes`, and returns them. Memory never shrinks
    /// and these pages are never handed out again, so the slices live as long as the module.
    fn grow(bytes: usize) -> Option<*mut u8> {
        let pages = bytes.div_ceil(65536);
        let old = core::arch::wasm32::memory_grow(0, pages);
        (old != usize::MAX).then(|| (old * 65536) as *mut u8)
    }

    fn alloc(header: &Header) -> Option<(&'static mut [u8], &'static mut [u16])> {
        let size = usize::try_from(header.size).ok()?;
        let probs = header.probs_len();
        let out = grow(size)?;
        let table = grow(probs * 2)?;
        // SAFETY: fresh pages of the module's memory, of these sizes, aligned to 64 KiB.
        unsafe {
            Some((
                core::slice::from_raw_parts_mut(out, size),
                core::slice::from_raw_parts_mut(table.cast::<u16>(), probs),
            ))
        }
    }

    /// Where to copy the next chunk (at most `Stream::CHUNK`, 16,384 bytes).
    #[no_mangle]
    pub extern "C" fn unlzma_chunk() -> *mut u8 {
        stream().chunk().as_mut_ptr()
    }

    /// Decodes the chunk copied to `unlzma_chunk()`: 0, or minus an `Error` code.
    #[no_mangle]
    pub extern "C" fn unlzma_push(len: usize, last: u32) -> i32 {
        match stream().push(len, last != 0, alloc) {
            Ok(()) => 0,
            Err((error, at)) => {
                // SAFETY: see `Global`.
                unsafe { ERROR_AT = at as f64 };
                -(error as i32)
            }
        }
    }

    /// The file offset of the last error.
    #[no_mangle]
    pub extern "C" fn unlzma_error_at() -> f64 {
        // SAFETY: see `Global`.
        unsafe { ERROR_AT }
    }

    /// The output buffer (0 until the header is read).
    #[no_mangle]
    pub extern "C" fn unlzma_output() -> *const u8 {
        stream()
            .decoder()
            .map_or(core::ptr::null(), |d| d.output().as_ptr())
    }

    /// How many bytes are unpacked so far.
    #[no_mangle]
    pub extern "C" fn unlzma_produced() -> usize {
        stream().decoder().map_or(0, |d| d.output().len())
    }

    /// The size the header states (0 until it is read).
    #[no_mangle]
    pub extern "C" fn unlzma_size() -> usize {
        stream().decoder().map_or(0, |d| d.size())
    }

    #[cfg(not(test))]
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lzma_rust2::{LzmaOptions, LzmaWriter};
    use proptest::prelude::*;
    use std::io::Write;

    fn pack(data: &[u8], lc: u32, lp: u32, pb: u32, end_marker: bool) -> Vec<u8> {
        let mut options = LzmaOptions::with_preset(6);
        options.lc = lc;
        options.lp = lp;
        options.pb = pb;
        let size = (!end_marker).then_some(data.len() as u64);
        let mut w = LzmaWriter::new(Vec::new(), &options, true, end_marker, size).unwrap();
        w.write_all(data).unwrap();
        let mut file = w.finish().unwrap();
        if end_marker {
            // A stated size and an end marker: valid, and the marker is never reached.
            file[5..13].copy_from_slice(&(data.len() as u64).to_le_bytes());
        }
        file
    }

    fn unpack(file: &[u8]) -> Result<Vec<u8>, (Error, u64)> {
        let header = Header::parse(file).map_err(|e| (e, 0))?;
        let mut out = vec![0; header.size as usize];
        let mut probs = vec![0; header.probs_len()];
        decode(file, &mut out, &mut probs).map(<[u8]>::to_vec)
    }

    /// Pushes `file` through a [`Stream`] in pieces of `step` bytes.
    fn unpack_streamed(file: &[u8], step: usize) -> Result<Vec<u8>, (Error, u64)> {
        let (mut out, mut probs) = match Header::parse(file) {
            Ok(h) => (vec![0; h.size as usize], vec![0; h.probs_len()]),
            Err(_) => (Vec::new(), Vec::new()),
        };
        let mut buffers = Some((&mut out[..], &mut probs[..]));
        let mut stream = Stream::new();
        let mut output = Vec::new();
        let pieces: Vec<&[u8]> = file.chunks(step.clamp(1, Stream::CHUNK)).collect();
        for (i, piece) in pieces.iter().enumerate() {
            stream.chunk()[..piece.len()].copy_from_slice(piece);
            stream.push(piece.len(), i + 1 == pieces.len(), |_| buffers.take())?;
            if let Some(d) = stream.decoder() {
                output.extend_from_slice(&d.output()[output.len()..]);
            }
        }
        if pieces.is_empty() {
            stream.push(0, true, |_| buffers.take())?;
        }
        Ok(output)
    }

    fn sample(n: usize) -> Vec<u8> {
        // Text-like and binary-like stretches: literals, matches, reps and long matches.
        let mut data = Vec::with_capacity(n);
        let mut x: u32 = 12345;
        while data.len() < n {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            match x >> 29 {
                0..=3 => data.extend_from_slice(b"kind: DaemonSet\nmetadata:\n  name: fluentd\n"),
                4 => data.extend(std::iter::repeat_n(
                    (x >> 8) as u8,
                    (x >> 20) as usize % 300,
                )),
                _ => data.extend((0..(x >> 24) % 40).map(|i| (x >> (i % 24)) as u8)),
            }
        }
        data.truncate(n);
        data
    }

    #[test]
    fn unpacks_what_an_lzma_encoder_packs_for_every_context_setting() {
        let data = sample(300_000);
        for (lc, lp, pb) in [
            (3, 0, 2),
            (4, 0, 0),
            (0, 0, 0),
            (8, 0, 0),
            (0, 4, 4),
            (1, 2, 3),
        ] {
            let file = pack(&data, lc, lp, pb, false);
            assert_eq!(unpack(&file).unwrap(), data, "lc={lc} lp={lp} pb={pb}");
            for step in [1, 7, 64, 1000, Stream::CHUNK] {
                assert_eq!(
                    unpack_streamed(&file, step).unwrap(),
                    data,
                    "lc={lc} step={step}"
                );
            }
        }
    }

    #[test]
    fn a_stated_size_with_an_end_marker_too_is_fine() {
        let data = sample(50_000);
        let file = pack(&data, 3, 0, 2, true);
        assert_eq!(unpack(&file).unwrap(), data);
        assert_eq!(unpack_streamed(&file, 4096).unwrap(), data);
    }

    #[test]
    fn an_empty_file_and_a_tiny_one() {
        assert_eq!(unpack(&pack(b"", 3, 0, 2, false)).unwrap(), b"");
        assert_eq!(unpack(&pack(b"x", 3, 0, 2, false)).unwrap(), b"x");
        assert_eq!(
            unpack_streamed(&pack(b"xy", 3, 0, 2, false), 1).unwrap(),
            b"xy"
        );
    }

    #[test]
    fn a_bad_header_says_what_is_wrong() {
        let good = pack(b"hello hello hello", 3, 0, 2, false);
        assert_eq!(unpack(&good[..12]), Err((Error::NoHeader, 0)));
        assert_eq!(unpack_streamed(&good[..12], 5), Err((Error::NoHeader, 12)));
        let mut bad = good.clone();
        bad[0] = 225;
        assert_eq!(unpack(&bad), Err((Error::Properties, 0)));
        let mut unknown = good.clone();
        unknown[5..13].fill(0xff);
        assert_eq!(unpack(&unknown), Err((Error::SizeUnknown, 0)));
        let mut huge = good.clone();
        huge[5..13].copy_from_slice(&(SIZE_MAX + 1).to_le_bytes());
        assert_eq!(unpack(&huge), Err((Error::TooBig, 0)));
        let mut first = good.clone();
        first[13] = 1;
        assert_eq!(unpack(&first), Err((Error::FirstByte, 13)));
    }

    #[test]
    fn a_cut_file_is_truncated_wherever_it_is_cut() {
        let data = sample(20_000);
        let file = pack(&data, 3, 0, 2, false);
        for cut in [13, 15, 18, 100, file.len() / 2, file.len() - 1] {
            let err = unpack(&file[..cut]).unwrap_err();
            assert_eq!(err.0, Error::Truncated, "cut at {cut}: {err:?}");
            let err = unpack_streamed(&file[..cut], 777).unwrap_err();
            assert_eq!(err.0, Error::Truncated, "streamed, cut at {cut}: {err:?}");
        }
    }

    #[test]
    fn a_size_stated_too_small_or_too_large_is_caught() {
        let data = sample(10_000);
        let mut small = pack(&data, 3, 0, 2, false);
        small[5..13].copy_from_slice(&5000u64.to_le_bytes());
        // Either a match runs past 5,000 bytes, or decoding stops at 5,000 with the right bytes.
        match unpack(&small) {
            Ok(out) => assert_eq!(out, data[..5000]),
            Err((e, _)) => assert_eq!(e, Error::PastSize),
        }
        let mut large = pack(&data, 3, 0, 2, true);
        large[5..13].copy_from_slice(&20_000u64.to_le_bytes());
        assert_eq!(unpack(&large).unwrap_err().0, Error::EarlyEnd);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Garbage after a valid header never panics and never loops: an error or some output.
        #[test]
        fn garbage_never_panics(body in proptest::collection::vec(any::<u8>(), 0..3000),
                                props in 0u8..225, size in 0u64..100_000, step in 1usize..5000) {
            let mut file = vec![props, 0, 0, 1, 0];
            file.extend_from_slice(&size.to_le_bytes());
            file.push(0);
            file.extend_from_slice(&body);
            let whole = unpack(&file);
            let streamed = unpack_streamed(&file, step);
            if let Ok(out) = &whole {
                prop_assert_eq!(out.len() as u64, size);
            }
            // The same verdict whichever way the bytes come.
            prop_assert_eq!(whole.is_ok(), streamed.is_ok());
        }

        /// Flipping one byte of a valid file never panics.
        #[test]
        fn one_flipped_byte_never_panics(at in 13usize..2000, xor in 1u8..=255) {
            let data = sample(20_000);
            let mut file = pack(&data, 3, 0, 2, false);
            let at = at.min(file.len() - 1);
            file[at] ^= xor;
            let _ = unpack(&file);
            let _ = unpack_streamed(&file, 333);
        }
    }
}
