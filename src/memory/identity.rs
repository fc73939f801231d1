//! Fact identity: whether a new fact is one already stored, or another fact that merely looks
//! like it. Similarity is not identity — "User's cat is named Rex" shares all but one word with
//! "User's dog is named Rex" — and a false merge silently loses a fact, so this is precision
//! first: only [`Verdict::Same`] may merge, and anything unclear is [`Verdict::Unsure`] (keep
//! both).
//!
//! Both facts are read into canonical content terms (synonyms folded: "resides" / "is based" →
//! `live`, 喜欢 / 爱 → `like`; English stemmed, Chinese one character at a time so a one-
//! character swap shows), numbers and dates, negations and relation markers with the term each
//! binds to, and who each person or animal is. Then the differences are read:
//!
//! - proof of another fact ([`proves_different`]): a negation on one side only of a shared term
//!   (negations bound to one term combine: "not" before "vegetarian", which reads "does not
//!   eat meat", cancels out, so "is not vegetarian" denies what "is vegetarian" says);
//!   another relation ("used to", "plans to", learning vs teaching); another person as the
//!   subject (wife, 姐姐, "Alice's"); numbers, dates or times that disagree; another name in the
//!   same place; two words of one kind swapped (dog/cat, cello/violin, morning/evening,
//!   moved/visited); opposites (comfortable/uncomfortable); swapped roles ("tea over coffee");
//! - the same fact: the same terms, or one side adding ordinary words to what both say
//!   (the more specific wording), or — with embeddings — ordinary words reworded with a high
//!   cosine;
//! - otherwise unsure: a number, name, tense or person on one side only, a word joined to a
//!   shared thing into another thing ("cat videos", 咖啡馆, 鸵鸟: [`compound`]), another owner
//!   of a shared thing ("my boss" / "Bob's boss"), "for" against "with", another time for a
//!   shared word ("at university" / "after university", 在大学 / 在大学毕业后), or words swapped with
//!   no embedding (or a low cosine) to vouch for them. Cosine never proves the same fact on its
//!   own, and never outweighs a difference above.
//!
//! Pure: text in, decision out.

mod clock;
mod compare;
mod comparison;
mod compound;
mod converse;
mod coordination;
mod denial;
mod described;
mod feeling;
mod fronted;
mod initials;
mod lex;
mod lexicon;
pub mod memo;
mod numbers;
mod order;
mod ordinal;
mod otherwise;
mod parse;
mod passive;
mod person;
mod phrasing;
mod qualifiers;
mod reason;
mod referent;
mod roles;
mod slight;
mod stance;
mod tables;
mod together;
mod units;
mod update;
mod who;
mod word;
mod words;
mod zh;
mod zh_moved;

pub use initials::initials_spelled;
pub use otherwise::said_otherwise;
pub use person::{THE_USER, first_person, user_in_first_person};
pub use reason::Reason;
pub use update::{Change, as_relation, changed, relation_terms, state_terms, with_verb_forms};

use std::borrow::Cow;

use compare::{Outcome, compare};
use parse::{Fact, read};

use super::text::is_cjk;

/// Cosine at or above which ordinary words swapped on both sides count as a rewording.
const REWORDED_COSINE: f32 = 0.80;
/// The same when exactly one word is swapped for one: that is how "dog" becomes "cat", so the
/// embedding must be surer.
const SWAP_COSINE: f32 = 0.95;
/// Below this, embeddings veto a merge the words allow (one side adds words that change
/// what it is about).
const VETO_COSINE: f32 = 0.50;
/// Fewest shared terms for "one side adds words" to mean the same fact without embeddings.
const MIN_SHARED: usize = 2;

/// The decision for a new fact against one stored fact. Only `Same` may merge.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Same(Reason),
    Different(Reason),
    Unsure(Reason),
}

/// A fact read once, to be judged against many ([`judge_read`]): reading is most of what a
/// judgement costs, and a consolidation pass meets the same stored fact again and again.
#[derive(Debug)]
pub struct Reading {
    text: String,
    fact: Fact,
    stance: stance::Stance,
    /// Whether the text has Chinese in it (see [`usable`]).
    cjk: bool,
}

impl Reading {
    /// The text read.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn new(text: &str) -> Self {
        Reading {
            text: text.to_string(),
            fact: read(text),
            stance: stance::read(text),
            cjk: text.chars().any(is_cjk),
        }
    }
}

