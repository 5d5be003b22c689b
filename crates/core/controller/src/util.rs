//! Pure helpers from `pkg/controller/daemon/util/daemonset_util.go`.
//!
//! R-TOL-1 (default tolerations), R-POD-1 (pod template, injected affinity), R-MAP-1 (target
//! node), R-RU-2..4 (surge/unavailable counts, updated pods), R-K-2 (template generation).

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PodSpec,
    PodTemplateSpec, Toleration,
};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use crate::keys::{
    taints, CONTROLLER_REVISION_HASH_LABEL, OBJECT_NAME_FIELD, POD_TEMPLATE_GENERATION_LABEL,
    TEMPLATE_GENERATION_ANNOTATION,
};

fn exists_toleration(key: &str, effect: &str) -> Toleration {
    Toleration {
        key: Some(key.to_string()),
        operator: Some("Exists".to_string()),
        effect: Some(effect.to_string()),
        ..Default::default()
    }
}

/// R-TOL-1: the tolerations every DaemonSet pod receives, in order.
pub fn default_daemon_tolerations(host_network: bool) -> Vec<Toleration> {
    let mut t = vec![
        exists_toleration(taints::NOT_READY, "NoExecute"),
        exists_toleration(taints::UNREACHABLE, "NoExecute"),
        exists_toleration(taints::DISK_PRESSURE, "NoSchedule"),
        exists_toleration(taints::MEMORY_PRESSURE, "NoSchedule"),
        exists_toleration(taints::PID_PRESSURE, "NoSchedule"),
        exists_toleration(taints::UNSCHEDULABLE, "NoSchedule"),
    ];
    if host_network {
        t.push(exists_toleration(taints::NETWORK_UNAVAILABLE, "NoSchedule"));
    }
    t
}

/// `Toleration.MatchToleration`: same key, effect, operator and value (literal comparison).
fn same_toleration_identity(a: &Toleration, b: &Toleration) -> bool {
    a.key == b.key && a.effect == b.effect && a.operator == b.operator && a.value == b.value
}

/// `AddOrUpdateTolerationInPodSpec`: replaces a toleration with the same identity, or appends.
pub fn add_or_update_toleration(spec: &mut PodSpec, toleration: Toleration) {
    let tolerations = spec.tolerations.get_or_insert_with(Vec::new);
    match tolerations
        .iter_mut()
        .find(|t| same_toleration_identity(&toleration, t))
    {
        Some(existing) => *existing = toleration,
        None => tolerations.push(toleration),
    }
}

/// R-TOL-1 `AddOrUpdateDaemonPodTolerations`.
pub fn add_or_update_daemon_pod_tolerations(spec: &mut PodSpec) {
    for t in default_daemon_tolerations(spec.host_network == Some(true)) {
        add_or_update_toleration(spec, t);
    }
}

/// R-K-2 `GetTemplateGeneration`: the annotation parsed as int64; `Ok(None)` when absent.
pub fn get_template_generation(ds: &DaemonSet) -> Result<Option<i64>, String> {
    match ds
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(TEMPLATE_GENERATION_ANNOTATION))
    {
        None => Ok(None),
        Some(v) => v
            .parse::<i64>()
            .map(Some)
            .map_err(|e| format!("invalid template generation {v:?}: {e}")),
    }
}

/// R-POD-1 `CreatePodTemplate`: the template with default tolerations, the template-generation
/// label (when known) and the revision-hash label (when non-empty).
pub fn create_pod_template(
    template: &PodTemplateSpec,
    generation: Option<i64>,
    hash: &str,
) -> PodTemplateSpec {
    let mut t = template.clone();
    let spec = t.spec.get_or_insert_with(Default::default);
    add_or_update_daemon_pod_tolerations(spec);
    let meta = t.metadata.get_or_insert_with(Default::default);
    let labels = meta.labels.get_or_insert_with(Default::default);
    if let Some(g) = generation {
        labels.insert(POD_TEMPLATE_GENERATION_LABEL.to_string(), g.to_string());
    }
    if !hash.is_empty() {
        labels.insert(CONTROLLER_REVISION_HASH_LABEL.to_string(), hash.to_string());
    }
    t
}

/// The single required term that pins a pod to `node_name` (R-POD-1).
pub fn node_name_term(node_name: &str) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_fields: Some(vec![NodeSelectorRequirement {
            key: OBJECT_NAME_FIELD.to_string(),
            operator: "In".to_string(),
            values: Some(vec![node_name.to_string()]),
        }]),
        match_expressions: None,
    }
}

/// R-POD-1 `ReplaceDaemonSetPodNodeNameNodeAffinity`: required terms become exactly one
/// `matchFields metadata.name In [node]`; preferred terms and other affinity kinds are kept.
pub fn replace_daemon_set_pod_node_name_node_affinity(
    affinity: Option<Affinity>,
    node_name: &str,
) -> Affinity {
    let mut affinity = affinity.unwrap_or_default();
    let node_affinity = affinity
        .node_affinity
        .get_or_insert_with(NodeAffinity::default);
    node_affinity.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: vec![node_name_term(node_name)],
    });
    affinity
}

