//! Property: no input panics the scenario parser — random bytes, truncations and byte edits
//! of every preset, and arbitrary script lines against a running session.

use proptest::prelude::*;
use scenario::presets::ALL;

fn parse_lossy(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(s) = scenario::parse("fuzz.yaml", &text) {
        // Whatever parses must also build its cluster without panicking (errors are fine);
        // pools are capped so this stays cheap.
        if s.nodes.iter().map(|n| n.names.len()).sum::<usize>() <= 50 {
            let _ = scenario::start(&s);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        parse_lossy(&bytes);
    }

    #[test]
    fn truncated_presets_never_panic(which in 0..ALL.len(), cut in 0.0f64..1.0) {
        let text = ALL[which].text.as_bytes();
        let end = ((text.len() as f64) * cut) as usize;
        parse_lossy(&text[..end.min(text.len())]);
    }

    #[test]
    fn edited_presets_never_panic(
        which in 0..ALL.len(),
        edits in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 1..8),
    ) {
        let mut text = ALL[which].text.as_bytes().to_vec();
        for (at, b) in edits {
            let i = ((text.len() as f64) * at) as usize;
            if i < text.len() {
                text[i] = b;
            }
        }
        parse_lossy(&text);
    }

    #[test]
    fn random_script_lines_never_panic(line in "(kubectl|node|pod|sleep|expect)? ?[ -~]{0,40}") {
        let s = scenario::parse("s.yaml", "scenario: x\nnodes: [{name: w}]\n").expect("parses");
        let mut session = scenario::start(&s).expect("starts");
        let _ = scenario::run_line(&mut session, &line);
    }
}
