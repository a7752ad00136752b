//! Topic ids and the taxonomy tree, with the marks of the 1999 papers.
//!
//! A taxonomy is a rooted tree of named topics. Each topic has a path
//! (`business/investment/mutual_funds`); the root has the empty path. Some
//! topics are *good* (the user's focus). Every topic then carries a [`Mark`]:
//! good, *path* (an ancestor of a good topic), *subsumed* (below a good
//! topic) or *null*. **Invariant:** no good topic is an ancestor of another.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// A topic's index in its taxonomy; the root is `TopicId::ROOT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TopicId(pub u32);

impl TopicId {
    /// The root of every taxonomy (the whole web).
    pub const ROOT: TopicId = TopicId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// The role of a topic relative to the good topics (Chakrabarti et al. 1999).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mark {
    /// Marked good by the user.
    Good,
    /// An ancestor of a good topic.
    Path,
    /// A descendant of a good topic.
    Subsumed,
    /// Unrelated to every good topic.
    Null,
}

/// Why a taxonomy cannot be built as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaxonomyError {
    /// No topic has this path.
    #[error("unknown topic `{0}`")]
    UnknownTopic(String),
    /// A topic name is empty or contains `/`.
    #[error("invalid topic name `{0}`: names are non-empty and contain no `/`")]
    InvalidName(String),
    /// Marking `good` would put two good topics on one root-to-leaf path.
    #[error("`{good}` cannot be good: `{other}` is already good on the same path")]
    NestedGood {
        /// The topic being marked.
        good: String,
        /// The good ancestor or descendant already marked.
        other: String,
    },
    /// The root (the whole web) cannot be good: nothing would be off-topic.
    #[error("the root cannot be a good topic")]
    GoodRoot,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Node {
    name: String,
    path: String,
    parent: Option<TopicId>,
    children: Vec<TopicId>,
    depth: usize,
    good: bool,
}

/// A rooted topic tree with good topics marked.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Taxonomy {
    nodes: Vec<Node>,
    #[serde(skip)]
    by_path: HashMap<String, TopicId>,
}

impl PartialEq for Taxonomy {
    fn eq(&self, other: &Self) -> bool {
        self.nodes.len() == other.nodes.len()
            && self
                .nodes
                .iter()
                .zip(&other.nodes)
                .all(|(a, b)| a.path == b.path && a.parent == b.parent && a.good == b.good)
    }
}

impl Taxonomy {
    /// A taxonomy holding only the root.
    pub fn new() -> Self {
        let root = Node {
            name: String::new(),
            path: String::new(),
            parent: None,
            children: Vec::new(),
            depth: 0,
            good: false,
        };
        let mut by_path = HashMap::new();
        by_path.insert(String::new(), TopicId::ROOT);
        Self {
            nodes: vec![root],
            by_path,
        }
    }

