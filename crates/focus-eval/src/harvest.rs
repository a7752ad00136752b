//! Harvest-rate bookkeeping, O(1) per page.

use std::collections::VecDeque;

/// The relevance at and above which a crawl's own judgement calls a page
/// relevant, when it is compared with the truth.
pub const JUDGED_RELEVANT: f64 = 0.5;

/// How a crawl's own judgement (R >= [`JUDGED_RELEVANT`]) compares with the
/// truth, over the pages whose truth is known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Judged relevant and truly relevant.
    pub true_positive: u64,
    /// Judged relevant, truly irrelevant.
    pub false_positive: u64,
    /// Judged irrelevant, truly relevant.
    pub false_negative: u64,
    /// Judged irrelevant and truly irrelevant.
    pub true_negative: u64,
}

impl Agreement {
    /// Counts one page.
    pub fn push(&mut self, relevance: f64, truth: bool) {
        match (relevance >= JUDGED_RELEVANT, truth) {
            (true, true) => self.true_positive += 1,
            (true, false) => self.false_positive += 1,
            (false, true) => self.false_negative += 1,
            (false, false) => self.true_negative += 1,
        }
    }

    /// Pages counted.
    pub fn pages(&self) -> u64 {
        self.true_positive + self.false_positive + self.false_negative + self.true_negative
    }

    /// Fraction of pages where the judgement equals the truth (None
    /// before any page).
    pub fn agreement(&self) -> Option<f64> {
        ratio(self.true_positive + self.true_negative, self.pages())
    }

    /// Of the pages judged relevant, the fraction truly relevant (None when
    /// none was judged relevant).
    pub fn precision(&self) -> Option<f64> {
        ratio(self.true_positive, self.true_positive + self.false_positive)
    }

    /// Of the truly relevant pages, the fraction judged relevant (None when
    /// none was truly relevant).
    pub fn recall(&self) -> Option<f64> {
        ratio(self.true_positive, self.true_positive + self.false_negative)
    }
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// Tracks per-page relevance (estimated, and true when ground truth is
/// known) as pages are fetched.
#[derive(Debug, Clone)]
pub struct HarvestTracker {
    window: usize,
    estimated: Vec<f64>,
    truth: Vec<bool>,
    recent: VecDeque<f64>,
    recent_sum: f64,
    truth_known: bool,
    agreement: Agreement,
}

impl HarvestTracker {
    /// A tracker whose moving average spans `window` pages (the 1999
    /// paper plots a window of 100).
    pub fn new(window: usize) -> Self {
        Self {
            window: window.max(1),
            estimated: Vec::new(),
            truth: Vec::new(),
            recent: VecDeque::new(),
            recent_sum: 0.0,
            truth_known: false,
            agreement: Agreement::default(),
        }
    }

    /// Records one fetched page.
    pub fn push(&mut self, relevance: f64, truth: Option<bool>) {
        self.estimated.push(relevance);
        self.recent.push_back(relevance);
        self.recent_sum += relevance;
        if self.recent.len() > self.window {
            if let Some(r) = self.recent.pop_front() {
                self.recent_sum -= r;
            }
        }
        if let Some(t) = truth {
            self.truth_known = true;
            self.truth.push(t);
            self.agreement.push(relevance, t);
        }
    }

    /// The crawl's judgement against the truth, over pages with known truth.
    pub fn agreement(&self) -> &Agreement {
        &self.agreement
    }

    /// Pages recorded.
    pub fn len(&self) -> usize {
        self.estimated.len()
    }

    /// True before the first page.
    pub fn is_empty(&self) -> bool {
        self.estimated.is_empty()
    }

    /// Moving average of estimated relevance over the window.
    pub fn moving_average(&self) -> f64 {
        if self.recent.is_empty() {
            0.0
        } else {
            self.recent_sum / self.recent.len() as f64
        }
    }

