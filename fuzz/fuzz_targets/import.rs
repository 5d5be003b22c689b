//! A node file as the page's node import and `dsplay run --nodes|--add-nodes` read it
//! (`kubectl get nodes -o yaml|json` output, or Node manifests): `scenario::import::import_nodes`,
//! then merged into the F-1 preset both ways (`merge_nodes`), and, when few, the nodes
//! registered with a cluster (`scenario::start`).
#![no_main]

use dsplay_fuzz::{node_count, preset, text, MAX_NODES};
use libfuzzer_sys::fuzz_target;
use scenario::import::{self, Merge};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let Ok(nodes) = import::import_nodes("nodes.yaml", text) else {
        return;
    };
    let _ = import::compact(nodes.clone());
    for how in [Merge::Add, Merge::Replace] {
        let mut s = preset();
        if import::merge_nodes(&mut s, nodes.clone(), how, "nodes.yaml").is_ok()
            && node_count(&s) <= MAX_NODES
        {
            let _ = scenario::start(&s);
        }
    }
});
