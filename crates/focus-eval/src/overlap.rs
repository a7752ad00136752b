//! Figures 6–7 and 9 of the 1999 paper: overlap of two crawls over time,
//! and link distances from a seed set.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};

/// |A(t) ∩ B(t)| / |A(t)| for t = step, 2·step, ...: the fraction of what
/// crawl A found by its t-th item that crawl B also found by its t-th item
/// (sequences of relevant URLs or servers, in fetch order).
pub fn overlap_curve<T: Eq + Hash + Clone>(a: &[T], b: &[T], step: usize) -> Vec<(usize, f64)> {
    let step = step.max(1);
    let (mut sa, mut sb) = (HashSet::new(), HashSet::new());
    let mut out = Vec::new();
    let n = a.len().max(b.len());
    for t in 0..n {
        if let Some(x) = a.get(t) {
            sa.insert(x.clone());
        }
        if let Some(x) = b.get(t) {
            sb.insert(x.clone());
        }
        if (t + 1) % step == 0 || t + 1 == n {
            let inter = sa.intersection(&sb).count();
            out.push((
                t + 1,
                if sa.is_empty() {
                    0.0
                } else {
                    inter as f64 / sa.len() as f64
                },
            ));
        }
    }
    out
}

/// Breadth-first link distance from any seed to every reachable node.
pub fn link_distances<T: Eq + Hash + Clone, S: BuildHasher>(
    edges: &HashMap<T, Vec<T>, S>,
    seeds: &[T],
) -> HashMap<T, usize> {
    let mut dist: HashMap<T, usize> = seeds.iter().map(|s| (s.clone(), 0)).collect();
    let mut queue: VecDeque<T> = seeds.iter().cloned().collect();
    while let Some(u) = queue.pop_front() {
        let d = dist.get(&u).copied().unwrap_or(0);
        for v in edges.get(&u).map_or(&[][..], Vec::as_slice) {
            if !dist.contains_key(v) {
                dist.insert(v.clone(), d + 1);
                queue.push_back(v.clone());
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_and_distance() {
        let a = [1, 2, 3, 4];
        let b = [3, 1, 9, 8];
        assert_eq!(overlap_curve(&a, &b, 2), vec![(2, 0.5), (4, 0.5)]);
        let edges = HashMap::from([(1, vec![2, 3]), (2, vec![4]), (4, vec![1])]);
        let d = link_distances(&edges, &[1]);
        assert_eq!((d[&1], d[&3], d[&4]), (0, 1, 2));
        assert!(!d.contains_key(&5));
    }
}
