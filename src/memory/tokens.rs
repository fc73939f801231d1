//! Token counting with a real BPE (OpenAI's o200k), so budgets mean what they say.

use std::sync::{Mutex, OnceLock};

use hashlink::LruCache;
use tiktoken_rs::CoreBPE;

/// Texts whose counts are remembered, most recently used kept. A chat's prompt carries mostly
/// the same memory lines turn after turn (its profile, what came up lately), and counting one
/// costs ~20 µs: ~0.4 ms of a prompt build. At most ~300 KB.
const CACHED: usize = 2048;
/// Longer texts (a history, a file) are counted afresh: rarely the same twice.
const CACHED_LEN: usize = 512;

fn bpe() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    // The vocabulary ships inside the crate; failing to load it is a build defect.
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("bundled o200k vocabulary loads"))
}

/// Tokens in `text` as a current OpenAI model counts them; other models' tokenizers differ a
/// little, which the budget's headroom absorbs.
pub fn count(text: &str) -> usize {
    static SEEN: OnceLock<Mutex<LruCache<String, usize>>> = OnceLock::new();
    if text.len() > CACHED_LEN {
        return bpe().encode_ordinary(text).len();
    }
    let seen = SEEN.get_or_init(|| Mutex::new(LruCache::new(CACHED)));
    // A poisoned lock only means another thread panicked mid-insert; the map is still a map.
    if let Some(&n) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(text) {
        return n;
    }
    let n = bpe().encode_ordinary(text).len();
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(text.to_owned(), n);
    n
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_real_tokens_not_bytes() {
        assert_eq!(super::count(""), 0);
        assert_eq!(super::count("hello"), 1);
        // 6 CJK characters are 18 bytes but only a handful of tokens
        let n = super::count("我喜欢喝绿茶");
        assert!((2..=6).contains(&n), "{n}");
    }

    /// Remembered counts are the counts: asked again (from the cache), and for texts past the
    /// cached length (counted afresh).
    #[test]
    fn a_remembered_count_is_the_count() {
        let short = "[PROFILE] [chat] User's dog is named Rex";
        let first = super::count(short);
        assert_eq!(super::count(short), first);
        assert_eq!(first, super::bpe().encode_ordinary(short).len());
        let long = "word ".repeat(super::CACHED_LEN);
        assert_eq!(
            super::count(&long),
            super::bpe().encode_ordinary(&long).len()
        );
        for i in 0..super::CACHED + 10 {
            let t = format!("memory number {i}");
            assert_eq!(super::count(&t), super::bpe().encode_ordinary(&t).len());
        }
        assert_eq!(super::count(short), first, "after evictions too");
    }
}
