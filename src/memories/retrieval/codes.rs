//! The 8-bit codes the vector index scans, and the scan that picks the candidates (their
//! exact cosines are `memory::rank::cosine`'s). Pure functions, no I/O.
//!
//! The scan of a scope is the hot loop of a vector search (100k rows × 384 codes), so its dot
//! product is written out with AVX2 where the CPU has it (checked once per scan) rather than
//! left to the compiler: release builds optimise this crate for size, which leaves such loops
//! unvectorised (a search of 100k vectors took 22 ms instead of 2). The portable version gives
//! the same integers everywhere else; a test holds the two equal.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[cfg(test)]
use crate::memory::vector::dot;
pub use crate::memory::vector::quantize_into;

/// Dot product of codes, in 32-bit integers (exact: no rounding). The scan inlines it; this
/// is the one-pair form the tests compare.
#[cfg(test)]
fn dot_codes(a: &[i8], b: &[i8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { x86::dot_codes(a, b) };
    }
    dot_codes_portable(a, b)
}

/// Codes at which a scan is split between two threads: below, starting a thread costs more
/// than it saves (a scan reads ~15 codes per nanosecond on one core; a thread starts in tens
/// of microseconds).
const SPLIT_AT: usize = 2_000_000;

/// The dot product of the codes `query` with every row of `codes` (rows of `query.len()`),
/// into `out`.
/// A large scan runs in two halves on two threads: it waits on memory, and two cores fetch
/// more of it at once.
pub fn scan(codes: &[i8], query: &[i8], out: &mut Vec<i32>) {
    out.clear();
    if query.is_empty() {
        return;
    }
    let rows = codes.len() / query.len();
    if codes.len() < SPLIT_AT || rows < 2 {
        scan_rows(codes, query, out);
        return;
    }
    let (first, second) = codes.split_at(rows / 2 * query.len());
    let half = |part: &[i8]| {
        let mut dots = Vec::with_capacity(part.len() / query.len());
        scan_rows(part, query, &mut dots);
        dots
    };
    let rest = std::thread::scope(|s| {
        let helper = std::thread::Builder::new()
            .name("mneme-scan".into())
            .spawn_scoped(s, || half(second));
        scan_rows(first, query, out);
        match helper {
            Ok(helper) => helper
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had (the machine is out of them): this one does it all.
            Err(_) => half(second),
        }
    });
    out.extend_from_slice(&rest);
}

fn scan_rows(codes: &[i8], query: &[i8], out: &mut Vec<i32>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { x86::scan(codes, query, out) };
        return;
    }
    out.extend(
        codes
            .chunks_exact(query.len())
            .map(|row| dot_codes_portable(row, query)),
    );
}

