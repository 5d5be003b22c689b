//! Strategic merge patch, as `k8s.io/apimachinery/pkg/util/strategicpatch` computes and applies
//! it, for the kinds the playground serves (DaemonSet, Pod, Node, ControllerRevision):
//!
//! - [`Schema`]: the patch metadata of their fields, from the `patchStrategy`/`patchMergeKey`
//!   tags of k8s.io/api (`core/v1/types.go`, `apps/v1/types.go`, `meta/v1/types.go`);
//! - [`create_three_way_merge_patch`]: the patch `kubectl apply` sends (`CreateThreeWayMergePatch`);
//! - [`strategic_merge_patch`]: what the API server stores when it receives a patch
//!   (`StrategicMergePatch`), for `kubectl apply` and `kubectl patch --type strategic`.
//!
//! It works on the JSON of `codec::to_json` and knows nothing of the API, the objects' Rust
//! types or the printers. Go iterates maps in random order; nothing here depends on order
//! except where upstream sorts (merge keys as `%v` strings, lists by `$setElementOrder`).

use serde_json::{Map, Value};

/// The Go struct a JSON object decodes into, as far as its lists' patch strategies go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Schema {
    DaemonSet,
    Pod,
    Node,
    ControllerRevision,
    ObjectMeta,
    DaemonSetSpec,
    DaemonSetStatus,
    PodTemplateSpec,
    PodSpec,
    PodStatus,
    /// `Container` and `EphemeralContainer` (their `EphemeralContainerCommon` has the same tags).
    Container,
    ContainerStatus,
    NodeSpec,
    NodeStatus,
    /// Any other struct or map: its lists are atomic.
    Other,
}

/// How a list field is patched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListStrategy {
    /// No `patchStrategy` tag: the list is replaced whole (tolerations, taints, args …).
    Atomic,
    /// `patchStrategy:"merge" patchMergeKey:"KEY"`: objects merged by KEY.
    MergeByKey(&'static str),
    /// `patchStrategy:"merge"` on a list of strings (finalizers, podCIDRs): a set.
    MergeScalars,
}

impl Schema {
    /// The schema of a served kind's object (`kind` as the JSON has it).
    pub(crate) fn of_kind(kind: &str) -> Schema {
        match kind {
            "DaemonSet" => Schema::DaemonSet,
            "Pod" => Schema::Pod,
            "Node" => Schema::Node,
            "ControllerRevision" => Schema::ControllerRevision,
            _ => Schema::Other,
        }
    }

    /// The schema of the value of field `key` (for a list, of its elements).
    fn field(self, key: &str) -> Schema {
        use Schema::*;
        match (self, key) {
            (DaemonSet | Pod | Node | ControllerRevision | PodTemplateSpec, "metadata") => {
                ObjectMeta
            }
            (DaemonSet, "spec") => DaemonSetSpec,
            (DaemonSet, "status") => DaemonSetStatus,
            (Pod, "spec") => PodSpec,
            (Pod, "status") => PodStatus,
            (Node, "spec") => NodeSpec,
            (Node, "status") => NodeStatus,
            (DaemonSetSpec, "template") => PodTemplateSpec,
            (PodTemplateSpec, "spec") => PodSpec,
            (PodSpec, "containers" | "initContainers" | "ephemeralContainers") => Container,
            (
                PodStatus,
                "containerStatuses" | "initContainerStatuses" | "ephemeralContainerStatuses",
            ) => ContainerStatus,
            _ => Other,
        }
    }

    /// The `patchStrategy` and `patchMergeKey` of list field `key`.
    pub(crate) fn list(self, key: &str) -> ListStrategy {
        use ListStrategy::*;
        use Schema::*;
        match (self, key) {
            (ObjectMeta, "ownerReferences") => MergeByKey("uid"),
            (ObjectMeta, "finalizers") => MergeScalars,
            (
                PodSpec,
                "volumes"
                | "initContainers"
                | "containers"
                | "ephemeralContainers"
                | "imagePullSecrets"
                | "schedulingGates"
                | "resourceClaims",
            ) => MergeByKey("name"),
            (PodSpec, "hostAliases") => MergeByKey("ip"),
            (PodSpec, "topologySpreadConstraints") => MergeByKey("topologyKey"),
            (Container, "ports") => MergeByKey("containerPort"),
            (Container, "env") => MergeByKey("name"),
            (Container | ContainerStatus, "volumeMounts") => MergeByKey("mountPath"),
            (Container, "volumeDevices") => MergeByKey("devicePath"),
            (ContainerStatus, "allocatedResourcesStatus") => MergeByKey("name"),
            (PodStatus | DaemonSetStatus | NodeStatus, "conditions") => MergeByKey("type"),
            (PodStatus, "podIPs" | "hostIPs") => MergeByKey("ip"),
            (PodStatus, "resourceClaimStatuses") => MergeByKey("name"),
            (NodeStatus, "addresses") => MergeByKey("type"),
            (NodeSpec, "podCIDRs") => MergeScalars,
            _ => Atomic,
        }
    }

