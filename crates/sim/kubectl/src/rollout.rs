//! `kubectl rollout status|history|undo|restart|pause|resume` for DaemonSets (R-KC-1..7), from
//! `polymorphichelpers/{rollout_status,history,rollback}.go` and `pkg/cmd/rollout`.

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::jiff::Timestamp;

use crate::api::{Api, ApiError};
use crate::object;
use crate::parse::Command;
use crate::resource::{self, Resource};
use crate::table::TabWriter;
use crate::{CommandResult, Fail};

/// The one object a rollout command names (`ds/NAME` or `ds NAME`), and nothing more.
fn named_object(cmd: &Command) -> Result<(Resource, String), Fail> {
    let (target, rest) =
        resource::single(&cmd.args, cmd.verb.path().trim_start_matches("kubectl "))?;
    if let Some(extra) = rest.first() {
        return Err(
            Fail::new(format!("error: unexpected argument {extra:?}")).hint(format!(
                "`{}` takes one DaemonSet: ds/NAME",
                cmd.verb.path()
            )),
        );
    }
    Ok(target)
}

/// The DaemonSet a rollout command names.
fn target(api: &dyn Api, cmd: &Command, what: &str) -> Result<DaemonSet, Fail> {
    let (r, name) = named_object(cmd)?;
    if r != Resource::DaemonSet {
        let kind = match r {
            Resource::Pod => "Pod",
            Resource::Node => "Node",
            Resource::ControllerRevision => "ControllerRevision",
            Resource::Event => "Event",
            Resource::DaemonSet => "DaemonSet",
        };
        return Err(
            Fail::new(format!("error: no {what} has been implemented for {kind}"))
                .hint("rollouts apply to workloads: `kubectl rollout … ds/NAME`"),
        );
    }
    object::get_daemon_set(api, cmd.namespace(), &name)
        .ok_or_else(|| ApiError::not_found(Resource::DaemonSet.plural(), &name).into())
}

fn ds_name(ds: &DaemonSet) -> &str {
    ds.metadata.name.as_deref().unwrap_or("")
}

/// R-KC-1/2: the message and whether the rollout is done.
fn status_message(ds: &DaemonSet) -> Result<(String, bool), Fail> {
    let strategy = ds
        .spec
        .update_strategy
        .as_ref()
        .and_then(|u| u.type_.clone())
        .unwrap_or_default();
    if strategy != "RollingUpdate" {
        return Err(Fail::new("error: rollout status is only available for RollingUpdate strategy type")
            .hint("with updateStrategy OnDelete, pods change only when you delete them; watch `kubectl get pods` instead"));
    }
    let name = ds_name(ds);
    let st = ds.status.clone().unwrap_or_default();
    let generation = ds.metadata.generation.unwrap_or(0);
    if generation <= st.observed_generation.unwrap_or(0) {
        let desired = st.desired_number_scheduled;
        let updated = st.updated_number_scheduled.unwrap_or(0);
        let available = st.number_available.unwrap_or(0);
        if updated < desired {
            return Ok((format!("Waiting for daemon set {name:?} rollout to finish: {updated} out of {desired} new pods have been updated...\n"), false));
        }
        if available < desired {
            return Ok((format!("Waiting for daemon set {name:?} rollout to finish: {available} of {desired} updated pods are available...\n"), false));
        }
        return Ok((
            format!("daemon set {name:?} successfully rolled out\n"),
            true,
        ));
    }
    Ok((
        "Waiting for daemon set spec update to be observed...\n".into(),
        false,
    ))
}

/// What changes on every write: kubectl prints the status on each watch event.
fn fingerprint(ds: &DaemonSet) -> String {
    match ds.metadata.resource_version.as_deref() {
        Some(rv) if !rv.is_empty() => rv.to_string(),
        _ => format!(
            "{:?}/{}",
            ds.metadata.generation,
            codec::to_json(&ds.status)
        ),
    }
}

/// A `rollout status` that has not finished: poll it after virtual time advances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    namespace: String,
    name: String,
    last: String,
    deadline: Option<Timestamp>,
    timeout: Option<k8s_openapi::jiff::SignedDuration>,
}

/// What a [`Wait`] has to say after a poll.
#[derive(Debug, Clone, PartialEq)]
pub enum WaitState {
    /// Still waiting; the text is what kubectl printed since the previous poll (may be empty).
    Pending(String),
    /// Finished successfully; the text is the last output.
    Done(String),
    /// Ended with an error (DaemonSet deleted, timeout…).
    Failed(CommandResult),
}

