//! What a crawl reports as it goes: a terminal progress bar, a log or a
//! test implements [`Observer`].

/// A progress report after each page.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Fetch attempts so far.
    pub pages: u64,
    /// Moving average of estimated relevance.
    pub harvest_ma: f64,
    /// Pages per second so far.
    pub pages_per_s: f64,
    /// URLs queued.
    pub frontier: u64,
}

/// Receives progress (a terminal progress bar, a log, a test).
pub trait Observer {
    /// Called after each page.
    fn page(&mut self, p: &Progress);
    /// Called once with a human-readable message (stagnation, distillation).
    fn note(&mut self, message: &str);
}