    /// Mean estimated relevance over all pages.
    pub fn harvest_estimated(&self) -> f64 {
        mean(self.estimated.iter().copied())
    }

    /// Fraction of truly relevant pages (None without ground truth).
    pub fn harvest_true(&self) -> Option<f64> {
        self.truth_known
            .then(|| mean(self.truth.iter().map(|&t| f64::from(u8::from(t)))))
    }

    /// Fraction of truly relevant pages among the last `n`.
    pub fn harvest_true_last(&self, n: usize) -> Option<f64> {
        let skip = self.truth.len().saturating_sub(n);
        self.truth_known
            .then(|| mean(self.truth[skip..].iter().map(|&t| f64::from(u8::from(t)))))
    }

    /// Truly relevant pages found.
    pub fn relevant_found(&self) -> usize {
        self.truth.iter().filter(|&&t| t).count()
    }

    /// Per-page estimated relevance, in fetch order.
    pub fn estimated(&self) -> &[f64] {
        &self.estimated
    }

    /// Per-page truth, in fetch order (empty without ground truth).
    pub fn truth(&self) -> &[bool] {
        &self.truth
    }

    /// Moving averages of a series over a window (one value per page).
    pub fn moving(series: &[f64], window: usize) -> Vec<f64> {
        let window = window.max(1);
        let mut out = Vec::with_capacity(series.len());
        let mut sum = 0.0;
        for (i, &x) in series.iter().enumerate() {
            sum += x;
            if i >= window {
                sum -= series[i - window];
            }
            out.push(sum / (i + 1).min(window) as f64);
        }
        out
    }
}

fn mean(it: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = it.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_rates() {
        let mut h = HarvestTracker::new(2);
        for (r, t) in [(1.0, true), (0.0, false), (0.5, true), (0.5, false)] {
            h.push(r, Some(t));
        }
        assert_eq!(h.harvest_estimated(), 0.5);
        assert_eq!(h.moving_average(), 0.5);
        assert_eq!(h.harvest_true(), Some(0.5));
        assert_eq!(h.harvest_true_last(1), Some(0.0));
        assert_eq!(h.harvest_true_last(10), Some(0.5));
        assert_eq!(
            HarvestTracker::moving(&[1.0, 0.0, 0.5], 2),
            vec![1.0, 0.5, 0.25]
        );
        let no_truth = HarvestTracker::new(5);
        assert_eq!(no_truth.harvest_true(), None);
    }

    #[test]
    fn judgement_against_truth_by_hand() {
        let mut h = HarvestTracker::new(10);
        // R >= 0.5 is "judged relevant"; pages without truth are left out.
        for (r, t) in [
            (0.9, Some(true)),  // true positive
            (0.5, Some(false)), // false positive (0.5 counts as relevant)
            (0.2, Some(true)),  // false negative
            (0.1, Some(false)), // true negative
            (0.7, Some(true)),  // true positive
            (0.8, None),        // unknown truth: not counted
        ] {
            h.push(r, t);
        }
        let a = h.agreement();
        assert_eq!(
            (
                a.true_positive,
                a.false_positive,
                a.false_negative,
                a.true_negative
            ),
            (2, 1, 1, 1)
        );
        assert_eq!(a.pages(), 5);
        assert_eq!(a.agreement(), Some(3.0 / 5.0));
        assert_eq!(a.precision(), Some(2.0 / 3.0));
        assert_eq!(a.recall(), Some(2.0 / 3.0));
        let none = Agreement::default();
        assert_eq!(
            (none.agreement(), none.precision(), none.recall()),
            (None, None, None)
        );
        let mut all_irrelevant = Agreement::default();
        all_irrelevant.push(0.1, false);
        assert_eq!(all_irrelevant.agreement(), Some(1.0));
        assert_eq!(all_irrelevant.precision(), None, "nothing judged relevant");
        assert_eq!(all_irrelevant.recall(), None, "nothing truly relevant");
    }
}
