//! Where each field of a decoded manifest was written: JSON path → line and column.
//!
//! Built from the positioned YAML tree while decoding, kept beside the object, and used to put
//! validation errors (which only know a field path such as
//! `spec.template.spec.containers[0].image`) back onto the text the user typed.

use crate::yaml::{Node, Pos, Value};

/// Positions of the fields of one manifest (one YAML document, or one item of a `List`).
///
/// Lines and columns are 1-based; columns count characters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    source_name: String,
    document: usize,
    root: SrcNode,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct SrcNode {
    /// Where the value starts.
    pos: Pos,
    /// Where its key starts, when it is the value of a mapping entry.
    key_pos: Option<Pos>,
    children: Children,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Children {
    #[default]
    Leaf,
    Seq(Vec<SrcNode>),
    Map(Vec<(String, SrcNode)>),
}

impl SrcNode {
    fn build(node: &Node, key_pos: Option<Pos>) -> SrcNode {
        let children = match &node.value {
            Value::Seq(items) => {
                Children::Seq(items.iter().map(|n| SrcNode::build(n, None)).collect())
            }
            Value::Map(entries) => Children::Map(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), SrcNode::build(&e.value, Some(e.key_pos))))
                    .collect(),
            ),
            _ => Children::Leaf,
        };
        SrcNode {
            pos: node.pos,
            key_pos,
            children,
        }
    }

    /// A scalar is located at its value (`k42: yes` → the `yes`); a block collection at its key,
    /// because its value starts on a later line.
    fn location(&self) -> Pos {
        match (&self.children, self.key_pos) {
            (Children::Leaf, _) | (_, None) => self.pos,
            (_, Some(k)) => k,
        }
    }

    fn child<'a>(&self, rest: &'a str) -> Option<(&SrcNode, &'a str)> {
        if let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            let (sel, after) = (&inner[..close], &inner[close + 1..]);
            return match &self.children {
                Children::Seq(items) => items.get(sel.parse::<usize>().ok()?).map(|n| (n, after)),
                Children::Map(entries) => {
                    let sel = sel.trim_matches(|c| c == '"' || c == '\'');
                    entries
                        .iter()
                        .find(|(k, _)| k == sel)
                        .map(|(_, n)| (n, after))
                }
                Children::Leaf => None,
            };
        }
        let Children::Map(entries) = &self.children else {
            return None;
        };
        // Keys may contain dots (`app.kubernetes.io/name`): take the longest key that fits.
        entries
            .iter()
            .filter(|(k, _)| {
                rest.strip_prefix(k.as_str())
                    .is_some_and(|after| after.is_empty() || after.starts_with(['.', '[']))
            })
            .max_by_key(|(k, _)| k.len())
            .map(|(k, n)| (n, &rest[k.len()..]))
    }
}

impl SourceMap {
    pub(crate) fn build(source_name: &str, document: usize, root: &Node) -> SourceMap {
        SourceMap {
            source_name: source_name.to_string(),
            document,
            root: SrcNode::build(root, None),
        }
    }

    /// The file name the manifest came from (as given to the decoder).
    pub fn source_name(&self) -> &str {
        &self.source_name
    }

    /// Index of the YAML document in the stream (0-based).
    pub fn document(&self) -> usize {
        self.document
    }

    /// `(line, column)` of the field at `path`, or of its nearest ancestor that was written.
    ///
    /// Accepts the API server's path syntax: `spec.template.spec.containers[0].image`, map keys
    /// either dotted (`nodeSelector.k42`) or bracketed (`labels[app.kubernetes.io/name]`).
    pub fn locate(&self, path: &str) -> Option<(usize, usize)> {
        let mut node = &self.root;
        let mut rest = path;
        loop {
            rest = rest.strip_prefix('.').unwrap_or(rest);
            if rest.is_empty() {
                break;
            }
            match node.child(rest) {
                Some((child, after)) => {
                    node = child;
                    rest = after;
                }
                None => break,
            }
        }
        let pos = node.location();
        (pos.line > 0).then_some((pos.line, pos.col))
    }

    /// `true` when `path` itself (not just an ancestor) was written in the manifest.
    pub fn contains(&self, path: &str) -> bool {
        let mut node = &self.root;
        let mut rest = path;
        loop {
            rest = rest.strip_prefix('.').unwrap_or(rest);
            if rest.is_empty() {
                return true;
            }
            match node.child(rest) {
                Some((child, after)) => {
                    node = child;
                    rest = after;
                }
                None => return false,
            }
        }
    }
}