    /// `patchStrategy:"merge,retainKeys"`: each element's patch names the keys it keeps.
    fn retains_keys(self, key: &str) -> bool {
        matches!(
            (self, key),
            (Schema::PodSpec, "volumes" | "resourceClaims")
                | (Schema::PodStatus, "resourceClaimStatuses")
        )
    }
}

const DIRECTIVE: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const SET_ELEMENT_ORDER: &str = "$setElementOrder/";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList/";

#[derive(Debug, Clone, Copy, Default)]
struct DiffOptions {
    ignore_deletions: bool,
    ignore_changes_and_additions: bool,
    build_retain_keys: bool,
}

#[derive(Debug, Clone, Copy, Default)]
struct MergeOptions {
    merge_parallel_list: bool,
    ignore_unmatched_nulls: bool,
}

/// `CreateThreeWayMergePatch` (with `overwrite`, as `kubectl apply` calls it): the changes from
/// `current` to `modified`, leaving out what is only in `current` (fields others set), plus the
/// deletions from `original` (the last applied configuration) to `modified`. An empty patch
/// means there is nothing to apply.
pub(crate) fn create_three_way_merge_patch(
    original: Option<&Map<String, Value>>,
    modified: &Map<String, Value>,
    current: &Map<String, Value>,
    schema: Schema,
) -> Result<Map<String, Value>, String> {
    let empty = Map::new();
    let delta = diff_maps(
        current,
        modified,
        schema,
        DiffOptions {
            ignore_deletions: true,
            ..DiffOptions::default()
        },
    )?;
    let deletions = diff_maps(
        original.unwrap_or(&empty),
        modified,
        schema,
        DiffOptions {
            ignore_changes_and_additions: true,
            ..DiffOptions::default()
        },
    )?;
    merge_map(deletions, delta, schema, MergeOptions::default())
}

/// `StrategicMergePatch` as the API server applies a patch request (parallel deletion lists
/// merged, nulls for absent fields dropped).
pub(crate) fn strategic_merge_patch(
    original: &Value,
    patch: &Value,
    schema: Schema,
) -> Result<Value, String> {
    let (Value::Object(o), Value::Object(p)) = (original, patch) else {
        return Err("strategic merge patches must be JSON objects".into());
    };
    merge_map(
        o.clone(),
        p.clone(),
        schema,
        MergeOptions {
            merge_parallel_list: true,
            ignore_unmatched_nulls: true,
        },
    )
    .map(Value::Object)
}

// ----- diff -----

fn diff_maps(
    original: &Map<String, Value>,
    modified: &Map<String, Value>,
    schema: Schema,
    opts: DiffOptions,
) -> Result<Map<String, Value>, String> {
    let mut patch = Map::new();
    let mut retain_keys = Vec::new();
    for (key, m) in modified {
        if opts.build_retain_keys && !m.is_null() {
            retain_keys.push(Value::String(key.clone()));
        }
        let Some(o) = original.get(key) else {
            if !opts.ignore_changes_and_additions {
                patch.insert(key.clone(), m.clone());
            }
            continue;
        };
        if key == DIRECTIVE {
            if o != m {
                patch.insert(key.clone(), m.clone());
            }
            continue;
        }
        match (o, m) {
            (Value::Object(o), Value::Object(m)) => {
                let sub = diff_maps(
                    o,
                    m,
                    schema.field(key),
                    DiffOptions {
                        build_retain_keys: false,
                        ..opts
                    },
                )?;
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Array(o), Value::Array(m)) => diff_slice(key, o, m, schema, opts, &mut patch)?,
            _ => {
                if !opts.ignore_changes_and_additions && o != m {
                    patch.insert(key.clone(), m.clone());
                }
            }
        }
    }
    if !opts.ignore_deletions {
        for key in original.keys() {
            if !modified.contains_key(key) {
                patch.insert(key.clone(), Value::Null);
            }
        }
    }
    let has_additional_field = original
        .iter()
        .any(|(k, v)| !v.is_null() && !modified.contains_key(k));
    if !retain_keys.is_empty() && (!patch.is_empty() || has_additional_field) {
        sort_scalars(&mut retain_keys);
        patch.insert(RETAIN_KEYS.into(), Value::Array(retain_keys));
    }
    Ok(patch)
}

