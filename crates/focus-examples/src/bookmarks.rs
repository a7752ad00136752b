//! Reads a browser's bookmarks export (the Netscape bookmark file format of
//! Firefox, Chrome, Edge and Safari) as an example set: folders are topics,
//! bookmarked http(s) pages are example URLs. This is how BINGO! (Sizov et
//! al. 2003) starts a crawl: from the user's bookmarks.
//!
//! ```text
//! <!DOCTYPE NETSCAPE-Bookmark-file-1>
//! <DL><p>
//!     <DT><H3>Bookmarks bar</H3>          a folder: the topic `bookmarks_bar`
//!     <DL><p>
//!         <DT><H3>Science</H3>            the topic `bookmarks_bar/science`
//!         <DL><p>
//!             <DT><A HREF="https://ebird.org/">eBird</A>   an example URL
//!             <DD>a description (ignored)
//!         </DL><p>
//!     </DL><p>
//! </DL><p>
//! ```
//!
//! The file is tokenised with html5ever (which decodes entities and copes
//! with the unclosed `<DT>`, `<DD>` and `<p>` of real exports) and the
//! structure is tracked from the token stream: an `<H3>`'s text names the
//! folder whose `<DL>` opens next, `<DL>` and `</DL>` push and pop the folder
//! stack, and an `<A HREF>` is a bookmark of the innermost open folder.
//!
//! Folder names become topic names by [`topic_name`]. The browsers' own
//! top-level folders ("Bookmarks bar", "Other bookmarks", "Bookmarks
//! Toolbar", ...) are kept as ordinary topics, so a good topic is named
//! with them (`bookmarks_bar/science/birds`). Chrome and Edge write the
//! contents of "Other bookmarks", and Firefox those of the Bookmarks Menu,
//! directly in the outermost list with no folder around them: their folders
//! are then top-level topics and their loose bookmarks are outside every
//! folder.
//!
//! Skipped, with the reason (never fatal): bookmarks outside every folder,
//! bookmarks whose URL is not http(s) (`javascript:`, `place:`, `file:`,
//! `chrome://`, `data:`) or does not canonicalise, a bookmark repeating a
//! URL already in its topic, and folders whose name makes no topic name
//! (with every bookmark inside them).

use std::collections::HashMap;
use std::io::Read as _;
use std::path::Path;

use focus_core::{Taxonomy, TopicId};

use crate::load::{mark_good_paths, ExampleSet, ExamplesError, LoadOptions, Skipped};
use crate::{Example, ExampleContent};

mod scan;

use scan::{scan, Item};

/// Where [`parse_bookmarks`] says examples came from (it has no file name).
const UNNAMED_SOURCE: &str = "(bookmarks)";

