//! Duplicate detection before and after download: canonical URL id,
//! (IP, path), exact content hash, and SimHash near-duplicates with a
//! Hamming-distance threshold (banded index: for thresholds below the
//! number of bands, two fingerprints within the threshold share a band).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

pub use focus_core::DuplicateKind;

/// What a page's text is checked by: its exact hash and its SimHash.
/// Computed where the text is (in parallel, off the crawl's order), then
/// checked in the crawl's order with [`DuplicateDetector::check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    /// XXH3 of the text.
    pub content: u64,
    /// [`simhash`] of the text.
    pub simhash: u64,
}

impl Fingerprint {
    /// The fingerprint of `text`.
    pub fn of(text: &str) -> Self {
        Self {
            content: xxh3_64(text.as_bytes()),
            simhash: simhash(text),
        }
    }
}

/// 64-bit SimHash of a text over word 3-shingles (words lower-cased).
pub fn simhash(text: &str) -> u64 {
    // The lower-cased words, each followed by one space, in one buffer: a
    // shingle "w1 w2 w3" is then one slice of it, hashed without copying.
    let mut buf: Vec<u8> = Vec::with_capacity(text.len() + 1);
    let mut starts = Vec::new();
    if text.is_ascii() {
        // On ASCII, `char::is_alphanumeric` is `u8::is_ascii_alphanumeric`
        // and lower-casing is byte by byte: the same words without decoding
        // a char, which took 40 % of the SimHash's time
        // (`cargo bench -p focus-fetch --bench simhash`: 15.2 µs → 9.3 µs).
        for w in text
            .as_bytes()
            .split(|b| !b.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            starts.push(buf.len());
            buf.extend(w.iter().map(u8::to_ascii_lowercase));
            buf.push(b' ');
        }
    } else {
        for w in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            starts.push(buf.len());
            if w.chars().any(char::is_uppercase) {
                buf.extend_from_slice(w.to_lowercase().as_bytes());
            } else {
                buf.extend_from_slice(w.as_bytes());
            }
            buf.push(b' ');
        }
    }
    starts.push(buf.len());
    // Word i is buf[starts[i]..starts[i + 1] - 1] (its space left out).
    let span = |from: usize, to: usize| &buf[starts[from]..starts[to] - 1];
    let words = starts.len() - 1;
    let mut votes = BitVotes::new();
    if words < 3 {
        for i in 0..words {
            votes.add(xxh3_64(span(i, i + 1)));
        }
    } else {
        for i in 0..words - 2 {
            votes.add(xxh3_64(span(i, i + 3)));
        }
    }
    votes.majority()
}

/// Per bit of 64, how many hashes have it set. Each byte of a hash adds
/// its eight bits at once: [`SPREAD`] turns it into a `u64` with one bit
/// per byte, and eight such byte-lane counters count up to 255 before they
/// are emptied into the totals (a hash's bits one by one made 64 additions
/// per shingle: `cargo bench -p focus-fetch --bench simhash` measured a
/// third of the SimHash's time go with them).
struct BitVotes {
    /// Lane `j` of `lanes[i]` counts bit `8 i + j`.
    lanes: [u64; 8],
    pending: u32,
    ones: [u32; 64],
    hashes: u32,
}

impl BitVotes {
    fn new() -> Self {
        Self {
            lanes: [0; 8],
            pending: 0,
            ones: [0; 64],
            hashes: 0,
        }
    }

    fn add(&mut self, h: u64) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            *lane += SPREAD[((h >> (8 * i)) & 0xFF) as usize];
        }
        self.pending += 1;
        self.hashes += 1;
        if self.pending == 255 {
            self.empty_lanes();
        }
    }

    fn empty_lanes(&mut self) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            for j in 0..8 {
                self.ones[8 * i + j] += ((*lane >> (8 * j)) & 0xFF) as u32;
            }
            *lane = 0;
        }
        self.pending = 0;
    }

    /// A bit of the SimHash is set when more than half of the hashes have
    /// it (the ±1 vote sum is positive).
    fn majority(mut self) -> u64 {
        self.empty_lanes();
        let hashes = self.hashes;
        self.ones
            .iter()
            .enumerate()
            .filter(|(_, &n)| 2 * n > hashes)
            .fold(0u64, |h, (bit, _)| h | 1 << bit)
    }
}

/// Byte `b` spread over a `u64`: bit `j` of `b` becomes the lowest bit of
/// byte `j`.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 1 {
                table[b] |= 1 << (8 * j);
            }
            j += 1;
        }
        b += 1;
    }
    table
};

const BANDS: usize = 4;

