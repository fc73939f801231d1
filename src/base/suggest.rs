//! "Did you mean …?": the known word closest to one that is not known, when it is close enough
//! to be a typo (Damerau–Levenshtein distance, from `strsim`: a swap of two letters counts as
//! one edit). Pure; used for config keys, chat commands and channel names.

/// The entry of `known` nearest to `word` (case ignored), if it is within a typo's reach: one
/// edit for short words, up to three for long ones. `None` for an exact match or nothing close.
pub fn closest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    known
        .into_iter()
        .map(|k| (strsim::damerau_levenshtein(&word, &k.to_lowercase()), k))
        .filter(|&(distance, k)| distance > 0 && distance <= typos_allowed(k))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, k)| k)
}

fn typos_allowed(known: &str) -> usize {
    (known.chars().count() / 4).clamp(1, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_word_and_strangers_find_nothing() {
        let keys = [
            "reflector_interval_mins",
            "reflector_model",
            "model",
            "max_tokens",
        ];
        assert_eq!(
            closest("reflector_intervl_mins", keys),
            Some("reflector_interval_mins")
        );
        assert_eq!(
            closest("reflector_interval_mnis", keys),
            Some("reflector_interval_mins")
        );
        assert_eq!(closest("modle", keys), Some("model"));
        assert_eq!(
            closest("MAX_TOKENS", keys),
            None,
            "an exact match (any case) is no typo"
        );
        assert_eq!(closest("temperature", keys), None);
        assert_eq!(closest("mdl", keys), None, "too far for a short word");
        let commands = ["memories", "forget", "reset", "usage", "help"];
        assert_eq!(closest("memorys", commands), Some("memories"));
        assert_eq!(closest("forgt", commands), Some("forget"));
        assert_eq!(closest("weather", commands), None);
        assert_eq!(
            closest("telegramm", ["telegram", "discord", "web", "cli"]),
            Some("telegram")
        );
    }
}
