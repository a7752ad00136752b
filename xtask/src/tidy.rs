//! `cargo xtask tidy`: repository conventions that rustc and clippy do not
//! check. Today: every tracked `.rs` file opens with a `//!` doc saying what
//! it owns.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// Runs every tidy check under `root`.
pub(crate) fn run(root: &Path) -> Result<()> {
    let mut files = Vec::new();
    for top in ["crates", "bins", "xtask"] {
        collect_rs(&root.join(top), &mut files);
    }
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| !opens_with_module_doc(&std::fs::read_to_string(f).unwrap_or_default()))
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    if offenders.is_empty() {
        println!("tidy: {} .rs files, all open with a //! doc", files.len());
        Ok(())
    } else {
        bail!(
            "tidy: these .rs files do not open with a `//!` doc saying what they own:\n  {}",
            offenders.join("\n  ")
        )
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// True when the first non-blank line is a `//!` doc (inner attributes such
/// as `#![...]` may not precede it: the doc says what the file is first).
fn opens_with_module_doc(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with("//!"))
}

#[cfg(test)]
mod tests {
    use super::opens_with_module_doc;

    #[test]
    fn module_doc_detection() {
        assert!(opens_with_module_doc("\n//! Owns X.\nfn main() {}"));
        assert!(!opens_with_module_doc("/// item doc\nfn main() {}"));
        assert!(!opens_with_module_doc("use std::io;\n//! late"));
        assert!(!opens_with_module_doc(""));
    }
}