fn diff_slice(
    key: &str,
    original: &[Value],
    modified: &[Value],
    schema: Schema,
    opts: DiffOptions,
    patch: &mut Map<String, Value>,
) -> Result<(), String> {
    let strategy = schema.list(key);
    if strategy == ListStrategy::Atomic {
        if !opts.ignore_changes_and_additions && original != modified {
            patch.insert(key.into(), Value::Array(modified.to_vec()));
        }
        return Ok(());
    }
    let opts = DiffOptions {
        build_retain_keys: schema.retains_keys(key),
        ..opts
    };
    let (add, delete, order) = diff_lists(original, modified, schema.field(key), strategy, opts)?;
    if !add.is_empty() {
        patch.insert(key.into(), Value::Array(add));
    }
    if !delete.is_empty() {
        patch.insert(
            format!("{DELETE_FROM_PRIMITIVE_LIST}{key}"),
            Value::Array(delete),
        );
    }
    if !order.is_empty() {
        patch.insert(format!("{SET_ELEMENT_ORDER}{key}"), Value::Array(order));
    }
    Ok(())
}

type Lists = (Vec<Value>, Vec<Value>, Vec<Value>);

/// `diffLists`: the patch list, the parallel deletion list (scalars) and the
/// `$setElementOrder` list.
fn diff_lists(
    original: &[Value],
    modified: &[Value],
    elements: Schema,
    strategy: ListStrategy,
    opts: DiffOptions,
) -> Result<Lists, String> {
    if original.is_empty() {
        if modified.is_empty() || opts.ignore_changes_and_additions {
            return Ok(Default::default());
        }
        return Ok((modified.to_vec(), vec![], vec![]));
    }
    let maps = element_kind(original, modified)?;
    match (maps, strategy) {
        (true, ListStrategy::MergeByKey(key)) => {
            let (mut patch, deletions) =
                diff_lists_of_maps(original, modified, elements, key, opts)?;
            normalize_slice_order(&mut patch, modified, Some(key));
            let order_same = original.len() == modified.len()
                && original
                    .iter()
                    .zip(modified)
                    .all(|(o, m)| o.get(key) == m.get(key));
            patch.extend(deletions);
            let wanted = (!opts.ignore_changes_and_additions && (!patch.is_empty() || !order_same))
                || (!opts.ignore_deletions && !patch.is_empty());
            let order = if wanted {
                modified
                    .iter()
                    .map(|m| {
                        let mut o = Map::new();
                        o.insert(key.into(), m.get(key).cloned().unwrap_or(Value::Null));
                        Value::Object(o)
                    })
                    .collect()
            } else {
                vec![]
            };
            Ok((patch, vec![], order))
        }
        (true, _) => Err("cannot merge lists without merge key".into()),
        (false, _) => {
            let (mut add, delete) = diff_lists_of_scalars(original, modified, opts);
            normalize_slice_order(&mut add, modified, None);
            let wanted = (!opts.ignore_deletions && !delete.is_empty())
                || (!opts.ignore_changes_and_additions && original != modified);
            let order = if wanted { modified.to_vec() } else { vec![] };
            Ok((add, delete, order))
        }
    }
}

/// `sliceElementType`: whether the lists hold objects (true) or scalars; lists of lists and
/// mixed lists are refused.
fn element_kind(a: &[Value], b: &[Value]) -> Result<bool, String> {
    let mut kind: Option<u8> = None;
    for v in a.iter().chain(b) {
        let k = match v {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => return Err("lists of lists are not supported".into()),
            Value::Object(_) => 5,
        };
        match kind {
            None => kind = Some(k),
            Some(p) if p != k => return Err("list element types are not identical".into()),
            Some(_) => {}
        }
    }
    Ok(kind == Some(5))
}

/// Go's `fmt.Sprintf("%v", v)` of a merge key or scalar, which upstream sorts and compares by.
fn go_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}

fn merge_key_of<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| {
        format!(
            "map: {} does not contain declared merge key: {key}",
            go_string(v)
        )
    })
}

