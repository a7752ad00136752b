//! The measurements of the reproduction that are not a crawl's own
//! numbers: coverage of a reference crawl by a test crawl, host link
//! distances over a crawl's recorded link graph, and the small helpers the
//! figures share (ratios, hosts of URLs, curve points). The overlap curves
//! themselves are `focus_eval::overlap_curve`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use focus_core::CanonicalUrl;
use focus_eval::link_distances;
use focus_store::Store;

use super::input;
use focus_app::AppError;

pub(super) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

pub(super) fn host_of(url: &str) -> String {
    focus_core::HostKey::of_url(url).map_or_else(String::new, |h| h.as_str().to_owned())
}

/// Shortest link distance from the seeds to each host, over the link graph
/// the crawl recorded (fetched pages and the links they carry).
pub(super) fn host_distances(
    dir: &Path,
    seeds: &[CanonicalUrl],
) -> Result<HashMap<String, usize>, AppError> {
    let store = Store::open(&dir.join("store")).map_err(input)?;
    let mut host_of_id: HashMap<u64, String> = HashMap::new();
    for page in store.pages() {
        let p = page.map_err(input)?;
        host_of_id.insert(p.id, host_of(&p.url));
    }
    let mut edges: HashMap<u64, Vec<u64>> = HashMap::new();
    for link in store.links_with_urls() {
        let (from, to, url) = link.map_err(input)?;
        edges.entry(from).or_default().push(to);
        host_of_id.entry(to).or_insert_with(|| host_of(&url));
    }
    let seed_ids: Vec<u64> = seeds.iter().map(|s| s.page_id().0).collect();
    let mut by_host: HashMap<String, usize> = HashMap::new();
    for (id, d) in link_distances(&edges, &seed_ids) {
        if let Some(h) = host_of_id.get(&id) {
            let e = by_host.entry(h.clone()).or_insert(d);
            *e = (*e).min(d);
        }
    }
    Ok(by_host)
}

pub(super) fn points(curve: &[(usize, f64)]) -> Vec<(f64, f64)> {
    curve.iter().map(|&(t, y)| (t as f64, y)).collect()
}

pub(super) fn last(curve: &[(usize, f64)]) -> f64 {
    curve.last().map_or(0.0, |p| p.1)
}

/// Fraction of `reference` found by the test crawl's first t fetches.
pub(super) fn coverage_curve(
    reference: &HashSet<String>,
    test: &[String],
    step: usize,
) -> Vec<(usize, f64)> {
    let mut found = HashSet::new();
    let mut out = Vec::new();
    for (t, x) in test.iter().enumerate() {
        if reference.contains(x) {
            found.insert(x.clone());
        }
        if (t + 1) % step.max(1) == 0 || t + 1 == test.len() {
            out.push((t + 1, ratio(found.len(), reference.len())));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_counts_reference_items_found_by_t() {
        let reference: HashSet<String> = ["a", "b", "c", "d"].map(String::from).into();
        let test: Vec<String> = ["x", "a", "a", "b", "y"].map(String::from).into();
        assert_eq!(
            coverage_curve(&reference, &test, 2),
            vec![(2, 0.25), (4, 0.5), (5, 0.5)]
        );
    }
}
