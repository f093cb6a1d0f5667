//! Writing an export into its folder: `DIR/tools/…`, so that `DIR` is a project a SPEC server
//! (or `careem-mcp --project DIR`) serves. An empty or new `DIR` only, unless forced; forced,
//! `DIR/tools` is replaced whole and nothing else in `DIR` is touched. The new folder is
//! written beside the old one and renamed into place, so a failed export leaves the old one.

use std::path::{Path, PathBuf};

use super::{ExportError, SpecExport};

/// Writes `export` into `dir` and returns the tools folder written. `tools` is the folder
/// exported, which `dir` may neither hold nor be inside of.
pub fn write(
    export: &SpecExport,
    dir: &Path,
    tools: &Path,
    force: bool,
) -> Result<PathBuf, ExportError> {
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExportError::Write { path, source }
    };
    if dir.exists() && !dir.is_dir() {
        return Err(ExportError::NotAFolder(dir.to_path_buf()));
    }
    let (here, source) = (resolved(dir)?, resolved(tools)?);
    if here.starts_with(&source) || source.starts_with(&here) {
        return Err(ExportError::Overlaps {
            dir: dir.to_path_buf(),
            tools: tools.to_path_buf(),
        });
    }
    std::fs::create_dir_all(dir).map_err(failed(dir))?;
    let occupied = std::fs::read_dir(dir)
        .map_err(failed(dir))?
        .next()
        .is_some();
    if occupied && !force {
        return Err(ExportError::NotEmpty(dir.to_path_buf()));
    }
    let target = dir.join("tools");
    let fresh = dir.join(format!(".tools.export-{}", std::process::id()));
    let written = write_files(export, &fresh);
    if let Err(error) = written {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(error);
    }
    let old = dir.join(format!(".tools.replaced-{}", std::process::id()));
    if target.exists() {
        std::fs::rename(&target, &old).map_err(failed(&target))?;
    }
    std::fs::rename(&fresh, &target).map_err(failed(&target))?;
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(failed(&old))?;
    }
    Ok(target)
}

fn write_files(export: &SpecExport, into: &Path) -> Result<(), ExportError> {
    std::fs::create_dir(into).map_err(|source| ExportError::Write {
        path: into.to_path_buf(),
        source,
    })?;
    for file in &export.files {
        let path = into.join(&file.relative);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &file.text));
        written.map_err(|source| ExportError::Write { path, source })?;
    }
    Ok(())
}

/// `path` with its links and `..` resolved, as far as it exists; the rest as written.
fn resolved(path: &Path) -> Result<PathBuf, ExportError> {
    let absolute = std::path::absolute(path).map_err(|source| ExportError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        let Some((parent, name)) = existing.parent().zip(existing.file_name()) else {
            break;
        };
        rest.push(name.to_os_string());
        existing = parent;
    }
    let mut found = existing
        .canonicalize()
        .map_err(|source| ExportError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    found.extend(rest.iter().rev());
    Ok(found)
}