/// The decision for a new fact against one stored fact. `cosine` is the embedding cosine when
/// embeddings are on, `None` otherwise. Only `Same` may merge.
pub fn judge(new: &str, stored: &str, cosine: Option<f32>) -> Verdict {
    judge_read(&Reading::new(new), &Reading::new(stored), cosine)
}

/// `a` and `b` said alike where one says it in a way the words' own checks would read as
/// another fact: one quantity in two units (written in the smaller, `units`), the passive with
/// its doer against the active (said in the active, `passive`), a place in a row as an ordinal
/// ("third grade" as "grade 3", `ordinal`; the lexer reads it so, the checks on the text as
/// said do not); `None` when nothing is said so. Who does what to whom, and every other check,
/// is left to the reading of the pair returned.
fn said_alike(a: &str, b: &str) -> Option<(String, String)> {
    if let Some(pair) = units::in_one_unit(a, b) {
        return Some(pair);
    }
    // "no fewer than" / "at least", "is able to" / "can", 不怎么 / 不太
    if let Some(pair) = either_side(a, b, |t, _| phrasing::in_one_form(t)) {
        return Some(pair);
    }
    // "has a husband" / "is married", "avoids pork" / "doesn't eat pork"
    if let Some(pair) = either_side(a, b, |t, _| described::in_one_form(t)) {
        return Some(pair);
    }
    // "After work User goes to the gym", "The husband of User's manager is a chef"
    if let Some(pair) = either_side(a, b, |t, _| fronted::in_place(t)) {
        return Some(pair);
    }
    if let Some(pair) = comparison::from_the_greater(a, b) {
        return Some(pair);
    }
    // "Jake bought User's bike", "prefers tea to coffee", "I am scared of spiders", "my
    // brother lives with me"
    if let Some(pair) = either_side(a, b, |t, _| converse::said_by_the_taker(t))
        .or_else(|| either_side(a, b, |t, _| comparison::preference(t)))
        .or_else(|| either_side(a, b, feeling::felt))
        .or_else(|| together::alike(a, b))
        .or_else(|| either_side(a, b, |t, _| zh_moved::in_order(t)))
    {
        return Some(pair);
    }
    if let Some(pair) = passive::zh_in_the_active(a, b) {
        return Some(pair);
    }
    match (passive::as_active(a), passive::as_active(b)) {
        (Some(active), None) => return Some((active, b.to_string())),
        (None, Some(active)) => return Some((a.to_string(), active)),
        _ => {}
    }
    match (ordinal::as_numbers(a), ordinal::as_numbers(b)) {
        (Cow::Borrowed(_), Cow::Borrowed(_)) => None,
        (a, b) => Some((a.into_owned(), b.into_owned())),
    }
}

/// The pair with each side `rewrite` (given the other side) says in other words written so,
/// when one is; else `None`.
fn either_side(
    a: &str,
    b: &str,
    rewrite: impl Fn(&str, &str) -> Option<String>,
) -> Option<(String, String)> {
    match (rewrite(a, b), rewrite(b, a)) {
        (None, None) => None,
        (x, y) => Some((
            x.unwrap_or_else(|| a.to_string()),
            y.unwrap_or_else(|| b.to_string()),
        )),
    }
}

