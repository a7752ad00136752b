//! Whole-process measurements for the benchmark report: every command the
//! bench runs goes through a [`Log`], so the report can list them exactly,
//! and a measured command runs under GNU time (`/usr/bin/time`) for its
//! wall time, CPU seconds and peak resident memory.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

/// The commands the bench ran, in order, as a user would type them.
#[derive(Default)]
pub(crate) struct Log {
    pub(crate) commands: Vec<String>,
}

impl Log {
    /// Note `cmd` as run (program and arguments, shell-quoted where needed).
    pub(crate) fn note(&mut self, cmd: &Command) {
        let mut line = shell_word(&cmd.get_program().to_string_lossy());
        for arg in cmd.get_args() {
            line.push(' ');
            line.push_str(&shell_word(&arg.to_string_lossy()));
        }
        self.commands.push(line);
    }

    /// Run `cmd` to the end, its output to `log`; an error if it fails.
    pub(crate) fn run(&mut self, cmd: &mut Command, log: &Path) -> Result<()> {
        self.note(cmd);
        let status = crate::watch::spawn(cmd, log)?.wait()?;
        if !status.success() {
            bail!(
                "{} failed ({status}); see {}",
                cmd.get_program().display(),
                log.display()
            );
        }
        Ok(())
    }

    /// Run `cmd` under GNU time; its standard output is returned, its
    /// standard error goes to `log`.
    pub(crate) fn measure(&mut self, cmd: &Command, log: &Path) -> Result<Measured> {
        self.note(cmd);
        let times = log.with_extension("time");
        let mut timed = Command::new(GNU_TIME);
        timed
            .arg("-f")
            .arg("%e %U %S %M")
            .arg("-o")
            .arg(&times)
            .arg(cmd.get_program())
            .args(cmd.get_args());
        if let Some(dir) = cmd.get_current_dir() {
            timed.current_dir(dir);
        }
        let err = std::fs::File::create(log).with_context(|| log.display().to_string())?;
        let out = timed
            .stderr(Stdio::from(err))
            .output()
            .with_context(|| format!("starting {GNU_TIME} {}", cmd.get_program().display()))?;
        if !out.status.success() {
            bail!(
                "{} failed ({}); see {}",
                cmd.get_program().display(),
                out.status,
                log.display()
            );
        }
        let text = std::fs::read_to_string(&times)?;
        let mut m = Measured::parse(text.lines().last().unwrap_or_default())
            .with_context(|| format!("reading {}", times.display()))?;
        m.stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        Ok(m)
    }
}

/// `cargo ARGS` run in `root`.
pub(crate) fn cargo(root: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(crate::cargo_program());
    cmd.current_dir(root).args(args);
    cmd
}

/// `cargo run --release -q -p PACKAGE --example EXAMPLE -- ARGS` in `root`.
pub(crate) fn example(root: &Path, package: &str, example: &str, args: &[&str]) -> Command {
    let mut cmd = cargo(
        root,
        &[
            "run",
            "--release",
            "-q",
            "-p",
            package,
            "--example",
            example,
            "--",
        ],
    );
    cmd.args(args);
    cmd
}

/// GNU time, from Debian's `time` package.
pub(crate) const GNU_TIME: &str = "/usr/bin/time";

/// One measured run of a command.
#[derive(Debug, Clone, Default)]
pub(crate) struct Measured {
    pub(crate) wall_s: f64,
    pub(crate) cpu_s: f64,
    pub(crate) peak_rss_mb: f64,
    pub(crate) stdout: String,
}

impl Measured {
    /// GNU time's `%e %U %S %M` line.
    fn parse(line: &str) -> Result<Self> {
        let v: Vec<f64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .with_context(|| format!("not a GNU time line: {line:?}"))?;
        let [wall_s, user, sys, rss_kb] = v[..] else {
            bail!("not a GNU time line: {line:?}");
        };
        Ok(Measured {
            wall_s,
            cpu_s: user + sys,
            peak_rss_mb: rss_kb / 1024.0,
            stdout: String::new(),
        })
    }
}

/// `word`, quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,@%+".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Minimum, median and maximum of `values` (not empty).
pub(crate) fn spread(values: &[f64]) -> (f64, f64, f64) {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let median = if v.len() % 2 == 1 {
        v[v.len() / 2]
    } else {
        f64::midpoint(v[v.len() / 2 - 1], v[v.len() / 2])
    };
    (v[0], median, v[v.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_time_line() {
        let m = Measured::parse("12.50 20.25 1.75 204800").unwrap();
        assert_eq!(m.wall_s, 12.5);
        assert_eq!(m.cpu_s, 22.0);
        assert_eq!(m.peak_rss_mb, 200.0);
        assert!(Measured::parse("Command exited with non-zero status 1").is_err());
        assert!(Measured::parse("1 2 3").is_err());
    }

    #[test]
    fn commands_are_logged_as_typed() {
        let mut log = Log::default();
        let mut cmd = Command::new("focus-soft");
        cmd.args(["--out", "a b", "--seed", "1"]);
        log.note(&cmd);
        assert_eq!(log.commands, ["focus-soft --out 'a b' --seed 1"]);
    }

    #[test]
    fn spread_of_odd_and_even_counts() {
        assert_eq!(spread(&[3.0, 1.0, 2.0]), (1.0, 2.0, 3.0));
        assert_eq!(spread(&[4.0, 1.0, 2.0, 3.0]), (1.0, 2.5, 4.0));
    }
}
