//! Two facts, read, compared: the differences between them in the order they are weighed.
//!
//! Each step reads one kind of difference. A difference that proves another fact ends the
//! comparison ([`Outcome::Different`], or unsure where it only may); a difference that proves
//! nothing is noted, and the first noted one is the answer when nothing proves anything
//! ([`Soft`]). What is left — the words each side has and the other lacks — decides between
//! the same fact, one side adding words, and words swapped.

use std::ops::ControlFlow;

use super::compound::{a_thing, compound};
use super::numbers::{self, NumDiff, number_difference, unit_conflict};
use super::order;
use super::parse::{self, Class, Fact, Term};
use super::reason::Reason;
use super::roles;
use super::tables::{self, categories_of};
use super::words::{self, DEGREE_WORDS, modifies_shared, opposite, same_word};
use crate::memory::text::is_cjk;

/// What the words of two facts say about them, before the stance and the embedding are heard.
pub(super) enum Outcome {
    Different(Reason),
    Unsure(Reason),
    /// Unsure for the reason given, and each side has words the other lacks besides.
    UnsureSwapped(Reason, String, String),
    Equal,
    /// One side adds benign `words` to the `shared` terms both have.
    Extra {
        words: String,
        shared: usize,
    },
    /// Ordinary words on each side that the other lacks.
    Swapped {
        a: String,
        b: String,
        single: bool,
    },
}

/// A step's answer: go on, or the comparison's outcome.
type Step = ControlFlow<Outcome>;

/// The first difference that does not prove anything, reported when nothing does.
#[derive(Default)]
struct Soft(Option<Reason>);

impl Soft {
    fn note(&mut self, r: Reason) {
        self.0.get_or_insert(r);
    }
}

/// The words on each side that the other lacks.
struct OneSided<'f> {
    a: Vec<&'f Term>,
    b: Vec<&'f Term>,
}

pub(super) fn compare(a: &Fact, b: &Fact) -> Outcome {
    match steps(a, b) {
        ControlFlow::Break(outcome) | ControlFlow::Continue(outcome) => outcome,
    }
}

/// The steps in order: a step that breaks decides; past the last one, what is left is weighed.
fn steps(a: &Fact, b: &Fact) -> ControlFlow<Outcome, Outcome> {
    relations_alone(a, b)?;
    let mut soft = Soft::default();
    denials(a, b, &mut soft)?;
    relation_markers(a, b, &mut soft)?;
    let only = OneSided {
        a: only_in(a, b),
        b: only_in(b, a),
    };
    people(a, b, &only, &mut soft)?;
    numbers_told(a, b, &mut soft)?;
    shared_words(a, b, &mut soft)?;
    if let Some(r) = order::differs(a, b) {
        soft.note(r);
    }
    let mut rest = OneSided {
        a: rest(&only.a),
        b: rest(&only.b),
    };
    other_words(a, b, &mut rest, &mut soft)?;
    ControlFlow::Continue(weigh(a, b, rest, soft))
}

