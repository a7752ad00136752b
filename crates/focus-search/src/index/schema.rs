//! What is indexed and how: the [`SearchDoc`] a caller hands in, the
//! tantivy schema and its [`Fields`], the English analyzer registered as
//! [`ANALYZER`], and the expansion of a document's topic path into the
//! ancestor terms that the topic filter matches exactly.

use std::path::Path;

use serde::{Deserialize, Serialize};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, STORED, STRING,
};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, TantivyDocument};

use crate::SearchError;

/// The name under which the English analyzer is registered.
pub const ANALYZER: &str = "focus_en";

/// One page to index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchDoc {
    /// The page's (canonical) URL; also the tie-breaker between equal scores.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// The page's visible text.
    pub text: String,
    /// The topic path the classifier assigned (`a/b/c`), if any.
    pub topic: Option<String>,
    /// The classifier's confidence for that topic (must be finite).
    pub confidence: f64,
    /// The page's HITS authority score, 0 when unknown (must be finite).
    pub authority: f64,
}

/// The schema's fields, looked up by name once per opened index.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fields {
    pub(super) url: Field,
    pub(super) title: Field,
    pub(super) text: Field,
    pub(super) topic: Field,
    pub(super) topic_path: Field,
    pub(super) confidence: Field,
    pub(super) authority: Field,
}

impl Fields {
    pub(super) fn schema() -> Schema {
        let analyzed = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(ANALYZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        let mut b = Schema::builder();
        b.add_text_field("url", STRING | STORED | FAST);
        b.add_text_field("title", analyzed.clone().set_stored());
        b.add_text_field("text", analyzed);
        b.add_text_field("topic", STORED);
        b.add_text_field("topic_path", STRING);
        b.add_f64_field("confidence", FAST | STORED);
        b.add_f64_field("authority", FAST | STORED);
        b.build()
    }

    pub(super) fn from_schema(schema: &Schema, dir: &Path) -> Result<Self, SearchError> {
        let get = |name: &str| {
            schema.get_field(name).map_err(|_| SearchError::NotAnIndex {
                path: dir.to_path_buf(),
                reason: format!("its schema has no `{name}` field"),
            })
        };
        Ok(Self {
            url: get("url")?,
            title: get("title")?,
            text: get("text")?,
            topic: get("topic")?,
            topic_path: get("topic_path")?,
            confidence: get("confidence")?,
            authority: get("authority")?,
        })
    }

    pub(super) fn document(&self, doc: &SearchDoc) -> Result<TantivyDocument, SearchError> {
        for (name, value) in [("confidence", doc.confidence), ("authority", doc.authority)] {
            if !value.is_finite() {
                return Err(SearchError::InvalidDoc {
                    url: doc.url.clone(),
                    reason: format!("{name} is {value}, not a finite number"),
                });
            }
        }
        let mut d = TantivyDocument::default();
        d.add_text(self.url, &doc.url);
        d.add_text(self.title, &doc.title);
        d.add_text(self.text, &doc.text);
        if let Some(path) = doc.topic.as_deref().and_then(normalise_topic) {
            for ancestor in ancestors(&path) {
                d.add_text(self.topic_path, ancestor);
            }
            d.add_text(self.topic, &path);
        }
        d.add_f64(self.confidence, doc.confidence);
        d.add_f64(self.authority, doc.authority);
        Ok(d)
    }
}

/// `a//b/` → `a/b`; `None` for the root.
pub(super) fn normalise_topic(path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    (!segments.is_empty()).then(|| segments.join("/"))
}

/// `a/b/c` → `a`, `a/b`, `a/b/c`.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/')
        .map(|(i, _)| &path[..i])
        .chain(std::iter::once(path))
}

/// Registers the English analyzer under [`ANALYZER`] in `index` (tantivy
/// does not persist analyzers, so every created or opened index needs it).
pub(super) fn register_analyzer(index: &Index) -> Result<(), SearchError> {
    index.tokenizers().register(ANALYZER, english_analyzer()?);
    Ok(())
}

fn english_analyzer() -> Result<TextAnalyzer, SearchError> {
    let stop_words = StopWordFilter::new(Language::English).ok_or_else(|| {
        SearchError::Engine(tantivy::TantivyError::InternalError(
            "tantivy has no English stop-word list".to_owned(),
        ))
    })?;
    Ok(TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(stop_words)
        .filter(Stemmer::new(Language::English))
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_paths_expand_to_ancestors() {
        assert_eq!(
            ancestors("a/b/c").collect::<Vec<_>>(),
            ["a", "a/b", "a/b/c"]
        );
        assert_eq!(ancestors("a").collect::<Vec<_>>(), ["a"]);
        assert_eq!(normalise_topic("/a//b/").as_deref(), Some("a/b"));
        assert_eq!(normalise_topic("//"), None);
    }
}
