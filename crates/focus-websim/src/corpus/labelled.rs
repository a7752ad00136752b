//! The generic importer: a user's own labelled crawl replayed as a web.
//!
//! ```text
//! DIR/
//!   labels.tsv                 url<TAB>topic/path   (one line per label; `#` comments)
//!   www.example.com/           one folder per host, as `wget --mirror` saves a site
//!     index.html               http://www.example.com/
//!     robots.txt               served as the host's robots.txt (else 404)
//!     cycling/tours.html       http://www.example.com/cycling/tours.html
//! ```
//!
//! Every file under a host folder is served at its path, as `wget --mirror`
//! names files (`corpus/mirror_files.rs`: `index.html` also at its
//! folder's path, a `?` in a name starts the URL's query, a name ending in
//! the `.html` that `--adjust-extension` adds also answers without it),
//! byte for byte (a page keeps its charset), typed by extension or by its
//! first bytes. A link that `--convert-links` made between hosts
//! (`/www.other.org/x.html` on the citing host) is redirected to the URL
//! it was ([`Corpus::converted_link`]).
//! A label whose URL has no file is skipped and counted (the page is then a
//! dead link, as on the real web). Links between pages (for the backlink
//! service) are read from `href` attributes of the HTML files and resolved
//! against each page's URL.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use focus_core::{Taxonomy, TopicId};

use super::mirror_files::{aliases, content_type, served_path};
use super::{Body, Corpus, CorpusPage};
use crate::site::io;
use crate::WebsimError;

/// Every file under `dir` (sorted, hidden entries skipped).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), WebsimError> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.'))
        })
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// `href` values of `<a>`, `<area>`, `<frame>` and `<iframe>` tags (`src`
/// for frames), roughly: enough for a backlink index.
fn hrefs(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lower = html.to_ascii_lowercase();
    for attr in ["href=", "src="] {
        let mut from = 0;
        while let Some(i) = lower[from..].find(attr) {
            let start = from + i + attr.len();
            from = start;
            let rest = &html[start..];
            let value = match rest.chars().next() {
                Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
                _ => rest
                    .split(|c: char| c.is_whitespace() || c == '>')
                    .next()
                    .unwrap_or(""),
            };
            if !value.is_empty() {
                out.push(value.to_owned());
            }
        }
    }
    out
}

pub(super) fn load(dir: &Path) -> Result<Corpus, WebsimError> {
    let mut hosts: Vec<String> = Vec::new();
    let mut pages: Vec<CorpusPage> = Vec::new();
    let mut extra = HashMap::new();
    let mut host_dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    host_dirs.sort();
    for hdir in host_dirs {
        let Some(host) = hdir.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if host.starts_with('.') {
            continue;
        }
        let h = hosts.len() as u32;
        hosts.push(host.to_ascii_lowercase());
        let mut files = Vec::new();
        walk(&hdir, &mut files)?;
        for file in files {
            let Ok(rel) = file.strip_prefix(&hdir) else {
                continue;
            };
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let saved = format!("/{}", rel.join("/"));
            if saved == "/robots.txt" {
                let bytes = std::fs::read(&file).map_err(io(&file))?;
                let text = String::from_utf8_lossy(&bytes).into_owned();
                extra.insert((h, saved), ("text/plain; charset=utf-8".to_owned(), text));
                continue;
            }
            let title = rel.last().cloned().unwrap_or_default();
            let path = served_path(&saved);
            let aliases = aliases(&saved);
            pages.push(CorpusPage {
                host: h,
                path,
                aliases,
                title,
                labels: Vec::new(),
                body: Body::File(file),
            });
        }
    }
    let mut corpus = Corpus {
        name: dir
            .file_name()
            .map_or_else(|| "corpus".to_owned(), |n| n.to_string_lossy().into_owned()),
        taxonomy: Taxonomy::new(),
        aliases: HashMap::new(),
        hosts,
        pages,
        by_key: HashMap::new(),
        host_ids: HashMap::new(),
        out_links: Vec::new(),
        in_degree: Vec::new(),
        topic_pages: Vec::new(),
        extra,
        skipped: 0,
        search_index: std::sync::OnceLock::new(),
        backlink_index: std::sync::OnceLock::new(),
    };
    corpus.out_links = vec![Vec::new(); corpus.pages.len()];
    corpus = corpus.index();
    read_labels(dir, &mut corpus)?;
    read_links(&mut corpus);
    Ok(corpus.index())
}

