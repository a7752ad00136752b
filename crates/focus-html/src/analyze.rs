//! The entry point: tokenise, then resolve links against the base.

use focus_core::{CanonicalUrl, Canonicalizer};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::TokenizerResult;

use crate::document::{Document, Link};
use crate::sink::{Sink, State};

/// Characters of context kept on each side of an anchor.
const CONTEXT_CHARS: usize = 100;

/// Analyses one HTML page fetched from `page_url`.
pub fn analyze(html: &str, page_url: &CanonicalUrl, canon: &Canonicalizer) -> Document {
    let tokenizer = Tokenizer::new(Sink::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    while let TokenizerResult::Script(()) = tokenizer.feed(&input) {}
    tokenizer.end();
    let state: State = tokenizer.sink.0.take();

    let base_href = state
        .base
        .as_deref()
        .and_then(|b| canon.join(page_url, b).ok());
    let base = base_href.as_ref().unwrap_or(page_url);
    let mut skipped_links = 0;
    let mut links = Vec::with_capacity(state.links.len());
    for raw in &state.links {
        let href = raw.href.trim();
        if href.is_empty() || href.starts_with('#') {
            skipped_links += 1;
            continue;
        }
        match canon.join(base, href) {
            Ok(url) => links.push(Link {
                url,
                anchor_text: raw.anchor.clone(),
                nofollow: raw.nofollow,
                context: context(&state.text, raw.at),
                kind: raw.kind,
            }),
            Err(_) => skipped_links += 1,
        }
    }
    Document {
        title: state.title.trim().to_owned(),
        text: state.text.trim().to_owned(),
        boilerplate_text: state.boilerplate.trim().to_owned(),
        headings: state.headings,
        links,
        base_href,
        meta_robots: state.robots,
        meta_charset: state.charset,
        skipped_links,
    }
}

/// Text around a byte range, extended to char boundaries.
fn context(text: &str, (start, end): (usize, usize)) -> String {
    let end = end.min(text.len());
    let start = start.min(end);
    let from = text[..start]
        .char_indices()
        .rev()
        .nth(CONTEXT_CHARS - 1)
        .map_or(0, |(i, _)| i);
    let to = text[end..]
        .char_indices()
        .nth(CONTEXT_CHARS)
        .map_or(text.len(), |(i, _)| end + i);
    text.get(from..to).unwrap_or_default().trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LinkKind;

    fn run(html: &str) -> Document {
        let c = Canonicalizer::default();
        analyze(
            html,
            &c.canonicalize("http://site.example/dir/page.html").unwrap(),
            &c,
        )
    }

    #[test]
    fn title_text_headings_and_boilerplate() {
        let d = run("<html><head><title> Cycling  news </title><style>p{color:red}</style><script>var x = '<p>no</p>';</script></head>\
            <body><nav><a href=/home>Home</a> | <a href=/about>About</a></nav><h1>Tour de France</h1><p>The peloton rode 200 km.</p>\
            <template><p>hidden</p></template><noscript>enable js</noscript><footer>Copyright 2026</footer></body></html>");
        assert_eq!(d.title, "Cycling news");
        assert_eq!(d.headings, ["Tour de France"]);
        assert_eq!(d.text, "Tour de France The peloton rode 200 km.");
        assert_eq!(d.boilerplate_text, "Home | About Copyright 2026");
        assert_eq!(d.links.len(), 2);
    }

    #[test]
    fn links_resolve_against_base_with_anchor_context_and_rel() {
        let d = run("<base href='http://other.example/b/'><p>Before text <a href='x.html#frag' rel='external nofollow'>the <b>anchor</b></a> after text.</p>\
            <a href='mailto:a@b.c'>mail</a><a href='#top'>top</a><a>no href</a>\
            <frameset><frame src='/f1.html'></frameset><iframe src='//cdn.example/i'></iframe><map><area href='a.html' alt='Area one'></map>");
        assert_eq!(
            d.base_href.as_ref().unwrap().as_str(),
            "http://other.example/b/"
        );
        let urls: Vec<&str> = d.links.iter().map(|l| l.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "http://other.example/b/x.html",
                "http://other.example/f1.html",
                "http://cdn.example/i",
                "http://other.example/b/a.html"
            ]
        );
        assert_eq!(d.links[0].anchor_text, "the anchor");
        assert!(d.links[0].nofollow);
        assert!(
            d.links[0]
                .context
                .starts_with("Before text the anchor after text."),
            "{}",
            d.links[0].context
        );
        assert_eq!(d.links[1].kind, LinkKind::Frame);
        assert_eq!(d.links[2].kind, LinkKind::Iframe);
        assert_eq!(d.links[3].anchor_text, "Area one");
        assert_eq!(d.skipped_links, 2);
    }

    #[test]
    fn meta_robots_and_charset() {
        let d = run("<meta name=ROBOTS content='NOINDEX, follow'><meta charset=iso-8859-1>");
        assert!(d.meta_robots.noindex && !d.meta_robots.nofollow);
        assert_eq!(d.meta_charset.as_deref(), Some("iso-8859-1"));
        let e = run("<meta http-equiv='Content-Type' content='text/html; charset=windows-1252'><meta name=robots content=none>");
        assert_eq!(e.meta_charset.as_deref(), Some("windows-1252"));
        assert!(e.meta_robots.noindex && e.meta_robots.nofollow);
    }

    #[test]
    fn malformed_markup_is_tolerated() {
        let d = run("<p>unclosed <a href=one>first <a href=two>second</p><div><b>bold <i>both</b> italic</div> &amp; &bogus; <!-- comment");
        assert_eq!(d.links.len(), 2);
        assert_eq!(d.links[0].anchor_text, "first");
        assert_eq!(d.links[1].anchor_text, "second");
        assert!(d.text.contains("bold both italic & &bogus;"), "{}", d.text);
    }
}
