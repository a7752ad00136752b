//! BINGO!'s bounded per-topic queues on the frontier: admitting a URL to
//! its topic's outgoing (dispatchable) or incoming (parked) queue, evicting
//! the worst parked URL for a better one, and promoting parked URLs when
//! an outgoing one leaves. The queues' shape is `topics.rs`.

use super::Frontier;
use crate::discipline::Key;
use crate::index::HANDED_OUT;

impl Frontier {
    /// Queued URLs of topic `t` that are dispatchable and waiting behind
    /// them (with topic caps on).
    pub fn topic_sizes(&self, t: u32) -> (usize, usize) {
        self.topics
            .get(&t)
            .map_or((0, 0), |q| (q.outgoing, q.incoming.len()))
    }

    /// Topic admission: `Some(false)` = dispatchable now, `Some(true)` =
    /// parked in the incoming queue, `None` = refused (queue full of
    /// better URLs). Evicts the incoming queue's worst URL when needed.
    pub(super) fn make_room_in_topic(&mut self, layer: Option<u32>, key: Key) -> Option<bool> {
        let (Some(caps), Some(layer)) = (self.topic_caps, layer) else {
            return Some(false);
        };
        let t = self.topics.entry(layer).or_default();
        if t.outgoing < caps.outgoing {
            return Some(false);
        }
        if t.incoming.len() < caps.incoming {
            return Some(true);
        }
        let &(worst_key, worst) = t.incoming.last()?;
        if (worst_key.a, worst_key.b) <= (key.a, key.b) {
            return None;
        }
        t.incoming.remove(&(worst_key, worst));
        if let Some(s) = self.slots.take(worst) {
            self.ids.remove(&s.id);
            self.queued -= 1;
            self.forget_url(&s.url);
            self.stats.dropped_topic_cap += 1;
        }
        Some(true)
    }

    /// Moves the best parked URLs of topic `l` to dispatch while its
    /// outgoing queue has room (one of its URLs just left it).
    pub(super) fn promote(&mut self, l: u32) {
        let Some(caps) = self.topic_caps else { return };
        if let Some(t) = self.topics.get_mut(&l) {
            t.outgoing = t.outgoing.saturating_sub(1);
        }
        loop {
            let Some(t) = self.topics.get_mut(&l) else {
                return;
            };
            if t.outgoing >= caps.outgoing {
                return;
            }
            let Some((key, slot)) = t.incoming.pop_first() else {
                return;
            };
            let Some(s) = self.slots.get_mut(slot) else {
                continue;
            };
            s.parked = false;
            let host = s.host;
            if self.hosts.get(host as usize).is_some_and(|q| q.bad) {
                if let Some(s) = self.slots.take(slot) {
                    self.ids.insert(s.id, HANDED_OUT);
                    self.queued -= 1;
                    self.stats.dropped_bad_host += 1;
                    self.forget_url(&s.url);
                }
                continue;
            }
            t.outgoing += 1;
            self.file_in_host(host, key, slot);
        }
    }
}
