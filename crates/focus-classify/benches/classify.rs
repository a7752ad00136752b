//! Classifications per second per core for each family on 20 KB-page-sized
//! count vectors (~3,000 tokens, ~1,000 distinct terms, 8 classes).

use criterion::{Criterion, Throughput};
use focus_classify::{
    features::FeatureConfig, CentroidConfig, Centroids, Classifier, Example, HierNb, HierNbConfig,
    LayeredNb, SvmConfig, SvmTree,
};
use focus_core::{Taxonomy, TaxonomyBuilder};
use focus_text::{SparseVec, TermId};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn doc(rng: &mut ChaCha8Rng, topic: u32) -> SparseVec {
    // Zipf-ish background over 20,000 terms plus a topic band of 500 terms.
    let mut terms = Vec::with_capacity(3000);
    for _ in 0..3000 {
        let t = if rng.random_bool(0.3) {
            20_000 + topic * 500 + rng.random_range(0..500)
        } else {
            (rng.random::<f64>().powi(3) * 20_000.0) as u32
        };
        terms.push(TermId(t));
    }
    SparseVec::from_terms(terms)
}

fn corpus() -> (Taxonomy, Vec<Example>, Vec<SparseVec>) {
    let mut b = TaxonomyBuilder::new();
    for g in 0..2 {
        for l in 0..4 {
            b = b.topic(&format!("g{g}/l{l}")).unwrap();
        }
    }
    let tax = b.good("g0/l0").unwrap().build();
    let leaves = tax.leaves();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let examples: Vec<Example> = (0..400)
        .map(|i| {
            let k = i % leaves.len();
            Example {
                counts: doc(&mut rng, k as u32),
                topic: leaves[k],
            }
        })
        .collect();
    let test: Vec<SparseVec> = (0..256).map(|i| doc(&mut rng, (i % 8) as u32)).collect();
    (tax, examples, test)
}

fn bench(c: &mut Criterion) {
    let (tax, examples, test) = corpus();
    let nb = HierNb::train(&tax, &examples, HierNbConfig::default()).unwrap();
    let centroids = Centroids::train(
        &examples,
        CentroidConfig {
            top_k: 40,
            ..CentroidConfig::default()
        },
    )
    .unwrap();
    let svm = SvmTree::train(
        &tax,
        &examples,
        &SvmConfig {
            features: FeatureConfig::default(),
            ..SvmConfig::default()
        },
    )
    .unwrap();
    let layers: Vec<Vec<SparseVec>> = (0..4)
        .map(|l| {
            examples
                .iter()
                .skip(l)
                .step_by(4)
                .map(|e| e.counts.clone())
                .collect()
        })
        .collect();
    let layered = LayeredNb::train(&layers, true).unwrap();

    let mut g = c.benchmark_group("classify");
    g.throughput(Throughput::Elements(test.len() as u64));
    g.bench_function("hier_nb one-at-a-time", |b| {
        b.iter(|| test.iter().map(|d| nb.classify(d).relevance).sum::<f64>());
    });
    g.bench_function("centroid cosine", |b| {
        b.iter(|| {
            test.iter()
                .map(|d| centroids.classify(d).relevance)
                .sum::<f64>()
        });
    });
    // What the centroid floor asks on each judged page: the best cosine
    // over the good subtree only.
    let mut floor = centroids.clone();
    floor.set_good(&tax.good_subtree());
    g.bench_function("centroid relevance, good subtree", |b| {
        b.iter(|| test.iter().map(|d| floor.relevance(d)).sum::<f64>());
    });
    g.bench_function("svm tree", |b| {
        b.iter(|| test.iter().map(|d| svm.classify(d).relevance).sum::<f64>());
    });
    g.bench_function("layered nb", |b| {
        b.iter(|| {
            test.iter()
                .map(|d| layered.classify(d).relevance)
                .sum::<f64>()
        });
    });
    g.finish();

    let mut t = c.benchmark_group("train");
    t.sample_size(10);
    t.bench_function("hier_nb, 400 docs x ~1000 terms", |b| {
        b.iter(|| HierNb::train(&tax, &examples, HierNbConfig::default()).unwrap());
    });
    t.bench_function("svm tree, 400 docs x ~1000 terms", |b| {
        b.iter(|| SvmTree::train(&tax, &examples, &SvmConfig::default()).unwrap());
    });
    t.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
