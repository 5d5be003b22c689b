//! What the API server answers when kubectl asks for a Table (`Accept:
//! application/json;as=Table;v=v1;g=meta.k8s.io`): `kubectl get` prints the server's columns and
//! cells, so a server over a simulated cluster (`dsplay serve-api`) computes them with the very
//! printers `kubectl get` uses here. Upstream these are the API server's printers
//! (`pkg/printers/internalversion`); kubectl has none of its own for these types.

use k8s_openapi::jiff::Timestamp;

use crate::get::{headers, row};
use crate::object::Object;
use crate::resource::Resource;

/// One column definition of a Table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableColumn {
    /// As kubectl prints it (it upper-cases the server's names).
    pub name: &'static str,
    /// `integer` (the cell is a JSON number) or `string`.
    pub integer: bool,
    /// 0: always shown; 1: only with `-o wide`.
    pub priority: u8,
}

/// The columns of a kind, `-o wide` ones included (marked with priority 1).
pub fn table_columns(r: Resource) -> Vec<TableColumn> {
    let narrow = headers(r, false);
    headers(r, true)
        .iter()
        .map(|&name| TableColumn {
            name,
            integer: is_integer(r, name),
            priority: u8::from(!narrow.contains(&name)),
        })
        .collect()
}

/// Upstream's column types (`printers.go`): counts are integers, the rest strings.
fn is_integer(r: Resource, name: &str) -> bool {
    match r {
        Resource::DaemonSet => matches!(
            name,
            "DESIRED" | "CURRENT" | "READY" | "UP-TO-DATE" | "AVAILABLE"
        ),
        Resource::ControllerRevision => name == "REVISION",
        Resource::Event => name == "COUNT",
        Resource::Pod | Resource::Node => false,
    }
}

/// One object's cells for [`table_columns`], ages counted to `now`.
pub fn table_cells(o: &Object, now: Timestamp) -> Vec<String> {
    row(o, true, now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_columns_have_priority_one_wherever_they_stand() {
        let cols = table_columns(Resource::Event);
        let shown: Vec<&str> = cols
            .iter()
            .filter(|c| c.priority == 0)
            .map(|c| c.name)
            .collect();
        assert_eq!(shown, ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]);
        assert!(cols.iter().any(|c| c.name == "COUNT" && c.integer));
        let ds = table_columns(Resource::DaemonSet);
        assert_eq!(ds.iter().filter(|c| c.integer).count(), 5);
        assert_eq!(
            ds.last().map(|c| (c.name, c.priority)),
            Some(("SELECTOR", 1))
        );
    }
}
