//! The terminal observer: an indicatif progress bar with the harvest-rate
//! moving average, pages/s and frontier size; notes go to the log; and
//! the log itself ([`init_logging`]).

use focus_crawl::{Observer, Progress};
use indicatif::{ProgressBar, ProgressStyle};

pub(crate) struct Bar(ProgressBar);

impl Bar {
    pub(crate) fn new(total: u64) -> Self {
        let bar = ProgressBar::new(total);
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} pages  {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        Self(bar)
    }

    pub(crate) fn finish(&self) {
        self.0.finish();
    }
}

impl Observer for Bar {
    fn page(&mut self, p: &Progress) {
        self.0.set_position(p.pages);
        if p.pages.is_multiple_of(25) {
            self.0.set_message(format!(
                "harvest(ma100) {:.2}  {:.0} pages/s  frontier {}",
                p.harvest_ma, p.pages_per_s, p.frontier
            ));
        }
    }

    fn note(&mut self, message: &str) {
        self.0.suspend(|| tracing::info!("{message}"));
    }
}

/// Logs to stderr at `RUST_LOG`'s level, or `default` (`info`, `warn`)
/// when it is unset: what every crawler binary does first.
pub fn init_logging(default: &str) {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| default.into()),
        )
        .with_writer(std::io::stderr)
        .init();
}
