//! HTML rendering of a regular page: title, the host's template (header,
//! menu with the navigation links, sidebar, footer with the cross-site
//! navigation links; `template.rs`), heading, paragraphs with inline links
//! and a list of related links — anchor texts drawn from their targets'
//! titles, with the real web's share of "click here".

use std::fmt::Write as _;

use rand::Rng;

use crate::links::{Link, LinkTarget};
use crate::rng::{purpose, rng_for};
use crate::template::Part;
use crate::text::capitalise;
use crate::web::Web;

/// How a page is dressed when a fault host mirrors it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Dress<'a> {
    /// Session-id mode: every same-host link carries `?sid=` (derived from
    /// this value and the target, so each visit mints new URLs).
    pub(crate) sid: Option<u64>,
    /// Near-duplicate mirror: a note naming the original host.
    pub(crate) mirror_of: Option<&'a str>,
}

pub(crate) fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

impl Web {
    /// The site name of host `h` (from its host name).
    pub(crate) fn site_name(&self, h: u32) -> String {
        let name = &self.hosts.hosts[h as usize].name;
        let label = name.strip_prefix("www.").unwrap_or(name);
        let word = label.split(['-', '.']).next().unwrap_or(label);
        capitalise(word)
    }

    fn href(&self, from_host: u32, target: LinkTarget, dress: Dress<'_>) -> String {
        match target {
            LinkTarget::Page(p) => {
                let Some((h, l)) = self.hosts.locate(p) else {
                    return "/".into();
                };
                let host = &self.hosts.hosts[h as usize];
                let path = crate::urls::page_path(&self.topics, self.seed, host, l);
                if h == from_host {
                    match dress.sid {
                        Some(s) => format!(
                            "{path}?sid={:016x}",
                            crate::rng::hash3(s, u64::from(p), 0x5e, 0)
                        ),
                        None => path,
                    }
                } else {
                    format!("http://{}{path}", host.name)
                }
            }
            LinkTarget::Fault { fault, n } => self.fault_url(fault, n),
            LinkTarget::Dead { was, host_gone } => self.dead_url(was, host_gone),
        }
    }

    /// Where a dead link to page `was` points: a page of its host that
    /// does not exist (the same directory, a leaf number past the host's
    /// pages), or the same path on the host's name under `.invalid`.
    fn dead_url(&self, was: u32, host_gone: bool) -> String {
        let Some((h, l)) = self.hosts.locate(was) else {
            return "http://gone.invalid/".into();
        };
        let host = &self.hosts.hosts[h as usize];
        let path = crate::urls::page_path(&self.topics, self.seed, host, l);
        if host_gone {
            let stem = host
                .name
                .rsplit_once('.')
                .map_or(host.name.as_str(), |x| x.0);
            return format!("http://{stem}.invalid{path}");
        }
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let slug = crate::urls::slug(&self.topics, self.seed, host, l);
        format!("http://{}{dir}{slug}-{}.html", host.name, host.len + l)
    }

