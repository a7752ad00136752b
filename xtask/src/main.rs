//! Project automation, reached as `cargo xtask <task>` through the alias in
//! `.cargo/config.toml` (the rust-analyzer pattern: no make, no shell scripts
//! beyond `.ci/run`).
//!
//! Tasks: `ci` runs exactly what `.ci/run` runs; `tidy` checks repository
//! conventions (every `.rs` file opens with a `//!` doc); `bench` runs every
//! benchmark in release mode; `repro` reproduces a paper's figures; `eval`
//! runs the real-corpus evaluation; `defaults` compares the default crawl
//! with the ones it replaced on the websim; `flow` compares batches with
//! the stream on a websim with and without latency, and (`--polite`) where
//! every host asks for the real web's interval; `scale` measures a long crawl and its
//! resume after SIGKILL. It owns no crawler
//! logic and no library may depend on it.

mod bench;
mod defaults;
mod flow;
mod flow_polite;
mod scale;
mod tidy;
mod watch;

use std::process::Command;

use anyhow::{bail, Context, Result};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().map(String::as_str);
    // `repro` and `eval` hand their flags to `focus-repro`, whose own help
    // is the fuller one; every other task answers `-h` / `--help` here.
    if asks_for_help(&args) {
        println!("{USAGE}");
        return Ok(());
    }
    match task {
        Some("ci") => ci(),
        Some("tidy") => tidy::run(&project_root()),
        Some("repro") => repro(&args[1..]),
        Some("eval") => eval(&args[1..]),
        Some("bench") => bench::run(&project_root(), &args[1..]),
        Some("scale") => scale::run(&project_root(), &args[1..]),
        Some("defaults") => defaults::run(&project_root(), &args[1..]),
        Some("flow") => flow::run(&project_root(), &args[1..]),
        Some(other) => bail!("unknown task `{other}`\n\n{USAGE}"),
        None => {
            println!("{USAGE}");
            Ok(())
        }
    }
}

