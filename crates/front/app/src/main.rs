//! Entry point of the wasm binary that trunk builds: mounts [`dsplay_app::App`] to `<body>`.

fn main() {
    leptos::mount::mount_to_body(dsplay_app::App);
}