/// Facts of nothing but what the relation tables read ("I am a teacher": @teach): the same
/// relations, denied the same way, are one fact ("I'm a teacher" twice); anything else unsure.
/// A fact of no words at all against anything is unsure.
fn relations_alone(a: &Fact, b: &Fact) -> Step {
    let bare = |f: &Fact| f.terms.is_empty() && f.numbers.is_empty();
    if bare(a) && bare(b) && !a.markers.is_empty() {
        fn whats(f: &Fact) -> Vec<&str> {
            let mut w: Vec<&str> = f.markers.iter().map(|m| m.what.as_str()).collect();
            w.sort_unstable();
            w
        }
        let denied = |f: &Fact| f.negations.len() + f.cancelled.len();
        if whats(a) == whats(b) && denied(a) == denied(b) && a.past == b.past {
            return ControlFlow::Break(Outcome::Equal);
        }
        let shown = |f: &Fact| {
            f.markers
                .iter()
                .map(|m| m.shown.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        return ControlFlow::Break(Outcome::Unsure(Reason::Relation(format!(
            "{} / {}",
            shown(a),
            shown(b)
        ))));
    }
    if bare(a) || bare(b) {
        return ControlFlow::Break(Outcome::Unsure(Reason::Nothing));
    }
    ControlFlow::Continue(())
}

/// A negation of a term both mention, on one side only; negations that cancel out ("is not
/// vegetarian": eats meat after all) on one side only.
fn denials(a: &Fact, b: &Fact, soft: &mut Soft) -> Step {
    for (x, y) in [(a, b), (b, a)] {
        for n in &x.negations {
            let bound_shared = n.target.as_deref().is_some_and(|t| y.has(t));
            let unbound = n.target.is_none();
            let mirrored = y
                .negations
                .iter()
                .any(|m| m.target == n.target || (unbound && m.target.is_none()));
            if (bound_shared || unbound) && !mirrored {
                // "hates mornings" / "is not a morning person": both deny something
                if y.negations.is_empty() {
                    return ControlFlow::Break(Outcome::Different(Reason::Negation(
                        n.shown.clone(),
                    )));
                }
                soft.note(Reason::Negation(n.shown.clone()));
            } else if !mirrored
                && n.target
                    .as_deref()
                    .is_some_and(|t| modifies_shared(x, y, t))
            {
                // "I don't have a black cat" / "I have a cat": the denial is of the shared
                // thing, as one side words it; not "one more word"
                soft.note(Reason::Negation(n.shown.clone()));
            }
        }
    }
    // against a plain denial the check above proves it; against the plain affirmation ("eats
    // meat") it is the same only by litotes ("doesn't dislike" / "likes"), so unsure
    for (x, y) in [(a, b), (b, a)] {
        for c in &x.cancelled {
            let shared = c.target.as_deref().is_none_or(|t| y.has(t));
            if shared && !y.cancelled.iter().any(|m| m.target == c.target) {
                soft.note(Reason::Negation(c.shown.clone()));
            }
        }
    }
    ControlFlow::Continue(())
}

/// Relation markers ("used to", "plans to", learning, teaching) on one side only, or bound to
/// another of the words both say.
fn relation_markers(a: &Fact, b: &Fact, soft: &mut Soft) -> Step {
    for (x, y) in [(a, b), (b, a)] {
        for m in &x.markers {
            if let Some(o) = y.markers.iter().find(|o| o.what == m.what) {
                // "the assistant manager at the store" / "the manager's assistant at the
                // store", 副经理 / 经理的助理: the deputy of another
                let shared = |k: &str| x.has(k) && y.has(k);
                let elsewhere = match (m.target.as_deref(), o.target.as_deref()) {
                    (Some(t), Some(u)) => t != u && shared(t) && shared(u),
                    // "the coach's assistant", 经理的助理: a deputy written last, of its owner
                    (Some(t), None) | (None, Some(t)) => m.what.ends_with("deputy") && shared(t),
                    (None, None) => false,
                };
                if elsewhere {
                    soft.note(Reason::Relation(m.shown.clone()));
                }
                continue;
            }
            // bound to words only this side has, it tells about them, not about the shared
            // fact ("lives in Hangzhou, near West Lake")
            // …but for an alternative: "hiking" / "hiking or swimming" is another plan
            if m.what == "or" || m.target.as_deref().is_none_or(|t| y.has(t)) {
                return ControlFlow::Break(Outcome::Different(Reason::Relation(m.shown.clone())));
            }
        }
    }
    ControlFlow::Continue(())
}

/// The terms of `x` that `y` lacks, less kin words that may name one person with one of
/// `y`'s ("spouse" / "wife").
fn only_in<'f>(x: &'f Fact, y: &Fact) -> Vec<&'f Term> {
    let covered = |t: &Term| {
        t.class == Class::Kin
            && y.terms
                .iter()
                .any(|o| o.class == Class::Kin && tables::kin_compatible(&t.key, &o.key))
    };
    x.terms
        .iter()
        .filter(|t| !y.has(&t.key) && !covered(t))
        .collect()
}

