//! From terms to vectors: term counts, term pairs within a sliding window,
//! and anchor-text features (terms prefixed `a:` so a classifier can weigh
//! what others say about a page apart from what it says itself).

use crate::analyzer::Analyzer;
use crate::sparse::SparseVec;
use crate::vocab::Vocab;

/// Term counts of `text` (terms without an id are skipped).
pub fn counts(analyzer: &Analyzer, vocab: &mut dyn Vocab, text: &str) -> SparseVec {
    let mut ids = Vec::new();
    analyzer.for_each_term(text, &mut |t| ids.extend(vocab.id(t)));
    SparseVec::from_terms(ids)
}

/// Unordered pairs of terms occurring within `window` tokens of each
/// other, as `a|b` with `a < b` (BINGO!'s term pairs).
pub fn term_pairs(tokens: &[String], window: usize) -> Vec<String> {
    let mut pairs = Vec::new();
    for (i, a) in tokens.iter().enumerate() {
        for b in tokens.iter().skip(i + 1).take(window.saturating_sub(1)) {
            if a != b {
                let (x, y) = if a < b { (a, b) } else { (b, a) };
                pairs.push(format!("{x}|{y}"));
            }
        }
    }
    pairs
}

/// Anchor-text terms, prefixed `a:`.
pub fn anchor_terms(analyzer: &Analyzer, anchor_text: &str) -> Vec<String> {
    analyzer
        .tokens(anchor_text)
        .into_iter()
        .map(|t| format!("a:{t}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzer::TextConfig;
    use crate::sparse::TermId;
    use crate::vocab::Vocabulary;

    #[test]
    fn counts_pairs_and_anchors() {
        let a = Analyzer::new(TextConfig::chakrabarti());
        let mut v = Vocabulary::new();
        let c = counts(&a, &mut v, "bike bike race");
        assert_eq!(c.get(TermId(0)), 2.0);
        assert_eq!(c.get(TermId(1)), 1.0);
        let toks: Vec<String> = ["b", "a", "c"].iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(term_pairs(&toks, 2), ["a|b", "a|c"]);
        assert_eq!(term_pairs(&toks, 3), ["a|b", "b|c", "a|c"]);
        assert_eq!(anchor_terms(&a, "Cycling links"), ["a:cycling", "a:links"]);
    }
}