/// Remembers what was fetched and says whether something is a duplicate.
#[derive(Debug, Default)]
pub struct DuplicateDetector {
    urls: HashSet<u64>,
    ip_paths: HashSet<u64>,
    /// Exact text hash → the first page with that text.
    contents: HashMap<u64, u64>,
    /// The originals' (SimHash, page), in the order they were remembered.
    originals: Vec<(u64, u64)>,
    /// Per band, each value of the band → the last original remembered
    /// with it (an index into `originals`).
    heads: [HashMap<u16, u32>; BANDS],
    /// Per original and band, the original remembered before it with the
    /// same value of the band ([`NONE`]: none). With `heads`, a list per
    /// band value at 4 bytes an entry, instead of a vector per band value.
    earlier: Vec<[u32; BANDS]>,
    threshold: u32,
}

/// The end of a band value's list of originals.
const NONE: u32 = u32::MAX;

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

    /// After download: whether page `page`'s text (`fp`) repeats an
    /// original seen before, and which (for a near-duplicate, the nearest,
    /// the lowest page id on a tie, so the answer does not depend on the
    /// order the originals came in). A page that repeats nothing becomes
    /// an original; a duplicate is not remembered, so a chain of small
    /// edits is measured against the first text, not the last.
    pub fn check(&mut self, page: u64, fp: Fingerprint) -> Option<(DuplicateKind, u64)> {
        if let Some(&of) = self.contents.get(&fp.content) {
            return (of != page).then_some((DuplicateKind::Content, of));
        }
        let near = (0..BANDS)
            .flat_map(|b| self.in_band(b, band(fp.simhash, b)))
            .map(|(o, id)| ((o ^ fp.simhash).count_ones(), id))
            .filter(|&(d, id)| d <= self.threshold && id != page)
            .min();
        if let Some((_, of)) = near {
            return Some((DuplicateKind::NearContent, of));
        }
        self.remember(page, fp);
        None
    }

    /// Records page `page` as an original without checking it (to rebuild
    /// the detector from a stored crawl's originals).
    pub fn remember(&mut self, page: u64, fp: Fingerprint) {
        if self.contents.insert(fp.content, page).is_some() {
            return;
        }
        // Past four billion originals a page is still an exact original,
        // but no longer a near one.
        let Some(at) = u32::try_from(self.originals.len())
            .ok()
            .filter(|&at| at != NONE)
        else {
            return;
        };
        let mut earlier = [NONE; BANDS];
        for (b, e) in earlier.iter_mut().enumerate() {
            if let Some(last) = self.heads[b].insert(band(fp.simhash, b), at) {
                *e = last;
            }
        }
        self.originals.push((fp.simhash, page));
        self.earlier.push(earlier);
    }

    /// The (SimHash, page) of the originals whose band `b` is `value`.
    fn in_band(&self, b: usize, value: u16) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut at = self.heads[b].get(&value).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            let original = *self.originals.get(at as usize)?;
            at = self.earlier.get(at as usize).map_or(NONE, |e| e[b]);
            Some(original)
        })
    }

    /// Originals remembered.
    pub fn originals(&self) -> usize {
        self.contents.len()
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

    const BASE: &str = "the quick brown fox jumps over the lazy dog near the river bank on a sunny day with friends and family";

    #[test]
    fn byte_lane_votes_count_every_bit_as_one_at_a_time_does() {
        use std::fmt::Write as _;
        // Hash counts below, at and past a lane's 255 before it is emptied.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for n in [0usize, 1, 2, 254, 255, 256, 1000] {
            let mut votes = BitVotes::new();
            let mut ones = [0u32; 64];
            for _ in 0..n {
                // splitmix64: hashes with every bit pattern.
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut h = state;
                h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                h ^= h >> 31;
                votes.add(h);
                for (bit, c) in ones.iter_mut().enumerate() {
                    *c += ((h >> bit) & 1) as u32;
                }
            }
            let expected = (0..64)
                .filter(|&bit| 2 * ones[bit] > n as u32)
                .fold(0u64, |h, bit| h | 1 << bit);
            assert_eq!(votes.majority(), expected, "{n} hashes");
        }
        // Texts keep the fingerprints the bit-at-a-time count gave them (a
        // resumed crawl compares stored fingerprints with new ones); the
        // long one has 2,000 shingles.
        let mut long = String::new();
        for i in 0..2000 {
            let _ = write!(long, "w{} ", i * 7919 % 1013);
        }
        assert_eq!(simhash(BASE), 0xf7fc_e44d_844d_19b5);
        assert_eq!(simhash(&long), 0x4d50_b471_10f9_4a2b);
    }

    #[test]
    fn exact_near_and_distinct_content() {
        let mut d = DuplicateDetector::new(3);
        let check = |d: &mut DuplicateDetector, id, text: &str| d.check(id, Fingerprint::of(text));
        assert_eq!(check(&mut d, 1, BASE), None);
        assert_eq!(check(&mut d, 2, BASE), Some((DuplicateKind::Content, 1)));
        // Checking an original again (a resumed crawl) does not mark it.
        assert_eq!(check(&mut d, 1, BASE), None);
        let near = format!("{BASE} today");
        let distance = (simhash(BASE) ^ simhash(&near)).count_ones();
        assert_eq!(
            check(&mut d, 3, &near),
            (distance <= 3).then_some((DuplicateKind::NearContent, 1))
        );
        let other = "a completely different text about mutual funds and index investing strategies";
        assert_eq!(check(&mut d, 4, other), None);
        assert_eq!(d.originals(), if distance <= 3 { 2 } else { 3 });
    }

    #[test]
    fn a_near_duplicate_names_its_nearest_original_whatever_the_order() {
        let fp = |s: u64, c: u64| Fingerprint {
            content: c,
            simhash: s,
        };
        let probe = fp(0b1000, 9);
        for order in [
            [(1, fp(0b1011, 1)), (2, fp(0b0000, 2))],
            [(2, fp(0b0000, 2)), (1, fp(0b1011, 1))],
        ] {
            let mut d = DuplicateDetector::new(3);
            for (id, f) in order {
                d.remember(id, f);
            }
            // 0b1000 is 1 bit from page 2 and 2 bits from page 1: both match.
            assert_eq!(d.check(5, probe), Some((DuplicateKind::NearContent, 2)));
        }
    }

    #[test]
    fn near_duplicates_are_what_comparing_with_every_original_finds() {
        // Originals whose bands take one of four random values each, so
        // each band value lists many of them (and two that differ in a band
        // differ in about eight bits), and probes a bit or two away.
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let pool: Vec<[u64; 4]> = (0..BANDS)
            .map(|_| {
                [
                    next() & 0xffff,
                    next() & 0xffff,
                    next() & 0xffff,
                    next() & 0xffff,
                ]
            })
            .collect();
        let mut d = DuplicateDetector::new(3);
        let mut originals: Vec<(u64, u64)> = Vec::new();
        for page in 0..600 {
            let s = (0..BANDS).fold(0, |h, b| h | pool[b][(next() % 4) as usize] << (16 * b));
            if d.check(
                page,
                Fingerprint {
                    content: s,
                    simhash: s,
                },
            )
            .is_none()
            {
                originals.push((s, page));
            }
        }
        assert!(originals.len() > 50, "{} originals", originals.len());
        for probe in 0..400_u64 {
            let (base, _) = originals[(probe as usize * 7) % originals.len()];
            let s = base ^ (1 << (probe % 64)) ^ (1 << (probe * 13 % 64));
            let expected = originals
                .iter()
                .map(|&(o, id)| ((o ^ s).count_ones(), id))
                .filter(|&(dist, _)| dist <= 3)
                .min()
                .map(|(_, id)| (DuplicateKind::NearContent, id));
            let f = Fingerprint {
                content: u64::MAX - probe,
                simhash: s,
            };
            let mut fresh = DuplicateDetector::new(3);
            for &(o, id) in &originals {
                fresh.remember(
                    id,
                    Fingerprint {
                        content: o,
                        simhash: o,
                    },
                );
            }
            assert_eq!(fresh.check(10_000 + probe, f), expected, "probe {probe}");
        }
    }

    #[test]
    fn a_page_does_not_repeat_itself() {
        let mut d = DuplicateDetector::new(3);
        d.remember(7, Fingerprint::of(BASE));
        assert_eq!(d.check(7, Fingerprint::of(BASE)), None);
        assert_eq!(d.check(7, Fingerprint::of(&format!("{BASE} today"))), None);
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

    /// The definition, written plainly: every shingle joined by spaces.
    fn simhash_by_definition(text: &str) -> u64 {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let hashes: Vec<u64> = if words.len() < 3 {
            words.iter().map(|w| xxh3_64(w.as_bytes())).collect()
        } else {
            words
                .windows(3)
                .map(|w| xxh3_64(w.join(" ").as_bytes()))
                .collect()
        };
        (0..64)
            .filter(|bit| {
                hashes
                    .iter()
                    .map(|h| if h >> bit & 1 == 1 { 1 } else { -1 })
                    .sum::<i32>()
                    > 0
            })
            .fold(0u64, |h, bit| h | 1 << bit)
    }

    #[test]
    fn simhash_hashes_the_shingles_of_its_definition() {
        for text in [
            "",
            "one",
            "One two",
            "one two three",
            "Ünïcödé WORDS, punctuation -- and   spaces; ÄÖ straße İstanbul",
            "a b c d e f g h i j k l m n o p q r s t u v w x y z",
            "HTTP/1.1 404:\tNot-Found; 3D Printers, 42nd-STREET\n(x86_64) _under_score_",
        ] {
            assert_eq!(simhash(text), simhash_by_definition(text), "{text:?}");
        }
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
