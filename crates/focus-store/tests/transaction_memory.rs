//! What a page with thousands of new links costs in peak memory, in a
//! process of its own (the peak is the process's: another test in the same
//! binary would blur it).
//!
//! sled 0.34 copies the leaf a write lands in for every write of a
//! transaction and frees the copies only when the transaction ends, so a
//! transaction of 4,000 queued URLs held about 18 MB of copies at once (a
//! site's index page: the peer benchmark's crawl peaked there before it had
//! fetched a second page). The store queues a fetch's links beyond 256 in
//! operations of their own and commits a group at 1,024 writes, so no
//! transaction holds more than about 1,300 writes.

#![cfg(target_os = "linux")]

use focus_store::{PageRecord, QueuedUrl, Store};

mod common;
use common::status_kb;

fn url(id: u64) -> String {
    format!(
        "http://host{}.example/section/{id}/a-page-of-the-site.html",
        id % 97
    )
}

fn queued(id: u64) -> QueuedUrl {
    QueuedUrl {
        url: url(id),
        id,
        depth: 1,
        parent: Some(0),
        priority: 0.25,
        numtries: 0,
        tunnel: 0,
        extra: vec![],
        cited: vec!["an anchor text of a few words".to_owned()],
    }
}

fn index_page(links: usize) -> PageRecord {
    PageRecord {
        url: url(0),
        id: 0,
        attempt: 1,
        retry: false,
        final_url: None,
        seq: 0,
        status: 200,
        error: None,
        relevance: 0.5,
        class: Some("a/b".to_owned()),
        depth: 0,
        parent: None,
        fetched_at_ms: 1_000,
        bytes: 40 * links as u64,
        fingerprint: None,
        content_hash: None,
        duplicate: None,
        link_features: Vec::new(),
    }
}

#[test]
fn a_page_with_thousands_of_new_links_does_not_make_one_transaction_of_them() {
    const LINKS: u64 = 4_000;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("store")).unwrap();
    store.enqueue(&[queued(0)]).unwrap();
    store.flush().unwrap();
    let outlinks: Vec<(u64, String)> = (1..=LINKS).map(|id| (id, url(id))).collect();
    let new: Vec<QueuedUrl> = (1..=LINKS).map(queued).collect();
    let before = status_kb("VmHWM");
    let added = store
        .record_fetch(&index_page(LINKS as usize), &outlinks, &new)
        .unwrap();
    store.flush().unwrap();
    let grown = status_kb("VmHWM").saturating_sub(before);
    assert_eq!(added, LINKS as usize);
    assert_eq!(store.queued_count().unwrap(), LINKS as usize);
    // 19 MB when the fetch was one operation of 4,000 queue writes and a
    // group committed at 4,096; about 7.5 MB now (the staged values, and
    // one transaction of about 1,024 writes at a time).
    assert!(
        grown < 12_000,
        "recording a page with {LINKS} new links raised the peak by {grown} KB"
    );
}
