//! `focus-repro`: runs a paper's experiments on the embedded websim, or the
//! real-corpus evaluation, and writes SVGs and a markdown report
//! (`cargo xtask repro chakrabarti` and `cargo xtask eval wikispeedia` call
//! it with `--release`). No logic here: the experiments live in
//! `focus_experiments` (`repro`, `bergmark`, `diligenti`, `bingo`, `eval`).

use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};

/// jemalloc: with glibc malloc a long crawl spent a third more CPU
/// (`docs/crawl.md`, "Memory allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// The papers whose experiments can be reproduced, and the evaluations.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Paper {
    /// Chakrabarti et al. 1999 (WWW8 Figures 3–7 and 9, VLDB Figure 6).
    Chakrabarti,
    /// Bergmark 2002 (Figures 5–9) on the websim and the replayed corpus
    /// (`--corpus`, when it is there).
    Bergmark,
    /// Diligenti et al. 2000 (Figures 4-7) on the websim and the replayed
    /// corpus (`--corpus`, when it is there).
    Diligenti,
    /// BINGO! 2003 (§5.2 portal generation, Tables 1–3; §5.3 expert
    /// search) on the websim and the replayed corpus (`--corpus`, when it
    /// is there).
    Bingo,
    /// Every crawler on the replayed Wikispeedia corpus (`--corpus`).
    Wikispeedia,
    /// The same evaluation on any labelled corpus (`--corpus PATH`: a
    /// Wikispeedia folder or a labelled folder, `docs/websim.md`), on its
    /// largest leaf categories unless `--categories` names them.
    Corpus,
}

impl Paper {
    /// Whether this is the real-corpus evaluation rather than a paper.
    fn is_eval(self) -> bool {
        matches!(self, Paper::Wikispeedia | Paper::Corpus)
    }
}

