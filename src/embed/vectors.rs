//! Pure vector helpers: normalisation, and the checks every provider's answer goes through.

use super::EmbedError;

/// Scales `v` to unit length, so that cosine similarity is a dot product. A zero vector (or
/// one with a non-finite length) is left as it is rather than turned into NaNs.
pub fn l2_normalize(v: &mut [f32]) {
    let norm = v
        .iter()
        .map(|x| f64::from(*x) * f64::from(*x))
        .sum::<f64>()
        .sqrt();
    if norm > 0.0 && norm.is_finite() {
        for x in v.iter_mut() {
            *x = (f64::from(*x) / norm) as f32;
        }
    }
}

/// Checks a provider's vectors for `texts` texts and normalises them: the right count, one
/// length for all (`expected` when not 0), finite numbers, not all zero.
pub(super) fn checked(
    provider: &'static str,
    model: &str,
    texts: usize,
    expected: usize,
    mut vectors: Vec<Vec<f32>>,
) -> Result<Vec<Vec<f32>>, EmbedError> {
    let invalid = |detail: String| EmbedError::InvalidVectors { provider, detail };
    if vectors.len() != texts {
        return Err(invalid(format!(
            "{} vectors for {texts} texts",
            vectors.len()
        )));
    }
    let Some(first) = vectors.first().map(Vec::len) else {
        return Ok(vectors);
    };
    if expected != 0 && first != expected {
        return Err(EmbedError::Dimension {
            provider,
            model: model.to_string(),
            expected,
            got: first,
        });
    }
    for (i, v) in vectors.iter_mut().enumerate() {
        if v.is_empty() {
            return Err(invalid(format!("vector {i} is empty")));
        }
        if v.len() != first {
            return Err(invalid(format!(
                "vector {i} has {} dimensions, vector 0 has {first}",
                v.len()
            )));
        }
        if v.iter().any(|x| !x.is_finite()) {
            return Err(invalid(format!("vector {i} holds NaN or infinity")));
        }
        if v.iter().all(|x| *x == 0.0) {
            return Err(invalid(format!("vector {i} is all zeros")));
        }
        l2_normalize(v);
    }
    Ok(vectors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(v: &[f32]) -> f32 {
        v.iter().map(|x| x * x).sum::<f32>().sqrt()
    }

    #[test]
    fn normalize_makes_unit_length_and_keeps_direction() {
        let mut v = vec![3.0, 4.0];
        l2_normalize(&mut v);
        assert_eq!(v, [0.6, 0.8]);
        let mut tiny = vec![1e-30_f32, -2e-30, 2e-30];
        l2_normalize(&mut tiny);
        assert!((norm(&tiny) - 1.0).abs() < 1e-6, "{tiny:?}");
        assert!((tiny[0] - 1.0 / 3.0).abs() < 1e-6);
        let mut huge = vec![3e38_f32, 3e38];
        l2_normalize(&mut huge);
        assert!((norm(&huge) - 1.0).abs() < 1e-6, "{huge:?}");
    }

    #[test]
    fn normalize_leaves_zero_and_empty_vectors_alone() {
        let mut zero = vec![0.0; 4];
        l2_normalize(&mut zero);
        assert_eq!(zero, [0.0; 4]);
        l2_normalize(&mut []);
    }

    #[test]
    fn checked_normalises_good_answers() {
        let out = checked("t", "m", 2, 2, vec![vec![2.0, 0.0], vec![1.0, 1.0]]).unwrap();
        assert_eq!(out[0], [1.0, 0.0]);
        assert!((norm(&out[1]) - 1.0).abs() < 1e-6);
        assert!(checked("t", "m", 0, 0, vec![]).unwrap().is_empty());
    }

    #[test]
    fn checked_refuses_what_cannot_be_stored() {
        let err = |texts, expected, v: Vec<Vec<f32>>| {
            checked("openai", "m", texts, expected, v)
                .unwrap_err()
                .to_string()
        };
        assert!(err(2, 0, vec![vec![1.0]]).contains("1 vectors for 2 texts"));
        assert!(err(1, 0, vec![vec![]]).contains("vector 0 is empty"));
        assert!(err(2, 0, vec![vec![1.0], vec![1.0, 2.0]]).contains("vector 1 has 2 dimensions"));
        assert!(err(1, 0, vec![vec![f32::NAN]]).contains("NaN"));
        assert!(err(1, 0, vec![vec![0.0, 0.0]]).contains("all zeros"));
        let dim = err(1, 3, vec![vec![1.0, 2.0]]);
        assert!(
            dim.contains("returned 2-dimensional vectors but embedding_dim is 3"),
            "{dim}"
        );
    }
}
