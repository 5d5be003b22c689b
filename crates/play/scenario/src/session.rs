//! A running scenario: the virtual cluster plus the scenario's named files, seen through the
//! `kubectl::Api` trait so that kubectl commands run against it.

use cluster::{Cluster, Propagation};
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::jiff::Timestamp;
use kubectl::{Api, ApiError, Cascade};
use std::collections::BTreeMap;

/// The cluster a script drives, and the files `kubectl apply -f NAME` reads.
#[derive(Debug, Clone)]
pub struct Session {
    pub cluster: Cluster,
    pub files: BTreeMap<String, String>,
}

/// kubectl's own copies of the store's shared objects.
fn copies<'a, T: Clone + 'a>(shared: impl IntoIterator<Item = &'a std::sync::Arc<T>>) -> Vec<T> {
    shared.into_iter().map(|o| (**o).clone()).collect()
}

impl Api for Session {
    fn now(&self) -> Timestamp {
        self.cluster.now()
    }
    fn daemon_sets(&self) -> Vec<DaemonSet> {
        copies(&self.cluster.daemon_sets())
    }
    fn pods(&self) -> Vec<Pod> {
        copies(&self.cluster.pods())
    }
    fn node_lease(&self, node: &str) -> Option<k8s_openapi::api::coordination::v1::Lease> {
        self.cluster.node_lease(node)
    }

    fn nodes(&self) -> Vec<Node> {
        copies(&self.cluster.nodes())
    }
    fn revisions(&self) -> Vec<ControllerRevision> {
        copies(&self.cluster.revisions())
    }
    fn events(&self) -> Vec<Event> {
        copies(self.cluster.events().iter())
    }
    fn file(&self, name: &str) -> Option<String> {
        self.files.get(name).cloned()
    }

    fn create(&mut self, manifest: apiserver::Manifest) -> Result<(), ApiError> {
        let ns = |m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
            m.namespace.clone().unwrap_or_else(|| "default".into())
        };
        let (resource, exists) = match &manifest {
            apiserver::Manifest::DaemonSet(d, _) => (
                "daemonsets.apps",
                self.cluster
                    .daemon_set(&ns(&d.metadata), manifest.name())
                    .is_some(),
            ),
            apiserver::Manifest::Node(..) => {
                ("nodes", self.cluster.node(manifest.name()).is_some())
            }
            apiserver::Manifest::Pod(p, _) => (
                "pods",
                self.cluster
                    .pod(&ns(&p.metadata), manifest.name())
                    .is_some(),
            ),
            apiserver::Manifest::ControllerRevision(r, _) => (
                "controllerrevisions.apps",
                self.cluster.revisions().iter().any(|x| {
                    x.metadata.name.as_deref() == Some(manifest.name())
                        && x.metadata.namespace == Some(ns(&r.metadata))
                }),
            ),
        };
        if exists && !manifest.name().is_empty() {
            return Err(ApiError::AlreadyExists {
                resource: resource.into(),
                name: manifest.name().to_string(),
            });
        }
        self.cluster.apply(manifest).map(drop)
    }

    fn update_daemon_set(&mut self, ds: DaemonSet) -> Result<DaemonSet, ApiError> {
        let ns = ds
            .metadata
            .namespace
            .clone()
            .unwrap_or_else(|| "default".into());
        let name = ds.metadata.name.clone().unwrap_or_default();
        let new = ds.clone();
        self.cluster.update_daemon_set(&ns, &name, move |d| {
            d.spec = new.spec;
            d.metadata.labels = new.metadata.labels;
            d.metadata.annotations = new.metadata.annotations;
            d.metadata.owner_references = new.metadata.owner_references;
        })?;
        self.cluster
            .daemon_set(&ns, &name)
            .map(|d| (*d).clone())
            .ok_or_else(|| ApiError::not_found("daemonsets.apps", &name))
    }

    fn update_node(&mut self, node: Node) -> Result<Node, ApiError> {
        let name = node.metadata.name.clone().unwrap_or_default();
        let new = node.clone();
        self.cluster.update_node(&name, move |n| {
            n.metadata.labels = new.metadata.labels;
            n.metadata.annotations = new.metadata.annotations;
            n.spec = new.spec;
        })?;
        self.cluster
            .node(&name)
            .map(|n| (*n).clone())
            .ok_or_else(|| ApiError::not_found("nodes", &name))
    }

    fn update_pod(&mut self, pod: Pod) -> Result<Pod, ApiError> {
        let m = &pod.metadata;
        self.cluster.update_pod_metadata(
            m.namespace.as_deref().unwrap_or(""),
            m.name.as_deref().unwrap_or(""),
            m.labels.clone(),
            m.annotations.clone(),
        )?;
        Ok(pod)
    }

    fn delete_daemon_set(
        &mut self,
        namespace: &str,
        name: &str,
        cascade: Cascade,
    ) -> Result<(), ApiError> {
        let p = match cascade {
            Cascade::Background => Propagation::Background,
            Cascade::Foreground => Propagation::Foreground,
            Cascade::Orphan => Propagation::Orphan,
        };
        self.cluster.delete_daemon_set(namespace, name, p)
    }

    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.cluster.delete_pod(namespace, name)
    }

    fn delete_node(&mut self, name: &str) -> Result<(), ApiError> {
        self.cluster.remove_node(name)
    }
}
