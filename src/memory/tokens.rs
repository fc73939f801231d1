//! Token counting with a real BPE (OpenAI's o200k), so budgets mean what they say.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

fn bpe() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    // The vocabulary ships inside the crate; failing to load it is a build defect.
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("bundled o200k vocabulary loads"))
}

/// Tokens in `text` as a current OpenAI model counts them; other models' tokenizers differ a
/// little, which the budget's headroom absorbs.
pub fn count(text: &str) -> usize {
    bpe().encode_ordinary(text).len()
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
}
