//! The optional scikit-learn reference crawler of the evaluation
//! (`xtask/reference/crawl_sklearn.py`: soft focus with a logistic
//! regression on TF-IDF, no distiller), run as a child process against the
//! same corpus served on loopback. Never part of CI.

use std::path::Path;
use std::sync::Arc;

use focus_websim::{Corpus, Site};

use super::crawls::{input, read_fetched, EvalConfig, Reference};
use focus_app::AppError;

/// Whether `python` can import scikit-learn.
pub fn available(python: &str) -> bool {
    std::process::Command::new(python)
        .args(["-c", "import sklearn"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Crawls `category` with the reference; returns what each of its fetch
/// attempts fetched.
pub(super) async fn crawl(
    cfg: &EvalConfig,
    reference: &Reference,
    category: &str,
    examples: &Path,
    seeds: &Path,
    dir: &Path,
) -> Result<Vec<Option<String>>, AppError> {
    let corpus: Arc<dyn Site> = Arc::new(Corpus::load(&cfg.corpus).map_err(input)?);
    let addr = "127.0.0.1:0".parse().map_err(input)?;
    let server = focus_websim::serve(corpus, addr).await.map_err(input)?;
    let out = dir.join("pages.jsonl");
    let mut cmd = std::process::Command::new(&reference.python);
    cmd.arg(&reference.script)
        .arg("--connect")
        .arg(server.addr().to_string())
        .arg("--examples")
        .arg(examples)
        .arg("--good")
        .arg(category)
        .arg("--seeds")
        .arg(seeds)
        .arg("--max-pages")
        .arg(cfg.pages.to_string())
        .arg("--out")
        .arg(&out)
        .arg("--seed")
        .arg(cfg.seed.to_string());
    let status = tokio::task::spawn_blocking(move || cmd.status())
        .await
        .map_err(input)?;
    server.shutdown().await;
    match status {
        Ok(s) if s.success() => read_fetched(&out),
        Ok(s) => Err(input(format!("reference crawler on {category}: {s}"))),
        Err(e) => Err(input(format!("reference crawler: {e}"))),
    }
}
