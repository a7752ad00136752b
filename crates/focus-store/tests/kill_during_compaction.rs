//! Compaction killed outright: this test binary re-executes itself as a
//! process that compacts one store over and over (env
//! `FOCUS_STORE_COMPACT_CHILD`), SIGKILLs it at seeded moments, and checks
//! after each kill that the next open finds the whole store, unchanged,
//! with nothing left beside it.
//!
//! Between compactions the child overwrites one meta value with itself
//! many times: the store's contents never change, but its log fills with
//! dead copies, so every compaction has something to reclaim and goes
//! through its renames.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use focus_store::{compact, PageRecord, QueuedUrl, Store};

const CHILD_ENV: &str = "FOCUS_STORE_COMPACT_CHILD";
const PAGES: u64 = 2_000;

fn queued(id: u64) -> QueuedUrl {
    QueuedUrl {
        url: format!("http://site{}.example/queued/{id}", id % 7),
        id,
        depth: 1,
        parent: Some(id % PAGES),
        priority: 0.25,
        numtries: 0,
        tunnel: 0,
        extra: vec![],
        cited: vec![],
    }
}

/// The store every run starts from: pages with links, a queue, metadata
/// and a model.
fn build(dir: &Path) {
    let store = Store::open(dir).unwrap();
    for id in 0..PAGES {
        let page = PageRecord {
            url: format!("http://site{}.example/page/{id}", id % 7),
            id,
            attempt: 1,
            seq: id,
            status: 200,
            relevance: (id % 10) as f64 / 10.0,
            ..PageRecord::default()
        };
        let links: Vec<(u64, String)> = (1..=5)
            .map(|k| {
                let to = PAGES + id * 5 + k;
                (to, queued(to).url)
            })
            .collect();
        let new: Vec<QueuedUrl> = links.iter().map(|(to, _)| queued(*to)).collect();
        store.record_fetch(&page, &links, &new).unwrap();
    }
    store.put_meta("seeds", &vec![0_u64, 1, 2]).unwrap();
    store.put_meta("churn", &"x".repeat(4096)).unwrap();
    store.put_model("classifier", &[7_u8; 10_000]).unwrap();
    store.close().unwrap();
}

/// Everything a reader of the store sees, in a comparable form.
fn contents(dir: &Path) -> String {
    let store = Store::open(dir).unwrap();
    let pages: Vec<PageRecord> = store.pages().map(Result::unwrap).collect();
    let queue: Vec<QueuedUrl> = store.queued().map(Result::unwrap).collect();
    let links: Vec<(u64, u64, String)> = store.links_with_urls().map(Result::unwrap).collect();
    let seeds: Option<Vec<u64>> = store.get_meta("seeds").unwrap();
    let churn: Option<String> = store.get_meta("churn").unwrap();
    let model = store.get_model("classifier").unwrap();
    let seen = format!("{pages:?}\n{queue:?}\n{links:?}\n{seeds:?}\n{churn:?}\n{model:?}");
    store.close().unwrap();
    seen
}

/// The child: dead copies, then a compaction, again and again.
fn churn_and_compact(dir: &Path) {
    let same = "x".repeat(4096);
    loop {
        let store = Store::open(dir).unwrap();
        for _ in 0..200 {
            store.put_meta("churn", &same).unwrap();
            store.commit().unwrap();
        }
        store.close().unwrap();
        compact(dir).unwrap();
    }
}

#[test]
fn compaction_child() {
    // Only does something when re-executed by the test below.
    if let Ok(dir) = std::env::var(CHILD_ENV) {
        churn_and_compact(Path::new(&dir));
    }
}

fn sibling(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = dir.file_name().unwrap().to_os_string();
    name.push(suffix);
    dir.with_file_name(name)
}

#[test]
fn a_compaction_killed_at_any_moment_loses_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("store");
    build(&dir);
    let expected = contents(&dir);
    let mut mid_compaction = 0;
    let copy = sibling(&dir, ".compacting");
    // Seeded kill moments: milliseconds after the child's copy appears
    // beside the store (its compaction has begun).
    for after_ms in [0_u64, 1, 2, 3, 5, 8, 13, 21, 34, 55] {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "compaction_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !copy.exists() {
            assert!(Instant::now() < deadline, "the child began no compaction");
            assert!(
                child.try_wait().unwrap().is_none(),
                "the child stopped by itself"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
        std::thread::sleep(Duration::from_millis(after_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        if copy.exists() || sibling(&dir, ".precompact").exists() {
            mid_compaction += 1;
        }
        assert_eq!(
            contents(&dir),
            expected,
            "killed {after_ms} ms into a compaction"
        );
        assert!(!copy.exists());
        assert!(!sibling(&dir, ".precompact").exists());
    }
    // The kills must have caught compactions under way, or the test
    // checked nothing of them.
    assert!(
        mid_compaction >= 5,
        "only {mid_compaction} of 10 kills fell during a compaction"
    );
}
