//! `cargo xtask codec [--check]`: writes the field tables of the Kubernetes types the API server
//! decodes and prints (`crates/base/codec/src/types.rs`).
//!
//! The tables are read from the k8s-openapi sources cargo already downloaded: for every struct
//! reachable from the served kinds, its Go name, its JSON field names in the order its own
//! deserializer lists them, and the Rust field each one fills. `--check` fails when the
//! committed file differs from what the sources give (run by `cargo xtask test`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Result;

/// The kinds the playground decodes and prints; everything they reach is generated.
const ROOTS: &[&str] = &[
    "api::apps::v1::DaemonSet",
    "api::apps::v1::ControllerRevision",
    "api::core::v1::Pod",
    "api::core::v1::Node",
    "api::core::v1::Event",
    "api::coordination::v1::Lease",
];

/// Types with a JSON form of their own, written by hand in the codec.
const LEAVES: &[&str] = &[
    "apimachinery::pkg::api::resource::Quantity",
    "apimachinery::pkg::util::intstr::IntOrString",
    "apimachinery::pkg::apis::meta::v1::Time",
    "apimachinery::pkg::apis::meta::v1::MicroTime",
    "apimachinery::pkg::apis::meta::v1::FieldsV1",
    "apimachinery::pkg::runtime::RawExtension",
    "ByteString",
];

const OUTPUT: &str = "crates/base/codec/src/types.rs";
const VERSION_MODULE: &str = "v1_37";

struct Field {
    rust: String,
    json: String,
}

struct Struct {
    /// Go struct name used in messages (`PodSpec`); the kind for resources.
    go: String,
    resource: bool,
    /// Fields in the order the type's deserializer lists them (`apiVersion`/`kind` excluded).
    fields: Vec<Field>,
    /// `crate::…` paths of the types its fields hold.
    refs: Vec<String>,
}

pub fn codec(root: &Path, check: bool) -> Result {
    let src = k8s_openapi_src(root)?;
    let text = generate(&src)?;
    let out = root.join(OUTPUT);
    if check {
        let committed = fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        if committed != text {
            return Err(format!(
                "{OUTPUT} is not what k8s-openapi's sources give: run `cargo xtask codec` and commit it"
            ));
        }
        println!("{OUTPUT} matches the k8s-openapi sources");
        return Ok(());
    }
    fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {OUTPUT}");
    Ok(())
}

/// `…/k8s-openapi-X/src/v1_37`, from `cargo metadata` (which downloads the package first when
/// this machine has not built the workspace yet).
fn k8s_openapi_src(root: &Path) -> Result<PathBuf> {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let json = String::from_utf8_lossy(&output.stdout);
    // Find `"manifest_path":"…/k8s-openapi-<v>/Cargo.toml"` without a JSON parser.
    let manifest = json
        .split("\"manifest_path\":\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .find(|p| {
            Path::new(p)
                .parent()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("k8s-openapi-"))
        })
        .ok_or("cargo metadata lists no k8s-openapi package")?;
    let dir = Path::new(manifest)
        .parent()
        .ok_or("k8s-openapi manifest has no directory")?;
    Ok(dir.join("src").join(VERSION_MODULE))
}

