//! Watching a crawl from outside its process, for the xtask measurements
//! (`scale`, `bench`, `defaults`): samples of pages fetched, relevant
//! pages, resident memory and CPU time read from `pages.jsonl` and Linux
//! `/proc/<pid>/`, and the crawl's `summary.json`.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use focus_core::Summary;

/// One reading of the running crawl.
#[derive(Clone, Copy)]
pub(crate) struct Sample {
    pub(crate) secs: f64,
    pub(crate) pages: u64,
    /// Of `pages`, those the websim's truth marks relevant.
    pub(crate) relevant: u64,
    pub(crate) rss_mb: f64,
    pub(crate) hwm_mb: f64,
    /// CPU seconds the crawl has used so far (user and system, all its
    /// threads).
    pub(crate) cpu_s: f64,
}

/// Counts `pages.jsonl` lines as the crawl appends them, and those the
/// truth marks relevant, reading only whole lines it has not read.
struct PageCounter {
    path: PathBuf,
    offset: u64,
    lines: u64,
    relevant: u64,
}

/// Whether a `pages.jsonl` line is one the truth marks relevant
/// (`PageLine` is written by serde in field order, without spaces, so the
/// field reads the same on every line; cheaper than parsing the line).
fn is_relevant(line: &[u8]) -> bool {
    const RELEVANT: &[u8] = b"\"relevant_true\":true";
    line.windows(RELEVANT.len()).any(|w| w == RELEVANT)
}

impl PageCounter {
    fn new(out: &Path) -> Self {
        PageCounter {
            path: out.join("pages.jsonl"),
            offset: 0,
            lines: 0,
            relevant: 0,
        }
    }

    /// Lines and relevant lines so far.
    fn count(&mut self) -> (u64, u64) {
        if let Ok(mut f) = File::open(&self.path) {
            let len = f.metadata().map_or(0, |m| m.len());
            if len < self.offset {
                // Rewritten (a resumed crawl writes its stored pages first).
                self.offset = 0;
                self.lines = 0;
                self.relevant = 0;
            }
            if f.seek(SeekFrom::Start(self.offset)).is_ok() {
                let mut buf = Vec::new();
                if f.read_to_end(&mut buf).is_ok() {
                    // A line being written is read next time, whole.
                    let whole = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                    for line in buf[..whole].split(|&b| b == b'\n') {
                        if line.is_empty() {
                            continue;
                        }
                        self.lines += 1;
                        if is_relevant(line) {
                            self.relevant += 1;
                        }
                    }
                    self.offset += whole as u64;
                }
            }
        }
        (self.lines, self.relevant)
    }
}

fn status_mb(pid: u32, key: &str) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// CPU seconds (user and system, every thread) in a `/proc/PID/stat`
/// line, whose times are in clock ticks of `ticks_per_s`.
fn stat_cpu_s(stat: &str, ticks_per_s: f64) -> Option<f64> {
    // The fields after the command name, which may hold spaces and ends at
    // the last ')': state is field 3, utime 14 and stime 15.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let utime: f64 = fields.next()?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some((utime + stime) / ticks_per_s)
}

/// Clock ticks per second of `/proc` times (`getconf CLK_TCK`; Linux's
/// 100 if that cannot be run).
fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// How often a watched crawl's `pages.jsonl` is read between samples, so
/// a sample is taken as soon as the crawl reaches its last page or the
/// page to kill it at, not up to `every` later (or never: a crawl can
/// close and exit within one `every` of its last page).
const TICK: Duration = Duration::from_millis(50);

/// Runs the crawl, sampling it every `every` and when it has fetched
/// `end_at` pages (its last, if given), until it ends or has fetched
/// `kill_at` pages (sampled, then SIGKILL). Returns the samples and
/// whether it was killed.
pub(crate) fn watch(
    mut child: Child,
    out: &Path,
    (kill_at, end_at): (Option<u64>, Option<u64>),
    every: Duration,
) -> Result<(Vec<Sample>, bool)> {
    let started = Instant::now();
    let pid = child.id();
    let ticks_per_s = clock_ticks();
    let mut lines = PageCounter::new(out);
    let mut samples = Vec::new();
    let mut next = started + every;
    let mut end_sampled = false;
    loop {
        std::thread::sleep(TICK.min(every));
        let (pages, relevant) = lines.count();
        let kill = kill_at.is_some_and(|k| pages >= k);
        let at_end = !end_sampled && end_at.is_some_and(|e| pages >= e);
        let now = Instant::now();
        if now >= next || kill || at_end {
            while next <= now {
                next += every;
            }
            end_sampled |= at_end;
            let cpu_s = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| stat_cpu_s(&stat, ticks_per_s));
            if let (Some(rss_mb), Some(hwm_mb), Some(cpu_s)) =
                (status_mb(pid, "VmRSS:"), status_mb(pid, "VmHWM:"), cpu_s)
            {
                samples.push(Sample {
                    secs: started.elapsed().as_secs_f64(),
                    pages,
                    relevant,
                    rss_mb,
                    hwm_mb,
                    cpu_s,
                });
            }
        }
        if kill {
            child.kill().context("SIGKILL")?;
            child.wait()?;
            return Ok((samples, true));
        }
        if let Some(status) = child.try_wait()? {
            if !status.success() {
                bail!("focus-soft failed ({status}); see {}", out.display());
            }
            return Ok((samples, false));
        }
    }
}

