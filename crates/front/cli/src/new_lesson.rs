//! `dsplay new lesson NAME|PATH.yaml`: writes a commented example lesson that `dsplay test`
//! passes, named after NAME, without ever overwriting a file.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::{emit, CliError, Verdict};

/// The example, with `{{name}}` where the lesson's id goes.
const TEMPLATE: &str = include_str!("lesson_template.yaml");

/// Where lessons live when only a name is given.
const LESSONS_DIR: &str = "lessons";

/// A lesson id: a DNS-1123 label, since it names the file and the page's `?lesson=`.
fn check_name(name: &str) -> Result<(), CliError> {
    let hint = "use lower-case letters, digits and '-', starting and ending with a letter or digit, e.g. `taints-101`";
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    if name.is_empty() {
        return Err(CliError::new("the lesson name is empty").hint(hint));
    }
    if name.len() > 63 {
        return Err(CliError::new(format!(
            "the lesson name {name:?} is {} characters long; at most 63",
            name.len()
        ))
        .hint(hint));
    }
    if let Some(c) = name.chars().find(|c| !alnum(*c) && *c != '-') {
        return Err(CliError::new(format!("the lesson name {name:?} contains {c:?}")).hint(hint));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err(
            CliError::new(format!("the lesson name {name:?} starts or ends with '-'")).hint(hint),
        );
    }
    Ok(())
}

/// The file to write and the lesson's name for an argument.
fn target(arg: &str) -> Result<(PathBuf, String), CliError> {
    if arg.ends_with(".yaml") {
        let path = PathBuf::from(arg);
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        check_name(&name)?;
        Ok((path, name))
    } else {
        check_name(arg)?;
        Ok((
            Path::new(LESSONS_DIR).join(format!("{arg}.yaml")),
            arg.into(),
        ))
    }
}

/// `dsplay new lesson NAME|PATH.yaml`
pub fn new_lesson(arg: &str) -> Result<Verdict, CliError> {
    let (path, name) = target(arg)?;
    let shown = path.display().to_string();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError::new(format!("cannot create {}: {e}", dir.display()))
                .hint("check the directory's permissions")
        })?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                CliError::new(format!("{shown} already exists; not overwriting it"))
                    .hint("pick another name, or move the existing file away first")
            }
            _ => CliError::new(format!("cannot create {shown}: {e}"))
                .hint("check that the directory is writable"),
        })?;
    file.write_all(TEMPLATE.replace("{{name}}", &name).as_bytes())
        .map_err(|e| CliError::new(format!("cannot write {shown}: {e}")).hint("check the disk"))?;
    emit(&format!(
        "wrote {shown}\nnext: edit it, then `dsplay test {shown}`; the format is in docs/lessons.md\n"
    ));
    Ok(Verdict::Ok)
}
