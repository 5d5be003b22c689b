//! Shared by the CLI's test binaries.

/// The 5,000-node preset's text with 500 workers, its expectations scaled with it: the same
/// scenario and code paths, 10 s of the unoptimised binary instead of 4 min. Any other
/// scenario's text comes back unchanged.
pub fn scaled_5000_to_500(text: &str) -> String {
    text.replace("count: 5000,", "count: 500,")
        .replace("equals: \"5000\"", "equals: \"500\"")
        .replace("5000/5000/5000/5000/5000", "500/500/500/500/500")
}