/// R-MAP-1 `GetTargetNodeName`: `spec.nodeName`, else the single value of a
/// `metadata.name In [x]` matchFields requirement in any required term.
pub fn get_target_node_name(pod: &Pod) -> Result<&str, String> {
    let who = || {
        format!(
            "{}/{}",
            pod.metadata.namespace.as_deref().unwrap_or(""),
            pod.metadata.name.as_deref().unwrap_or("")
        )
    };
    let spec = pod.spec.as_ref();
    if let Some(n) = spec.and_then(|s| s.node_name.as_deref()) {
        if !n.is_empty() {
            return Ok(n);
        }
    }
    let Some(required) = spec
        .and_then(|s| s.affinity.as_ref())
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| {
            na.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
    else {
        return Err(format!(
            "no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod {}",
            who()
        ));
    };
    if required.node_selector_terms.is_empty() {
        return Err(format!(
            "no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod {}",
            who()
        ));
    }
    for term in &required.node_selector_terms {
        for req in term.match_fields.iter().flatten() {
            if req.key == OBJECT_NAME_FIELD && req.operator == "In" {
                return match req.values.as_deref() {
                    Some([v]) => Ok(v.as_str()),
                    _ => Err(format!(
                        "the matchFields value of '{OBJECT_NAME_FIELD}' is not unique for pod {}",
                        who()
                    )),
                };
            }
        }
    }
    Err(format!("no node name found for pod {}", who()))
}

/// R-RU-4 `IsPodUpdated`: the hash label equals the current hash (non-empty), or the
/// template-generation label equals the DS's template generation.
pub fn is_pod_updated(pod: &Pod, hash: &str, template_generation: Option<i64>) -> bool {
    let labels = pod.metadata.labels.as_ref();
    let hash_matches = !hash.is_empty()
        && labels
            .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
            .is_some_and(|h| h == hash);
    hash_matches
        || template_generation.is_some_and(|g| {
            labels
                .and_then(|l| l.get(POD_TEMPLATE_GENERATION_LABEL))
                .is_some_and(|v| is_decimal_of(v, g))
        })
}

/// `s == g.to_string()`, without allocating (this runs per pod, several times per sync): the
/// digits are compared from the last, with no formatting (and so no `io::Error` text in the page).
fn is_decimal_of(s: &str, g: i64) -> bool {
    let digits = match (g < 0, s.strip_prefix('-')) {
        (true, Some(d)) => d,
        (true, None) => return false,
        (false, _) => s,
    };
    let mut rest = g.unsigned_abs();
    let mut bytes = digits.bytes().rev();
    loop {
        match bytes.next() {
            Some(b) if u64::from(b) == u64::from(b'0') + rest % 10 => rest /= 10,
            _ => return false,
        }
        if rest == 0 {
            return bytes.next().is_none();
        }
    }
}

/// `intstr.GetScaledValueFromIntOrPercent` with round-up (R-RU-2).
pub fn scaled_value_from_int_or_percent(
    value: Option<&IntOrString>,
    total: i32,
    round_up: bool,
) -> Result<i32, String> {
    match value {
        None => Err("nil value for IntOrString".to_string()),
        Some(IntOrString::Int(i)) => Ok(*i),
        Some(IntOrString::String(s)) => {
            let Some(digits) = s.strip_suffix('%') else {
                return Err(format!("invalid type: string is not a percentage: {s:?}"));
            };
            let p: i64 = digits
                .parse()
                .map_err(|_| format!("invalid value for IntOrString: invalid value {s:?}"))?;
            let scaled = p as f64 * total as f64 / 100.0;
            let v = if round_up {
                scaled.ceil()
            } else {
                scaled.floor()
            };
            Ok(v as i32)
        }
    }
}

fn rolling_update(ds: &DaemonSet) -> Option<&k8s_openapi::api::apps::v1::RollingUpdateDaemonSet> {
    let strategy = ds.spec.update_strategy.as_ref()?;
    if strategy.type_.as_deref() != Some("RollingUpdate") {
        return None;
    }
    strategy.rolling_update.as_ref()
}

/// Whether the DS uses the RollingUpdate strategy.
pub fn is_rolling_update(ds: &DaemonSet) -> bool {
    ds.spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        == Some("RollingUpdate")
}

/// R-RU-2 `SurgeCount`: maxSurge resolved against `number_to_schedule`; 0 when not rolling or
/// absent.
pub fn surge_count(ds: &DaemonSet, number_to_schedule: i32) -> Result<i32, String> {
    match rolling_update(ds) {
        None => Ok(0),
        Some(r) => match r.max_surge.as_ref() {
            None => Ok(0),
            Some(v) => scaled_value_from_int_or_percent(Some(v), number_to_schedule, true),
        },
    }
}

/// R-RU-2 `UnavailableCount`: maxUnavailable resolved against `number_to_schedule`.
pub fn unavailable_count(ds: &DaemonSet, number_to_schedule: i32) -> Result<i32, String> {
    match rolling_update(ds) {
        None => Ok(0),
        Some(r) => {
            scaled_value_from_int_or_percent(r.max_unavailable.as_ref(), number_to_schedule, true)
        }
    }
}

/// R-RU-2 `AllowsSurge`: maxSurge resolved against 1 is non-zero.
pub fn allows_surge(ds: &DaemonSet) -> bool {
    matches!(surge_count(ds, 1), Ok(n) if n != 0)
}

#[cfg(test)]
mod tests {
    use super::is_decimal_of;

    #[test]
    fn is_decimal_of_matches_to_string() {
        for g in [0, 1, -1, 7, 10, 42, -300, i64::MAX, i64::MIN] {
            assert!(is_decimal_of(&g.to_string(), g), "{g}");
        }
        // Every pair from a small range: true exactly when the text is the number's.
        for g in -120..=120i64 {
            for n in -120..=120i64 {
                assert_eq!(is_decimal_of(&n.to_string(), g), n == g, "{n} vs {g}");
            }
        }
        for (s, g) in [
            ("01", 1),
            ("+1", 1),
            ("-0", 0),
            ("", 0),
            ("1 ", 1),
            ("12", 1),
            ("-5", 5),
            ("5", -5),
            ("--5", -5),
            ("-", 0),
            ("1-", 1),
            ("100", 10),
            ("010", 10),
        ] {
            assert!(!is_decimal_of(s, g), "{s:?} vs {g}");
        }
    }
}