    /// Rebuilds the path index (needed after deserialising).
    pub fn reindex(&mut self) {
        self.by_path = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.path.clone(), TopicId(i as u32)))
            .collect();
    }

    /// Number of topics, root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when only the root exists.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// All topic ids in creation order (parents before children), root first.
    pub fn ids(&self) -> impl Iterator<Item = TopicId> + '_ {
        (0..self.nodes.len()).map(|i| TopicId(i as u32))
    }

    /// Adds `name` under `parent`, or returns the existing child of that name.
    pub fn add_child(&mut self, parent: TopicId, name: &str) -> Result<TopicId, TaxonomyError> {
        if name.is_empty() || name.contains('/') {
            return Err(TaxonomyError::InvalidName(name.to_owned()));
        }
        let parent_node = self
            .nodes
            .get(parent.index())
            .ok_or_else(|| TaxonomyError::UnknownTopic(format!("#{}", parent.0)))?;
        let path = if parent_node.path.is_empty() {
            name.to_owned()
        } else {
            format!("{}/{name}", parent_node.path)
        };
        if let Some(&id) = self.by_path.get(&path) {
            return Ok(id);
        }
        let id = TopicId(self.nodes.len() as u32);
        let depth = parent_node.depth + 1;
        self.nodes.push(Node {
            name: name.to_owned(),
            path: path.clone(),
            parent: Some(parent),
            children: Vec::new(),
            depth,
            good: false,
        });
        self.nodes[parent.index()].children.push(id);
        self.by_path.insert(path, id);
        Ok(id)
    }

    /// Adds every topic along a `/`-separated path and returns the last one.
    pub fn add_path(&mut self, path: &str) -> Result<TopicId, TaxonomyError> {
        let mut at = TopicId::ROOT;
        for segment in path.split('/').filter(|s| !s.is_empty()) {
            at = self.add_child(at, segment)?;
        }
        Ok(at)
    }

    /// The topic with this `/`-separated path (`""` is the root).
    pub fn find(&self, path: &str) -> Option<TopicId> {
        self.by_path.get(path.trim_matches('/')).copied()
    }

    /// Like [`Taxonomy::find`], with a typed error.
    pub fn lookup(&self, path: &str) -> Result<TopicId, TaxonomyError> {
        self.find(path)
            .ok_or_else(|| TaxonomyError::UnknownTopic(path.to_owned()))
    }

    /// Marks a topic good, keeping the invariant that no good topic is an
    /// ancestor of another.
    pub fn mark_good(&mut self, id: TopicId) -> Result<(), TaxonomyError> {
        if id == TopicId::ROOT {
            return Err(TaxonomyError::GoodRoot);
        }
        let conflict = self
            .ancestors(id)
            .chain(self.descendants(id))
            .find(|&t| self.nodes[t.index()].good);
        if let Some(other) = conflict {
            return Err(TaxonomyError::NestedGood {
                good: self.path(id).to_owned(),
                other: self.path(other).to_owned(),
            });
        }
        self.nodes[id.index()].good = true;
        Ok(())
    }

    /// Clears every good mark.
    pub fn clear_good(&mut self) {
        for n in &mut self.nodes {
            n.good = false;
        }
    }

    /// Makes `good` the good topics in place of the current ones. On an
    /// error (a nested pair, or the root) the marks stay as they were.
    pub fn set_good(&mut self, good: &[TopicId]) -> Result<(), TaxonomyError> {
        let mut t = self.clone();
        t.clear_good();
        for &g in good {
            t.mark_good(g)?;
        }
        *self = t;
        Ok(())
    }

    /// The good topics, in id order.
    pub fn good_topics(&self) -> Vec<TopicId> {
        self.ids().filter(|&t| self.nodes[t.index()].good).collect()
    }

    /// The topic's last path segment (empty for the root).
    pub fn name(&self, id: TopicId) -> &str {
        self.nodes.get(id.index()).map_or("", |n| n.name.as_str())
    }

    /// The topic's full `/`-separated path (empty for the root).
    pub fn path(&self, id: TopicId) -> &str {
        self.nodes.get(id.index()).map_or("", |n| n.path.as_str())
    }

    /// The parent, or `None` for the root.
    pub fn parent(&self, id: TopicId) -> Option<TopicId> {
        self.nodes.get(id.index()).and_then(|n| n.parent)
    }

    /// The children in insertion order.
    pub fn children(&self, id: TopicId) -> &[TopicId] {
        self.nodes
            .get(id.index())
            .map_or(&[], |n| n.children.as_slice())
    }

    /// Depth below the root (root = 0).
    pub fn depth(&self, id: TopicId) -> usize {
        self.nodes.get(id.index()).map_or(0, |n| n.depth)
    }

    /// True for a topic without children.
    pub fn is_leaf(&self, id: TopicId) -> bool {
        self.children(id).is_empty()
    }

    /// All leaves, in id order.
    pub fn leaves(&self) -> Vec<TopicId> {
        self.ids()
            .filter(|&t| t != TopicId::ROOT && self.is_leaf(t))
            .collect()
    }

    /// Proper ancestors from the parent up to the root.
    pub fn ancestors(&self, id: TopicId) -> impl Iterator<Item = TopicId> + '_ {
        std::iter::successors(self.parent(id), move |&t| self.parent(t))
    }

    /// Proper descendants, depth-first.
    pub fn descendants(&self, id: TopicId) -> impl Iterator<Item = TopicId> + '_ {
        let mut stack: Vec<TopicId> = self.children(id).iter().rev().copied().collect();
        std::iter::from_fn(move || {
            let next = stack.pop()?;
            stack.extend(self.children(next).iter().rev().copied());
            Some(next)
        })
    }

    /// The topic itself, then its proper descendants depth-first.
    pub fn subtree(&self, id: TopicId) -> impl Iterator<Item = TopicId> + '_ {
        std::iter::once(id).chain(self.descendants(id))
    }

    /// Every good topic and every topic under one: the topics whose mark is
    /// [`Mark::Good`] or [`Mark::Subsumed`], each good topic's subtree in turn.
    pub fn good_subtree(&self) -> Vec<TopicId> {
        self.good_topics()
            .into_iter()
            .flat_map(|g| self.subtree(g))
            .collect()
    }

    /// True if `ancestor` is `id` or one of its ancestors.
    pub fn is_ancestor_or_self(&self, ancestor: TopicId, id: TopicId) -> bool {
        id == ancestor || self.ancestors(id).any(|a| a == ancestor)
    }

    /// The topic's mark relative to the current good topics.
    pub fn mark(&self, id: TopicId) -> Mark {
        if self.nodes.get(id.index()).is_some_and(|n| n.good) {
            Mark::Good
        } else if self.ancestors(id).any(|a| self.nodes[a.index()].good) {
            Mark::Subsumed
        } else if self.descendants(id).any(|d| self.nodes[d.index()].good) {
            Mark::Path
        } else {
            Mark::Null
        }
    }

    /// The deepest common ancestor of a set of topics (the root if empty).
    pub fn common_ancestor(&self, topics: &[TopicId]) -> TopicId {
        let Some((&first, rest)) = topics.split_first() else {
            return TopicId::ROOT;
        };
        let mut candidate = first;
        loop {
            if rest.iter().all(|&t| self.is_ancestor_or_self(candidate, t)) {
                return candidate;
            }
            match self.parent(candidate) {
                Some(p) => candidate = p,
                None => return TopicId::ROOT,
            }
        }
    }
}