/// People and owners. People on one side only: the subject is another fact; someone the user
/// does it with or for adds to it ("hiking with friends"); anyone else leaves it unclear.
fn people(a: &Fact, b: &Fact, only: &OneSided<'_>, soft: &mut Soft) -> Step {
    fn kin<'f>(ts: &[&'f Term]) -> Vec<&'f Term> {
        ts.iter()
            .copied()
            .filter(|t| t.class == Class::Kin && !t.companion)
            .collect()
    }
    let (kin_a, kin_b) = (kin(&only.a), kin(&only.b));
    if let (Some(x), Some(_)) = (kin_a.first(), kin_b.first()) {
        return ControlFlow::Break(Outcome::Different(Reason::Subject(x.shown.clone())));
    }
    let either = || only.a.iter().chain(&only.b);
    if let Some(t) = either().find(|t| t.subject) {
        return ControlFlow::Break(Outcome::Different(Reason::Subject(t.shown.clone())));
    }
    if let Some(t) = kin_a.iter().chain(&kin_b).next() {
        soft.note(Reason::ExtraPerson(t.shown.clone()));
    }
    // someone's someone on one side only, even one it is done with: "in love with Ann" /
    // "with Ann's sister", "works for Ann's husband"
    if let Some(t) = either().find(|t| t.class == Class::Kin && t.owner.is_some()) {
        soft.note(Reason::Subject(t.shown.clone()));
    }
    // a quantity on one side, a number on the other: "every book" / "one book", 所有 / 一本
    let counted = |x: &Fact, y: &Fact, only: &[&Term]| -> Option<(String, String)> {
        if x.numbers
            .iter()
            .any(|n| !y.numbers.iter().any(|m| m.key == n.key))
        {
            return None;
        }
        let quantity = only
            .iter()
            .find(|t| categories_of(&t.key).contains(&"quantity"))?;
        let number = y
            .numbers
            .iter()
            .find(|n| !x.numbers.iter().any(|m| m.key == n.key))?;
        Some((quantity.shown.clone(), number.shown.clone()))
    };
    if let Some((q, n)) = counted(a, b, &only.a).or_else(|| counted(b, a, &only.b)) {
        soft.note(Reason::Number(q, n));
    }
    // the same people in another order: whose is whose ("my sister's husband" / "my
    // husband's sister", 我哥哥的朋友 / 我朋友的哥哥)
    fn kin_order(f: &Fact) -> Vec<&str> {
        let mut seen: Vec<&str> = Vec::new();
        for t in f.terms.iter().filter(|t| t.class == Class::Kin) {
            if !seen.contains(&t.key.as_str()) {
                seen.push(&t.key);
            }
        }
        seen
    }
    let (order_a, order_b) = (kin_order(a), kin_order(b));
    if order_a.len() >= 2 && order_a != order_b && {
        let (mut x, mut y) = (order_a.clone(), order_b.clone());
        x.sort_unstable();
        y.sort_unstable();
        x == y
    } {
        return ControlFlow::Break(Outcome::Unsure(Reason::Roles(order_a.join(" "))));
    }
    // "User's team lead prefers …" / "User prefers …": whose it is may differ
    if let Some(t) = either().find(|t| t.owned) {
        soft.note(Reason::Subject(t.shown.clone()));
    }
    // what someone or something both name has, on one side only: 我喜欢小明的车 / 我喜欢小明,
    // 车的电瓶换了 / 车换了 (in English the possessive marks it owned: "Bob's car"); not 我的 /
    // 他的, whose owner is a person the stance reads, nor what a verb qualifies (最喜欢的水果:
    // the owner is `like`)
    let possessed = |only: &[&Term], other: &Fact| {
        only.iter()
            .find(|t| {
                t.cjk
                    && t.owner.as_deref().is_some_and(|o| {
                        other.term(o).is_some_and(|owner| {
                            o.chars().any(is_cjk)
                                || matches!(owner.class, Class::Entity | Class::Kin)
                                || a_thing(o)
                        })
                    })
            })
            .map(|t| t.shown.clone())
    };
    if let Some(t) = possessed(&only.a, b).or_else(|| possessed(&only.b, a)) {
        soft.note(Reason::Subject(t));
    }
    ControlFlow::Continue(())
}

