//! The idf of the centroids' dictionary, and its re-estimate from
//! crawled pages (Bergmark §6.4): counted document frequencies, applied
//! at once or as pages arrive. The dictionary never changes; the centroid
//! weights follow the idf.

use focus_text::SparseVec;
use serde::{Deserialize, Serialize};

use super::Centroids;

/// How many documents hold each dictionary term, over how many documents:
/// the statistics of an idf re-estimate (Bergmark §6.4), from a pre-crawl
/// pass or the crawl's own pages.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentFrequencies {
    /// Aligned with the dictionary.
    df: Vec<u64>,
    docs: u64,
}

impl DocumentFrequencies {
    /// Documents counted.
    pub fn docs(&self) -> u64 {
        self.docs
    }
}

impl Centroids {
    /// Re-estimates idf from crawled pages (Bergmark §6.4); the dictionary
    /// stays the same, the centroid weights follow the new idf.
    pub fn reestimate_idf<'a>(&mut self, crawled: impl IntoIterator<Item = &'a SparseVec>) {
        self.set_idf_from(crawled);
    }

    /// An empty count of the dictionary's document frequencies, to fill
    /// with [`Centroids::count_document`] as pages arrive (in any order:
    /// counting commutes) and apply with [`Centroids::reestimate_idf_from`].
    pub fn document_frequencies(&self) -> DocumentFrequencies {
        DocumentFrequencies {
            df: vec![0; self.dictionary.len()],
            docs: 0,
        }
    }

    /// Counts one document's dictionary terms into `df` (made by this
    /// model's [`Centroids::document_frequencies`]).
    pub fn count_document(&self, df: &mut DocumentFrequencies, doc: &SparseVec) {
        df.docs += 1;
        for &(t, w) in doc.entries() {
            if w > 0.0 {
                if let Ok(i) = self.dictionary.binary_search(&t) {
                    if let Some(f) = df.df.get_mut(i) {
                        *f += 1;
                    }
                }
            }
        }
    }

    /// Re-estimates idf from counted document frequencies (§6.4), as
    /// [`Centroids::reestimate_idf`] does from the documents themselves.
    /// Counts of another dictionary (a different length) change nothing.
    pub fn reestimate_idf_from(&mut self, df: &DocumentFrequencies) {
        if df.df.len() == self.dictionary.len() {
            self.set_idf(df);
        }
    }

    /// The idf of each dictionary term, aligned with
    /// [`Centroids::dictionary`].
    pub fn idf(&self) -> &[f64] {
        &self.idf
    }

    pub(super) fn set_idf_from<'a>(&mut self, docs: impl IntoIterator<Item = &'a SparseVec>) {
        let mut df = self.document_frequencies();
        for d in docs {
            self.count_document(&mut df, d);
        }
        self.set_idf(&df);
    }

    fn set_idf(&mut self, df: &DocumentFrequencies) {
        let n = df.docs.max(1) as f64;
        self.idf = df.df.iter().map(|&f| (n / f.max(1) as f64).ln()).collect();
        self.centroids = self.tf.iter().map(|tf| self.weigh(tf)).collect();
        self.norms = self.centroids.iter().map(SparseVec::norm).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::centroid::tests::{model, v};
    use focus_text::TermId;

    #[test]
    fn idf_reestimation_changes_weights_not_the_dictionary() {
        let (mut m, a, _) = model(1);
        // Crawled: term 1 in every page (idf → 0), term 3 in one of four.
        let crawled = [
            v(&[(1, 1.0), (3, 1.0)]),
            v(&[(1, 1.0)]),
            v(&[(1, 1.0)]),
            v(&[(1, 1.0), (2, 1.0)]),
        ];
        let mut counted = m.clone();
        let mut df = m.document_frequencies();
        for d in crawled.iter().rev() {
            m.count_document(&mut df, d);
        }
        m.reestimate_idf(&crawled);
        assert_eq!(df.docs(), 4);
        counted.reestimate_idf_from(&df);
        assert_eq!(
            counted, m,
            "counted frequencies give the same idf, in any order"
        );
        assert_eq!(m.dictionary().len(), 3);
        // Term 1 is in every crawled page: idf ln(4/4) = 0; term 2 in one: ln 4.
        let ca = m.centroid(a).unwrap();
        assert_eq!(ca.get(TermId(1)), 0.0);
        assert!((ca.get(TermId(2)) - 4f64.ln()).abs() < 1e-12);
        let bytes = m.to_bytes().unwrap();
        assert_eq!(Centroids::from_bytes(&bytes).unwrap(), m);
    }
}
