//! HITS on 3–5 node graphs whose scores are worked out by hand (the
//! principal eigenvectors of `A^T A` and `A A^T`, L1-normalised), for plain,
//! 1999 relevance-weighted and Bharat–Henzinger HITS.

use focus_distill::{AuthorityFilter, Graph, GraphBuilder, Hits, HitsConfig, PageId, Weighting};

const EPS: f64 = 1e-9;

/// Nodes `(id, host, relevance)`, every node visited.
fn graph(nodes: &[(u64, u64, f64)], edges: &[(u64, u64)]) -> Graph {
    let mut b = GraphBuilder::new();
    for &(id, host, r) in nodes {
        b.add_node(PageId(id), host, r, true);
    }
    for &(u, v) in edges {
        b.add_edge(PageId(u), PageId(v));
    }
    b.build().unwrap()
}

fn assert_close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < EPS, "{what}: got {got}, want {want}");
}

fn distinct_hosts(n: u64) -> Vec<(u64, u64, f64)> {
    (1..=n).map(|i| (i, i, 1.0)).collect()
}

/// 1->3, 2->3, 2->4. Authorities 3, 4: `A^T A = [[2,1],[1,1]]`, largest
/// eigenvalue `phi^2 = (3+sqrt5)/2`, eigenvector `(1, phi-1) = (1, 1/phi)`;
/// L1: `a3 = 1/phi`, `a4 = 1/phi^2`. Hubs `h = A a`: `h1 = a3`, `h2 = a3+a4`,
/// i.e. `(1/phi, 1)`, L1: `h1 = 1/phi^2`, `h2 = 1/phi`.
#[test]
fn plain_hits_golden_ratio_graph() {
    let g = graph(&distinct_hosts(4), &[(1, 3), (2, 3), (2, 4)]);
    let s = Hits::new(HitsConfig::plain()).unwrap().run(&g);
    assert!(s.converged);
    let phi = f64::midpoint(1.0, 5f64.sqrt());
    assert_close(s.authority[2], 1.0 / phi, "a3");
    assert_close(s.authority[3], 1.0 / (phi * phi), "a4");
    assert_close(s.authority[0] + s.authority[1], 0.0, "a1+a2");
    assert_close(s.hub[0], 1.0 / (phi * phi), "h1");
    assert_close(s.hub[1], 1.0 / phi, "h2");
    assert_close(s.hub[2] + s.hub[3], 0.0, "h3+h4");
    assert_eq!(s.top_hubs(1), vec![(PageId(2), s.hub[1])]);
    assert_eq!(s.top_authorities(5).len(), 2);
}

/// A star 1 -> 2, 3, 4: each leaf has authority 1/3, the centre hub 1.
#[test]
fn plain_hits_star() {
    let g = graph(&distinct_hosts(4), &[(1, 2), (1, 3), (1, 4)]);
    let s = Hits::new(HitsConfig::plain()).unwrap().run(&g);
    assert_eq!(s.hub, vec![1.0, 0.0, 0.0, 0.0]);
    for a in &s.authority[1..] {
        assert_close(*a, 1.0 / 3.0, "leaf");
    }
    // Exact after one iteration; the second confirms convergence.
    assert_eq!(s.iterations, 2);
}

/// Hubs H1 (id 1, R 1) and H2 (id 2, R 0.5); targets X (3, R 1), Y (4, R 1)
/// and an irrelevant N (5, R 0.1) linked from both hubs; every page on its
/// own host. Edges H1->X, H1->Y, H1->N, H2->X, H2->N.
///
/// Authorities with `R > 0.5` are {H1, X, Y} (H1 has no in-links). With
/// `E_F[u,v] = R(v)`, `E_B[u,v] = R(u)`: `aX = hH1 + hH2`, `aY = hH1`,
/// `hH1 = aX + aY`, `hH2 = 0.5 aX`, so `a = M a` with
/// `M = [[1.5, 1], [1, 1]]`: `lambda = (5 + sqrt17)/4`, eigenvector
/// `(1, (sqrt17 - 1)/4)`, L1: `aX = (sqrt17 - 3)/2`, `aY = (5 - sqrt17)/2`;
/// `h = (aX + aY, 0.5 aX)` = `(1, (sqrt17 - 3)/4)`, L1: `hH1 = (sqrt17 - 1)/4`,
/// `hH2 = (5 - sqrt17)/4`.
fn weighted_example() -> Graph {
    graph(
        &[
            (1, 1, 1.0),
            (2, 2, 0.5),
            (3, 3, 1.0),
            (4, 4, 1.0),
            (5, 5, 0.1),
        ],
        &[(1, 3), (1, 4), (1, 5), (2, 3), (2, 5)],
    )
}

