//! The topic model: the taxonomy built from the configured leaves, each
//! topic's role, and the topic language models (ranked vocabularies: one per
//! taxonomy node, leaves borrowing part of their siblings' lists).

use focus_core::{Taxonomy, TopicId};
use rand::Rng;

use crate::config::{TopicRole, WebConfig};
use crate::rng::{hash3, purpose, rng_for, unit};
use crate::vocab::{WordFactory, Zipf, FUNCTION_WORDS};
use crate::WebsimError;

/// What the generator knows about one leaf topic.
#[derive(Debug, Clone)]
pub(crate) struct LeafInfo {
    pub(crate) role: TopicRole,
    pub(crate) weight: f64,
    /// Top-level ancestor (or the leaf itself at depth 1).
    pub(crate) level1: TopicId,
    /// Second-level ancestor (or `level1` for shallow leaves).
    pub(crate) level2: TopicId,
    pub(crate) siblings: Vec<TopicId>,
    pub(crate) host_topic: Option<TopicId>,
    pub(crate) hub_of: Option<TopicId>,
    pub(crate) home_topic: Option<TopicId>,
    pub(crate) section_topic: Option<TopicId>,
    pub(crate) person_topic: Option<TopicId>,
}

/// The taxonomy, the leaves and every vocabulary.
#[derive(Debug)]
pub(crate) struct Topics {
    pub(crate) taxonomy: Taxonomy,
    /// Indexed by `TopicId.0`; `None` for internal nodes.
    pub(crate) leaf: Vec<Option<LeafInfo>>,
    pub(crate) leaves: Vec<TopicId>,
    /// All words; ids index this table.
    pub(crate) words: Vec<Box<str>>,
    pub(crate) background: Vec<u32>,
    pub(crate) background_zipf: Zipf,
    /// Indexed by `TopicId.0` (root empty).
    pub(crate) vocab: Vec<Vec<u32>>,
    pub(crate) topic_zipf: Zipf,
    /// Leaves under each top-level topic, indexed by its `TopicId.0`.
    pub(crate) by_level1: Vec<Vec<TopicId>>,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && name != "."
        && name != ".."
}

