#!/usr/bin/env python3
"""Independent reference for focus-distill's HITS (optional, not part of CI).

Reads DIR/nodes.tsv (id host relevance visited) and DIR/edges.tsv (src dst)
written by `cargo run --release -p focus-distill --example hits_edgelist --
generate DIR EDGES SEED`, computes the scores independently and compares them
with DIR/rust_<weighting>.tsv written by `... --example hits_edgelist -- run
DIR <weighting>`:

  plain  networkx.hits (principal singular vectors via scipy svds), L1-normalised
  r1999  Chakrabarti et al. 1999: E_F[u,v] = R(v), E_B[u,v] = R(u), cross-host
         links only, authorities = top 15 % by R (ties: ascending page id);
         principal eigenvector of E_F^T E_B by scipy ARPACK (eigs), L1-normalised
  bh     Bharat-Henzinger: authority weight 1/k (k pages of one host -> v),
         hub weight 1/l (u -> l pages of one host), cross-host only; ARPACK

Requires: pip install networkx scipy numpy
Usage: python3 xtask/reference/hits_reference.py DIR [plain r1999 bh]
"""
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def load(d):
    nodes = np.loadtxt(d / "nodes.tsv", dtype=np.float64, ndmin=2)
    ids = nodes[:, 0].astype(np.uint64)
    host = nodes[:, 1].astype(np.uint64)
    rel = nodes[:, 2]
    edges = np.loadtxt(d / "edges.tsv", dtype=np.uint64, ndmin=2)
    index = {int(p): i for i, p in enumerate(ids)}
    src = np.array([index[int(u)] for u in edges[:, 0]], dtype=np.int64)
    dst = np.array([index[int(v)] for v in edges[:, 1]], dtype=np.int64)
    return ids, host, rel, src, dst


def l1(v):
    s = v.sum()
    return v / s if s != 0 else v


def plain(ids, host, rel, src, dst):
    g = nx.DiGraph()
    g.add_nodes_from(range(len(ids)))
    g.add_edges_from(zip(src.tolist(), dst.tolist()))
    h, a = nx.hits(g, max_iter=100000, tol=1e-14, normalized=True)
    n = len(ids)
    return np.array([h[i] for i in range(n)]), np.array([a[i] for i in range(n)])


def principal(ef, eb):
    """a = principal eigenvector of E_F^T E_B, h = E_B a (both L1)."""
    m = (ef.T @ eb).tocsr()
    vals, vecs = sla.eigs(m, k=1, which="LM", tol=1e-14, maxiter=100000)
    a = np.abs(vecs[:, 0].real)
    a = l1(a)
    h = l1(eb @ a)
    return h, a


def r1999(ids, host, rel, src, dst, fraction=0.15):
    n = len(ids)
    k = min(n, int(np.ceil(fraction * n)))
    # R descending, then page id ascending.
    order = np.lexsort((ids, -rel))
    auth = np.zeros(n, dtype=bool)
    auth[order[:k]] = True
    keep = (host[src] != host[dst]) & auth[dst]
    s, t = src[keep], dst[keep]
    ef = sp.csr_matrix((rel[t], (s, t)), shape=(n, n))  # E_F[u,v] = R(v)
    eb = sp.csr_matrix((rel[s], (s, t)), shape=(n, n))  # E_B[u,v] = R(u)
    return principal(ef, eb)


def counts(a, b):
    """For each pair (a[i], b[i]), how many times that pair occurs."""
    pairs = np.stack([a, b], axis=1)
    _, inverse, cnt = np.unique(pairs, axis=0, return_inverse=True, return_counts=True)
    return cnt[inverse.ravel()]


def bh(ids, host, rel, src, dst):
    n = len(ids)
    keep = host[src] != host[dst]
    s, t = src[keep], dst[keep]
    k = counts(host[s].astype(np.int64), t)  # pages of host(u) citing v
    l = counts(s, host[t].astype(np.int64))  # pages of host(v) cited by u
    ef = sp.csr_matrix((1.0 / k, (s, t)), shape=(n, n))
    eb = sp.csr_matrix((1.0 / l, (s, t)), shape=(n, n))
    return principal(ef, eb)


def main():
    d = Path(sys.argv[1])
    which = sys.argv[2:] or ["plain", "r1999", "bh"]
    data = load(d)
    print(f"graph: {len(data[0])} nodes, {len(data[3])} edges")
    worst = 0.0
    for w in which:
        h, a = {"plain": plain, "r1999": r1999, "bh": bh}[w](*data)
        rust = np.loadtxt(d / f"rust_{w}.tsv", dtype=np.float64, ndmin=2)
        rh, ra = rust[:, 1], rust[:, 2]
        dh, da = np.abs(h - rh).max(), np.abs(a - ra).max()
        print(
            f"{w}: max|dh|={dh:.3e} max|da|={da:.3e} "
            f"(max h={h.max():.3e}, max a={a.max():.3e}, rel {max(dh / h.max(), da / a.max()):.3e})"
        )
        worst = max(worst, dh, da)
    print(f"worst max abs difference: {worst:.3e}")
    sys.exit(0 if worst < 1e-6 else 1)


if __name__ == "__main__":
    main()
