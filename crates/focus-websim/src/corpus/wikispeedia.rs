//! The Wikispeedia importer: 4,604 "Wikipedia for Schools" articles with
//! their subject categories and hyperlinks, replayed as one site.
//!
//! * Every article is a page `http://wikispeedia.test/wiki/<name>` (the
//!   name as `articles.tsv` spells it, percent-encoded).
//! * The categories `subject.A.B.C` become the topic tree `A/B/C`; the
//!   source's spellings (`subject.Science.Biology.Birds`,
//!   `Science.Biology.Birds`) are accepted as aliases of the paths.
//! * Pages are rendered from `plaintext/<name>.txt` on request: title,
//!   `<h2>` headings, paragraphs and lists; each out-link becomes an anchor
//!   on the first mention of its target's title in the text, the rest a
//!   list at the end; a site-wide header with navigation and a footer, in
//!   `<header>`, `<nav>` and `<footer>` elements with class names as real
//!   sites write them. The text file's "Related subjects: …" line is left
//!   out: it spells the page's category labels, i.e. the ground truth.
//! * Site pages without labels (`/`, `/about.html`, `/help.html`,
//!   `/licence.html`) are what the navigation links to; robots.txt allows
//!   everything.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use focus_core::{Taxonomy, TopicId};

use super::{Body, Corpus, CorpusPage};
use crate::html::escape_into;
use crate::site::io;
use crate::WebsimError;

/// The one host of the replayed Wikispeedia site.
pub const WIKISPEEDIA_HOST: &str = "wikispeedia.test";

const SITE_NAME: &str = "Wikipedia for Schools";

fn bad(dir: &Path, file: &str, message: impl Into<String>) -> WebsimError {
    WebsimError::Corpus {
        path: dir.join(file).display().to_string(),
        message: message.into(),
    }
}

/// Non-comment, non-empty lines of a TSV file.
fn lines(dir: &Path, file: &str) -> Result<Vec<String>, WebsimError> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    Ok(text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// The title an article name stands for (`Bird_flu` → `Bird flu`).
fn title_of(name: &str) -> String {
    percent_encoding::percent_decode_str(name)
        .decode_utf8_lossy()
        .replace('_', " ")
}

/// The topic path of a category (`subject.Science.Biology` →
/// `Science/Biology`).
fn topic_path(category: &str) -> String {
    category
        .strip_prefix("subject.")
        .unwrap_or(category)
        .replace('.', "/")
}

pub(super) fn load(dir: &Path) -> Result<Corpus, WebsimError> {
    let names = lines(dir, "articles.tsv")?;
    if names.is_empty() {
        return Err(bad(dir, "articles.tsv", "no articles"));
    }
    let id_of: HashMap<&str, u32> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i as u32))
        .collect();
    let mut cats: Vec<(u32, String)> = Vec::new();
    for (n, line) in lines(dir, "categories.tsv")?.iter().enumerate() {
        let (name, cat) = line
            .split_once('\t')
            .ok_or_else(|| bad(dir, "categories.tsv", format!("line {}: no tab", n + 1)))?;
        if let Some(&p) = id_of.get(name) {
            cats.push((p, cat.trim().to_owned()));
        }
    }
    let mut paths: Vec<String> = cats.iter().map(|(_, c)| topic_path(c)).collect();
    paths.sort();
    paths.dedup();
    let mut taxonomy = Taxonomy::new();
    let mut aliases = HashMap::new();
    for p in &paths {
        let id = taxonomy.add_path(p)?;
        aliases.insert(format!("subject.{}", p.replace('/', ".")), id);
        aliases.insert(p.replace('/', "."), id);
    }
    let mut labels: Vec<Vec<TopicId>> = vec![Vec::new(); names.len()];
    for (p, c) in &cats {
        if let Some(t) = taxonomy.find(&topic_path(c)) {
            labels[*p as usize].push(t);
        }
    }
    let mut out_links: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
    let mut skipped = 0usize;
    for line in lines(dir, "links.tsv")? {
        let Some((a, b)) = line.split_once('\t') else {
            skipped += 1;
            continue;
        };
        match (id_of.get(a), id_of.get(b.trim())) {
            (Some(&a), Some(&b)) => out_links[a as usize].push(b),
            _ => skipped += 1,
        }
    }
    let pages = names
        .iter()
        .zip(labels)
        .map(|(name, labels)| CorpusPage {
            host: 0,
            path: format!("/wiki/{name}"),
            aliases: Vec::new(),
            title: title_of(name),
            labels,
            body: Body::Article(dir.join("plaintext").join(format!("{name}.txt"))),
        })
        .collect::<Vec<_>>();
    let mut extra = HashMap::new();
    extra.insert(
        (0, "/robots.txt".to_owned()),
        (
            "text/plain; charset=utf-8".to_owned(),
            "User-agent: *\nDisallow:\n".to_owned(),
        ),
    );
    for (path, title, text) in site_pages(pages.len()) {
        extra.insert(
            (0, path.to_owned()),
            ("text/html; charset=utf-8".to_owned(), page(title, &text)),
        );
    }
    Ok(Corpus {
        name: "wikispeedia".into(),
        taxonomy,
        aliases,
        hosts: vec![WIKISPEEDIA_HOST.to_owned()],
        pages,
        by_key: HashMap::new(),
        host_ids: HashMap::new(),
        out_links,
        in_degree: Vec::new(),
        topic_pages: Vec::new(),
        extra,
        skipped,
        search_index: std::sync::OnceLock::new(),
        backlink_index: std::sync::OnceLock::new(),
    }
    .index())
}

