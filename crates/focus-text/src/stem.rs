//! Stemming behind a trait: Snowball English (Porter 2) via rust-stemmers,
//! or none. The 1999 papers and Bergmark do not stem; Diligenti and BINGO!
//! do — it is configuration, not code.

use std::borrow::Cow;

/// Reduces a token to its stem.
pub trait Stemmer: Send + Sync {
    /// The stem of `token` (borrowed when unchanged: no allocation).
    fn stem<'a>(&self, token: &'a str) -> Cow<'a, str>;
}

/// Leaves tokens as they are.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoStemmer;

impl Stemmer for NoStemmer {
    fn stem<'a>(&self, token: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(token)
    }
}

/// Snowball English stemmer.
pub struct SnowballEnglish(rust_stemmers::Stemmer);

impl Default for SnowballEnglish {
    fn default() -> Self {
        Self(rust_stemmers::Stemmer::create(
            rust_stemmers::Algorithm::English,
        ))
    }
}

impl std::fmt::Debug for SnowballEnglish {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SnowballEnglish")
    }
}

impl Stemmer for SnowballEnglish {
    fn stem<'a>(&self, token: &'a str) -> Cow<'a, str> {
        self.0.stem(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snowball_stems_and_nostemmer_does_not() {
        let s = SnowballEnglish::default();
        assert_eq!(s.stem("mining"), "mine");
        assert_eq!(s.stem("clusters"), "cluster");
        assert_eq!(NoStemmer.stem("mining"), "mining");
    }
}
