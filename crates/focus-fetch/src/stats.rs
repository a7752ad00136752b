//! Per-outcome counters, shared by every fetch.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::Serialize;

/// Counts of fetch outcomes by label (`ok`, `status_404`, `timeout_total`,
/// `robots_disallowed`, ...) plus retries and byte totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FetchStats {
    /// Outcomes by label.
    pub outcomes: BTreeMap<String, u64>,
    /// Extra attempts made after transient failures.
    pub retries: u64,
    /// Redirects followed.
    pub redirects: u64,
    /// robots.txt files fetched.
    pub robots_fetched: u64,
    /// Body bytes received.
    pub wire_bytes: u64,
}

#[derive(Debug, Default)]
pub(crate) struct StatsCell(Mutex<FetchStats>);

impl StatsCell {
    pub(crate) fn update(&self, f: impl FnOnce(&mut FetchStats)) {
        if let Ok(mut s) = self.0.lock() {
            f(&mut s);
        }
    }

    pub(crate) fn count(&self, label: &str) {
        self.update(|s| *s.outcomes.entry(label.to_owned()).or_insert(0) += 1);
    }

    pub(crate) fn snapshot(&self) -> FetchStats {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }
}