/// [`judge`] on facts read beforehand.
pub fn judge_read(new: &Reading, stored: &Reading, cosine: Option<f32>) -> Verdict {
    // "IBM" on one side, "International Business Machines" in its place on the other: the
    // words written as their initials, and read again
    if let Some(stored) = initials::spelled_out(&new.text, &stored.text) {
        return judge_read(new, &Reading::new(&stored), cosine);
    }
    if let Some(new) = initials::spelled_out(&stored.text, &new.text) {
        return judge_read(&Reading::new(&new), stored, cosine);
    }
    // "1.70 m" / "170 cm", "I was raised by my grandmother" / "my grandmother raised me",
    // "Part II" / "Part 2": said alike, and read again
    if let Some((a, b)) = said_alike(&new.text, &stored.text) {
        return judge_read(&Reading::new(&a), &Reading::new(&b), cosine);
    }
    if copula_swapped(&new.text, &stored.text) {
        return Verdict::Same(Reason::SameWords);
    }
    if let Some(r) = unsure_by_the_words(&new.text, &stored.text) {
        return match compare(&new.fact, &stored.fact) {
            Outcome::Different(d) => Verdict::Different(d),
            _ => Verdict::Unsure(r),
        };
    }
    let cosine = cosine.filter(|_| !new.cjk && !stored.cjk);
    // another person by pronoun, roles swapped, a modal or a hedge: whatever the words
    if let Some(r) = stance::differ(&new.stance, &stored.stance) {
        return match compare(&new.fact, &stored.fact) {
            Outcome::Different(d) => Verdict::Different(d),
            _ => Verdict::Unsure(r),
        };
    }
    // "we are moving" / "we moved": under way against done
    let doing_done = |x: &Reading, y: &Reading| x.stance.progressive && y.fact.past;
    if doing_done(new, stored) || doing_done(stored, new) {
        return match compare(&new.fact, &stored.fact) {
            Outcome::Different(d) => Verdict::Different(d),
            _ => Verdict::Unsure(Reason::Tense),
        };
    }
    let compound = new.stance.compound || stored.stance.compound;
    match compare(&new.fact, &stored.fact) {
        Outcome::Different(r) => Verdict::Different(r),
        Outcome::Unsure(r) | Outcome::UnsureSwapped(r, ..) => Verdict::Unsure(r),
        Outcome::Equal => Verdict::Same(Reason::SameWords),
        // in two clauses, one denied, a word more may change which is denied
        Outcome::Extra { words, .. } if compound => {
            Verdict::Unsure(Reason::OtherWords(words, String::new()))
        }
        Outcome::Extra { words, shared } => match cosine {
            Some(c) if c < VETO_COSINE => Verdict::Unsure(Reason::LowCosine(c)),
            _ if shared >= MIN_SHARED => Verdict::Same(Reason::MoreSpecific(words)),
            Some(c) if c >= REWORDED_COSINE => Verdict::Same(Reason::Reworded(c)),
            _ => Verdict::Unsure(Reason::TooLittle),
        },
        Outcome::Swapped { a, b, single } => match cosine {
            Some(c) if vouches_for_swap(c, single) => Verdict::Same(Reason::Reworded(c)),
            Some(c) if c < VETO_COSINE => Verdict::Unsure(Reason::LowCosine(c)),
            _ => Verdict::Unsure(Reason::OtherWords(a, b)),
        },
    }
}

/// A Chinese "X是Y" split at its one 是, end punctuation trimmed: both halves, when each holds
/// Chinese.
fn copula_halves(t: &str) -> Option<(&str, &str)> {
    let t = t.trim().trim_end_matches(['。', '！', '.', '!', ' ']);
    let (x, y) = t.split_once('是')?;
    (!y.contains('是') && x.chars().any(is_cjk) && y.chars().any(is_cjk))
        .then(|| (x.trim(), y.trim()))
}

/// One Chinese "X是Y" written "Y是X": 我的牙医是李医生 / 李医生是我的牙医 say the same (the
/// reading would take 我 for the subject of one and an object of the other).
fn copula_swapped(a: &str, b: &str) -> bool {
    let halves_swapped = |a: &str, b: &str| {
        matches!((copula_halves(a), copula_halves(b)), (Some((x, y)), Some((p, q))) if x == q && y == p && x != y)
            || matches!((en_copula_halves(a), en_copula_halves(b)), (Some((x, y)), Some((p, q))) if x == q && y == p && x != y)
    };
    halves_swapped(a, b)
        || coordination::swapped(a, b)
        // "User's neighbour is also his dentist" / "User's dentist is also his neighbour"
        || match (one_of_two_roles(a), one_of_two_roles(b)) {
            (None, None) => false,
            (x, y) => halves_swapped(x.as_deref().unwrap_or(a), y.as_deref().unwrap_or(b)),
        }
}

/// `t` with "also" (也) left out and "his" / "her" before a noun (他的 / 她的) written as the one
/// person the sentence names: "User's neighbour is also his dentist" → "User's neighbour is
/// User's dentist", 用户的邻居也是他的牙医 → 用户的邻居是用户的牙医. `None` when nothing is so.
fn one_of_two_roles(t: &str) -> Option<String> {
    if t.chars().any(is_cjk) {
        let said = t.contains("也是") || t.contains("他的") || t.contains("她的");
        return (said && t.contains("用户")).then(|| {
            t.replacen("也是", "是", 1)
                .replace("他的", "用户的")
                .replace("她的", "用户的")
        });
    }
    let (words, lower) = crate::memory::text::words_lowered(t);
    if !lower
        .iter()
        .any(|w| matches!(w.as_str(), "also" | "his" | "her"))
    {
        return None;
    }
    let named = referent::the_one_named(&words)?;
    let n = words.len();
    let out: Vec<String> = words
        .iter()
        .zip(&lower)
        .enumerate()
        .filter(|(_, (_, l))| l.as_str() != "also")
        .map(|(i, (w, l))| {
            if matches!(l.as_str(), "his" | "her") && i + 1 < n {
                format!("{named}'s")
            } else {
                w.to_string()
            }
        })
        .collect();
    Some(out.join(" "))
}

