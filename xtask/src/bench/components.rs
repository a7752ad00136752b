//! `cargo xtask bench [--full]`: every benchmark of the workspace, built
//! with `--release`, in one run. Criterion benches get a short warm-up and
//! measurement window (pass `--full` for criterion's defaults and the
//! 10^7-URL frontier size). Numbers quoted in `docs/` come from here.

use std::path::Path;

use anyhow::Result;

use crate::run_cargo;

/// `(package, bench target)` of every criterion benchmark.
const CRITERION: &[(&str, &str)] = &[
    ("focus-html", "analyze"),
    ("focus-classify", "classify"),
    ("focus-fetch", "fetch_loopback"),
    ("focus-distill", "hits"),
    ("focus-websim", "render"),
];

pub(crate) fn run(root: &Path, full: bool) -> Result<()> {
    let quick = ["--warm-up-time", "1", "--measurement-time", "3"];
    for (package, bench) in CRITERION {
        let mut args = vec!["bench", "-p", package, "--bench", bench, "--"];
        if !full {
            args.extend(quick);
        }
        run_cargo(root, &args)?;
    }
    let mut sizes = vec!["10000", "1000000"];
    if full {
        sizes.push("10000000");
    }
    let mut args = vec![
        "run",
        "--release",
        "-p",
        "focus-frontier",
        "--example",
        "frontier_bench",
        "--",
    ];
    args.extend(sizes);
    run_cargo(root, &args)?;
    run_cargo(
        root,
        &[
            "run",
            "--release",
            "-p",
            "focus-crawl",
            "--example",
            "classifier_accuracy",
        ],
    )
}