    fn anchor(&self, rng: &mut rand_chacha::ChaCha8Rng, link: &Link, from_host: u32) -> String {
        let (LinkTarget::Page(p) | LinkTarget::Dead { was: p, .. }) = link.target else {
            return match rng.random_range(0..3u32) {
                0 => "click here".into(),
                1 => "more information".into(),
                _ => capitalise(
                    self.topics
                        .word(self.topics.background_word(rng.random::<f64>() * 0.5 + 0.3)),
                ),
            };
        };
        let Some((h, l)) = self.hosts.locate(p) else {
            return "link".into();
        };
        let topic = self.hosts.page_topic(&self.topics, self.seed, h, l);
        if link.nav && l == 0 && h == from_host {
            return "Home".into();
        }
        let u: f64 = rng.random();
        if u < 0.12 {
            return "click here".into();
        }
        if u < 0.18 {
            return "read more".into();
        }
        if u < 0.26 && h != from_host {
            return self.hosts.hosts[h as usize].name.clone();
        }
        let words = self.title_words(p, topic);
        let take = rng.random_range(1..=words.len().clamp(1, 3));
        let mut s = String::new();
        for (i, w) in words.iter().take(take).enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&capitalise(self.topics.word(*w)));
        }
        s
    }

    /// The HTML of page `local` of host `h`.
    pub(crate) fn render_page(&self, h: u32, local: u32, dress: Dress<'_>) -> String {
        let host = &self.hosts.hosts[h as usize];
        let pid = host.first + local;
        let topic = self.hosts.page_topic(&self.topics, self.seed, h, local);
        let mut rng = rng_for(self.seed, purpose::ANCHOR, u64::from(pid));
        let links = self.out_links(pid);
        let title = if local == 0 {
            format!("{} - {}", self.site_name(h), self.title_text(pid, topic))
        } else {
            self.title_text(pid, topic)
        };
        let paras = self.body_words(pid, topic);
        let mix = self.mixture(pid, topic);
        let mut o = String::with_capacity(4096);
        o.push_str(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
        );
        escape_into(&mut o, &title);
        o.push_str("</title>\n</head>\n<body>\n");
        let tpl = self.template(h);
        let (open, close) = tpl.wrap(Part::Header);
        let _ = write!(o, "{open}<div class=\"logo\"><a href=\"/\">");
        escape_into(&mut o, &self.site_name(h));
        o.push_str("</a></div> <p class=\"tagline\">");
        escape_into(&mut o, &tpl.tagline);
        let _ = writeln!(o, "</p>{close}");
        let (open, close) = tpl.wrap(Part::Menu);
        o.push_str(open);
        let (navs, contents): (Vec<&Link>, Vec<&Link>) = links.iter().partition(|l| l.nav);
        let mut footer = Vec::new();
        for l in &navs {
            if matches!(l.target, LinkTarget::Page(p) if self.hosts.locate(p).map(|x| x.0) != Some(h))
            {
                footer.push(*l);
                continue;
            }
            let _ = write!(o, "<a href=\"{}\">", self.href(h, l.target, dress));
            escape_into(&mut o, &self.anchor(&mut rng, l, h));
            o.push_str("</a> | ");
        }
        o.push_str("<ul>");
        for item in &tpl.menu {
            o.push_str("<li>");
            escape_into(&mut o, item);
            o.push_str("</li>");
        }
        let _ = writeln!(o, "</ul><a href=\"/\">Contact us</a>{close}");
        o.push_str("<div class=\"content\">\n<h1>");
        escape_into(&mut o, &title);
        o.push_str("</h1>\n");
        if let Some(orig) = dress.mirror_of {
            let _ = writeln!(
                o,
                "<p class=\"mirror\">Mirror of {orig}. Last synchronised {} days ago.</p>",
                pid % 97 + 1
            );
        }
        let inline = contents.len() / 3;
        let mut next_link = 0usize;
        for (i, para) in paras.iter().enumerate() {
            if i > 0 && i % 2 == 0 {
                o.push_str("<h2>");
                let ht = mix.pick(rng.random());
                let hw = self.topics.path_word(
                    ht,
                    &[0.3, 0.65, 1.0],
                    rng.random(),
                    rng.random::<f64>() * 0.3,
                );
                let hb = self.topics.background_word(rng.random::<f64>() * 0.6 + 0.3);
                escape_into(
                    &mut o,
                    &format!(
                        "{} {}",
                        capitalise(self.topics.word(hw)),
                        self.topics.word(hb)
                    ),
                );
                o.push_str("</h2>\n");
            }
            o.push_str("<p>");
            let cut = if next_link < inline {
                rng.random_range(0..para.len().max(1))
            } else {
                usize::MAX
            };
            for (k, w) in para.iter().enumerate() {
                if k == 0 {
                    o.push_str(&capitalise(self.topics.word(*w)));
                } else {
                    o.push(' ');
                    o.push_str(self.topics.word(*w));
                }
                if k == cut {
                    let l = contents[next_link];
                    let _ = write!(o, " <a href=\"{}\">", self.href(h, l.target, dress));
                    escape_into(&mut o, &self.anchor(&mut rng, l, h));
                    o.push_str("</a>");
                    next_link += 1;
                }
            }
            o.push_str(".</p>\n");
        }
        if next_link < contents.len() {
            o.push_str("<h2>Related</h2>\n<ul>\n");
            for l in &contents[next_link..] {
                let _ = write!(o, "<li><a href=\"{}\">", self.href(h, l.target, dress));
                escape_into(&mut o, &self.anchor(&mut rng, l, h));
                o.push_str("</a></li>\n");
            }
            o.push_str("</ul>\n");
        }
        o.push_str("</div>\n");
        if let Some((head, items)) = &tpl.sidebar {
            let (open, close) = tpl.wrap(Part::Sidebar);
            let _ = write!(o, "{open}<h3>{head}</h3><ul>");
            for item in items {
                o.push_str("<li>");
                escape_into(&mut o, item);
                o.push_str("</li>");
            }
            let _ = writeln!(o, "</ul>{close}");
        }
        let (open, close) = tpl.wrap(Part::Footer);
        o.push_str(open);
        if let Some(about) = &tpl.about {
            o.push_str("<p class=\"about\">");
            escape_into(&mut o, about);
            o.push_str(".</p>");
        }
        o.push_str("<p>");
        for l in footer {
            let _ = write!(o, "<a href=\"{}\">", self.href(h, l.target, dress));
            escape_into(&mut o, &self.anchor(&mut rng, l, h));
            o.push_str("</a> | ");
        }
        let _ = write!(
            o,
            "Copyright 2026 {}. All rights reserved. Privacy policy | Terms of use | Sitemap</p>{close}\n</body>\n</html>\n",
            self.site_name(h)
        );
        o
    }
}
