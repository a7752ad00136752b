//! Page text from the topic language models: body words drawn from the
//! background and from the page's topic mixture (`mixture.rs`: its own leaf
//! and other leaves in Dirichlet proportions), each topical word from one of
//! the vocabularies on its topic's path, Zipfian within each; bursty (a
//! content word already on the page is likely to come again); log-normal
//! lengths. Titles and anchor texts come from the head of the vocabularies
//! of the page's dominant topic.

use focus_core::TopicId;
use rand::Rng;

use crate::rng::{normal, purpose, rng_for};
use crate::topics::Topics;
use crate::web::Web;

impl Web {
    /// Body words of page `pid` (word ids), split into paragraphs.
    pub(crate) fn body_words(&self, pid: u32, topic: TopicId) -> Vec<Vec<u32>> {
        let mut rng = rng_for(self.seed, purpose::TEXT, u64::from(pid));
        let c = &self.config;
        let len = (c.length_median * (c.length_sigma * normal(&mut rng)).exp()).clamp(8.0, 8000.0)
            as usize;
        let m = &c.mix;
        let scale = (1.0 + m.jitter * (2.0 * rng.random::<f64>() - 1.0)).max(0.05);
        let topical = ((1.0 - m.background) * scale).clamp(0.0, 0.95);
        let level_total = (m.level1 + m.level2 + m.leaf).max(1e-9);
        let levels = [
            m.level1 / level_total,
            (m.level1 + m.level2) / level_total,
            1.0,
        ];
        let mix = self.mixture(pid, topic);
        // Content words drawn so far: a Pólya urn, so a word's chance to
        // come again grows with its count on the page.
        let mut urn: Vec<u32> = Vec::with_capacity(len);
        let mut paras = Vec::new();
        let mut para = Vec::new();
        let mut para_len = rng.random_range(25..90usize);
        for _ in 0..len {
            let mut w = if rng.random::<f64>() < topical {
                let t = mix.pick(rng.random());
                self.topics
                    .path_word(t, &levels, rng.random(), rng.random())
            } else {
                self.topics.background_word(rng.random())
            };
            // Function words keep their rate; a content word may instead
            // repeat one already on the page.
            if !Topics::is_function_word(w) {
                if !urn.is_empty() && rng.random::<f64>() < m.burst {
                    w = urn[rng.random_range(0..urn.len())];
                }
                urn.push(w);
            }
            para.push(w);
            if para.len() >= para_len {
                paras.push(std::mem::take(&mut para));
                para_len = rng.random_range(25..90usize);
            }
        }
        if !para.is_empty() {
            paras.push(para);
        }
        paras
    }

    /// Title words of page `pid` (2-5 words from the head of the
    /// vocabularies of its dominant topic, usually its own leaf).
    pub(crate) fn title_words(&self, pid: u32, topic: TopicId) -> Vec<u32> {
        let topic = self.mixture(pid, topic).dominant();
        let mut rng = rng_for(self.seed, purpose::TITLE, u64::from(pid));
        let (_, l2) = self
            .topics
            .info(topic)
            .map_or((topic, topic), |i| (i.level1, i.level2));
        let n = rng.random_range(2..6u32);
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            // Head-heavy: square the uniform to favour the top ranks.
            let v: f64 = rng.random::<f64>();
            let v = v * v * 0.5;
            let w = match (i, rng.random_range(0..10u32)) {
                (_, 0) => self.topics.background_word(0.3 + 0.7 * v),
                (_, 1..=3) => self.topics.topic_word(l2, v),
                _ => self.topics.topic_word(topic, v),
            };
            if !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }

    /// Words of a page's title, joined and capitalised.
    pub(crate) fn title_text(&self, pid: u32, topic: TopicId) -> String {
        let words = self.title_words(pid, topic);
        let mut s = String::new();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&capitalise(self.topics.word(*w)));
        }
        s
    }
}

/// Upper-case the first letter.
pub(crate) fn capitalise(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
