//! A catalogue of malformed scenario files and script lines: each gets its exact message —
//! file:line:column and a hint where the file is wrong — and nothing panics.

/// Parses (and, if that succeeds, starts) a scenario file; returns the error as displayed.
fn file_error(text: &str) -> String {
    match scenario::parse("s.yaml", text) {
        Ok(s) => match scenario::start(&s) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    }
}

const DS: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n      containers:\n      - {name: app, image: busybox}\n";

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// Runs one script line in a one-node cluster whose files hold a valid DS (`ds.yaml`) and
/// three broken ones; returns (ok, output).
fn line(l: &str) -> (bool, String) {
    let (ok, out) = line_raw(l);
    (ok, out.trim_end().to_string())
}

/// The line's output as the terminal shows it, its last newline included.
fn line_raw(l: &str) -> (bool, String) {
    let text = format!(
        "scenario: x\nnodes:\n  - name: worker\nfiles:\n  ds.yaml: |\n{}  mismatch.yaml: |\n{}  surge.yaml: |\n{}  yes.yaml: |\n{}",
        indent(DS),
        indent(&DS.replace("labels: {app: x}", "labels: {app: other}")),
        indent(&DS.replace(
            "  template:",
            "  updateStrategy:\n    rollingUpdate: {maxSurge: 1}\n  template:"
        )),
        indent(&DS.replace(
            "      containers:",
            "      nodeSelector:\n        k42: yes\n      containers:"
        )),
    );
    let s = scenario::parse("s.yaml", &text).expect("the harness scenario parses");
    let mut session = scenario::start(&s).expect("starts");
    let r = scenario::run_line(&mut session, l);
    (r.ok, r.output)
}

