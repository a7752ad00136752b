//! The terminal observer: an indicatif progress bar with the harvest-rate
//! moving average, pages/s and frontier size; where stderr is not a
//! terminal (a log file, a service), where indicatif draws nothing, the
//! same figures as a log line every [`LOG_PERIOD`]; notes go to the log;
//! and the log itself ([`init_logging`]).

use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use focus_crawl::{Observer, Progress};
use indicatif::{ProgressBar, ProgressStyle};

/// How often a crawl whose stderr is not a terminal logs its progress.
const LOG_PERIOD: Duration = Duration::from_secs(30);

pub(crate) struct Bar {
    bar: ProgressBar,
    /// Progress lines for the log, where the bar is not drawn.
    lines: Option<Periodic>,
}

impl Bar {
    pub(crate) fn new(total: u64) -> Self {
        let bar = ProgressBar::new(total);
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} pages  {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        let lines =
            (!std::io::stderr().is_terminal()).then(|| Periodic::new(LOG_PERIOD, Instant::now()));
        Self { bar, lines }
    }

    pub(crate) fn finish(&self) {
        self.bar.finish();
    }
}

/// The figures the bar shows after its position.
fn figures(p: &Progress) -> String {
    format!(
        "harvest(ma100) {:.2}  {:.0} pages/s  frontier {}",
        p.harvest_ma, p.pages_per_s, p.frontier
    )
}

impl Observer for Bar {
    fn page(&mut self, p: &Progress) {
        self.bar.set_position(p.pages);
        if p.pages.is_multiple_of(25) {
            self.bar.set_message(figures(p));
        }
        if let Some(lines) = &mut self.lines {
            if lines.due(Instant::now()) {
                let total = self.bar.length().unwrap_or(0);
                tracing::info!("{}/{total} pages  {}", p.pages, figures(p));
            }
        }
    }

    fn note(&mut self, message: &str) {
        self.bar.suspend(|| tracing::info!("{message}"));
    }
}

/// Says yes once per period: the first time a period after the start, then
/// a period after the last yes.
#[derive(Debug)]
struct Periodic {
    period: Duration,
    next: Instant,
}

impl Periodic {
    fn new(period: Duration, start: Instant) -> Self {
        Self {
            period,
            next: start + period,
        }
    }

    fn due(&mut self, now: Instant) -> bool {
        if now < self.next {
            return false;
        }
        self.next = now + self.period;
        true
    }
}

/// Logs to stderr at `RUST_LOG`'s level, or `default` (`info`, `warn`)
/// when it is unset: what every crawler binary does first. Colours only
/// on a terminal: a log written to a file or a pipe is plain text.
pub fn init_logging(default: &str) {
    use std::io::IsTerminal;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| default.into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line_is_due_once_per_period_after_the_last() {
        let start = Instant::now();
        let s = Duration::from_secs;
        let mut lines = Periodic::new(s(30), start);
        assert!(!lines.due(start));
        assert!(!lines.due(start + s(29)));
        assert!(lines.due(start + s(31)));
        // The next is a period after that line, not after the start.
        assert!(!lines.due(start + s(60)));
        assert!(lines.due(start + s(61)));
        assert!(!lines.due(start + s(61)));
    }

    #[test]
    fn the_figures_are_the_bars() {
        let p = Progress {
            pages: 250,
            harvest_ma: 0.456,
            pages_per_s: 12.4,
            frontier: 900,
        };
        assert_eq!(figures(&p), "harvest(ma100) 0.46  12 pages/s  frontier 900");
    }
}
