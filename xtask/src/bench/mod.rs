//! `cargo xtask bench --release`: every benchmark, built with `--release`.
//!
//! Without `--peers` it runs the crates' component benchmarks (criterion
//! benches with a short window unless `--full`, the frontier, the
//! classifiers' accuracy) and prints them. With `--peers` it writes
//! `docs/bench/<date>.md`: the machine and versions, our crawler against
//! the `spider` crate and the server's ceiling on the same static site
//! ([`peers`]), and on that site with every answer delayed as across the
//! internet (`--latency MS`, default 100; 0 skips it; [`latency`]), the crawl at 10^4, 10^5 and 10^6 pages ([`growth`]), the
//! cost of focus ([`focus_cost`]), the component table ([`components`]),
//! and every command it ran, so anyone can regenerate the same table.
//!
//! The flag `--release` is required: a benchmark of a debug build measures
//! nothing a user runs, and the flag makes that a decision on the command
//! line rather than a default.

mod components;
mod focus_cost;
mod growth;
mod latency;
mod nginx;
mod peer_crawl;
mod peers;
pub(crate) mod process;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use process::Log;

/// The flags of `cargo xtask bench`, typed.
struct BenchArgs {
    release: bool,
    full: bool,
    peers: bool,
    site_pages: u32,
    scale_pages: u64,
    focus_pages: u64,
    concurrency: usize,
    runs: usize,
    latency_ms: u64,
}

impl BenchArgs {
    fn parse(args: &[String]) -> Result<Self> {
        let mut b = BenchArgs {
            release: false,
            full: false,
            peers: false,
            site_pages: 10_000,
            scale_pages: 1_000_000,
            focus_pages: 20_000,
            concurrency: 32,
            runs: 3,
            latency_ms: 100,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = || -> Result<u64> {
                it.next()
                    .with_context(|| format!("{flag} needs a value"))?
                    .parse::<u64>()
                    .with_context(|| format!("{flag} needs a number"))
            };
            match flag.as_str() {
                "--release" => b.release = true,
                "--full" => b.full = true,
                "--peers" => b.peers = true,
                "--site-pages" => b.site_pages = u32::try_from(value()?)?,
                "--scale-pages" => b.scale_pages = value()?,
                "--focus-pages" => b.focus_pages = value()?,
                "--concurrency" => b.concurrency = usize::try_from(value()?)?,
                "--runs" => b.runs = usize::try_from(value()?)?.max(1),
                "--latency" => b.latency_ms = value()?,
                other => bail!("unknown flag {other}"),
            }
        }
        if !b.release {
            bail!(
                "cargo xtask bench measures optimised builds only: run `cargo xtask bench \
                 --release` (every binary it runs is then built with `cargo build --release`)"
            );
        }
        if b.scale_pages < 10_000 {
            bail!("--scale-pages must be at least 10000 (the first checkpoint)");
        }
        Ok(b)
    }
}

pub(crate) fn run(root: &Path, args: &[String]) -> Result<()> {
    let b = BenchArgs::parse(args)?;
    let mut log = Log::default();
    // Before the build, so the commit named is the one whose code ran.
    let machine = machine(root);
    if !b.peers {
        let table = components::run(root, b.full, false, &mut log)?;
        println!("\n{table}");
        return Ok(());
    }
    let mut build = process::cargo(
        root,
        &["build", "--release", "-p", "focus-soft", "-p", "websim"],
    );
    std::fs::create_dir_all(root.join("target/bench"))?;
    log.run(&mut build, &root.join("target/bench/build.log"))?;

    let settings = peers::PeerSettings {
        site_pages: b.site_pages,
        concurrency: b.concurrency,
        runs: b.runs,
        latency_ms: b.latency_ms,
    };
    let peers = peers::run(root, &settings, &mut log)?;
    let cost = focus_cost::run(root, b.focus_pages, b.runs, &mut log)?;
    let growth = growth::run(root, b.scale_pages, &mut log)?;
    let components = components::run(root, b.full, true, &mut log)?;

    let date = today();
    let mut o = String::new();
    writeln!(o, "# Benchmarks of {date}\n")?;
    writeln!(
        o,
        "Written by `cargo xtask bench {}`; every number below comes from this run on \
         this machine.\n",
        args.join(" ")
    )?;
    writeln!(o, "## Machine and versions\n")?;
    o.push_str(&machine);
    writeln!(o, "\n## Against a generic Rust crawler (`spider`)\n")?;
    o.push_str(&peers);
    writeln!(o, "\n## The cost of focus\n")?;
    o.push_str(&cost);
    writeln!(o, "\n## The crawl at scale\n")?;
    o.push_str(&growth);
    writeln!(o, "\n## Component benchmarks\n")?;
    o.push_str(&components);
    writeln!(
        o,
        "\n## Commands\n\nRun from the repository root, in this order \
         (`target/` paths are the build's; the port is a free one chosen by the run):\n\n```"
    )?;
    let root_str = format!("{}/", root.display());
    for c in &log.commands {
        writeln!(
            o,
            "{}",
            c.replace(&root_str, "")
                .replacen(&crate::cargo_program(), "cargo", 1)
        )?;
    }
    writeln!(o, "```")?;
    let dir = root.join("docs/bench");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{date}.md"));
    std::fs::write(&path, o)?;
    println!("wrote {}", path.display());
    Ok(())
}

/// The machine and the versions of everything measured.
fn machine(root: &Path) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map_or("?", |v| v.trim_start_matches([' ', '\t', ':']))
        .to_owned();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_gb = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0 / 1024.0);
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let version = |cmd: &str, args: &[&str]| -> String {
        Command::new(cmd)
            .args(args)
            .current_dir(root)
            .output()
            .map_or_else(
                |_| "not found".into(),
                |o| {
                    let text = [o.stdout, o.stderr].concat();
                    String::from_utf8_lossy(&text)
                        .lines()
                        .next()
                        .unwrap_or("?")
                        .trim()
                        .to_owned()
                },
            )
    };
    let nginx = peers::which("nginx").map_or("not found".into(), |p| {
        version(&p.display().to_string(), &["-v"])
    });
    let spider = std::fs::read_to_string(root.join("bench/spider/Cargo.lock"))
        .ok()
        .and_then(|lock| {
            let at = lock.find("name = \"spider\"\nversion = \"")?;
            let rest = &lock[at + "name = \"spider\"\nversion = \"".len()..];
            Some(rest[..rest.find('"')?].to_owned())
        })
        .unwrap_or_else(|| "? (bench/spider/Cargo.lock not written yet)".into());
    format!(
        "- CPU: {model}, {cpus} logical CPUs; memory {mem_gb:.1} GB; Linux {}\n\
         - {}\n- nginx: {nginx}\n- wrk: {}\n- spider {spider}\n- focus at commit {}\n",
        kernel.trim(),
        version("rustc", &["-V"]),
        version("wrk", &["-v"]),
        crate::commit(root),
    )
}

/// Today's date (UTC), `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(secs / 86_400)
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_783), "2026-11-26");
    }

    #[test]
    fn refuses_without_release() {
        let args = |a: &[&str]| a.iter().map(ToString::to_string).collect::<Vec<_>>();
        let err = BenchArgs::parse(&args(&["--peers"])).err().unwrap();
        assert!(err.to_string().contains("--release"), "{err}");
        let ok = BenchArgs::parse(&args(&["--release", "--peers", "--runs", "5"])).unwrap();
        assert!(ok.peers && ok.release);
        assert_eq!(ok.runs, 5);
        assert!(BenchArgs::parse(&args(&["--release", "--scale-pages", "100"])).is_err());
    }
}
