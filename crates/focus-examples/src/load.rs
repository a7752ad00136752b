//! Walks an example-set folder and builds the taxonomy and example list.

use std::path::{Path, PathBuf};

use focus_core::{CanonicalUrl, Canonicalizer, Taxonomy, TaxonomyError, TopicId};

/// Why an example set cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ExamplesError {
    /// The folder (or a file in it) cannot be read.
    #[error("{path}: {cause}")]
    Io {
        /// What was being read.
        path: PathBuf,
        /// The underlying error.
        cause: std::io::Error,
    },
    /// A folder name cannot be a topic name.
    #[error("{path}: folder name cannot be a topic: {cause}")]
    BadTopic {
        /// The folder.
        path: PathBuf,
        /// Why.
        cause: TaxonomyError,
    },
    /// A `--good` path names no topic folder.
    #[error("good topic `{path}` is not a folder of the example set; topics are: {known}")]
    UnknownGood {
        /// The path as given.
        path: String,
        /// The topic paths that exist, comma-separated.
        known: String,
    },
    /// The good topics break the taxonomy invariant.
    #[error("good topics: {0}")]
    Good(TaxonomyError),
    /// The set has no topic folders at all.
    #[error("{0}: no topic folders (each sub-folder of the example set is a topic)")]
    Empty(PathBuf),
    /// A file to read whole (a bookmarks file) is larger than
    /// [`LoadOptions::max_file_bytes`].
    #[error("{path}: {size} bytes, over the {limit} byte limit")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes (at least this many were found).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A bookmarks file holds no folder that makes a topic.
    #[error(
        "{0}: no bookmark folders with a usable name (each folder of a browser's bookmarks \
         export is a topic; bookmarks outside folders are not examples)"
    )]
    NoBookmarkFolders(String),
}

impl ExamplesError {
    /// [`ExamplesError::Io`] of `path`, for `map_err`.
    pub(crate) fn io(path: &Path) -> impl Fn(std::io::Error) -> Self + Copy + '_ {
        move |cause| Self::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// Limits applied while loading.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Larger files are skipped (and reported) rather than read; a larger
    /// bookmarks file is an error ([`ExamplesError::TooLarge`]).
    pub max_file_bytes: u64,
    /// Canonicalises the URLs of `urls.txt` and of bookmarks.
    pub canonicalizer: Canonicalizer,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            max_file_bytes: 10 * 1024 * 1024,
            canonicalizer: Canonicalizer::default(),
        }
    }
}

/// What an example holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExampleContent {
    /// An HTML page read from a file (decoded as the fetcher decodes a page:
    /// byte-order mark, `<meta charset>`, else a guess; `focus_core::charset`).
    Html(String),
    /// Plain text read from a file (decoded the same way).
    Text(String),
    /// A URL to fetch before training.
    Url(CanonicalUrl),
}

/// One labelled example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The topic folder it was found in.
    pub topic: TopicId,
    /// Where it came from (file, or `urls.txt` with its line).
    pub origin: String,
    /// Its content.
    pub content: ExampleContent,
}

/// Something that was skipped, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// File (and line, for URLs) that was skipped.
    pub origin: String,
    /// Why.
    pub reason: String,
}

/// A loaded example set.
#[derive(Debug, Clone)]
pub struct ExampleSet {
    /// Topics from the folder tree, with the good marks applied.
    pub taxonomy: Taxonomy,
    /// Every example, in a deterministic order (sorted paths for a folder,
    /// document order for a bookmarks file).
    pub examples: Vec<Example>,
    /// Entries that were not used, with reasons.
    pub skipped: Vec<Skipped>,
}

impl ExampleSet {
    /// The examples of one topic.
    pub fn of_topic(&self, topic: TopicId) -> impl Iterator<Item = &Example> {
        self.examples.iter().filter(move |e| e.topic == topic)
    }

    /// The URLs still to be fetched.
    pub fn urls(&self) -> impl Iterator<Item = (&Example, &CanonicalUrl)> {
        self.examples.iter().filter_map(|e| match &e.content {
            ExampleContent::Url(u) => Some((e, u)),
            _ => None,
        })
    }
}