/// An English "X is Y" split at its one " is ", lowercase, end punctuation trimmed, when each
/// half has a name or a possessive ("Anna's boss is Ben" / "Ben is Anna's boss"): no
/// "User is tall" / "tall is User" is written.
fn en_copula_halves(t: &str) -> Option<(String, String)> {
    let t = t.trim().trim_end_matches(['.', '!', ' ']);
    let (x, y) = t.split_once(" is ")?;
    let named = |h: &str| {
        h.contains("'s ")
            || h.split_whitespace()
                .all(|w| w.chars().next().is_some_and(char::is_uppercase))
    };
    (!y.contains(" is ") && !t.chars().any(is_cjk) && named(x) && named(y))
        .then(|| (x.trim().to_lowercase(), y.trim().to_lowercase()))
}

/// Why `a` and `b` may be two facts by their words as written, where the reading sees the
/// same: whose it is moved to the other person, a name against a plain word, a function
/// character or a part added (`slight`). Asked first by the judge and by the veto of a
/// model's claim alike.
fn unsure_by_the_words(a: &str, b: &str) -> Option<Reason> {
    if let Some(whose) = owner_swapped(a, b) {
        return Some(Reason::Roles(whose));
    }
    if let Some(name) = name_as_a_word(a, b) {
        return Some(Reason::ExtraEntity(name));
    }
    slight::differs(a, b).map(Reason::Relation)
}

/// Whose it is, moved to the other person: 张总是李总的上司 / 李总是张总的上司, 小张的教练是小陈 /
/// 小张是小陈的教练, "Lily's tutor is David" / "Lily is David's tutor" name the same two people
/// and the same role, each time of another one (the reading sees the same words). Whose it
/// is on each side, when so.
fn owner_swapped(a: &str, b: &str) -> Option<String> {
    let ((o1, role, x1), (o2, role2, x2)) = (owned(a)?, owned(b)?);
    (role == role2 && o1 == x2 && x1 == o2 && o1 != x1)
        .then(|| format!("whose {role}: {o1} / {o2}"))
}

/// A fact that someone is someone's role, as (whose, the role, who): "X是Y的Z" and "Y的Z是X",
/// "X is Y's Z" and "Y's Z is X", lowercase.
fn owned(t: &str) -> Option<(String, String, String)> {
    if t.chars().any(is_cjk) {
        let (x, y) = copula_halves(t)?;
        let cjk = |s: &str| s.chars().any(is_cjk);
        if let Some((owner, role)) = y.split_once('的').filter(|(o, r)| cjk(o) && cjk(r)) {
            return Some((owner.trim().into(), role.trim().into(), x.into()));
        }
        let (owner, role) = x.split_once('的').filter(|(o, r)| cjk(o) && cjk(r))?;
        return Some((owner.trim().into(), role.trim().into(), y.into()));
    }
    let t = t.trim().trim_end_matches(['.', '!', ' ']).to_lowercase();
    let (x, y) = t.split_once(" is ")?;
    if y.contains(" is ") {
        return None;
    }
    let one_name = |s: &str| !s.is_empty() && !s.contains(' ');
    let split = |h: &str| {
        h.split_once("'s ")
            .filter(|(o, r)| one_name(o) && !r.contains("'s "))
            .map(|(o, r)| (o.to_string(), r.to_string()))
    };
    match (split(x), split(y)) {
        (None, Some((owner, role))) if one_name(x) => Some((owner, role, x.into())),
        (Some((owner, role)), None) if one_name(y) => Some((owner, role, y.into())),
        _ => None,
    }
}

