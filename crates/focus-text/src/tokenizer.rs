//! The tokenizer. Policy:
//! - a token is a maximal run of Unicode letters and digits (so `café`,
//!   `naïve`, `東京` are tokens; punctuation and symbols separate tokens);
//! - apostrophes inside a word are dropped (`don't` → `dont`,
//!   `l'homme` → `lhomme`);
//! - hyphens inside a word join it (`e-mail` → `e-mail`) unless
//!   `split_hyphens`, when they separate (`e`, `mail`);
//! - case is folded to lower case when `lowercase`;
//! - tokens made only of digits are dropped unless `keep_digits` (mixed
//!   tokens such as `mp3` are always kept);
//! - tokens shorter than `min_len` or longer than `max_len` characters are
//!   dropped (the latter removes base64 blobs and run-on garbage).

/// Splits text into tokens.
pub trait Tokenizer: Send + Sync {
    /// Calls `f` with each token of `text`, in order, without allocating
    /// per token (the hot path of featurisation).
    fn for_each_token(&self, text: &str, f: &mut dyn FnMut(&str));

    /// Appends the tokens of `text` to `out`.
    fn tokenize(&self, text: &str, out: &mut Vec<String>) {
        self.for_each_token(text, &mut |t| out.push(t.to_owned()));
    }
}

/// The word tokenizer of the policy above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordTokenizer {
    /// Fold case.
    pub lowercase: bool,
    /// Keep all-digit tokens.
    pub keep_digits: bool,
    /// Hyphens separate tokens.
    pub split_hyphens: bool,
    /// Shortest token kept, in characters.
    pub min_len: usize,
    /// Longest token kept, in characters.
    pub max_len: usize,
}

impl Default for WordTokenizer {
    fn default() -> Self {
        Self {
            lowercase: true,
            keep_digits: false,
            split_hyphens: true,
            min_len: 2,
            max_len: 40,
        }
    }
}

impl WordTokenizer {
    fn emit(&self, word: &mut String, chars: usize, f: &mut dyn FnMut(&str)) {
        let w = word.trim_matches('-');
        let n = if w.len() == word.len() {
            chars
        } else {
            w.chars().count()
        };
        if n >= self.min_len
            && n <= self.max_len
            && (self.keep_digits || !w.chars().all(|c| c.is_numeric() || c == '-'))
        {
            f(w);
        }
        word.clear();
    }

    fn push(&self, word: &mut String, c: char) {
        if !self.lowercase {
            word.push(c);
        } else if c.is_ascii() {
            word.push(c.to_ascii_lowercase());
        } else {
            word.extend(c.to_lowercase());
        }
    }

    /// [`Tokenizer::for_each_token`] of ASCII text, byte by byte: on ASCII,
    /// `char::is_alphanumeric` is `u8::is_ascii_alphanumeric`, lower-casing
    /// is `to_ascii_lowercase`, a word's chars are its bytes, and the
    /// typographic apostrophe cannot occur, so the tokens are the same
    /// without decoding a char.
    fn for_each_ascii_token(&self, text: &[u8], f: &mut dyn FnMut(&str)) {
        let mut word = String::with_capacity(32);
        let next_is_alphanumeric =
            |i: usize| text.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        for (i, &b) in text.iter().enumerate() {
            if b.is_ascii_alphanumeric() {
                let b = if self.lowercase {
                    b.to_ascii_lowercase()
                } else {
                    b
                };
                word.push(char::from(b));
            } else if b == b'\'' && !word.is_empty() && next_is_alphanumeric(i) {
                // An apostrophe inside a word joins it (as below).
            } else if b == b'-'
                && !self.split_hyphens
                && !word.is_empty()
                && next_is_alphanumeric(i)
            {
                word.push('-');
            } else if !word.is_empty() {
                let chars = word.len();
                self.emit(&mut word, chars, f);
            }
        }
        if !word.is_empty() {
            let chars = word.len();
            self.emit(&mut word, chars, f);
        }
    }

    /// [`Tokenizer::for_each_token`] by the definition, char by char.
    fn for_each_char_token(&self, text: &str, f: &mut dyn FnMut(&str)) {
        let mut word = String::with_capacity(32);
        let mut chars = 0usize;
        let mut it = text.chars().peekable();
        while let Some(c) = it.next() {
            if c.is_alphanumeric() {
                self.push(&mut word, c);
                chars += 1;
            } else if (c == '\'' || c == '\u{2019}')
                && !word.is_empty()
                && it.peek().is_some_and(|n| n.is_alphanumeric())
            {
                // apostrophe inside a word: dropped
            } else if c == '-'
                && !self.split_hyphens
                && !word.is_empty()
                && it.peek().is_some_and(|n| n.is_alphanumeric())
            {
                word.push('-');
                chars += 1;
            } else if !word.is_empty() {
                self.emit(&mut word, chars, f);
                chars = 0;
            }
        }
        if !word.is_empty() {
            self.emit(&mut word, chars, f);
        }
    }
}

impl Tokenizer for WordTokenizer {
    fn for_each_token(&self, text: &str, f: &mut dyn FnMut(&str)) {
        if text.is_ascii() {
            self.for_each_ascii_token(text.as_bytes(), f);
        } else {
            self.for_each_char_token(text, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(t: &WordTokenizer, s: &str) -> Vec<String> {
        let mut v = Vec::new();
        t.tokenize(s, &mut v);
        v
    }

    #[test]
    fn documented_policy() {
        let t = WordTokenizer::default();
        assert_eq!(
            toks(&t, "Don't e-mail the CAFÉ, in 2026 (mp3)!"),
            ["dont", "mail", "the", "café", "in", "mp3"]
        );
        let keep = WordTokenizer {
            split_hyphens: false,
            keep_digits: true,
            min_len: 1,
            ..t
        };
        assert_eq!(
            toks(&keep, "e-mail -x- 2026 a"),
            ["e-mail", "x", "2026", "a"]
        );
        let cased = WordTokenizer {
            lowercase: false,
            ..t
        };
        assert_eq!(toks(&cased, "Tokyo 東京"), ["Tokyo", "東京"]);
        assert!(toks(&t, &"x".repeat(100)).is_empty(), "over max_len");
    }

    proptest::proptest! {
        /// The ASCII path gives the tokens of the char-by-char definition,
        /// whatever the tokenizer's settings.
        #[test]
        fn ascii_tokens_match_the_definition(
            s in "[a-zA-Z0-9 '\\-.,]{0,60}",
            lowercase: bool,
            keep_digits: bool,
            split_hyphens: bool,
            min_len in 1usize..4,
        ) {
            let t = WordTokenizer { lowercase, keep_digits, split_hyphens, min_len, max_len: 8 };
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            t.for_each_ascii_token(s.as_bytes(), &mut |w| fast.push(w.to_owned()));
            t.for_each_char_token(&s, &mut |w| slow.push(w.to_owned()));
            proptest::prop_assert_eq!(fast, slow);
        }
    }
}