#[test]
fn malformed_files_get_a_location_and_a_hint() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "bad YAML syntax",
            "scenario: x\nnodes: [a, b\n",
            "s.yaml:3:1: error: error parsing s.yaml: error converting YAML to JSON: yaml: line 3: while parsing a flow sequence, expected ',' or ']'\n  hint: a [list] or {mapping} written inline is not closed, or is missing a comma",
        ),
        (
            "tab indentation",
            "scenario: x\nnodes:\n\t- name: a\n",
            "s.yaml:3:1: error: error parsing s.yaml: error converting YAML to JSON: yaml: line 3: found character that cannot start any token\n  hint: indent with spaces: YAML does not allow tab characters in indentation",
        ),
        (
            "unknown top-level key",
            "scenario: x\nnode:\n  - name: a\n",
            "s.yaml:2:1: unknown key \"node\"\n  hint: did you mean \"nodes\"? Known keys: scenario, title, description, seed, timing, images, nodes, files, script, lesson",
        ),
        (
            "missing scenario:",
            "title: x\n",
            "s.yaml:1:1: missing `scenario:` (the scenario's id)\n  hint: add a first line like `scenario: my-rollout`",
        ),
        (
            "negative seed",
            "scenario: x\nseed: -1\n",
            "s.yaml:2:7: seed must be a whole number ≥ 0, found -1\n  hint: e.g. `seed: 7`",
        ),
        (
            "seed as a string",
            "scenario: x\nseed: seven\n",
            "s.yaml:2:7: seed must be a whole number ≥ 0, found the string \"seven\"\n  hint: e.g. `seed: 7`",
        ),
        (
            "nodes not a list",
            "scenario: x\nnodes: worker\n",
            "s.yaml:2:8: nodes must be a list, found a string\n  hint: e.g. `nodes: [{name: worker}, {pool: worker, count: 3, from: 2}]`",
        ),
        (
            "node with both name and pool",
            "scenario: x\nnodes:\n  - {name: a, pool: b}\n",
            "s.yaml:3:5: a node has either `name` or `pool`, not both\n  hint: use `name:` for one node, `pool:` with `count:` for several",
        ),
        (
            "pool count over 5000",
            "scenario: x\nnodes:\n  - {pool: w, count: 5001}\n",
            "s.yaml:3:22: count 5001 is over the limit of 5000 nodes\n  hint: 5,000 nodes is the upstream scalability limit",
        ),
        (
            "pool count not a number",
            "scenario: x\nnodes:\n  - {pool: w, count: three}\n",
            "s.yaml:3:22: count must be a whole number, found the string \"three\"\n  hint: e.g. `{pool: worker, count: 3, from: 2}` for worker2, worker3, worker4",
        ),
        (
            "duplicate node names",
            "scenario: x\nnodes:\n  - name: worker2\n  - {pool: worker, count: 3}\n",
            "s.yaml:4:5: node \"worker2\" is declared twice\n  hint: node names must be unique; check pools' `from:`",
        ),
        (
            "bad taint effect",
            "scenario: x\nnodes:\n  - name: a\n    taints: [\"k=v:NoExecut\"]\n",
            "s.yaml:4:14: taint \"k=v:NoExecut\": effect \"NoExecut\" is not one of NoSchedule, PreferNoSchedule, NoExecute\n  hint: write taints as `key=value:NoSchedule` or `key:NoExecute`",
        ),
        (
            "invalid node name",
            "scenario: x\nnodes:\n  - name: Worker_1\n",
            "s.yaml:3:5: node name \"Worker_1\" is not a valid DNS subdomain\n  hint: use lower-case letters, digits, '-' and '.'",
        ),
        (
            "a node that is not a map",
            "scenario: x\nnodes:\n  - worker\n",
            "s.yaml:3:5: a node must be a map, found a string\n  hint: write `- name: worker` or `- {pool: worker, count: 3}`",
        ),
        (
            "unknown node key",
            "scenario: x\nnodes:\n  - name: a\n    label: {a: b}\n",
            "s.yaml:4:5: unknown key \"label\"\n  hint: did you mean \"labels\"? Known keys: name, pool, count, from, labels, taints, capacity, allocatable, unschedulable, conditions",
        ),
        (
            "unquoted yes as a node label",
            "scenario: x\nnodes:\n  - name: a\n    labels: {k42: yes}\n",
            "s.yaml:4:19: nodes[0].labels.k42 must be a string, found the boolean true\n  hint: quote it: YAML 1.1 reads unquoted yes/no/on/off/true/false as booleans",
        ),
        (
            "files entry not text",
            "scenario: x\nfiles:\n  ds.yaml: {kind: DaemonSet}\n",
            "s.yaml:3:3: file \"ds.yaml\" must be text, found a map\n  hint: write the manifest as a block: `ds.yaml: |` then the YAML indented below",
        ),
        (
            "script not a list",
            "scenario: x\nscript: {a: 1}\n",
            "s.yaml:2:1: script must be a list, found a map\n  hint: e.g. `script: [\"kubectl apply -f ds.yaml\"]`",
        ),
        (
            "script entry a number",
            "scenario: x\nscript:\n  - kubectl get ds\n  - 42\n",
            "s.yaml:4:5: a script line must be a command or an expect map, found a number\n  hint: e.g. `- kubectl get ds` or `- sleep 30s`",
        ),
        (
            "expect without equals",
            "scenario: x\nscript:\n  - expect: kubectl get ds\n",
            "s.yaml:3:5: an expect needs exactly one of `equals:` or `contains:`\n  hint: e.g. `equals: \"4\"`",
        ),
        (
            "expect with both equals and contains",
            "scenario: x\nscript:\n  - expect: kubectl get ds\n    equals: \"\"\n    contains: x\n",
            "s.yaml:3:5: an expect needs exactly one of `equals:` or `contains:`\n  hint: e.g. `equals: \"4\"`",
        ),
        (
            "misspelt equals",
            "scenario: x\nscript:\n  - expect: kubectl get ds\n    equal: \"1\"\n",
            "s.yaml:4:12: unknown key \"equal\"\n  hint: did you mean \"equals\"? Known keys: expect, equals, contains",
        ),
        (
            "timing with an unknown key",
            "scenario: x\ntiming: {watch_dely: 0.1}\n",
            "s.yaml:2:22: unknown key \"watch_dely\"\n  hint: did you mean \"watch_delay\"? Known keys: container_start, controller_sync, jitter, large_cluster_size_threshold, node_eviction_rate, node_lease_period, node_monitor_grace, node_monitor_period, node_ready_after_register, pleg_relist, pod_cleanup, pod_gc_period, pod_gc_quarantine, probe_phase, scheduler_bind, secondary_node_eviction_rate, sigterm_exit, sigterm_honoured, unhealthy_zone_threshold, watch_delay",
        ),
        (
            "timing value of the wrong type",
            "scenario: x\ntiming: {watch_delay: fast}\n",
            "s.yaml:2:23: timing.watch_delay must be a number of seconds, found the string \"fast\"\n  hint: e.g. `watch_delay: 0.03` (the default)",
        ),
        (
            "images as a list",
            "scenario: x\nimages: [busybox]\n",
            "s.yaml:2:1: images must be a map, found a list\n  hint: e.g. `images: {\"agent:2\": {missing: true}}`",
        ),
        (
            "an image entry with a misspelt key",
            "scenario: x\nimages:\n  \"agent:2\": {pullSecond: 20}\n",
            "s.yaml:3:27: unknown key \"pullSecond\"\n  hint: did you mean \"pullSeconds\"? Known keys: missing, pullSeconds",
        ),
        (
            "an image's pull time negative",
            "scenario: x\nimages:\n  \"agent:2\": {pullSeconds: -3}\n",
            "s.yaml:3:28: images.agent:2.pullSeconds must be a number of seconds ≥ 0, found -3\n  hint: e.g. `\"busybox:does-not-exist\": {missing: true}` or `\"agent:2\": {pullSeconds: 20}`",
        ),
        (
            "missing not a boolean",
            "scenario: x\nimages:\n  \"agent:2\": {missing: \"yes please\"}\n",
            "s.yaml:3:24: images.agent:2.missing must be true or false, found the string \"yes please\"\n  hint: e.g. `\"busybox:does-not-exist\": {missing: true}` or `\"agent:2\": {pullSeconds: 20}`",
        ),
        (
            "an empty file",
            "",
            "s.yaml:1:1: the scenario file is empty\n  hint: start with `scenario: my-id` and a `nodes:` list",
        ),
        (
            "only a comment",
            "# nothing here\n",
            "s.yaml:1:1: the scenario file is empty\n  hint: start with `scenario: my-id` and a `nodes:` list",
        ),
        (
            "a second YAML document",
            "scenario: x\n---\nkind: DaemonSet\n",
            "s.yaml:1:1: a scenario file holds one document; found a second after `---`\n  hint: put manifests under `files:` instead of after `---`",
        ),
        (
            "a list instead of a map",
            "- scenario: x\n",
            "s.yaml:1:1: a scenario must be a map, found a list\n  hint: start with `scenario: my-id`",
        ),
    ];
    for (what, text, want) in cases {
        assert_eq!(file_error(text), *want, "{what}");
    }
    assert!(cases.len() >= 28);
}

