//! Page → term counts, shared by training and crawling so both see the
//! same features: the analyser's terms of title, headings and main text,
//! hashed into 2^20 buckets (stateless, so nothing is coordinated between
//! the trainer and the crawl), plus, when a featurizer is built with more
//! [`Spaces`], BINGO!'s richer feature spaces in their own id ranges
//! ([`FeatureSpace`], told apart by [`space_of`] and [`restrict`]).

use std::sync::Arc;

use focus_core::FeatureSpace;
use focus_html::Document;
use focus_text::{counts, Analyzer, HashingVocabulary, SparseVec, TermId, TextConfig, Vocab};
use xxhash_rust::xxh3::xxh3_64;

/// Bits of a hashed term id; a feature space's tag sits above them.
const TERM_BITS: u32 = 20;
/// The tag's shift: a feature id is `space << SPACE_SHIFT | bucket`.
const SPACE_SHIFT: u32 = 28;
/// Tokens either side within which two terms make a pair (BINGO!'s
/// "sliding window … pairs within a limited word distance").
pub const PAIR_WINDOW: usize = 4;

fn tag(space: FeatureSpace) -> u32 {
    match space {
        FeatureSpace::Terms => 0,
        FeatureSpace::TermPairs => 1,
        FeatureSpace::Neighbours => 2,
        FeatureSpace::Anchors => 3,
    }
}

/// The tag of a feature id.
fn tag_of(id: TermId) -> u32 {
    id.0 >> SPACE_SHIFT
}

/// Whether feature `id` is read by `space`: its own tag, and for the
/// combined [`FeatureSpace::Anchors`] the page's terms too.
fn reads(space: FeatureSpace, id: TermId) -> bool {
    let t = tag_of(id);
    t == tag(space) || (space == FeatureSpace::Anchors && t == tag(FeatureSpace::Terms))
}

fn space_id(space: FeatureSpace, bucket: u32) -> TermId {
    TermId((tag(space) << SPACE_SHIFT) | (bucket & ((1 << TERM_BITS) - 1)))
}

/// The space a feature id belongs to (the predecessors' anchor terms:
/// [`FeatureSpace::Anchors`]).
pub fn space_of(id: TermId) -> Option<FeatureSpace> {
    FeatureSpace::ALL
        .into_iter()
        .find(|&s| tag(s) == tag_of(id))
}

/// The features of `v` that `space` reads: its own, and for the combined
/// [`FeatureSpace::Anchors`] the page's terms too.
pub fn restrict(space: FeatureSpace, v: &SparseVec) -> SparseVec {
    SparseVec::from_unsorted(
        v.entries()
            .iter()
            .filter(|&&(t, _)| reads(space, t))
            .copied()
            .collect(),
    )
}

/// Which feature spaces a featurizer computes besides [`FeatureSpace::Terms`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spaces {
    /// [`FeatureSpace::TermPairs`].
    pub pairs: bool,
    /// [`FeatureSpace::Neighbours`].
    pub neighbours: bool,
    /// [`FeatureSpace::Anchors`].
    pub anchors: bool,
}

impl Spaces {
    /// Every space.
    pub const ALL: Spaces = Spaces {
        pairs: true,
        neighbours: true,
        anchors: true,
    };

    /// The spaces computed, terms first.
    pub fn list(self) -> Vec<FeatureSpace> {
        let mut v = vec![FeatureSpace::Terms];
        v.extend(self.pairs.then_some(FeatureSpace::TermPairs));
        v.extend(self.neighbours.then_some(FeatureSpace::Neighbours));
        v.extend(self.anchors.then_some(FeatureSpace::Anchors));
        v
    }

    /// The spaces of a list (terms are always computed).
    pub fn of(list: &[FeatureSpace]) -> Spaces {
        Spaces {
            pairs: list.contains(&FeatureSpace::TermPairs),
            neighbours: list.contains(&FeatureSpace::Neighbours),
            anchors: list.contains(&FeatureSpace::Anchors),
        }
    }
}

/// Turns analysed pages and plain text into term-count vectors.
#[derive(Debug, Clone)]
pub struct Featurizer {
    analyzer: Arc<Analyzer>,
    vocab: HashingVocabulary,
    spaces: Spaces,
}

impl Featurizer {
    /// A featurizer with the given text configuration (terms only).
    pub fn new(config: TextConfig) -> Self {
        Self {
            analyzer: Arc::new(Analyzer::new(config)),
            vocab: HashingVocabulary::new(TERM_BITS),
            spaces: Spaces::default(),
        }
    }

    /// The same featurizer computing `spaces` too for pages
    /// ([`Featurizer::document`], [`Featurizer::page`]).
    pub fn with_spaces(mut self, spaces: Spaces) -> Self {
        self.spaces = spaces;
        self
    }

    /// The spaces it computes.
    pub fn spaces(&self) -> Spaces {
        self.spaces
    }

    /// Counts of a text's terms (never other spaces: link words and queries
    /// are plain text).
    pub fn text(&self, text: &str) -> SparseVec {
        let mut vocab = self.vocab;
        counts(&self.analyzer, &mut vocab, text)
    }