impl Wait {
    /// The DaemonSet being watched, as `namespace/name`.
    pub fn target(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// The `--timeout` the command was given, when it set one (a positive duration): the
    /// wait fails with kubectl's `timed out waiting for the condition` once that much virtual
    /// time has passed. `None` is kubectl's default, waiting for as long as it takes.
    pub fn timeout(&self) -> Option<std::time::Duration> {
        self.timeout.and_then(|t| t.try_into().ok())
    }

    /// Looks at the DaemonSet again; prints a line whenever it changed (as kubectl's watch
    /// does on each event).
    pub fn poll(&mut self, api: &dyn Api) -> WaitState {
        let Some(ds) = object::get_daemon_set(api, &self.namespace, &self.name) else {
            let mut r = CommandResult::default();
            r.fail(Fail::new("error: object has been deleted").hint(format!(
                "the DaemonSet {:?} was deleted while waiting for its rollout",
                self.name
            )));
            return WaitState::Failed(r);
        };
        let fp = fingerprint(&ds);
        let changed = fp != self.last;
        self.last = fp;
        match status_message(&ds) {
            Err(f) => {
                let mut r = CommandResult::default();
                r.fail(f);
                WaitState::Failed(r)
            }
            Ok((msg, true)) => WaitState::Done(msg),
            Ok((msg, false)) => {
                if self.deadline.is_some_and(|d| api.now() >= d) {
                    let mut r = CommandResult::default();
                    r.fail(Fail::new("error: timed out waiting for the condition").hint(
                        "the rollout did not finish within --timeout; check `kubectl get pods -o wide` and `kubectl describe ds`",
                    ));
                    return WaitState::Failed(r);
                }
                WaitState::Pending(if changed { msg } else { String::new() })
            }
        }
    }
}

/// Go's `time.ParseDuration`, to nanoseconds, with its error text: `[-+]?` then one or more
/// decimal numbers (a fraction allowed) each followed by a unit (`ns`, `us`, `µs`, `μs`, `ms`,
/// `s`, `m`, `h`); a bare `0` needs no unit.
pub(crate) fn parse_go_duration(orig: &str) -> Result<i128, String> {
    let quote = apiserver::gofmt::quote;
    let invalid = || format!("time: invalid duration {}", quote(orig));
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.chars().next().filter(|c| *c == '-' || *c == '+') {
        neg = c == '-';
        s = &s[1..];
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: i128 = 0;
    while !s.is_empty() {
        if !s.starts_with(|c: char| c == '.' || c.is_ascii_digit()) {
            return Err(invalid());
        }
        let int_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let (int_part, rest) = s.split_at(int_end);
        s = rest;
        let mut frac_part = "";
        if let Some(rest) = s.strip_prefix('.') {
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            frac_part = &rest[..end];
            s = &rest[end..];
        }
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(invalid());
        }
        let unit_end = s
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if unit_end == 0 {
            return Err(format!("time: missing unit in duration {}", quote(orig)));
        }
        let (unit, rest) = s.split_at(unit_end);
        s = rest;
        let nanos: i128 = match unit {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    quote(unit),
                    quote(orig)
                ))
            }
        };
        let whole: i128 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().map_err(|_| invalid())?
        };
        let mut value = whole.checked_mul(nanos).ok_or_else(invalid)?;
        // The fraction adds what it is worth in the unit, truncated to whole nanoseconds.
        let mut scale = nanos;
        for d in frac_part.bytes() {
            if scale == 0 {
                break;
            }
            value += i128::from(d - b'0') * scale / 10;
            scale /= 10;
        }
        total = total.checked_add(value).ok_or_else(invalid)?;
        if total > i128::from(i64::MAX) {
            return Err(invalid());
        }
    }
    Ok(if neg { -total } else { total })
}

pub(crate) fn status(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let ds = target(api, cmd, "status viewer")?;
    // `--timeout` as cobra parses a Duration flag; 0 (the default) waits forever, and so does
    // a negative one (watchtools.ContextWithOptionalTimeout logs it and sets no deadline).
    let timeout = match cmd.flag("timeout") {
        Some(t) => Some(parse_go_duration(t).map_err(|e| {
            Fail::new(format!(
                "error: invalid argument {} for \"--timeout\" flag: {e}\n{}",
                apiserver::gofmt::quote(t),
                crate::parse::usage(cmd.verb)
            ))
            .hint("durations look like 30s, 5m, 1h30m or 12h")
        })?),
        None => None,
    };
    let (msg, done) = status_message(&ds)?;
    let mut res = CommandResult::out(msg);
    if !done && cmd.flag("watch") != Some("false") {
        let timeout = timeout
            .filter(|t| *t > 0)
            .and_then(|t| i64::try_from(t).ok())
            .map(k8s_openapi::jiff::SignedDuration::from_nanos);
        let deadline = timeout.and_then(|t| api.now().checked_add(t).ok());
        res.wait = Some(Wait {
            namespace: ds.metadata.namespace.clone().unwrap_or_default(),
            name: ds_name(&ds).to_string(),
            last: fingerprint(&ds),
            deadline,
            timeout,
        });
    }
    Ok(res)
}