/// Numbers, times, dates; one number of two units.
fn numbers_told(a: &Fact, b: &Fact, soft: &mut Soft) -> Step {
    if let Some((x, y)) = unit_conflict(&a.numbers, &b.numbers) {
        return ControlFlow::Break(Outcome::Different(Reason::Number(x, y)));
    }
    match number_difference(&a.numbers, &b.numbers) {
        NumDiff::None => {}
        NumDiff::Conflict(x, y) if x.key.starts_with('%') || y.key.starts_with('%') => {
            return ControlFlow::Break(Outcome::Different(Reason::Date(x.shown, y.shown)));
        }
        NumDiff::Conflict(x, y) => {
            return ControlFlow::Break(Outcome::Different(Reason::Number(x.shown, y.shown)));
        }
        NumDiff::OneSide(x) => soft.note(Reason::ExtraNumber(x.shown)),
    }
    ControlFlow::Continue(())
}

/// Each word both say, said the same way: in the same role, the same name, the same owner's;
/// who does what to whom; the same tense.
fn shared_words(a: &Fact, b: &Fact, soft: &mut Soft) -> Step {
    for t in &a.terms {
        let Some(o) = b.term(&t.key) else { continue };
        if o.role != t.role {
            // "tea over coffee" / "coffee over tea", "from Lyon" / "to Lyon": what is
            // compared against, where one comes from; proof when both sides say it
            for role in ["from", "than"] {
                if t.role == Some(role) || o.role == Some(role) {
                    if a.roles.contains(&role) && b.roles.contains(&role) {
                        return ControlFlow::Break(Outcome::Different(Reason::Roles(
                            t.shown.clone(),
                        )));
                    }
                    soft.note(Reason::Roles(t.shown.clone()));
                }
            }
            // "at university" / "after university", 在大学 / 在大学毕业后: another time
            if [t.role, o.role]
                .iter()
                .any(|r| r.is_some_and(|r| parse::TIMES.contains(&r)))
            {
                soft.note(Reason::Relation(format!(
                    "{} {}",
                    t.role.or(o.role).unwrap_or_default(),
                    t.shown
                )));
            }
            // "works for Bob" / "works with Bob", "cooks for" / "cooks with his kids", "plays
            // for" / "against Arsenal", "drove to" / "through Leeds"
            if t.role.is_some() && o.role.is_some() {
                soft.note(Reason::Roles(t.shown.clone()));
            }
        }
        // an act against things the stemmer makes one word of: "afraid of flying" / "of
        // flies", "loves painting" / "paintings"
        // (not the verb a fact opens with: "User runs" / "User goes running")
        let opens = |f: &Fact| {
            (f.terms.iter())
                .find(|w| w.class != Class::Kin)
                .is_some_and(|w| w.key == t.key)
        };
        if !t.cjk
            && let Some(a_acts) = words::act_and_things(&t.shown, &o.shown)
            && !opens(if a_acts { b } else { a })
        {
            soft.note(Reason::Slot(t.shown.clone(), o.shown.clone()));
        }
        // a name is as written: "Browning" is no "Brown", whatever the stemmer makes of both
        if t.class == Class::Entity
            && o.class == Class::Entity
            && !t.cjk
            && t.shown.to_lowercase() != o.shown.to_lowercase()
        {
            soft.note(Reason::Entity(t.shown.clone(), o.shown.clone()));
        }
        // "Bob is my boss" / "I am Bob's boss", 我的老板 / 小明的老板: whose it is
        if let (Some(x), Some(y)) = (&t.owner, &o.owner)
            && x != y
        {
            soft.note(Reason::Roles(format!("whose {}: {x} / {y}", t.shown)));
        }
    }
    if let Some(r) = roles::swapped(a, b) {
        soft.note(r);
    }
    if a.past != b.past {
        soft.note(Reason::Tense);
    }
    ControlFlow::Continue(())
}

/// Of the terms one side only has, those that are not people it is about (someone it is done
/// with stays).
fn rest<'f>(only: &[&'f Term]) -> Vec<&'f Term> {
    only.iter()
        .copied()
        .filter(|t| t.class != Class::Kin || t.companion)
        .collect()
}