/// The site's own pages: what the navigation and footer link to.
fn site_pages(articles: usize) -> Vec<(&'static str, &'static str, String)> {
    let about = format!(
        "<p>This selection of {articles} articles was chosen from the English Wikipedia for \
         schools: checked for suitability, arranged by subject, and made available offline \
         and online.</p>"
    );
    vec![
        (
            "/",
            SITE_NAME,
            format!(
                "<p>Welcome to {SITE_NAME}, a free encyclopedia for children and \
                     teachers.</p>{about}"
            ),
        ),
        ("/about.html", "About the selection", about),
        (
            "/help.html",
            "Help",
            "<p>Follow the links inside an article to related articles. Use your browser's \
             back button to return.</p>"
                .to_owned(),
        ),
        (
            "/licence.html",
            "Licence",
            "<p>Article text is available under the GNU Free Documentation License. See the \
             original articles for their authors.</p>"
                .to_owned(),
        ),
    ]
}

/// A whole page of the site around `main` (already HTML).
fn page(title: &str, main: &str) -> String {
    let mut out = String::with_capacity(main.len() + 1200);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    escape_into(&mut out, title);
    out.push_str(" - ");
    out.push_str(SITE_NAME);
    out.push_str(
        "</title>\n<link rel=\"stylesheet\" href=\"/css/schools.css\">\n</head>\n<body>\n\
         <header class=\"site-header\"><a class=\"logo\" href=\"/\">",
    );
    out.push_str(SITE_NAME);
    out.push_str(
        "</a>\n<nav class=\"site-nav\" aria-label=\"Site\"><ul><li><a href=\"/\">Home</a></li>\
         <li><a href=\"/about.html\">About the selection</a></li>\
         <li><a href=\"/help.html\">Help</a></li></ul></nav>\n</header>\n\
         <main id=\"content\">\n<article>\n<h1>",
    );
    escape_into(&mut out, title);
    out.push_str("</h1>\n");
    out.push_str(main);
    out.push_str(
        "\n</article>\n</main>\n<footer class=\"site-footer\"><p>2007 Schools Wikipedia \
         Selection. Text is available under the <a href=\"/licence.html\">GNU Free \
         Documentation License</a>.</p></footer>\n</body>\n</html>\n",
    );
    out
}

/// One block of an article's text.
#[derive(Debug, PartialEq)]
enum Block {
    Heading(String),
    Para(String),
    Item(String),
}

