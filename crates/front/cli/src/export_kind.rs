//! `dsplay export kind FILE [--out DIR] [--nodes NODES.yaml]`: writes (or prints) what
//! `scenario::export::kind_bundle` makes of a scenario: `kind-config.yaml`, the manifests and
//! `replay.sh`. The export itself lives in the scenario crate, so the web app offers the same.

use std::fmt::Write as _;
use std::path::Path;

use scenario::export::kind_bundle;

use crate::commands::{load_with_nodes, NodesArg};
use crate::{emit, CliError, Verdict};

/// `dsplay export kind FILE [--out DIR] [--nodes NODES.yaml]`
pub fn export(file: &str, out: Option<&str>, nodes: &NodesArg) -> Result<Verdict, CliError> {
    let s = load_with_nodes(file, nodes)?;
    let files = kind_bundle(&s, &format!("`dsplay export kind {file}`"))?;
    let Some(dir) = out else {
        let mut text = String::new();
        for (i, f) in files.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            let _ = writeln!(text, "==> {} <==", f.name);
            text.push_str(&f.contents);
        }
        emit(&text);
        return Ok(Verdict::Ok);
    };
    let dir = Path::new(dir);
    let io_error = |what: &Path, e: std::io::Error| {
        CliError::new(format!("cannot write {}: {e}", what.display()))
            .hint("check that --out names a directory you can write to")
    };
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let mut report = String::new();
    for f in &files {
        let path = dir.join(&f.name);
        std::fs::write(&path, &f.contents).map_err(|e| io_error(&path, e))?;
        #[cfg(unix)]
        if f.executable {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| io_error(&path, e))?;
        }
        let _ = writeln!(report, "wrote {}", path.display());
    }
    emit(&report);
    Ok(Verdict::Ok)
}
