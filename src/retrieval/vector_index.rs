//! The vectors of memories, held in memory per scope and searched by brute force.
//!
//! Why not sqlite-vec or an ANN graph: a scope (a chat, or global) holds at most
//! `memory_max_per_chat` memories (2,000 by default), and even 100k × 384 floats scan in
//! milliseconds (`cargo bench --bench retrieval`); exact search needs no tuning, no C
//! extension and no second copy on disk. The database stays the truth: a scope is loaded on
//! first use and brought up to date when its generation (bumped by triggers on every vector
//! written or removed) moves — loading only vectors newer than those held, and dropping those
//! no longer stored — so vectors written by another process (`mneme chat` beside
//! `mneme start`) are seen too.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio::sync::RwLock;

use crate::store::Store;

/// The vectors of one scope.
#[derive(Debug, Default)]
struct ScopeVectors {
    loaded: bool,
    /// `memory_vector_generations.gen` when last brought up to date.
    generation: i64,
    /// The newest `memory_vectors.seq` held.
    max_seq: i64,
    dim: usize,
    ids: Vec<i64>,
    position: HashMap<i64, usize>,
    /// `ids.len() × dim` floats, row by row.
    data: Vec<f32>,
}

impl ScopeVectors {
    fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    fn upsert(&mut self, id: i64, vector: &[f32]) {
        match self.position.get(&id) {
            Some(&i) => self.data[i * self.dim..(i + 1) * self.dim].copy_from_slice(vector),
            None => {
                self.position.insert(id, self.ids.len());
                self.ids.push(id);
                self.data.extend_from_slice(vector);
            }
        }
    }

    /// Drops every vector whose memory is not in `live`.
    fn retain(&mut self, live: &HashSet<i64>) {
        let mut i = 0;
        while i < self.ids.len() {
            if live.contains(&self.ids[i]) {
                i += 1;
                continue;
            }
            let last = self.ids.len() - 1;
            self.position.remove(&self.ids[i]);
            if i != last {
                let (dim, moved) = (self.dim, self.ids[last]);
                self.data.copy_within(last * dim..(last + 1) * dim, i * dim);
                self.ids[i] = moved;
                self.position.insert(moved, i);
            }
            self.ids.pop();
            self.data.truncate(self.ids.len() * self.dim);
        }
    }
}

/// Dot product with eight accumulators, which the compiler turns into SIMD (a single running
/// sum would have to stay in order).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
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