/// Splits a Wikispeedia plain-text article into its title and blocks:
/// unindented lines are headings, `*` lines list items, indented lines
/// paragraphs; the copyright marker, the title line, the "Related
/// subjects" line (the labels) and the closing "Retrieved from …" credits
/// are dropped (the credits become the footer).
fn parse(text: &str) -> (Vec<Block>, Vec<String>) {
    let mut blocks = Vec::new();
    let mut credits = Vec::new();
    let mut current: Option<Block> = None;
    let mut seen_title = false;
    let mut in_credits = false;
    let flush = |current: &mut Option<Block>, blocks: &mut Vec<Block>| {
        if let Some(b) = current.take() {
            blocks.push(b);
        }
    };
    for raw in text.lines() {
        let line = raw.trim_end();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            flush(&mut current, &mut blocks);
            continue;
        }
        if in_credits {
            credits.push(trimmed.to_owned());
            continue;
        }
        if trimmed == "#copyright" {
            continue;
        }
        if !seen_title && !line.starts_with(' ') {
            seen_title = true;
            continue;
        }
        if trimmed.starts_with("2007 Schools Wikipedia Selection") {
            continue;
        }
        if trimmed.starts_with("Retrieved from") {
            flush(&mut current, &mut blocks);
            in_credits = true;
            credits.push(trimmed.to_owned());
            continue;
        }
        if let Some(item) = trimmed.strip_prefix("* ") {
            flush(&mut current, &mut blocks);
            current = Some(Block::Item(item.trim().to_owned()));
            continue;
        }
        match &mut current {
            Some(Block::Para(p) | Block::Item(p)) if line.starts_with(' ') => {
                p.push(' ');
                p.push_str(trimmed);
            }
            _ => {
                flush(&mut current, &mut blocks);
                current = Some(if line.starts_with(' ') {
                    Block::Para(trimmed.to_owned())
                } else {
                    Block::Heading(trimmed.to_owned())
                });
            }
        }
    }
    flush(&mut current, &mut blocks);
    (blocks, credits)
}

/// The text of an article as its page shows it (blocks joined by blank
/// lines; no label line, no credits).
pub(super) fn article_text(text: &str) -> String {
    let (blocks, _) = parse(text);
    blocks
        .iter()
        .map(blocks_text)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The words of a title an anchor may sit on: the title without a
/// trailing "(disambiguation)" part.
fn mention(title: &str) -> &str {
    match title.find(" (") {
        Some(i) if title.ends_with(')') && i > 0 => &title[..i],
        _ => title,
    }
}

/// Where `needle` (lower case) first occurs in `hay` (lower case) as whole
/// words — an English plural `s`/`es` may follow — outside `taken` spans;
/// returns the byte span to link.
fn find_mention(hay: &str, needle: &str, taken: &[(usize, usize, u32)]) -> Option<(usize, usize)> {
    if needle.len() < 3 {
        return None;
    }
    let bytes = hay.as_bytes();
    let word = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b >= 0x80)
    };
    let mut from = 0;
    while let Some(i) = hay[from..].find(needle) {
        let start = from + i;
        let mut end = start + needle.len();
        if hay[end..].starts_with("es") && !word(end + 2) {
            end += 2;
        } else if hay[end..].starts_with('s') && !word(end + 1) {
            end += 1;
        }
        let free = taken.iter().all(|&(a, b, _)| end <= a || start >= b);
        if (start == 0 || !word(start - 1)) && !word(end) && free {
            return Some((start, end));
        }
        from = start + needle.len().max(1);
        while from < hay.len() && !hay.is_char_boundary(from) {
            from += 1;
        }
    }
    None
}

