//! What the analyser extracts from a page.

use focus_core::CanonicalUrl;

/// How a link appears in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `<a href>`.
    A,
    /// `<area href>` of an image map.
    Area,
    /// `<frame src>`.
    Frame,
    /// `<iframe src>`.
    Iframe,
}

/// One outlink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Resolved against the base and canonicalised.
    pub url: CanonicalUrl,
    /// Visible text of the anchor (`alt` for areas), whitespace-collapsed.
    pub anchor_text: String,
    /// `rel` contains `nofollow`.
    pub nofollow: bool,
    /// Up to 100 characters of text either side of the anchor.
    pub context: String,
    /// The element.
    pub kind: LinkKind,
}

/// `<meta name="robots">` directives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetaRobots {
    /// Do not index.
    pub noindex: bool,
    /// Do not follow links.
    pub nofollow: bool,
}

/// The analysis of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    /// `<title>` text.
    pub title: String,
    /// Visible main text, whitespace-collapsed.
    pub text: String,
    /// Visible text inside `nav`, `header`, `footer` and `aside`.
    pub boilerplate_text: String,
    /// `h1`–`h6` texts.
    pub headings: Vec<String>,
    /// Outlinks in document order (duplicates kept).
    pub links: Vec<Link>,
    /// `<base href>`, when present and valid.
    pub base_href: Option<CanonicalUrl>,
    /// Meta robots directives.
    pub meta_robots: MetaRobots,
    /// Declared charset (`<meta charset>` or http-equiv).
    pub meta_charset: Option<String>,
    /// Hrefs that were not http(s) URLs or did not parse.
    pub skipped_links: usize,
}
