//! Compressed sparse rows: building forward adjacency from sorted packed
//! edges, transposing it, and the induced subgraph's rows.

/// Forward CSR from edges packed as `(src << 32) | dst`, sorted and
/// deduplicated; targets within a row come out ascending.
pub(crate) fn forward_from_sorted(n: usize, packed: &[u64]) -> (Vec<usize>, Vec<u32>) {
    let mut off = vec![0usize; n + 1];
    for &e in packed {
        off[(e >> 32) as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let dst = packed.iter().map(|&e| e as u32).collect();
    (off, dst)
}

/// Transpose a CSR: rows become columns. Sources within a row come out
/// ascending because the forward rows are scanned in order.
pub(crate) fn transpose(n: usize, off: &[usize], adj: &[u32]) -> (Vec<usize>, Vec<u32>) {
    let mut roff = vec![0usize; n + 1];
    for &v in adj {
        roff[v as usize + 1] += 1;
    }
    for i in 0..n {
        roff[i + 1] += roff[i];
    }
    let mut cursor: Vec<usize> = roff[..n].to_vec();
    let mut src = vec![0u32; adj.len()];
    for u in 0..n {
        for &v in &adj[off[u]..off[u + 1]] {
            let slot = &mut cursor[v as usize];
            src[*slot] = u as u32;
            *slot += 1;
        }
    }
    (roff, src)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_and_transpose_agree() {
        // 0->1, 0->2, 2->1
        let packed = [1u64, 2, (2 << 32) | 1];
        let (off, dst) = forward_from_sorted(3, &packed);
        assert_eq!(off, vec![0, 2, 2, 3]);
        assert_eq!(dst, vec![1, 2, 1]);
        let (roff, src) = transpose(3, &off, &dst);
        assert_eq!(roff, vec![0, 0, 2, 3]);
        assert_eq!(src, vec![0, 2, 0]);
    }
}