fn read_labels(dir: &Path, corpus: &mut Corpus) -> Result<(), WebsimError> {
    let file = dir.join("labels.tsv");
    let text = std::fs::read_to_string(&file).map_err(io(&file))?;
    let mut labelled: Vec<(u32, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        let (Some(url), Some(topic)) = (cols.next(), cols.next()) else {
            return Err(WebsimError::Corpus {
                path: file.display().to_string(),
                message: format!("line {}: expected url<TAB>topic", n + 1),
            });
        };
        let topic = topic.trim().trim_matches('/');
        if topic.is_empty() {
            corpus.skipped += 1;
            continue;
        }
        match corpus.page_id(url.trim()) {
            Some(p) => labelled.push((p, topic.to_owned())),
            None => corpus.skipped += 1,
        }
    }
    let mut paths: Vec<&str> = labelled.iter().map(|(_, t)| t.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    for p in paths {
        corpus.taxonomy.add_path(p)?;
    }
    for (p, t) in &labelled {
        if let Some(id) = corpus.taxonomy.find(t) {
            let labels: &mut Vec<TopicId> = &mut corpus.pages[*p as usize].labels;
            if !labels.contains(&id) {
                labels.push(id);
            }
        }
    }
    Ok(())
}

fn read_links(corpus: &mut Corpus) {
    for pid in 0..corpus.pages.len() {
        let page = &corpus.pages[pid];
        let Body::File(file) = &page.body else {
            continue;
        };
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        if content_type(file, &bytes) != "text/html" {
            continue;
        }
        let html = String::from_utf8_lossy(&bytes);
        let base = format!("http://{}{}", corpus.hosts[page.host as usize], page.path);
        let Ok(base) = url::Url::parse(&base) else {
            continue;
        };
        let mut targets = Vec::new();
        for href in hrefs(&html) {
            let Ok(target) = base.join(&href) else {
                continue;
            };
            if let Some(t) = corpus.page_id(target.as_str()) {
                targets.push(t);
            }
        }
        corpus.out_links[pid] = targets;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::Site;

    #[test]
    fn hrefs_finds_quoted_and_bare_values() {
        let h =
            hrefs("<a href=\"/a\">x</a><A HREF='b.html'>y</A><a href=c>z</a><iframe src=\"/f\">");
        assert_eq!(h, vec!["/a", "b.html", "c", "/f"]);
    }

    #[test]
    fn a_labelled_folder_is_a_web() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let host = root.join("www.example.com");
        std::fs::create_dir_all(host.join("bikes")).unwrap();
        std::fs::write(
            host.join("index.html"),
            "<title>Home</title><a href=\"/bikes/tour.html\">tour</a>",
        )
        .unwrap();
        std::fs::write(
            host.join("bikes/tour.html"),
            "<title>Tour</title><a href=\"../\">home</a> <a href=\"http://other.org/x.html\">x</a>",
        )
        .unwrap();
        std::fs::write(
            host.join("robots.txt"),
            "User-agent: *\nDisallow: /private/\n",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("other.org")).unwrap();
        std::fs::write(root.join("other.org/x.html"), "<p>funds</p>").unwrap();
        std::fs::write(
            root.join("labels.tsv"),
            "# url\ttopic\nhttp://www.example.com/bikes/tour.html\trecreation/cycling\n\
             http://other.org/x.html\tbusiness/funds\nhttp://other.org/gone.html\tbusiness/funds\n",
        )
        .unwrap();
        let c = Corpus::load(root).unwrap();
        assert_eq!(c.page_count(), 3);
        assert_eq!(c.host_count(), 2);
        assert_eq!(c.skipped_lines(), 1);
        let cycling = c.taxonomy().find("recreation/cycling").unwrap();
        assert_eq!(
            c.truth_topics("http://www.example.com/bikes/tour.html"),
            vec![cycling]
        );
        assert!(c.truth_topics("http://www.example.com/").is_empty());
        assert_eq!(c.truth_count(c.taxonomy().find("recreation").unwrap()), 1);
        let r = c.render("www.example.com", "/robots.txt");
        assert_eq!(r.status, 200);
        assert_eq!(c.render("other.org", "/gone.html").status, 404);
        assert_eq!(c.render("other.org", "/robots.txt").status, 404);
        assert_eq!(c.render("nowhere.net", "/").status, 421);
        let home = c.render("www.example.com", "/");
        assert_eq!(home.status, 200);
        assert!(String::from_utf8_lossy(&home.body).contains("tour"));
        assert_eq!(
            c.backlinks("http://other.org/x.html", 10),
            vec!["http://www.example.com/bikes/tour.html".to_owned()]
        );
        assert_eq!(
            c.backlinks("http://www.example.com/", 10),
            vec!["http://www.example.com/bikes/tour.html".to_owned()]
        );
        assert_eq!(
            c.search("funds", 10),
            vec!["http://other.org/x.html".to_owned()]
        );
    }

    fn content_type_of(r: &crate::response::Response) -> &str {
        r.headers
            .iter()
            .find(|(k, _)| k == "content-type")
            .map_or("", |(_, v)| v.as_str())
    }

    /// A site as `wget --mirror` saves it: a query in a file name, a
    /// server-side extension, a name without one, `--adjust-extension`'s
    /// added `.html`, a page in windows-1252.
    #[test]
    fn a_wget_mirror_is_served_at_its_urls_with_its_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let host = root.join("shop.example");
        std::fs::create_dir_all(&host).unwrap();
        let latin1: &[u8] =
            b"<html><head><meta charset=windows-1252><title>Caf\xe9</title></head></html>";
        std::fs::write(host.join("page.php?id=3"), latin1).unwrap();
        std::fs::write(host.join("page.php?id=4.html"), "<p>four</p>").unwrap();
        std::fs::write(
            host.join("about"),
            "\n  <!DOCTYPE html><title>About</title>",
        )
        .unwrap();
        std::fs::write(host.join("data.bin"), b"\x00\x01 not html").unwrap();
        std::fs::write(host.join("myindex.html"), "<p>mine</p>").unwrap();
        std::fs::write(
            host.join("index.html"),
            "<a href=\"page.php?id=3\">3</a> <a href=\"/page.php?id=4\">4</a> \
             <a href=\"about\">about</a>",
        )
        .unwrap();
        std::fs::write(
            root.join("labels.tsv"),
            "http://shop.example/page.php?id=3\tfood/cafes\n\
             http://shop.example/page.php?id=4\tfood/cafes\n\
             http://shop.example/about\tfood/shops\n\
             http://shop.example/page.php?id=9\tfood/cafes\n",
        )
        .unwrap();
        let c = Corpus::load(root).unwrap();
        assert_eq!(c.page_count(), 6);
        // Only a whole `index.html` answers for its folder.
        assert_eq!(c.render("shop.example", "/myindex.html").status, 200);
        assert_eq!(c.render("shop.example", "/my").status, 404);
        // id=9 has no file: a dead link, skipped and counted.
        assert_eq!(c.skipped_lines(), 1);
        let cafes = c.taxonomy().find("food/cafes").unwrap();
        assert_eq!(c.truth_count(cafes), 2);

        let three = c.render("shop.example", "/page.php?id=3");
        assert_eq!(three.status, 200);
        assert_eq!(content_type_of(&three), "text/html");
        assert_eq!(&three.body[..], latin1, "served as stored");
        let pid = c.page_id("http://shop.example/page.php?id=3").unwrap();
        assert!(c.page_html(pid).unwrap().contains("<title>Café</title>"));
        let four = c.render("shop.example", "/page.php?id=4");
        assert_eq!((four.status, &four.body[..]), (200, &b"<p>four</p>"[..]));
        assert_eq!(c.render("shop.example", "/page.php?id=4.html").status, 200);
        assert_eq!(c.render("shop.example", "/page.php?id=9").status, 404);
        assert_eq!(c.render("shop.example", "/page.php").status, 404);
        assert_eq!(
            content_type_of(&c.render("shop.example", "/about")),
            "text/html"
        );
        assert_eq!(
            content_type_of(&c.render("shop.example", "/data.bin")),
            "application/octet-stream"
        );
        // A query on a file saved without one is ignored, as a static
        // server ignores it.
        assert_eq!(c.render("shop.example", "/about?ref=nav").status, 200);
        let mut back = c.backlinks("http://shop.example/page.php?id=4", 10);
        back.sort();
        assert_eq!(back, vec!["http://shop.example/".to_owned()]);
        assert_eq!(
            c.backlinks("http://shop.example/about", 10),
            vec!["http://shop.example/".to_owned()]
        );
    }

    /// Two hosts mirrored with `wget --mirror --span-hosts
    /// --convert-links`: links to a folder point at its `index.html`, and
    /// a link to the other host's saved page is relative to the mirror's
    /// folders, so it resolves to `/<other host>/...` on the citing host.
    #[test]
    fn a_converted_multi_host_mirror_keeps_its_links() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let a = root.join("www.a.test");
        let b = root.join("b.test/docs");
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(
            a.join("index.html"),
            "<a href=\"index.html\">home</a> <a href=\"../b.test/docs/index.html\">docs</a> \
             <a href=\"../b.test/docs/x.html?v=1\">x</a>",
        )
        .unwrap();
        std::fs::write(b.join("index.html"), "<a href=\"x.html\">x</a>").unwrap();
        std::fs::write(b.join("x.html"), "<p>x</p>").unwrap();
        // A real folder named like a host stays that folder's.
        std::fs::create_dir_all(a.join("b.test")).unwrap();
        std::fs::write(a.join("b.test/own.html"), "<p>a's own</p>").unwrap();
        std::fs::write(
            root.join("labels.tsv"),
            "http://www.a.test/\thome\nhttp://b.test/docs/\tdocs\n",
        )
        .unwrap();
        let c = Corpus::load(root).unwrap();
        assert_eq!(c.skipped_lines(), 0);

        // A folder's page answers at its index.html too, as the same page.
        assert_eq!(c.render("www.a.test", "/index.html").status, 200);
        assert_eq!(
            c.page_id("http://www.a.test/index.html"),
            c.page_id("http://www.a.test/")
        );
        // The converted cross-host link goes back to the URL it was.
        let moved = c.render("www.a.test", "/b.test/docs/index.html");
        assert_eq!(moved.status, 301);
        assert_eq!(
            moved.header("location"),
            Some("http://b.test/docs/index.html")
        );
        let moved = c.render("www.a.test", "/b.test/docs/x.html?v=1");
        assert_eq!(
            moved.header("location"),
            Some("http://b.test/docs/x.html?v=1")
        );
        assert_eq!(
            c.page_id("http://www.a.test/b.test/docs/index.html"),
            c.page_id("http://b.test/docs/")
        );
        assert_eq!(c.render("www.a.test", "/b.test/own.html").status, 200);
        assert_eq!(c.render("www.a.test", "/b.test/docs/none.html").status, 404);
        // The links between pages (backlinks, the oracle's graph) are the
        // pages the converted links meant.
        assert_eq!(
            c.backlinks("http://b.test/docs/", 10),
            vec!["http://www.a.test/".to_owned()]
        );
        let mut back = c.backlinks("http://b.test/docs/x.html", 10);
        back.sort();
        assert_eq!(
            back,
            vec![
                "http://b.test/docs/".to_owned(),
                "http://www.a.test/".to_owned()
            ]
        );
    }

    #[test]
    fn a_topic_named_by_common_words_is_queried_by_its_subtopics() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let host = root.join("www.example.com");
        std::fs::create_dir_all(&host).unwrap();
        // "it", "and" and "the" are on every page, "software" and "hardware" on
        // one each.
        let pages = [
            ("a.html", "it and the software page", "it/software"),
            (
                "b.html",
                "it and the hardware page",
                "it/hardware_and_the_rest",
            ),
            ("c.html", "it and the garden page", "home/garden"),
        ];
        let mut labels = Vec::new();
        for (file, text, topic) in pages {
            std::fs::write(host.join(file), format!("<p>{text}</p>")).unwrap();
            labels.push(format!("http://www.example.com/{file}\t{topic}\n"));
        }
        let labels = labels.concat();
        std::fs::write(root.join("labels.tsv"), labels).unwrap();
        let c = Corpus::load(root).unwrap();
        let tax = c.taxonomy();
        let it = tax.find("it").unwrap();
        assert_eq!(c.topic_query(it), "hardware rest software");
        // A name with a telling word keeps only that word.
        let rest = tax.find("it/hardware_and_the_rest").unwrap();
        assert_eq!(c.topic_query(rest), "hardware rest");
        assert_eq!(c.topic_query(tax.find("home/garden").unwrap()), "garden");
    }
}
