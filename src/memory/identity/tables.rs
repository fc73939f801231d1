//! The lexicon's text tables, read once into lookups. English keys are stemmed, so every
//! Latin term — from the text or from a table — is compared by its stem.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::lexicon;

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// An English word's stem; anything else (CJK, digits, `elder_sister`) as it is.
pub fn stem(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_alphabetic()) {
        super::memo::cached("stem", word, |w| STEMMER.stem(w).into_owned())
    } else {
        word.to_string()
    }
}

pub struct Tables {
    /// English word (and its stem) → tokens.
    pub words: HashMap<String, &'static str>,
    /// English phrases as stems, by their first stem, longest first.
    pub phrases: HashMap<String, Vec<(Vec<String>, &'static str)>>,
    pub zh: HashMap<&'static str, &'static str>,
    pub zh_longest: usize,
    pub stop: HashSet<&'static str>,
    pub possessive_pronouns: HashSet<&'static str>,
    pub prepositions: HashSet<&'static str>,
    pub participle_adjectives: HashSet<&'static str>,
    pub subject_left: HashSet<&'static str>,
    pub irregular_participles: HashSet<&'static str>,
    pub irregular_past: HashSet<&'static str>,
    pub noun_phrase_ends: HashSet<&'static str>,
    categories: HashMap<String, Vec<&'static str>>,
    kin: HashSet<String>,
    kin_covers: Vec<(String, String)>,
}

/// The `key, key => tokens;` entries of a table (a key list may wrap over lines; lines
/// starting with `//` are comments).
pub(super) fn entries(table: &'static str) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    for group in table.split(';') {
        let mut keys = Vec::new();
        let mut tokens = None;
        for line in group.lines().filter(|l| !l.trim_start().starts_with("//")) {
            match line.split_once("=>") {
                Some((k, t)) => {
                    keys.push(k);
                    tokens = Some(t.trim());
                }
                None => keys.push(line),
            }
        }
        if let Some(tokens) = tokens {
            for key in keys.iter().flat_map(|k| k.split(',')).map(str::trim) {
                if !key.is_empty() {
                    out.push((key, tokens));
                }
            }
        }
    }
    out
}

/// The words of a comma-separated list table.
fn list(table: &'static str) -> impl Iterator<Item = &'static str> {
    table.split(',').map(str::trim).filter(|w| !w.is_empty())
}

/// The `name: word, word;` groups of a table.
fn groups(table: &'static str) -> impl Iterator<Item = (&'static str, Vec<&'static str>)> {
    table.split(';').filter_map(|g| {
        let (name, words) = g.split_once(':')?;
        Some((name.trim(), list(words).collect()))
    })
}

pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut words = HashMap::new();
    for &(w, out) in &entries(lexicon::EN_WORDS) {
        // not for adverbs: "rarely" would take "rare", "hardly" "hard"
        if !(w.ends_with("ly") && w.len() > 5) {
            words.insert(stem(w), out);
        }
    }
    // the word itself wins over another word's stem
    for &(w, out) in &entries(lexicon::EN_WORDS) {
        words.insert(w.to_string(), out);
    }
    let mut phrases: HashMap<String, Vec<(Vec<String>, &'static str)>> = HashMap::new();
    for (p, out) in entries(lexicon::EN_PHRASES) {
        let stems: Vec<String> = p.split_whitespace().map(stem).collect();
        phrases
            .entry(stems[0].clone())
            .or_default()
            .push((stems, out));
    }
    for list in phrases.values_mut() {
        list.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    }
    let zh: HashMap<_, _> = entries(lexicon::ZH).into_iter().collect();
    let zh_longest = zh.keys().map(|k| k.chars().count()).max().unwrap_or(1);
    let mut categories: HashMap<String, Vec<&'static str>> = HashMap::new();
    for (name, members) in groups(lexicon::CATEGORIES) {
        for m in members {
            categories.entry(stem(m)).or_default().push(name);
        }
    }
    let kin = list(lexicon::KIN).map(stem).collect();
    let kin_covers = groups(lexicon::KIN_COVERS)
        .flat_map(|(general, specific)| specific.into_iter().map(move |s| (stem(general), stem(s))))
        .collect();
    Tables {
        words,
        phrases,
        zh,
        zh_longest,
        stop: list(lexicon::EN_STOP).collect(),
        possessive_pronouns: list(lexicon::POSSESSIVE_PRONOUNS).collect(),
        prepositions: list(lexicon::PREPOSITIONS).collect(),
        participle_adjectives: list(lexicon::PARTICIPLE_ADJECTIVES).collect(),
        subject_left: list(lexicon::SUBJECT_LEFT).collect(),
        irregular_participles: list(lexicon::IRREGULAR_PARTICIPLES).collect(),
        irregular_past: list(lexicon::IRREGULAR_PAST).collect(),
        noun_phrase_ends: list(lexicon::NOUN_PHRASE_ENDS).collect(),
        categories,
        kin,
        kin_covers,
    }
});

/// Words a capitalised word opening a sentence may be without being a name.
pub fn known_word(lower: &str) -> bool {
    let t = &*TABLES;
    t.words.contains_key(lower)
        || t.stop.contains(lower)
        || crate::memory::text::terms(lower).is_empty()
        || t.categories.contains_key(&stem(lower))
        || is_kin(&stem(lower))
}

/// The kinds of thing a term (a stem) names: "dog" is an animal, "orange" a colour and a food.
pub fn categories_of(key: &str) -> &'static [&'static str] {
    TABLES.categories.get(key).map_or(&[], Vec::as_slice)
}

pub fn is_kin(key: &str) -> bool {
    TABLES.kin.contains(key)
}

/// Whether two kin words may name the same person: equal, or one covers the other
/// ("spouse" / "wife").
pub fn kin_compatible(a: &str, b: &str) -> bool {
    a == b
        || TABLES
            .kin_covers
            .iter()
            .any(|(g, s)| (g == a && s == b) || (g == b && s == a))
}

pub fn is_animal(key: &str) -> bool {
    categories_of(key).contains(&"animal")
}
