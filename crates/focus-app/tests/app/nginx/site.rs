//! The generated two-site web the nginx test serves, and the example set
//! the crawl trains on: `good.test` (cycling pages, with every fault the
//! test judges) and `other.test` (cooking pages), written as files at test
//! time. Text is drawn deterministically from two small vocabularies, so
//! the classifier has a real topic to tell apart and no two pages are
//! near-duplicates of each other.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The host of the cycling site, where the faults are.
pub(crate) const GOOD: &str = "good.test";
/// The host of the cooking site.
pub(crate) const OTHER: &str = "other.test";

/// Always answered 500 by nginx (no file).
pub(crate) const BROKEN: &str = "/broken.html";
/// 302 to [`LOOP_B`] (no file).
pub(crate) const LOOP_A: &str = "/loop-a.html";
/// 302 back to [`LOOP_A`] (no file).
pub(crate) const LOOP_B: &str = "/loop-b.html";
/// 301 to [`TARGET`] (no file).
pub(crate) const MOVED: &str = "/moved.html";
/// A healthy page linked from nowhere: reachable only through [`MOVED`].
pub(crate) const TARGET: &str = "/p/target.html";
/// A healthy page linked only from [`TARGET`].
pub(crate) const BEHIND: &str = "/p/behind-redirect.html";
/// An HTML file of [`BIG_BYTES`].
pub(crate) const BIG: &str = "/big.html";
/// An HTML page of about [`SLOW_BYTES`] served at 1 KB/s.
pub(crate) const SLOW: &str = "/slow.html";
/// A healthy page served gzip-encoded.
pub(crate) const ZIPPED: &str = "/zipped.html";
/// Pages that exist but robots.txt disallows.
pub(crate) const PRIVATE: [&str; 2] = ["/private/a.html", "/private/b.html"];

/// Size of [`BIG`]: over the fetcher's 5 MiB cap for HTML.
pub(crate) const BIG_BYTES: usize = 6 * 1024 * 1024;
/// Size of [`SLOW`]: about 100 s at 1 KB/s.
pub(crate) const SLOW_BYTES: usize = 100 * 1024;

/// The topic paths of the example set; [`CYCLING`] is the good one.
pub(crate) const CYCLING: &str = "recreation/cycling";
/// The other topic of the example set.
pub(crate) const COOKING: &str = "home/cooking";

/// `good.test`'s robots.txt.
pub(crate) const ROBOTS_TXT: &str = "User-agent: *\nDisallow: /private/\n";

/// Section pages of `good.test` (`/s/1.html` ...).
const SECTIONS: usize = 6;
/// Pages per section (`/p/1.html` ...).
const PER_SECTION: usize = 9;
/// Recipe pages of `other.test` (`/r/1.html` ...).
const RECIPES: usize = 20;

const CYCLING_WORDS: &[&str] = &[
    "bike",
    "bicycle",
    "wheel",
    "gear",
    "saddle",
    "route",
    "ride",
    "rider",
    "pedal",
    "chain",
    "derailleur",
    "cadence",
    "climb",
    "descent",
    "helmet",
    "tyre",
    "spoke",
    "frame",
    "handlebar",
    "brake",
    "sprint",
    "peloton",
    "touring",
    "gravel",
    "mountain",
    "road",
    "commute",
    "lane",
    "cassette",
    "crank",
    "hub",
    "rim",
    "puncture",
    "pump",
    "jersey",
    "cleat",
    "velodrome",
    "stage",
    "breakaway",
    "cyclist",
];

const COOKING_WORDS: &[&str] = &[
    "recipe", "oven", "flour", "butter", "sugar", "salt", "pepper", "garlic", "onion", "simmer",
    "boil", "roast", "bake", "knife", "pan", "skillet", "whisk", "dough", "bread", "sauce",
    "stock", "broth", "spice", "herb", "basil", "thyme", "kitchen", "chef", "dinner", "lunch",
    "tomato", "olive", "oil", "vinegar", "pastry", "yeast", "knead", "grill", "fry", "dessert",
];

const GLUE: &[&str] = &[
    "the", "a", "and", "with", "on", "for", "of", "to", "in", "this", "our", "every", "after",
    "before", "then",
];