/// The words each side has and the other lacks: opposites, inflections the stemmer leaves
/// apart, names and words of one kind swapped, where and when on one side only, compounds;
/// light verbs dropped unless against another word in their place.
fn other_words(a: &Fact, b: &Fact, rest: &mut OneSided<'_>, soft: &mut Soft) -> Step {
    for x in &rest.a {
        for y in &rest.b {
            if let Some(r) = opposite(&x.key, &y.key) {
                return ControlFlow::Break(Outcome::Different(Reason::Opposite(
                    r.0.to_string(),
                    r.1.to_string(),
                )));
            }
        }
    }
    // inflections the stemmer leaves apart ("allergy" / "allergic", "medical" / "medicine")
    let mut i = 0;
    while i < rest.a.len() {
        let found = rest.b.iter().position(|y| same_word(rest.a[i], y));
        if let Some(j) = found {
            rest.a.remove(i);
            rest.b.remove(j);
        } else {
            i += 1;
        }
    }
    let ent_a: Vec<_> = rest.a.iter().filter(|t| t.class == Class::Entity).collect();
    let ent_b: Vec<_> = rest.b.iter().filter(|t| t.class == Class::Entity).collect();
    if let (Some(x), Some(y)) = (ent_a.first(), ent_b.first()) {
        return ControlFlow::Break(Outcome::Different(Reason::Entity(
            x.shown.clone(),
            y.shown.clone(),
        )));
    }
    for x in &rest.a {
        for y in &rest.b {
            if categories_of(&x.key)
                .iter()
                .any(|c| categories_of(&y.key).contains(c))
            {
                return ControlFlow::Break(Outcome::Different(Reason::Slot(
                    x.shown.clone(),
                    y.shown.clone(),
                )));
            }
        }
    }
    // a name set after a name both hold says where that one is ("Osaka, Japan", "Paris,
    // Texas"): the same place said more closely
    let places = |t: &Term, other: &Fact| t.apposed.as_deref().is_some_and(|k| other.has(k));
    let extra = ent_a
        .iter()
        .filter(|t| !places(t, b))
        .chain(ent_b.iter().filter(|t| !places(t, a)))
        .next();
    if let Some(t) = extra {
        soft.note(Reason::ExtraEntity(t.shown.clone()));
    }
    let either = || rest.a.iter().chain(&rest.b);
    // where, on one side only: "under the drawer" / "in the drawer", "behind the gym" (in
    // English; Chinese says 里 where English says nothing: 在公园里跑步)
    if let Some(t) = either().find(|t| !t.cjk && categories_of(&t.key).contains(&"direction")) {
        soft.note(Reason::Slot(t.shown.clone(), String::new()));
    }
    // "at 25" / "after 25": a time word before a number is read as a word; "for two years" /
    // "two years ago"
    if let Some(t) =
        either().find(|t| !t.cjk && (parse::TIMES.contains(&t.key.as_str()) || t.key == "ago"))
    {
        soft.note(Reason::Relation(t.shown.clone()));
    }
    if let Some((x, y)) = numbers::label_conflict(a, b) {
        soft.note(Reason::Number(x, y));
    }
    // "at 6:30" / "at 6:30 pm", "7点" / "晚上7点": a time of day on one side only makes the
    // number another hour, not the same one said more closely
    let shared_number = a
        .numbers
        .iter()
        .any(|n| b.numbers.iter().any(|m| m.key == n.key));
    if shared_number
        && let Some(t) = either().find(|t| {
            let c = categories_of(&t.key);
            c.contains(&"meridiem") || c.contains(&"daytime")
        })
    {
        soft.note(Reason::Slot(t.shown.clone(), String::new()));
    }
    if let Some(w) = compound(a, b, &rest.a).or_else(|| compound(b, a, &rest.b)) {
        soft.note(Reason::Compound(w));
    }
    // a light verb matters only against another word in its place
    let heavy = |ts: &[&Term]| ts.iter().any(|t| t.class != Class::Light);
    if !heavy(&rest.b) {
        rest.a.retain(|t| t.class != Class::Light);
    }
    if !heavy(&rest.a) {
        rest.b.retain(|t| t.class != Class::Light);
    }
    if !heavy(&rest.a) && !heavy(&rest.b) {
        rest.a.clear();
        rest.b.clear();
    }
    ControlFlow::Continue(())
}

