//! Reading a fact into what identity compares: content terms (canonical, stemmed; single
//! characters for Chinese), numbers and dates, negations and relation markers with the term
//! each binds to, tense, and who owns what.

use super::lex::{Raw, lex};
use super::tables::{TABLES, is_animal, is_kin, stem};
use super::word::read_word;
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
    /// For a name set after another name with a comma ("Japan" in "Osaka, Japan", "Texas" in
    /// "Paris, Texas"), the key of that name: it says where the first one is.
    pub apposed: Option<String>,
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
    /// Where in `order` a denied term stands ("vegetarian on weekdays and eats meat on
    /// weekends": the first "eat").
    pub denied_at: Vec<usize>,
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
    let raws = name_as_named(lex(text));
    let mut toks: Vec<Tok> = Vec::new();
    let mut past = false;
    let mut born = false;
    let mut i = 0;
    // where the last term read ends (a raw index) and its key, while nothing else follows it
    let mut glue: Option<(usize, String)> = None;
    // the key of the last term read, for an owner written before 的
    let mut last_key: Option<String> = None;
    // the last name read and where it ends, while nothing else follows it
    let mut last_name: Option<(usize, String)> = None;
    while i < raws.len() {
        let (start, first) = (i, toks.len());
        let after_comma = matches!(
            raws[i],
            Raw::Word {
                after_comma: true,
                ..
            }
        );
        match &raws[i] {
            Raw::Gap => i += 1,
            Raw::Break => {
                toks.push(Tok::Break);
                i += 1;
            }
            Raw::Digits(d) => {
                let (mut num, next) = zh::number(d.clone(), d.clone(), &raws, i, i + 1);
                if num.unit.is_none() {
                    num.unit = unit_after(&raws, next);
                }
                zh::drop_day_part(&raws, i, &num, &mut toks);
                toks.push(Tok::Num(num));
                i = next;
            }
            Raw::Cjk(_) => i = zh::read_cjk(&raws, i, &mut toks),
            Raw::Word { .. } => i = read_word(&raws, i, &mut toks, &mut past, &mut born),
        }
        glue = glue_terms(&raws, start, i, glue, &mut toks[first..]);
        if let Some(Tok::Term(t)) = toks[first..].iter_mut().find(|t| matches!(t, Tok::Term(_))) {
            t.owner = owner_before(&raws, start, last_key.as_deref());
            if t.class == Class::Entity && after_comma {
                t.apposed = last_name
                    .as_ref()
                    .filter(|(end, _)| *end == start)
                    .map(|(_, key)| key.clone());
            }
        }
        last_name = match toks[first..] {
            [Tok::Term(ref t)] if t.class == Class::Entity => Some((i, t.key.clone())),
            _ => None,
        };
        if let Some(Tok::Term(t)) = toks[first..]
            .iter()
            .rev()
            .find(|t| matches!(t, Tok::Term(_)))
        {
            last_key = Some(t.key.clone());
        }
    }
    // "used to live", "grew up in": said of the past as much as "lived" is
    let past = past
        || toks
            .iter()
            .any(|t| matches!(t, Tok::Mark(m, _) if m == "past"));
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

/// "Rex's name is …" read as "Rex is named …": a name is what its owner is called, not a
/// thing of theirs that the fact is about, so "my wife's name is Anna" says what "my wife is
/// called Anna" and "my wife is Anna" say. Only right after a possessive ("X's") and before
/// "is" or "was": "my name is …" keeps its owner.
fn name_as_named(mut raws: Vec<Raw>) -> Vec<Raw> {
    fn lower(r: &Raw) -> Option<&str> {
        match r {
            Raw::Word { lower, .. } => Some(lower.as_str()),
            _ => None,
        }
    }
    for i in 0..raws.len().saturating_sub(2) {
        let owned = matches!(
            raws[i],
            Raw::Word {
                possessive: true,
                ..
            }
        );
        if !(owned && lower(&raws[i + 1]) == Some("name")) {
            continue;
        }
        let copula = match lower(&raws[i + 2]) {
            Some(c @ ("is" | "was")) => c.to_string(),
            _ => continue,
        };
        if let Raw::Word { possessive, .. } = &mut raws[i] {
            *possessive = false;
        }
        let pos = |r: &Raw| match r {
            Raw::Word { pos, .. } => *pos,
            _ => 0,
        };
        let (at, then) = (pos(&raws[i + 1]), pos(&raws[i + 2]));
        raws[i + 1] = super::lex::word(&copula, &copula, at, false);
        raws[i + 2] = super::lex::word("named", "named", then, false);
    }
    raws
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
                | "percent"
                | "mg"
                | "ft"
                | "inch"
                | "ml"
                | "mm"
                | "oz"
        );
    unit.then(|| canonical.to_string())
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
                apposed: None,
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
                apposed: None,
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
                    apposed: None,
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
                fact.denied_at.push(fact.order.len());
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
                // "due before Friday", "home by / until 6 pm": a time against a date, which no
                // term stands for, is a marker of its own
                if let Some(time) = role.filter(|r| TIMES.contains(r))
                    && !fact.terms.iter().any(|t| t.role == Some(time))
                {
                    marks.push((time.to_string(), time.to_string()));
                }
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
