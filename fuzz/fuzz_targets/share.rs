//! A share link as the page opens it and `dsplay open` reads it: `scenario::share::decode`.
//! An input starting with `{` is taken as a link's JSON instead and packed (raw DEFLATE,
//! base64url) into a payload as the app writes one, so the fuzzer reaches the JSON reader
//! rather than spending itself on DEFLATE. Whatever opens must open again after being written
//! back as a link (`share::fragment`).
#![no_main]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use dsplay_fuzz::text;
use libfuzzer_sys::fuzz_target;
use scenario::share;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let link = if text.starts_with('{') {
        let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 6);
        format!("#s=1.{}", URL_SAFE_NO_PAD.encode(packed))
    } else {
        text.to_string()
    };
    let Ok(opened) = share::decode(&link) else {
        return;
    };
    let again = share::fragment(&opened.scenario, &opened.view, opened.t);
    if let Err(e) = share::decode(&again) {
        panic!("a link written from an opened link does not open: {e}\n{again}");
    }
});