#[test]
fn bad_script_lines_fail_with_kubectl_like_messages() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown script verb",
            "deploy foo",
            "error: unknown command \"deploy\"\n  hint: a script line is a kubectl command, sleep DURATION, node add|remove|stop|start NAME, or pod crash|fail POD",
        ),
        (
            "sleep with a bad duration",
            "sleep 5x",
            "error: invalid duration \"5x\": write e.g. 30s, 1m30s, 500ms",
        ),
        ("sleep without a duration", "sleep", "error: usage: sleep DURATION (e.g. sleep 30s)"),
        (
            "node add with a bad flag",
            "node add w9 --colour red",
            "error: unknown flag --colour for node add\nerror: usage: node add NAME [--label k=v]… [--taint k=v:Effect]… [--capacity cpu=4,memory=8Gi,pods=110] | node remove|stop|start NAME",
        ),
        (
            "node add with a bad taint",
            "node add w9 --taint k:Bad",
            "error: --taint: taint \"k:Bad\": effect \"Bad\" is not one of NoSchedule, PreferNoSchedule, NoExecute",
        ),
        (
            "node add of an existing node",
            "node add worker",
            "Error from server (AlreadyExists): nodes \"worker\" already exists",
        ),
        (
            "node remove of an unknown node",
            "node remove nope",
            "Error from server (NotFound): nodes \"nope\" not found",
        ),
        (
            "pod fail without a name",
            "pod fail",
            "error: usage: pod crash POD|--node NODE [--exit-code N] [-n NAMESPACE] | pod fail POD|--node NODE [--reason Evicted|OutOfcpu|OutOfmemory] [-n NAMESPACE]",
        ),
        (
            "pod fail of an unknown pod",
            "pod fail nope",
            "Error from server (NotFound): pods \"nope\" not found",
        ),
        (
            "pod fail on an unknown node",
            "pod fail --node nope",
            "error: nodes \"nope\" not found",
        ),
        (
            "kubectl unknown command",
            "kubectl frobnicate",
            "error: unknown command \"frobnicate\" for \"kubectl\"\n  hint: `kubectl` understands: apply, cordon, create, delete, describe, drain, get, label, patch, rollout, set, taint, uncordon",
        ),
        (
            "kubectl unknown resource",
            "kubectl get deployments",
            "error: the server doesn't have a resource type \"deployments\"\n  hint: the playground simulates DaemonSets only: daemonsets (ds), pods (po), nodes (no), controllerrevisions and events (ev)",
        ),
        (
            "kubectl unknown flag",
            "kubectl get ds --colour",
            "error: unknown flag: --colour\nSee 'kubectl get --help' for usage.\n  hint: `kubectl get` here understands: -o/--output, -l/--selector, --field-selector, -A/--all-namespaces, --show-labels, --no-headers, --sort-by, -w/--watch, -n/--namespace",
        ),
        (
            "apply -f of a missing file",
            "kubectl apply -f missing.yaml",
            "error: the path \"missing.yaml\" does not exist\n  hint: files come from the scenario's `files:` section; check the name",
        ),
        (
            "unquoted yes in a manifest (YAML 1.1)",
            "kubectl apply -f yes.yaml",
            "Error from server (BadRequest): error when creating \"yes.yaml\": DaemonSet in version \"v1\" cannot be handled as a DaemonSet: json: cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type string\n  hint: yes.yaml:13:14: quote the value: k42: \"yes\" — YAML 1.1 (which kubectl uses) reads unquoted yes/no/on/off/true/false as booleans",
        ),
        (
            "maxSurge without maxUnavailable: 0 (R-DEF-5)",
            "kubectl apply -f surge.yaml",
            "The DaemonSet \"x\" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:\"\"}: may not be set when maxUnavailable is non-zero\n  hint: maxUnavailable defaults to 1, so a surge rollout must say `maxUnavailable: 0` next to `maxSurge` (exactly one of the two may be non-zero)",
        ),
        (
            "unterminated quote",
            "kubectl get ds \"x",
            "error: unterminated quoted string (missing \")",
        ),
        (
            "bad jsonpath",
            "kubectl get pods -o jsonpath={.items[",
            "error: error parsing jsonpath {.items[, unclosed action\n  hint: templates look like {.status.numberReady} or {.items[*].metadata.name}",
        ),
        (
            "pod crash with a bad exit code",
            "pod crash --node w1 --exit-code 300",
            "error: --exit-code must be a whole number from 0 to 255\n  hint: e.g. pod crash --node worker --exit-code 137",
        ),
        (
            "pod crash of a pod that does not exist",
            "pod crash nope",
            "Error from server (NotFound): pods \"nope\" not found",
        ),
        (
            "pod with an unknown sub-verb",
            "pod restart x",
            "error: usage: pod crash POD|--node NODE [--exit-code N] [-n NAMESPACE] | pod fail POD|--node NODE [--reason Evicted|OutOfcpu|OutOfmemory] [-n NAMESPACE]",
        ),
        (
            "pod fail with an unknown flag",
            "pod fail x --exit-code 3",
            "error: unknown flag \"--exit-code\"\n  hint: usage: pod crash POD|--node NODE [--exit-code N] [-n NAMESPACE] | pod fail POD|--node NODE [--reason Evicted|OutOfcpu|OutOfmemory] [-n NAMESPACE]",
        ),
        (
            "pod fail with an unknown reason",
            "pod fail x --reason OOMKilled",
            "error: unknown --reason \"OOMKilled\"\n  hint: Evicted (node memory pressure), OutOfcpu or OutOfmemory (rejected at admission)",
        ),
        (
            "pod crash does not take a reason",
            "pod crash x --reason OutOfcpu",
            "error: unknown flag \"--reason\"\n  hint: usage: pod crash POD|--node NODE [--exit-code N] [-n NAMESPACE] | pod fail POD|--node NODE [--reason Evicted|OutOfcpu|OutOfmemory] [-n NAMESPACE]",
        ),
        (
            "delete with an unsupported field selector",
            "kubectl delete pods --field-selector spec.foo=x",
            "Error from server (BadRequest): field label not supported: spec.foo\n  hint: field selectors for pods: metadata.name, metadata.namespace, spec.nodeName, spec.restartPolicy, spec.schedulerName, spec.serviceAccountName, status.phase, status.podIP, status.nominatedNodeName",
        ),
    ];
    for (what, l, want) in cases {
        let (ok, out) = line_raw(l);
        assert!(!ok, "{what}: `{l}` succeeded:\n{out}");
        // Whole lines, or the terminal would run the next command into the message.
        assert!(
            out.ends_with('\n') && !out.ends_with("\n\n"),
            "{what}: {out:?}"
        );
        assert_eq!(out.trim_end(), *want, "{what}");
    }
}

#[test]
fn an_invalid_daemon_set_is_rejected_with_the_api_servers_message() {
    let (ok, out) = line("kubectl apply -f mismatch.yaml");
    assert!(!ok);
    assert!(
        out.starts_with(
            "The DaemonSet \"x\" is invalid: spec.template.metadata.labels: Invalid value:"
        ),
        "{out}"
    );
    assert!(
        out.contains("`selector` does not match template `labels`"),
        "{out}"
    );
    assert!(out.contains("hint:"), "{out}");
}

#[test]
fn a_failed_expect_names_its_line_and_what_was_observed() {
    let s = scenario::parse(
        "s.yaml",
        "scenario: x\nnodes: [{name: w}]\nscript:\n  - kubectl get ds\n  - expect: kubectl get nodes -o name\n    equals: node/v\n",
    )
    .expect("parses");
    let out = scenario::run(&s, false).expect("runs");
    assert_eq!(out.passed, 0);
    assert_eq!(
        out.failures
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["line 5:5: expect `kubectl get nodes -o name` equals \"node/v\", observed \"node/w\""]
    );
}
