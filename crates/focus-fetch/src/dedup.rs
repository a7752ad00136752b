//! Duplicate detection before and after download: canonical URL id,
//! (IP, path), exact content hash, and SimHash near-duplicates with a
//! Hamming-distance threshold (banded index: for thresholds below the
//! number of bands, two fingerprints within the threshold share a band).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

/// Which check found a duplicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuplicateKind {
    /// The canonical URL was seen.
    Url,
    /// The same path was fetched from the same IP address.
    IpPath,
    /// The exact same content was seen.
    Content,
    /// Content within the SimHash threshold of earlier content.
    NearContent,
}

/// 64-bit SimHash of a text over word 3-shingles (words lower-cased).
pub fn simhash(text: &str) -> u64 {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut acc = [0i32; 64];
    let mut add = |h: u64| {
        for (bit, a) in acc.iter_mut().enumerate() {
            *a += if h >> bit & 1 == 1 { 1 } else { -1 };
        }
    };
    if words.len() < 3 {
        for w in &words {
            add(xxh3_64(w.as_bytes()));
        }
    } else {
        for win in words.windows(3) {
            add(xxh3_64(win.join(" ").as_bytes()));
        }
    }
    acc.iter()
        .enumerate()
        .filter(|(_, &a)| a > 0)
        .fold(0u64, |h, (bit, _)| h | 1 << bit)
}

const BANDS: usize = 4;

/// Remembers what was fetched and says whether something is a duplicate.
#[derive(Debug, Default)]
pub struct DuplicateDetector {
    urls: HashSet<u64>,
    ip_paths: HashSet<u64>,
    contents: HashSet<u64>,
    bands: HashMap<(usize, u16), Vec<u64>>,
    threshold: u32,
}

impl DuplicateDetector {
    /// A detector calling two texts near-duplicates when their SimHashes
    /// differ in at most `threshold` bits (at most 3: the banded index
    /// guarantees finding every such pair only below 4 bands).
    pub fn new(threshold: u32) -> Self {
        Self {
            threshold: threshold.min(BANDS as u32 - 1),
            ..Self::default()
        }
    }

    /// Before download: records the URL id; true if it was seen.
    pub fn seen_url(&mut self, page_id: u64) -> bool {
        !self.urls.insert(page_id)
    }

    /// Before download (after DNS): records (IP, path); true if seen.
    pub fn seen_ip_path(&mut self, ip: IpAddr, path_and_query: &str) -> bool {
        let key = xxh3_64_with_seed(path_and_query.as_bytes(), ip_seed(ip));
        !self.ip_paths.insert(key)
    }

    /// After download: records the content; returns the kind of duplicate
    /// it is, if any.
    pub fn check_content(&mut self, text: &str) -> Option<DuplicateKind> {
        if !self.contents.insert(xxh3_64(text.as_bytes())) {
            return Some(DuplicateKind::Content);
        }
        let fp = simhash(text);
        let near = (0..BANDS).any(|b| {
            self.bands
                .get(&(b, band(fp, b)))
                .is_some_and(|v| v.iter().any(|&o| (o ^ fp).count_ones() <= self.threshold))
        });
        for b in 0..BANDS {
            self.bands.entry((b, band(fp, b))).or_default().push(fp);
        }
        near.then_some(DuplicateKind::NearContent)
    }
}

fn band(fp: u64, b: usize) -> u16 {
    (fp >> (16 * b)) as u16
}

fn ip_seed(ip: IpAddr) -> u64 {
    match ip {
        IpAddr::V4(v4) => u64::from(u32::from(v4)),
        IpAddr::V6(v6) => xxh3_64(&v6.octets()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_near_and_distinct_content() {
        let mut d = DuplicateDetector::new(3);
        let base = "the quick brown fox jumps over the lazy dog near the river bank on a sunny day with friends and family";
        assert_eq!(d.check_content(base), None);
        assert_eq!(d.check_content(base), Some(DuplicateKind::Content));
        let near = format!("{base} today");
        let distance = (simhash(base) ^ simhash(&near)).count_ones();
        assert_eq!(d.check_content(&near).is_some(), distance <= 3);
        assert_eq!(
            d.check_content(
                "a completely different text about mutual funds and index investing strategies"
            ),
            None
        );
    }

    #[test]
    fn urls_and_ip_paths() {
        let mut d = DuplicateDetector::new(3);
        assert!(!d.seen_url(1));
        assert!(d.seen_url(1));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        assert!(!d.seen_ip_path(ip, "/a"));
        assert!(d.seen_ip_path(ip, "/a"));
        assert!(!d.seen_ip_path("10.0.0.2".parse().unwrap(), "/a"));
    }

    #[test]
    fn simhash_is_stable_and_similar_texts_are_close() {
        let a = simhash("one two three four five six seven eight nine ten eleven twelve");
        let b = simhash("one two three four five six seven eight nine ten eleven twelve thirteen");
        let c = simhash("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu");
        assert!((a ^ b).count_ones() < (a ^ c).count_ones());
        assert_eq!(
            a,
            simhash("One two THREE four five six seven eight nine ten eleven twelve")
        );
    }
}
