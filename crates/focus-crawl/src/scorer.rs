//! Evaluation-only ground truth. The engine takes the [`Truth`] out of
//! the crawl's parts before anything runs and hands it to a [`Scorer`]
//! that only the tally and the output read: the pipeline, the policies
//! and the frontier are never given it, so no crawl decision can use it.

/// Answers whether a URL is truly relevant (`None` when unknown).
pub type TruthFn = std::sync::Arc<dyn Fn(&str) -> Option<bool> + Send + Sync>;

/// Evaluation-only ground truth (the websim's or a labelled corpus's):
/// never read by the crawl's decisions, only recorded next to them.
#[derive(Clone)]
pub struct Truth {
    /// Whether a URL is truly relevant (`None` when unknown).
    pub is_relevant: TruthFn,
    /// Truly relevant pages in the whole web (for recall).
    pub relevant_total: u64,
}

/// Scores fetched pages against the truth, when there is one.
pub(crate) struct Scorer(Option<Truth>);

impl Scorer {
    pub(crate) fn new(truth: Option<Truth>) -> Self {
        Self(truth)
    }

    /// The truth about a fetched page: `None` when unknown. A page that
    /// harvested nothing (`harvested` false: a failed fetch, a duplicate)
    /// counts as not relevant whenever a truth exists.
    pub(crate) fn page(&self, url: &str, harvested: bool) -> Option<bool> {
        let truth = self.0.as_ref()?;
        if harvested {
            (truth.is_relevant)(url)
        } else {
            Some(false)
        }
    }

    /// Truly relevant pages in the whole web.
    pub(crate) fn relevant_total(&self) -> Option<u64> {
        self.0.as_ref().map(|t| t.relevant_total)
    }

    /// The share of the web's relevant pages among `found`.
    pub(crate) fn recall(&self, found: usize) -> Option<f64> {
        self.relevant_total()
            .map(|total| found as f64 / total.max(1) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_truth_nothing_is_scored_and_failures_harvest_nothing() {
        let none = Scorer::new(None);
        assert_eq!(none.page("http://a.test/", true), None);
        assert_eq!(none.page("http://a.test/", false), None);
        assert_eq!(none.recall(3), None);
        let some = Scorer::new(Some(Truth {
            is_relevant: std::sync::Arc::new(|u| Some(u.contains("bike"))),
            relevant_total: 4,
        }));
        assert_eq!(some.page("http://a.test/bike", true), Some(true));
        assert_eq!(some.page("http://a.test/bike", false), Some(false));
        assert_eq!(some.page("http://a.test/", true), Some(false));
        assert_eq!(some.recall(1), Some(0.25));
    }
}
