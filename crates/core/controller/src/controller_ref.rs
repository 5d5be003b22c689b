//! Claiming, adoption and release (`controller_ref_manager.go`, R-CLM-1..7, R-HIS-1).

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};

use crate::client::{ApiError, Client, ObjectPatch};
use crate::keys::{CONTROLLER_API_VERSION, CONTROLLER_KIND};
use k8s_base::Selector;

/// `metav1.GetControllerOf`: the owner reference with `controller: true`.
pub fn get_controller_of(meta: &ObjectMeta) -> Option<&OwnerReference> {
    meta.owner_references
        .iter()
        .flatten()
        .find(|r| r.controller == Some(true))
}

/// `metav1.NewControllerRef(ds, DaemonSet)` (R-CLM-4 shape).
pub fn new_controller_ref(ds: &DaemonSet) -> OwnerReference {
    OwnerReference {
        api_version: CONTROLLER_API_VERSION.to_string(),
        kind: CONTROLLER_KIND.to_string(),
        name: ds.metadata.name.clone().unwrap_or_default(),
        uid: ds.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// Which object kind is being claimed (decides the API call and the error wording).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimKind {
    Pod,
    ControllerRevision,
}

impl ClaimKind {
    fn name(self) -> &'static str {
        match self {
            ClaimKind::Pod => "Pod",
            ClaimKind::ControllerRevision => "ControllerRevision",
        }
    }
}

/// `BaseControllerRefManager` for one DaemonSet during one sync.
pub struct ControllerRefManager<'a> {
    ds: &'a DaemonSet,
    selector: Selector<'a>,
    /// `RecheckDeletionTimestamp`, evaluated at most once (R-CLM-5).
    can_adopt: Option<Result<(), String>>,
    /// Count of API writes issued (adoptions and releases).
    pub writes: usize,
}

impl<'a> ControllerRefManager<'a> {
    pub fn new(ds: &'a DaemonSet, selector: Selector<'a>) -> Self {
        ControllerRefManager {
            ds,
            selector,
            can_adopt: None,
            writes: 0,
        }
    }

    fn can_adopt<C: Client + ?Sized>(&mut self, c: &mut C) -> Result<(), String> {
        if let Some(r) = &self.can_adopt {
            return r.clone();
        }
        let ns = self.ds.metadata.namespace.as_deref().unwrap_or("");
        let name = self.ds.metadata.name.as_deref().unwrap_or("");
        let r = match c.get_daemon_set(ns, name) {
            Err(e) => Err(e.message()),
            Ok(fresh) if fresh.metadata.uid != self.ds.metadata.uid => Err(format!(
                "original DaemonSet {ns}/{name} is gone: got uid {}, wanted {}",
                fresh.metadata.uid.unwrap_or_default(),
                self.ds.metadata.uid.as_deref().unwrap_or("")
            )),
            Ok(fresh) => match fresh.metadata.deletion_timestamp {
                Some(t) => Err(format!("{ns}/{name} has just been deleted at {}", t.0)),
                None => Ok(()),
            },
        };
        self.can_adopt = Some(r.clone());
        r
    }

    /// `ClaimObject`: whether the object is ours after adoption/release. Errors are the ones
    /// upstream aggregates (NotFound is swallowed).
    pub fn claim_object<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        meta: &ObjectMeta,
        kind: ClaimKind,
    ) -> Result<bool, String> {
        let ds_uid = self.ds.metadata.uid.as_deref().unwrap_or("");
        let ds_deleting = self.ds.metadata.deletion_timestamp.is_some();
        let ns = meta.namespace.as_deref().unwrap_or("");
        let name = meta.name.as_deref().unwrap_or("");
        let matches = self.selector.matches(meta.labels.as_ref());
        if let Some(r) = get_controller_of(meta) {
            if r.uid != ds_uid {
                return Ok(false); // R-CLM-1
            }
            if matches {
                return Ok(true); // R-CLM-2
            }
            if ds_deleting {
                return Ok(false);
            }
            // R-CLM-3: release.
            self.writes += 1;
            let patch = ObjectPatch::ReleaseFrom {
                uid: ds_uid.to_string(),
            };
            return match patch_object(c, kind, ns, name, &patch) {
                Ok(()) => Ok(false),
                Err(e) if e.is_not_found() => Ok(false),
                Err(e) => Err(e.message()),
            };
        }
        // Orphan (R-CLM-4).
        if ds_deleting || !matches || meta.deletion_timestamp.is_some() {
            return Ok(false);
        }
        if self
            .ds
            .metadata
            .namespace
            .as_deref()
            .is_some_and(|n| !n.is_empty() && n != ns)
        {
            return Ok(false);
        }
        if let Err(e) = self.can_adopt(c) {
            return Err(format!(
                "can't adopt {} {ns}/{name} ({}): {e}",
                kind.name(),
                meta.uid.as_deref().unwrap_or("")
            ));
        }
        self.writes += 1;
        match patch_object(
            c,
            kind,
            ns,
            name,
            &ObjectPatch::AdoptBy(new_controller_ref(self.ds)),
        ) {
            Ok(()) => Ok(true),
            Err(e) if e.is_not_found() => Ok(false),
            Err(e) => Err(e.message()),
        }
    }
}

fn patch_object<C: Client + ?Sized>(
    c: &mut C,
    kind: ClaimKind,
    ns: &str,
    name: &str,
    patch: &ObjectPatch,
) -> Result<(), ApiError> {
    match kind {
        ClaimKind::Pod => c.patch_pod(ns, name, patch),
        ClaimKind::ControllerRevision => c.patch_revision(ns, name, patch),
    }
}
