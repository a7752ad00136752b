//! Vocabularies map terms to [`TermId`]s: a growable, freezable
//! [`Vocabulary`] or a [`HashingVocabulary`] of 2^k buckets for unbounded
//! term sets (no state, so no coordination between processes).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use crate::sparse::TermId;

/// Term ↔ id mapping.
pub trait Vocab: Send + Sync {
    /// The id of `term`, adding it if the vocabulary may grow.
    fn id(&mut self, term: &str) -> Option<TermId>;
    /// The id of `term` without adding it.
    fn get(&self, term: &str) -> Option<TermId>;
    /// The term of an id, when known.
    fn term(&self, id: TermId) -> Option<&str>;
}

/// A growable vocabulary; once frozen, unknown terms get no id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Vocabulary {
    terms: Vec<String>,
    #[serde(skip)]
    ids: HashMap<String, TermId>,
    frozen: bool,
}

impl Vocabulary {
    /// An empty, growable vocabulary.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stops growth.
    pub fn freeze(&mut self) {
        self.frozen = true;
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Rebuilds the lookup table (after deserialising).
    pub fn reindex(&mut self) {
        self.ids = self
            .terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), TermId(i as u32)))
            .collect();
    }
}

impl Vocab for Vocabulary {
    fn id(&mut self, term: &str) -> Option<TermId> {
        if let Some(&id) = self.ids.get(term) {
            return Some(id);
        }
        if self.frozen || self.terms.len() >= u32::MAX as usize {
            return None;
        }
        let id = TermId(self.terms.len() as u32);
        self.terms.push(term.to_owned());
        self.ids.insert(term.to_owned(), id);
        Some(id)
    }

    fn get(&self, term: &str) -> Option<TermId> {
        self.ids.get(term).copied()
    }

    fn term(&self, id: TermId) -> Option<&str> {
        self.terms.get(id.0 as usize).map(String::as_str)
    }
}

/// Feature hashing into 2^bits buckets (collisions are accepted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashingVocabulary {
    bits: u32,
}

impl HashingVocabulary {
    /// 2^bits buckets (bits clamped to 1..=32).
    pub fn new(bits: u32) -> Self {
        Self {
            bits: bits.clamp(1, 32),
        }
    }

    fn bucket(self, term: &str) -> TermId {
        let h = xxh3_64(term.as_bytes());
        TermId((h >> (64 - self.bits)) as u32)
    }
}

impl Vocab for HashingVocabulary {
    fn id(&mut self, term: &str) -> Option<TermId> {
        Some(self.bucket(term))
    }
    fn get(&self, term: &str) -> Option<TermId> {
        Some(self.bucket(term))
    }
    fn term(&self, _id: TermId) -> Option<&str> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growable_then_frozen() {
        let mut v = Vocabulary::new();
        let a = v.id("alpha").unwrap();
        assert_eq!(v.id("alpha"), Some(a));
        assert_eq!(v.term(a), Some("alpha"));
        v.freeze();
        assert_eq!(v.id("beta"), None);
        assert_eq!(v.len(), 1);
    }

    #[test]
    fn hashing_is_stable_and_bounded() {
        let mut h = HashingVocabulary::new(10);
        let id = h.id("alpha").unwrap();
        assert_eq!(h.get("alpha"), Some(id));
        assert!(id.0 < 1024);
    }
}
