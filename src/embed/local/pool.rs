//! The pure parts of local inference: grouping texts into batches, padding a batch, and
//! mean pooling over the attention mask (what sentence-transformers' `Pooling` does).

/// Indices of the texts grouped into batches of at most `size`, texts of similar token
/// count together (shortest first), so a batch pads little. Every index appears once.
pub(super) fn batches_by_length(lengths: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]); // stable: equal lengths keep their order
    order.chunks(size.max(1)).map(<[usize]>::to_vec).collect()
}

/// One batch as the model takes it: token ids and attention mask, row-major
/// `[rows, seq_len]`, each row padded on the right with `pad_id` (mask 0) to the longest.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Padded {
    pub ids: Vec<u32>,
    pub mask: Vec<u32>,
    pub rows: usize,
    pub seq_len: usize,
}

pub(super) fn pad(rows: &[&[u32]], pad_id: u32) -> Padded {
    let seq_len = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut ids = Vec::with_capacity(rows.len() * seq_len);
    let mut mask = Vec::with_capacity(rows.len() * seq_len);
    for row in rows {
        ids.extend_from_slice(row);
        ids.resize(ids.len() + seq_len - row.len(), pad_id);
        mask.resize(mask.len() + row.len(), 1);
        mask.resize(mask.len() + seq_len - row.len(), 0);
    }
    Padded {
        ids,
        mask,
        rows: rows.len(),
        seq_len,
    }
}

/// The mean of each row's token vectors where `mask` is 1; `hidden` is row-major
/// `[rows, seq_len, dim]`. Padding never counts. A row with no token at all (cannot happen
/// with [CLS] and [SEP] added) gives zeros rather than NaN.
pub(super) fn mean_pool(hidden: &[f32], mask: &[u32], seq_len: usize, dim: usize) -> Vec<Vec<f32>> {
    let rows = mask.len().checked_div(seq_len).unwrap_or(0);
    debug_assert_eq!(hidden.len(), rows * seq_len * dim);
    (0..rows)
        .map(|r| {
            let mut sum = vec![0f32; dim];
            let mut count = 0usize;
            for t in 0..seq_len {
                if mask[r * seq_len + t] == 0 {
                    continue;
                }
                count += 1;
                let token = &hidden[(r * seq_len + t) * dim..][..dim];
                for (s, x) in sum.iter_mut().zip(token) {
                    *s += x;
                }
            }
            // sentence-transformers divides by max(count, 1e-9)
            let n = count.max(1) as f32;
            sum.iter_mut().for_each(|s| *s /= n);
            sum
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_group_by_length_and_cover_every_text_once() {
        let lengths = [5, 2, 9, 2, 7, 1, 3];
        let batches = batches_by_length(&lengths, 3);
        assert_eq!(batches, [vec![5, 1, 3], vec![6, 0, 4], vec![2]]);
        let mut all: Vec<usize> = batches.concat();
        all.sort();
        assert_eq!(all, (0..lengths.len()).collect::<Vec<_>>());
        assert!(batches_by_length(&[], 32).is_empty());
        assert_eq!(batches_by_length(&[1, 1], 0), [vec![0], vec![1]]);
    }

    #[test]
    fn pad_pads_right_with_a_zero_mask() {
        let p = pad(&[&[101, 7, 102], &[101, 102]], 0);
        assert_eq!(p.rows, 2);
        assert_eq!(p.seq_len, 3);
        assert_eq!(p.ids, [101, 7, 102, 101, 102, 0]);
        assert_eq!(p.mask, [1, 1, 1, 1, 1, 0]);
    }

    #[test]
    fn mean_pool_averages_only_unmasked_tokens() {
        // two rows, three tokens, two dimensions; row 1's last token is padding with a huge
        // value that must not leak into the mean
        let hidden = [
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, // row 0
            2.0, 0.0, 4.0, 2.0, 1e9, -1e9, // row 1
        ];
        let mask = [1, 1, 1, 1, 1, 0];
        let pooled = mean_pool(&hidden, &mask, 3, 2);
        assert_eq!(pooled, [vec![3.0, 4.0], vec![3.0, 1.0]]);
    }

    #[test]
    fn mean_pool_of_an_all_padding_row_is_zero_not_nan() {
        assert_eq!(mean_pool(&[5.0, 5.0], &[0, 0], 2, 1), [vec![0.0]]);
        assert!(mean_pool(&[], &[], 0, 4).is_empty());
    }
}