/// What was written, for the assertions.
pub(crate) struct Site {
    /// Document root of `good.test`.
    pub(crate) good_root: PathBuf,
    /// Document root of `other.test`.
    pub(crate) other_root: PathBuf,
    /// Every healthy page as `(host, path)`: each must be fetched and
    /// answered 200 by the end of a complete crawl.
    pub(crate) healthy: Vec<(&'static str, String)>,
    /// Healthy pages of `good.test` that link to a robots.txt-disallowed
    /// page: each is one link the crawl must leave out once it holds
    /// `good.test`'s robots.txt.
    pub(crate) private_links: u64,
}

/// A small deterministic generator (splitmix64): the same site on every run.
struct Draw(u64);

impl Draw {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }
}

/// `sentences` sentences of topic words with some glue words between them.
fn prose(words: &[&str], draw: &mut Draw, sentences: usize) -> String {
    let mut out = String::new();
    for _ in 0..sentences {
        let n = 8 + draw.below(7);
        for i in 0..n {
            let w = if draw.below(3) == 0 {
                draw.pick(GLUE)
            } else {
                draw.pick(words)
            };
            if i == 0 {
                let mut c = w.chars();
                if let Some(first) = c.next() {
                    out.extend(first.to_uppercase());
                    out.push_str(c.as_str());
                }
            } else {
                out.push(' ');
                out.push_str(w);
            }
        }
        out.push_str(". ");
    }
    out
}

/// A page: a title of topic words, a few paragraphs, then its links as a
/// list whose anchors are topic words too.
fn page(words: &[&str], seed: u64, links: &[String]) -> String {
    let mut draw = Draw::new(seed);
    let title = format!(
        "{} {} {}",
        draw.pick(words),
        draw.pick(words),
        draw.pick(words)
    );
    let mut html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body><h1>{title}</h1>\n"
    );
    for _ in 0..3 + draw.below(3) {
        let sentences = 3 + draw.below(3);
        let _ = writeln!(html, "<p>{}</p>", prose(words, &mut draw, sentences));
    }
    html.push_str("<ul>\n");
    for href in links {
        let anchor = format!("{} {}", draw.pick(words), draw.pick(words));
        let _ = writeln!(html, "<li><a href=\"{href}\">{anchor}</a></li>");
    }
    html.push_str("</ul>\n</body></html>\n");
    html
}

/// A page padded with paragraphs of topic text to at least `bytes` bytes.
fn padded_page(words: &[&str], seed: u64, links: &[String], bytes: usize) -> String {
    let html = page(words, seed, links);
    let (head, tail) = html.split_at(html.find("<ul>").unwrap_or(html.len()));
    let mut body = String::with_capacity(bytes + 4096);
    body.push_str(head);
    let mut draw = Draw::new(seed ^ 0xB16);
    // A few distinct paragraphs repeated: generating megabytes of fresh
    // text would only slow the test down.
    let paragraphs: Vec<String> = (0..16)
        .map(|_| format!("<p>{}</p>\n", prose(words, &mut draw, 6)))
        .collect();
    let mut i = 0;
    while body.len() + tail.len() < bytes {
        body.push_str(&paragraphs[i % paragraphs.len()]);
        i += 1;
    }
    body.push_str(tail);
    body
}

fn write(root: &Path, path: &str, text: &str) {
    let file = root.join(path.trim_start_matches('/'));
    let file = if path.ends_with('/') {
        file.join("index.html")
    } else {
        file
    };
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
}

fn section(k: usize) -> String {
    format!("/s/{k}.html")
}

fn good_page(j: usize) -> String {
    format!("/p/{j}.html")
}

fn recipe(j: usize) -> String {
    format!("/r/{j}.html")
}

