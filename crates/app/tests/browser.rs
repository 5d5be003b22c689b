//! Browser tests of the app's views, run by `cargo test --target wasm32-unknown-unknown -p
//! dsplay-app` in headless Chromium (wasm-bindgen-test-runner, see `.cargo/config.toml`).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts `view` into a fresh `<div>` in the document and returns that element.
fn mount(view: fn() -> AnyView) -> web_sys::HtmlElement {
    let host: web_sys::HtmlElement = document()
        .create_element("div")
        .expect("create <div>")
        .unchecked_into();
    document()
        .body()
        .expect("<body>")
        .append_child(&host)
        .expect("append host");
    leptos::mount::mount_to(host.clone(), view).forget();
    host
}

fn node_card(host: &web_sys::HtmlElement, name: &str) -> web_sys::Element {
    host.query_selector(&format!("article.node[data-node=\"{name}\"]"))
        .expect("valid selector")
        .unwrap_or_else(|| panic!("a card for node {name}"))
}

fn text(e: &web_sys::Element, selector: &str) -> String {
    e.query_selector(selector)
        .expect("valid selector")
        .and_then(|x| x.text_content())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
fn app_shows_the_playground_heading() {
    let host = mount(|| dsplay_app::App().into_any());
    let heading = host
        .query_selector("h1")
        .expect("valid selector")
        .expect("an <h1>");
    assert_eq!(
        heading.text_content().as_deref(),
        Some("DaemonSet Playground")
    );
}

#[wasm_bindgen_test]
fn control_plane_shows_no_pod_because_its_taint_is_not_tolerated() {
    let host = mount(|| dsplay_app::App().into_any());
    let cp = node_card(&host, "control-plane");
    assert_eq!(cp.get_attribute("data-decision").as_deref(), Some("no-pod"));
    assert_eq!(text(&cp, ".badge"), "no pod");
    let failed = text(&cp, ".checks li.fail");
    assert!(
        failed.contains("taint node-role.kubernetes.io/control-plane:NoSchedule"),
        "failing check names the taint: {failed}"
    );
    assert!(failed.contains("not tolerated"), "says why: {failed}");
}

#[wasm_bindgen_test]
fn every_worker_shows_a_pod_and_desired_counts_them() {
    let host = mount(|| dsplay_app::App().into_any());
    for w in ["worker", "worker2", "worker3", "worker4"] {
        let card = node_card(&host, w);
        assert_eq!(
            card.get_attribute("data-decision").as_deref(),
            Some("pod"),
            "{w}"
        );
        assert_eq!(text(&card, ".badge"), "pod", "{w}");
        assert_eq!(
            card.query_selector(".checks li.fail")
                .expect("selector")
                .map(|_| ()),
            None,
            "{w} has no failing check"
        );
    }
    let desired = host
        .query_selector("[data-testid=desired] .big")
        .expect("selector")
        .and_then(|e| e.text_content());
    assert_eq!(desired.as_deref(), Some("4"));
}