impl Topics {
    pub(crate) fn build(config: &WebConfig, seed: u64) -> Result<Self, WebsimError> {
        let mut taxonomy = Taxonomy::new();
        for spec in &config.topics {
            if !spec.path.split('/').all(valid_name) {
                return Err(WebsimError::Invalid(format!(
                    "topic path `{}`: names are letters, digits, `_`, `-`, `.`",
                    spec.path
                )));
            }
            taxonomy.add_path(&spec.path)?;
        }
        let n = taxonomy.len();
        let mut leaf: Vec<Option<LeafInfo>> = vec![None; n];
        let find_leaf = |tax: &Taxonomy,
                         p: &Option<String>,
                         what: &str|
         -> Result<Option<TopicId>, WebsimError> {
            match p {
                None => Ok(None),
                Some(p) => {
                    let id = tax.lookup(p)?;
                    if what != "hub_of" && !tax.is_leaf(id) {
                        return Err(WebsimError::Invalid(format!("{what} `{p}` is not a leaf")));
                    }
                    Ok(Some(id))
                }
            }
        };
        for spec in &config.topics {
            let id = taxonomy.lookup(&spec.path)?;
            if !taxonomy.is_leaf(id) {
                return Err(WebsimError::Invalid(format!(
                    "topic `{}` is listed but has subtopics: list leaves only",
                    spec.path
                )));
            }
            let mut chain: Vec<TopicId> = taxonomy
                .ancestors(id)
                .filter(|a| *a != TopicId::ROOT)
                .collect();
            chain.sort_by_key(|a| taxonomy.depth(*a));
            if !chain.contains(&id) {
                chain.push(id);
            }
            let level1 = chain[0];
            let level2 = if chain.len() >= 3 {
                chain[chain.len() - 2]
            } else {
                level1
            };
            let siblings = taxonomy
                .parent(id)
                .map(|p| {
                    taxonomy
                        .children(p)
                        .iter()
                        .copied()
                        .filter(|c| *c != id)
                        .collect()
                })
                .unwrap_or_default();
            let info = LeafInfo {
                role: spec.role,
                weight: spec.weight.max(0.0),
                level1,
                level2,
                siblings,
                host_topic: find_leaf(&taxonomy, &spec.host_topic, "host_topic")?,
                hub_of: find_leaf(&taxonomy, &spec.hub_of, "hub_of")?,
                home_topic: find_leaf(&taxonomy, &spec.home_topic, "home_topic")?,
                section_topic: find_leaf(&taxonomy, &spec.section_topic, "section_topic")?,
                person_topic: find_leaf(&taxonomy, &spec.person_topic, "person_topic")?,
            };
            let missing = match spec.role {
                TopicRole::Competitive => info.host_topic.is_none(),
                TopicRole::Context => {
                    info.home_topic.is_none()
                        || info.section_topic.is_none()
                        || info.person_topic.is_none()
                }
                TopicRole::Hub => info.hub_of.is_none(),
                _ => false,
            };
            if missing {
                return Err(WebsimError::Invalid(format!(
                    "topic `{}` ({:?}) lacks the topics its role needs",
                    spec.path, spec.role
                )));
            }
            leaf[id.0 as usize] = Some(info);
        }
        let leaves: Vec<TopicId> = taxonomy.leaves();
        if !leaves.iter().any(|l| {
            leaf[l.0 as usize]
                .as_ref()
                .is_some_and(|i| !matches!(i.role, TopicRole::Structural | TopicRole::Universal))
        }) {
            return Err(WebsimError::Invalid("no topic has hosts of its own".into()));
        }

        // Vocabularies.
        let mut rng = rng_for(seed, purpose::VOCAB, 0);
        let mut factory = WordFactory::new();
        let mut words: Vec<Box<str>> = Vec::new();
        let intern = |w: &str, words: &mut Vec<Box<str>>| -> u32 {
            words.push(w.into());
            (words.len() - 1) as u32
        };
        let mut background = Vec::new();
        for w in FUNCTION_WORDS {
            background.push(intern(w, &mut words));
        }
        for id in taxonomy.ids() {
            for part in taxonomy.name(id).split(['_', '-', '.']) {
                factory.reserve(part);
            }
        }
        while background.len() < config.background_words.max(100) as usize {
            let w = factory.word(&mut rng);
            background.push(intern(&w, &mut words));
        }
        let size = config.topic_words.max(20) as usize;
        let mut vocab: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut name_ids: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
        for id in taxonomy.ids() {
            if id == TopicId::ROOT {
                continue;
            }
            let mut list = Vec::with_capacity(size);
            while list.len() < size {
                let w = factory.word(&mut rng);
                list.push(intern(&w, &mut words));
            }
            // The topic's own name words sit near the head (real pages say
            // what they are about), but not at rank 0.
            for (k, part) in taxonomy.name(id).split(['_', '-', '.']).enumerate() {
                if part.is_empty() {
                    continue;
                }
                let wid = *name_ids
                    .entry(part.to_string())
                    .or_insert_with(|| intern(part, &mut words));
                let pos = (2 + 3 * k).min(size - 1);
                list[pos] = wid;
            }
            vocab[id.0 as usize] = list;
        }
        // Leaves borrow part of their siblings' lists at about the same
        // rank (confusable siblings: a borrowed word is about as likely in
        // both leaves). Only the head (ranks 0-2, with the leaf's first
        // name word) stays the leaf's own.
        let own = vocab.clone();
        for l in &leaves {
            let Some(info) = &leaf[l.0 as usize] else {
                continue;
            };
            if info.siblings.is_empty() {
                continue;
            }
            let list = &mut vocab[l.0 as usize];
            for (r, slot) in list.iter_mut().enumerate().skip(3) {
                let h = hash3(seed, u64::from(l.0), r as u64, 77);
                if unit(h) < config.mix.sibling_overlap {
                    let sib = info.siblings[(h % info.siblings.len() as u64) as usize];
                    let sib_list = &own[sib.0 as usize];
                    let rr = (r + rng.random_range(0..5usize))
                        .saturating_sub(2)
                        .min(sib_list.len() - 1);
                    *slot = sib_list[rr];
                }
            }
        }
        // Leaves of each top-level topic (for a page's other topics).
        let mut by_level1: Vec<Vec<TopicId>> = vec![Vec::new(); n];
        for l in &leaves {
            if let Some(info) = &leaf[l.0 as usize] {
                by_level1[info.level1.0 as usize].push(*l);
            }
        }
        Ok(Self {
            taxonomy,
            leaf,
            leaves,
            words,
            background_zipf: Zipf::new(background.len(), config.zipf_exponent),
            background,
            vocab,
            topic_zipf: Zipf::new(size, config.zipf_exponent),
            by_level1,
        })
    }

    pub(crate) fn info(&self, id: TopicId) -> Option<&LeafInfo> {
        self.leaf.get(id.0 as usize).and_then(Option::as_ref)
    }

    pub(crate) fn word(&self, id: u32) -> &str {
        self.words.get(id as usize).map_or("", |w| w)
    }

    /// A word of topic `t` drawn Zipfian with uniform `u`.
    pub(crate) fn topic_word(&self, t: TopicId, u: f64) -> u32 {
        let list = &self.vocab[t.0 as usize];
        if list.is_empty() {
            return self.background_word(u);
        }
        list[self.topic_zipf.rank(u).min(list.len() - 1)]
    }

    pub(crate) fn background_word(&self, u: f64) -> u32 {
        self.background[self.background_zipf.rank(u)]
    }

    /// True for the English function words heading the background (they
    /// are not bursty: every page uses them at their usual rate).
    pub(crate) fn is_function_word(id: u32) -> bool {
        (id as usize) < FUNCTION_WORDS.len()
    }

    /// A word of leaf `t`'s path: its top-level, second-level or own
    /// vocabulary by the mixture's level weights (`v` picks the level,
    /// `u` the rank).
    pub(crate) fn path_word(&self, t: TopicId, levels: &[f64; 3], v: f64, u: f64) -> u32 {
        let (l1, l2) = self.info(t).map_or((t, t), |i| (i.level1, i.level2));
        let node = if v < levels[0] {
            l1
        } else if v < levels[1] {
            l2
        } else {
            t
        };
        self.topic_word(node, u)
    }
}
