//! Page → term counts, shared by training and crawling so both see the
//! same features: the analyser's terms of title, headings and main text,
//! hashed into 2^20 buckets (stateless, so nothing is coordinated between
//! the trainer and the crawl).

use std::sync::Arc;

use focus_html::Document;
use focus_text::{counts, Analyzer, HashingVocabulary, SparseVec, TextConfig};

/// Turns analysed pages and plain text into term-count vectors.
#[derive(Debug, Clone)]
pub struct Featurizer {
    analyzer: Arc<Analyzer>,
    vocab: HashingVocabulary,
}

impl Featurizer {
    /// A featurizer with the given text configuration.
    pub fn new(config: TextConfig) -> Self {
        Self {
            analyzer: Arc::new(Analyzer::new(config)),
            vocab: HashingVocabulary::new(20),
        }
    }

    /// Counts of a text.
    pub fn text(&self, text: &str) -> SparseVec {
        let mut vocab = self.vocab;
        counts(&self.analyzer, &mut vocab, text)
    }

    /// Counts of an analysed page: title, headings and main text
    /// (navigation and footer boilerplate are left out).
    pub fn document(&self, doc: &Document) -> SparseVec {
        let mut text = String::with_capacity(doc.text.len() + doc.title.len() + 64);
        text.push_str(&doc.title);
        for h in &doc.headings {
            text.push(' ');
            text.push_str(h);
        }
        text.push(' ');
        text.push_str(&doc.text);
        self.text(&text)
    }
}

impl Default for Featurizer {
    fn default() -> Self {
        Self::new(TextConfig::chakrabarti())
    }
}