fn diff_lists_of_maps(
    original: &[Value],
    modified: &[Value],
    elements: Schema,
    key: &str,
    opts: DiffOptions,
) -> Result<(Vec<Value>, Vec<Value>), String> {
    let sorted = |l: &[Value]| -> Result<Vec<(String, Value)>, String> {
        let mut s = l
            .iter()
            .map(|v| merge_key_of(v, key).map(|k| (go_string(k), v.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        sort::sort_by(&mut s, |a, b| a.0.cmp(&b.0));
        Ok(s)
    };
    let (o, m) = (sorted(original)?, sorted(modified)?);
    let (mut i, mut j) = (0, 0);
    let mut patch = Vec::new();
    let mut deletions = Vec::new();
    while i < o.len() || j < m.len() {
        let ord = match (o.get(i), m.get(j)) {
            (Some(a), Some(b)) => a.0.cmp(&b.0),
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
        };
        match ord {
            std::cmp::Ordering::Equal => {
                let (Value::Object(oe), Value::Object(me)) = (&o[i].1, &m[j].1) else {
                    return Err("list elements must be objects".into());
                };
                let mut sub = diff_maps(oe, me, elements, opts)?;
                if !sub.is_empty() {
                    sub.insert(key.into(), me.get(key).cloned().unwrap_or(Value::Null));
                    patch.push(Value::Object(sub));
                }
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Greater => {
                if !opts.ignore_changes_and_additions {
                    patch.push(m[j].1.clone());
                }
                j += 1;
            }
            std::cmp::Ordering::Less => {
                if !opts.ignore_deletions {
                    let mut d = Map::new();
                    d.insert(DIRECTIVE.into(), Value::String("delete".into()));
                    d.insert(key.into(), o[i].1.get(key).cloned().unwrap_or(Value::Null));
                    deletions.push(Value::Object(d));
                }
                i += 1;
            }
        }
    }
    Ok((patch, deletions))
}

fn diff_lists_of_scalars(
    original: &[Value],
    modified: &[Value],
    opts: DiffOptions,
) -> (Vec<Value>, Vec<Value>) {
    let mut o = original.to_vec();
    let mut m = modified.to_vec();
    sort_scalars(&mut o);
    sort_scalars(&mut m);
    let (mut i, mut j) = (0, 0);
    let mut add = Vec::new();
    let mut delete = Vec::new();
    while i < o.len() || j < m.len() {
        let ord = match (o.get(i), m.get(j)) {
            (Some(a), Some(b)) => go_string(a).cmp(&go_string(b)),
            (None, _) => std::cmp::Ordering::Greater,
            (_, None) => std::cmp::Ordering::Less,
        };
        match ord {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Greater => {
                if !opts.ignore_changes_and_additions {
                    add.push(m[j].clone());
                }
                j += 1;
            }
            std::cmp::Ordering::Less => {
                if !opts.ignore_deletions {
                    delete.push(o[i].clone());
                }
                i += 1;
            }
        }
    }
    dedup(&mut delete);
    (add, delete)
}

fn sort_scalars(l: &mut [Value]) {
    sort::sort_by_key(l, go_string);
}

fn dedup(l: &mut Vec<Value>) {
    let mut seen: Vec<Value> = Vec::with_capacity(l.len());
    l.retain(|v| {
        if seen.contains(v) {
            false
        } else {
            seen.push(v.clone());
            true
        }
    });
}

/// What `index` compares: an object's merge key, or a scalar itself.
fn identity<'a>(v: &'a Value, key: Option<&str>) -> Option<&'a Value> {
    match key {
        Some(k) => v.get(k),
        None => Some(v),
    }
}

fn position(list: &[Value], v: &Value, key: Option<&str>) -> Option<usize> {
    let id = identity(v, key)?;
    list.iter().position(|x| identity(x, key) == Some(id))
}

fn is_delete_directive(v: &Value) -> bool {
    v.get(DIRECTIVE).and_then(Value::as_str) == Some("delete")
}

/// `normalizeSliceOrder`: `items` in the order of `order`; delete directives last.
fn normalize_slice_order(items: &mut Vec<Value>, order: &[Value], key: Option<&str>) {
    let mut deletes = Vec::new();
    if key.is_some() {
        let (keep, del): (Vec<Value>, Vec<Value>) = std::mem::take(items)
            .into_iter()
            .partition(|v| !is_delete_directive(v));
        *items = keep;
        deletes = del;
    }
    sort::sort_by_key(items, |v| position(order, v, key).unwrap_or(usize::MAX));
    items.extend(deletes);
}

/// `normalizeElementOrder` + `mergeSortedSlice`: patch items in `patch_order`, server-only
/// items in `server_order`, interleaved where the live order places a server-only item
/// before a patch item.
fn normalize_element_order(
    mut patch: Vec<Value>,
    mut server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    key: Option<&str>,
) -> Vec<Value> {
    normalize_slice_order(&mut patch, patch_order, key);
    normalize_slice_order(&mut server_only, server_order, key);
    let mut out = Vec::with_capacity(patch.len() + server_only.len());
    let mut left = server_only.into_iter().peekable();
    let mut right = patch.into_iter().peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => matches!(
                (position(server_order, l, key), position(server_order, r, key)),
                (Some(li), Some(ri)) if li < ri
            ),
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    out
}

// ----- merge -----

/// `mergeMap`: `patch` into `original`. Applying a patch to an object uses
/// `merge_parallel_list` (directives executed); merging two patches (the deletions and the
/// delta of a three-way patch) keeps the directives.
fn merge_map(
    mut original: Map<String, Value>,
    mut patch: Map<String, Value>,
    schema: Schema,
    opts: MergeOptions,
) -> Result<Map<String, Value>, String> {
    if let Some(d) = patch.remove(DIRECTIVE) {
        return match d.as_str() {
            Some("replace") => Ok(patch),
            Some("delete") => Ok(Map::new()),
            _ => Err(format!(
                "Unknown patch type: {} in map: {}",
                go_string(&d),
                Value::Object(patch)
            )),
        };
    }
    apply_retain_keys(&mut original, &mut patch, opts)?;
    merge_ordered_lists(&mut original, &mut patch, schema, opts)?;
    for (k, patch_v) in patch {
        let (k, delete_list) = match k.strip_prefix(DELETE_FROM_PRIMITIVE_LIST) {
            Some(list) if opts.merge_parallel_list => (list.to_string(), true),
            Some(_) => {
                original.insert(k, patch_v);
                continue;
            }
            None => (k, false),
        };
        if patch_v.is_null() {
            original.remove(&k);
            if opts.ignore_unmatched_nulls {
                continue;
            }
        }
        let Some(cur) = original.remove(&k) else {
            if !delete_list {
                insert_new(&mut original, k, patch_v, opts);
            }
            continue;
        };
        let merged = match (cur, patch_v) {
            (Value::Object(c), Value::Object(p)) => {
                Value::Object(merge_map(c, p, schema.field(&k), opts)?)
            }
            (Value::Array(c), Value::Array(p)) => {
                let strategy = schema.list(&k);
                if strategy == ListStrategy::Atomic && !delete_list {
                    Value::Array(p)
                } else {
                    Value::Array(merge_slice(
                        c,
                        p,
                        schema.field(&k),
                        strategy,
                        opts,
                        delete_list,
                    )?)
                }
            }
            (cur, patch_v) => {
                if delete_list {
                    original.insert(k, cur);
                    continue;
                }
                insert_new(&mut original, k, patch_v, opts);
                continue;
            }
        };
        original.insert(k, merged);
    }
    Ok(original)
}

/// A patch value where the original has none (or one of another type): nulls dropped,
/// directive elements removed.
fn insert_new(original: &mut Map<String, Value>, k: String, mut v: Value, opts: MergeOptions) {
    if opts.ignore_unmatched_nulls {
        discard_nulls(&mut v);
    }
    if let Some(v) = remove_directives(v) {
        original.insert(k, v);
    }
}

fn discard_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(discard_nulls);
        }
        Value::Array(l) => l.iter_mut().for_each(discard_nulls),
        _ => {}
    }
}

