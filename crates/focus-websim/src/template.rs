//! Per-host templates: the boilerplate every page of a host repeats — site
//! name and tagline, menu, sidebar, an "about" blurb and copyright lines —
//! drawn from a per-host vocabulary that mixes menu words, general words
//! and topical words of the host's main topic. Hosts mark it up in their own
//! style: HTML5 `<header>`/`<nav>`/`<aside>`/`<footer>`, class-named `<div>`s
//! (`header`, `menu`, `sidebar`, `site-footer`), or a mix of both, as real
//! sites do; so an analyser that drops only the semantic elements keeps some
//! hosts' boilerplate. A pure function of `(seed, host)`.

use focus_core::TopicId;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::hosts::Plan;
use crate::rng::{purpose, rng_for};
use crate::text::capitalise;
use crate::vocab::{BOILERPLATE, SIDEBAR_HEADINGS};
use crate::web::Web;

/// How a host marks up its template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// `<header>`, `<nav>`, `<aside>`, `<footer>`.
    Semantic,
    /// `<div class="header">`, `menu`, `sidebar`, `site-footer`.
    Divs,
    /// `<header>` and `<nav>`, then a sidebar and footer in `<div>`s.
    SemanticTop,
    /// `<div>` header and menu, an `<aside>` sidebar and a `<footer>`.
    SemanticBottom,
}

/// One host's template.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub(crate) style: Style,
    pub(crate) tagline: String,
    pub(crate) menu: Vec<String>,
    /// Widget heading and items.
    pub(crate) sidebar: Option<(String, Vec<String>)>,
    pub(crate) about: Option<String>,
}

impl Template {
    /// Opening and closing markup of a template part.
    pub(crate) fn wrap(&self, part: Part) -> (&'static str, &'static str) {
        let semantic = match part {
            Part::Header | Part::Menu => {
                matches!(self.style, Style::Semantic | Style::SemanticTop)
            }
            Part::Sidebar | Part::Footer => {
                matches!(self.style, Style::Semantic | Style::SemanticBottom)
            }
        };
        match (part, semantic) {
            (Part::Header, true) => ("<header>", "</header>"),
            (Part::Header, false) => ("<div class=\"header\">", "</div>"),
            (Part::Menu, true) => ("<nav>", "</nav>"),
            (Part::Menu, false) => ("<div class=\"menu\">", "</div>"),
            (Part::Sidebar, true) => ("<aside class=\"sidebar\">", "</aside>"),
            (Part::Sidebar, false) => ("<div class=\"sidebar\">", "</div>"),
            (Part::Footer, true) => ("<footer>", "</footer>"),
            (Part::Footer, false) => ("<div class=\"site-footer\">", "</div>"),
        }
    }
}

/// The parts of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Header,
    Menu,
    Sidebar,
    Footer,
}

impl Web {
    /// The main topic of host `h`: what its template talks about.
    fn host_topic(&self, h: u32) -> TopicId {
        match self.hosts.hosts[h as usize].plan {
            Plan::Topical(t) | Plan::Universal(t) => t,
            Plan::Competitive { host, .. } => host,
            Plan::Institution { home, .. } => home,
        }
    }

    /// The template of host `h`.
    pub(crate) fn template(&self, h: u32) -> Template {
        let mut rng = rng_for(self.seed, purpose::TEMPLATE, u64::from(h));
        let topic = self.host_topic(h);
        let p = self.config.mix.template_topical;
        let style = match rng.random_range(0..10u32) {
            0..=2 => Style::Semantic,
            3..=5 => Style::Divs,
            6..=7 => Style::SemanticTop,
            _ => Style::SemanticBottom,
        };
        let n = rng.random_range(3..=9usize);
        let tagline = self.phrase(&mut rng, topic, n, p);
        let menu = (0..rng.random_range(2..=12u32))
            .map(|_| {
                if rng.random::<f64>() < p {
                    self.template_word(&mut rng, topic)
                } else {
                    capitalise(BOILERPLATE[rng.random_range(0..BOILERPLATE.len())])
                }
            })
            .collect();
        let sidebar = (rng.random::<f64>() < 0.5).then(|| {
            let head = SIDEBAR_HEADINGS[rng.random_range(0..SIDEBAR_HEADINGS.len())];
            let items = (0..rng.random_range(3..=30u32))
                .map(|_| {
                    let k = rng.random_range(1..=3usize);
                    self.phrase(&mut rng, topic, k, (2.0 * p).min(1.0))
                })
                .collect();
            (head.to_string(), items)
        });
        let about = (rng.random::<f64>() < 0.5).then(|| {
            let n = rng.random_range(5..=50usize);
            self.phrase(&mut rng, topic, n, p)
        });
        Template {
            style,
            tagline,
            menu,
            sidebar,
            about,
        }
    }

    /// A head word of the vocabularies on `topic`'s path, capitalised.
    fn template_word(&self, rng: &mut ChaCha8Rng, topic: TopicId) -> String {
        let u: f64 = rng.random();
        let w = self
            .topics
            .path_word(topic, &[0.3, 0.65, 1.0], rng.random(), u * u * 0.5);
        capitalise(self.topics.word(w))
    }

    /// `n` words, each topical (of `topic`) with probability `p`, else a
    /// general word; capitalised first word.
    fn phrase(&self, rng: &mut ChaCha8Rng, topic: TopicId, n: usize, p: f64) -> String {
        let mut s = String::new();
        for i in 0..n {
            let w = if rng.random::<f64>() < p {
                self.template_word(rng, topic).to_lowercase()
            } else {
                self.topics
                    .word(self.topics.background_word(rng.random::<f64>() * 0.8))
                    .to_string()
            };
            if i == 0 {
                s.push_str(&capitalise(&w));
            } else {
                s.push(' ');
                s.push_str(&w);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::{Web, WebConfig};

    #[test]
    fn hosts_have_their_own_templates_in_every_style() {
        let web = Web::new(WebConfig::small(), 2).unwrap();
        let mut styles = std::collections::HashSet::new();
        for h in 0..200 {
            let t = web.template(h);
            styles.insert(format!("{:?}", t.style));
            assert!(!t.menu.is_empty() && !t.tagline.is_empty());
            // Same host, same template.
            assert_eq!(web.template(h).tagline, t.tagline);
        }
        assert_eq!(styles.len(), 4, "{styles:?}");
        assert_ne!(web.template(0).tagline, web.template(1).tagline);
    }
}