/// Reproduces a paper's experiments on the websim.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Which paper.
    paper: Paper,
    /// Where the report and SVGs go.
    #[arg(long, default_value = "docs/results")]
    out: PathBuf,
    /// Scratch directory for the crawls' outputs.
    #[arg(long, default_value = "target/repro")]
    work: PathBuf,
    /// Pages per crawl: 5,000 by default; for bingo the short budget,
    /// 1,000 by default (a fifth of the replayed corpus: the expert search
    /// must not crawl the whole web), its portal crawl four times as long.
    #[arg(long)]
    pages: Option<u64>,
    /// Seed of the websim (or the corpus split) and of every crawl.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The corpus folder (wikispeedia).
    #[arg(long, default_value = focus_experiments::eval::crawls::WIKISPEEDIA_DIR)]
    corpus: PathBuf,
    /// The evaluation's categories (comma-separated topic paths of the
    /// corpus); by default Wikispeedia's ten, or another corpus's ten
    /// largest leaf categories with at least 20 labelled pages.
    #[arg(long, value_delimiter = ',')]
    categories: Vec<String>,
    /// Pages per crawl of the corpus evaluation (its largest budget).
    #[arg(long, default_value_t = 1000)]
    eval_pages: usize,
    /// Leave the scikit-learn reference crawler out of the evaluation.
    #[arg(long)]
    no_reference: bool,
    /// `wikispeedia` and `corpus` only: the distiller's period of the
    /// evaluated crawls that distil (soft, hard, BINGO!'s harvest); their
    /// own default, 1,000 pages, when not given (a crawl of the default
    /// budget then distils only at its end).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    distill_every: Option<u64>,
    /// Only these crawlers of the evaluation (comma-separated: soft,
    /// soft-sequential, soft-previous, hard, context, context-standard,
    /// bingo, bingo-paper, bfs, random, reference, oracle, oracle-blind;
    /// `none` for the classifiers only); by default all but
    /// soft-sequential, which runs only when named.
    #[arg(long, value_delimiter = ',')]
    crawlers: Vec<String>,
    /// Leave the classifier evaluation out of `wikispeedia` and `corpus`.
    #[arg(long)]
    no_classify: bool,
    /// `wikispeedia` and `corpus` only: instead of the whole evaluation,
    /// run the default soft crawl, the scikit-learn reference and the oracle on
    /// each of these training splits (comma-separated seeds) and write
    /// `<corpus>-splits.md`: whether the comparison with the reference
    /// holds across splits.
    #[arg(long, value_delimiter = ',', value_name = "SEEDS", conflicts_with_all = ["crawlers", "seed"])]
    splits: Vec<u64>,
    /// With `--splits`: run only the default soft crawl on each split and
    /// pair it, category by category, with the crawls an earlier `--splits`
    /// run saved under this work folder (its `--work`): how a change to the
    /// crawler moves it, without running the reference again. Writes
    /// `<corpus>-against.md` to `--work`.
    #[arg(long, value_name = "DIR", requires = "splits")]
    against: Option<PathBuf>,
    /// Python interpreter for the reference crawler.
    #[arg(long, default_value = "python3")]
    python: String,
    /// The reference crawler's script (relative paths from the current
    /// directory: the default holds when run from the repository's root,
    /// as `cargo xtask eval` does).
    #[arg(
        long,
        default_value = "xtask/reference/crawl_sklearn.py",
        value_name = "PATH"
    )]
    reference_script: PathBuf,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    focus_app::init_logging("warn");
    let cli = Cli::parse();
    // Before any corpus is read, classifier trained or crawl run: a report
    // folder that cannot be written would otherwise fail only at the end.
    refuse_files_on_the_way(&[("--out", &cli.out), ("--work", &cli.work)])?;
    let eval_flags = !cli.splits.is_empty() || !cli.categories.is_empty();
    if eval_flags && !cli.paper.is_eval() {
        anyhow::bail!(
            "--splits and --categories belong to `wikispeedia` and `corpus`, the real-corpus evaluation"
        );
    }
    if cli.paper.is_eval() {
        let crawlers = eval_crawlers(&cli.crawlers)?;
        let reference = if cli.no_reference {
            None
        } else {
            match reference_missing(&cli.python, &cli.reference_script) {
                None => Some(focus_experiments::eval::crawls::Reference {
                    python: cli.python.clone(),
                    script: cli.reference_script.clone(),
                }),
                // Named in --crawlers: the user asked for it, so say why
                // it cannot run instead of leaving it out.
                Some(why)
                    if !cli.crawlers.is_empty()
                        && crawlers
                            .contains(&focus_experiments::eval::crawls::Crawler::Reference) =>
                {
                    anyhow::bail!("--crawlers names the reference, but {why}")
                }
                Some(why) => {
                    eprintln!("{why}: the reference crawler is left out");
                    None
                }
            }
        };
        let categories = if cli.categories.is_empty() {
            focus_experiments::eval::crawls::default_categories_in(&cli.corpus)?
        } else {
            cli.categories.clone()
        };
        let cfg = focus_experiments::eval::crawls::EvalConfig {
            corpus: cli.corpus,
            out: cli.out,
            work: cli.work,
            seed: cli.seed,
            pages: cli.eval_pages,
            reference,
            crawlers,
            categories,
            distill_every: cli.distill_every,
        };
        if let Some(saved) = &cli.against {
            let report = focus_experiments::eval::against(&cfg, &cli.splits, saved).await?;
            println!("{report}");
            println!("written to {}", cfg.work.display());
            return Ok(());
        }
        if !cli.splits.is_empty() {
            let report = focus_experiments::eval::splits(&cfg, &cli.splits).await?;
            println!("{report}");
            println!("written to {}", cfg.out.display());
            return Ok(());
        }
        if !cfg.crawlers.is_empty() {
            let report = focus_experiments::eval::crawl_report(&cfg).await?;
            println!("{report}");
        }
        if !cli.no_classify {
            // The classifiers on the same split (docs/classify.md's real-text tables).
            let classify = focus_experiments::eval::classify::run(
                &cfg.corpus,
                &cfg.out,
                cfg.seed,
                &cfg.categories,
            )?;
            println!("{classify}");
        }
        println!("written to {}", cfg.out.display());
        return Ok(());
    }
    let cfg = focus_experiments::repro::ReproConfig {
        out: cli.out,
        work: cli.work,
        pages: cli.pages.unwrap_or(match cli.paper {
            Paper::Bingo => 1_000,
            _ => 5_000,
        }),
        seed: cli.seed,
        corpus: Some(cli.corpus),
    };
    let report = match cli.paper {
        Paper::Bergmark => focus_experiments::bergmark::bergmark(&cfg).await?,
        Paper::Diligenti => focus_experiments::diligenti::diligenti(&cfg).await?,
        // Boxed: its two crawls' summaries make a future past clippy's
        // large-future bound, kept off main's stack.
        Paper::Bingo => Box::pin(focus_experiments::bingo::bingo(&cfg)).await?,
        Paper::Chakrabarti | Paper::Wikispeedia | Paper::Corpus => {
            focus_experiments::repro::chakrabarti(&cfg).await?
        }
    };
    println!("{report}");
    println!("written to {}", cfg.out.display());
    Ok(())
}