/// The HTML of article `pid` read from its plain-text `file`.
pub(super) fn article_html(
    corpus: &Corpus,
    pid: u32,
    file: &Path,
) -> Result<String, std::io::Error> {
    let text = std::fs::read_to_string(file)?;
    let (blocks, credits) = parse(&text);
    let lower: Vec<String> = blocks
        .iter()
        .map(|b| match b {
            Block::Heading(s) | Block::Para(s) | Block::Item(s) => s.to_lowercase(),
        })
        .collect();
    // Anchors per block: (start, end, target), placed on first mentions.
    let mut spans: Vec<Vec<(usize, usize, u32)>> = vec![Vec::new(); blocks.len()];
    let mut unplaced = Vec::new();
    for &target in corpus.out_links(pid) {
        let title = &corpus.pages[target as usize].title;
        let needle = mention(title).to_lowercase();
        let placed = blocks.iter().enumerate().find_map(|(i, b)| {
            if matches!(b, Block::Heading(_)) || lower[i].len() != blocks_text(b).len() {
                // Headings carry no links; a block whose lower-casing
                // changed its length cannot be mapped back byte for byte.
                return None;
            }
            find_mention(&lower[i], &needle, &spans[i]).map(|s| (i, s))
        });
        match placed {
            Some((i, (a, b))) => spans[i].push((a, b, target)),
            None => unplaced.push(target),
        }
    }
    let mut main = String::with_capacity(text.len() + 4096);
    let mut in_list = false;
    for (i, block) in blocks.iter().enumerate() {
        let is_item = matches!(block, Block::Item(_));
        if in_list && !is_item {
            main.push_str("</ul>\n");
            in_list = false;
        }
        match block {
            Block::Heading(s) => {
                main.push_str("<h2>");
                escape_into(&mut main, s);
                main.push_str("</h2>\n");
            }
            Block::Para(s) | Block::Item(s) => {
                if is_item && !in_list {
                    main.push_str("<ul>\n");
                    in_list = true;
                }
                main.push_str(if is_item { "<li>" } else { "<p>" });
                linked_into(&mut main, corpus, s, &mut spans[i]);
                main.push_str(if is_item { "</li>\n" } else { "</p>\n" });
            }
        }
    }
    if in_list {
        main.push_str("</ul>\n");
    }
    if !unplaced.is_empty() {
        main.push_str("<div class=\"related-articles\">\n<h2>Related articles</h2>\n<ul>\n");
        for t in unplaced {
            let target = &corpus.pages[t as usize];
            let _ = write!(main, "<li><a href=\"{}\">", target.path);
            escape_into(&mut main, &target.title);
            main.push_str("</a></li>\n");
        }
        main.push_str("</ul>\n</div>\n");
    }
    if !credits.is_empty() {
        main.push_str("<div class=\"article-credits\"><p>");
        escape_into(&mut main, &credits.join(" "));
        main.push_str("</p></div>\n");
    }
    let title = &corpus.pages[pid as usize].title;
    Ok(page(title, &main))
}

fn blocks_text(b: &Block) -> &str {
    match b {
        Block::Heading(s) | Block::Para(s) | Block::Item(s) => s,
    }
}

/// Writes `text` with anchors on `spans` (sorted here).
fn linked_into(out: &mut String, corpus: &Corpus, text: &str, spans: &mut [(usize, usize, u32)]) {
    spans.sort_unstable();
    let mut at = 0;
    for &(a, b, target) in spans.iter() {
        if a < at || !text.is_char_boundary(a) || !text.is_char_boundary(b) {
            continue;
        }
        escape_into(out, &text[at..a]);
        let _ = write!(out, "<a href=\"{}\">", corpus.pages[target as usize].path);
        escape_into(out, &text[a..b]);
        out.push_str("</a>");
        at = b;
    }
    escape_into(out, &text[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARTICLE: &str = "   #copyright\n\nBird\n\n2007 Schools Wikipedia Selection. \
        Related subjects: Birds\n\n   Birds are bipedal animals with\n   feathers.\n\n\
        Trivia\n\n     * The birds of a region\n       are called the avifauna.\n     * Few birds.\n\n\
           Retrieved from \" http://en.wikipedia.org/wiki/Bird\"\n   This reference article.\n";

    #[test]
    fn parse_drops_labels_and_keeps_structure() {
        let (blocks, credits) = parse(ARTICLE);
        assert_eq!(
            blocks,
            vec![
                Block::Para("Birds are bipedal animals with feathers.".into()),
                Block::Heading("Trivia".into()),
                Block::Item("The birds of a region are called the avifauna.".into()),
                Block::Item("Few birds.".into()),
            ]
        );
        assert_eq!(credits.len(), 2);
        assert!(!blocks
            .iter()
            .any(|b| blocks_text(b).contains("Related subjects")));
    }

    #[test]
    fn mentions_are_whole_words_with_plurals() {
        let hay = "the feathers of a feather duster";
        assert_eq!(find_mention(hay, "feather", &[]), Some((4, 12)));
        assert_eq!(find_mention(hay, "feather", &[(4, 12, 0)]), Some((18, 25)));
        assert_eq!(find_mention("afeather", "feather", &[]), None);
        assert_eq!(find_mention("churches", "church", &[]), Some((0, 8)));
        assert_eq!(mention("Georgia (country)"), "Georgia");
    }

    #[test]
    fn topic_paths_and_titles() {
        assert_eq!(
            topic_path("subject.Science.Biology.Birds"),
            "Science/Biology/Birds"
        );
        assert_eq!(title_of("%C3%85land_Islands"), "Åland Islands");
    }
}
