//! "Did you mean …?" hints: how far a word the user wrote is from the words a place knows.
//! One copy for the API server's field names, kubectl's commands, the scenario file's keys,
//! the CLI's subcommands and the page address's options.

/// Levenshtein distance in characters: insertions, deletions and substitutions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The budget most places allow: two edits, or one in four characters of a long option.
pub fn usual_budget(option: &str) -> usize {
    2.max(option.len() / 4)
}

/// The option nearest to `word` (the first in sort order among equally near ones), if it is
/// at most `max(option)` edits away: a plausible typo.
pub fn closest<'a>(
    word: &str,
    options: impl IntoIterator<Item = &'a str>,
    max: impl Fn(&str) -> usize,
) -> Option<&'a str> {
    options
        .into_iter()
        .map(|o| (edit_distance(word, o), o))
        .filter(|(d, o)| *d <= max(o))
        .min()
        .map(|(_, o)| o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("node", "nodes"), 1);
        assert_eq!(edit_distance("labels", "lables"), 2);
        // Characters, not bytes.
        assert_eq!(edit_distance("ü", "u"), 1);
    }

    #[test]
    fn the_nearest_plausible_option() {
        let two = |_: &str| 2;
        assert_eq!(
            closest("node", ["name", "nodes", "files"], two),
            Some("nodes")
        );
        assert_eq!(closest("zzzzzz", ["name", "nodes"], two), None);
        // Equally near: the first in sort order, whatever the order given.
        assert_eq!(closest("ab", ["ac", "aa"], two), Some("aa"));
        assert_eq!(closest("ab", ["aa", "ac"], two), Some("aa"));
    }
}
