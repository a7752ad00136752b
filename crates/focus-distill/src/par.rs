//! Parallel helpers over CSR rows: split a row-aligned slice into disjoint
//! blocks of rows so rayon workers can fill them without locks, and
//! deterministic parallel sums (fixed chunking, ordered reduction).

use rayon::prelude::*;

/// Rows per parallel block.
pub(crate) const ROW_BLOCK: usize = 4096;

/// Elements per chunk for vector operations.
pub(crate) const VEC_CHUNK: usize = 16_384;

/// A block of consecutive rows and the part of a row-aligned slice they own.
pub(crate) struct RowBlock<'a, T> {
    /// First row of the block.
    pub(crate) first: usize,
    /// One past the last row.
    pub(crate) end: usize,
    /// `data[off[first]..off[end]]`.
    pub(crate) data: &'a mut [T],
}

/// Split `data` (aligned with the CSR offsets `off`) into blocks of rows.
pub(crate) fn row_blocks<'a, T>(off: &[usize], data: &'a mut [T]) -> Vec<RowBlock<'a, T>> {
    let rows = off.len().saturating_sub(1);
    let mut blocks = Vec::with_capacity(rows / ROW_BLOCK + 1);
    let mut rest = data;
    let mut first = 0;
    while first < rows {
        let end = (first + ROW_BLOCK).min(rows);
        let len = off[end] - off[first];
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
        blocks.push(RowBlock {
            first,
            end,
            data: head,
        });
        rest = tail;
        first = end;
    }
    blocks
}

/// Sum of `values`, identical on every run (fixed chunks, ordered reduction).
pub(crate) fn det_sum(values: &[f64]) -> f64 {
    let partial: Vec<f64> = values
        .par_chunks(VEC_CHUNK)
        .map(|c| c.iter().sum::<f64>())
        .collect();
    partial.iter().sum()
}

/// L1 distance between two equal-length vectors, deterministic.
pub(crate) fn det_l1_distance(a: &[f64], b: &[f64]) -> f64 {
    let partial: Vec<f64> = a
        .par_chunks(VEC_CHUNK)
        .zip(b.par_chunks(VEC_CHUNK))
        .map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q).abs()).sum::<f64>())
        .collect();
    partial.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_blocks_cover_all_rows_and_data() {
        let rows = ROW_BLOCK * 2 + 7;
        let off: Vec<usize> = (0..=rows).map(|r| r * 2).collect();
        let mut data = vec![0u32; rows * 2];
        let blocks = row_blocks(&off, &mut data);
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[2].first, ROW_BLOCK * 2);
        assert_eq!(blocks[2].end, rows);
        assert_eq!(blocks.iter().map(|b| b.data.len()).sum::<usize>(), rows * 2);
    }

    #[test]
    fn sums_are_exact_on_small_input() {
        assert_eq!(det_sum(&[1.0, 2.0, 3.5]), 6.5);
        assert_eq!(det_l1_distance(&[1.0, -1.0], &[0.5, 1.0]), 2.5);
    }
}
