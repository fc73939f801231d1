//! 8-bit dense layers for short forward passes (a query, a short fact). Pure arithmetic, no
//! I/O.
//!
//! A few tokens make a dense layer a thin product that mostly reads its weights, so the
//! weights are held as 8-bit codes and each token's inputs are quantized as they come, both
//! with one scale per block of [`BLOCK`] values (an outlier in one block leaves the others
//! their precision; one scale per weight row was measured too coarse: a one-word text's
//! vector moved to a cosine of 0.9978 from the f32 one). A block's products are summed
//! exactly in integers — with AVX2, 32 at a time (`vpmaddubsw`) — and scaled once; one
//! thread, weight rows four at a time so each token's codes are loaded once per four rows.
//!
//! Why not candle's Q8_0 kernels: they split every product across a thread pool whose threads
//! spin between products (for a query, the second core was as busy as the first, taking it
//! from the search running beside the embedding) and decode an f16 scale per block of
//! weights. Measured on the dense layers of a 12-token pass of all-MiniLM-L6-v2 (2-core VM):
//! ~3.3 ms here against ~6.1 ms.

use crate::memory::vector::quantize_into;

/// Inputs sharing one scale when a token is quantized; a layer's input width must be a
/// multiple of it (it is in every BERT size).
pub const BLOCK: usize = 32;

/// A weight matrix `[rows, cols]` (outputs × inputs) as 8-bit codes.
pub struct Int8Matrix {
    rows: usize,
    cols: usize,
    /// `rows × cols`, row by row; each block of a row scaled so its largest weight is ±127.
    codes: Vec<i8>,
    /// `rows × cols / BLOCK`: per block, the factor that turns its codes back into weights.
    scales: Vec<f32>,
}

impl Int8Matrix {
    /// `weights` (`rows × cols`, row by row) as codes; `None` unless `cols` is a non-zero
    /// multiple of [`BLOCK`] and the lengths agree.
    pub fn quantize(weights: &[f32], rows: usize, cols: usize) -> Option<Self> {
        if cols == 0 || !cols.is_multiple_of(BLOCK) || weights.len() != rows.checked_mul(cols)? {
            return None;
        }
        let mut codes = vec![0i8; weights.len()];
        let scales = weights
            .chunks_exact(BLOCK)
            .zip(codes.chunks_exact_mut(BLOCK))
            .map(|(w, c)| quantize_into(w, c))
            .collect();
        Some(Self {
            rows,
            cols,
            codes,
            scales,
        })
    }

    /// Outputs per token.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Inputs per token.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `x·Wᵀ + bias` for the tokens of `x` (`tokens × cols`, row by row): `tokens × rows`
    /// outputs. `bias` has `rows` values.
    pub fn matmul(&self, x: &[f32], bias: &[f32]) -> Vec<f32> {
        assert_eq!(x.len() % self.cols, 0, "inputs are whole tokens");
        assert_eq!(bias.len(), self.rows, "one bias per output");
        let tokens = x.len() / self.cols;
        let input = Tokens::quantize(x, self.cols);
        let mut out = vec![0.0f32; tokens * self.rows];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA, checked just above.
            unsafe { x86::matmul(self, &input, bias, &mut out) };
            return out;
        }
        matmul_portable(self, &input, bias, &mut out);
        out
    }

    /// Row `j`'s codes and block scales.
    fn row(&self, j: usize) -> (&[i8], &[f32]) {
        let blocks = self.cols / BLOCK;
        (
            &self.codes[j * self.cols..(j + 1) * self.cols],
            &self.scales[j * blocks..(j + 1) * blocks],
        )
    }
}

/// Tokens' inputs as codes, one scale per block of [`BLOCK`].
struct Tokens {
    cols: usize,
    codes: Vec<i8>,
    /// `tokens × cols / BLOCK`: per block, the factor that turns its codes back into inputs.
    scales: Vec<f32>,
}

