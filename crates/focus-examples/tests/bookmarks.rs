//! Loading browsers' bookmarks exports (`fixtures/bookmarks/`): the topic
//! tree, the example URLs of each topic, what is skipped and why, good marks,
//! and the errors a user will meet.

use std::path::{Path, PathBuf};

use focus_core::{Mark, TopicId};
use focus_examples::{load_bookmarks, parse_bookmarks, ExampleSet, ExamplesError, LoadOptions};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../fixtures/bookmarks/{name}"))
}

fn load(name: &str, good: &[&str]) -> ExampleSet {
    let good: Vec<String> = good.iter().map(|&g| g.to_owned()).collect();
    load_bookmarks(&fixture(name), &good, &LoadOptions::default()).unwrap()
}

fn topic_paths(set: &ExampleSet) -> Vec<&str> {
    set.taxonomy
        .ids()
        .skip(1)
        .map(|t| set.taxonomy.path(t))
        .collect()
}

fn urls_of(set: &ExampleSet, path: &str) -> Vec<String> {
    let topic = set.taxonomy.find(path).unwrap();
    set.urls()
        .filter(|(e, _)| e.topic == topic)
        .map(|(_, u)| u.as_str().to_owned())
        .collect()
}

/// (line and title part of the origin, reason) of every skip.
fn skips(set: &ExampleSet, file: &Path) -> Vec<(String, String)> {
    let prefix = format!("{}:", file.display());
    set.skipped
        .iter()
        .map(|s| {
            let origin = s.origin.strip_prefix(&prefix).unwrap_or(&s.origin);
            (origin.to_owned(), s.reason.clone())
        })
        .collect()
}

#[test]
fn firefox_folders_become_topics() {
    let set = load("firefox.html", &[]);
    assert_eq!(
        topic_paths(&set),
        [
            "mozilla_firefox",
            "bookmarks_toolbar",
            "bookmarks_toolbar/science_nature",
            "bookmarks_toolbar/science_nature/birds",
            "bookmarks_toolbar/science_nature/astronomy",
            "bookmarks_toolbar/read_later",
            "other_bookmarks",
            "other_bookmarks/finance_mutual_funds",
        ]
    );
    // The empty folder is a topic without examples.
    let read_later = set.taxonomy.find("bookmarks_toolbar/read_later").unwrap();
    assert!(set.taxonomy.is_leaf(read_later));
    assert_eq!(set.of_topic(read_later).count(), 0);
}

#[test]
fn firefox_bookmarks_are_example_urls_of_their_folder() {
    let set = load("firefox.html", &[]);
    assert_eq!(
        urls_of(&set, "mozilla_firefox"),
        [
            "https://support.mozilla.org/products/firefox",
            "https://support.mozilla.org/kb/customize-firefox-controls-buttons-and-toolbars\
             ?utm_source=firefox-browser&utm_medium=default-bookmarks&utm_campaign=customize",
            "https://www.mozilla.org/contribute/",
            "https://www.mozilla.org/about/",
        ]
    );
    // Entities in URLs are decoded, fragments dropped, the repeated eBird
    // bookmark (another spelling of the same URL) kept once.
    assert_eq!(
        urls_of(&set, "bookmarks_toolbar/science_nature/birds"),
        [
            "https://ebird.org/home",
            "https://www.allaboutbirds.org/guide/search/?q=hawk&sort=az",
            "https://www.audubon.org/bird-guide",
        ]
    );
    assert_eq!(
        urls_of(&set, "bookmarks_toolbar/science_nature/astronomy"),
        ["https://apod.nasa.gov/apod/astropix.html"]
    );
    // The session id is stripped by the canonicaliser.
    assert_eq!(
        urls_of(&set, "other_bookmarks/finance_mutual_funds"),
        [
            "https://investor.vanguard.com/investment-products/mutual-funds",
            "https://www.morningstar.com/funds?region=usa",
        ]
    );
    // Folders hold no examples of their sub-folders' bookmarks.
    assert!(urls_of(&set, "bookmarks_toolbar").is_empty());
    assert!(urls_of(&set, "bookmarks_toolbar/science_nature").is_empty());
    assert_eq!(set.examples.len(), 10);

    // Origins name the file, the line and the (entity-decoded) title.
    let file = fixture("firefox.html");
    let hawks = &set.examples[5];
    assert_eq!(
        hawks.origin,
        format!("{}:30 \"All About Birds – hawks <search>\"", file.display())
    );
}

