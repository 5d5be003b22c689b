//! Browser tests of the app's views, run by `cargo test --target wasm32-unknown-unknown -p
//! dsplay-app` in headless Chromium (wasm-bindgen-test-runner, see `.cargo/config.toml`).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app into a fresh `<div>` in the document and returns that element.
fn mount_app() -> web_sys::HtmlElement {
    let host: web_sys::HtmlElement = document()
        .create_element("div")
        .expect("create <div>")
        .unchecked_into();
    document()
        .body()
        .expect("<body>")
        .append_child(&host)
        .expect("append host");
    leptos::mount::mount_to(host.clone(), || dsplay_app::App().into_any()).forget();
    host
}

/// Lets pending effects and re-renders run.
async fn settle() {
    gloo_timers::future::TimeoutFuture::new(0).await;
    gloo_timers::future::TimeoutFuture::new(0).await;
}

fn find(host: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlElement {
    host.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("an element matching {selector}"))
        .unchecked_into()
}

fn text(host: &web_sys::HtmlElement, selector: &str) -> String {
    host.query_selector(selector)
        .expect("valid selector")
        .and_then(|x| x.text_content())
        .unwrap_or_default()
}

fn all_text(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).expect("valid selector");
    (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
        .collect()
}

fn counter(host: &web_sys::HtmlElement, col: &str) -> String {
    text(host, &format!("tr[data-ds] td[data-col=\"{col}\"]"))
}

async fn click(host: &web_sys::HtmlElement, selector: &str) {
    find(host, selector).click();
    settle().await;
}

async fn open_panel(host: &web_sys::HtmlElement, panel: &str) {
    click(host, &format!(".tabs button[data-panel=\"{panel}\"]")).await;
}

/// Steps forward until `done` holds (at most `max` steps).
async fn step_until(
    host: &web_sys::HtmlElement,
    max: usize,
    done: impl Fn(&web_sys::HtmlElement) -> bool,
) -> bool {
    for _ in 0..max {
        if done(host) {
            return true;
        }
        click(host, "button.step").await;
    }
    done(host)
}

#[wasm_bindgen_test]
async fn app_shows_the_playground_heading() {
    let host = mount_app();
    settle().await;
    assert_eq!(text(&host, "h1"), "DaemonSet Playground");
}

#[wasm_bindgen_test]
async fn clicking_the_control_plane_explains_the_untolerated_taint() {
    let host = mount_app();
    settle().await;
    let cp = find(&host, "article.node[data-node=\"control-plane\"]");
    assert_eq!(cp.get_attribute("data-decision").as_deref(), Some("no-pod"));
    assert_eq!(text(&cp, ".badge"), "no pod");
    cp.click();
    settle().await;
    let failed = text(&host, ".explain .checks li.fail");
    assert!(
        failed.contains("taint node-role.kubernetes.io/control-plane:NoSchedule"),
        "failing check names the taint: {failed}"
    );
    assert!(failed.contains("not tolerated"), "says why: {failed}");
    assert!(
        text(&host, ".explain .decision").contains("shouldRun: false"),
        "shows the decision"
    );
}

#[wasm_bindgen_test]
async fn every_worker_shows_a_pod_decision() {
    let host = mount_app();
    settle().await;
    for w in ["worker", "worker2", "worker3", "worker4"] {
        let card = find(&host, &format!("article.node[data-node=\"{w}\"]"));
        assert_eq!(
            card.get_attribute("data-decision").as_deref(),
            Some("pod"),
            "{w}"
        );
        assert_eq!(text(&card, ".badge"), "pod", "{w}");
    }
}

#[wasm_bindgen_test]
async fn counters_follow_the_simulation() {
    let host = mount_app();
    settle().await;
    // At t=0 the DaemonSet was just applied: the controller has not written a status yet.
    assert_eq!(counter(&host, "ready"), "0", "nothing ready at t=0");
    let desired = step_until(&host, 400, |h| counter(h, "desired") == "4").await;
    assert!(desired, "DESIRED becomes 4 once the controller has synced");
    assert_eq!(counter(&host, "ready"), "0", "DESIRED comes before READY");
    // Step until every worker has a Ready pod; the counters must say so at each point where
    // the cards do.
    let reached = step_until(&host, 400, |h| counter(h, "ready") == "4").await;
    assert!(reached, "READY reaches 4 by stepping");
    let ready_chips = all_text(&host, "article.node li.pod.ready").len();
    assert_eq!(ready_chips, 4, "four Ready pod chips when READY is 4");
    assert_eq!(counter(&host, "available"), "4");
    assert_eq!(counter(&host, "up-to-date"), "4");
}

