//! Reading a fact into what identity compares: content terms (canonical, stemmed; single
//! characters for Chinese), numbers and dates, negations and relation markers with the term
//! each binds to, tense, and who owns what.

use super::lex::{Raw, lex};
use super::tables::{TABLES, is_animal, is_kin, known_word, stem};
use super::zh;
use crate::memory::text::is_cjk;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Plain,
    /// A name: a capitalised word not opening the sentence, or a listed Chinese place.
    Entity,
    /// Another person the fact can be about (wife, boss, 朋友…).
    Kin,
    /// A light verb (have, take, make, use, go): no difference when the other side has
    /// nothing in its place ("takes the train" / "commutes by train").
    Light,
}

#[derive(Debug, Clone)]
pub struct Term {
    pub key: String,
    /// As written, for reasons.
    pub shown: String,
    pub class: Class,
    /// Written as an owner or the fact's subject ("wife" in "User's wife's birthday").
    pub subject: bool,
    /// Right after an owner: what the fact is about ("team lead" in "User's team lead …").
    pub owned: bool,
    /// Someone the user does something with or for ("hiking with friends").
    pub companion: bool,
    pub cjk: bool,
    /// The role marker ("from", "than", "to") it follows in its sentence.
    pub role: Option<&'static str>,
    /// The term written right before it with nothing between ("cat" in "cat videos", 熊 in
    /// 熊猫): the words of one compound, which may name another thing than either alone.
    pub left: Option<String>,
    /// Whose it is, when written with a possessive: "me" for "my boss", "User's boss", 我的老板;
    /// "bob" for "Bob's boss"; what was read before 的.
    pub owner: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Num {
    /// "3", "8:15", "3月", or a date word: "%month3", "%weekday2".
    pub key: String,
    pub shown: String,
    /// "one" / 一只: an article as much as a number; only a conflict counts.
    pub weak: bool,
    /// What it counts, when said right after it: "month" in "4 months", "dollar" in "$500"
    /// and "500 dollars", "yuan" in 三千块. Two units for one number are two facts.
    pub unit: Option<String>,
}

/// A negation or a relation marker, and the key of the term it binds to (the next one).
#[derive(Debug, Clone)]
pub struct Mark {
    pub what: String,
    pub shown: String,
    pub target: Option<String>,
}

#[derive(Debug, Default, Clone)]
pub struct Fact {
    pub terms: Vec<Term>,
    pub numbers: Vec<Num>,
    pub negations: Vec<Mark>,
    /// Negations that cancel out on their term: an even number of them bound to it at once
    /// ("is not vegetarian": `not` and the `!` in "vegetarian" → "does not eat meat"), so the
    /// term is affirmed, but only by litotes ("doesn't dislike" is not quite "likes").
    pub cancelled: Vec<Mark>,
    pub markers: Vec<Mark>,
    /// Said in the past tense ("lived", "was"), which "born" does not count for.
    pub past: bool,
    pub roles: Vec<&'static str>,
    /// Each role with the word right after it ("for" and "oat" in "swapped cow's milk for oat
    /// milk"): what the role is of, where `Term::role` holds for every word after it.
    pub heads: Vec<(&'static str, String)>,
    /// The terms', numbers' and relation markers' keys in the order read, repeats kept.
    pub order: Vec<String>,
    /// Said in two clauses or more ("football on Tuesday and piano on Thursday", 书法，围棋):
    /// which goes with which is in the order.
    pub clauses: bool,
}

impl Fact {
    pub fn term(&self, key: &str) -> Option<&Term> {
        self.terms.iter().find(|t| t.key == key)
    }
    pub fn has(&self, key: &str) -> bool {
        self.term(key).is_some()
    }
}

/// Roles that place a fact in time against what follows them ("after university"), or, in
/// Chinese, what comes before (大学毕业后): the same word in another of them, or in one only,
/// is another fact.
pub(super) const TIMES: &[&str] = &["after", "before", "since", "until"];

/// Tokens before binding: terms, numbers, negations, markers, roles, sentence breaks.
#[derive(Debug)]
pub(super) enum Tok {
    Term(Term),
    Num(Num),
    Neg(String),
    Mark(String, String),
    Role(&'static str),
    Break,
}

/// Reads `text`.
pub fn read(text: &str) -> Fact {
    let raws = lex(text);
    let mut toks: Vec<Tok> = Vec::new();
    let mut past = false;
    let mut born = false;
    let mut i = 0;
    // where the last term read ends (a raw index) and its key, while nothing else follows it
    let mut glue: Option<(usize, String)> = None;
    // the key of the last term read, for an owner written before 的
    let mut last_key: Option<String> = None;
    while i < raws.len() {
        let (start, first) = (i, toks.len());
        match &raws[i] {
            Raw::Gap => i += 1,
            Raw::Break => {
                toks.push(Tok::Break);
                i += 1;
            }
            Raw::Digits(d) => {
                let (mut num, next) = zh::number(d.clone(), d.clone(), &raws, i + 1);
                if num.unit.is_none() {
                    num.unit = unit_after(&raws, next);
                }
                toks.push(Tok::Num(num));
                i = next;
            }
            Raw::Cjk(_) => i = zh::read_cjk(&raws, i, &mut toks),
            Raw::Word { .. } => i = read_word(&raws, i, &mut toks, &mut past, &mut born),
        }
        glue = glue_terms(&raws, start, i, glue, &mut toks[first..]);
        if let Some(Tok::Term(t)) = toks[first..].iter_mut().find(|t| matches!(t, Tok::Term(_))) {
            t.owner = owner_before(&raws, start, last_key.as_deref());
        }
        if let Some(Tok::Term(t)) = toks[first..]
            .iter()
            .rev()
            .find(|t| matches!(t, Tok::Term(_)))
        {
            last_key = Some(t.key.clone());
        }
    }
    let mut fact = bind(toks, past && !born);
    fact.clauses = raws.iter().any(|r| match r {
        // a comma past a fronted phrase ("On Fridays, …" is one clause)
        Raw::Word {
            lower,
            after_comma,
            pos,
            ..
        } => {
            (*after_comma && *pos >= 4)
                || matches!(lower.as_str(), "and" | "but" | "while" | "whereas")
        }
        Raw::Gap | Raw::Cjk('但' | '而' | '却') => true,
        _ => false,
    });
    fact
}

/// Whose the thing written at `raws[start]` is, when a possessive stands right before it:
/// "me" for my / User's / 我的, the owner otherwise ("bob" for "Bob's boss"; for X的,
/// `last_key`, the term X was read as).
fn owner_before(raws: &[Raw], start: usize, last_key: Option<&str>) -> Option<String> {
    let person = |w: &str| -> Option<&'static str> {
        Some(match w {
            "my" | "mine" | "user" | "users" | "i" | "我" => "me",
            "his" | "他" => "he",
            "her" | "她" => "she",
            "their" | "他们" | "她们" => "they",
            "our" | "我们" => "we",
            "your" | "你" | "您" => "you",
            _ => return None,
        })
    };
    // 我老板, 我妈: mine, without 的
    if matches!(start.checked_sub(1).map(|j| &raws[j]), Some(Raw::Cjk('我'))) {
        return Some("me".into());
    }
    if start >= 2 && matches!(raws[start - 1], Raw::Cjk('的')) {
        return match &raws[start - 2] {
            Raw::Cjk('户') | Raw::Cjk('我') => Some("me".into()),
            Raw::Cjk(c) => person(&c.to_string())
                .map(str::to_string)
                .or_else(|| last_key.map(str::to_string)),
            _ => None,
        };
    }
    let Some(Raw::Word {
        lower, possessive, ..
    }) = start.checked_sub(1).map(|j| &raws[j])
    else {
        return None;
    };
    if let Some(p) = person(lower).filter(|_| *possessive || (lower != "i" && lower != "user")) {
        return Some(p.into());
    }
    possessive.then(|| lower.clone())
}

/// Marks the terms read from `raws[start..end]` (`read`) with the term right before each, when
/// nothing came between (no other word, number, negation or punctuation): "cat videos", 熊猫.
/// Returns what the next step's terms may be glued to.
fn glue_terms(
    raws: &[Raw],
    start: usize,
    end: usize,
    glue: Option<(usize, String)>,
    read: &mut [Tok],
) -> Option<(usize, String)> {
    let comma = matches!(
        raws.get(start),
        Some(Raw::Word {
            after_comma: true,
            ..
        })
    );
    let mut prev = glue
        .filter(|(at, _)| *at == start && !comma)
        .map(|(_, key)| key);
    if read.is_empty() {
        return None;
    }
    for tok in read.iter_mut() {
        match tok {
            Tok::Term(t) => {
                t.left = prev.take();
                prev = Some(t.key.clone());
            }
            _ => prev = None,
        }
    }
    prev.map(|key| (end, key))
}

fn read_word(
    raws: &[Raw],
    i: usize,
    toks: &mut Vec<Tok>,
    past: &mut bool,
    born: &mut bool,
) -> usize {
    let Raw::Word {
        lower,
        shown,
        cap,
        pos,
        possessive,
        stem: st,
        ..
    } = &raws[i]
    else {
        unreachable!()
    };
    let t = &*TABLES;
    let prev_lower = |k: usize| match i.checked_sub(k).map(|j| &raws[j]) {
        Some(Raw::Word { lower, .. }) => Some(lower.as_str()),
        _ => None,
    };
    let after_subject = prev_lower(1).is_some_and(|p| {
        TABLES.subject_left.contains(&p)
            || is_kin(&stem(p))
            || matches!(
                &raws[i - 1],
                Raw::Word { cap: true, .. }
                    | Raw::Word {
                        possessive: true,
                        ..
                    }
            )
    });
    // "got married", "got stolen" are past; "have got a dog" ("we've got") is not
    let got = lower == "got"
        && next_lower(raws, i).is_some_and(|n| {
            n.ends_with("ed")
                || n.ends_with("en")
                || matches!(
                    n,
                    "lost" | "hurt" | "sick" | "pregnant" | "caught" | "stuck"
                )
        });
    // "have taught", "has had": the present perfect, whose participle is spelled as the past
    let perfect = prev_lower(1).is_some_and(|p| matches!(p, "have" | "has"));
    if (TABLES.irregular_past.contains(&lower.as_str()) && !perfect)
        || got
        || (lower.len() > 4
            && lower.ends_with("ed")
            && !lower.ends_with("eed")
            && after_subject
            && !TABLES.participle_adjectives.contains(&lower.as_str()))
    {
        *past = true;
    }
    if lower == "born" || lower == "birthday" {
        *born = true;
    }
    // phrases first
    for (phrase, out) in t.phrases.get(st).into_iter().flatten() {
        let matched = phrase
            .iter()
            .enumerate()
            .all(|(k, p)| matches!(raws.get(i + k), Some(Raw::Word { stem, .. }) if stem == p));
        if matched {
            let shown: Vec<&str> = (0..phrase.len())
                .filter_map(|k| match &raws[i + k] {
                    Raw::Word { shown, .. } => Some(shown.as_str()),
                    _ => None,
                })
                .collect();
            let first = toks.len();
            emit(out, &shown.join(" "), owner_context(raws, i), false, toks);
            mark_owned(&mut toks[first..], owned(raws, i), companion(raws, i));
            return i + phrase.len();
        }
    }
    // "once a week" is a number; "once lived" is the past
    if lower == "once" {
        let next = next_lower(raws, i).unwrap_or("");
        let out = if matches!(
            next,
            "" | "a" | "an" | "per" | "every" | "each" | "or" | "more" | "in"
        ) {
            "#1?"
        } else {
            "@past"
        };
        emit(out, shown, false, false, toks);
        return i + 1;
    }
    // roles, unless a number follows ("over 10 years", "from 9 to 5")
    let number_next = match raws.get(i + 1) {
        Some(Raw::Digits(_)) => true,
        Some(Raw::Word { lower, .. }) => t
            .words
            .get(lower.as_str())
            .is_some_and(|o| o.starts_with('#')),
        _ => false,
    };
    let role = match lower.as_str() {
        _ if number_next => None,
        "than" | "over" | "instead" => Some("than"),
        "from" => Some("from"),
        // "prefers cats to dogs": what cats are compared against
        "to" if preferring(raws, i) => Some("than"),
        "to" | "into" => Some("to"),
        "through" | "via" => Some("through"),
        "past" => Some("past"),
        "across" => Some("across"),
        "around" => Some("around"),
        "toward" | "towards" => Some("toward"),
        // "works for Bob" / "works with Bob" / "plays against Bob"
        "with" => Some("with"),
        "for" => Some("for"),
        "against" => Some("against"),
        "out" if next_lower(raws, i) == Some("of") => Some("out"),
        "until" | "till" => Some("until"),
        // "a meeting with Tom" / "a meeting about Tom" (not "about to", nor "about 5 km")
        "about" if next_lower(raws, i) != Some("to") => Some("about"),
        // when, against another time: "met my wife at / after university"
        "after" => Some("after"),
        "before" => Some("before"),
        "since" => Some("since"),
        _ => None,
    };
    if let Some(r) = role {
        toks.push(Tok::Role(r));
        return i + 1;
    }
    // words whose meaning depends on the next one
    let next_is_to = matches!(raws.get(i + 1), Some(Raw::Word { lower, .. }) if lower == "to");
    if matches!(
        st.as_str(),
        "want" | "wish" | "hope" | "plan" | "intend" | "aim" | "consid" | "dream"
    ) {
        let out = if next_is_to || st == "consid" {
            "@want"
        } else {
            "like"
        };
        emit(out, shown, false, false, toks);
        return i + 1;
    }
    if lower == "am" || lower == "pm" {
        let after_number = matches!(i.checked_sub(1).map(|j| &raws[j]), Some(Raw::Digits(_)))
            || prev_lower(1).is_some_and(|p| t.words.get(p).is_some_and(|o| o.starts_with('#')));
        if after_number {
            emit(lower, shown, false, false, toks);
        }
        return i + 1;
    }
    // "their own business": an adjective
    if lower == "own" && prev_lower(1).is_some_and(|p| TABLES.possessive_pronouns.contains(&p)) {
        return i + 1;
    }
    if matches!(lower.as_str(), "have" | "has" | "had" | "having") {
        let next = next_lower(raws, i).unwrap_or("");
        // "has been", "has lived", "has to": an auxiliary, not possession
        if next == "to" || next.ends_with("ed") || TABLES.irregular_participles.contains(&next) {
            return i + 1;
        }
    }
    if lower == "may" && *cap && *pos > 0 {
        emit("%month5", shown, false, false, toks);
        return i + 1;
    }
    if lower == "may" && !cap {
        emit("@want", shown, false, false, toks);
        return i + 1;
    }
    // one capital letter inside a sentence (with its sign: "A+") is a name, not the article:
    // a grade ("an A"), a vitamin, a plan, a group
    let mut letter = shown.chars();
    let inside = *pos > 0 || matches!(i.checked_sub(1).map(|j| &raws[j]), Some(Raw::Cjk(_)));
    let a_letter = inside
        && shown != "I"
        && letter.next().is_some_and(|c| c.is_ascii_uppercase())
        && letter.all(|c| matches!(c, '+' | '-' | '#'));
    if !a_letter && let Some(out) = t.words.get(lower.as_str()).or_else(|| t.words.get(st)) {
        // "learns piano with a teacher": someone it is done with, not another relation
        if matches!(*out, "@teach" | "@learn") && companion(raws, i) {
            return i + 1;
        }
        let first = toks.len();
        emit(out, shown, owner_context(raws, i), *possessive, toks);
        mark_owned(&mut toks[first..], owned(raws, i), companion(raws, i));
        return i + 1;
    }
    if !a_letter
        && (TABLES.stop.contains(lower.as_str()) || crate::memory::text::terms(lower).is_empty())
    {
        return i + 1;
    }
    let entity = a_letter || (*cap && !(*pos == 0 && known_word(lower)));
    let key = if a_letter { shown.clone() } else { st.clone() };
    let kin = !a_letter && is_kin(&key);
    let class = if kin {
        Class::Kin
    } else if entity {
        Class::Entity
    } else {
        Class::Plain
    };
    let subject = *possessive || ((kin || is_animal(&key)) && owner_context(raws, i));
    toks.push(Tok::Term(Term {
        key,
        shown: shown.clone(),
        class,
        subject,
        owned: owned(raws, i),
        companion: companion(raws, i),
        cjk: false,
        role: None,
        left: None,
        owner: None,
    }));
    i + 1
}

/// The unit of a number the word at `i` names, if it does: a period ("4 months"), a
/// distance or weight ("3 km"), a currency ("500 dollars", and "$500", read "500 dollar").
/// The word is read as well, as any word.
fn unit_after(raws: &[Raw], i: usize) -> Option<String> {
    let Some(Raw::Word { lower, stem, .. }) = raws.get(i) else {
        return None;
    };
    let canonical = TABLES
        .words
        .get(lower.as_str())
        .or_else(|| TABLES.words.get(stem.as_str()))
        .map_or(stem.as_str(), |o| *o);
    let unit = super::tables::categories_of(canonical)
        .iter()
        .any(|c| matches!(*c, "period" | "currency"))
        || matches!(
            canonical,
            "km" | "kilometr"
                | "mile"
                | "kg"
                | "kilogram"
                | "lb"
                | "gram"
                | "metr"
                | "meter"
                | "cm"
                | "litr"
                | "liter"
        );
    unit.then(|| canonical.to_string())
}

/// The word after `i`, lowercased, if a word comes next.
fn next_lower(raws: &[Raw], i: usize) -> Option<&str> {
    match raws.get(i + 1) {
        Some(Raw::Word { lower, .. }) => Some(lower.as_str()),
        _ => None,
    }
}

/// Whether a word before `i` in its sentence is "prefer": "to" there compares.
fn preferring(raws: &[Raw], i: usize) -> bool {
    raws[..i]
        .iter()
        .rev()
        .take_while(|r| !matches!(r, Raw::Break))
        .any(|r| matches!(r, Raw::Word { stem, .. } if stem == "prefer"))
}

/// Whether the word at `i` follows an owner ("User's", "his") that is not itself the object of
/// a preposition ("lives with his wife"), or opens its sentence.
fn owner_context(raws: &[Raw], i: usize) -> bool {
    matches!(raws[i], Raw::Word { pos: 0, .. }) || owned_within(raws, i, 2)
}

/// Whether the word at `i` names what an owner has: right after "User's", or in the
/// noun phrase a sentence opens with ("User's twin brother's wife …", up to its verb).
fn owned(raws: &[Raw], i: usize) -> bool {
    if owned_within(raws, i, 1) {
        return true;
    }
    let mut start = i;
    while start > 0 && matches!(raws[start - 1], Raw::Word { .. }) {
        start -= 1;
    }
    let Raw::Word {
        possessive: true,
        pos: 0,
        ..
    } = &raws[start]
    else {
        return false;
    };
    i > start
        && i - start <= 3
        && raws[start + 1..=i].iter().all(|r| match r {
            Raw::Word {
                lower, after_comma, ..
            } => {
                !after_comma
                    && !TABLES.noun_phrase_ends.contains(&lower.as_str())
                    && !TABLES.words.contains_key(lower.as_str())
            }
            _ => false,
        })
}

/// Someone the user does something with or for ("hiking with friends", "cooks for his kids").
fn companion(raws: &[Raw], i: usize) -> bool {
    (1..=3).any(|back| {
        i.checked_sub(back).is_some_and(
            |j| matches!(&raws[j], Raw::Word { lower, .. } if lower == "with" || lower == "for"),
        )
    })
}

/// Whether the word at `i` follows an owner ("User's", "his") within `words`, and that owner is
/// not itself the object of a preposition ("lives with his wife").
fn owned_within(raws: &[Raw], i: usize, words: usize) -> bool {
    for back in 1..=words {
        let Some(j) = i.checked_sub(back) else { break };
        match &raws[j] {
            Raw::Word {
                lower, possessive, ..
            } if *possessive || TABLES.possessive_pronouns.contains(&lower.as_str()) => {
                let before = j.checked_sub(1).map(|k| &raws[k]);
                return !matches!(before, Some(Raw::Word { lower, .. }) if TABLES.prepositions.contains(&lower.as_str()));
            }
            Raw::Word { .. } => continue,
            _ => break,
        }
    }
    false
}

pub(super) fn mark_owned(toks: &mut [Tok], owned: bool, companion: bool) {
    if let Some(Tok::Term(t)) = toks.iter_mut().find(|t| matches!(t, Tok::Term(_))) {
        t.owned = owned;
        t.companion = companion;
    }
}

/// Turns a lexicon entry into tokens. `owner_context`: the words sit where an owner or the
/// fact's subject goes (which counts for people and animals); `possessive`: written "X's".
pub(super) fn emit(
    out: &str,
    shown: &str,
    owner_context: bool,
    possessive: bool,
    toks: &mut Vec<Tok>,
) {
    let cjk = shown.chars().any(is_cjk);
    for tok in out.split(' ') {
        match tok.as_bytes().first() {
            None => {}
            Some(b'-') => {}
            Some(b'!') => toks.push(Tok::Neg(shown.to_string())),
            Some(b'@') => toks.push(Tok::Mark(tok[1..].to_string(), shown.to_string())),
            Some(b'#') => {
                let weak = tok.ends_with('?');
                let key = tok[1..].trim_end_matches('?').to_string();
                // "twenty five": one number
                if let Some(Tok::Num(prev)) = toks.last_mut()
                    && let (Ok(p), Ok(k)) = (prev.key.parse::<u64>(), key.parse::<u64>())
                    && !prev.key.contains('.')
                {
                    if p >= 20 && p % 10 == 0 && k < 10 {
                        prev.key = (p + k).to_string();
                        prev.weak = false;
                        continue;
                    } else if k >= 100 && p < k {
                        prev.key = (p * k).to_string();
                        prev.weak = false;
                        continue;
                    }
                }
                toks.push(Tok::Num(Num {
                    key,
                    shown: shown.to_string(),
                    weak,
                    unit: None,
                }));
            }
            Some(b'%') => toks.push(Tok::Num(Num {
                key: tok.to_string(),
                shown: shown.to_string(),
                weak: false,
                unit: None,
            })),
            Some(b'<') => toks.push(Tok::Role(match &tok[1..] {
                "than" => "than",
                "from" => "from",
                "with" => "with",
                "for" => "for",
                "against" => "against",
                "through" => "through",
                _ => "to",
            })),
            Some(b'~') => toks.push(Tok::Term(Term {
                key: tok[1..].to_string(),
                shown: shown.to_string(),
                class: Class::Light,
                subject: false,
                owned: false,
                companion: false,
                cjk,
                role: None,
                left: None,
                owner: None,
            })),
            Some(b'^') => toks.push(Tok::Term(Term {
                key: stem(&tok[1..]),
                shown: shown.to_string(),
                class: Class::Entity,
                subject: possessive,
                owned: false,
                companion: false,
                cjk,
                role: None,
                left: None,
                owner: None,
            })),
            Some(_) => {
                let key = stem(tok);
                let kin = is_kin(&key);
                let owner = kin || is_animal(&key);
                toks.push(Tok::Term(Term {
                    key,
                    shown: shown.to_string(),
                    class: if kin { Class::Kin } else { Class::Plain },
                    subject: possessive || (owner && owner_context),
                    owned: false,
                    companion: false,
                    cjk,
                    role: None,
                    left: None,
                    owner: None,
                }));
            }
        }
    }
}

/// Binds negations and markers to the next term, roles to the terms that follow them.
fn bind(toks: Vec<Tok>, past: bool) -> Fact {
    let mut fact = Fact {
        past,
        ..Fact::default()
    };
    let mut negs: Vec<String> = Vec::new();
    let mut marks: Vec<(String, String)> = Vec::new();
    let mut role: Option<&'static str> = None;
    let mut head: Option<&'static str> = None;
    let flush = |negs: &mut Vec<String>,
                 marks: &mut Vec<(String, String)>,
                 fact: &mut Fact,
                 target: Option<&str>| {
        // the negations bound to one term combine: an odd number deny it, an even number
        // cancel ("not" + "vegetarian" = "does not eat meat" denied: eats meat)
        if !negs.is_empty() {
            let mark = Mark {
                what: "not".into(),
                shown: negs.join(" "),
                target: target.map(str::to_string),
            };
            if negs.len() % 2 == 1 {
                fact.negations.push(mark);
            } else {
                fact.cancelled.push(mark);
            }
            negs.clear();
        }
        for (what, shown) in marks.drain(..) {
            fact.markers.push(Mark {
                what,
                shown,
                target: target.map(str::to_string),
            });
        }
    };
    for tok in toks {
        match tok {
            Tok::Term(mut t) => {
                if t.class == Class::Light {
                    // "does not have a car" is "has no car", "doesn't go running" is "doesn't
                    // run": what is denied is what follows the light verb
                } else {
                    flush(&mut negs, &mut marks, &mut fact, Some(&t.key));
                }
                // a time the reading bound backwards (大学毕业后) holds over the role before it
                t.role = t.role.filter(|r| TIMES.contains(r)).or(role);
                if let Some(r) = head.take() {
                    fact.heads.push((r, t.key.clone()));
                }
                fact.order.push(t.key.clone());
                if !fact.has(&t.key) {
                    fact.terms.push(t);
                } else if t.class == Class::Kin
                    && t.owner
                        .as_deref()
                        .is_some_and(|o| stem(o) == t.key || o == t.shown.to_lowercase())
                {
                    // "my boss's boss", 朋友的朋友: another person than the first
                    t.key = format!("{0}'s {0}", t.key);
                    if !fact.has(&t.key) {
                        fact.terms.push(t);
                    }
                }
            }
            Tok::Num(n) => {
                fact.order.push(n.key.clone());
                fact.numbers.push(n);
            }
            Tok::Neg(s) => negs.push(s),
            Tok::Mark(w, s) => {
                // in the order too: "my wife is a teacher and I am a nurse" / "I am a teacher
                // and my wife is a nurse" differ in where the teaching stands
                fact.order.push(w.trim_start_matches('<').to_string());
                match w.strip_prefix('<') {
                    // a marker after its word (X附近): binds to the term before
                    Some(what) => fact.markers.push(Mark {
                        what: what.to_string(),
                        shown: s,
                        target: fact.terms.last().map(|t| t.key.clone()),
                    }),
                    None => marks.push((w, s)),
                }
            }
            Tok::Role(r) => {
                role = Some(r);
                head = Some(r);
                if !fact.roles.contains(&r) {
                    fact.roles.push(r);
                }
            }
            Tok::Break => {
                flush(&mut negs, &mut marks, &mut fact, None);
                role = None;
                head = None;
            }
        }
    }
    flush(&mut negs, &mut marks, &mut fact, None);
    fact
}