impl Tokens {
    fn quantize(x: &[f32], cols: usize) -> Self {
        let mut codes = vec![0i8; x.len()];
        let mut scales = vec![0.0f32; x.len() / BLOCK];
        let blocks = x
            .chunks_exact(BLOCK)
            .zip(codes.chunks_exact_mut(BLOCK))
            .zip(&mut scales);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            for ((v, c), s) in blocks {
                // SAFETY: the CPU has AVX2, checked just above; blocks are whole.
                *s = unsafe { x86::quantize_block(v, c) };
            }
            return Self {
                cols,
                codes,
                scales,
            };
        }
        for ((v, c), s) in blocks {
            *s = quantize_into(v, c);
        }
        Self {
            cols,
            codes,
            scales,
        }
    }

    fn len(&self) -> usize {
        self.codes.len() / self.cols
    }

    fn token(&self, i: usize) -> (&[i8], &[f32]) {
        let blocks = self.cols / BLOCK;
        (
            &self.codes[i * self.cols..(i + 1) * self.cols],
            &self.scales[i * blocks..(i + 1) * blocks],
        )
    }
}

fn matmul_portable(w: &Int8Matrix, x: &Tokens, bias: &[f32], out: &mut [f32]) {
    for i in 0..x.len() {
        let (codes, scales) = x.token(i);
        for j in 0..w.rows {
            let (row, row_scales) = w.row(j);
            let mut sum = 0.0f32;
            for (((a, b), s), t) in codes
                .chunks_exact(BLOCK)
                .zip(row.chunks_exact(BLOCK))
                .zip(scales)
                .zip(row_scales)
            {
                let dot: i32 = a
                    .iter()
                    .zip(b)
                    .map(|(&p, &q)| i32::from(p) * i32::from(q))
                    .sum();
                sum += dot as f32 * (s * t);
            }
            out[i * w.rows + j] = sum + bias[j];
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{BLOCK, Int8Matrix, Tokens, quantize_into};

    /// Weight rows four at a time (they stay in L1 while every token meets them); per block
    /// of 32: `|x|` times `w` with `x`'s sign (`vpmaddubsw`: no pair of products can overflow
    /// 16 bits, as no code is -128), summed into eight 32-bit lanes, turned to floats and
    /// scaled by the two blocks' scales.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn matmul(w: &Int8Matrix, x: &Tokens, bias: &[f32], out: &mut [f32]) {
        let tokens: Vec<(&[i8], &[f32])> = (0..x.len()).map(|i| x.token(i)).collect();
        let mut j = 0;
        while j < w.rows {
            let group = (w.rows - j).min(4);
            let rows: [(&[i8], &[f32]); 4] = std::array::from_fn(|r| w.row(j + r.min(group - 1)));
            for (i, &(codes, scales)) in tokens.iter().enumerate() {
                // SAFETY: the caller has AVX2 and FMA; every slice holds `cols` codes.
                let sums = unsafe { dot4(codes, scales, rows) };
                for (r, sum) in sums.into_iter().take(group).enumerate() {
                    out[i * w.rows + j + r] = sum + bias[j + r];
                }
            }
            j += group;
        }
    }

    /// One token's codes (with its block scales) against four weight rows. Written out
    /// (four named accumulators): this crate is optimised for size, which keeps an array of
    /// accumulators in memory.
    #[target_feature(enable = "avx2,fma")]
    unsafe fn dot4(codes: &[i8], scales: &[f32], rows: [(&[i8], &[f32]); 4]) -> [f32; 4] {
        let ones = _mm256_set1_epi16(1);
        let (mut a0, mut a1, mut a2, mut a3) = (
            _mm256_setzero_ps(),
            _mm256_setzero_ps(),
            _mm256_setzero_ps(),
            _mm256_setzero_ps(),
        );
        let x = codes.as_ptr();
        let [(w0, t0), (w1, t1), (w2, t2), (w3, t3)] = rows;
        for (b, &s) in scales.iter().enumerate() {
            let at = b * BLOCK;
            // SAFETY: at + 32 ≤ cols, the length of `codes` and of every row; unaligned loads.
            unsafe {
                let xv = _mm256_loadu_si256(x.add(at).cast());
                let ax = _mm256_abs_epi8(xv);
                let step = |w: &[i8], t: &[f32], acc: __m256| {
                    let wv = _mm256_loadu_si256(w.as_ptr().add(at).cast());
                    let pairs = _mm256_maddubs_epi16(ax, _mm256_sign_epi8(wv, xv));
                    let dots = _mm256_cvtepi32_ps(_mm256_madd_epi16(pairs, ones));
                    _mm256_fmadd_ps(dots, _mm256_set1_ps(s * t[b]), acc)
                };
                a0 = step(w0, t0, a0);
                a1 = step(w1, t1, a1);
                a2 = step(w2, t2, a2);
                a3 = step(w3, t3, a3);
            }
        }
        [hsum(a0), hsum(a1), hsum(a2), hsum(a3)]
    }

    #[target_feature(enable = "avx2")]
    fn hsum(a: __m256) -> f32 {
        let halves = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps::<1>(a));
        let pairs = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));
        _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehdup_ps(pairs)))
    }

    /// [`quantize_into`] for one block of 32, with the same codes (`vcvtps2dq` rounds
    /// half to even).
    #[target_feature(enable = "avx2")]
    pub unsafe fn quantize_block(v: &[f32], out: &mut [i8]) -> f32 {
        assert!(v.len() == BLOCK && out.len() == BLOCK);
        // SAFETY: 32 values, read as four unaligned groups of eight.
        let parts: [__m256; 4] =
            std::array::from_fn(|k| unsafe { _mm256_loadu_ps(v.as_ptr().add(8 * k)) });
        let sign = _mm256_set1_ps(-0.0);
        let abs = parts.map(|p| _mm256_andnot_ps(sign, p));
        let m = _mm256_max_ps(_mm256_max_ps(abs[0], abs[1]), _mm256_max_ps(abs[2], abs[3]));
        let m = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps::<1>(m));
        let m = _mm_max_ps(m, _mm_movehl_ps(m, m));
        let max = _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
        let nan = parts
            .iter()
            .any(|&p| _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(p, p)) != 0);
        if nan {
            // Not a number: as the portable version has it (each such value a zero code).
            return quantize_into(v, out);
        }
        if !(max.is_finite() && max > 0.0) {
            out.fill(0);
            return 0.0;
        }
        let to_code = _mm256_set1_ps(127.0 / max);
        let ints = parts.map(|p| _mm256_cvtps_epi32(_mm256_mul_ps(p, to_code)));
        // Packing works within 128-bit lanes; the permutation puts the groups back in order.
        let words = _mm256_packs_epi32(ints[0], ints[1]);
        let words2 = _mm256_packs_epi32(ints[2], ints[3]);
        let bytes = _mm256_packs_epi16(words, words2);
        let ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        // In range by construction: |v| ≤ max, so every code is within ±127.
        // SAFETY: `out` holds 32 bytes; unaligned store.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), ordered) };
        max / 127.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(n: usize, rng: &mut fastrand::Rng) -> Vec<f32> {
        (0..n).map(|_| rng.f32() * 2.0 - 1.0).collect()
    }

    fn exact(w: &[f32], x: &[f32], bias: &[f32], cols: usize) -> Vec<f32> {
        let rows = bias.len();
        x.chunks_exact(cols)
            .flat_map(|t| {
                (0..rows).map(move |j| {
                    let r = &w[j * cols..(j + 1) * cols];
                    t.iter().zip(r).map(|(a, b)| a * b).sum::<f32>() + bias[j]
                })
            })
            .collect()
    }

    #[test]
    fn only_whole_blocks_and_matching_lengths_are_quantized() {
        assert!(Int8Matrix::quantize(&[0.0; 64], 2, 32).is_some());
        assert!(Int8Matrix::quantize(&[0.0; 60], 2, 30).is_none());
        assert!(Int8Matrix::quantize(&[0.0; 64], 3, 32).is_none());
        assert!(Int8Matrix::quantize(&[], 0, 0).is_none());
    }

    #[test]
    fn products_are_within_the_rounding_of_the_codes() {
        let mut rng = fastrand::Rng::with_seed(7);
        let (rows, cols, tokens) = (48, 96, 5);
        let w = random(rows * cols, &mut rng);
        let mut x = random(tokens * cols, &mut rng);
        // An outlier: its block's codes are coarse, the others keep their precision.
        x[7] = 40.0;
        let bias = random(rows, &mut rng);
        let m = Int8Matrix::quantize(&w, rows, cols).unwrap();
        let got = m.matmul(&x, &bias);
        let want = exact(&w, &x, &bias, cols);
        let input = Tokens::quantize(&x, cols);
        assert_eq!(got.len(), want.len());
        for i in 0..tokens {
            let (_, block_scales) = input.token(i);
            for j in 0..rows {
                // Each code is within half a step of its value: the product of a weight and an
                // input is off by at most half a step of each times the other.
                let bound: f32 = (0..cols)
                    .map(|k| {
                        let (xv, wv) = (x[i * cols + k], w[j * cols + k]);
                        let (sx, sw) = (block_scales[k / BLOCK], m.row(j).1[k / BLOCK]);
                        0.5 * sx * wv.abs() + 0.5 * sw * xv.abs() + 0.25 * sx * sw
                    })
                    .sum();
                let (g, e) = (got[i * rows + j], want[i * rows + j]);
                assert!((g - e).abs() <= bound + 1e-4, "{g} vs {e} (bound {bound})");
            }
        }
    }

    #[test]
    fn tokens_are_quantized_alike_on_every_path() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut x = random(BLOCK * 6, &mut rng);
        // Ties (the scale is 1 in this block): rounded half to even on both paths.
        x[..5].copy_from_slice(&[127.0, 2.5, -3.5, 0.5, -0.5]);
        x[BLOCK..2 * BLOCK].fill(0.0);
        x[2 * BLOCK] = f32::NAN;
        let t = Tokens::quantize(&x, 2 * BLOCK);
        for (b, v) in x.chunks_exact(BLOCK).enumerate() {
            let mut codes = [0i8; BLOCK];
            let scale = quantize_into(v, &mut codes);
            assert_eq!(
                &t.codes[b * BLOCK..(b + 1) * BLOCK],
                &codes[..],
                "block {b}"
            );
            assert_eq!(t.scales[b], scale, "block {b}");
        }
        assert_eq!(&t.codes[..5], &[127, 2, -4, 0, 0]);
        assert_eq!(t.scales[1], 0.0, "a zero block");
        assert_eq!(t.codes[2 * BLOCK], 0, "not a number: a zero code");
    }

    #[test]
    fn the_simd_and_portable_paths_agree() {
        let mut rng = fastrand::Rng::with_seed(11);
        let (rows, cols, tokens) = (17, 64, 3);
        let mut w = random(rows * cols, &mut rng);
        // Extremes: the largest codes on both sides, and a zero token.
        w[0] = 1.0;
        w[1] = -1.0;
        let mut x = random(tokens * cols, &mut rng);
        x[..cols].fill(0.0);
        x[cols] = -5.0;
        x[cols + 1] = 5.0;
        let bias = random(rows, &mut rng);
        let m = Int8Matrix::quantize(&w, rows, cols).unwrap();
        let input = Tokens::quantize(&x, cols);
        let mut portable = vec![0.0; tokens * rows];
        matmul_portable(&m, &input, &bias, &mut portable);
        let simd = m.matmul(&x, &bias);
        for (a, b) in simd.iter().zip(&portable) {
            assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "{a} vs {b}");
        }
        // The zero token gives the bias alone.
        assert_eq!(&portable[..rows], &bias[..]);
    }
}
