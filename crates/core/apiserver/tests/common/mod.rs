//! Shared fixtures for the integration tests.
#![allow(dead_code)]

use apiserver::{decode_daemon_set, defaults::set_defaults_daemon_set};
use k8s_openapi::api::apps::v1::DaemonSet;

/// The DaemonSet of the field experiment (F-2), with `k42: "yes"` quoted as it must be.
pub const DS_YAML: &str = r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ds1
  namespace: default
spec:
  selector:
    matchLabels:
      app: ds1
  template:
    metadata:
      labels:
        app: ds1
    spec:
      nodeSelector:
        k42: "yes"
      containers:
      - name: app
        image: busybox:1.36
        command: ["sleep", "infinity"]
"#;

/// Decodes YAML that must be a valid DaemonSet manifest.
pub fn decode(yaml: &str) -> DaemonSet {
    match decode_daemon_set("ds.yaml", yaml) {
        Ok((ds, _)) => ds,
        Err(e) => panic!("fixture does not decode:\n{e}"),
    }
}

/// [`DS_YAML`] decoded and defaulted: what validation sees for a good manifest.
pub fn defaulted() -> DaemonSet {
    let mut ds = decode(DS_YAML);
    set_defaults_daemon_set(&mut ds);
    ds
}