#[test]
fn firefox_skips_are_reported_with_reasons() {
    let set = load("firefox.html", &[]);
    let file = fixture("firefox.html");
    let skips = skips(&set, &file);
    let origins: Vec<&str> = skips.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(
        origins,
        [
            "12 \"Getting Started\"",
            "22 \"Most Visited\"",
            "23 \"Make readable\"",
            "32 \"eBird (again)\"",
            "38 \"star-chart.pdf\"",
            "52 folder \"★★★\"",
            "54 \"IMDb Top 250\"",
        ]
    );
    let reasons: Vec<&str> = skips.iter().map(|(_, r)| r.as_str()).collect();
    assert!(
        reasons[0].starts_with("not in any folder"),
        "{}",
        reasons[0]
    );
    assert!(reasons[1].starts_with("unsupported scheme `place`"));
    assert!(reasons[2].starts_with("unsupported scheme `javascript`"));
    assert_eq!(
        reasons[3],
        format!(
            "same URL as {}:28 \"eBird - Discover a new world of birding...\" in topic \
             `bookmarks_toolbar/science_nature/birds`",
            file.display()
        )
    );
    assert!(reasons[4].starts_with("unsupported scheme `file`"));
    assert!(reasons[5].contains("makes no topic name"));
    assert_eq!(
        reasons[6],
        "in folder \"★★★\", whose name makes no topic name"
    );
}

#[test]
fn chrome_export_merges_same_named_folders() {
    let set = load("chrome.html", &[]);
    assert_eq!(
        topic_paths(&set),
        [
            "bookmarks_bar",
            "bookmarks_bar/c_rust",
            "bookmarks_bar/cycling",
            "recipes",
        ]
    );
    // "C++ / Rust" and "c++   rust" are one topic; the Rust book once.
    assert_eq!(
        urls_of(&set, "bookmarks_bar/c_rust"),
        [
            "https://doc.rust-lang.org/book/",
            "https://en.cppreference.com/w/",
            "https://crates.io/search?q=html&sort=downloads",
        ]
    );
    // Chrome writes `&` unescaped; `&region` is not the `&reg` entity.
    assert_eq!(
        urls_of(&set, "bookmarks_bar/cycling"),
        ["https://www.bikeradar.com/search?q=gravel&region=uk"]
    );
    assert_eq!(
        urls_of(&set, "recipes"),
        ["https://www.seriouseats.com/the-food-lab"]
    );
    // Document order across topics.
    let order: Vec<&str> = set
        .examples
        .iter()
        .map(|e| set.taxonomy.path(e.topic))
        .collect();
    assert_eq!(
        order,
        [
            "bookmarks_bar/c_rust",
            "bookmarks_bar/c_rust",
            "bookmarks_bar/c_rust",
            "bookmarks_bar/cycling",
            "recipes",
        ]
    );

    let file = fixture("chrome.html");
    let skips = skips(&set, &file);
    let origins: Vec<&str> = skips.iter().map(|(o, _)| o.as_str()).collect();
    assert_eq!(
        origins,
        [
            "18 \"The Book\"",
            "21 \"Settings\"",
            "25 \"route notes\"",
            "28 \"Hacker News\"",
        ]
    );
    assert!(skips[0].1.starts_with("same URL as"));
    assert!(skips[1].1.starts_with("unsupported scheme `chrome`"));
    assert!(skips[2].1.starts_with("unsupported scheme `data`"));
    assert!(skips[3].1.starts_with("not in any folder"));
}

