//! The near-duplicate fingerprint of one page's text: SimHash over word
//! 3-shingles of a 4.9 KB text (the static site's average page), as the
//! crawl computes it for every fetched page.

use criterion::{Criterion, Throughput};
use focus_fetch::simhash;

fn text() -> String {
    // Seeded words of 3-9 letters, some capitalised, until 4.9 KB.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut out = String::new();
    while out.len() < 4_900 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = 3 + (x % 7) as usize;
        let word: String = (0..len)
            .map(|i| char::from(b'a' + ((x >> (i * 5)) % 26) as u8))
            .collect();
        if x.is_multiple_of(11) {
            out.push_str(&word.to_uppercase());
        } else {
            out.push_str(&word);
        }
        out.push(if x.is_multiple_of(13) { '.' } else { ' ' });
    }
    out
}

fn bench(c: &mut Criterion) {
    let text = text();
    let mut group = c.benchmark_group("dedup");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("simhash_4.9KB", |b| b.iter(|| simhash(&text)));
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
