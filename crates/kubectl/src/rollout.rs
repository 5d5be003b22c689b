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

/// `--timeout=30s`, `1m`, `0` (no timeout).
fn parse_duration(s: &str) -> Option<i64> {
    if s == "0" {
        return Some(0);
    }
    let mut total = 0i64;
    let mut num = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            num.push(c);
        } else {
            let n: i64 = num.parse().ok()?;
            num.clear();
            total += n * match c {
                's' => 1,
                'm' => 60,
                'h' => 3600,
                _ => return None,
            };
        }
    }
    if !num.is_empty() {
        return None;
    }
    Some(total)
}

pub(crate) fn status(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let ds = target(api, cmd, "status viewer")?;
    let timeout = match cmd.flag("timeout") {
        Some(t) => Some(parse_duration(t).ok_or_else(|| {
            Fail::new(format!("error: invalid argument {t:?} for \"--timeout\" flag: time: invalid duration {t:?}"))
                .hint("durations look like 30s, 5m or 1h")
        })?),
        None => None,
    };
    let (msg, done) = status_message(&ds)?;
    let mut res = CommandResult::out(msg);
    if !done && cmd.flag("watch") != Some("false") {
        let deadline = timeout.filter(|t| *t > 0).and_then(|t| {
            api.now()
                .checked_add(k8s_openapi::jiff::SignedDuration::from_secs(t))
                .ok()
        });
        res.wait = Some(Wait {
            namespace: ds.metadata.namespace.clone().unwrap_or_default(),
            name: ds_name(&ds).to_string(),
            last: fingerprint(&ds),
            deadline,
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
                controller::selectors::Selector::from_label_selector(s)
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
            Fail::new(format!("error: invalid argument {r:?} for \"--revision\" flag: strconv.ParseInt: parsing {r:?}: invalid syntax"))
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
            .and_then(|a| a.get(controller::keys::CHANGE_CAUSE_ANNOTATION))
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
            Fail::new(format!("error: invalid argument {r:?} for \"--to-revision\" flag: strconv.ParseInt: parsing {r:?}: invalid syntax"))
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
    let t = controller::history::revision_template(rev)?;
    apiserver::decode_json(&t).ok()
}