fn shown(ts: &[&Term]) -> String {
    let mut words: Vec<&str> = ts.iter().map(|t| t.shown.as_str()).collect();
    words.dedup();
    words.join(" ")
}

/// The outcome from the words left on each side, once nothing proved a difference.
fn weigh(a: &Fact, b: &Fact, rest: OneSided<'_>, soft: Soft) -> Outcome {
    let OneSided {
        a: rest_a,
        b: rest_b,
    } = rest;
    if let Some(r) = soft.0 {
        // words on each side besides: merging on anyone's word would lose one side's
        if !rest_a.is_empty() && !rest_b.is_empty() {
            return Outcome::UnsureSwapped(r, shown(&rest_a), shown(&rest_b));
        }
        return Outcome::Unsure(r);
    }
    let shared = a.terms.iter().filter(|t| b.has(&t.key)).count()
        + a.markers
            .iter()
            .filter(|m| b.markers.iter().any(|o| o.what == m.what))
            .count()
        + a.numbers.len().min(b.numbers.len());
    // a degree word only one side adds that carries a negation ("I don't even like tea", 我
    // 不那么喜欢咖啡: the "not" read as bound to "even") denies what both say: not one fact
    let negated_extra = |x: &Fact, rest: &[&Term]| {
        x.negations
            .iter()
            .chain(&x.cancelled)
            .find(|n| {
                rest.iter().any(|t| {
                    n.target.as_deref() == Some(&t.key)
                        && (DEGREE_WORDS.contains(&t.key.as_str())
                            || DEGREE_WORDS.contains(&t.shown.to_lowercase().as_str()))
                })
            })
            .map(|n| n.shown.clone())
    };
    if rest_b.is_empty()
        && let Some(n) = negated_extra(a, &rest_a)
    {
        return Outcome::Unsure(Reason::Negation(n));
    }
    if rest_a.is_empty()
        && let Some(n) = negated_extra(b, &rest_b)
    {
        return Outcome::Unsure(Reason::Negation(n));
    }
    // a denial with words more says less: "I don't have caffeine after lunch" does not deny
    // caffeine, as "I don't have caffeine" does (我晚上不喝茶 / 我不喝茶, "except lamb"); a merge
    // would keep one and lose the other
    // (said with a word that denies, not a word that holds a denial: "vegetarian", "hates")
    let denied = |x: &Fact| {
        x.negations.iter().any(|n| {
            let w = n.shown.to_lowercase();
            matches!(w.as_str(), "not" | "n't" | "never" | "no" | "without")
                || ["不", "没", "别", "未", "从不"]
                    .iter()
                    .any(|z| w.starts_with(z))
        })
    };
    if denied(a) && denied(b) && rest_a.is_empty() != rest_b.is_empty() {
        let words = shown(if rest_a.is_empty() { &rest_b } else { &rest_a });
        return Outcome::Unsure(Reason::Negation(words));
    }
    match (rest_a.is_empty(), rest_b.is_empty()) {
        (true, true) => Outcome::Equal,
        (false, true) => Outcome::Extra {
            words: shown(&rest_a),
            shared,
        },
        (true, false) => Outcome::Extra {
            words: shown(&rest_b),
            shared,
        },
        (false, false) => {
            // denying one thing and saying another ("is vegan" / "is vegetarian", which reads
            // "does not eat meat"): the embedding cannot tell which way it goes
            let denies = |x: &Fact, rest: &[&Term]| {
                x.negations
                    .iter()
                    .any(|n| rest.iter().any(|t| n.target.as_deref() == Some(&t.key)))
            };
            if denies(a, &rest_a) != denies(b, &rest_b) {
                return Outcome::Unsure(Reason::OtherWords(shown(&rest_a), shown(&rest_b)));
            }
            // one word for one word, however many terms a word stands for
            let words = |ts: &[&Term]| {
                let mut w: Vec<&str> = ts.iter().map(|t| t.shown.as_str()).collect();
                w.sort_unstable();
                w.dedup();
                w.len()
            };
            Outcome::Swapped {
                a: shown(&rest_a),
                b: shown(&rest_b),
                single: words(&rest_a) == 1 && words(&rest_b) == 1,
            }
        }
    }
}