fn check_weighted(filter: AuthorityFilter) {
    let cfg = HitsConfig {
        weighting: Weighting::Relevance1999 {
            authorities: filter,
        },
        ..HitsConfig::relevance_1999()
    };
    let s = Hits::new(cfg).unwrap().run(&weighted_example());
    assert!(s.converged);
    let r17 = 17f64.sqrt();
    assert_close(s.authority[2], (r17 - 3.0) / 2.0, "aX");
    assert_close(s.authority[3], (5.0 - r17) / 2.0, "aY");
    assert_eq!(s.authority[4], 0.0, "aN");
    assert_close(s.hub[0], (r17 - 1.0) / 4.0, "hH1");
    assert_close(s.hub[1], (5.0 - r17) / 4.0, "hH2");
    assert_eq!(s.top_authorities(2)[0].0, PageId(3));
}

#[test]
fn relevance_1999_by_threshold() {
    check_weighted(AuthorityFilter::Above(0.5));
}

#[test]
fn relevance_1999_by_top_fraction() {
    // ceil(0.6 * 5) = 3 most relevant: H1, X, Y (R = 1, ties by page id).
    check_weighted(AuthorityFilter::TopFraction(0.6));
}

/// Under plain HITS the irrelevant N (linked from both hubs, like X) ties
/// for the top authority; the 1999 weighting removes it.
#[test]
fn plain_hits_lets_the_irrelevant_page_win() {
    let s = Hits::new(HitsConfig::plain())
        .unwrap()
        .run(&weighted_example());
    assert_eq!(s.authority[2], s.authority[4]);
    let top: Vec<PageId> = s.top_authorities(2).into_iter().map(|x| x.0).collect();
    assert_eq!(top, vec![PageId(3), PageId(5)]);
}

/// Bharat–Henzinger authority damping. p1, p2 (host 10) -> v (host 20);
/// q (host 30) -> w (host 40). Authority weights 1/2, 1/2 and 1, hub
/// weights 1: `av = (hp1 + hp2)/2`, `aw = hq`, `hp1 = hp2 = av`, `hq = aw`.
/// From `h = 1/3` the first step gives `av = aw = 1/3`, a fixed point:
/// `a = (1/2, 1/2)`, `h = 1/3` each. Plain HITS lets v win outright
/// (`av <- 2 av`), so two pages of one host count as one vote only under B&H.
#[test]
fn bharat_henzinger_damps_one_host_voting_twice() {
    let g = graph(
        &[
            (1, 10, 1.0),
            (2, 10, 1.0),
            (3, 20, 1.0),
            (4, 30, 1.0),
            (5, 40, 1.0),
        ],
        &[(1, 3), (2, 3), (4, 5)],
    );
    let s = Hits::new(HitsConfig::bharat_henzinger()).unwrap().run(&g);
    assert!(s.converged);
    assert_close(s.authority[2], 0.5, "av");
    assert_close(s.authority[4], 0.5, "aw");
    for i in [0, 1, 3] {
        assert_close(s.hub[i], 1.0 / 3.0, "hub");
    }
    let p = Hits::new(HitsConfig::plain()).unwrap().run(&g);
    assert!(p.authority[2] > 0.999_999, "plain av = {}", p.authority[2]);
}

/// Bharat–Henzinger hub damping. u (host 10) -> w1, w2 (both host 20);
/// u' (host 30) -> x (host 40). Hub weights 1/2, 1/2 and 1:
/// `hu = (aw1 + aw2)/2`, `hu' = ax`, `aw1 = aw2 = hu`, `ax = hu'`. From
/// `h = 1/5` each: `a = 1/3` each, then `hu = hu' = 1/2`, a fixed point.
/// Plain HITS gives `hu <- 2 hu`, so u would take all hub score.
#[test]
fn bharat_henzinger_damps_one_page_citing_a_host_twice() {
    let g = graph(
        &[
            (1, 10, 1.0),
            (2, 20, 1.0),
            (3, 20, 1.0),
            (4, 30, 1.0),
            (5, 40, 1.0),
        ],
        &[(1, 2), (1, 3), (4, 5)],
    );
    let s = Hits::new(HitsConfig::bharat_henzinger()).unwrap().run(&g);
    assert_close(s.hub[0], 0.5, "hu");
    assert_close(s.hub[3], 0.5, "hu'");
    for i in [1, 2, 4] {
        assert_close(s.authority[i], 1.0 / 3.0, "a");
    }
    let p = Hits::new(HitsConfig::plain()).unwrap().run(&g);
    assert!(p.hub[0] > 0.999_999, "plain hu = {}", p.hub[0]);
}