/// Refuses a folder flag whose path is, or lies under, a file, naming the
/// flag and the file.
fn refuse_files_on_the_way(flags: &[(&str, &Path)]) -> anyhow::Result<()> {
    for (flag, path) in flags {
        if let Some(file) = focus_crawl::file_on_the_way(path) {
            anyhow::bail!(
                "{flag} {}: {} is not a folder",
                path.display(),
                file.display()
            );
        }
    }
    Ok(())
}

/// Why the scikit-learn reference crawler cannot run, if it cannot.
fn reference_missing(python: &str, script: &Path) -> Option<String> {
    if !script.is_file() {
        Some(format!(
            "the reference crawler's script `{}` is not there (run from the repository's root, \
             or pass --reference-script)",
            script.display()
        ))
    } else if !focus_experiments::eval::reference::available(python) {
        Some(format!(
            "scikit-learn is not importable by `{python}` (python3 -m pip install scikit-learn)"
        ))
    } else {
        None
    }
}

/// The evaluation's crawlers named by `--crawlers` (all when none is named).
fn eval_crawlers(
    names: &[String],
) -> anyhow::Result<Vec<focus_experiments::eval::crawls::Crawler>> {
    use focus_experiments::eval::crawls::Crawler;
    if names.is_empty() {
        return Ok(Crawler::default_set());
    }
    if names.len() == 1 && names[0].trim() == "none" {
        return Ok(Vec::new());
    }
    names
        .iter()
        .map(|n| {
            Crawler::ALL
                .into_iter()
                .find(|c| c.slug() == n.trim())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--crawlers: unknown crawler `{n}` (soft, soft-sequential, soft-previous, hard, context, context-standard, bingo, bingo-paper, bfs, random, reference, oracle, oracle-blind)"
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_flag_at_or_under_a_file_is_refused_naming_flag_and_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let file = dir.join("notes.txt");
        std::fs::write(&file, "mine").unwrap();
        let under = file.join("work");
        let err = refuse_files_on_the_way(&[("--out", &dir), ("--work", &under)])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("--work "), "{err}");
        assert!(
            err.contains(&format!("{} is not a folder", file.display())),
            "{err}"
        );
        let err = refuse_files_on_the_way(&[("--out", &file)])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("--out "), "{err}");
        // Folders that exist, or do not yet, are fine.
        refuse_files_on_the_way(&[("--out", &dir), ("--work", &dir.join("a/b"))]).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    }

    #[test]
    fn a_missing_script_is_named_before_python_is_asked() {
        let why = reference_missing("python3", Path::new("no/such/crawl_sklearn.py"))
            .expect("a missing script stops the reference");
        assert!(why.contains("no/such/crawl_sklearn.py"), "{why}");
        assert!(why.contains("--reference-script"), "{why}");
    }

    #[test]
    fn an_interpreter_that_cannot_run_is_reported_as_such() {
        // The script exists (this file); the interpreter does not.
        let why = reference_missing(
            "no-such-python-interpreter",
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/main.rs")),
        )
        .expect("an interpreter that cannot start stops the reference");
        assert!(why.contains("no-such-python-interpreter"), "{why}");
        assert!(why.contains("scikit-learn"), "{why}");
    }
}
