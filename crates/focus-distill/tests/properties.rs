//! Properties of the distiller on seeded synthetic graphs and small cases:
//! plain HITS is recovered when every weight is 1, scores are non-negative
//! and normalised, an irrelevant page linked from every hub is not a top
//! authority under the 1999 weighting, same-host links are ignored, the
//! iteration cap and convergence flag, determinism, the missed-neighbours
//! query and BINGO!'s base set.

use focus_distill::synthetic::{generate, SyntheticConfig};
use focus_distill::{
    base_set, AuthorityFilter, BaseSetConfig, DistillError, Graph, GraphBuilder, Hits, HitsConfig,
    HitsScores, PageId, Weighting,
};

fn run(config: HitsConfig, g: &Graph) -> HitsScores {
    Hits::new(config).unwrap().run(g)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// A synthetic graph rebuilt with every page on its own host and `R = 1`.
fn unit_graph(edges: u64, seed: u64) -> Graph {
    let g = generate(&SyntheticConfig::with_edges(edges, seed))
        .build()
        .unwrap();
    let mut b = GraphBuilder::new();
    for (i, id) in g.page_ids().iter().enumerate() {
        b.add_node(*id, i as u64, 1.0, true);
    }
    for u in 0..g.node_count() as u32 {
        for &v in g.successors(u) {
            b.add_edge(g.page_ids()[u as usize], g.page_ids()[v as usize]);
        }
    }
    b.build().unwrap()
}

#[test]
fn unit_weights_recover_plain_hits() {
    let g = unit_graph(20_000, 1);
    let plain = run(HitsConfig::plain(), &g);
    assert!(plain.converged);
    for config in [
        HitsConfig {
            weighting: Weighting::Relevance1999 {
                authorities: AuthorityFilter::TopFraction(1.0),
            },
            ..HitsConfig::relevance_1999()
        },
        HitsConfig {
            weighting: Weighting::Relevance1999 {
                authorities: AuthorityFilter::All,
            },
            ..HitsConfig::relevance_1999()
        },
        HitsConfig::bharat_henzinger(),
    ] {
        let s = run(config, &g);
        assert!(s.converged);
        assert!(max_diff(&s.hub, &plain.hub) < 1e-12, "{config:?}");
        assert!(
            max_diff(&s.authority, &plain.authority) < 1e-12,
            "{config:?}"
        );
    }
}

#[test]
fn scores_are_non_negative_and_normalised() {
    let g = generate(&SyntheticConfig::with_edges(50_000, 2))
        .build()
        .unwrap();
    for config in [
        HitsConfig::plain(),
        HitsConfig::relevance_1999(),
        HitsConfig::bharat_henzinger(),
    ] {
        let s = run(config, &g);
        assert!(s.converged, "{config:?} after {}", s.iterations);
        for v in [&s.hub, &s.authority] {
            assert!(v.iter().all(|&x| x >= 0.0 && x.is_finite()));
            assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}

#[test]
fn irrelevant_page_linked_from_every_hub_is_not_a_top_authority() {
    let base = generate(&SyntheticConfig::with_edges(30_000, 3))
        .build()
        .unwrap();
    let spam = PageId(u64::MAX);
    let mut b = GraphBuilder::new();
    for (i, id) in base.page_ids().iter().enumerate() {
        b.add_node(*id, base.hosts()[i], f64::from(base.relevances()[i]), true);
    }
    b.add_node(spam, u64::MAX, 0.0, true);
    for u in 0..base.node_count() as u32 {
        let from = base.page_ids()[u as usize];
        for &v in base.successors(u) {
            b.add_edge(from, base.page_ids()[v as usize]);
        }
        if !base.successors(u).is_empty() {
            b.add_edge(from, spam);
        }
    }
    let g = b.build().unwrap();
    let plain = run(HitsConfig::plain(), &g);
    assert_eq!(plain.top_authorities(1)[0].0, spam, "plain HITS crowns it");
    for filter in [
        AuthorityFilter::TopFraction(0.15),
        AuthorityFilter::Above(0.5),
    ] {
        let s = run(
            HitsConfig {
                weighting: Weighting::Relevance1999 {
                    authorities: filter,
                },
                ..HitsConfig::relevance_1999()
            },
            &g,
        );
        assert_eq!(s.authority_of(spam), Some(0.0), "{filter:?}");
        assert!(s.top_authorities(100).iter().all(|(p, _)| *p != spam));
    }
}

#[test]
fn same_host_links_are_ignored() {
    // Pages 1, 2 on host 7; 3 on host 8; 4 on host 9.
    let nodes = [(1, 7), (2, 7), (3, 8), (4, 9)];
    let build = |edges: &[(u64, u64)]| {
        let mut b = GraphBuilder::new();
        for (id, host) in nodes {
            b.add_node(PageId(id), host, 0.9, true);
        }
        for &(u, v) in edges {
            b.add_edge(PageId(u), PageId(v));
        }
        b.build().unwrap()
    };
    let with = build(&[(1, 2), (2, 1), (1, 3), (4, 3), (4, 2)]);
    let without = build(&[(1, 3), (4, 3), (4, 2)]);
    for config in [HitsConfig::relevance_1999(), HitsConfig::bharat_henzinger()] {
        let config = HitsConfig {
            weighting: match config.weighting {
                Weighting::Relevance1999 { .. } => Weighting::Relevance1999 {
                    authorities: AuthorityFilter::All,
                },
                w => w,
            },
            ..config
        };
        let a = run(config, &with);
        let b = run(config, &without);
        assert_eq!(a.hub, b.hub, "{config:?}");
        assert_eq!(a.authority, b.authority, "{config:?}");
    }
    // Plain HITS (all links) does see them.
    assert_ne!(
        run(HitsConfig::plain(), &with).authority,
        run(HitsConfig::plain(), &without).authority
    );
}

#[test]
fn iteration_cap_and_convergence_flag() {
    let g = generate(&SyntheticConfig::with_edges(10_000, 4))
        .build()
        .unwrap();
    let capped = run(
        HitsConfig {
            max_iter: 1,
            ..HitsConfig::plain()
        },
        &g,
    );
    assert_eq!(capped.iterations, 1);
    assert!(!capped.converged);
    let full = run(HitsConfig::plain(), &g);
    assert!(full.converged);
    assert!(full.iterations > 1 && full.iterations < 200);
    let loose = run(
        HitsConfig {
            tolerance: 1e-2,
            ..HitsConfig::plain()
        },
        &g,
    );
    assert!(loose.converged && loose.iterations < full.iterations);
}

#[test]
fn invalid_configurations_are_rejected() {
    let bad = [
        HitsConfig {
            max_iter: 0,
            ..HitsConfig::plain()
        },
        HitsConfig {
            tolerance: 0.0,
            ..HitsConfig::plain()
        },
        HitsConfig {
            tolerance: f64::NAN,
            ..HitsConfig::plain()
        },
        HitsConfig {
            weighting: Weighting::Relevance1999 {
                authorities: AuthorityFilter::TopFraction(0.0),
            },
            ..HitsConfig::plain()
        },
    ];
    for c in bad {
        assert!(
            matches!(Hits::new(c), Err(DistillError::InvalidConfig(_))),
            "{c:?}"
        );
    }
}

#[test]
fn empty_and_edgeless_graphs_give_zero_scores() {
    let empty = GraphBuilder::new().build().unwrap();
    let s = run(HitsConfig::relevance_1999(), &empty);
    assert!(s.hub.is_empty() && s.converged);
    let mut b = GraphBuilder::new();
    b.add_node(PageId(1), 1, 0.5, true)
        .add_node(PageId(2), 1, 0.5, true);
    b.add_edge(PageId(1), PageId(2));
    // The only link is same-host: nothing survives.
    let s = run(HitsConfig::relevance_1999(), &b.build().unwrap());
    assert_eq!(s.hub, vec![0.0, 0.0]);
    assert_eq!(s.authority, vec![0.0, 0.0]);
    assert!(s.converged);
    assert!(s.top_hubs(3).is_empty());
}

#[test]
fn runs_are_deterministic() {
    let g = generate(&SyntheticConfig::with_edges(100_000, 5))
        .build()
        .unwrap();
    for config in [HitsConfig::relevance_1999(), HitsConfig::bharat_henzinger()] {
        assert_eq!(run(config, &g), run(config, &g));
    }
}

#[test]
fn missed_neighbours_of_great_hubs() {
    // Hubs 1 (host 1) and 2 (host 2) cite pages on hosts 3..; page 1 also
    // cites 11 on its own host. Visited: 1, 2, 5. Unvisited: 3, 4, 6, 11.
    let mut b = GraphBuilder::new();
    for (id, host, visited) in [
        (1, 1, true),
        (2, 2, true),
        (3, 3, false),
        (4, 4, false),
        (5, 5, true),
        (6, 6, false),
        (11, 1, false),
    ] {
        b.add_node(PageId(id), host, 1.0, visited);
    }
    for (u, v) in [(1, 3), (1, 4), (1, 5), (1, 11), (2, 3), (2, 6)] {
        b.add_edge(PageId(u), PageId(v));
    }
    let g = b.build().unwrap();
    let s = run(
        HitsConfig {
            weighting: Weighting::Relevance1999 {
                authorities: AuthorityFilter::All,
            },
            ..HitsConfig::relevance_1999()
        },
        &g,
    );
    let h1 = s.hub_of(PageId(1)).unwrap();
    let h2 = s.hub_of(PageId(2)).unwrap();
    assert!(h1 > h2 && h2 > 0.0);
    // 100th percentile: only hub 1; 11 is same-host, 5 is visited.
    assert_eq!(
        s.missed_neighbours(&g, 100.0).unwrap(),
        vec![(PageId(3), h1), (PageId(4), h1)]
    );
    // 0th percentile: both hubs; 3 keeps its best citing hub's score.
    assert_eq!(
        s.missed_neighbours(&g, 0.0).unwrap(),
        vec![(PageId(3), h1), (PageId(4), h1), (PageId(6), h2)]
    );
    let other = GraphBuilder::new().build().unwrap();
    assert!(matches!(
        s.missed_neighbours(&other, 90.0),
        Err(DistillError::GraphMismatch { .. })
    ));
}

#[test]
fn bingo_base_set_then_bharat_henzinger() {
    let g = generate(&SyntheticConfig::with_edges(20_000, 6))
        .build()
        .unwrap();
    let positive: Vec<PageId> = g
        .page_ids()
        .iter()
        .zip(g.relevances())
        .filter(|(_, &r)| r > 0.8)
        .map(|(p, _)| *p)
        .collect();
    let cfg = BaseSetConfig {
        max_predecessors_per_page: 5,
        max_predecessors_total: 200,
        seed: 9,
    };
    let base = base_set(&g, &positive, &cfg);
    assert_eq!(base.positives, positive.len());
    assert!(base.predecessors_added <= 200);
    assert_eq!(
        base.nodes.len(),
        base.positives + base.successors_added + base.predecessors_added
    );
    assert_eq!(base, base_set(&g, &positive, &cfg));
    let sub = g.induced_subgraph(&base.nodes);
    assert_eq!(sub.node_count(), base.nodes.len());
    let s = run(HitsConfig::bharat_henzinger(), &sub);
    assert!(s.converged);
    assert!(!s.top_authorities(10).is_empty());
}

#[test]
fn warm_start_reuses_previous_scores() {
    let cfg = SyntheticConfig::with_edges(40_000, 8);
    let g = generate(&cfg).build().unwrap();
    let hits = Hits::new(HitsConfig::plain()).unwrap();
    let cold = hits.run(&g);
    assert!(cold.converged && cold.iterations > 5);
    // Same graph: converged at once, same scores.
    let again = hits.run_warm(&g, &cold);
    assert!(again.converged);
    assert_eq!(again.iterations, 1);
    assert!(max_diff(&again.hub, &cold.hub) < 1e-8);
    // A grown graph: the warm start reaches the cold start's answer.
    let mut b = generate(&cfg);
    b.add_node(PageId(u64::MAX), 1 << 40, 0.9, false);
    for i in 0..50 {
        b.add_edge(PageId(i), PageId(u64::MAX));
    }
    let grown = b.build().unwrap();
    let warm = hits.run_warm(&grown, &cold);
    let fresh = hits.run(&grown);
    assert!(warm.converged && fresh.converged);
    assert!(max_diff(&warm.authority, &fresh.authority) < 1e-7);
    assert!(warm.authority_of(PageId(u64::MAX)).unwrap() > 0.0);
    assert!(
        warm.iterations < fresh.iterations,
        "warm {} vs cold {} iterations",
        warm.iterations,
        fresh.iterations
    );
}
