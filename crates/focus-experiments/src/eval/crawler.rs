//! What the evaluation names: its seed protocols ([`Protocol`]) and its
//! crawlers ([`Crawler`]), with the names reports and flags give them.
//! How each is run lives in `crawls.rs`, how each is scored in
//! `scoring.rs`; this file depends on neither.

/// A seed protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// The corpus's most linked-to pages.
    Hub,
    /// Held-out pages of the category.
    Topic,
}

impl Protocol {
    /// Its name in reports and folders.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Hub => "hub seeds",
            Protocol::Topic => "topic seeds",
        }
    }

    pub(super) fn slug(self) -> &'static str {
        match self {
            Protocol::Hub => "hub",
            Protocol::Topic => "topic",
        }
    }
}

/// A crawler of the evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Crawler {
    /// `focus-soft` with its defaults.
    Soft,
    /// `focus-soft --concurrency 1`: the default crawl deciding after
    /// every fetch instead of every batch of 32 (the reference crawler
    /// fetches one page at a time too). Run only when named (`--crawlers
    /// soft-sequential`): on a one-host corpus such as Wikispeedia a batch
    /// holds at most two URLs of the host anyway, and the crawl is the
    /// same.
    SoftSequential,
    /// `focus-soft --relevance exact --child-priority learnt`: the default
    /// before tempered relevance and the link model.
    SoftPrevious,
    /// `focus-hard`.
    Hard,
    /// `focus-soft --baseline bfs`.
    BreadthFirst,
    /// `focus-soft --baseline random`.
    Random,
    /// `context-graph`: Diligenti's context-focused crawler, its targets
    /// [`CONTEXT_TARGETS`](super::crawls::CONTEXT_TARGETS) training pages of the category.
    Context,
    /// `context-graph --standard`: the paper's "standard focused crawler"
    /// (best first on the same classifier's target likelihood).
    ContextStandard,
    /// `bingo`: BINGO!'s learning phase on a fifth of the budget
    /// ([`BINGO_LEARNING_SHARE`](super::crawls::BINGO_LEARNING_SHARE)), then its harvesting phase, with its
    /// default child priority (the apprentice: the link model and host
    /// health join the harvest, the SVMs give the pages they reject a
    /// Platt-calibrated relevance below ½).
    Bingo,
    /// `bingo --child-priority paper`: BINGO! as the paper gives it.
    BingoPaper,
    /// `xtask/reference/crawl_sklearn.py` (optional).
    Reference,
    /// Not a crawler: a bound. The corpus's link graph walked by a crawler
    /// that knows every discovered URL's label before fetching it
    /// ([`oracle_order`](super::crawls::oracle_order)).
    Oracle,
    /// Not a crawler either: the same walk by a crawler that knows every
    /// discovered URL's label but not which of the category's pages the
    /// split holds out as training pages (the crawlers get the examples'
    /// text, not their URLs), so it takes the category's pages in the
    /// order it finds them and spends on training pages the share of its
    /// fetches they hold. What a perfect classifier could expect to find
    /// without knowing the split; the oracle's lead over it is what
    /// knowing the split is worth.
    OracleBlind,
}

impl Crawler {
    /// Every crawler, in report order.
    pub const ALL: [Crawler; 13] = [
        Crawler::Soft,
        Crawler::SoftSequential,
        Crawler::SoftPrevious,
        Crawler::Hard,
        Crawler::Context,
        Crawler::ContextStandard,
        Crawler::Bingo,
        Crawler::BingoPaper,
        Crawler::BreadthFirst,
        Crawler::Random,
        Crawler::Reference,
        Crawler::Oracle,
        Crawler::OracleBlind,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Crawler::Soft => "soft",
            Crawler::SoftSequential => "soft, one fetch at a time",
            Crawler::SoftPrevious => "soft, previous default",
            Crawler::Hard => "hard",
            Crawler::Context => "context graph",
            Crawler::ContextStandard => "standard focused (context classifier)",
            Crawler::Bingo => "bingo",
            Crawler::BingoPaper => "bingo, paper's priority",
            Crawler::BreadthFirst => "breadth-first",
            Crawler::Random => "random",
            Crawler::Reference => "sklearn reference",
            Crawler::Oracle => "oracle (bound)",
            Crawler::OracleBlind => "oracle blind to the split",
        }
    }

    /// Its short name in flags and folders.
    pub fn slug(self) -> &'static str {
        match self {
            Crawler::Soft => "soft",
            Crawler::SoftSequential => "soft-sequential",
            Crawler::SoftPrevious => "soft-previous",
            Crawler::Hard => "hard",
            Crawler::Context => "context",
            Crawler::ContextStandard => "context-standard",
            Crawler::Bingo => "bingo",
            Crawler::BingoPaper => "bingo-paper",
            Crawler::BreadthFirst => "bfs",
            Crawler::Random => "random",
            Crawler::Reference => "reference",
            Crawler::Oracle => "oracle",
            Crawler::OracleBlind => "oracle-blind",
        }
    }

    /// Whether it is a walk of the labelled link graph, not a crawl (it
    /// makes no fetch attempts).
    pub fn is_oracle(self) -> bool {
        matches!(self, Crawler::Oracle | Crawler::OracleBlind)
    }

    /// The crawlers an evaluation runs when none are named: every one but
    /// [`Crawler::SoftSequential`].
    pub fn default_set() -> Vec<Crawler> {
        Self::ALL
            .into_iter()
            .filter(|&c| c != Crawler::SoftSequential)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequential_soft_crawl_runs_only_when_named() {
        let all = Crawler::default_set();
        assert_eq!(all.len(), Crawler::ALL.len() - 1);
        assert!(!all.contains(&Crawler::SoftSequential));
        assert!(all.contains(&Crawler::BingoPaper) && all.contains(&Crawler::Bingo));
        assert!(all.contains(&Crawler::Soft) && all.contains(&Crawler::Oracle));
        let slugs: std::collections::HashSet<&str> =
            Crawler::ALL.iter().map(|c| c.slug()).collect();
        assert_eq!(
            slugs.len(),
            Crawler::ALL.len(),
            "slugs name one crawler each"
        );
    }
}