    /// Counts of an analysed page: title, headings and main text
    /// (navigation and footer boilerplate are left out), and the page's
    /// other spaces (no predecessors' anchors: [`Featurizer::cited`]).
    pub fn document(&self, doc: &Document) -> SparseVec {
        self.cited(doc, &[])
    }

    /// [`Featurizer::document`] of a page that the anchor texts `cited`
    /// link to (its predecessors' anchors, read by
    /// [`FeatureSpace::Anchors`]).
    pub fn cited(&self, doc: &Document, cited: &[String]) -> SparseVec {
        let mut text = String::with_capacity(doc.text.len() + doc.title.len() + 64);
        text.push_str(&doc.title);
        for h in &doc.headings {
            text.push(' ');
            text.push_str(h);
        }
        text.push(' ');
        text.push_str(&doc.text);
        self.page(
            &text,
            doc.links.iter().map(|l| l.anchor_text.as_str()),
            cited.iter().map(String::as_str),
        )
    }

    /// Counts of a page given as its text, its out-links' anchor texts and
    /// the anchor texts of links to it (a page kept in `texts.jsonl`).
    pub fn page<'a>(
        &self,
        text: &str,
        anchors: impl Iterator<Item = &'a str>,
        cited: impl Iterator<Item = &'a str>,
    ) -> SparseVec {
        if self.spaces == Spaces::default() {
            return self.text(text);
        }
        let mut entries: Vec<(TermId, f64)> = self.text(text).entries().to_vec();
        if self.spaces.pairs {
            let mut vocab = self.vocab;
            let mut ids: Vec<u32> = Vec::new();
            self.analyzer
                .for_each_term(text, &mut |t| ids.extend(vocab.id(t).map(|t| t.0)));
            for (i, &a) in ids.iter().enumerate() {
                for &b in ids.iter().skip(i + 1).take(PAIR_WINDOW) {
                    if a != b {
                        let (x, y) = (a.min(b), a.max(b));
                        let h = xxh3_64(&((u64::from(x) << 32) | u64::from(y)).to_le_bytes());
                        let bucket = (h >> (64 - TERM_BITS)) as u32;
                        entries.push((space_id(FeatureSpace::TermPairs, bucket), 1.0));
                    }
                }
            }
        }
        if self.spaces.neighbours {
            for anchor in anchors {
                for &(t, w) in self.text(anchor).entries() {
                    entries.push((space_id(FeatureSpace::Neighbours, t.0), w));
                }
            }
        }
        if self.spaces.anchors {
            for anchor in cited {
                for &(t, w) in self.text(anchor).entries() {
                    entries.push((space_id(FeatureSpace::Anchors, t.0), w));
                }
            }
        }
        SparseVec::from_unsorted(entries)
    }
}

impl Default for Featurizer {
    fn default() -> Self {
        Self::new(TextConfig::chakrabarti())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_live_in_their_own_id_ranges() {
        let terms = Featurizer::default();
        let all = Featurizer::default().with_spaces(Spaces::ALL);
        let text = "cycling races cycling teams";
        let anchors = ["Tour de France", "bike shops"];
        // Terms only: the page is its text's counts, whatever its links.
        let cited = ["Bicycle racing"];
        assert_eq!(
            terms.page(text, anchors.into_iter(), cited.into_iter()),
            terms.text(text)
        );
        let v = all.page(text, anchors.into_iter(), cited.into_iter());
        assert_eq!(restrict(FeatureSpace::Terms, &v), terms.text(text));
        // Terms cycl·race·cycl·team: pairs within the window, without a
        // term paired with itself: (cycl, race) twice, (cycl, team) twice,
        // (race, team) once → 5 pair occurrences.
        let pairs = restrict(FeatureSpace::TermPairs, &v);
        assert!((pairs.sum() - 5.0).abs() < 1e-12, "{pairs:?}");
        let n = restrict(FeatureSpace::Neighbours, &v);
        let anchor_terms = terms.text("Tour de France bike shops");
        assert!((n.sum() - anchor_terms.sum()).abs() < 1e-12);
        // The predecessors' anchors combined with the page's terms: the
        // terms exactly, plus the anchors' terms in their own range.
        let combined = restrict(FeatureSpace::Anchors, &v);
        let (own, cited_terms): (Vec<_>, Vec<_>) = combined
            .entries()
            .iter()
            .partition(|&&(t, _)| space_of(t) == Some(FeatureSpace::Terms));
        assert_eq!(SparseVec::from_unsorted(own), terms.text(text));
        let expected = terms.text("Bicycle racing");
        assert_eq!(cited_terms.len(), expected.entries().len());
        assert!(cited_terms
            .iter()
            .all(|&(t, _)| space_of(t) == Some(FeatureSpace::Anchors)));
        for &(t, _) in v.entries() {
            assert!(space_of(t).is_some());
        }
        // A page no link has cited yet: the combined space is its terms.
        let doc_only = all.page(text, anchors.into_iter(), std::iter::empty());
        assert_eq!(restrict(FeatureSpace::Anchors, &doc_only), terms.text(text));
        assert_eq!(FeatureSpace::parse("pairs"), Some(FeatureSpace::TermPairs));
        assert_eq!(FeatureSpace::parse("anchors"), Some(FeatureSpace::Anchors));
        assert_eq!(Spaces::of(&Spaces::ALL.list()), Spaces::ALL);
    }
}
