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
//!
//! Held as 8-bit codes (each vector scaled so its largest component is ±127): a scan reads a
//! quarter of the bytes, which is what a scan of 100k rows waits on, and a scope takes a
//! quarter of the memory. The codes only choose candidates — half as many again as asked
//! for — and the candidates' stored vectors, read from the database, give the exact cosines
//! that rank them and that callers see (the reflector's thresholds among them).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio::sync::RwLock;

use super::codes::{quantize_into, top_k};
use crate::memory::rank::cosine;
use crate::store::Store;

/// Vectors read per query while loading a scope (about 6 MB of rows at 384 dimensions): the
/// rows and their floats are freed page by page, so loading 100k vectors costs the index's
/// memory, not three copies of them. (Two in unit tests, so that their scopes load in pages.)
#[cfg(not(test))]
const LOAD_PAGE: usize = 4096;
#[cfg(test)]
const LOAD_PAGE: usize = 2;

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
    /// `ids.len() × dim` codes, row by row (see [`quantize`]).
    codes: Vec<i8>,
    /// Per row: the factor that turns its codes back into the vector.
    scales: Vec<f32>,
}

impl ScopeVectors {
    fn upsert(&mut self, id: i64, vector: &[f32]) {
        match self.position.get(&id) {
            Some(&i) => {
                self.scales[i] =
                    quantize_into(vector, &mut self.codes[i * self.dim..(i + 1) * self.dim]);
            }
            None => {
                self.position.insert(id, self.ids.len());
                self.ids.push(id);
                let start = self.codes.len();
                self.codes.resize(start + self.dim, 0);
                self.scales
                    .push(quantize_into(vector, &mut self.codes[start..]));
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
                self.codes
                    .copy_within(last * dim..(last + 1) * dim, i * dim);
                self.scales[i] = self.scales[last];
                self.ids[i] = moved;
                self.position.insert(moved, i);
            }
            self.ids.pop();
            self.scales.pop();
            self.codes.truncate(self.ids.len() * self.dim);
        }
    }
}

/// How many candidates the codes choose for `k` results: a margin for the codes' small error
/// (a few thousandths of cosine), so one of the true `k` nearest is left out only when more
/// than that many rows sit within that error of the cut.
fn candidates_for(k: usize) -> usize {
    k.saturating_add(k / 2).saturating_add(8)
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
        let mut writes = 0;
        loop {
            let page = store
                .vectors_since(scope, &self.model, dim, s.max_seq, LOAD_PAGE)
                .await?;
            writes += page.vectors.len() as i64;
            for v in page.vectors {
                s.upsert(v.memory_id, &v.vector);
            }
            s.max_seq = s.max_seq.max(page.last_seq);
            if page.rows < LOAD_PAGE {
                break;
            }
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
        let mut chosen = Vec::new();
        for &scope in scopes {
            let entry = self.current(store, scope, query.len()).await?;
            let s = entry.read().await;
            let top = top_k(&s.codes, &s.scales, s.dim, query, candidates_for(k));
            chosen.extend(top.into_iter().map(|(i, _)| s.ids[i]));
        }
        // The exact vectors, as stored now: a candidate whose vector went meanwhile (archived,
        // re-embedded by another model) is not found.
        let mut wanted = chosen.clone();
        wanted.extend_from_slice(also);
        wanted.sort_unstable();
        wanted.dedup();
        let vectors: HashMap<i64, Vec<f32>> = store
            .vectors_of(&wanted, &self.model, query.len())
            .await?
            .into_iter()
            .collect();
        let mut nearest: Vec<(i64, f64)> = chosen
            .iter()
            .filter_map(|id| Some((*id, cosine(vectors.get(id)?, query))))
            .collect();
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

    /// Stores a vector for each of new global memories `facts`.
    async fn embed_new(store: &Store, facts: std::ops::Range<usize>) {
        for k in facts {
            let fact = format!("fact number {k}");
            let fact = crate::store::tests::fact(crate::base::MemoryScope::Global, &fact);
            store.insert_memory(&fact).await.unwrap();
        }
        let items: Vec<_> = (store.pending_embeddings(100).await.unwrap().into_iter())
            .map(|p| {
                let v = vec![p.memory_id as f32, 1.0, 0.0, 0.0];
                (p, v)
            })
            .collect();
        store.store_embeddings("m", &items).await.unwrap();
    }

    /// A scope loads in pages of [`LOAD_PAGE`] (two here): all of it at first, then what was
    /// written since.
    #[tokio::test]
    async fn a_scope_loads_page_by_page() {
        for store in crate::store::testing::backends().await {
            let index = VectorIndex::new("m");
            embed_new(&store, 0..5).await;
            assert_eq!(index.len(&store, 0, 4).await.unwrap(), 5);
            embed_new(&store, 5..9).await;
            assert_eq!(index.len(&store, 0, 4).await.unwrap(), 9);
        }
    }

    #[test]
    fn top_k_finds_the_nearest_rows_in_order() {
        // rows: (1,0), (0,1), (0.6,0.8), (-1,0)
        let mut s = ScopeVectors {
            dim: 2,
            ..ScopeVectors::default()
        };
        for (id, v) in [[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [-1.0, 0.0]]
            .iter()
            .enumerate()
        {
            s.upsert(id as i64, v);
        }
        let q = [0.8, 0.6];
        let top = top_k(&s.codes, &s.scales, 2, &q, 2);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), [2, 0]);
        assert!((top[0].1 - 0.96).abs() < 0.01, "{}", top[0].1);
        assert_eq!(top_k(&s.codes, &s.scales, 2, &q, 10).len(), 4);
        assert!(
            top_k(&s.codes, &s.scales, 2, &[1.0], 2).is_empty(),
            "wrong dimension"
        );
        assert!(top_k(&s.codes, &s.scales, 2, &q, 0).is_empty());
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
        let first = |s: &ScopeVectors, id: i64| {
            let i = s.position[&id];
            f32::from(s.codes[i * 2]) * s.scales[i]
        };
        let mut rows: Vec<(i64, f32)> = s.ids.iter().map(|&id| (id, first(&s, id))).collect();
        rows.sort_by_key(|r| r.0);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].0, rows[1].0), (2, 4));
        assert!((rows[0].1 - 20.0).abs() < 1e-4 && (rows[1].1 - 4.0).abs() < 1e-4);
        assert_eq!((s.codes.len(), s.scales.len()), (4, 2));
        s.retain(&HashSet::new());
        assert!(s.ids.is_empty() && s.codes.is_empty() && s.position.is_empty());
    }
}