/// Start `cmd` with its standard output and error going to `log`.
pub(crate) fn spawn(cmd: &mut Command, log: &Path) -> Result<Child> {
    let file = File::create(log).with_context(|| log.display().to_string())?;
    cmd.stdout(Stdio::from(file.try_clone()?))
        .stderr(Stdio::from(file))
        .spawn()
        .with_context(|| format!("starting {}", cmd.get_program().display()))
}

/// The `summary.json` a crawl wrote to `out`.
pub(crate) fn summary(out: &Path) -> Result<Summary> {
    let text = std::fs::read_to_string(out.join("summary.json"))?;
    Ok(serde_json::from_str(&text)?)
}

/// The lines of the `pages.jsonl` a crawl wrote to `out`, parsed.
pub(crate) fn page_lines(out: &Path) -> Result<Vec<focus_core::PageLine>> {
    let text = std::fs::read_to_string(out.join("pages.jsonl")).context("pages.jsonl")?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(focus_core::PageLine::parse)
        .collect::<Result<_, _>>()
        .context("pages.jsonl")
}

/// Relevant pages among the first `every`, `2 * every`, ... lines of a
/// crawl's `pages.jsonl`.
pub(crate) fn relevant_every(out: &Path, every: u64) -> Result<Vec<u64>> {
    let path = out.join("pages.jsonl");
    let text = std::fs::read(&path).with_context(|| path.display().to_string())?;
    let mut found = Vec::new();
    let mut relevant = 0;
    for (i, line) in text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        if is_relevant(line) {
            relevant += 1;
        }
        if (i as u64 + 1).is_multiple_of(every.max(1)) {
            found.push(relevant);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_read_after_the_command_name() {
        // A command name holding ") " must not shift the fields.
        let stat = "4242 (focus) soft) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 9 0";
        assert_eq!(stat_cpu_s(stat, 100.0), Some(3.0));
        assert_eq!(stat_cpu_s("4242 (focus) S 1", 100.0), None);
    }

    const HIT: &str = r#"{"attempt":1,"relevant_true":true,"url":"http://a/"}"#;
    const MISS: &str = r#"{"attempt":1,"relevant_true":false,"url":"http://b/"}"#;

    /// A stand-in crawl: a shell writing `lines` page lines to `out`'s
    /// `pages.jsonl`, `pause` apart, then staying alive for `linger`.
    fn fake_crawl(out: &Path, lines: u32, pause: &str, linger: &str) -> Child {
        let script = format!(
            "for i in $(seq 1 {lines}); do echo '{HIT}' >> pages.jsonl; sleep {pause}; done; sleep {linger}"
        );
        Command::new("sh")
            .args(["-c", &script])
            .current_dir(out)
            .spawn()
            .unwrap()
    }

    /// A crawl that exits soon after its last page, well within one
    /// `every`, is still sampled at that page.
    #[test]
    fn the_last_page_is_sampled_even_between_two_samples() {
        let dir = tempfile::tempdir().unwrap();
        let child = fake_crawl(dir.path(), 20, "0", "2");
        let every = Duration::from_secs(600);
        let (samples, killed) = watch(child, dir.path(), (None, Some(20)), every).unwrap();
        assert!(!killed);
        let pages: Vec<u64> = samples.iter().map(|s| s.pages).collect();
        assert_eq!(pages, [20], "one sample, at the last page");
        assert_eq!(samples[0].relevant, 20);
    }

    /// The crawl is sampled where it is killed, and killed there, not up
    /// to `every` later.
    #[test]
    fn a_killed_crawl_is_sampled_at_the_kill() {
        let dir = tempfile::tempdir().unwrap();
        let child = fake_crawl(dir.path(), 1000, "0.01", "0");
        let every = Duration::from_secs(600);
        let (samples, killed) = watch(child, dir.path(), (Some(10), Some(1000)), every).unwrap();
        assert!(killed);
        let last = samples.last().expect("a sample at the kill");
        assert!((10..1000).contains(&last.pages), "{}", last.pages);
    }

    #[test]
    fn a_line_being_written_is_counted_once_it_is_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pages.jsonl");
        let mut counter = PageCounter::new(dir.path());
        assert_eq!(counter.count(), (0, 0), "no file yet");
        // The second line is cut inside its relevant_true field.
        std::fs::write(&path, format!("{MISS}\n{}", &HIT[..20])).unwrap();
        assert_eq!(counter.count(), (1, 0));
        std::fs::write(&path, format!("{MISS}\n{HIT}\n{HIT}\n")).unwrap();
        assert_eq!(counter.count(), (3, 2));
        // A resumed crawl rewrites the file shorter: counting starts over.
        std::fs::write(&path, format!("{HIT}\n")).unwrap();
        assert_eq!(counter.count(), (1, 1));
    }

    #[test]
    fn relevant_pages_are_counted_at_every_round_line() {
        let dir = tempfile::tempdir().unwrap();
        let lines = [HIT, MISS, HIT, HIT, MISS];
        std::fs::write(dir.path().join("pages.jsonl"), lines.join("\n") + "\n").unwrap();
        assert_eq!(relevant_every(dir.path(), 2).unwrap(), vec![1, 3]);
    }
}