/// A word written as a name inside one sentence and as a plain word in the other: "lives
/// in Mobile, Alabama" / "lives in a mobile home in Alabama", "works at Apple" / "eats an
/// apple at work" — the name, when so. A name is capitalised past a sentence's first word
/// and is not "I" or "User".
fn name_as_a_word(a: &str, b: &str) -> Option<String> {
    // (the word lowercase, written as a name); a sentence's first word may be either, and a
    // title or a name's first part ("Doctor Kim", "Grade 3") is no name of its own
    fn words(t: &str) -> Vec<(String, bool)> {
        let raw: Vec<&str> = t.split_whitespace().collect();
        let mut out = Vec::new();
        let mut first = true;
        for (i, w) in raw.iter().enumerate() {
            let core = w.trim_matches(|c: char| !c.is_alphanumeric());
            let next_named = !w.ends_with(',')
                && raw
                    .get(i + 1)
                    .and_then(|n| n.chars().next())
                    .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
            if !core.is_empty() && core.chars().all(char::is_alphabetic) && !first && !next_named {
                let named = core.chars().next().is_some_and(char::is_uppercase)
                    && core.chars().skip(1).all(char::is_lowercase)
                    && !matches!(core, "I" | "User");
                out.push((core.to_lowercase(), named));
            }
            first = w.ends_with(['.', '!', '?', ':']);
        }
        out
    }
    // a text written all in lowercase says nothing by its case
    let cased = |t: &str| {
        t.split_whitespace()
            .any(|w| w.starts_with(char::is_uppercase))
    };
    if !cased(a) || !cased(b) {
        return None;
    }
    let (x, y) = (words(a), words(b));
    // a plain word may be the name's plural: "loves Apple" / "loves apples" (a twenty-first
    // trial), "Shell memorabilia" / "shells"
    let plural_of = |p: &str, w: &str| ["s", "es"].iter().any(|e| p.strip_suffix(e) == Some(w));
    let one = |v: &str, w: &str| v == w || plural_of(v, w) || plural_of(w, v);
    let named_here_plain_there = |p: &[(String, bool)], q: &[(String, bool)]| {
        p.iter()
            .filter(|(_, named)| *named)
            .find(|(w, _)| {
                q.iter().any(|(v, named)| one(v, w) && !named)
                    && !q.iter().any(|(v, named)| one(v, w) && *named)
            })
            .map(|(w, _)| w.clone())
    };
    named_here_plain_there(&x, &y).or_else(|| named_here_plain_there(&y, &x))
}

/// The cosine worth listening to: none where either fact is Chinese, which the small local
/// model knows little of (it scores different Chinese facts 0.97+).
fn usable(cosine: Option<f32>, a: &str, b: &str) -> Option<f32> {
    cosine.filter(|_| !a.chars().chain(b.chars()).any(is_cjk))
}

/// True when `cosine` vouches for words swapped on both sides as a rewording; one word for
/// one (`single`: how "dog" becomes "cat") needs the surer cosine.
fn vouches_for_swap(cosine: f32, single: bool) -> bool {
    cosine >= if single { SWAP_COSINE } else { REWORDED_COSINE }
}

/// Whether `new` says the opposite of `stored` and nothing else: the same words, one side
/// denying what the other affirms ("I am not vegetarian" / "I am vegetarian", 我不喝咖啡 /
/// 我喝咖啡, "comfortable" / "uncomfortable"). Both cannot hold, so the newer replaces the older. Anything more than the
/// denial ("I don't like tea" / "I like coffee"; "I don't drink coffee after 6pm" / "I
/// drink coffee") is no contradiction, and neither is a change of relation ("I used to
/// smoke" / "I don't smoke"): `None` there. A comparison of the same two with the sides
/// swapped denies too ("I earn more than my wife" / "my wife earns more than me",
/// `comparison::contradicts`). `Some` gives the denial, for the history.
pub fn denies(new: &Reading, stored: &Reading) -> Option<Reason> {
    // "I earn more than my wife" after "my wife earns more than me": the roles swapped
    if let Some(who) = comparison::contradicts(&new.text, &stored.text) {
        return Some(Reason::Roles(who));
    }
    // the words first: the same ones, one side negated (`denial`), or no denial at all
    if !denial::bare_denial(&new.text, &stored.text) {
        return None;
    }
    // a denial inside a condition ("when I'm not happy", 心情不好的时候) denies the
    // condition, not the fact: both may hold
    if [&new.text, &stored.text].iter().any(|t| conditional(t)) {
        return None;
    }
    // each side as it reads with the difference taken away: no negations, or the negated
    // form of a word ("uncomfortable") read as the word itself
    let reason = compare(&new.fact, &stored.fact);
    let affirmed = |f: &Fact| {
        let mut f = f.clone();
        match &reason {
            Outcome::Different(Reason::Negation(_)) => {
                f.negations.clear();
                f.cancelled.clear();
            }
            Outcome::Different(Reason::Opposite(x, y)) => {
                let (long, short) = if x.len() > y.len() { (x, y) } else { (y, x) };
                for t in f.terms.iter_mut().filter(|t| t.key == *long) {
                    t.key.clone_from(short);
                }
            }
            _ => {}
        }
        f
    };
    let Outcome::Different(r @ (Reason::Negation(_) | Reason::Opposite(..))) = &reason else {
        return None;
    };
    matches!(
        compare(&affirmed(&new.fact), &affirmed(&stored.fact)),
        Outcome::Equal
    )
    .then(|| r.clone())
}

