//! Command-line recognition: quoting, kubectl's flag syntax and its error messages.

use kubectl::{parse, shell_quote, split_words, Verb};

#[test]
fn words_split_like_a_shell() {
    assert_eq!(
        split_words(r#"get ds -o jsonpath='{.items[*].metadata.name}' "a b" c\ d"#).unwrap(),
        vec![
            "get",
            "ds",
            "-o",
            "jsonpath={.items[*].metadata.name}",
            "a b",
            "c d"
        ]
    );
    assert_eq!(
        split_words(r#"-o=jsonpath="{range .items[*]}{.metadata.name}{\"\n\"}{end}""#).unwrap(),
        vec![r#"-o=jsonpath={range .items[*]}{.metadata.name}{"\n"}{end}"#]
    );
    assert!(split_words("get 'unterminated").is_err());
    assert!(split_words("get \"unterminated").is_err());
}

#[test]
fn flags_in_every_spelling() {
    for line in [
        "kubectl get pods -n kube-system -o wide",
        "kubectl get pods --namespace=kube-system -owide",
        "kubectl -n kube-system get pods --output wide",
        "get pods -nkube-system -o=wide",
    ] {
        let c = parse(line).unwrap();
        assert_eq!(c.verb, Verb::Get, "{line}");
        assert_eq!(c.namespace(), "kube-system", "{line}");
        assert_eq!(c.flag("output"), Some("wide"), "{line}");
        assert_eq!(c.args, vec!["pods"], "{line}");
    }
    let c = parse("kubectl get pods -A -l app=x,tier!=db --field-selector spec.nodeName=worker")
        .unwrap();
    assert!(c.is_set("all-namespaces"));
    assert_eq!(c.flag("selector"), Some("app=x,tier!=db"));
    assert_eq!(c.flag("field-selector"), Some("spec.nodeName=worker"));
    let c = parse("kubectl get ds -ojsonpath='{.items[0].status.numberReady}'").unwrap();
    assert_eq!(
        c.flag("output"),
        Some("jsonpath={.items[0].status.numberReady}")
    );
    let c = parse("kubectl delete ds x --cascade").unwrap();
    assert_eq!(c.flag("cascade"), Some("background"));
    let c = parse("kubectl delete ds x --cascade=orphan").unwrap();
    assert_eq!(c.flag("cascade"), Some("orphan"));
    let c = parse("kubectl rollout undo ds/x --to-revision=1").unwrap();
    assert_eq!(c.verb, Verb::RolloutUndo);
    assert_eq!(c.flag("to-revision"), Some("1"));
    let c = parse("kubectl set env ds/x -c app FOO=2").unwrap();
    assert_eq!((c.verb, c.flag("container")), (Verb::SetEnv, Some("app")));
    assert_eq!(c.args, vec!["ds/x", "FOO=2"]);
}

#[test]
fn errors_are_worded_like_kubectl() {
    let e = parse("kubectl foo").unwrap_err();
    assert!(e
        .message
        .starts_with("error: unknown command \"foo\" for \"kubectl\""));
    assert!(e.hint.is_some());
    let e = parse("kubectl gte pods").unwrap_err();
    assert!(
        e.message.contains("Did you mean this?\n\tget"),
        "{}",
        e.message
    );
    let e = parse("kubectl get pods --bogus").unwrap_err();
    assert_eq!(
        e.message,
        "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage."
    );
    let e = parse("kubectl get pods -z").unwrap_err();
    assert_eq!(
        e.message,
        "error: unknown shorthand flag: 'z' in -z\nSee 'kubectl get --help' for usage."
    );
    let e = parse("kubectl get pods -n").unwrap_err();
    assert!(e
        .message
        .starts_with("error: flag needs an argument: 'n' in -n"));
    let e = parse("kubectl logs x").unwrap_err();
    assert!(e.message.contains("not available in this playground"));
    let e = parse("kubectl rollout bogus ds/x").unwrap_err();
    assert!(e
        .message
        .starts_with("error: unknown command \"bogus\" for \"kubectl rollout\""));
}

#[test]
fn a_shell_quoted_word_splits_back_to_itself() {
    for w in [
        "worker2",
        "disk=ssd",
        "k=v:NoSchedule",
        "",
        "a b",
        "it's",
        "'",
        "<script>alert(1)</script>",
        "x='y'",
        "\\n",
        "tab\there",
        "new\nline",
        "evil\u{202e}gnp",
        "$(rm -rf /) `id` \"q\"",
    ] {
        let line = format!("label {} end", shell_quote(w));
        assert_eq!(split_words(&line).unwrap(), ["label", w, "end"], "{line}");
    }
    assert_eq!(shell_quote("disk=ssd"), "disk=ssd");
    assert_eq!(shell_quote("it's"), "'it'\\''s'");
}