/// R-KC-3: revisions selected by the DS selector and controlled by its UID.
fn controlled_history(api: &dyn Api, ds: &DaemonSet) -> Vec<ControllerRevision> {
    let ns = ds.metadata.namespace.as_deref().unwrap_or("");
    let uid = ds.metadata.uid.as_deref().unwrap_or("");
    let sel = Some(&ds.spec.selector);
    let mut revs: Vec<ControllerRevision> = api
        .revisions()
        .into_iter()
        .filter(|r| r.metadata.namespace.as_deref().unwrap_or("") == ns)
        .filter(|r| {
            sel.is_some_and(|s| {
                k8s_base::Selector::from_label_selector(s)
                    .map(|s| s.matches(r.metadata.labels.as_ref()))
                    .unwrap_or(false)
            })
        })
        .filter(|r| {
            r.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.controller == Some(true) && o.uid == uid)
        })
        .collect();
    sort::sort_by_key(&mut revs, |r| r.revision);
    revs
}

pub(crate) fn history(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let ds = target(api, cmd, "history viewer")?;
    let revision = match cmd.flag("revision") {
        Some(r) => r.parse::<i64>().map_err(|_| {
            Fail::new(format!("error: invalid argument {q} for \"--revision\" flag: strconv.ParseInt: parsing {q}: invalid syntax\n{}", crate::parse::usage(cmd.verb), q = apiserver::gofmt::quote(r)))
        })?,
        None => 0,
    };
    let revs = controlled_history(api, &ds);
    let name = ds_name(&ds);
    if revs.is_empty() {
        return Ok(CommandResult::out(format!(
            "daemonset.apps/{name} \nNo rollout history found.\n"
        )));
    }
    if revision > 0 {
        let Some(rev) = revs.iter().find(|r| r.revision == Some(revision)) else {
            return Err(
                Fail::new("error: unable to find the specified revision").hint(format!(
                    "list the revisions with `kubectl rollout history ds/{name}`"
                )),
            );
        };
        let template = template_of(rev).ok_or_else(|| {
            Fail::new(format!(
                "error: unable to parse history {}",
                rev.metadata.name.as_deref().unwrap_or("")
            ))
        })?;
        let text = crate::describe::pod_template(&template);
        return Ok(CommandResult::out(format!(
            "daemonset.apps/{name} with revision #{revision}\n{text}\n"
        )));
    }
    let mut w = TabWriter::describe();
    w.write("REVISION\tCHANGE-CAUSE\n");
    for r in &revs {
        let cause = r
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(k8s_base::objects::CHANGE_CAUSE_ANNOTATION))
            .filter(|c| !c.is_empty())
            .cloned()
            .unwrap_or_else(|| "<none>".into());
        w.write(&format!("{}\t{cause}\n", r.revision.unwrap_or(0)));
    }
    Ok(CommandResult::out(format!(
        "daemonset.apps/{name} \n{}\n",
        w.finish()
    )))
}

pub(crate) fn undo(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let mut ds = target(api, cmd, "rollbacker")?;
    let to: i64 = match cmd.flag("to-revision") {
        Some(r) => r.parse().map_err(|_| {
            Fail::new(format!("error: invalid argument {q} for \"--to-revision\" flag: strconv.ParseInt: parsing {q}: invalid syntax\n{}", crate::parse::usage(cmd.verb), q = apiserver::gofmt::quote(r)))
        })?,
        None => 0,
    };
    let name = ds_name(&ds).to_string();
    let not_found = |n: i64| {
        Fail::new(format!(
            "error: unable to find specified revision {n} in history"
        ))
        .hint(format!(
            "list the revisions with `kubectl rollout history ds/{name}`"
        ))
    };
    if to < 0 {
        return Err(not_found(to));
    }
    let revs = controlled_history(api, &ds);
    if to == 0 && revs.len() <= 1 {
        return Err(Fail::new("error: no last revision to roll back to")
            .hint("a DaemonSet gets a new revision each time its pod template changes; there is nothing older yet"));
    }
    let target_rev = if to == 0 {
        revs.get(revs.len().saturating_sub(2))
    } else {
        revs.iter().find(|r| r.revision == Some(to))
    };
    let Some(rev) = target_rev else {
        return Err(not_found(to));
    };
    let template = template_of(rev).ok_or_else(|| {
        Fail::new(format!(
            "error: failed restoring revision {to}: invalid revision data"
        ))
    })?;
    let spec = &mut ds.spec;
    // R-KC-6: the revision data equals the current template's patch.
    let same = codec::to_json(&spec.template) == codec::to_json(&template);
    if same {
        return Ok(CommandResult::out(format!(
            "daemonset.apps/{name} skipped rollback (current template already matches revision {to})\n"
        )));
    }
    spec.template = template;
    api.update_daemon_set(ds).map_err(|e| {
        Fail::new(format!("error: failed restoring revision {to}: {e}"))
            .hint(e.hint().unwrap_or_default())
    })?;
    Ok(CommandResult::out(format!(
        "daemonset.apps/{name} rolled back\n"
    )))
}

