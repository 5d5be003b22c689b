//! `kubectl get --sort-by=FIELD` (`pkg/cmd/get/sorter.go`): the field is a JSONPath into each
//! object; objects without it come first; numbers compare as numbers, strings as resource
//! quantities when they are ones (`100Mi` < `1Gi`) and otherwise in natural order (`worker2` <
//! `worker10`); maps, lists and booleans cannot be sorted.

use std::cmp::Ordering;

use serde_json::Value;

use crate::jsonpath::Finder;
use crate::Fail;

/// A parsed `--sort-by` field, as kubectl's `RelaxedJSONPathExpression` writes it (`{.a.b}`).
pub(crate) struct SortBy {
    field: String,
    finder: Finder,
}

/// What one object's field holds, for ordering.
enum Key<'a> {
    /// No such field, or JSON null: first, as kubectl puts them.
    Absent,
    Int(i64),
    Float(f64),
    Str(&'a str),
    /// Go's type name of a value kubectl refuses to sort.
    Unsortable(&'static str),
}

impl SortBy {
    /// `metadata.name`, `.metadata.name` and `{.metadata.name}` are the same field.
    pub(crate) fn parse(input: &str) -> Result<SortBy, Fail> {
        let field = crate::jsonpath::relaxed(input).map_err(|e| {
            Fail::new(format!("error: {e}"))
                .hint("e.g. --sort-by=.metadata.creationTimestamp or --sort-by=.spec.nodeName")
        })?;
        let finder = Finder::new(&field).map_err(|e| Fail::new(format!("error: {e}")))?;
        Ok(SortBy { field, finder })
    }

    /// The order of `objects` (their JSON) by the field: indices into `objects`, ties where
    /// Go's `sort.Sort` leaves them. [`arrange`] puts a list in that order.
    pub(crate) fn order(&self, objects: &[Value]) -> Result<Vec<usize>, Fail> {
        let found: Vec<Option<&Value>> = objects
            .iter()
            .map(|o| self.finder.find(o).into_iter().next())
            .collect();
        if !objects.is_empty() && found.iter().all(Option::is_none) {
            return Err(Fail::new(format!(
                "error: couldn't find any field with path {:?} in the list of objects",
                self.field
            ))
            .hint("the path is a JSONPath into each object as `-o yaml` shows it, e.g. .metadata.name or .status.podIP"));
        }
        let keys: Vec<Key> = found.into_iter().map(key).collect();
        self.check_sortable(&keys)?;
        // Quantities only when every string is one: a total order, as the sort needs.
        // `ParseQuantity`, untrimmed, as kubectl's sorter calls it; compared with `Cmp`.
        let quantities: Option<Vec<Option<k8s_base::Quantity>>> = keys
            .iter()
            .map(|k| match k {
                Key::Str(s) => k8s_base::Quantity::parse(s).ok().map(Some),
                _ => Some(None),
            })
            .collect();
        // kubectl sorts with Go's sort.Sort, which is not stable: equal keys (events of one
        // second) end up where Go's pdqsort leaves them, and so must ours.
        let cmp = |a: usize, b: usize| {
            let q = quantities.as_ref().map(|q| (q[a], q[b]));
            match (&keys[a], &keys[b], q) {
                (Key::Absent, Key::Absent, _) => Ordering::Equal,
                (Key::Absent, _, _) => Ordering::Less,
                (_, Key::Absent, _) => Ordering::Greater,
                (Key::Int(x), Key::Int(y), _) => x.cmp(y),
                (Key::Float(x), Key::Float(y), _) => x.total_cmp(y),
                (Key::Str(_), Key::Str(_), Some((Some(x), Some(y)))) => x.cmp(&y),
                (Key::Str(x), Key::Str(y), _) => natural_cmp(x, y),
                // check_sortable let no other pair through.
                _ => Ordering::Equal,
            }
        };
        let order = sort::go_order(objects.len(), &mut |a, b| cmp(a, b) == Ordering::Less);
        Ok(order)
    }

    /// kubectl compares two present values only when both are strings, or both whole numbers,
    /// or both fractions; anything else ends the command (it needs two values to compare).
    fn check_sortable(&self, keys: &[Key]) -> Result<(), Fail> {
        let present: Vec<&Key> = keys.iter().filter(|k| !matches!(k, Key::Absent)).collect();
        if present.len() < 2 {
            return Ok(());
        }
        let why = present
            .iter()
            .find_map(|k| match k {
                Key::Unsortable(go) => Some(format!("unsortable type: {go}")),
                _ => None,
            })
            .or_else(|| {
                let kind = |k: &Key| match k {
                    Key::Int(_) => 1,
                    Key::Float(_) => 2,
                    _ => 3,
                };
                let first = kind(present[0]);
                present
                    .iter()
                    .any(|k| kind(k) != first)
                    .then(|| "unsortable interface: interface".to_string())
            });
        match why {
            None => Ok(()),
            Some(why) => Err(Fail::new(format!(
                "Field {} in *unstructured.Unstructured is an unsortable type: interface, err: {why}",
                self.field
            ))
            .hint("sort by a field that holds a string or a number in every object, e.g. .metadata.name")),
        }
    }
}

/// Puts `items` in `order` (a permutation of their indices, from [`SortBy::order`]).
pub(crate) fn arrange<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .iter()
            .filter_map(|&i| slots.get_mut(i).and_then(Option::take)),
    );
}