impl Default for Taxonomy {
    fn default() -> Self {
        Self::new()
    }
}

/// Builds a taxonomy from paths and good marks, failing on the first error.
#[derive(Debug, Default)]
pub struct TaxonomyBuilder {
    taxonomy: Taxonomy,
}

impl TaxonomyBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds every topic along `path`.
    pub fn topic(mut self, path: &str) -> Result<Self, TaxonomyError> {
        self.taxonomy.add_path(path)?;
        Ok(self)
    }

    /// Marks an existing topic good.
    pub fn good(mut self, path: &str) -> Result<Self, TaxonomyError> {
        let id = self.taxonomy.lookup(path)?;
        self.taxonomy.mark_good(id)?;
        Ok(self)
    }

    /// The finished taxonomy.
    pub fn build(self) -> Taxonomy {
        self.taxonomy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Taxonomy {
        TaxonomyBuilder::new()
            .topic("business/investment/mutual_funds")
            .unwrap()
            .topic("business/investment/stocks")
            .unwrap()
            .topic("recreation/cycling")
            .unwrap()
            .good("business/investment/mutual_funds")
            .unwrap()
            .build()
    }

    #[test]
    fn tree_navigation() {
        let t = sample();
        let mf = t.find("business/investment/mutual_funds").unwrap();
        let inv = t.find("business/investment").unwrap();
        assert_eq!(t.parent(mf), Some(inv));
        assert_eq!(t.name(mf), "mutual_funds");
        assert_eq!(t.depth(mf), 3);
        let anc: Vec<_> = t.ancestors(mf).map(|a| t.path(a).to_owned()).collect();
        assert_eq!(anc, ["business/investment", "business", ""]);
        assert_eq!(t.leaves().len(), 3);
        assert_eq!(t.children(inv).len(), 2);
    }

    #[test]
    fn marks_follow_the_papers() {
        let mut t = sample();
        let get = |t: &Taxonomy, p: &str| t.mark(t.find(p).unwrap());
        assert_eq!(get(&t, "business/investment/mutual_funds"), Mark::Good);
        assert_eq!(get(&t, "business/investment"), Mark::Path);
        assert_eq!(get(&t, ""), Mark::Path);
        assert_eq!(get(&t, "business/investment/stocks"), Mark::Null);
        assert_eq!(get(&t, "recreation"), Mark::Null);
        t.clear_good();
        t.mark_good(t.find("business").unwrap()).unwrap();
        assert_eq!(get(&t, "business/investment/stocks"), Mark::Subsumed);
        let (stocks, business) = (
            t.find("business/investment/stocks").unwrap(),
            t.find("business").unwrap(),
        );
        assert!(t.set_good(&[business, stocks]).is_err());
        assert_eq!(
            t.good_topics(),
            [business],
            "a refused set leaves the marks"
        );
        t.set_good(&[stocks]).unwrap();
        assert_eq!(t.good_topics(), [stocks]);
    }

    #[test]
    fn the_good_subtree_is_every_topic_marked_good_or_subsumed() {
        let mut t = sample();
        let path = |t: &Taxonomy, ids: Vec<TopicId>| -> Vec<String> {
            ids.into_iter().map(|i| t.path(i).to_owned()).collect()
        };
        assert_eq!(
            path(&t, t.good_subtree()),
            ["business/investment/mutual_funds"]
        );
        let (business, recreation) = (t.find("business").unwrap(), t.find("recreation").unwrap());
        t.set_good(&[business, recreation]).unwrap();
        let subtree = t.good_subtree();
        assert_eq!(
            path(&t, subtree.clone()),
            [
                "business",
                "business/investment",
                "business/investment/mutual_funds",
                "business/investment/stocks",
                "recreation",
                "recreation/cycling"
            ]
        );
        let marked: Vec<TopicId> = t
            .ids()
            .filter(|&i| matches!(t.mark(i), Mark::Good | Mark::Subsumed))
            .collect();
        let mut sorted = subtree;
        sorted.sort();
        assert_eq!(sorted, marked);
        t.clear_good();
        assert!(t.good_subtree().is_empty());
    }

    #[test]
    fn nested_good_topics_are_refused() {
        let mut t = sample();
        let err = t.mark_good(t.find("business").unwrap()).unwrap_err();
        assert!(matches!(err, TaxonomyError::NestedGood { .. }));
        assert_eq!(t.mark_good(TopicId::ROOT), Err(TaxonomyError::GoodRoot));
        t.mark_good(t.find("recreation/cycling").unwrap()).unwrap();
        assert_eq!(t.good_topics().len(), 2);
    }

    #[test]
    fn common_ancestor_of_siblings_is_their_parent() {
        let t = sample();
        let a = t.find("business/investment/mutual_funds").unwrap();
        let b = t.find("business/investment/stocks").unwrap();
        let c = t.find("recreation/cycling").unwrap();
        assert_eq!(t.path(t.common_ancestor(&[a, b])), "business/investment");
        assert_eq!(t.common_ancestor(&[a, c]), TopicId::ROOT);
    }

    #[test]
    fn invalid_names_are_typed_errors() {
        let mut t = Taxonomy::new();
        assert!(t.add_child(TopicId::ROOT, "").is_err());
        assert!(t.add_child(TopicId::ROOT, "a/b").is_err());
        assert!(t.lookup("nope").is_err());
    }
}
