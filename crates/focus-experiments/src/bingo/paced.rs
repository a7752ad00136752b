//! The websim as the bookmarks crawl of the reproduction is served: the
//! same web, page for page, except that a `Retry-After` longer than
//! [`MAX_RETRY_AFTER_S`] is shortened to it. A crawl from a bookmarks
//! file fetches with the real web's settings, which honour a `Retry-After`
//! of up to ten minutes; the websim's unavailable host asks for two, and
//! every further URL of that host waited that long in a first run (six of
//! its seven minutes). Crawls of the websim's own source fetch with the
//! loopback preset, which caps the wait at the same five seconds
//! (`FetchConfig::loopback`), so this keeps the crawls comparable.

use std::sync::Arc;

use focus_core::{Taxonomy, TopicId};
use focus_websim::{PageRef, Response, Site, Web};

/// The longest `Retry-After` served, in seconds (the loopback fetcher's
/// cap).
pub(super) const MAX_RETRY_AFTER_S: u64 = 5;

/// The websim with `Retry-After` capped.
#[derive(Debug)]
pub(super) struct Paced(pub(super) Arc<Web>);

/// `value` as a number of seconds at most [`MAX_RETRY_AFTER_S`] (other
/// forms, such as an HTTP date, unchanged).
fn capped(value: &str) -> String {
    match value.trim().parse::<u64>() {
        Ok(s) if s > MAX_RETRY_AFTER_S => MAX_RETRY_AFTER_S.to_string(),
        _ => value.to_owned(),
    }
}

impl Site for Paced {
    fn render(&self, host: &str, path_and_query: &str) -> Response {
        let mut r = self.0.render(host, path_and_query);
        for (name, value) in &mut r.headers {
            if name.eq_ignore_ascii_case("retry-after") {
                *value = capped(value);
            }
        }
        r
    }
    fn taxonomy(&self) -> &Taxonomy {
        Site::taxonomy(self.0.as_ref())
    }
    fn page_count(&self) -> u32 {
        Site::page_count(self.0.as_ref())
    }
    fn host_count(&self) -> usize {
        Site::host_count(self.0.as_ref())
    }
    fn page_url(&self, pid: u32) -> Option<String> {
        Site::page_url(self.0.as_ref(), pid)
    }
    fn page_html(&self, pid: u32) -> Option<String> {
        Site::page_html(self.0.as_ref(), pid)
    }
    fn search_host(&self) -> &str {
        Site::search_host(self.0.as_ref())
    }
    fn backlinks(&self, url: &str, max: usize) -> Vec<String> {
        Site::backlinks(self.0.as_ref(), url, max)
    }
    fn search(&self, query: &str, max: usize) -> Vec<String> {
        Site::search(self.0.as_ref(), query, max)
    }
    fn seed_urls(&self, topic: TopicId, n: usize) -> Vec<String> {
        Site::seed_urls(self.0.as_ref(), topic, n)
    }
    fn sample(&self, topic: TopicId, n: usize) -> Vec<PageRef> {
        Site::sample(self.0.as_ref(), topic, n)
    }
    fn topic_query(&self, topic: TopicId) -> String {
        Site::topic_query(self.0.as_ref(), topic)
    }
    fn find_topic(&self, name: &str) -> Option<TopicId> {
        Site::find_topic(self.0.as_ref(), name)
    }
    fn truth_topics(&self, url: &str) -> Vec<TopicId> {
        Site::truth_topics(self.0.as_ref(), url)
    }
    fn truth_count(&self, topic: TopicId) -> u64 {
        Site::truth_count(self.0.as_ref(), topic)
    }
    fn dump_truth(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        Site::dump_truth(self.0.as_ref(), out)
    }
    fn truth_relevant(&self, url: &str, good: &[TopicId]) -> Option<bool> {
        Site::truth_relevant(self.0.as_ref(), url, good)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_waits_are_capped_and_other_values_kept() {
        assert_eq!(capped("120"), "5");
        assert_eq!(capped(" 1"), " 1");
        assert_eq!(
            capped("Wed, 21 Oct 2015 07:28:00 GMT"),
            "Wed, 21 Oct 2015 07:28:00 GMT"
        );
    }
}
