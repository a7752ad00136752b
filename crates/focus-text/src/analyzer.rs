//! The configured pipeline: tokenizer → stop words → stemmer.

use crate::stem::{NoStemmer, SnowballEnglish, Stemmer};
use crate::stopwords::is_stop_word;
use crate::tokenizer::{Tokenizer, WordTokenizer};

/// Text analysis settings (see [`crate::tokenizer`] for the policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextConfig {
    /// Fold case.
    pub lowercase: bool,
    /// Keep all-digit tokens.
    pub keep_digits: bool,
    /// Hyphens separate tokens.
    pub split_hyphens: bool,
    /// Drop English stop words.
    pub stop_words: bool,
    /// Snowball English stemming.
    pub stemming: bool,
    /// Shortest token kept.
    pub min_len: usize,
    /// Longest token kept.
    pub max_len: usize,
}

impl TextConfig {
    /// The 1999 papers and Bergmark: no stemming, stop words removed.
    pub fn chakrabarti() -> Self {
        Self {
            lowercase: true,
            keep_digits: false,
            split_hyphens: true,
            stop_words: true,
            stemming: false,
            min_len: 2,
            max_len: 40,
        }
    }

    /// Diligenti and BINGO!: as above, with Snowball stemming.
    pub fn stemmed() -> Self {
        Self {
            stemming: true,
            ..Self::chakrabarti()
        }
    }
}

impl Default for TextConfig {
    fn default() -> Self {
        Self::chakrabarti()
    }
}

/// Turns text into terms.
pub struct Analyzer {
    config: TextConfig,
    tokenizer: Box<dyn Tokenizer>,
    stemmer: Box<dyn Stemmer>,
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyzer")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Analyzer {
    /// The pipeline for a configuration.
    pub fn new(config: TextConfig) -> Self {
        let tokenizer = WordTokenizer {
            lowercase: config.lowercase,
            keep_digits: config.keep_digits,
            split_hyphens: config.split_hyphens,
            min_len: config.min_len,
            max_len: config.max_len,
        };
        let stemmer: Box<dyn Stemmer> = if config.stemming {
            Box::new(SnowballEnglish::default())
        } else {
            Box::new(NoStemmer)
        };
        Self {
            config,
            tokenizer: Box::new(tokenizer),
            stemmer,
        }
    }

    /// A pipeline with a custom tokenizer and stemmer (the trait seams).
    pub fn with_parts(
        config: TextConfig,
        tokenizer: Box<dyn Tokenizer>,
        stemmer: Box<dyn Stemmer>,
    ) -> Self {
        Self {
            config,
            tokenizer,
            stemmer,
        }
    }

    /// The configuration.
    pub fn config(&self) -> TextConfig {
        self.config
    }

    /// The terms of `text`, in order.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_term(text, &mut |t| out.push(t.to_owned()));
        out
    }

    /// Calls `f` with each term of `text` (tokenised, stop words removed,
    /// stemmed), allocating only when the stemmer changes a token.
    pub fn for_each_term(&self, text: &str, f: &mut dyn FnMut(&str)) {
        self.tokenizer.for_each_token(text, &mut |t| {
            if !(self.config.stop_words && is_stop_word(t)) {
                f(&self.stemmer.stem(t));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets() {
        let plain = Analyzer::new(TextConfig::chakrabarti());
        assert_eq!(
            plain.tokens("The Mining of Clusters"),
            ["mining", "clusters"]
        );
        let stemmed = Analyzer::new(TextConfig::stemmed());
        assert_eq!(
            stemmed.tokens("The Mining of Clusters"),
            ["mine", "cluster"]
        );
    }
}