/// Writes both sites under `www` (`www/good.test`, `www/other.test`).
pub(crate) fn write_site(www: &Path) -> Site {
    let good_root = www.join(GOOD);
    let other_root = www.join(OTHER);
    let mut healthy: Vec<(&'static str, String)> = Vec::new();
    let pages = SECTIONS * PER_SECTION;
    let other = |path: &str| format!("http://{OTHER}{path}");
    let good = |path: &str| format!("http://{GOOD}{path}");

    // good.test: the index links the sections, every fault and other.test.
    let mut links: Vec<String> = (1..=SECTIONS).map(section).collect();
    links.extend(
        [ZIPPED, BROKEN, LOOP_A, MOVED, BIG, SLOW, PRIVATE[0]]
            .iter()
            .map(|p| (*p).to_owned()),
    );
    links.push(other("/"));
    let mut healthy_good = vec![("/".to_owned(), links)];
    for k in 1..=SECTIONS {
        let mut links: Vec<String> = ((k - 1) * PER_SECTION + 1..=k * PER_SECTION)
            .map(good_page)
            .collect();
        links.push("/".to_owned());
        links.push(section(k % SECTIONS + 1));
        healthy_good.push((section(k), links));
    }
    for j in 1..=pages {
        let mut links = vec![
            good_page(j % pages + 1),
            good_page((j * 7) % pages + 1),
            section((j - 1) / PER_SECTION + 1),
            "/".to_owned(),
            other(&recipe(j % RECIPES + 1)),
        ];
        if j % PER_SECTION == 0 {
            links.push(other(&recipe((j * 3) % RECIPES + 1)));
        }
        // The faults are linked from healthy pages deep in the site too.
        if j % 10 == 1 {
            links.push(BROKEN.to_owned());
        }
        if j % 13 == 0 {
            links.push(PRIVATE[1].to_owned());
        }
        match j {
            5 => links.push(SLOW.to_owned()),
            20 => links.push(BIG.to_owned()),
            30 => links.push(LOOP_A.to_owned()),
            40 => links.push(MOVED.to_owned()),
            50 => links.push(ZIPPED.to_owned()),
            _ => {}
        }
        healthy_good.push((good_page(j), links));
    }
    healthy_good.push((TARGET.to_owned(), vec!["/".to_owned(), BEHIND.to_owned()]));
    healthy_good.push((BEHIND.to_owned(), vec!["/".to_owned(), good_page(2)]));
    healthy_good.push((ZIPPED.to_owned(), vec!["/".to_owned(), good_page(1)]));
    let private_links = healthy_good
        .iter()
        .filter(|(_, links)| links.iter().any(|l| PRIVATE.contains(&l.as_str())))
        .count() as u64;
    for (i, (path, links)) in healthy_good.into_iter().enumerate() {
        write(
            &good_root,
            &path,
            &page(CYCLING_WORDS, 1000 + i as u64, &links),
        );
        healthy.push((GOOD, path));
    }
    for (i, path) in PRIVATE.iter().enumerate() {
        write(
            &good_root,
            path,
            &page(CYCLING_WORDS, 2000 + i as u64, &["/".to_owned()]),
        );
    }
    write(
        &good_root,
        BIG,
        &padded_page(CYCLING_WORDS, 3000, &["/".to_owned()], BIG_BYTES),
    );
    write(
        &good_root,
        SLOW,
        &padded_page(CYCLING_WORDS, 3001, &["/".to_owned()], SLOW_BYTES),
    );
    write(&good_root, "/robots.txt", ROBOTS_TXT);

    // other.test: an index of recipes; recipes link each other, and some
    // link back to good.test.
    let mut links: Vec<String> = (1..=RECIPES).map(recipe).collect();
    links.push(good("/"));
    let mut healthy_other = vec![("/".to_owned(), links)];
    for j in 1..=RECIPES {
        let mut links = vec![
            recipe(j % RECIPES + 1),
            recipe((j * 3) % RECIPES + 1),
            "/".to_owned(),
        ];
        if j % 5 == 0 {
            links.push(good(&good_page(j)));
        }
        healthy_other.push((recipe(j), links));
    }
    for (i, (path, links)) in healthy_other.into_iter().enumerate() {
        write(
            &other_root,
            &path,
            &page(COOKING_WORDS, 5000 + i as u64, &links),
        );
        healthy.push((OTHER, path));
    }
    Site {
        good_root,
        other_root,
        healthy,
        private_links,
    }
}

/// Writes the example set (`dir/recreation/cycling/*.html`,
/// `dir/home/cooking/*.html`, eight pages each, of the sites' vocabularies
/// but not their pages) and the seed file; returns both paths.
pub(crate) fn write_inputs(dir: &Path) -> (PathBuf, PathBuf) {
    let examples = dir.join("examples");
    for (topic, words, seed) in [
        (CYCLING, CYCLING_WORDS, 10_000),
        (COOKING, COOKING_WORDS, 20_000),
    ] {
        let folder = examples.join(topic);
        std::fs::create_dir_all(&folder).unwrap();
        for i in 0..8 {
            std::fs::write(
                folder.join(format!("example-{i}.html")),
                page(words, seed + i, &[]),
            )
            .unwrap();
        }
    }
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("# the cycling site\nhttp://{GOOD}/\n")).unwrap();
    (examples, seeds)
}
