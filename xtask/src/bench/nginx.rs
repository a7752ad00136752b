//! The peer comparison's server: nginx (Debian's package) on a free
//! loopback port, serving a directory of static files with one access-log
//! line (the status) per request, and what that log says it served.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::process::Log;

/// Responses in the server's access log, by status.
#[derive(Default, Debug, PartialEq, Eq)]
pub(super) struct Served {
    pub(super) ok: u64,
    pub(super) not_found: u64,
    pub(super) other: u64,
}

impl Served {
    fn parse(log: &str) -> Self {
        let mut s = Served::default();
        for line in log.lines() {
            match line.trim() {
                "200" => s.ok += 1,
                "404" => s.not_found += 1,
                "" => {}
                _ => s.other += 1,
            }
        }
        s
    }
}

/// What a server serves, and from where.
pub(super) struct Site<'a> {
    /// The nginx executable.
    pub(super) exe: &'a Path,
    /// The directory of static files.
    pub(super) root: &'a Path,
    /// The loopback port to listen on.
    pub(super) port: u16,
}

/// nginx on loopback, serving the site, one access log line (the status)
/// per request.
pub(super) struct Nginx {
    child: Child,
    prefix: PathBuf,
    exe: PathBuf,
}

impl Nginx {
    /// Starts nginx with its configuration, logs and temporary files under
    /// `dir/nginx`, and waits until it listens.
    pub(super) fn start(site: &Site<'_>, dir: &Path, log: &mut Log) -> Result<Nginx> {
        let prefix = dir.join("nginx");
        std::fs::create_dir_all(prefix.join("tmp"))?;
        let p = prefix.display();
        let conf = format!(
            "daemon off;\nworker_processes 1;\npid {p}/nginx.pid;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n\
             \x20 log_format status '$status';\n  access_log {p}/access.log status;\n\
             \x20 client_body_temp_path {p}/tmp; proxy_temp_path {p}/tmp; fastcgi_temp_path {p}/tmp;\n\
             \x20 uwsgi_temp_path {p}/tmp; scgi_temp_path {p}/tmp;\n\
             \x20 keepalive_requests 100000;\n\
             \x20 server {{ listen 127.0.0.1:{port}; root {root}; index index.html; }}\n}}\n",
            port = site.port,
            root = site.root.display(),
        );
        std::fs::write(prefix.join("nginx.conf"), conf)?;
        let mut cmd = Command::new(site.exe);
        cmd.args(nginx_args(&prefix));
        log.note(&cmd);
        let child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting nginx")?;
        wait_listening("nginx", site.port, &prefix.join("error.log"))?;
        Ok(Nginx {
            child,
            prefix,
            exe: site.exe.to_path_buf(),
        })
    }

    /// Stop the server and read what it served.
    pub(super) fn stop(mut self) -> Result<Served> {
        let status = Command::new(&self.exe)
            .args(nginx_args(&self.prefix))
            .args(["-s", "stop"])
            .status();
        if !status.is_ok_and(|s| s.success()) {
            self.child.kill()?;
        }
        self.child.wait()?;
        let text = std::fs::read_to_string(self.prefix.join("access.log")).unwrap_or_default();
        Ok(Served::parse(&text))
    }
}

fn nginx_args(prefix: &Path) -> Vec<String> {
    let p = prefix.display();
    vec![
        "-p".into(),
        format!("{p}/"),
        "-c".into(),
        format!("{p}/nginx.conf"),
        "-e".into(),
        format!("{p}/error.log"),
    ]
}

/// Waits up to 10 s until `what` listens on loopback `port`; else an error
/// that points at its `log`.
pub(super) fn wait_listening(what: &str, port: u16, log: &Path) -> Result<()> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let started = Instant::now();
    while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
        if started.elapsed() > Duration::from_secs(10) {
            bail!("{what} did not listen on {addr}; see {}", log.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// A loopback port no one listens on now.
pub(super) fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_log_counts_by_status() {
        let s = Served::parse("200\n200\n404\n301\n\n200\n");
        assert_eq!(
            s,
            Served {
                ok: 3,
                not_found: 1,
                other: 1
            }
        );
    }
}