/// Whether `args` (the task first) ask for the usage text rather than a task
/// run: `help`, or `-h` / `--help` anywhere but after `repro` or `eval`.
fn asks_for_help(args: &[String]) -> bool {
    match args.first().map(String::as_str) {
        Some("help" | "-h" | "--help") => true,
        Some("repro" | "eval") => false,
        _ => args.iter().any(|a| a == "-h" || a == "--help"),
    }
}

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  ci     cargo fmt --check, cargo clippy -D warnings, cargo xtask tidy,
         cargo doc --no-deps (warnings denied), cargo test --workspace
  tidy   repository conventions (every .rs file opens with a //! doc)
  repro chakrabarti [--pages N] [--seed S]
         the 1999 papers' figures on the websim -> docs/results/
  repro bergmark [--pages N] [--seed S] [--corpus PATH]
         collection synthesis: 20- vs 40-term centroids, precision
         against rank, original vs re-estimated idf, on the websim and
         the replayed corpus -> docs/results/bergmark.md (about 2 min)
  repro diligenti [--pages N] [--seed S] [--corpus PATH]
         context-focused crawling: breadth-first, standard focused and
         context focused on a hidden and a cooperative topic, on the
         websim and the replayed corpus -> docs/results/diligenti.md
  repro bingo [--pages N] [--seed S] [--corpus PATH]
         BINGO!: portal generation from 3 bookmarks (crawl summary,
         archetypes, top authorities found after N (default 1,000) and 4N
         pages, precision of the most confident results) and expert search
         for a needle topic from 7 training pages (and every small leaf of
         the corpus as a needle), beside breadth-first, on the websim and
         the replayed corpus -> docs/results/bingo.md (about 5 min)
  eval wikispeedia [--corpus PATH] [--eval-pages N] [--seed S] [--no-reference]
         every crawler on the replayed Wikispeedia corpus (default
         ../shared/corpora/wikispeedia) -> docs/results/wikispeedia.md,
         and the classifiers on the same split -> wikispeedia-classify.md
  eval wikispeedia --splits 1,2,3,4,5
         the default, the scikit-learn reference and the oracle on each
         training split, paired over the splits ->
         docs/results/wikispeedia-splits.md (about 6 min a split; needs
         scikit-learn)
  eval corpus --corpus PATH [--categories A,B,...] [the flags above]
         the same evaluation on any labelled corpus (a labelled folder,
         docs/websim.md), on its ten largest leaf categories unless named
         -> docs/results/<corpus>.md, <corpus>-classify.md
  bench --release [--full]
         the crates' benchmarks in release mode (criterion benches with a
         short window, frontier sizes 10^4 and 10^6, classifier accuracy);
         `--full` uses criterion's defaults and adds 10^7 queued URLs
  bench --release --peers [--site-pages N] [--concurrency N] [--runs N]
        [--focus-pages N] [--scale-pages N]
         the report docs/bench/<date>.md: focus-soft against the spider
         crate and wrk's ceiling on nginx serving a 10,000-page static
         site, the cost of focus, a 10^6-page crawl, the component table,
         and every command (about an hour; needs nginx, wrk, GNU time)
  defaults
         the default focus-soft crawl beside the configurations it
         replaced and beside --dispatch fill, on websim webs 1-3 with and
         without dead links and on the cycling and mutual funds leaves
         -> docs/results/websim-defaults.md (four crawls at a time,
         about 30 min, most of it the held crawls' waits on the hosts
         with their best URLs)
  flow [--runs N] [--pages N]
         the default focus-soft crawl in batches and as a stream (--flow
         stream) on the websim at loopback speed and answering after a
         median latency of 100 and 300 ms (--websim-latency), N runs each
         (default 3, 5,000 pages) -> docs/results/flow.md (about 50 min,
         most of it the batches' waits on their slowest answers)
  flow --polite [--seeds N] [--pages N]
         both flows where every host takes one request a second and
         answers after a median 100 ms, on websim seeds 1..=N (default 3,
         2,000 pages; a seed's two crawls side by side): pages/s, harvest,
         the gap between fetches of a host, hosts fetched at a time
         -> docs/results/flow-polite.md (about 30 min)
  scale [--pages N] [--web N] [--frontier-memory N] [--kill-at N]
        [--compare-default]
         a long focus-soft --dispatch fill crawl of the million-page
         websim (200,000 pages, hot tier 10,000 URLs), straight, and
         killed at 100,000 then resumed: memory against the documented
         bound, throughput and true harvest, the resumed output ->
         docs/results/scale.md (about 15 minutes); --compare-default adds
         the same crawl with the default dispatch beside it (hours: it
         waits on the hosts with its best URLs, docs/crawl.md)";

/// The steps of CI, in order; `.ci/run` runs `cargo xtask ci`, so the two
/// cannot drift apart.
const CI_STEPS: &[&[&str]] = &[
    &["fmt", "--all", "--check"],
    &[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ],
    &["doc", "--workspace", "--no-deps"],
    &["test", "--workspace"],
];

fn ci() -> Result<()> {
    let root = project_root();
    for step in CI_STEPS {
        run_cargo(&root, step)?;
        if step[0] == "clippy" {
            println!("$ cargo xtask tidy");
            tidy::run(&root)?;
        }
    }
    Ok(())
}

/// `cargo xtask repro <paper> [flags]`: the experiments run in a release
/// build of `focus-repro`, which writes `docs/results/` (or `--out`).
fn repro(args: &[String]) -> Result<()> {
    let root = project_root();
    let cargo = focus_repro_command(args, "target/repro");
    run_cargo(&root, &cargo)
}

/// `cargo xtask eval wikispeedia|corpus [flags]`: the real-corpus
/// evaluation in a release build of `focus-repro`, which writes
/// `docs/results/` (or `--out`). `cargo xtask eval --help` is focus-repro's
/// help, as for `repro`.
fn eval(args: &[String]) -> Result<()> {
    let root = project_root();
    if !eval_args_are_runnable(args) {
        bail!("usage: cargo xtask eval wikispeedia|corpus [flags]\n\n{USAGE}");
    }
    let cargo = focus_repro_command(args, "target/eval");
    run_cargo(&root, &cargo)
}

/// Whether `eval`'s arguments name a real-corpus evaluation or ask
/// focus-repro for its help; anything else (a paper's name, nothing) is a
/// usage error here, not a websim reproduction under the wrong task.
fn eval_args_are_runnable(args: &[String]) -> bool {
    matches!(
        args.first().map(String::as_str),
        Some("wikispeedia" | "corpus" | "-h" | "--help")
    )
}

/// `cargo run` of `focus-repro` with the user's flags, writing to
/// `docs/results` and working in `work` unless the flags say where
/// (`focus-repro` refuses a flag given twice).
fn focus_repro_command<'a>(args: &'a [String], work: &'a str) -> Vec<&'a str> {
    let mut cargo = vec!["run", "--release", "-p", "focus-repro", "--"];
    cargo.extend(args.iter().map(String::as_str));
    for (flag, default) in [("--out", "docs/results"), ("--work", work)] {
        let given = args
            .iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")));
        if !given {
            cargo.extend([flag, default]);
        }
    }
    cargo
}

fn run_cargo(root: &std::path::Path, args: &[&str]) -> Result<()> {
    println!("$ cargo {}", args.join(" "));
    let mut cmd = Command::new(cargo_program());
    if args.first() == Some(&"doc") {
        // Every public item's rustdoc must build without a warning (broken
        // links included): the crates are libraries for other crawlers.
        cmd.env("RUSTDOCFLAGS", "-D warnings");
    }
    let status = cmd
        .args(args)
        .current_dir(root)
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("`cargo {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// `root`'s `target/<name>`, emptied (a run's scratch folder: what an
/// earlier run left there must not mix with this one's outputs).
fn fresh_work_dir(root: &std::path::Path, name: &str) -> Result<std::path::PathBuf> {
    let work = root.join("target").join(name);
    if work.exists() {
        std::fs::remove_dir_all(&work).with_context(|| work.display().to_string())?;
    }
    std::fs::create_dir_all(&work).with_context(|| work.display().to_string())?;
    Ok(work)
}

/// The checkout a report measures (`git describe --always --dirty`, read
/// before the build), so a report that outlives the code it measured says
/// which code that was; `?` outside a git checkout.
fn commit(root: &std::path::Path) -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "?".to_owned())
}

/// The cargo that runs xtask (`$CARGO`), or `cargo` on the `PATH`.
fn cargo_program() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// The workspace root: the parent of xtask's manifest directory, read from
/// the `CARGO_MANIFEST_DIR` that `cargo run` sets, and only failing that
/// from the one compiled in (cargo's fingerprints do not depend on where a
/// checkout lies, so a target directory shared by two checkouts can hold an
/// xtask compiled in the other one).
fn project_root() -> std::path::PathBuf {
    let manifest = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into()),
    );
    manifest
        .parent()
        .map_or(manifest.clone(), std::path::Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::{asks_for_help, eval_args_are_runnable, focus_repro_command};

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn help_is_answered_here_except_where_focus_repro_answers_it() {
        for a in [
            &["help"][..],
            &["--help"],
            &["-h"],
            &["bench", "--help"],
            &["bench", "--release", "-h"],
            &["defaults", "--help"],
            &["flow", "--help"],
            &["scale", "--help"],
        ] {
            assert!(asks_for_help(&args(a)), "{a:?}");
        }
        for a in [
            &[][..],
            &["bench", "--release"],
            &["repro", "bingo", "--help"],
            &["eval", "--help"],
            &["tidy"],
        ] {
            assert!(!asks_for_help(&args(a)), "{a:?}");
        }
    }

    #[test]
    fn eval_runs_a_corpus_or_forwards_help_and_refuses_the_rest() {
        for a in [
            &["wikispeedia"][..],
            &["corpus", "--corpus", "x"],
            &["--help"],
            &["-h"],
        ] {
            assert!(eval_args_are_runnable(&args(a)), "{a:?}");
        }
        for a in [&[][..], &["bingo"], &["--pages", "10"]] {
            assert!(!eval_args_are_runnable(&args(a)), "{a:?}");
        }
    }

    #[test]
    fn the_users_out_and_work_replace_the_defaults_instead_of_repeating_them() {
        let after_dashes = |a: &[&str], work: &str| {
            let a = args(a);
            let cmd = focus_repro_command(&a, work);
            let at = cmd.iter().position(|s| *s == "--").map_or(0, |i| i + 1);
            cmd[at..]
                .iter()
                .map(|s| (*s).to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            after_dashes(&["wikispeedia", "--splits", "1"], "target/eval"),
            args(&[
                "wikispeedia",
                "--splits",
                "1",
                "--out",
                "docs/results",
                "--work",
                "target/eval"
            ])
        );
        assert_eq!(
            after_dashes(&["wikispeedia", "--out", "x", "--work=y"], "target/eval"),
            args(&["wikispeedia", "--out", "x", "--work=y"])
        );
        assert_eq!(
            after_dashes(&["bingo", "--work", "w"], "target/repro"),
            args(&["bingo", "--work", "w", "--out", "docs/results"])
        );
    }
}
