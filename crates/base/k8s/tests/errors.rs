//! `ApiError` as kubectl prints it, as the controller quotes it, and kubectl's context and
//! hints; `ApplyOutcome`'s words; `Taint.ToString()`.

use k8s_base::{ApiError, ApplyOutcome};

#[test]
fn kubectl_prints_the_reason_the_controller_quotes_the_message() {
    let nf = ApiError::not_found("daemonsets.apps", "x");
    assert_eq!(
        nf.to_string(),
        "Error from server (NotFound): daemonsets.apps \"x\" not found"
    );
    assert_eq!(nf.message(), "daemonsets.apps \"x\" not found");
    assert!(nf.is_not_found());
    let ae = ApiError::already_exists("pods", "p");
    assert_eq!(
        ae.to_string(),
        "Error from server (AlreadyExists): pods \"p\" already exists"
    );
    assert_eq!(ae.message(), "pods \"p\" already exists");
    let fb = ApiError::Forbidden("pods \"a-\" is forbidden: no".into());
    assert_eq!(
        fb.to_string(),
        "Error from server (Forbidden): pods \"a-\" is forbidden: no"
    );
    assert_eq!(fb.message(), "pods \"a-\" is forbidden: no");
    let ns = ApiError::NamespaceTerminating("ns".into());
    assert_eq!(
        ns.message(),
        "unable to create new content in namespace ns because it is being terminated"
    );
    assert_eq!(ns.to_string(), ns.message());
}

#[test]
fn conflicts_and_bad_requests_reach_the_controller_as_printed() {
    let c = ApiError::conflict("daemonsets.apps", "x");
    let text = "Error from server (Conflict): Operation cannot be fulfilled on daemonsets.apps \"x\": the object has been modified; please apply your changes to the latest version and try again";
    assert_eq!(c.to_string(), text);
    assert_eq!(c.message(), text);
    let b = ApiError::BadRequest("resource name may not be empty".into());
    assert_eq!(b.to_string(), "error: resource name may not be empty");
    assert_eq!(b.message(), b.to_string());
}

#[test]
fn context_goes_after_the_reason() {
    let nf = ApiError::not_found("nodes", "n");
    assert_eq!(
        nf.in_context("error when creating \"n.yaml\""),
        "Error from server (NotFound): error when creating \"n.yaml\": nodes \"n\" not found"
    );
    let inv = ApiError::Invalid {
        message: "The DaemonSet \"x\" is invalid: spec: Required value".into(),
        hint: Some("add a spec".into()),
    };
    assert_eq!(inv.in_context("ctx"), inv.to_string());
    assert_eq!(inv.hint().as_deref(), Some("add a spec"));
    let other = ApiError::Other("boom".into());
    assert_eq!(other.in_context("ctx"), "boom");
    assert_eq!(other.hint(), None);
}

#[test]
fn hints_name_the_command_that_lists_what_exists() {
    assert_eq!(
        ApiError::not_found("nodes", "n").hint().as_deref(),
        Some("list what exists with `kubectl get nodes`")
    );
    assert_eq!(
        ApiError::not_found("daemonsets.apps", "x")
            .hint()
            .as_deref(),
        Some("list what exists with `kubectl get daemonsets` (add -A for all namespaces)")
    );
    assert_eq!(
        ApiError::already_exists("pods", "p").hint().as_deref(),
        Some("use `kubectl apply -f` to update an object that already exists")
    );
}

#[test]
fn apply_outcomes_in_kubectls_words() {
    assert_eq!(ApplyOutcome::Created.to_string(), "created");
    assert_eq!(ApplyOutcome::Configured.as_str(), "configured");
    assert_eq!(ApplyOutcome::Unchanged.as_str(), "unchanged");
}

#[test]
fn taints_print_as_taint_to_string() {
    use k8s_openapi::api::core::v1::Taint;
    let t = |v: Option<&str>| Taint {
        key: "k".into(),
        value: v.map(str::to_string),
        effect: "NoSchedule".into(),
        ..Default::default()
    };
    assert_eq!(
        k8s_base::objects::taint_string(&t(Some("v"))),
        "k=v:NoSchedule"
    );
    assert_eq!(
        k8s_base::objects::taint_string(&t(Some(""))),
        "k:NoSchedule"
    );
    assert_eq!(k8s_base::objects::taint_string(&t(None)), "k:NoSchedule");
}