#[test]
fn good_paths_are_marked() {
    let set = load(
        "firefox.html",
        &[
            "bookmarks_toolbar/science_nature/birds",
            "/other_bookmarks/finance_mutual_funds/",
        ],
    );
    let t = &set.taxonomy;
    let mark = |p: &str| t.mark(t.find(p).unwrap());
    assert_eq!(mark("bookmarks_toolbar/science_nature/birds"), Mark::Good);
    assert_eq!(mark("other_bookmarks/finance_mutual_funds"), Mark::Good);
    assert_eq!(mark("bookmarks_toolbar/science_nature"), Mark::Path);
    assert_eq!(
        mark("bookmarks_toolbar/science_nature/astronomy"),
        Mark::Null
    );
    assert_eq!(mark("mozilla_firefox"), Mark::Null);
    assert_eq!(t.mark(TopicId::ROOT), Mark::Path);
    assert_eq!(t.good_topics().len(), 2);
}

#[test]
fn unknown_good_path_is_the_error_load_gives() {
    // A path spelt as the folder is in the browser, not as its topic name.
    let err = load_bookmarks(
        &fixture("chrome.html"),
        &["Bookmarks bar/Cycling".to_owned()],
        &LoadOptions::default(),
    )
    .unwrap_err();
    match &err {
        ExamplesError::UnknownGood { path, known } => {
            assert_eq!(path, "Bookmarks bar/Cycling");
            assert_eq!(
                known,
                "bookmarks_bar, bookmarks_bar/c_rust, bookmarks_bar/cycling, recipes"
            );
        }
        other => panic!("expected UnknownGood, got {other:?}"),
    }
    assert!(err.to_string().contains("bookmarks_bar/cycling"));
    // Nested good topics break the invariant, as with folders.
    let nested = [
        "bookmarks_bar".to_owned(),
        "bookmarks_bar/cycling".to_owned(),
    ];
    assert!(matches!(
        load_bookmarks(&fixture("chrome.html"), &nested, &LoadOptions::default()),
        Err(ExamplesError::Good(_))
    ));
}

#[test]
fn a_too_large_file_is_an_error_naming_it() {
    let path = fixture("chrome.html");
    let size = std::fs::metadata(&path).unwrap().len();
    let opts = LoadOptions {
        max_file_bytes: size - 1,
        ..LoadOptions::default()
    };
    let err = load_bookmarks(&path, &[], &opts).unwrap_err();
    match &err {
        ExamplesError::TooLarge {
            path: p,
            size: s,
            limit,
        } => {
            assert_eq!(p, &path);
            assert_eq!(*s, size);
            assert_eq!(*limit, size - 1);
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        format!(
            "{}: {size} bytes, over the {} byte limit",
            path.display(),
            size - 1
        )
    );
    // Exactly at the limit is fine.
    let opts = LoadOptions {
        max_file_bytes: size,
        ..LoadOptions::default()
    };
    assert!(load_bookmarks(&path, &[], &opts).is_ok());
}

#[test]
fn missing_file_and_file_without_folders_are_errors() {
    let missing = fixture("no-such-export.html");
    let err = load_bookmarks(&missing, &[], &LoadOptions::default()).unwrap_err();
    assert!(matches!(&err, ExamplesError::Io { path, .. } if path == &missing));

    let dir = tempfile::tempdir().unwrap();
    let flat = dir.path().join("flat.html");
    std::fs::write(
        &flat,
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF=\"https://a.example/\">A</A>\n</DL><p>\n",
    )
    .unwrap();
    let err = load_bookmarks(&flat, &[], &LoadOptions::default()).unwrap_err();
    assert!(
        matches!(&err, ExamplesError::NoBookmarkFolders(f) if f == &flat.display().to_string())
    );
    assert!(err
        .to_string()
        .starts_with(&format!("{}: no bookmark folders", flat.display())));
}

#[test]
fn load_and_parse_agree_and_are_deterministic() {
    let path = fixture("firefox.html");
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = parse_bookmarks(&text, &[], &LoadOptions::default()).unwrap();
    let loaded = load("firefox.html", &[]);
    assert_eq!(parsed.taxonomy, loaded.taxonomy);
    let content = |s: &ExampleSet| -> Vec<_> {
        s.examples
            .iter()
            .map(|e| (e.topic, e.content.clone()))
            .collect()
    };
    assert_eq!(content(&parsed), content(&loaded));
    assert_eq!(parsed.examples[0].origin, "(bookmarks):15 \"Get Help\"");
    assert_eq!(load("firefox.html", &[]).examples, loaded.examples);
}