/// `removeDirectives`: objects carrying `$patch` go (`None`: drop it).
fn remove_directives(v: Value) -> Option<Value> {
    match v {
        Value::Object(m) => {
            if m.contains_key(DIRECTIVE) {
                return None;
            }
            Some(Value::Object(
                m.into_iter()
                    .filter_map(|(k, v)| remove_directives(v).map(|v| (k, v)))
                    .collect(),
            ))
        }
        Value::Array(l) => Some(Value::Array(
            l.into_iter().filter_map(remove_directives).collect(),
        )),
        other => Some(other),
    }
}

/// `applyRetainKeysDirective`.
fn apply_retain_keys(
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
    opts: MergeOptions,
) -> Result<(), String> {
    let Some(retain) = patch.remove(RETAIN_KEYS) else {
        return Ok(());
    };
    if !opts.merge_parallel_list {
        match original.get(RETAIN_KEYS) {
            Some(o) if *o != retain => {
                return Err(format!(
                    "{o} and {retain} are not deep equal: this may happen when calculating the 3-way diff patch"
                ))
            }
            Some(_) => {}
            None => {
                original.insert(RETAIN_KEYS.into(), retain);
            }
        }
        return Ok(());
    }
    let bad = || {
        "invalid patch: the $retainKeys directive must be a list of the fields the patch sets"
            .to_string()
    };
    let Value::Array(keys) = retain else {
        return Err(bad());
    };
    let kept = |k: &str| keys.iter().any(|x| x.as_str() == Some(k));
    for (k, v) in patch.iter() {
        if v.is_null()
            || k.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            || k.starts_with(SET_ELEMENT_ORDER)
        {
            continue;
        }
        if !kept(k) {
            return Err(bad());
        }
    }
    original.retain(|k, _| kept(k));
    Ok(())
}

