//! The Embed API's lesson messages (`docs/embed.md`), in the browser: their exact shapes, which
//! the lesson pane sends and host pages read.
//! The rest of the API is tested end to end in `tests/e2e/embed-api.test.mjs`.
#![cfg(target_arch = "wasm32")]

use dsplay_app::embed_api;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn json(o: &js_sys::Object) -> String {
    js_sys::JSON::stringify(o)
        .map(String::from)
        .unwrap_or_default()
}

#[wasm_bindgen_test]
fn lesson_messages_have_the_documented_shapes() {
    assert_eq!(
        json(&embed_api::lesson_step_message("one-pod-per-node", 2, 8)),
        r#"{"type":"dsplay:step","lesson":"one-pod-per-node","step":2,"of":8}"#
    );
    assert_eq!(
        json(&embed_api::lesson_check_message("taints", 3, true)),
        r#"{"type":"dsplay:check","lesson":"taints","step":3,"holds":true}"#
    );
}