pub(crate) fn restart(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let mut ds = target(api, cmd, "restarter")?;
    let name = ds_name(&ds).to_string();
    let now = codec::format_time(api.now());
    ds.spec
        .template
        .metadata
        .get_or_insert_with(Default::default)
        .annotations
        .get_or_insert_with(Default::default)
        .insert("kubectl.kubernetes.io/restartedAt".into(), now);
    api.update_daemon_set(ds)?;
    Ok(CommandResult::out(format!(
        "daemonset.apps/{name} restarted\n"
    )))
}

/// `kubectl rollout pause|resume`: only Deployments can be paused, so kubectl fetches the
/// object and refuses it (`daemonsets.apps "x" pausing is not supported`). Changes nothing.
pub(crate) fn pause_or_resume(
    api: &mut dyn Api,
    cmd: &Command,
    doing: &str,
) -> Result<CommandResult, Fail> {
    let (r, name) = named_object(cmd)?;
    if object::get(api, r, cmd.namespace(), &name).is_none() {
        return Err(ApiError::not_found(r.plural(), &name).into());
    }
    Err(Fail::new(format!(
        "error: {} {name:?} {doing} is not supported",
        r.plural()
    ))
    .hint(
        "a DaemonSet's rollout cannot be paused: it moves as maxUnavailable/maxSurge allow; \
             with updateStrategy OnDelete pods change only when you delete them",
    ))
}

/// The pod template a revision records, decoded as the API server decodes it.
fn template_of(rev: &ControllerRevision) -> Option<PodTemplateSpec> {
    let t = k8s_base::objects::revision_template(rev)?;
    apiserver::decode_json(&t).ok()
}

#[cfg(test)]
mod tests {
    use super::parse_go_duration;

    #[test]
    fn parse_go_duration_reads_what_time_parse_duration_reads() {
        let s = 1_000_000_000i128;
        assert_eq!(parse_go_duration("0"), Ok(0));
        assert_eq!(parse_go_duration("30s"), Ok(30 * s));
        assert_eq!(parse_go_duration("12h"), Ok(12 * 3600 * s));
        assert_eq!(parse_go_duration("1h30m"), Ok(5400 * s));
        assert_eq!(parse_go_duration("1.5h"), Ok(5400 * s));
        assert_eq!(parse_go_duration(".5s"), Ok(s / 2));
        assert_eq!(parse_go_duration("300ms"), Ok(3 * s / 10));
        assert_eq!(parse_go_duration("2\u{b5}s"), Ok(2000));
        assert_eq!(parse_go_duration("-1m"), Ok(-60 * s));
        assert_eq!(parse_go_duration("+5s"), Ok(5 * s));
    }

    #[test]
    fn parse_go_duration_fails_with_time_parse_duration_errors() {
        assert_eq!(
            parse_go_duration("10"),
            Err("time: missing unit in duration \"10\"".into())
        );
        assert_eq!(
            parse_go_duration("1d"),
            Err("time: unknown unit \"d\" in duration \"1d\"".into())
        );
        // Go reads `1.` as a number, then finds no unit before `.5s`.
        assert_eq!(
            parse_go_duration("1..5s"),
            Err("time: missing unit in duration \"1..5s\"".into())
        );
        for bad in ["", "-", "abc", ".s", "9999999999h"] {
            assert_eq!(
                parse_go_duration(bad),
                Err(format!(
                    "time: invalid duration {}",
                    apiserver::gofmt::quote(bad)
                )),
                "{bad}"
            );
        }
    }
}