fn generate(src: &Path) -> Result<String> {
    let mut structs = BTreeMap::new();
    let mut files = Vec::new();
    collect_files(src, &mut files)?;
    for file in files {
        let rel = file
            .strip_prefix(src)
            .map_err(|e| e.to_string())?
            .with_extension("");
        let module: Vec<String> = rel
            .parent()
            .into_iter()
            .flat_map(|p| p.components())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        if let Some((name, parsed)) = parse_struct(&text) {
            let mut path = module.clone();
            path.push(name);
            structs.insert(path.join("::"), parsed);
        }
    }

    let mut reached = BTreeSet::new();
    let mut queue: VecDeque<String> = ROOTS.iter().map(|s| s.to_string()).collect();
    while let Some(path) = queue.pop_front() {
        if LEAVES.contains(&path.as_str()) || !reached.insert(path.clone()) {
            continue;
        }
        let s = structs
            .get(&path)
            .ok_or_else(|| format!("k8s-openapi has no struct {path} with named fields"))?;
        queue.extend(s.refs.iter().cloned());
    }

    let mut out = String::from(
        "// @generated by `cargo xtask codec` from the k8s-openapi sources (v1_37). Do not edit.\n\n\
         /// Calls `$resource!` for every served kind and `$plain!` for every struct they reach, with\n\
         /// the Rust type, its Go name (plain structs) and `index rust_field \"jsonName\"` for each\n\
         /// field, in the order the type's own deserializer lists them (`apiVersion` and `kind` are\n\
         /// 0 and 1 of a resource).\n\
         #[macro_export]\n\
         macro_rules! k8s_types {\n    ($resource:ident, $plain:ident) => {\n",
    );
    for path in &reached {
        let s = &structs[path];
        let (mac, first, go) = if s.resource {
            ("$resource", 2, String::new())
        } else {
            ("$plain", 0, format!(", {:?}", s.go))
        };
        out.push_str(&format!("        {mac}! {{ k8s_openapi::{path}{go} {{\n"));
        for (i, f) in s.fields.iter().enumerate() {
            out.push_str(&format!(
                "            {} {} {:?},\n",
                i + first,
                f.rust,
                f.json
            ));
        }
        out.push_str("        }}\n");
    }
    out.push_str("    };\n}\n");
    Ok(out)
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "mod.rs")
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The struct with named fields a generated file defines, if it defines one.
fn parse_struct(text: &str) -> Option<(String, Struct)> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("pub struct ") && l.ends_with(" {"))?;
    let name = lines[start]
        .trim_start_matches("pub struct ")
        .trim_end_matches(" {")
        .to_string();
    let mut rust_fields = Vec::new();
    let mut refs = Vec::new();
    for line in &lines[start + 1..] {
        let line = line.trim();
        if line == "}" {
            break;
        }
        let Some(decl) = line.strip_prefix("pub ") else {
            continue;
        };
        let (field, ty) = decl.split_once(": ")?;
        rust_fields.push(field.to_string());
        collect_refs(ty, &mut refs);
    }

    // `"containerPort" => Field::Key_container_port,` in the field identifier visitor: the Rust
    // field of each JSON name.
    let mut rust_of = BTreeMap::new();
    for line in &lines {
        let line = line.trim();
        if let Some((json, rest)) = line.split_once("\" => Field::Key_") {
            rust_of.insert(json.trim_start_matches('"'), rest.trim_end_matches(','));
        }
    }
    // A kind with a fixed `apiVersion`/`kind` (not a type that merely has such fields).
    let resource = text.contains(&format!("impl crate::Resource for {name} {{"));

    // The deserializer's field list: `deserialize_struct(\n "Name",\n &[\n "a",\n ... ],`.
    let ds = lines
        .iter()
        .position(|l| l.trim() == "deserializer.deserialize_struct(")?;
    let go_line = lines.get(ds + 1)?.trim().trim_end_matches(',');
    let go = if resource {
        name.clone()
    } else {
        go_line.trim_matches('"').to_string()
    };
    let mut order = Vec::new();
    for line in &lines[ds + 3..] {
        let line = line.trim();
        if line.starts_with(']') {
            break;
        }
        order.push(line.trim_end_matches(',').trim_matches('"').to_string());
    }

    let mut fields = Vec::new();
    for json in &order {
        if resource && (json == "apiVersion" || json == "kind") {
            continue;
        }
        let rust = rust_of.get(json.as_str())?.to_string();
        if !rust_fields.contains(&rust) {
            return None;
        }
        fields.push(Field {
            rust,
            json: json.clone(),
        });
    }
    Some((
        name,
        Struct {
            go,
            resource,
            fields,
            refs,
        },
    ))
}

/// `crate::api::core::v1::Container` → `api::core::v1::Container`, for every path in `ty`.
fn collect_refs(ty: &str, out: &mut Vec<String>) {
    for part in ty.split("crate::").skip(1) {
        let path: String = part
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        if path.starts_with("serde_json") || path.starts_with("jiff") {
            continue;
        }
        out.push(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_paths_are_read_from_types() {
        let mut refs = Vec::new();
        collect_refs(
            "Option<std::collections::BTreeMap<std::string::String, crate::api::core::v1::Container>>,",
            &mut refs,
        );
        collect_refs("Option<crate::ByteString>,", &mut refs);
        assert_eq!(refs, ["api::core::v1::Container", "ByteString"]);
    }
}
