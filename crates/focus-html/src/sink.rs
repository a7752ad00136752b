//! The token sink: a small state machine over html5ever tokens with
//! counters instead of a stack of elements, so nesting depth costs nothing.

use std::cell::RefCell;

use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};

use crate::document::{LinkKind, MetaRobots};

/// A link as found, before resolution.
pub(crate) struct RawLink {
    pub(crate) href: String,
    pub(crate) anchor: String,
    pub(crate) nofollow: bool,
    pub(crate) kind: LinkKind,
    /// Byte range of the anchor in the main text (for context).
    pub(crate) at: (usize, usize),
}

#[derive(Default)]
pub(crate) struct State {
    pub(crate) title: String,
    pub(crate) text: String,
    pub(crate) boilerplate: String,
    pub(crate) headings: Vec<String>,
    pub(crate) links: Vec<RawLink>,
    pub(crate) base: Option<String>,
    pub(crate) robots: MetaRobots,
    pub(crate) charset: Option<String>,
    /// Inside script/style/template/noscript (content is not visible).
    hidden: u32,
    /// Inside nav/header/footer/aside.
    boiler: u32,
    in_title: bool,
    heading: Option<String>,
    /// The open `<a>`: index into `links`.
    open_anchor: Option<usize>,
}

fn attr<'a>(tag: &'a Tag, name: &str) -> Option<&'a str> {
    tag.attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| &*a.value)
}

/// Appends `s` with every whitespace run collapsed to one space. ASCII
/// text is scanned as bytes (decoding every char was most of the sink's
/// cost) and copied in stretches: a single space between words is already
/// collapsed, so only longer runs, other whitespace and a leading space
/// break a stretch; other text splits on Unicode whitespace.
fn push_text(buf: &mut String, s: &str) {
    if s.is_ascii() {
        // ASCII's White_Space characters: tab, LF, VT, FF, CR, space.
        let ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
        let bytes = s.as_bytes();
        let (mut start, mut i) = (0, 0);
        while i < bytes.len() {
            if !ws(bytes[i]) {
                i += 1;
                continue;
            }
            let run = i;
            while i < bytes.len() && ws(bytes[i]) {
                i += 1;
            }
            // One space after a word of this stretch stays in it; so does
            // one at the start when `buf` ends with a word.
            let one_space = i - run == 1 && bytes[run] == b' ';
            let after_word = run > start || ends_in_word(buf);
            if !(one_space && after_word) {
                buf.push_str(&s[start..run]);
                separate(buf);
                start = i;
            }
        }
        buf.push_str(&s[start..]);
        return;
    }
    push_words(buf, s);
}

/// [`push_text`] by the definition: the words of `s` (split on Unicode
/// whitespace), one space between them.
fn push_words(buf: &mut String, s: &str) {
    for (i, word) in s.split(char::is_whitespace).enumerate() {
        if i > 0 {
            separate(buf);
        }
        buf.push_str(word);
    }
}

/// Whether `buf` ends with a word, so the next word needs a space first.
fn ends_in_word(buf: &str) -> bool {
    !buf.is_empty() && !buf.ends_with(' ')
}

fn separate(buf: &mut String) {
    if ends_in_word(buf) {
        buf.push(' ');
    }
}

impl State {
    fn start(&mut self, tag: &Tag) -> TokenSinkResult<()> {
        let name = &*tag.name;
        match name {
            "script" => {
                self.hidden += u32::from(!tag.self_closing);
                return TokenSinkResult::RawData(RawKind::ScriptData);
            }
            "style" | "noscript" | "xmp" | "noframes" | "noembed" => {
                self.hidden += u32::from(!tag.self_closing);
                return TokenSinkResult::RawData(RawKind::Rawtext);
            }
            "template" => self.hidden += 1,
            "title" => {
                self.in_title = true;
                return TokenSinkResult::RawData(RawKind::Rcdata);
            }
            "textarea" => return TokenSinkResult::RawData(RawKind::Rcdata),
            "nav" | "header" | "footer" | "aside" => self.boiler += 1,
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => self.heading = Some(String::new()),
            "base" if self.base.is_none() => {
                self.base = attr(tag, "href").map(str::to_owned);
            }
            "meta" => self.meta(tag),
            "a" => {
                self.close_anchor();
                if let Some(href) = attr(tag, "href") {
                    let nofollow = attr(tag, "rel").is_some_and(|r| {
                        r.split_whitespace()
                            .any(|t| t.eq_ignore_ascii_case("nofollow"))
                    });
                    let pos = self.text.len();
                    self.links.push(RawLink {
                        href: href.to_owned(),
                        anchor: String::new(),
                        nofollow,
                        kind: LinkKind::A,
                        at: (pos, pos),
                    });
                    self.open_anchor = Some(self.links.len() - 1);
                }
            }
            "area" | "frame" | "iframe" => {
                let (key, kind) = match name {
                    "area" => ("href", LinkKind::Area),
                    "frame" => ("src", LinkKind::Frame),
                    _ => ("src", LinkKind::Iframe),
                };
                if let Some(href) = attr(tag, key) {
                    let pos = self.text.len();
                    let anchor = attr(tag, "alt")
                        .or_else(|| attr(tag, "title"))
                        .unwrap_or("")
                        .to_owned();
                    let nofollow = attr(tag, "rel")
                        .is_some_and(|r| r.to_ascii_lowercase().contains("nofollow"));
                    self.links.push(RawLink {
                        href: href.to_owned(),
                        anchor,
                        nofollow,
                        kind,
                        at: (pos, pos),
                    });
                }
            }
            _ => {}
        }
        if is_block(name) {
            self.block_boundary();
        }
        TokenSinkResult::Continue
    }

