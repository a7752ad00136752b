//! Loading example-set folders: taxonomy from nested folders, good marks,
//! examples of every kind, and the errors and skips a user will meet.

use std::fs;
use std::path::Path;

use focus_core::Mark;
use focus_examples::{load, ExampleContent, ExamplesError, LoadOptions};

fn write(root: &Path, rel: &str, body: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, body).unwrap();
}

fn sample_set() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        "business/investment/mutual_funds/a.html",
        "<title>Funds</title>",
    );
    write(
        r,
        "business/investment/mutual_funds/notes.txt",
        "index funds",
    );
    write(
        r,
        "business/investment/stocks/urls.txt",
        "# bookmarks\nHTTP://Example.COM:80/x#y\n\nnot a url\n",
    );
    write(r, "recreation/cycling/b.htm", "<p>bikes</p>");
    write(r, "recreation/cycling/picture.png", "\u{89}PNG");
    write(r, "recreation/.hidden/c.html", "ignored");
    write(r, "README.txt", "no topic");
    dir
}

#[test]
fn folders_become_a_taxonomy_with_labelled_examples() {
    let dir = sample_set();
    let set = load(
        dir.path(),
        &["business/investment/mutual_funds".to_owned()],
        &LoadOptions::default(),
    )
    .unwrap();
    let t = &set.taxonomy;
    let mf = t.find("business/investment/mutual_funds").unwrap();
    assert_eq!(t.mark(mf), Mark::Good);
    assert_eq!(t.mark(t.find("business/investment").unwrap()), Mark::Path);
    assert_eq!(t.leaves().len(), 3);
    assert!(t.find("recreation/.hidden").is_none());

    let of_mf: Vec<_> = set.of_topic(mf).collect();
    assert_eq!(of_mf.len(), 2);
    assert!(matches!(&of_mf[0].content, ExampleContent::Html(h) if h.contains("Funds")));
    assert!(matches!(&of_mf[1].content, ExampleContent::Text(s) if s == "index funds"));

    let urls: Vec<_> = set.urls().map(|(_, u)| u.as_str().to_owned()).collect();
    assert_eq!(urls, ["http://example.com/x"]);
    // The bad URL line and the PNG are skipped with reasons; README.txt in the root belongs to no topic.
    assert_eq!(set.skipped.len(), 2);
    assert!(set.skipped.iter().any(|s| s.origin.ends_with("urls.txt:4")));
}

#[test]
fn topic_order_is_deterministic() {
    let dir = sample_set();
    let a = load(dir.path(), &[], &LoadOptions::default()).unwrap();
    let b = load(dir.path(), &[], &LoadOptions::default()).unwrap();
    assert_eq!(a.taxonomy, b.taxonomy);
    let paths: Vec<_> = a
        .taxonomy
        .ids()
        .map(|t| a.taxonomy.path(t).to_owned())
        .collect();
    assert_eq!(paths[1], "business");
    assert_eq!(a.examples, b.examples);
}

#[test]
fn unknown_or_nested_good_topics_are_clear_errors() {
    let dir = sample_set();
    let err = load(dir.path(), &["arts".to_owned()], &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, ExamplesError::UnknownGood { .. }));
    assert!(err.to_string().contains("business/investment/mutual_funds"));
    let nested = [
        "business".to_owned(),
        "business/investment/stocks".to_owned(),
    ];
    assert!(matches!(
        load(dir.path(), &nested, &LoadOptions::default()),
        Err(ExamplesError::Good(_))
    ));
}

#[test]
fn missing_or_empty_folders_are_errors() {
    assert!(matches!(
        load(
            Path::new("/nonexistent/focus-examples"),
            &[],
            &LoadOptions::default()
        ),
        Err(ExamplesError::Io { .. })
    ));
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        load(empty.path(), &[], &LoadOptions::default()),
        Err(ExamplesError::Empty(_))
    ));
}

#[test]
fn oversized_files_are_skipped() {
    let dir = sample_set();
    let opts = LoadOptions {
        max_file_bytes: 5,
        ..LoadOptions::default()
    };
    let set = load(dir.path(), &[], &opts).unwrap();
    assert!(set.skipped.iter().any(|s| s.reason.contains("byte limit")));
}

/// A page saved from the web keeps its own charset, as the fetcher would
/// read it: a `<meta charset>`, a byte-order mark, or a guess from the bytes.
#[test]
fn saved_pages_are_decoded_by_their_charset() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let folder = r.join("food/cafes");
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("a.html"),
        b"<meta charset=\"windows-1252\"><title>Caf\xe9 cr\xe8me</title>",
    )
    .unwrap();
    fs::write(
        folder.join("b.txt"),
        b"\xef\xbb\xbfna\xc3\xafve caf\xc3\xa9",
    )
    .unwrap();
    fs::write(
        folder.join("c.html"),
        b"<p>Le caf\xe9 est une boisson tr\xe8s r\xe9pandue, servie chaude ou froide \
          dans les caf\xe9s de la r\xe9gion, o\xf9 l'on d\xe9guste aussi du th\xe9.</p>",
    )
    .unwrap();
    let set = load(r, &["food/cafes".to_owned()], &LoadOptions::default()).unwrap();
    let texts: Vec<&str> = set
        .examples
        .iter()
        .map(|e| match &e.content {
            ExampleContent::Html(s) | ExampleContent::Text(s) => s.as_str(),
            ExampleContent::Url(u) => u.as_str(),
        })
        .collect();
    assert_eq!(texts.len(), 3);
    assert!(texts[0].contains("Café crème"), "{}", texts[0]);
    assert_eq!(texts[1], "naïve café");
    assert!(texts[2].contains("très répandue"), "{}", texts[2]);
    assert!(texts.iter().all(|t| !t.contains('\u{fffd}')));
}