/// `mergePatchIntoOriginal`: each `$setElementOrder/LIST` with its list, merged and put in
/// the order the directive gives (patch items), the live order placing the rest.
fn merge_ordered_lists(
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
    schema: Schema,
    opts: MergeOptions,
) -> Result<(), String> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER))
        .cloned()
        .collect();
    for directive in keys {
        let Some(order) = patch.remove(&directive) else {
            continue;
        };
        if !opts.merge_parallel_list {
            match original.get(&directive) {
                Some(o) if *o != order => {
                    return Err(
                        "invalid patch: the $setElementOrder lists of the two patches differ"
                            .into(),
                    )
                }
                Some(_) => {}
                None => {
                    original.insert(directive.clone(), order.clone());
                }
            }
        }
        let Value::Array(order) = order else {
            return Err(format!("invalid patch: {directive} must be a list"));
        };
        let list_key = &directive[SET_ELEMENT_ORDER.len()..];
        let strategy = schema.list(list_key);
        let key = match strategy {
            ListStrategy::MergeByKey(k) => Some(k),
            _ => None,
        };
        let live = match original.get(list_key) {
            Some(Value::Array(l)) => Some(l.clone()),
            Some(_) => return Err(format!("invalid patch: {list_key} is not a list")),
            None => None,
        };
        let patch_list = match patch.remove(list_key) {
            Some(Value::Array(l)) => Some(l),
            Some(_) => return Err(format!("invalid patch: {list_key} is not a list")),
            None => None,
        };
        let merged = match (live.clone(), patch_list) {
            (Some(l), None) => l,
            (None, Some(p)) => match remove_directives(Value::Array(p)) {
                Some(Value::Array(p)) => p,
                _ => continue,
            },
            (Some(l), Some(p)) => {
                if strategy == ListStrategy::Atomic {
                    p
                } else {
                    merge_slice(l, p, schema.field(list_key), strategy, opts, false)?
                }
            }
            (None, None) => continue,
        };
        let (in_order, server_only): (Vec<Value>, Vec<Value>) = merged
            .into_iter()
            .partition(|v| position(&order, v, key).is_some());
        let live = live.unwrap_or_default();
        original.insert(
            list_key.to_string(),
            Value::Array(normalize_element_order(
                in_order,
                server_only,
                &order,
                &live,
                key,
            )),
        );
    }
    Ok(())
}

