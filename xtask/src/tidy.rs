//! `cargo xtask tidy`: repository conventions that rustc and clippy do not
//! check: every tracked `.rs` file opens with a `//!` doc saying what it
//! owns, the dependency rules of `docs/ARCHITECTURE.md`'s *Architecture
//! Invariant* lines hold in `cargo metadata` (see [`RULES`]), and the crawl
//! engine's stages stay stages (see [`STAGES`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// Runs every tidy check under `root`.
pub(crate) fn run(root: &Path) -> Result<()> {
    docs(root)?;
    dependencies(root)?;
    stages(root)
}

/// The engine's stage files: none may import the engine back, and the ones
/// that decide what to fetch (`blind`) may not name the ground truth at all,
/// so a policy cannot reach it even by a type it could be handed.
struct Stages {
    dir: &'static str,
    engine: &'static str,
    blind: &'static [&'static str],
}

const STAGES: &[Stages] = &[
    Stages {
        dir: "crates/focus-crawl/src",
        engine: "engine",
        blind: &[
            "policy.rs",
            "chakrabarti.rs",
            "baselines.rs",
            "bingo.rs",
            "collections.rs",
            "context_graph.rs",
            "judge.rs",
            "pipeline.rs",
            "dispatch.rs",
            "link_value.rs",
            "host_health.rs",
            "apprentice.rs",
            "siblings.rs",
            "rescore.rs",
            "stagnation.rs",
            "stream.rs",
            "loop_steps.rs",
        ],
    },
    Stages {
        dir: "crates/focus-frontier/src",
        engine: "",
        blind: &["*"],
    },
];

fn stages(root: &Path) -> Result<()> {
    let mut offences = Vec::new();
    let mut checked = 0;
    for rule in STAGES {
        let mut files = Vec::new();
        collect_rs(&root.join(rule.dir), &mut files);
        for file in files {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&file)?;
            let shown = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string();
            checked += 1;
            offences.extend(
                stage_offences(rule, &name, &text)
                    .into_iter()
                    .map(|o| format!("{shown}: {o}")),
            );
        }
    }
    if offences.is_empty() {
        println!("tidy: {checked} engine-stage files import no engine and the deciding ones never name the truth");
        Ok(())
    } else {
        bail!("tidy: engine stages broken:\n  {}", offences.join("\n  "))
    }
}

fn stage_offences(rule: &Stages, name: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let stem = name.trim_end_matches(".rs");
    if !rule.engine.is_empty() && stem != rule.engine && stem != "lib" {
        for pattern in ["crate::", "super::"] {
            let import = format!("{pattern}{}", rule.engine);
            if text.contains(&import) {
                out.push(format!("imports the engine back (`{import}`)"));
            }
        }
    }
    let blind = rule.blind.iter().any(|b| *b == "*" || *b == name);
    if blind && text.to_lowercase().contains("truth") {
        out.push("decides what to fetch, yet names the truth".to_owned());
    }
    out
}

/// A dependency rule: `dependency` may be a normal (or build) dependency
/// only of the packages in `allowed` (and of the binaries, the packages
/// under `bins/`, when `binaries_ok`); everyone else may have it at most as a dev-dependency
/// (`dev_ok`) or not at all.
struct Rule {
    dependency: &'static str,
    allowed: &'static [&'static str],
    binaries_ok: bool,
    dev_ok: bool,
    why: &'static str,
}

/// The architecture's dependency invariants.
const RULES: &[Rule] = &[
    Rule {
        dependency: "sled",
        allowed: &["focus-store"],
        binaries_ok: false,
        dev_ok: false,
        why: "only focus-store names sled (it is stale; it must stay replaceable in one crate)",
    },
    Rule {
        dependency: "bincode",
        allowed: &["focus-store", "focus-classify"],
        binaries_ok: false,
        dev_ok: false,
        why: "bincode is called in the two codec modules only",
    },
    Rule {
        dependency: "focus-websim",
        allowed: &["focus-app", "focus-experiments", "websim", "xtask"],
        binaries_ok: false,
        dev_ok: true,
        why: "ground truth is for evaluation only: no crawler crate may depend on the \
              websim or a replayed corpus outside its dev-dependencies",
    },
    Rule {
        dependency: "focus-app",
        allowed: &["focus-experiments", "xtask"],
        binaries_ok: true,
        dev_ok: false,
        why: "focus-app is composition for the binaries; no library may depend on it",
    },
    Rule {
        dependency: "tantivy",
        allowed: &["focus-search"],
        binaries_ok: false,
        dev_ok: false,
        why: "the full-text index stays behind focus-search's API",
    },
    Rule {
        dependency: "focus-experiments",
        allowed: &["focus-repro"],
        binaries_ok: false,
        dev_ok: false,
        why: "the experiments are run by focus-repro; no library may depend on them",
    },
    Rule {
        dependency: "tikv-jemallocator",
        allowed: &[],
        binaries_ok: true,
        dev_ok: false,
        why: "the allocator is the binaries' choice: a library that sets one imposes it on \
              every crawler that links it",
    },
    Rule {
        dependency: "xtask",
        allowed: &[],
        binaries_ok: false,
        dev_ok: false,
        why: "xtask is automation; nothing depends on it",
    },
];