/// The `k` rows of `data` (rows of `dim`) most similar to `query`, best first, as
/// (row index, dot product). Ties go to the lower index.
pub fn top_k(data: &[f32], dim: usize, query: &[f32], k: usize) -> Vec<(usize, f32)> {
    if dim == 0 || k == 0 || query.len() != dim {
        return Vec::new();
    }
    let mut heap: BinaryHeap<Reverse<(Score, Reverse<usize>)>> = BinaryHeap::with_capacity(k + 1);
    for (i, row) in data.chunks_exact(dim).enumerate() {
        let s = Score(dot(row, query));
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

/// In-process vectors of one embedding model, by scope.
pub struct VectorIndex {
    model: String,
    scopes: Mutex<HashMap<i64, Arc<RwLock<ScopeVectors>>>>,
}

impl VectorIndex {
    pub fn new(model: impl Into<String>) -> Self {
        Self {
            model: model.into(),
            scopes: Mutex::new(HashMap::new()),
        }
    }

    fn entry(&self, scope: i64) -> Arc<RwLock<ScopeVectors>> {
        let mut scopes = self.scopes.lock().unwrap_or_else(|e| e.into_inner());
        scopes.entry(scope).or_default().clone()
    }

    /// The scope's vectors of `dim` dimensions, brought up to date with the database.
    async fn current(
        &self,
        store: &Store,
        scope: i64,
        dim: usize,
    ) -> sqlx::Result<Arc<RwLock<ScopeVectors>>> {
        let entry = self.entry(scope);
        let generation = store.vector_generation(scope).await?;
        let up_to_date = |s: &ScopeVectors| s.loaded && s.generation == generation && s.dim == dim;
        if up_to_date(&*entry.read().await) {
            return Ok(entry);
        }
        let mut s = entry.write().await;
        if up_to_date(&s) {
            return Ok(entry.clone());
        }
        if !s.loaded || s.dim != dim {
            *s = ScopeVectors {
                dim,
                ..ScopeVectors::default()
            };
        }
        let was_loaded = s.loaded;
        let fresh = store
            .vectors_since(scope, &self.model, dim, s.max_seq)
            .await?;
        let writes = fresh.len() as i64;
        for v in fresh {
            s.upsert(v.memory_id, &v.vector);
            s.max_seq = s.max_seq.max(v.seq);
        }
        // Each vector written bumps the generation once; any more means some were removed
        // (archived, forgotten, edited or re-embedded): keep only the stored ones.
        if was_loaded && generation - s.generation > writes {
            let live: HashSet<i64> = store
                .vector_memory_ids(scope, &self.model, dim)
                .await?
                .into_iter()
                .collect();
            s.retain(&live);
        }
        s.generation = generation;
        s.loaded = true;
        drop(s);
        Ok(entry)
    }

    /// The `k` memories of `scopes` nearest to `query`, best first, with their cosine.
    pub async fn nearest(
        &self,
        store: &Store,
        scopes: &[i64],
        query: &[f32],
        k: usize,
    ) -> sqlx::Result<Vec<(i64, f64)>> {
        Ok(self.nearest_with(store, scopes, query, k, &[]).await?.0)
    }

    /// [`nearest`](Self::nearest), plus the stored vectors of those memories and of `also`
    /// (the ones that have one), reading each scope once: what a search ranks with.
    pub async fn nearest_with(
        &self,
        store: &Store,
        scopes: &[i64],
        query: &[f32],
        k: usize,
        also: &[i64],
    ) -> sqlx::Result<(Vec<(i64, f64)>, HashMap<i64, Vec<f32>>)> {
        let mut nearest = Vec::new();
        let mut vectors = HashMap::new();
        for &scope in scopes {
            let entry = self.current(store, scope, query.len()).await?;
            let s = entry.read().await;
            for (i, sim) in top_k(&s.data, s.dim, query, k) {
                nearest.push((s.ids[i], f64::from(sim)));
                vectors.insert(s.ids[i], s.row(i).to_vec());
            }
            for id in also {
                if let Some(&i) = s.position.get(id) {
                    vectors.insert(*id, s.row(i).to_vec());
                }
            }
        }
        nearest.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        nearest.truncate(k);
        Ok((nearest, vectors))
    }

    /// Vectors held for a scope (after bringing it up to date), for tests and figures.
    pub async fn len(&self, store: &Store, scope: i64, dim: usize) -> sqlx::Result<usize> {
        let entry = self.current(store, scope, dim).await?;
        let n = entry.read().await.ids.len();
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_matches_the_plain_sum() {
        let a: Vec<f32> = (0..19).map(|i| i as f32 * 0.1).collect();
        let b: Vec<f32> = (0..19).map(|i| 1.0 - i as f32 * 0.05).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-4);
        assert_eq!(dot(&[], &[]), 0.0);
    }

    #[test]
    fn top_k_finds_the_nearest_rows_in_order() {
        // rows: (1,0), (0,1), (0.6,0.8), (-1,0)
        let data = [1.0, 0.0, 0.0, 1.0, 0.6, 0.8, -1.0, 0.0];
        let q = [0.8, 0.6];
        let top = top_k(&data, 2, &q, 2);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), [2, 0]);
        assert!((top[0].1 - 0.96).abs() < 1e-6);
        assert_eq!(top_k(&data, 2, &q, 10).len(), 4);
        assert!(top_k(&data, 2, &[1.0], 2).is_empty(), "wrong dimension");
        assert!(top_k(&data, 2, &q, 0).is_empty());
    }

    #[test]
    fn upsert_and_retain_keep_rows_and_positions_consistent() {
        let mut s = ScopeVectors {
            dim: 2,
            ..ScopeVectors::default()
        };
        for id in 1..=4 {
            s.upsert(id, &[id as f32, 0.0]);
        }
        s.upsert(2, &[20.0, 0.0]);
        s.retain(&[2, 4].into_iter().collect());
        let mut rows: Vec<(i64, f32)> = s
            .ids
            .iter()
            .map(|&id| (id, s.row(s.position[&id])[0]))
            .collect();
        rows.sort_by_key(|r| r.0);
        assert_eq!(rows, [(2, 20.0), (4, 4.0)]);
        assert_eq!(s.data.len(), 4);
        s.retain(&HashSet::new());
        assert!(s.ids.is_empty() && s.data.is_empty() && s.position.is_empty());
    }
}
