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

mod compound;
mod denial;
mod lex;
mod lexicon;
mod numbers;
mod parse;
mod reason;
mod roles;
mod stance;
mod tables;
mod words;
mod zh;

pub use reason::Reason;

use compound::compound;
use numbers::{NumDiff, number_difference, unit_conflict};
use parse::{Class, Fact, read};
use tables::categories_of;
use words::{DEGREE_WORDS, modifies_shared, opposite, same_word};

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

/// [`judge`] on facts read beforehand.
pub fn judge_read(new: &Reading, stored: &Reading, cosine: Option<f32>) -> Verdict {
    if copula_swapped(&new.text, &stored.text) {
        return Verdict::Same(Reason::SameWords);
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

/// One Chinese "X是Y" written "Y是X": 我的牙医是李医生 / 李医生是我的牙医 say the same (the
/// reading would take 我 for the subject of one and an object of the other).
fn copula_swapped(a: &str, b: &str) -> bool {
    let halves = |t: &str| -> Option<(String, String)> {
        let t = t.trim().trim_end_matches(['。', '！', '.', '!', ' ']);
        let (x, y) = t.split_once('是')?;
        (!y.contains('是') && x.chars().any(is_cjk) && y.chars().any(is_cjk))
            .then(|| (x.trim().to_string(), y.trim().to_string()))
    };
    matches!((halves(a), halves(b)), (Some((x, y)), Some((p, q))) if x == q && y == p && x != y)
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
/// smoke" / "I don't smoke"): `None` there. `Some` gives the denial, for the history.
pub fn denies(new: &Reading, stored: &Reading) -> Option<Reason> {
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
    let cosine = usable(cosine, new, stored);
    let outcome = compare(&read(new), &read(stored));
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

enum Outcome {
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

fn compare(a: &Fact, b: &Fact) -> Outcome {
    let bare = |f: &Fact| f.terms.is_empty() && f.numbers.is_empty();
    if bare(a) && bare(b) && !a.markers.is_empty() {
        // only what the relation tables read ("I am a teacher": @teach): the same relations,
        // denied the same way, are one fact ("I'm a teacher" twice); anything else unsure
        fn whats(f: &Fact) -> Vec<&str> {
            let mut w: Vec<&str> = f.markers.iter().map(|m| m.what.as_str()).collect();
            w.sort_unstable();
            w
        }
        let denied = |f: &Fact| f.negations.len() + f.cancelled.len();
        if whats(a) == whats(b) && denied(a) == denied(b) && a.past == b.past {
            return Outcome::Equal;
        }
        let shown = |f: &Fact| {
            f.markers
                .iter()
                .map(|m| m.shown.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        return Outcome::Unsure(Reason::Relation(format!("{} / {}", shown(a), shown(b))));
    }
    if bare(a) || bare(b) {
        return Outcome::Unsure(Reason::Nothing);
    }
    // The first difference that does not prove anything, reported when nothing does.
    let mut soft: Option<Reason> = None;
    let mut note = |r: Reason| {
        soft.get_or_insert(r);
    };

    // negation of a term both mention, on one side only
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
                    return Outcome::Different(Reason::Negation(n.shown.clone()));
                }
                note(Reason::Negation(n.shown.clone()));
            } else if !mirrored
                && n.target
                    .as_deref()
                    .is_some_and(|t| modifies_shared(x, y, t))
            {
                // "I don't have a black cat" / "I have a cat": the denial is of the shared
                // thing, as one side words it; not "one more word"
                note(Reason::Negation(n.shown.clone()));
            }
        }
    }
    // negations that cancel out ("is not vegetarian": eats meat after all) on one side only:
    // against a plain denial the check above proves it; against the plain affirmation ("eats
    // meat") it is the same only by litotes ("doesn't dislike" / "likes"), so unsure
    for (x, y) in [(a, b), (b, a)] {
        for c in &x.cancelled {
            let shared = c.target.as_deref().is_none_or(|t| y.has(t));
            if shared && !y.cancelled.iter().any(|m| m.target == c.target) {
                note(Reason::Negation(c.shown.clone()));
            }
        }
    }
    // relation markers: "used to", "plans to", learning, teaching
    for (x, y) in [(a, b), (b, a)] {
        for m in &x.markers {
            if y.markers.iter().any(|o| o.what == m.what) {
                continue;
            }
            // bound to words only this side has, it tells about them, not about the shared
            // fact ("lives in Hangzhou, near West Lake")
            if m.target.as_deref().is_none_or(|t| y.has(t)) {
                return Outcome::Different(Reason::Relation(m.shown.clone()));
            }
        }
    }
    // people and owners
    let only = |x: &Fact, y: &Fact| -> Vec<parse::Term> {
        x.terms.iter().filter(|t| !y.has(&t.key)).cloned().collect()
    };
    let (mut only_a, mut only_b) = (only(a, b), only(b, a));
    // kin words that may name one person ("spouse" / "wife") are no difference
    let covered = |x: &parse::Term, other: &Fact| {
        x.class == Class::Kin
            && other
                .terms
                .iter()
                .any(|y| y.class == Class::Kin && tables::kin_compatible(&x.key, &y.key))
    };
    only_a.retain(|x| !covered(x, b));
    only_b.retain(|x| !covered(x, a));
    // people on one side only: the subject is another fact; someone the user does it with or
    // for adds to it ("hiking with friends"); anyone else leaves it unclear
    let kin_a: Vec<_> = only_a
        .iter()
        .filter(|t| t.class == Class::Kin && !t.companion)
        .collect();
    let kin_b: Vec<_> = only_b
        .iter()
        .filter(|t| t.class == Class::Kin && !t.companion)
        .collect();
    if let (Some(x), Some(_)) = (kin_a.first(), kin_b.first()) {
        return Outcome::Different(Reason::Subject(x.shown.clone()));
    }
    for t in only_a.iter().chain(&only_b) {
        if t.subject {
            return Outcome::Different(Reason::Subject(t.shown.clone()));
        }
    }
    if let Some(t) = kin_a.iter().chain(&kin_b).next() {
        note(Reason::ExtraPerson(t.shown.clone()));
    }
    // someone's someone on one side only, even one it is done with: "in love with Ann" /
    // "with Ann's sister", "works for Ann's husband"
    if let Some(t) = only_a
        .iter()
        .chain(&only_b)
        .find(|t| t.class == Class::Kin && t.owner.is_some())
    {
        note(Reason::Subject(t.shown.clone()));
    }
    // a quantity on one side, a number on the other: "every book" / "one book", 所有 / 一本
    let counted = |x: &Fact, y: &Fact, only: &[parse::Term]| -> Option<(String, String)> {
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
    if let Some((q, n)) = counted(a, b, &only_a).or_else(|| counted(b, a, &only_b)) {
        note(Reason::Number(q, n));
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
        return Outcome::Unsure(Reason::Roles(order_a.join(" ")));
    }
    // "User's team lead prefers …" / "User prefers …": whose it is may differ
    if let Some(t) = only_a.iter().chain(&only_b).find(|t| t.owned) {
        note(Reason::Subject(t.shown.clone()));
    }
    // numbers, times, dates; one number of two units
    if let Some((x, y)) = unit_conflict(&a.numbers, &b.numbers) {
        return Outcome::Different(Reason::Number(x, y));
    }
    match number_difference(&a.numbers, &b.numbers) {
        NumDiff::None => {}
        NumDiff::Conflict(x, y) if x.key.starts_with('%') || y.key.starts_with('%') => {
            return Outcome::Different(Reason::Date(x.shown, y.shown));
        }
        NumDiff::Conflict(x, y) => return Outcome::Different(Reason::Number(x.shown, y.shown)),
        NumDiff::OneSide(x) => note(Reason::ExtraNumber(x.shown)),
    }
    // each word both say, said the same way: in the same role, the same name, the same
    // owner's
    for t in &a.terms {
        let Some(o) = b.term(&t.key) else { continue };
        if o.role != t.role {
            // "tea over coffee" / "coffee over tea", "from Lyon" / "to Lyon": what is
            // compared against, where one comes from; proof when both sides say it
            for role in ["from", "than"] {
                if t.role == Some(role) || o.role == Some(role) {
                    if a.roles.contains(&role) && b.roles.contains(&role) {
                        return Outcome::Different(Reason::Roles(t.shown.clone()));
                    }
                    note(Reason::Roles(t.shown.clone()));
                }
            }
            // "at university" / "after university", 在大学 / 在大学毕业后: another time
            if [t.role, o.role]
                .iter()
                .any(|r| r.is_some_and(|r| parse::TIMES.contains(&r)))
            {
                note(Reason::Relation(format!(
                    "{} {}",
                    t.role.or(o.role).unwrap_or_default(),
                    t.shown
                )));
            }
            // "works for Bob" / "works with Bob", "cooks for" / "cooks with his kids", "plays
            // for" / "against Arsenal", "drove to" / "through Leeds"
            if t.role.is_some() && o.role.is_some() {
                note(Reason::Roles(t.shown.clone()));
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
            note(Reason::Slot(t.shown.clone(), o.shown.clone()));
        }
        // a name is as written: "Browning" is no "Brown", whatever the stemmer makes of both
        if t.class == Class::Entity
            && o.class == Class::Entity
            && !t.cjk
            && t.shown.to_lowercase() != o.shown.to_lowercase()
        {
            note(Reason::Entity(t.shown.clone(), o.shown.clone()));
        }
        // "Bob is my boss" / "I am Bob's boss", 我的老板 / 小明的老板: whose it is
        if let (Some(x), Some(y)) = (&t.owner, &o.owner)
            && x != y
        {
            note(Reason::Roles(format!("whose {}: {x} / {y}", t.shown)));
        }
    }
    if let Some(r) = roles::swapped(a, b) {
        note(r);
    }
    if a.past != b.past {
        note(Reason::Tense);
    }
    // the same words in another order where the order says which goes with which: two
    // clauses ("football on Tuesday and piano on Thursday" / "… Thursday and … Tuesday"), or
    // numbers ("3 fillings and 1 crown" / "1 filling and 3 crowns", 五毛六 / 六毛五)
    let shared_order = |x: &Fact, y: &Fact, of: &dyn Fn(&str) -> bool| -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for k in x.order.iter().filter(|k| of(k) && y.order.contains(k)) {
            if !seen.contains(k) {
                seen.push(k.clone());
            }
        }
        seen
    };
    // numerals, not dates ("12 October" / "October 12")
    let numeric =
        |k: &str| !k.starts_with('%') && a.numbers.iter().chain(&b.numbers).any(|n| n.key == k);
    let (na, nb) = (shared_order(a, b, &numeric), shared_order(b, a, &numeric));
    if na.len() >= 2 && na != nb {
        note(Reason::Roles(na.join(" ")));
    }
    if a.clauses || b.clauses {
        let (oa, ob) = (shared_order(a, b, &|_| true), shared_order(b, a, &|_| true));
        if oa != ob {
            note(Reason::Roles(oa.join(" ")));
        }
    }
    // "Alice likes Bob" / "Bob likes Alice", "my wife reports to Hannah" / "Hannah reports to
    // my wife", "our cat fears the dog" / "the dog fears our cat": the same names, people or
    // animals in another order
    // animals in another order; not a name and who bears it ("Bob is User's boss", "Rex is
    // the name of User's dog"), which says nothing between them
    let between = |x: &Fact| {
        !x.has("name")
            && x.terms
                .iter()
                .any(|t| t.class == Class::Plain && !tables::is_animal(&t.key))
    };
    let people = between(a) && between(b);
    let who = |t: &parse::Term| {
        t.class == Class::Entity || (people && (t.class == Class::Kin || tables::is_animal(&t.key)))
    };
    let names = |x: &Fact, y: &Fact| -> Vec<String> {
        x.terms
            .iter()
            .filter(|t| y.term(&t.key).is_some_and(|o| who(o) || who(t)))
            .map(|t| t.key.clone())
            .collect()
    };
    if names(a, b) != names(b, a) {
        note(Reason::Roles(names(a, b).join(", ")));
    }

    // the words each side has and the other lacks
    fn rest(only: &[parse::Term]) -> Vec<&parse::Term> {
        only.iter()
            .filter(|t| t.class != Class::Kin || t.companion)
            .collect()
    }
    let (mut rest_a, mut rest_b) = (rest(&only_a), rest(&only_b));
    for x in &rest_a {
        for y in &rest_b {
            if let Some(r) = opposite(&x.key, &y.key) {
                return Outcome::Different(Reason::Opposite(r.0.to_string(), r.1.to_string()));
            }
        }
    }
    // inflections the stemmer leaves apart ("allergy" / "allergic", "medical" / "medicine")
    let mut i = 0;
    while i < rest_a.len() {
        let found = rest_b.iter().position(|y| same_word(rest_a[i], y));
        if let Some(j) = found {
            rest_a.remove(i);
            rest_b.remove(j);
        } else {
            i += 1;
        }
    }
    let ent_a: Vec<_> = rest_a.iter().filter(|t| t.class == Class::Entity).collect();
    let ent_b: Vec<_> = rest_b.iter().filter(|t| t.class == Class::Entity).collect();
    if let (Some(x), Some(y)) = (ent_a.first(), ent_b.first()) {
        return Outcome::Different(Reason::Entity(x.shown.clone(), y.shown.clone()));
    }
    for x in &rest_a {
        for y in &rest_b {
            if categories_of(&x.key)
                .iter()
                .any(|c| categories_of(&y.key).contains(c))
            {
                return Outcome::Different(Reason::Slot(x.shown.clone(), y.shown.clone()));
            }
        }
    }
    if let Some(t) = ent_a.iter().chain(&ent_b).next() {
        note(Reason::ExtraEntity(t.shown.clone()));
    }
    // where, on one side only: "under the drawer" / "in the drawer", "behind the gym" (in
    // English; Chinese says 里 where English says nothing: 在公园里跑步)
    let place = |t: &&&parse::Term| !t.cjk && categories_of(&t.key).contains(&"direction");
    if let Some(t) = rest_a
        .iter()
        .find(place)
        .or_else(|| rest_b.iter().find(place))
    {
        note(Reason::Slot(t.shown.clone(), String::new()));
    }
    // "at 25" / "after 25": a time word before a number is read as a word; "for two years" /
    // "two years ago"
    if let Some(t) = rest_a
        .iter()
        .chain(&rest_b)
        .find(|t| !t.cjk && (parse::TIMES.contains(&t.key.as_str()) || t.key == "ago"))
    {
        note(Reason::Relation(t.shown.clone()));
    }
    if let Some((x, y)) = numbers::label_conflict(a, b) {
        note(Reason::Number(x, y));
    }
    // "at 6:30" / "at 6:30 pm", "7点" / "晚上7点": a time of day on one side only makes the
    // number another hour, not the same one said more closely
    let shared_number = a
        .numbers
        .iter()
        .any(|n| b.numbers.iter().any(|m| m.key == n.key));
    if shared_number
        && let Some(t) = rest_a.iter().chain(&rest_b).find(|t| {
            let c = categories_of(&t.key);
            c.contains(&"meridiem") || c.contains(&"daytime")
        })
    {
        note(Reason::Slot(t.shown.clone(), String::new()));
    }
    if let Some(w) = compound(a, b, &rest_a).or_else(|| compound(b, a, &rest_b)) {
        note(Reason::Compound(w));
    }
    // a light verb matters only against another word in its place
    let heavy = |ts: &[&parse::Term]| ts.iter().any(|t| t.class != Class::Light);
    if !heavy(&rest_b) {
        rest_a.retain(|t| t.class != Class::Light);
    }
    if !heavy(&rest_a) {
        rest_b.retain(|t| t.class != Class::Light);
    }
    if !heavy(&rest_a) && !heavy(&rest_b) {
        rest_a.clear();
        rest_b.clear();
    }
    let shown = |ts: &[&parse::Term]| {
        let mut words: Vec<&str> = ts.iter().map(|t| t.shown.as_str()).collect();
        words.dedup();
        words.join(" ")
    };
    if let Some(r) = soft {
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
    let negated_extra = |x: &Fact, rest: &[&parse::Term]| {
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
            let denies = |x: &Fact, rest: &[&parse::Term]| {
                x.negations
                    .iter()
                    .any(|n| rest.iter().any(|t| n.target.as_deref() == Some(&t.key)))
            };
            if denies(a, &rest_a) != denies(b, &rest_b) {
                return Outcome::Unsure(Reason::OtherWords(shown(&rest_a), shown(&rest_b)));
            }
            // one word for one word, however many terms a word stands for
            let words = |ts: &[&parse::Term]| {
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

#[cfg(test)]
mod tests;
#[cfg(test)]
mod trial_tests;