fn dot_codes_portable(a: &[i8], b: &[i8]) -> i32 {
    let mut acc = [0i32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: i32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(&x, &y)| i32::from(x) * i32::from(y))
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..16 {
            acc[k] += i32::from(x[k]) * i32::from(y[k]);
        }
    }
    acc.iter().sum::<i32>() + tail
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// 32 codes at a time: `|b|` times `a` with `b`'s sign, multiplied and summed in pairs
    /// to 16 bits (`vpmaddubsw`), then in pairs to eight 32-bit lanes (`vpmaddwd`). No pair
    /// sum can overflow 16 bits, as no code is -128 (`quantize_into` never writes it).
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot_codes(a: &[i8], b: &[i8]) -> i32 {
        let n = a.len().min(b.len());
        let whole = n - n % 32;
        let ones = _mm256_set1_epi16(1);
        let mut acc = _mm256_setzero_si256();
        let mut i = 0;
        while i < whole {
            // SAFETY: i + 32 ≤ whole ≤ both lengths; unaligned loads.
            let (x, y) = unsafe {
                (
                    _mm256_loadu_si256(a.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(b.as_ptr().add(i).cast()),
                )
            };
            let pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(y), _mm256_sign_epi8(x, y));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
            i += 32;
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        let tail: i32 = a[whole..n]
            .iter()
            .zip(&b[whole..n])
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum();
        _mm_cvtsi128_si32(total) + tail
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn scan(codes: &[i8], query: &[i8], out: &mut Vec<i32>) {
        // SAFETY (both calls): this function runs only where AVX2 is present.
        out.extend(
            codes
                .chunks_exact(query.len())
                .map(|row| unsafe { dot_codes(row, query) }),
        );
    }
}

/// A float ordered totally, for the top-k heap.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score(f32);
impl Eq for Score {}
impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The `k` rows of `codes` (rows of `dim`, each with its scale) most similar to `query`,
/// best first, as (row index, approximate dot product). Ties go to the lower index.
pub fn top_k(
    codes: &[i8],
    scales: &[f32],
    dim: usize,
    query: &[f32],
    k: usize,
) -> Vec<(usize, f32)> {
    if dim == 0 || k == 0 || query.len() != dim {
        return Vec::new();
    }
    let mut q = vec![0i8; dim];
    let q_scale = quantize_into(query, &mut q);
    let mut dots = Vec::with_capacity(scales.len());
    scan(codes, &q, &mut dots);
    let mut heap: BinaryHeap<Reverse<(Score, Reverse<usize>)>> = BinaryHeap::with_capacity(k + 1);
    for (i, (&d, scale)) in dots.iter().zip(scales).enumerate() {
        let s = Score(d as f32 * scale * q_scale);
        if heap.len() < k {
            heap.push(Reverse((s, Reverse(i))));
        } else if let Some(Reverse((worst, _))) = heap.peek()
            && s > *worst
        {
            heap.pop();
            heap.push(Reverse((s, Reverse(i))));
        }
    }
    let mut out: Vec<(usize, f32)> = heap
        .into_iter()
        .map(|Reverse((s, Reverse(i)))| (i, s.0))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes' scores stay within a few thousandths of the exact cosine, on vectors shaped
    /// like real embeddings (unit length, many dimensions, uneven components).
    #[test]
    fn codes_score_close_to_the_exact_cosine() {
        let unit = |seed: u64| {
            let mut x = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut v: Vec<f32> = (0..384)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) as f32 / (1u64 << 31) as f32 - 0.5).powi(3)
                })
                .collect();
            let n = dot(&v, &v).sqrt();
            v.iter_mut().for_each(|c| *c /= n);
            v
        };
        let q = unit(7);
        let mut qc = vec![0i8; 384];
        let qs = quantize_into(&q, &mut qc);
        let mut worst = 0.0f32;
        for seed in 0..200 {
            let v = unit(seed);
            let mut c = vec![0i8; 384];
            let s = quantize_into(&v, &mut c);
            let approx = dot_codes(&c, &qc) as f32 * s * qs;
            worst = worst.max((approx - dot(&v, &q)).abs());
        }
        assert!(worst < 0.01, "worst error {worst}");
        let mut zero = [5i8; 3];
        assert_eq!(quantize_into(&[0.0, 0.0, 0.0], &mut zero), 0.0);
        assert_eq!(zero, [0, 0, 0]);
        // (Stored vectors are checked finite; a stray NaN still only becomes a zero code.)
        quantize_into(&[f32::NAN, 1.0, 0.0], &mut zero);
        assert_eq!(zero, [0, 127, 0]);
        assert_eq!(dot_codes(&[1; 19], &[2; 19]), 38);
    }

    /// The AVX2 path (where this CPU has it) and the portable one give the same integers, at
    /// every length around the 32-code step and at the codes' extremes.
    #[test]
    fn every_path_computes_the_same_dot_of_codes() {
        let mut x = 12345u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (((x >> 33) % 255) as i16 - 127) as i8
        };
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 384, 385] {
            let a: Vec<i8> = (0..len).map(|_| next()).collect();
            let b: Vec<i8> = (0..len).map(|_| next()).collect();
            assert_eq!(dot_codes(&a, &b), dot_codes_portable(&a, &b), "len {len}");
            let extreme = vec![-127i8; len];
            assert_eq!(dot_codes(&extreme, &extreme), 127 * 127 * len as i32);
        }
        let rows: Vec<i8> = (0..384 * 5).map(|_| next()).collect();
        let q: Vec<i8> = (0..384).map(|_| next()).collect();
        let mut dots = Vec::new();
        scan(&rows, &q, &mut dots);
        let expected: Vec<i32> = rows
            .chunks_exact(384)
            .map(|r| dot_codes_portable(r, &q))
            .collect();
        assert_eq!(dots, expected);
        scan(&rows, &[], &mut dots);
        assert!(dots.is_empty());
        // Large enough to be split between two threads (an odd number of rows): the same
        // dots, in row order.
        let n = SPLIT_AT / 384 + 3;
        let big: Vec<i8> = (0..384 * n).map(|_| next()).collect();
        scan(&big, &q, &mut dots);
        let expected: Vec<i32> = big
            .chunks_exact(384)
            .map(|r| dot_codes_portable(r, &q))
            .collect();
        assert_eq!(dots.len(), n);
        assert_eq!(dots, expected);
    }
}