/// Whether `text` says when or on what condition: a denial there is not of the fact.
fn conditional(text: &str) -> bool {
    const EN: &[&str] = &["when", "whenever", "if", "unless", "while", "until", "once"];
    const ZH: &[&str] = &[
        "时候", "的时", "如果", "要是", "假如", "除非", "一旦", "之前", "之后", "以后",
    ];
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| EN.contains(&w))
        || ZH.iter().any(|z| text.contains(z))
}

/// A difference that proves two facts different whatever anyone says: `Some(reason)` when
/// provably different.
pub fn proves_different(a: &str, b: &str) -> Option<Reason> {
    match compare(&read(a), &read(b)) {
        Outcome::Different(r) => Some(r),
        _ => None,
    }
}

/// Why a model's claim that `new` states the stored fact again may not be taken, if it may
/// not: the two are provably different, or each says something the other does not ("plays the
/// cello" / "plays the bassoon", two instruments no word table knows) with no embedding
/// (`cosine`, as for [`judge`]) to vouch for a rewording, or they may be about another owner,
/// time or role ("User's team lead prefers Slack" / "User prefers Slack", "worked" / "works").
/// A merge keeps one wording, so taking the claim there would lose the other's — a lost fact,
/// where refusing it costs at most a duplicate. One side adding words, a number, a name or a
/// person to what both say loses nothing (the more specific wording is kept), so the model
/// may decide that.
pub fn vetoes_claim(new: &str, stored: &str, cosine: Option<f32>) -> Option<Reason> {
    if copula_swapped(new, stored) {
        return None;
    }
    if let Some((a, b)) = said_alike(new, stored) {
        return vetoes_claim(&a, &b, cosine);
    }
    let outcome = compare(&read(new), &read(stored));
    if let Some(r) = unsure_by_the_words(new, stored) {
        return Some(match outcome {
            Outcome::Different(d) => d,
            _ => r,
        });
    }
    let cosine = usable(cosine, new, stored);
    let (a, b) = (stance::read(new), stance::read(stored));
    if !matches!(outcome, Outcome::Unsure(Reason::Nothing))
        && let Some(r) = stance::differ(&a, &b)
    {
        return Some(r);
    }
    match outcome {
        Outcome::Different(r) => Some(r),
        // in two clauses, one denied, a word more may change which is denied
        Outcome::Extra { words, .. } if a.compound || b.compound => {
            Some(Reason::OtherWords(words, String::new()))
        }
        Outcome::Swapped { a, b, single } => match cosine {
            Some(c) if vouches_for_swap(c, single) => None,
            _ => Some(Reason::OtherWords(a, b)),
        },
        Outcome::UnsureSwapped(_, a, b) => Some(Reason::OtherWords(a, b)),
        // one side adds a number, a name, a person: the more specific wording keeps both
        Outcome::Unsure(
            Reason::ExtraNumber(_)
            | Reason::ExtraEntity(_)
            | Reason::ExtraPerson(_)
            | Reason::Nothing,
        )
        | Outcome::Equal
        | Outcome::Extra { .. } => None,
        // whose it is, when, who does what to whom: keeping one wording would lose the other
        Outcome::Unsure(r) => Some(r),
    }
}

/// Of two wordings of the same fact, the one to keep: the more specific (more content terms);
/// on a tie the newer, `a`.
pub fn more_specific<'a>(a: &'a str, b: &'a str) -> &'a str {
    let size = |f: &Fact| f.terms.len() + f.numbers.len() + f.markers.len();
    if size(&read(b)) > size(&read(a)) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod everyday_tests;
#[cfg(test)]
mod tense_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod trial15_tests;
#[cfg(test)]
mod trial17_tests;
#[cfg(test)]
mod trial18_tests;
#[cfg(test)]
mod trial19_tests;
#[cfg(test)]
mod trial20_tests;
#[cfg(test)]
mod trial21_tests;
#[cfg(test)]
mod trial_tests;