    /// A block boundary separates words, and ends an unclosed anchor that
    /// already has text (a block *inside* a link keeps the link open).
    fn block_boundary(&mut self) {
        if self
            .open_anchor
            .and_then(|i| self.links.get(i))
            .is_some_and(|l| !l.anchor.trim().is_empty())
        {
            self.close_anchor();
        }
        self.separate();
    }

    fn end(&mut self, tag: &Tag) {
        let name = &*tag.name;
        match name {
            "script" | "style" | "noscript" | "xmp" | "noframes" | "noembed" | "template" => {
                self.hidden = self.hidden.saturating_sub(1);
            }
            "title" => self.in_title = false,
            "nav" | "header" | "footer" | "aside" => self.boiler = self.boiler.saturating_sub(1),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                if let Some(h) = self.heading.take() {
                    let h = h.trim().to_owned();
                    if !h.is_empty() {
                        self.headings.push(h);
                    }
                }
            }
            "a" => self.close_anchor(),
            _ => {}
        }
        if is_block(name) {
            self.block_boundary();
        }
    }

    fn meta(&mut self, tag: &Tag) {
        if let Some(cs) = attr(tag, "charset") {
            self.charset.get_or_insert_with(|| cs.trim().to_owned());
        }
        let name = attr(tag, "name").map(str::to_ascii_lowercase);
        let equiv = attr(tag, "http-equiv").map(str::to_ascii_lowercase);
        let content = attr(tag, "content").unwrap_or("");
        if name.as_deref() == Some("robots") {
            for t in content
                .split([',', ' '])
                .map(|t| t.trim().to_ascii_lowercase())
            {
                match t.as_str() {
                    "noindex" => self.robots.noindex = true,
                    "nofollow" => self.robots.nofollow = true,
                    "none" => {
                        self.robots.noindex = true;
                        self.robots.nofollow = true;
                    }
                    _ => {}
                }
            }
        }
        if equiv.as_deref() == Some("content-type") {
            if let Some(at) = content.to_ascii_lowercase().find("charset=") {
                let cs = content[at + 8..]
                    .trim_matches(|c: char| c == '"' || c == '\'' || c.is_whitespace());
                self.charset.get_or_insert_with(|| cs.to_owned());
            }
        }
    }

    fn close_anchor(&mut self) {
        if let Some(i) = self.open_anchor.take() {
            let end = self.text.len();
            if let Some(l) = self.links.get_mut(i) {
                l.at.1 = end;
                l.anchor = l.anchor.trim().to_owned();
            }
        }
    }

    fn separate(&mut self) {
        if self.boiler > 0 {
            separate(&mut self.boilerplate);
        } else {
            separate(&mut self.text);
        }
    }

    fn chars(&mut self, s: &str) {
        if self.in_title {
            push_text(&mut self.title, s);
            return;
        }
        if self.hidden > 0 {
            return;
        }
        if let Some(h) = &mut self.heading {
            push_text(h, s);
        }
        if let Some(i) = self.open_anchor {
            if let Some(l) = self.links.get_mut(i) {
                push_text(&mut l.anchor, s);
            }
        }
        if self.boiler > 0 {
            push_text(&mut self.boilerplate, s);
        } else {
            push_text(&mut self.text, s);
        }
    }
}

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "br"
            | "li"
            | "ul"
            | "ol"
            | "td"
            | "th"
            | "tr"
            | "table"
            | "section"
            | "article"
            | "main"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "nav"
            | "header"
            | "footer"
            | "aside"
            | "blockquote"
            | "pre"
            | "hr"
            | "dd"
            | "dt"
            | "dl"
            | "form"
            | "body"
            | "title"
            | "option"
    )
}

/// The html5ever sink; state lives in a `RefCell` because the tokenizer
/// hands the sink out by shared reference.
#[derive(Default)]
pub(crate) struct Sink(pub(crate) RefCell<State>);

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let Ok(mut s) = self.0.try_borrow_mut() else {
            return TokenSinkResult::Continue;
        };
        match token {
            Token::TagToken(tag) => match tag.kind {
                TagKind::StartTag => return s.start(&tag),
                TagKind::EndTag => s.end(&tag),
            },
            Token::CharacterTokens(t) => s.chars(&t),
            Token::EOFToken => s.close_anchor(),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_text_collapses_whitespace_the_same_for_ascii_and_unicode() {
        for (input, want) in [
            ("a  b", "a b"),
            (" a", "a"),
            ("a \t\n", "a "),
            ("a\u{0b}b", "a b"),
            ("caf\u{e9}\u{a0}au  lait", "caf\u{e9} au lait"),
        ] {
            let mut buf = String::new();
            push_text(&mut buf, input);
            assert_eq!(buf, want, "{input:?}");
        }
        let mut buf = String::from("x");
        push_text(&mut buf, " y");
        assert_eq!(buf, "x y");
    }

    proptest::proptest! {
        /// The ASCII path copies stretches; it must give what the
        /// definition gives, after whatever the buffer already holds.
        #[test]
        fn ascii_stretches_match_the_definition(
            before in "[a-z \t\n]{0,4}",
            s in "[a-zA-Z0-9 \t\n\r\x0b\x0c.,]{0,40}",
        ) {
            let (mut fast, mut slow) = (before.clone(), before);
            push_text(&mut fast, &s);
            push_words(&mut slow, &s);
            proptest::prop_assert_eq!(fast, slow);
        }
    }
}