/// Loads the example set under `dir` and marks `good` topic paths good.
pub fn load(dir: &Path, good: &[String], opts: &LoadOptions) -> Result<ExampleSet, ExamplesError> {
    let mut set = ExampleSet {
        taxonomy: Taxonomy::new(),
        examples: Vec::new(),
        skipped: Vec::new(),
    };
    let mut stack = vec![(dir.to_path_buf(), TopicId::ROOT)];
    while let Some((folder, topic)) = stack.pop() {
        let entries = sorted_entries(&folder)?;
        // Children pushed in reverse so that topics are numbered in sorted order.
        let mut subfolders = Vec::new();
        for path in entries {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                let child = set.taxonomy.add_child(topic, &name).map_err(|cause| {
                    ExamplesError::BadTopic {
                        path: path.clone(),
                        cause,
                    }
                })?;
                subfolders.push((path, child));
            } else if topic != TopicId::ROOT {
                read_file(&path, &name, topic, opts, &mut set)?;
            }
        }
        stack.extend(subfolders.into_iter().rev());
    }
    if set.taxonomy.is_empty() {
        return Err(ExamplesError::Empty(dir.to_path_buf()));
    }
    mark_good_paths(&mut set.taxonomy, good)?;
    Ok(set)
}

/// Marks each of the `good` topic paths good (shared by every reader of
/// example sets): a path that names no topic (or the root) is
/// [`ExamplesError::UnknownGood`], nested good topics are
/// [`ExamplesError::Good`].
pub(crate) fn mark_good_paths(
    taxonomy: &mut Taxonomy,
    good: &[String],
) -> Result<(), ExamplesError> {
    for path in good {
        let trimmed = path.trim_matches('/');
        let Some(id) = taxonomy.find(trimmed).filter(|&t| t != TopicId::ROOT) else {
            let known: Vec<&str> = taxonomy.ids().skip(1).map(|t| taxonomy.path(t)).collect();
            return Err(ExamplesError::UnknownGood {
                path: path.clone(),
                known: known.join(", "),
            });
        };
        taxonomy.mark_good(id).map_err(ExamplesError::Good)?;
    }
    Ok(())
}

fn sorted_entries(folder: &Path) -> Result<Vec<PathBuf>, ExamplesError> {
    let io = ExamplesError::io(folder);
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(io)? {
        entries.push(entry.map_err(io)?.path());
    }
    entries.sort();
    Ok(entries)
}

fn read_file(
    path: &Path,
    name: &str,
    topic: TopicId,
    opts: &LoadOptions,
    set: &mut ExampleSet,
) -> Result<(), ExamplesError> {
    let origin = path.display().to_string();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let kind = if name.eq_ignore_ascii_case("urls.txt") {
        Kind::Urls
    } else if ext == "html" || ext == "htm" {
        Kind::Html
    } else if ext == "txt" {
        Kind::Text
    } else {
        set.skipped.push(Skipped {
            origin,
            reason: "not .html, .htm, .txt or urls.txt".to_owned(),
        });
        return Ok(());
    };
    let io = ExamplesError::io(path);
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > opts.max_file_bytes {
        set.skipped.push(Skipped {
            origin,
            reason: format!("{size} bytes, over the {} byte limit", opts.max_file_bytes),
        });
        return Ok(());
    }
    // A page saved from the web keeps its charset: decoded by the rule the
    // fetcher applies to the same page fetched (no Content-Type here).
    let (text, _) = focus_core::charset::decode(&std::fs::read(path).map_err(io)?, "");
    match kind {
        Kind::Html => set.examples.push(Example {
            topic,
            origin,
            content: ExampleContent::Html(text),
        }),
        Kind::Text => set.examples.push(Example {
            topic,
            origin,
            content: ExampleContent::Text(text),
        }),
        Kind::Urls => {
            for (i, line) in text.lines().enumerate() {
                let line_origin = format!("{origin}:{}", i + 1);
                let url = line.split('#').next().unwrap_or_default().trim();
                if url.is_empty() {
                    continue;
                }
                match opts.canonicalizer.canonicalize(url) {
                    Ok(u) => set.examples.push(Example {
                        topic,
                        origin: line_origin,
                        content: ExampleContent::Url(u),
                    }),
                    Err(e) => set.skipped.push(Skipped {
                        origin: line_origin,
                        reason: e.to_string(),
                    }),
                }
            }
        }
    }
    Ok(())
}

enum Kind {
    Html,
    Text,
    Urls,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message carries the cause and `source()` does not repeat it, so
    /// a chain printed whole (anyhow's `Error: … Caused by: …`) says it once.
    #[test]
    fn the_cause_is_said_once() {
        let e =
            ExamplesError::io(Path::new("ex/birds"))(std::io::Error::other("permission denied"));
        assert_eq!(e.to_string(), "ex/birds: permission denied");
        assert!(std::error::Error::source(&e).is_none());
        let e = ExamplesError::BadTopic {
            path: PathBuf::from("ex/a"),
            cause: TaxonomyError::InvalidName(String::new()),
        };
        assert!(e.to_string().contains("invalid topic name"), "{e}");
        assert!(std::error::Error::source(&e).is_none());
    }
}
