//! An English stop-word list (the common SMART-derived core), shipped in
//! the crate so nothing is downloaded at run time.

use std::sync::LazyLock;

use rustc_hash::FxHashSet;

/// English stop words, sorted.
pub const ENGLISH: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "however",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// The list as a hash set (a binary search of it was a quarter of
/// featurisation time), Fx-hashed: XXH3's streaming hasher sets up a
/// 192-byte secret and a buffer for every word looked up, which made the
/// look-up 5.7 % of the CPU in a `perf` profile of the peer benchmark's
/// crawl (`cargo xtask bench --peers`).
static SET: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| ENGLISH.iter().copied().collect());

/// Length of the longest stop word: longer tokens skip the lookup.
const LONGEST: usize = 10;

/// True if `word` (already lower-cased) is an English stop word.
pub fn is_stop_word(word: &str) -> bool {
    word.len() <= LONGEST && SET.contains(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_searchable() {
        assert!(ENGLISH.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(ENGLISH.iter().map(|w| w.len()).max(), Some(LONGEST));
        assert!(is_stop_word("the") && is_stop_word("yourselves"));
        assert!(!is_stop_word("bicycle"));
    }
}