#[wasm_bindgen_test]
async fn step_back_restores_the_previous_state() {
    let host = mount_app();
    settle().await;
    step_until(&host, 400, |h| {
        !all_text(h, "article.node li.pod").is_empty()
    })
    .await;
    let snapshot = |h: &web_sys::HtmlElement| {
        (
            text(h, "[data-testid=clock]"),
            text(h, ".counters tbody"),
            all_text(h, "article.node"),
        )
    };
    let before = snapshot(&host);
    for _ in 0..3 {
        click(&host, "button.step").await;
    }
    assert_ne!(snapshot(&host), before, "three steps change something");
    for _ in 0..3 {
        click(&host, "button.back").await;
    }
    assert_eq!(
        snapshot(&host),
        before,
        "three steps back restore it exactly"
    );
}

#[wasm_bindgen_test]
async fn a_node_edit_becomes_a_script_command() {
    let host = mount_app();
    settle().await;
    click(&host, "article.node[data-node=\"worker3\"]").await;
    let cordon = host
        .query_selector_all(".explain .actions button")
        .expect("selector");
    let button: web_sys::HtmlElement = (0..cordon.length())
        .filter_map(|i| cordon.item(i))
        .find(|n| n.text_content().as_deref() == Some("Cordon"))
        .expect("a Cordon button")
        .unchecked_into();
    button.click();
    settle().await;
    open_panel(&host, "script").await;
    let lines = all_text(&host, ".script li");
    assert!(
        lines.iter().any(|l| l.contains("kubectl cordon worker3")),
        "the script holds the edit: {lines:?}"
    );
    let card = find(&host, "article.node[data-node=\"worker3\"]");
    assert!(
        card.class_list().contains("cordoned"),
        "the card shows the node cordoned"
    );
}

#[wasm_bindgen_test]
async fn invalid_yaml_shows_its_line_and_column() {
    let host = mount_app();
    settle().await;
    open_panel(&host, "yaml").await;
    let area: web_sys::HtmlTextAreaElement = find(&host, ".code-editor textarea").unchecked_into();
    let good = area.value();
    assert!(
        good.contains("kind: DaemonSet"),
        "the editor opens on the preset's DaemonSet"
    );
    // The YAML 1.1 pitfall: `yes` is a boolean, and nodeSelector values must be strings.
    let bad = good.replacen("spec:\n", "spec:\n  minReadySeconds: yes\n", 1);
    area.set_value(&bad);
    area.dispatch_event(&web_sys::Event::new("input").expect("event"))
        .expect("dispatch");
    settle().await;
    let diags = all_text(&host, "[data-testid=diagnostics] li");
    assert!(!diags.is_empty(), "a diagnostic is shown");
    let line = bad
        .lines()
        .position(|l| l.contains("minReadySeconds: yes"))
        .expect("the bad line")
        + 1;
    assert!(
        diags[0].starts_with(&format!("{line}:")),
        "the diagnostic starts with line {line}: {diags:?}"
    );
    let apply = find(&host, "button.apply");
    assert!(
        apply.has_attribute("disabled"),
        "Apply is disabled while the text is invalid"
    );
}

#[wasm_bindgen_test]
async fn a_deleted_pod_leaves_with_a_fading_chip_only_while_time_moves_forward() {
    let host = mount_app();
    settle().await;
    let chip = "article.node[data-node=\"worker2\"] li.pod";
    assert!(
        step_until(&host, 400, |h| h
            .query_selector(chip)
            .ok()
            .flatten()
            .is_some())
        .await
    );
    let pod = find(&host, chip)
        .get_attribute("data-pod")
        .expect("the chip names its pod");
    click(&host, "article.node[data-node=\"worker2\"]").await;
    click(&host, ".explain .pod-list button.danger").await;
    let this_chip = format!("article.node[data-node=\"worker2\"] li.pod[data-pod=\"{pod}\"]");
    let ghost = format!("article.node[data-node=\"worker2\"] li.gone[data-gone=\"{pod}\"]");
    let left = step_until(&host, 400, |h| {
        h.query_selector(&this_chip).ok().flatten().is_none()
    })
    .await;
    assert!(left, "the deleted pod leaves worker2");
    assert_eq!(
        all_text(&host, &ghost),
        vec![format!("{pod}deleted")],
        "a fading chip says the pod was deleted"
    );
    gloo_timers::future::TimeoutFuture::new(1_000).await;
    settle().await;
    assert!(
        all_text(&host, &ghost).is_empty(),
        "and it is gone a moment later"
    );
    // The controller replaces the pod. Stepping back un-creates the replacement and brings the
    // deleted pod back: no step back shows a departure.
    assert!(step_until(&host, 400, |h| !all_text(h, chip).is_empty()).await);
    let any_ghost = "article.node li.gone";
    let mut back = 0;
    while all_text(&host, &this_chip).is_empty() && back < 400 {
        click(&host, "button.back").await;
        back += 1;
        assert!(
            all_text(&host, any_ghost).is_empty(),
            "going back is not a deletion (step back {back})"
        );
    }
    assert_eq!(all_text(&host, &this_chip).len(), 1, "the pod is back");
}
