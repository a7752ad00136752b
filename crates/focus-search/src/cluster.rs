//! Cluster analysis of a crawl's results (BINGO! §3.6): "perform a cluster
//! analysis on the results of one class and suggest creating new subclasses
//! with tentative labels automatically drawn from the most characteristic
//! terms of these subclasses ... or BINGO! can choose the number of clusters
//! such that an entropy-based cluster impurity measure is minimized".
//!
//! * [`kmeans`](fn@kmeans): spherical k-means (cosine similarity on
//!   L2-normalised vectors) with greedy k-means++ seeding from a seeded
//!   ChaCha8 RNG and [`RESTARTS`] restarts, the best kept. Same input and
//!   seed, same clustering.
//! * [`label`](fn@label): a cluster's most characteristic terms.
//! * [`impurity`](fn@impurity) and [`choose_k`]: an entropy-based impurity
//!   (the mean entropy of the clusters' term distributions plus the MDL/BIC
//!   cost of stating the clustering) and the number of clusters that
//!   minimises it.
//!
//! Documents are `focus_text::SparseVec`s, typically TF-IDF vectors (any
//! non-negative term weights work; [`impurity`](fn@impurity) ignores
//! negative weights).

mod impurity;
mod kmeans;
mod label;
#[cfg(test)]
mod test_data;

pub use impurity::{choose_k, impurity};
pub use kmeans::{kmeans, Clustering, RESTARTS};
pub use label::label;
