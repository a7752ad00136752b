//! For the tests that check a parallel training against one thread: a
//! taxonomy of groups of three leaves with examples of every leaf, and a
//! call run on a pool of a given size.

use focus_core::{Taxonomy, TaxonomyBuilder, TopicId};
use focus_text::{SparseVec, TermId};

use crate::Example;

/// `groups` internal nodes under the root, three leaves each (`gG/lL`,
/// `g1/l2` good), and `per_leaf` examples of every leaf: a term of the
/// leaf, one of its group, and two shared by all.
pub(crate) fn grouped(groups: u32, per_leaf: u32) -> (Taxonomy, Vec<Example>) {
    let leaves = 3 * groups;
    let names: Vec<String> = (0..leaves)
        .map(|i| format!("g{}/l{}", i / 3, i % 3))
        .collect();
    let mut builder = TaxonomyBuilder::new();
    for n in &names {
        builder = builder.topic(n).expect("a fresh topic");
    }
    let tax = builder.good("g1/l2").expect("a known topic").build();
    let ids: Vec<TopicId> = names
        .iter()
        .map(|n| tax.find(n).expect("just added"))
        .collect();
    let ex = (0..leaves * per_leaf)
        .map(|i| {
            let k = i % leaves;
            let terms = [
                (10 * k + i % 7, 3.0 + f64::from(i % 4)),
                (1000 + 10 * (k / 3) + i % 5, 2.0),
                (2000 + i % 11, 2.0),
                (3000 + i % (10 * leaves), 1.0),
            ];
            Example {
                counts: SparseVec::from_unsorted(
                    terms.iter().map(|&(t, w)| (TermId(t), w)).collect(),
                ),
                topic: ids[k as usize],
            }
        })
        .collect();
    (tax, ex)
}

/// `f` run on a rayon pool of `threads` threads.
pub(crate) fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}
