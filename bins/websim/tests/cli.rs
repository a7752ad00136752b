//! The `websim` command line: `stats` exit codes, `truth`, `sample` (and
//! its refusal on a web too small to sample), the first lines `serve`
//! prints (on the small web), and `delay` in front of `serve`.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Command, Stdio};

const SMALL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/websim/small.toml"
);

fn websim() -> Command {
    Command::new(env!("CARGO_BIN_EXE_websim"))
}

#[test]
fn stats_says_out_of_range_on_the_small_web() {
    // The ranges are the default web's: the small web has too few pages.
    let out = websim()
        .args(["--config", SMALL, "stats"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("out of range"));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("same-host share of links"));
}

#[test]
fn truth_and_sample() {
    let out = websim()
        .args(["--config", SMALL, "--seed", "4", "truth"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20_000);
    assert!(lines
        .iter()
        .all(|l| l.starts_with("http://") && l.contains('\t')));
    let dir = tempfile::tempdir().unwrap();
    let out = websim()
        .args(["--config", SMALL, "sample", "--per-topic", "1", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(dir.path().join("recreation/outdoors/cycling").is_dir());
}

#[test]
fn sample_says_when_a_web_is_too_small_to_sample() {
    // 2,000 pages: every topic's pages are among the 200 its seeds are
    // drawn from, so there is nothing to sample.
    let dir = tempfile::tempdir().unwrap();
    let out = websim()
        .args(["--pages", "2000", "sample", "--per-topic", "5", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("too small to sample"), "{stderr}");
    assert!(stderr.contains("leave out the 200 pages"), "{stderr}");
}

#[test]
fn serve_prints_address_connect_to_and_seeds() {
    let mut child = websim()
        .args(["--config", SMALL, "serve", "--seeds", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    let _ = lines.next();
    let seed = lines.next().unwrap().unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(first.starts_with("listening on 127.0.0.1:"), "{first}");
    let port = first.rsplit(':').next().unwrap();
    assert_eq!(second, format!("connect-to ::127.0.0.1:{port}"));
    assert!(
        seed.starts_with("seed ") && seed.contains("http://"),
        "{seed}"
    );
}

/// A child process killed when dropped, so a failing test leaves none
/// running.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Spawns `websim ARGS` and returns it, the address it says it listens on
/// and the rest of its output.
fn listening(args: &[&str]) -> (Running, String, impl Iterator<Item = String> + Send) {
    let mut child = Running(websim().args(args).stdout(Stdio::piped()).spawn().unwrap());
    let mut lines = BufReader::new(child.0.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok);
    let first = lines.next().unwrap_or_default();
    let addr = first
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{first}"))
        .to_owned();
    (child, addr, lines)
}

#[test]
fn delay_relays_a_servers_pages_after_the_delay() {
    // The server writes a line per seed: its output is read to the end
    // while the test runs, or it stops on a closed pipe.
    let (server, upstream, mut lines) = listening(&["--config", SMALL, "serve", "--seeds", "1"]);
    // The search service: a page of the web's own hosts may be one of
    // its faults (a reset, a stall), which the proxy would relay.
    let search = lines.nth(1).unwrap();
    let host = search
        .strip_prefix("search http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap()
        .to_owned();
    let drain = std::thread::spawn(move || lines.count());
    // Its output stays open: on a closed pipe it would stop at its second line.
    let (proxy, addr, _proxy_out) = listening(&[
        "delay",
        "--upstream",
        &upstream,
        "--latency",
        "40",
        "--latency-sigma",
        "0",
    ]);
    let started = std::time::Instant::now();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /search?q=cycling HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let waited = started.elapsed();
    drop((proxy, server));
    let _ = drain.join();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains("server: websim"),
        "the upstream's own answer"
    );
    // Sigma 0: every answer waits the median.
    assert!(waited >= std::time::Duration::from_millis(40), "{waited:?}");
}