/// `mergeSlice`: objects merged by their merge key (`$patch: delete|replace` elements
/// executed), scalars as a set; the patch's items in its order, the rest in the live order.
fn merge_slice(
    original: Vec<Value>,
    patch: Vec<Value>,
    elements: Schema,
    strategy: ListStrategy,
    opts: MergeOptions,
    delete_list: bool,
) -> Result<Vec<Value>, String> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let maps = element_kind(&original, &patch)?;
    if !maps {
        if opts.merge_parallel_list && delete_list {
            return Ok(original
                .into_iter()
                .filter(|v| !patch.contains(v))
                .collect());
        }
        let mut merged = original.clone();
        merged.extend(patch.iter().cloned());
        dedup(&mut merged);
        let (in_patch, server_only) = merged.into_iter().partition(|v| patch.contains(v));
        return Ok(normalize_element_order(
            in_patch,
            server_only,
            &patch,
            &original,
            None,
        ));
    }
    let ListStrategy::MergeByKey(key) = strategy else {
        return Err("cannot merge lists without merge key".into());
    };
    // `mergeSliceWithSpecialElements`
    let mut original = original;
    let mut plain = Vec::new();
    let mut replace = false;
    for v in patch {
        match v.get(DIRECTIVE).map(|d| d.as_str()) {
            None => plain.push(v),
            Some(Some("delete")) => {
                let id = merge_key_of(&v, key)?.clone();
                original.retain(|o| o.get(key) != Some(&id));
            }
            Some(Some("replace")) => replace = true,
            Some(Some("merge")) => {
                return Err("merging lists cannot yet be specified in the patch".into())
            }
            Some(d) => {
                return Err(format!(
                    "Unknown patch type: {} in map: {v}",
                    d.unwrap_or_default()
                ))
            }
        }
    }
    let (original, patch) = if replace {
        (plain, Vec::new())
    } else {
        (original, plain)
    };
    // `mergeSliceWithoutSpecialElements`
    let mut merged = original.clone();
    for v in &patch {
        let id = merge_key_of(v, key)?;
        match merged.iter().position(|o| o.get(key) == Some(id)) {
            Some(i) => {
                let (Value::Object(o), Value::Object(p)) = (merged[i].clone(), v.clone()) else {
                    return Err("list elements must be objects".into());
                };
                merged[i] = Value::Object(merge_map(o, p, elements, opts)?);
            }
            None => merged.push(v.clone()),
        }
    }
    let (in_patch, server_only) = merged
        .into_iter()
        .partition(|v| position(&patch, v, Some(key)).is_some());
    Ok(normalize_element_order(
        in_patch,
        server_only,
        &patch,
        &original,
        Some(key),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => panic!("an object"),
        }
    }

    fn three_way(original: Value, modified: Value, current: Value) -> Value {
        let original = obj(original);
        Value::Object(
            create_three_way_merge_patch(
                Some(&original),
                &obj(modified),
                &obj(current),
                Schema::Pod,
            )
            .expect("patch"),
        )
    }

    fn apply(current: &Value, patch: &Value) -> Value {
        strategic_merge_patch(current, patch, Schema::Pod).expect("applies")
    }

    /// `StrategicMergePatch`: containers merge by name (`patchMergeKey:"name"`).
    #[test]
    fn strategic_merge_patch_merges_containers_by_name() {
        let doc = json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}});
        let out = apply(
            &doc,
            &json!({"spec": {"containers": [{"name": "b", "image": "z"}]}}),
        );
        assert_eq!(
            out,
            json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "z"}]}})
        );
    }

    /// `CreateThreeWayMergePatch`: nothing changed since the last apply, whatever others
    /// set beside it (fields, map entries, a list the manifest does not have), is the empty
    /// patch.
    #[test]
    fn create_three_way_merge_patch_is_empty_when_the_manifest_is_unchanged() {
        let m = json!({"metadata": {"labels": {"app": "x"}},
            "spec": {"containers": [{"name": "a", "image": "x", "env": [{"name": "A", "value": "1"}]}]}});
        let current = json!({"metadata": {"labels": {"app": "x", "team": "y"}},
            "spec": {"nodeName": "n1", "containers": [{"name": "a", "image": "x", "imagePullPolicy": "Always",
            "env": [{"name": "A", "value": "1"}], "volumeMounts": [{"name": "v", "mountPath": "/v"}]}]}});
        assert_eq!(three_way(m.clone(), m, current), json!({}));
    }

    /// `CreateThreeWayMergePatch` (`diffLists`): when others appended to a list the manifest
    /// merges (an env var `kubectl set env` added), the live list's order differs from the
    /// manifest's, so the patch carries `$setElementOrder` alone: kubectl says `configured`,
    /// and the server keeps the appended element where it is.
    #[test]
    fn create_three_way_merge_patch_sets_element_order_when_others_appended_to_a_list() {
        let m =
            json!({"spec": {"containers": [{"name": "a", "env": [{"name": "A", "value": "1"}]}]}});
        let current = json!({"spec": {"containers": [{"name": "a",
            "env": [{"name": "A", "value": "1"}, {"name": "FOO", "value": "2"}]}]}});
        let patch = three_way(m.clone(), m, current.clone());
        assert_eq!(
            patch,
            json!({"spec": {"$setElementOrder/containers": [{"name": "a"}],
                "containers": [{"name": "a", "$setElementOrder/env": [{"name": "A"}]}]}})
        );
        assert_eq!(apply(&current, &patch), current);
    }

    /// `CreateThreeWayMergePatch`: a field and a list element gone from the manifest are
    /// deleted (null, `$patch: delete`), with `$setElementOrder` as upstream writes it; what
    /// others set stays.
    #[test]
    fn create_three_way_merge_patch_deletes_what_the_manifest_dropped() {
        let original = json!({"spec": {"hostNetwork": true, "containers": [
            {"name": "a", "image": "x", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}]}});
        let modified = json!({"spec": {"containers": [
            {"name": "a", "image": "x", "env": [{"name": "B", "value": "2"}]}]}});
        let current = json!({"spec": {"hostNetwork": true, "containers": [
            {"name": "a", "image": "x", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}, {"name": "C", "value": "3"}]}]}});
        let patch = three_way(original, modified, current.clone());
        assert_eq!(
            patch,
            json!({"spec": {
                "hostNetwork": null,
                "$setElementOrder/containers": [{"name": "a"}],
                "containers": [{"name": "a",
                    "$setElementOrder/env": [{"name": "B"}],
                    "env": [{"$patch": "delete", "name": "A"}]}]}})
        );
        assert_eq!(
            apply(&current, &patch),
            json!({"spec": {"containers": [{"name": "a", "image": "x",
                "env": [{"name": "B", "value": "2"}, {"name": "C", "value": "3"}]}]}})
        );
    }

    /// `CreateThreeWayMergePatch` then `StrategicMergePatch`: ports merge by containerPort,
    /// tolerations (no patch strategy) are replaced whole; the new container goes where the
    /// manifest puts it.
    #[test]
    fn three_way_patch_merges_ports_by_container_port_and_replaces_tolerations() {
        let original = json!({"spec": {
            "tolerations": [{"key": "a", "operator": "Exists"}],
            "containers": [{"name": "b", "ports": [{"containerPort": 80}, {"containerPort": 81}]}]}});
        let modified = json!({"spec": {
            "tolerations": [{"key": "c", "operator": "Exists"}],
            "containers": [{"name": "a"}, {"name": "b", "ports": [{"containerPort": 81, "name": "m"}]}]}});
        let current = json!({"spec": {
            "tolerations": [{"key": "a", "operator": "Exists"}, {"key": "x", "operator": "Exists"}],
            "containers": [{"name": "b", "ports": [
                {"containerPort": 80, "protocol": "TCP"}, {"containerPort": 81, "protocol": "TCP"}]}]}});
        let patch = three_way(original, modified, current.clone());
        assert_eq!(
            apply(&current, &patch),
            json!({"spec": {
                "tolerations": [{"key": "c", "operator": "Exists"}],
                "containers": [{"name": "a"}, {"name": "b", "ports": [
                    {"containerPort": 81, "protocol": "TCP", "name": "m"}]}]}})
        );
    }

    /// `mergeSlice` keeps server-only elements where the live list has them.
    #[test]
    fn strategic_merge_patch_keeps_server_only_elements_in_live_order() {
        let current = json!({"spec": {"volumes": [{"name": "a"}, {"name": "s"}, {"name": "b"}]}});
        let patch = json!({"spec": {
            "$setElementOrder/volumes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
            "volumes": [{"name": "c", "emptyDir": {}}]}});
        assert_eq!(
            apply(&current, &patch),
            json!({"spec": {"volumes": [{"name": "a"}, {"name": "s"}, {"name": "b"}, {"name": "c", "emptyDir": {}}]}})
        );
    }

    /// `CreateThreeWayMergePatch` on a list of scalars with `patchStrategy:"merge"`
    /// (finalizers): a parallel `$deleteFromPrimitiveList`, others' entries kept.
    #[test]
    fn three_way_patch_merges_finalizers_as_a_set() {
        let original = json!({"metadata": {"finalizers": ["a", "b"]}});
        let modified = json!({"metadata": {"finalizers": ["b", "c"]}});
        let current = json!({"metadata": {"finalizers": ["a", "b", "x"]}});
        let patch = three_way(original, modified, current.clone());
        assert_eq!(
            patch,
            json!({"metadata": {
                "$deleteFromPrimitiveList/finalizers": ["a"],
                "$setElementOrder/finalizers": ["b", "c"],
                "finalizers": ["c"]}})
        );
        assert_eq!(
            apply(&current, &patch),
            json!({"metadata": {"finalizers": ["b", "c", "x"]}})
        );
    }

    /// `$patch: delete` on a map, `$retainKeys` on a volume (`merge,retainKeys`).
    #[test]
    fn strategic_merge_patch_directives() {
        let current = json!({"spec": {"affinity": {"nodeAffinity": {}},
            "volumes": [{"name": "v", "hostPath": {"path": "/x"}, "emptyDir": {}}]}});
        let patch = json!({"spec": {"affinity": {"$patch": "delete"},
            "volumes": [{"name": "v", "$retainKeys": ["emptyDir", "name"], "emptyDir": {"medium": "Memory"}}]}});
        assert_eq!(
            apply(&current, &patch),
            json!({"spec": {"affinity": {},
                "volumes": [{"name": "v", "emptyDir": {"medium": "Memory"}}]}})
        );
    }
}
