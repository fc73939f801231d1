//! The dot product of float vectors: the cosine of two stored embeddings (they are kept
//! L2-normalised), in the search's ranking, MMR and the reflector's dedup; and the 8-bit
//! codes the vector index and the embedding model's short passes compute with. Pure, no I/O.
//!
//! Written out with AVX2 and FMA where the CPU has them (checked at each call, a cached
//! flag): this crate is optimised for size, which leaves a plain loop unvectorised, and a
//! search computes thousands of these. Elsewhere eight running sums, which a compiler turns
//! into SIMD where it can. The two round differently in the last bits only.

/// `Σ a[i]·b[i]` over the shorter length.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        return unsafe { x86::dot(a, b) };
    }
    dot_portable(a, b)
}

/// Writes `v` as 8-bit codes into `out` (`out.len() == v.len()`): each component scaled so the
/// largest is ±127 (never -128, which the AVX2 products of codes need) and rounded half to
/// even (as `vcvtps2dq` does). Returns the scale that turns codes back into components. A
/// zero or non-finite largest component gives zero codes and scale 0 (it matches nothing); a
/// stray NaN among finite ones becomes a zero code.
pub fn quantize_into(v: &[f32], out: &mut [i8]) -> f32 {
    let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if !(max.is_finite() && max > 0.0) {
        out.fill(0);
        return 0.0;
    }
    let to_code = 127.0 / max;
    for (o, x) in out.iter_mut().zip(v) {
        // In range by construction (|x| ≤ max); NaN casts to 0.
        *o = (x * to_code).round_ties_even().clamp(-127.0, 127.0) as i8;
    }
    max / 127.0
}

fn dot_portable(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// Sixteen products at a time into two running sums of eight (`a.len() == b.len()`).
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot(a: &[f32], b: &[f32]) -> f32 {
        let n = a.len();
        let whole = n - n % 16;
        let (mut s0, mut s1) = (_mm256_setzero_ps(), _mm256_setzero_ps());
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let mut i = 0;
        while i < whole {
            // SAFETY: i + 16 ≤ whole ≤ n, both lengths; unaligned loads.
            unsafe {
                s0 = _mm256_fmadd_ps(_mm256_loadu_ps(pa.add(i)), _mm256_loadu_ps(pb.add(i)), s0);
                s1 = _mm256_fmadd_ps(
                    _mm256_loadu_ps(pa.add(i + 8)),
                    _mm256_loadu_ps(pb.add(i + 8)),
                    s1,
                );
            }
            i += 16;
        }
        let s = _mm256_add_ps(s0, s1);
        let halves = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps::<1>(s));
        let pairs = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));
        let total = _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehdup_ps(pairs)));
        let tail: f32 = a[whole..].iter().zip(&b[whole..]).map(|(x, y)| x * y).sum();
        total + tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_gives_the_plain_sum_at_every_length() {
        let mut rng = fastrand::Rng::with_seed(9);
        for len in [0, 1, 7, 8, 15, 16, 17, 31, 33, 384, 385] {
            let a: Vec<f32> = (0..len).map(|_| rng.f32() - 0.5).collect();
            let b: Vec<f32> = (0..len).map(|_| rng.f32() - 0.5).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(x * y)).sum();
            for (path, got) in [("dot", dot(&a, &b)), ("portable", dot_portable(&a, &b))] {
                assert!(
                    (f64::from(got) - plain).abs() < 1e-5,
                    "{path}, len {len}: {got} vs {plain}"
                );
            }
        }
        // Lengths that differ: the shorter one counts.
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[2.0, 0.5]), 3.0);
    }
}
