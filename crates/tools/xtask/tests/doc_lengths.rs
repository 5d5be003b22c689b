//! The two documents a newcomer reads first stay short (issue 26): README.md at most 150 lines,
//! ARCHITECTURE.md at most 1,500 words (counted as `wc -w` does). Details belong in `docs/`.

use std::path::{Path, PathBuf};

fn read(name: &str) -> String {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn readme_is_at_most_150_lines() {
    let lines = read("README.md").lines().count();
    assert!(lines > 20, "README.md read as {lines} lines");
    assert!(
        lines <= 150,
        "README.md has {lines} lines (≤ 150): move detail to docs/"
    );
}

#[test]
fn architecture_is_at_most_1500_words() {
    let words = read("ARCHITECTURE.md").split_whitespace().count();
    assert!(words > 500, "ARCHITECTURE.md read as {words} words");
    assert!(
        words <= 1500,
        "ARCHITECTURE.md has {words} words (≤ 1,500): keep it a map, details in module docs"
    );
}
