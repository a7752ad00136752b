//! Page text from the topic language models: body words drawn from a
//! per-page mixture of the background, top-level, second-level and leaf
//! vocabularies plus one drifting topic (Zipfian within each), log-normal
//! lengths; titles and anchor texts from the head of the topic vocabularies.

use focus_core::TopicId;
use rand::Rng;

use crate::rng::{normal, purpose, rng_for};
use crate::web::Web;

impl Web {
    /// Body words of page `pid` (word ids), split into paragraphs.
    pub(crate) fn body_words(&self, pid: u32, topic: TopicId) -> Vec<Vec<u32>> {
        let mut rng = rng_for(self.seed, purpose::TEXT, u64::from(pid));
        let c = &self.config;
        let len = (c.length_median * (c.length_sigma * normal(&mut rng)).exp()).clamp(15.0, 6000.0)
            as usize;
        let m = &c.mix;
        let scale = 1.0 + m.jitter * (2.0 * rng.random::<f64>() - 1.0);
        let scale = scale.max(0.05);
        let (l1, l2) = self
            .topics
            .info(topic)
            .map_or((topic, topic), |i| (i.level1, i.level2));
        let drift = if self.hosts.drift.is_empty() {
            topic
        } else {
            self.hosts.drift[rng.random_range(0..self.hosts.drift.len())]
        };
        let weights = [
            m.background,
            m.level1 * scale,
            m.level2 * scale,
            m.leaf * scale,
            m.noise,
        ];
        let total: f64 = weights.iter().sum::<f64>().max(1e-9);
        let mut cum = [0.0; 5];
        let mut acc = 0.0;
        for (i, w) in weights.iter().enumerate() {
            acc += w / total;
            cum[i] = acc;
        }
        let mut paras = Vec::new();
        let mut para = Vec::new();
        let mut para_len = rng.random_range(25..90usize);
        for _ in 0..len {
            let u: f64 = rng.random();
            let v: f64 = rng.random();
            let w = if u < cum[0] {
                self.topics.background_word(v)
            } else if u < cum[1] {
                self.topics.topic_word(l1, v)
            } else if u < cum[2] {
                self.topics.topic_word(l2, v)
            } else if u < cum[3] {
                self.topics.topic_word(topic, v)
            } else {
                self.topics.topic_word(drift, v)
            };
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

    /// Title words of page `pid` (2-5 words from the head of its topic's
    /// vocabularies).
    pub(crate) fn title_words(&self, pid: u32, topic: TopicId) -> Vec<u32> {
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
