//! Vocabularies: pseudo-words made of syllables (unique across the web), a
//! head of real English function and web words, and Zipfian samplers over
//! ranked word lists.

use std::collections::HashSet;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

const ONSETS: &[&str] = &[
    "b", "br", "c", "ch", "cl", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "l", "m", "n", "p",
    "pl", "pr", "qu", "r", "s", "sh", "st", "t", "th", "tr", "v", "w", "z",
];
const VOWELS: &[&str] = &["a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y"];
const CODAS: &[&str] = &["", "", "", "n", "r", "s", "l", "m", "nd", "st", "x", "t"];

/// Common English words that head the background distribution, as on the
/// real web (stop words dominate every page).
pub(crate) const FUNCTION_WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "is",
    "for",
    "that",
    "on",
    "with",
    "as",
    "by",
    "this",
    "are",
    "be",
    "from",
    "at",
    "or",
    "it",
    "an",
    "was",
    "have",
    "not",
    "you",
    "we",
    "can",
    "all",
    "more",
    "will",
    "has",
    "their",
    "which",
    "about",
    "new",
    "one",
    "other",
    "its",
    "our",
    "but",
    "also",
    "page",
    "information",
    "site",
    "may",
    "been",
    "these",
    "some",
    "use",
    "time",
];

/// Boilerplate words of navigation menus, sidebars and footers (none is a
/// word of a topic name, so templates carry no topic name by accident).
pub(crate) const BOILERPLATE: &[&str] = &[
    "home",
    "about",
    "contact",
    "us",
    "blog",
    "events",
    "products",
    "services",
    "faq",
    "resources",
    "gallery",
    "forum",
    "login",
    "register",
    "account",
    "cart",
    "store",
    "support",
    "community",
    "welcome",
    "privacy",
    "policy",
    "terms",
    "copyright",
    "rights",
    "reserved",
    "click",
    "here",
    "sitemap",
    "help",
    "next",
    "previous",
    "back",
    "top",
    "more",
    "read",
    "share",
    "subscribe",
    "newsletter",
    "follow",
    "archive",
    "menu",
    "categories",
    "tags",
    "popular",
    "recent",
    "posts",
    "comments",
];

/// Headings of sidebar widgets.
pub(crate) const SIDEBAR_HEADINGS: &[&str] = &[
    "Popular posts",
    "Categories",
    "Tags",
    "Recent comments",
    "Resources",
    "Archive",
    "Follow us",
];

/// Generates unique pseudo-words.
pub(crate) struct WordFactory {
    seen: HashSet<String>,
}

impl WordFactory {
    pub(crate) fn new() -> Self {
        let mut seen = HashSet::new();
        for w in FUNCTION_WORDS.iter().chain(BOILERPLATE) {
            seen.insert((*w).to_string());
        }
        Self { seen }
    }

    /// Reserve a word (e.g. a topic name) so no pseudo-word equals it.
    pub(crate) fn reserve(&mut self, word: &str) -> bool {
        self.seen.insert(word.to_string())
    }

    /// A fresh word of 2-4 syllables.
    pub(crate) fn word(&mut self, rng: &mut ChaCha8Rng) -> String {
        loop {
            let syllables = match rng.random_range(0..10u32) {
                0..=3 => 2,
                4..=8 => 3,
                _ => 4,
            };
            let mut w = String::new();
            for i in 0..syllables {
                w.push_str(ONSETS[rng.random_range(0..ONSETS.len())]);
                w.push_str(VOWELS[rng.random_range(0..VOWELS.len())]);
                if i + 1 == syllables || rng.random_range(0..4u32) == 0 {
                    w.push_str(CODAS[rng.random_range(0..CODAS.len())]);
                }
            }
            if w.len() >= 4 && self.seen.insert(w.clone()) {
                return w;
            }
        }
    }
}

/// A ranked word list with a Zipfian sampler (cumulative weights).
#[derive(Debug, Clone)]
pub(crate) struct Zipf {
    cdf: Vec<f64>,
}

impl Zipf {
    pub(crate) fn new(n: usize, exponent: f64) -> Self {
        let mut cdf = Vec::with_capacity(n);
        let mut acc = 0.0;
        for r in 0..n {
            acc += 1.0 / ((r + 1) as f64).powf(exponent);
            cdf.push(acc);
        }
        if acc > 0.0 {
            for c in &mut cdf {
                *c /= acc;
            }
        }
        Self { cdf }
    }

    /// A rank in `0..n` for a uniform `u` in `[0, 1)`.
    pub(crate) fn rank(&self, u: f64) -> usize {
        let i = self.cdf.partition_point(|&c| c < u);
        i.min(self.cdf.len().saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn words_are_unique_and_zipf_favours_head() {
        let mut f = WordFactory::new();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let words: Vec<String> = (0..2000).map(|_| f.word(&mut rng)).collect();
        let set: HashSet<&String> = words.iter().collect();
        assert_eq!(set.len(), 2000);
        assert!(words
            .iter()
            .all(|w| w.chars().all(|c| c.is_ascii_lowercase())));
        let z = Zipf::new(100, 1.0);
        let mut counts = [0usize; 100];
        for i in 0..10_000 {
            counts[z.rank((i as f64 + 0.5) / 10_000.0)] += 1;
        }
        assert!(counts[0] > counts[9] * 5, "{counts:?}");
        assert!(counts[99] > 0);
    }
}
