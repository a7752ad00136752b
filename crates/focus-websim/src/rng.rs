//! Seed derivation: every random choice of the web is a pure function of the
//! web seed and a few integers (page id, purpose), so pages are generated on
//! demand and the same seed always gives the same bytes.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Purposes, so that different generators of one page draw independent streams.
pub(crate) mod purpose {
    pub(crate) const TOPIC: u64 = 1;
    pub(crate) const LINKS: u64 = 2;
    pub(crate) const TEXT: u64 = 3;
    pub(crate) const TITLE: u64 = 4;
    pub(crate) const HOSTS: u64 = 6;
    pub(crate) const VOCAB: u64 = 7;
    pub(crate) const SAMPLE: u64 = 8;
    pub(crate) const FAULT: u64 = 9;
    pub(crate) const ANCHOR: u64 = 10;
    pub(crate) const MIXTURE: u64 = 11;
    pub(crate) const TEMPLATE: u64 = 12;
    pub(crate) const DEAD: u64 = 13;
    pub(crate) const PAGE_FAULT: u64 = 14;
}

pub(crate) use focus_core::mix64;

/// Hash of the seed and three integers.
pub(crate) fn hash3(seed: u64, a: u64, b: u64, c: u64) -> u64 {
    mix64(mix64(mix64(seed ^ mix64(a)) ^ b.rotate_left(17)) ^ c.rotate_left(41))
}

/// A uniform float in `[0, 1)` from a hash.
pub(crate) fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// A seeded generator for one purpose of one object.
pub(crate) fn rng_for(seed: u64, purpose: u64, id: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(hash3(seed, purpose, id, 0))
}

/// A standard normal draw (Box-Muller) from a generator.
pub(crate) fn normal(rng: &mut impl rand::Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(1e-12);
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A Gamma(`shape`, 1) draw (Marsaglia and Tsang 2000; shapes below 1 by
/// the `U^(1/shape)` boost). Normalised Gamma draws are a Dirichlet draw.
pub(crate) fn gamma(rng: &mut impl rand::Rng, shape: f64) -> f64 {
    let shape = shape.max(1e-3);
    if shape < 1.0 {
        let u: f64 = rng.random::<f64>().max(1e-12);
        return gamma(rng, shape + 1.0) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u: f64 = rng.random::<f64>().max(1e-12);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_differ_by_every_argument_and_unit_is_in_range() {
        let base = hash3(1, 2, 3, 4);
        assert_ne!(base, hash3(2, 2, 3, 4));
        assert_ne!(base, hash3(1, 3, 3, 4));
        assert_ne!(base, hash3(1, 2, 4, 4));
        assert_ne!(base, hash3(1, 2, 3, 5));
        for i in 0..1000 {
            let u = unit(mix64(i));
            assert!((0.0..1.0).contains(&u));
        }
    }

    #[test]
    fn gamma_draws_have_their_shape_as_mean() {
        let mut rng = rng_for(1, 0, 0);
        for shape in [0.3, 1.0, 2.5] {
            let n = 20_000;
            let mean = (0..n).map(|_| gamma(&mut rng, shape)).sum::<f64>() / f64::from(n);
            assert!(
                (mean - shape).abs() < 0.05 * shape.max(1.0),
                "{shape}: {mean}"
            );
        }
    }
}
