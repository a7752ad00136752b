//! The bookmarks file's token stream, read with html5ever's tokenizer, as
//! the items that give its structure (folder names, list opens and closes,
//! bookmarks) with their lines; `bookmarks.rs` builds the example set from
//! them.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::TokenizerResult;

/// What the token stream says about the structure, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Item {
    /// An `<H3>`: names the folder whose `<DL>` opens next.
    Folder { name: String, line: u64 },
    /// A `<DL>`: a folder's contents start.
    Open,
    /// A `</DL>`: the innermost folder's contents end.
    Close,
    /// An `<A>`.
    Bookmark {
        href: Option<String>,
        title: String,
        line: u64,
    },
}

/// The tokeniser's sink: turns tags and text into [`Item`]s.
#[derive(Default)]
struct Sink(std::cell::RefCell<Scan>);

#[derive(Default)]
struct Scan {
    items: Vec<Item>,
    /// The open `<H3>`: its text so far and its line.
    heading: Option<(String, u64)>,
    /// The open `<A>`: its HREF, its text so far and its line.
    anchor: Option<(Option<String>, String, u64)>,
}

impl Scan {
    /// Ends an open `<H3>` or `<A>`: at its end tag, or at the next tag that
    /// cannot be inside it (exports leave nothing open, hand-edited files may).
    fn finish(&mut self) {
        if let Some((text, line)) = self.heading.take() {
            self.items.push(Item::Folder {
                name: collapse(&text),
                line,
            });
        }
        if let Some((href, text, line)) = self.anchor.take() {
            self.items.push(Item::Bookmark {
                href,
                title: collapse(&text),
                line,
            });
        }
    }

    fn tag(&mut self, tag: &Tag, line: u64) {
        match (tag.kind, &*tag.name) {
            (TagKind::StartTag, "h3") => {
                self.finish();
                self.heading = Some((String::new(), line));
            }
            (TagKind::StartTag, "a") => {
                self.finish();
                let href = tag
                    .attrs
                    .iter()
                    .find(|a| &*a.name.local == "href")
                    .map(|a| a.value.trim().to_owned())
                    .filter(|h| !h.is_empty());
                self.anchor = Some((href, String::new(), line));
            }
            (TagKind::StartTag, "dl") => {
                self.finish();
                self.items.push(Item::Open);
            }
            (TagKind::EndTag, "dl") => {
                self.finish();
                self.items.push(Item::Close);
            }
            // An end tag, or a tag that cannot be inside a title or folder name.
            (TagKind::EndTag, "h3" | "a") | (TagKind::StartTag, "dt" | "dd" | "hr" | "h1") => {
                self.finish();
            }
            _ => {}
        }
    }

    fn text(&mut self, s: &str) {
        if let Some((text, _)) = &mut self.heading {
            text.push_str(s);
        } else if let Some((_, text, _)) = &mut self.anchor {
            text.push_str(s);
        }
    }
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<()> {
        let mut scan = self.0.borrow_mut();
        match token {
            Token::TagToken(tag) => scan.tag(&tag, line_number),
            Token::CharacterTokens(s) => scan.text(&s),
            Token::EOFToken => scan.finish(),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// Whitespace runs become one space; the ends are trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Tokenises `html` into structure items.
pub(super) fn scan(html: &str) -> Vec<Item> {
    let tokenizer = Tokenizer::new(Sink::default(), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    // The sink never asks to stop for a script, so one feed reads everything.
    while let TokenizerResult::Script(()) = tokenizer.feed(&input) {}
    tokenizer.end();
    let mut scan = tokenizer.sink.0.take();
    scan.finish();
    scan.items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_comes_from_the_token_stream() {
        let items = scan(
            "<DL><p>\n<DT><H3 ADD_DATE=\"1\">Tools &amp; Tips</H3>\n<DL><p>\n\
             <DT><A HREF=\"http://a.example/?x=1&amp;y=2\">A &lt;b&gt;</A>\n<DD>about a\n\
             </DL><p>\n</DL>",
        );
        assert_eq!(
            items,
            [
                Item::Open,
                Item::Folder {
                    name: "Tools & Tips".to_owned(),
                    line: 2
                },
                Item::Open,
                Item::Bookmark {
                    href: Some("http://a.example/?x=1&y=2".to_owned()),
                    title: "A <b>".to_owned(),
                    line: 4
                },
                Item::Close,
                Item::Close,
            ]
        );
    }

    #[test]
    fn unclosed_tags_end_at_the_next_tag() {
        let items = scan("<DL><DT><H3>Open folder<DL><DT><A HREF=\"http://x.example/\">X<DT><A>");
        assert_eq!(
            items,
            [
                Item::Open,
                Item::Folder {
                    name: "Open folder".to_owned(),
                    line: 1
                },
                Item::Open,
                Item::Bookmark {
                    href: Some("http://x.example/".to_owned()),
                    title: "X".to_owned(),
                    line: 1
                },
                Item::Bookmark {
                    href: None,
                    title: String::new(),
                    line: 1
                },
            ]
        );
    }
}
