//! Kill-and-resume with a real process: this test binary re-executes itself
//! as a simulated crawler (env `FOCUS_STORE_CRASH_CHILD`), SIGKILLs it at
//! seeded moments, restarts it, and checks that every reachable page ends
//! up stored exactly once and that no page was fetched twice except the one
//! in flight at each kill.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use focus_store::{PageRecord, QueuedUrl, Store, StoreConfig};

const PAGES: u64 = 500;
const CHILD_ENV: &str = "FOCUS_STORE_CRASH_CHILD";

fn outlinks(n: u64) -> Vec<u64> {
    let mut v = vec![(n * 7 + 1) % PAGES, (n * 13 + 5) % PAGES, (n + 1) % PAGES];
    v.dedup();
    v
}

fn url(n: u64) -> String {
    format!("http://site{}.example/page/{n}", n % 17)
}

fn queued(n: u64, parent: Option<u64>) -> QueuedUrl {
    QueuedUrl {
        url: url(n),
        id: n,
        depth: 0,
        parent,
        priority: 0.5,
        numtries: 0,
        tunnel: 0,
        extra: vec![],
        cited: vec![],
    }
}

/// The simulated crawler: pop the first queued URL, log the fetch durably,
/// then commit it with `record_fetch`. Resumes from whatever the store holds.
fn crawl(dir: &Path) {
    let store = Store::open_with(
        &dir.join("store"),
        StoreConfig {
            flush_every_ms: 500,
            sync_every_record: true,
            ..StoreConfig::default()
        },
    )
    .unwrap();
    if store.page_count().unwrap() == 0 && store.queued_count().unwrap() == 0 {
        store.enqueue(&[queued(0, None)]).unwrap();
        store.flush().unwrap();
    }
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("fetch.log"))
        .unwrap();
    while let Some(next) = store.queued().next() {
        let q = next.unwrap();
        writeln!(log, "{}", q.id).unwrap();
        log.sync_data().unwrap();
        let links: Vec<(u64, String)> = outlinks(q.id).into_iter().map(|t| (t, url(t))).collect();
        let new: Vec<QueuedUrl> = links.iter().map(|(t, _)| queued(*t, Some(q.id))).collect();
        let page = PageRecord {
            url: q.url.clone(),
            id: q.id,
            attempt: 1,
            seq: q.id,
            status: 200,
            depth: q.depth,
            parent: q.parent,
            ..PageRecord::default()
        };
        store.record_fetch(&page, &links, &new).unwrap();
    }
}

#[test]
fn crash_child() {
    // Only does something when re-executed by `kill_and_resume`.
    if let Ok(dir) = std::env::var(CHILD_ENV) {
        crawl(Path::new(&dir));
    }
}

fn log_lines(dir: &Path) -> Vec<u64> {
    std::fs::read_to_string(dir.join("fetch.log"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect()
}

fn spawn_child(dir: &Path) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "crash_child", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn kill_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let mut in_flight_at_kill = HashSet::new();
    let mut killed_running = 0;
    // Seeded kill points (fetches logged before the kill), strictly increasing.
    for kill_after in [15usize, 90, 200, 310] {
        let mut child = spawn_child(dir.path());
        let deadline = Instant::now() + Duration::from_secs(30);
        while log_lines(dir.path()).len() < kill_after {
            assert!(Instant::now() < deadline, "child made no progress");
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if child.try_wait().unwrap().is_none() {
            killed_running += 1;
        }
        child.kill().ok(); // SIGKILL
        child.wait().unwrap();
        if let Some(&last) = log_lines(dir.path()).last() {
            in_flight_at_kill.insert(last);
        }
    }
    assert!(
        killed_running >= 3,
        "only {killed_running} kills hit a running crawl"
    );
    let before_last_run = log_lines(dir.path()).len();
    assert!(
        before_last_run < PAGES as usize,
        "the crawl must still have work after the kills"
    );
    // Let the last run finish.
    let status = spawn_child(dir.path()).wait().unwrap();
    assert!(status.success());

    // Expected pages: everything reachable from page 0.
    let mut reachable = HashSet::from([0u64]);
    let mut todo = VecDeque::from([0u64]);
    while let Some(n) = todo.pop_front() {
        for t in outlinks(n) {
            if reachable.insert(t) {
                todo.push_back(t);
            }
        }
    }
    let store = Store::open(&dir.path().join("store")).unwrap();
    let stored: HashSet<u64> = store.pages().map(|p| p.unwrap().id).collect();
    assert_eq!(
        stored, reachable,
        "every reachable page stored, nothing else"
    );
    assert_eq!(store.queued_count().unwrap(), 0);

    let mut fetches: HashMap<u64, usize> = HashMap::new();
    for id in log_lines(dir.path()) {
        *fetches.entry(id).or_default() += 1;
    }
    for (id, n) in fetches {
        assert!(
            n == 1 || (n == 2 && in_flight_at_kill.contains(&id)),
            "page {id} fetched {n} times (in flight at a kill: {})",
            in_flight_at_kill.contains(&id)
        );
    }
}