fn key(v: Option<&Value>) -> Key<'_> {
    match v {
        None | Some(Value::Null) => Key::Absent,
        Some(Value::String(s)) => Key::Str(s),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(i) => Key::Int(i),
            None => Key::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Some(Value::Bool(_)) => Key::Unsortable("bool"),
        Some(Value::Array(_)) => Key::Unsortable("[]interface {}"),
        Some(Value::Object(_)) => Key::Unsortable("map[string]interface {}"),
    }
}

/// Natural order (`sortorder.NaturalLess`): runs of digits compare as numbers (with fewer
/// leading zeros first on a tie), digits before other bytes, other bytes as bytes, and a
/// string that is a prefix of another first. Equal only for equal strings.
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (da, db) = (a[i].is_ascii_digit(), b[j].is_ascii_digit());
        if da != db {
            return if da {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        if !da {
            if a[i] != b[j] {
                return a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
            continue;
        }
        let (zeros_a, zeros_b) = (i, j);
        while i < a.len() && a[i] == b'0' {
            i += 1;
        }
        while j < b.len() && b[j] == b'0' {
            j += 1;
        }
        let (start_a, start_b) = (i, j);
        while i < a.len() && a[i].is_ascii_digit() {
            i += 1;
        }
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let by_number = (i - start_a)
            .cmp(&(j - start_b))
            .then_with(|| a[start_a..i].cmp(&b[start_b..j]))
            .then_with(|| (start_a - zeros_a).cmp(&(start_b - zeros_b)));
        if by_number != Ordering::Equal {
            return by_number;
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sorted(field: &str, objects: &[Value]) -> Result<Vec<usize>, String> {
        let s = SortBy::parse(field).map_err(|f| f.message)?;
        s.order(objects).map_err(|f| f.message)
    }

    #[test]
    fn natural_order_compares_numbers_as_numbers() {
        let mut v = [
            "worker10", "worker2", "worker", "worker02", "a", "10", "9", "worker2a",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            ["9", "10", "a", "worker", "worker2", "worker2a", "worker02", "worker10"]
        );
        // Leading zeros decide at once: 2 < 02 whatever follows.
        assert_eq!(natural_cmp("x2b", "x02a"), Ordering::Less);
        assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
        assert_eq!(natural_cmp("", "a"), Ordering::Less);
    }

    #[test]
    fn the_three_spellings_of_a_field_are_one() {
        let objs = [json!({"a": {"b": 2}}), json!({"a": {"b": 1}})];
        for f in ["a.b", ".a.b", "{.a.b}", "{a.b}"] {
            assert_eq!(sorted(f, &objs), Ok(vec![1, 0]), "{f}");
        }
        assert!(sorted("{.a", &objs)
            .unwrap_err()
            .starts_with("error: unexpected path string"));
        assert!(sorted("", &objs).is_err());
    }

    #[test]
    fn missing_first_then_numbers_quantities_and_names() {
        let objs = [
            json!({"n": "worker10", "q": "1Gi", "i": 3}),
            json!({"n": "worker2", "q": "100Mi", "i": 1}),
            json!({"x": 1}),
            json!({"n": "worker", "q": "2Gi", "i": 2}),
        ];
        assert_eq!(sorted(".n", &objs), Ok(vec![2, 3, 1, 0]));
        assert_eq!(sorted(".q", &objs), Ok(vec![2, 1, 0, 3]));
        assert_eq!(sorted(".i", &objs), Ok(vec![2, 1, 3, 0]));
        // Ties keep the order given.
        let same = [json!({"k": "a", "id": 0}), json!({"k": "a", "id": 1})];
        assert_eq!(sorted(".k", &same), Ok(vec![0, 1]));
    }

    /// Quantities as `ParseQuantity` reads them, compared exactly: `1K` is no quantity (so the
    /// list falls back to natural order), and 0.3 is 300m, not a float's neighbour of it.
    #[test]
    fn quantities_are_upstreams_and_exact() {
        let q = |v: &[&str]| -> Vec<Value> { v.iter().map(|s| json!({ "q": s })).collect() };
        assert_eq!(
            sorted(".q", &q(&["1Ki", "1000", "1e3", "999"])),
            Ok(vec![3, 1, 2, 0])
        );
        assert_eq!(
            sorted(".q", &q(&["300m", "0.3", "299999999n"])),
            Ok(vec![2, 0, 1])
        );
        assert_eq!(sorted(".q", &q(&["2K", "10K", "1k"])), Ok(vec![2, 0, 1]));
    }

    #[test]
    fn arrange_puts_a_list_in_an_order() {
        let mut v = vec!["a", "b", "c"];
        arrange(&mut v, &[2, 0, 1]);
        assert_eq!(v, ["c", "a", "b"]);
    }

    #[test]
    fn timestamps_sort_in_time_order() {
        let objs = [
            json!({"t": "2026-01-01T00:00:10Z"}),
            json!({"t": "2026-01-01T00:00:09Z"}),
            json!({"t": "2026-01-01T00:01:00Z"}),
        ];
        assert_eq!(sorted(".t", &objs), Ok(vec![1, 0, 2]));
    }

    /// `kubectl get events --sort-by=.lastTimestamp` on presets/f4's 48 events: events of one
    /// second are not kept in list order (Go's sort.Sort), and kubectl 1.37 printed this order.
    #[test]
    fn equal_timestamps_end_where_kubectl_leaves_them() {
        let seconds = [
            20, 21, 21, 21, 0, 0, 0, 0, 24, 0, 0, 0, 0, 11, 7, 7, 7, 7, 0, 0, 0, 0, 4, 28, 28, 28,
            28, 14, 14, 14, 14, 0, 0, 0, 0, 17, 0, 0, 0, 0, 4, 7, 11, 14, 17, 20, 24, 28,
        ];
        let events: Vec<Value> = seconds
            .iter()
            .map(|s| json!({"lastTimestamp": format!("2026-01-01T00:00:{s:02}Z")}))
            .collect();
        let kubectl = vec![
            36, 10, 39, 38, 4, 5, 6, 7, 37, 34, 33, 11, 12, 32, 31, 9, 21, 20, 18, 19, 22, 40, 14,
            16, 15, 41, 17, 42, 13, 27, 30, 29, 28, 43, 35, 44, 45, 0, 1, 2, 3, 8, 46, 26, 25, 24,
            23, 47,
        ];
        assert_eq!(sorted(".lastTimestamp", &events), Ok(kubectl));
    }

    #[test]
    fn a_field_nobody_has_and_unsortable_values_are_errors() {
        let objs = [json!({"a": 1}), json!({"a": 2})];
        assert_eq!(
            sorted(".nope", &objs).unwrap_err(),
            "error: couldn't find any field with path \"{.nope}\" in the list of objects"
        );
        assert_eq!(sorted(".nope", &[]), Ok(vec![]));
        let maps = [json!({"m": {"x": 1}}), json!({"m": {"y": 1}})];
        assert_eq!(
            sorted(".m", &maps).unwrap_err(),
            "Field {.m} in *unstructured.Unstructured is an unsortable type: interface, err: unsortable type: map[string]interface {}"
        );
        let mixed = [json!({"m": "a"}), json!({"m": 1})];
        assert!(sorted(".m", &mixed)
            .unwrap_err()
            .ends_with("unsortable interface: interface"));
        // One value has nothing to be compared with.
        let one = [json!({"m": {"x": 1}}), json!({})];
        assert_eq!(sorted(".m", &one), Ok(vec![1, 0]));
    }
}
