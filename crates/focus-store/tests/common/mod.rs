//! What the memory tests read of their own process.

/// A field of `/proc/self/status` given in KB (`VmHWM`, `RssAnon`, ...).
pub(crate) fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}