/// Reads the bookmarks file at `path` (at most `opts.max_file_bytes`, decoded
/// lossily as UTF-8) and builds its example set; see [`parse_bookmarks`].
pub fn load_bookmarks(
    path: &Path,
    good: &[String],
    opts: &LoadOptions,
) -> Result<ExampleSet, ExamplesError> {
    let io = ExamplesError::io(path);
    let too_large = |size| ExamplesError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit: opts.max_file_bytes,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > opts.max_file_bytes {
        return Err(too_large(size));
    }
    // The file may grow between the check and the read: read one byte more
    // than the limit at most.
    let mut bytes = Vec::new();
    file.take(opts.max_file_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > opts.max_file_bytes {
        return Err(too_large(bytes.len() as u64));
    }
    let html = String::from_utf8_lossy(&bytes);
    build(&html, &path.display().to_string(), good, opts)
}

/// Builds an example set from the text of a bookmarks file.
///
/// Each folder is a topic (its path of [`topic_name`]s is the topic path);
/// each bookmark with an http(s) URL in a folder is an
/// [`ExampleContent::Url`] of that folder's topic, canonicalised with
/// `opts.canonicalizer`, in document order, each URL once per topic. An
/// example's origin is `file:line "title"` (the file is `(bookmarks)` here,
/// the path with [`load_bookmarks`]). The `good` topic paths are marked good
/// as [`crate::load`] marks them. A file without any usable folder is
/// [`ExamplesError::NoBookmarkFolders`].
pub fn parse_bookmarks(
    html: &str,
    good: &[String],
    opts: &LoadOptions,
) -> Result<ExampleSet, ExamplesError> {
    build(html, UNNAMED_SOURCE, good, opts)
}

/// The topic name of a bookmark folder, or `None` when nothing is left.
///
/// The rule: the name is lower-cased; letters and digits (of any script),
/// `-`, `_` and `.` are kept; every run of other characters (whitespace,
/// punctuation, symbols) between kept characters becomes one `_`, and such
/// runs at either end are dropped. A name without any letter or digit
/// (empty, `★`, `...`, `--`) makes no topic. "Mutual Funds" ->
/// `mutual_funds`, "C++ / Rust" -> `c_rust`, "(Work)" -> `work`, "Web 2.0"
/// -> `web_2.0`.
pub fn topic_name(folder: &str) -> Option<String> {
    let mut name = String::with_capacity(folder.len());
    let mut gap = false;
    for c in folder.chars() {
        if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
            if gap && !name.is_empty() {
                name.push('_');
            }
            gap = false;
            name.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    if name.chars().any(char::is_alphanumeric) {
        Some(name)
    } else {
        None
    }
}

/// A level of the folder stack.
#[derive(Debug, Clone)]
enum Place {
    /// Outside every folder.
    Outside,
    /// Inside the folder of this topic.
    Topic(TopicId),
    /// Inside a folder (named here) whose name makes no topic, or below one.
    Unnamed(String),
}

fn build(
    html: &str,
    source: &str,
    good: &[String],
    opts: &LoadOptions,
) -> Result<ExampleSet, ExamplesError> {
    let mut set = ExampleSet {
        taxonomy: Taxonomy::new(),
        examples: Vec::new(),
        skipped: Vec::new(),
    };
    // The first origin of each (topic, URL), to keep a URL once per topic.
    let mut seen: HashMap<(TopicId, String), String> = HashMap::new();
    let mut stack: Vec<Place> = Vec::new();
    // The folder named by the last `<H3>`, until its `<DL>` opens.
    let mut pending: Option<Place> = None;
    for item in scan(html) {
        let here = stack.last().cloned().unwrap_or(Place::Outside);
        match item {
            Item::Folder { name, line } => {
                let origin = format!("{source}:{line} folder \"{name}\"");
                let parent = match here {
                    Place::Outside => TopicId::ROOT,
                    Place::Topic(t) => t,
                    Place::Unnamed(_) => {
                        pending = Some(here);
                        continue;
                    }
                };
                let topic = topic_name(&name)
                    .ok_or_else(|| {
                        "folder name has no letter or digit, so it makes no topic name; \
                         its bookmarks are skipped"
                            .to_owned()
                    })
                    .and_then(|n| {
                        set.taxonomy
                            .add_child(parent, &n)
                            .map_err(|e| e.to_string())
                    });
                let place = match topic {
                    Ok(id) => Place::Topic(id),
                    Err(reason) => {
                        set.skipped.push(Skipped { origin, reason });
                        Place::Unnamed(name)
                    }
                };
                pending = Some(place);
            }
            Item::Open => stack.push(pending.take().unwrap_or(here)),
            Item::Close => {
                pending = None;
                stack.pop();
            }
            Item::Bookmark { href, title, line } => {
                pending = None;
                let origin = format!("{source}:{line} \"{title}\"");
                let skip = |reason: String| Skipped {
                    origin: origin.clone(),
                    reason,
                };
                let topic = match here {
                    Place::Topic(t) => t,
                    Place::Outside => {
                        set.skipped.push(skip(
                            "not in any folder (each folder is a topic, so a bookmark \
                             outside folders has none)"
                                .to_owned(),
                        ));
                        continue;
                    }
                    Place::Unnamed(folder) => {
                        set.skipped.push(skip(format!(
                            "in folder \"{folder}\", whose name makes no topic name"
                        )));
                        continue;
                    }
                };
                let Some(href) = href else {
                    set.skipped.push(skip("bookmark has no HREF".to_owned()));
                    continue;
                };
                let url = match opts.canonicalizer.canonicalize(&href) {
                    Ok(url) => url,
                    Err(e) => {
                        set.skipped.push(skip(e.to_string()));
                        continue;
                    }
                };
                let key = (topic, url.as_str().to_owned());
                if let Some(first) = seen.get(&key) {
                    set.skipped.push(skip(format!(
                        "same URL as {first} in topic `{}`",
                        set.taxonomy.path(topic)
                    )));
                    continue;
                }
                seen.insert(key, origin.clone());
                set.examples.push(Example {
                    topic,
                    origin,
                    content: ExampleContent::Url(url),
                });
            }
        }
    }
    if set.taxonomy.is_empty() {
        return Err(ExamplesError::NoBookmarkFolders(source.to_owned()));
    }
    mark_good_paths(&mut set.taxonomy, good)?;
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::Mark;

    fn parse(html: &str) -> ExampleSet {
        parse_bookmarks(html, &[], &LoadOptions::default()).unwrap()
    }

    fn paths(set: &ExampleSet) -> Vec<String> {
        set.taxonomy
            .ids()
            .skip(1)
            .map(|t| set.taxonomy.path(t).to_owned())
            .collect()
    }

    /// (topic path, URL) of every example, in order.
    fn examples(set: &ExampleSet) -> Vec<(String, String)> {
        set.urls()
            .map(|(e, u)| (set.taxonomy.path(e.topic).to_owned(), u.as_str().to_owned()))
            .collect()
    }

    #[test]
    fn topic_names_follow_the_rule() {
        assert_eq!(topic_name("Mutual Funds").as_deref(), Some("mutual_funds"));
        assert_eq!(topic_name("C++ / Rust").as_deref(), Some("c_rust"));
        assert_eq!(
            topic_name("  Birds\t of\nPrey ").as_deref(),
            Some("birds_of_prey")
        );
        assert_eq!(topic_name("(Work)").as_deref(), Some("work"));
        assert_eq!(topic_name("Web 2.0").as_deref(), Some("web_2.0"));
        assert_eq!(topic_name("my-list_x").as_deref(), Some("my-list_x"));
        assert_eq!(topic_name("Café Ärger").as_deref(), Some("café_ärger"));
        assert_eq!(topic_name("a/b").as_deref(), Some("a_b"));
        assert_eq!(topic_name("★ ☆"), None);
        assert_eq!(topic_name("   "), None);
        assert_eq!(topic_name(""), None);
        assert_eq!(topic_name(". .."), None);
        assert_eq!(topic_name("-- _ --"), None);
        assert_eq!(topic_name("._a").as_deref(), Some("._a"));
    }

    #[test]
    fn folders_nest_and_bookmarks_land_in_the_innermost() {
        let set = parse(
            r#"<DL><p>
            <DT><H3>Outer</H3>
            <DL><p>
                <DT><A HREF="http://a.example/">A</A>
                <DT><H3>Inner</H3>
                <DL><p>
                    <DT><A HREF="http://b.example/">B</A>
                </DL><p>
                <DT><A HREF="http://c.example/">C</A>
            </DL><p>
            <DT><H3>Empty</H3>
            <DL><p>
            </DL><p>
            </DL><p>"#,
        );
        assert_eq!(paths(&set), ["outer", "outer/inner", "empty"]);
        assert_eq!(
            examples(&set),
            [
                ("outer".to_owned(), "http://a.example/".to_owned()),
                ("outer/inner".to_owned(), "http://b.example/".to_owned()),
                ("outer".to_owned(), "http://c.example/".to_owned()),
            ]
        );
        assert_eq!(set.examples[1].origin, "(bookmarks):7 \"B\"");
        assert!(set.skipped.is_empty());
    }

    #[test]
    fn same_named_siblings_merge_and_urls_are_kept_once_per_topic() {
        let set = parse(
            r#"<DL><p>
            <DT><H3>Mutual Funds</H3>
            <DL><p><DT><A HREF="http://f.example/a">A</A></DL><p>
            <DT><H3>mutual   funds</H3>
            <DL><p>
                <DT><A HREF="HTTP://F.EXAMPLE:80/a#top">A again</A>
                <DT><A HREF="http://f.example/b">B</A>
            </DL><p>
            <DT><H3>Other</H3>
            <DL><p><DT><A HREF="http://f.example/a">A elsewhere</A></DL><p>
            </DL><p>"#,
        );
        assert_eq!(paths(&set), ["mutual_funds", "other"]);
        assert_eq!(
            examples(&set),
            [
                ("mutual_funds".to_owned(), "http://f.example/a".to_owned()),
                ("mutual_funds".to_owned(), "http://f.example/b".to_owned()),
                ("other".to_owned(), "http://f.example/a".to_owned()),
            ]
        );
        assert_eq!(set.skipped.len(), 1);
        assert_eq!(set.skipped[0].origin, "(bookmarks):6 \"A again\"");
        assert_eq!(
            set.skipped[0].reason,
            "same URL as (bookmarks):3 \"A\" in topic `mutual_funds`"
        );
    }

    #[test]
    fn unusable_bookmarks_are_skipped_with_reasons() {
        let set = parse(
            r#"<DL><p>
            <DT><A HREF="http://loose.example/">Loose</A>
            <DT><H3>Keep</H3>
            <DL><p>
                <DT><A HREF="javascript:alert(1)">Bookmarklet</A>
                <DT><A HREF="not a url">Broken</A>
                <DT><A>No href</A>
                <DT><A HREF="https://ok.example/">OK</A>
            </DL><p>
            <DT><H3>★★</H3>
            <DL><p>
                <DT><H3>Below stars</H3>
                <DL><p><DT><A HREF="http://deep.example/">Deep</A></DL><p>
            </DL><p>
            </DL><p>"#,
        );
        assert_eq!(paths(&set), ["keep"]);
        assert_eq!(
            examples(&set),
            [("keep".to_owned(), "https://ok.example/".to_owned())]
        );
        let skipped: Vec<(&str, &str)> = set
            .skipped
            .iter()
            .map(|s| (s.origin.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(skipped.len(), 6, "{skipped:#?}");
        assert!(
            skipped[0].0 == "(bookmarks):2 \"Loose\"" && skipped[0].1.contains("not in any folder")
        );
        assert!(skipped[1].1.contains("unsupported scheme `javascript`"));
        assert!(skipped[2].1.starts_with("not a valid URL"));
        assert_eq!(skipped[3].1, "bookmark has no HREF");
        assert!(skipped[4].0.ends_with("folder \"★★\"") && skipped[4].1.contains("no topic"));
        assert_eq!(skipped[5].0, "(bookmarks):13 \"Deep\"");
        assert_eq!(
            skipped[5].1,
            "in folder \"★★\", whose name makes no topic name"
        );
    }

    #[test]
    fn good_paths_are_marked_and_checked() {
        let html = "<DL><p><DT><H3>Bookmarks bar</H3><DL><p>
            <DT><H3>Science</H3><DL><p><DT><H3>Birds</H3><DL><p></DL><p></DL><p>
            <DT><H3>Sport</H3><DL><p></DL><p>
            </DL><p></DL><p>";
        let good = ["bookmarks_bar/science/birds".to_owned()];
        let set = parse_bookmarks(html, &good, &LoadOptions::default()).unwrap();
        let t = &set.taxonomy;
        assert_eq!(
            t.mark(t.find("bookmarks_bar/science/birds").unwrap()),
            Mark::Good
        );
        assert_eq!(t.mark(t.find("bookmarks_bar").unwrap()), Mark::Path);
        assert_eq!(t.mark(t.find("bookmarks_bar/sport").unwrap()), Mark::Null);

        let err =
            parse_bookmarks(html, &["science".to_owned()], &LoadOptions::default()).unwrap_err();
        match err {
            ExamplesError::UnknownGood { path, known } => {
                assert_eq!(path, "science");
                assert_eq!(
                    known,
                    "bookmarks_bar, bookmarks_bar/science, bookmarks_bar/science/birds, \
                     bookmarks_bar/sport"
                );
            }
            other => panic!("expected UnknownGood, got {other:?}"),
        }
        let nested = ["bookmarks_bar".to_owned(), "bookmarks_bar/sport".to_owned()];
        assert!(matches!(
            parse_bookmarks(html, &nested, &LoadOptions::default()),
            Err(ExamplesError::Good(_))
        ));
    }

    /// The example of `docs/formats.md`.
    #[test]
    fn the_documented_example() {
        let set = parse(
            r#"<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
    <DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><H3>Science &amp; Nature</H3>
        <DL><p>
            <DT><H3>Birds</H3>
            <DL><p>
                <DT><A HREF="https://ebird.org/home" ADD_DATE="1702304811">eBird</A>
                <DD>a description (ignored)
                <DT><A HREF="javascript:void(0)">Bookmarklet</A>
            </DL><p>
        </DL><p>
    </DL><p>
    <DT><A HREF="https://news.ycombinator.com/">Hacker News</A>
</DL><p>"#,
        );
        assert_eq!(
            paths(&set),
            [
                "bookmarks_bar",
                "bookmarks_bar/science_nature",
                "bookmarks_bar/science_nature/birds"
            ]
        );
        assert_eq!(
            examples(&set),
            [(
                "bookmarks_bar/science_nature/birds".to_owned(),
                "https://ebird.org/home".to_owned()
            )]
        );
        let skipped: Vec<&str> = set.skipped.iter().map(|s| s.origin.as_str()).collect();
        assert_eq!(
            skipped,
            [
                "(bookmarks):11 \"Bookmarklet\"",
                "(bookmarks):15 \"Hacker News\""
            ]
        );
    }

    #[test]
    fn a_file_without_folders_is_an_error() {
        let err = parse_bookmarks(
            "<DL><p><DT><A HREF=\"http://a.example/\">A</A></DL><p>",
            &[],
            &LoadOptions::default(),
        )
        .unwrap_err();
        assert!(matches!(&err, ExamplesError::NoBookmarkFolders(s) if s == "(bookmarks)"));
        assert!(err
            .to_string()
            .starts_with("(bookmarks): no bookmark folders"));
        assert!(matches!(
            parse_bookmarks("<html><p>just a page</p>", &[], &LoadOptions::default()),
            Err(ExamplesError::NoBookmarkFolders(_))
        ));
    }
}