/// The workspace as the dependency rules see it.
struct Declared {
    /// `(package, dependency, kind)` for every package's declared
    /// dependencies (`kind` is `None` for normal, `Some("dev")`,
    /// `Some("build")`).
    deps: Vec<(String, String, Option<String>)>,
    /// The packages under `bins/`.
    binaries: Vec<String>,
}

/// Reads the workspace's packages and their declared dependencies.
fn declared(root: &Path) -> Result<Declared> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let bins = root.join("bins");
    let mut deps = Vec::new();
    let mut binaries = Vec::new();
    for p in meta["packages"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap_or_default().to_owned();
        let manifest = Path::new(p["manifest_path"].as_str().unwrap_or_default());
        if manifest.starts_with(&bins) {
            binaries.push(name.clone());
        }
        for d in p["dependencies"].as_array().into_iter().flatten() {
            deps.push((
                name.clone(),
                d["name"].as_str().unwrap_or_default().to_owned(),
                d["kind"].as_str().map(str::to_owned),
            ));
        }
    }
    Ok(Declared { deps, binaries })
}

/// The packages that break a rule, as messages; `binaries` are the
/// packages under `bins/`.
fn violations(deps: &[(String, String, Option<String>)], binaries: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (package, dep, kind) in deps {
        for rule in RULES.iter().filter(|r| r.dependency == dep) {
            let dev = kind.as_deref() == Some("dev");
            let binary = rule.binaries_ok && binaries.contains(package);
            if rule.allowed.contains(&package.as_str()) || binary || (dev && rule.dev_ok) {
                continue;
            }
            out.push(format!(
                "{package} depends on {dep}{}: {}",
                if dev { " (dev)" } else { "" },
                rule.why
            ));
        }
    }
    out
}

fn dependencies(root: &Path) -> Result<()> {
    let Declared { deps, binaries } = declared(root)?;
    if binaries.is_empty() {
        bail!("tidy: cargo metadata lists no package under bins/");
    }
    let bad = violations(&deps, &binaries);
    if bad.is_empty() {
        println!(
            "tidy: {} declared dependencies keep the {} architecture rules",
            deps.len(),
            RULES.len()
        );
        Ok(())
    } else {
        bail!(
            "tidy: architecture invariants broken:\n  {}",
            bad.join("\n  ")
        )
    }
}

fn docs(root: &Path) -> Result<()> {
    let mut files = Vec::new();
    for top in ["crates", "bins", "examples", "xtask"] {
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
    use super::{opens_with_module_doc, stage_offences, violations, STAGES};

    fn dep(p: &str, d: &str, kind: Option<&str>) -> (String, String, Option<String>) {
        (p.into(), d.into(), kind.map(Into::into))
    }

    #[test]
    fn dependency_rules() {
        let binaries = ["focus-soft".to_owned(), "websim".to_owned()];
        assert!(violations(
            &[
                dep("focus-store", "sled", None),
                dep("focus-crawl", "focus-websim", Some("dev")),
                dep("focus-app", "focus-websim", None),
                dep("focus-soft", "focus-app", None),
                dep("websim", "tikv-jemallocator", None),
            ],
            &binaries
        )
        .is_empty());
        let bad = violations(
            &[
                dep("focus-crawl", "sled", None),
                dep("focus-crawl", "focus-websim", None),
                dep("focus-classify", "focus-app", Some("dev")),
                dep("focus-fetch", "tikv-jemallocator", None),
            ],
            &binaries,
        );
        assert_eq!(bad.len(), 4, "{bad:?}");
        assert!(bad[1].contains("ground truth"));
        assert!(bad[3].contains("allocator"));
    }

    #[test]
    fn stage_rules() {
        let crawl = &STAGES[0];
        assert!(stage_offences(crawl, "apply.rs", "use crate::scorer::Truth;").is_empty());
        assert!(stage_offences(crawl, "engine.rs", "use crate::engine::x;").is_empty());
        assert_eq!(
            stage_offences(crawl, "apply.rs", "use crate::engine::Run;").len(),
            1
        );
        assert_eq!(
            stage_offences(crawl, "policy.rs", "fn f(t: &Truth) {}").len(),
            1
        );
        assert_eq!(
            stage_offences(&STAGES[1], "heap.rs", "// the truth").len(),
            1
        );
    }

    #[test]
    fn module_doc_detection() {
        assert!(opens_with_module_doc("\n//! Owns X.\nfn main() {}"));
        assert!(!opens_with_module_doc("/// item doc\nfn main() {}"));
        assert!(!opens_with_module_doc("use std::io;\n//! late"));
        assert!(!opens_with_module_doc(""));
    }
}
