//! Stopping: Ctrl-C or, on Unix, SIGTERM, or [`request_stop`] from code.
//!
//! A stop is asked of the whole process, not of one crawl: every crawl
//! running finishes its batch and writes its outputs, and no crawl starts
//! after it ([`Running::start`] refuses). A command made of several crawls
//! (BINGO!'s learning and harvesting phases, a sample pass before a crawl,
//! an experiment's hundreds of crawls) therefore stops as a whole instead
//! of going on to its next crawl, and a report is not written from a
//! crawl cut short. A second signal ends the process at once.
//!
//! One listener for the process, on its own thread, started with the
//! first crawl: it hears a signal between two crawls as well as during
//! one, and a process that runs many crawls on many runtimes does not pile
//! listeners up (each would warn again on a signal).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, Once, PoisonError};

use crate::setup::AppError;

/// Whether a stop was asked for in this process; never reset.
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// The stop flags of the crawls running now.
static RUNNING: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());
/// Starts the signal listener once.
static LISTENER: Once = Once::new();

/// The exit status of a process stopped at once by a second signal: 128 +
/// SIGINT's number, as a shell reports a process Ctrl-C ended.
const STOPPED_AT_ONCE: i32 = 130;

/// Asks every crawl of this process to stop, as Ctrl-C does: the running
/// ones finish their batch and write their outputs
/// (`stopped_because: "interrupted"`), and later ones refuse to start
/// with [`AppError::Stopped`]. Returns whether this was the first request.
pub fn request_stop() -> bool {
    let first = !REQUESTED.swap(true, Ordering::SeqCst);
    for flag in RUNNING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        flag.store(true, Ordering::SeqCst);
    }
    first
}

/// Whether a stop was asked for ([`request_stop`], or a signal).
pub fn stop_requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// A crawl registered as running: a stop request sets its stop flag until
/// it is dropped.
pub(crate) struct Running {
    flag: Arc<AtomicBool>,
}

impl Running {
    /// Registers the crawl into `out` that stops when `flag` is set; fails
    /// if a stop was asked for already.
    pub(crate) fn start(flag: &Arc<AtomicBool>, out: &Path) -> Result<Self, AppError> {
        listen_for_signals();
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        // Checked under the lock: a request after this sees the flag.
        if stop_requested() {
            return Err(AppError::Stopped(format!(
                "the crawl into {} was not started (resume it with --resume)",
                out.display()
            )));
        }
        running.push(flag.clone());
        Ok(Self { flag: flag.clone() })
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|f| !Arc::ptr_eq(f, &self.flag));
    }
}

/// Starts the process's signal listener if it is not running, and returns
/// once it listens, so a signal right after a crawl starts is not lost
/// (nor, before the handler is in place, kills the process). Without a
/// thread or a runtime for it the crawl goes on, stoppable only by a kill.
fn listen_for_signals() {
    LISTENER.call_once(|| {
        let (listening, ready) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("focus-stop-signals".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build();
                match runtime {
                    Ok(runtime) => runtime.block_on(async {
                        let signals = StopSignals::new();
                        let _ = listening.send(());
                        listen(signals).await;
                    }),
                    Err(e) => tracing::warn!("cannot listen for Ctrl-C or SIGTERM: {e}"),
                }
            });
        match spawned {
            // Err: the thread ended without listening (warned above).
            Ok(_) => {
                let _ = ready.recv();
            }
            Err(e) => tracing::warn!("cannot listen for Ctrl-C or SIGTERM: {e}"),
        }
    });
}

/// Answers the signals: the first asks for a stop, the next ends the
/// process. A stop asked for from code ([`request_stop`]) leaves the next
/// signal the second.
async fn listen(mut signals: StopSignals) {
    while let Some(signal) = signals.next().await {
        if request_stop() {
            tracing::warn!("{signal}: finishing the current batch, then writing outputs; no further crawl starts (resume with --resume); a second signal stops at once");
        } else {
            // What a kill costs: the store keeps every batch it committed
            // and resume rewrites pages.jsonl from it (docs/crawl.md).
            tracing::warn!("{signal} again: stopping now, without finishing the batch or writing outputs; the store keeps every batch it committed (resume with --resume)");
            std::process::exit(STOPPED_AT_ONCE);
        }
    }
}

/// The signals that ask a crawl to stop: Ctrl-C (SIGINT) and, on Unix,
/// SIGTERM, which `kill`, `timeout` and service managers send.
struct StopSignals {
    #[cfg(unix)]
    unix: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl StopSignals {
    fn new() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let unix = signal(SignalKind::interrupt())
                .and_then(|interrupt| Ok((interrupt, signal(SignalKind::terminate())?)))
                .ok();
            Self { unix }
        }
        #[cfg(not(unix))]
        {
            Self {}
        }
    }

    /// The next signal's name; `None` if none can be listened for.
    async fn next(&mut self) -> Option<&'static str> {
        #[cfg(unix)]
        {
            if let Some((interrupt, terminate)) = &mut self.unix {
                return tokio::select! {
                    Some(()) = interrupt.recv() => Some("interrupted (Ctrl-C)"),
                    Some(()) = terminate.recv() => Some("terminated (SIGTERM)"),
                    else => None,
                };
            }
        }
        tokio::signal::ctrl_c()
            .await
            .ok()
            .map(|()| "interrupted (Ctrl-C)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered(flag: &Arc<AtomicBool>) -> bool {
        RUNNING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .any(|f| Arc::ptr_eq(f, flag))
    }

    // No test here asks for a stop: the request is for the whole process
    // and never reset (tests/stop_request.rs asks, in its own process).
    #[test]
    fn a_crawl_is_registered_while_it_runs_and_only_then() {
        let (a, b) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        let running_a = Running::start(&a, Path::new("a")).unwrap();
        let running_b = Running::start(&b, Path::new("b")).unwrap();
        assert!(registered(&a) && registered(&b));
        drop(running_a);
        assert!(!registered(&a), "a finished crawl is no longer stopped");
        assert!(registered(&b), "dropping one crawl leaves the other");
        drop(running_b);
        assert!(!registered(&b));
        assert!(!a.load(Ordering::SeqCst) && !b.load(Ordering::SeqCst));
        assert!(LISTENER.is_completed(), "the signal listener runs");
    }
}
