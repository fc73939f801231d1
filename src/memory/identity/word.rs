//! Reading one English word of a fact: the tense and birth it marks, a phrase it opens, a role
//! ("with", "for", "than"), a word whose meaning depends on its neighbours ("once", "may", "have
//! to", "am"), a lexicon word (synonyms folded, relations, numbers), or a term of its own — a
//! name, a person, an animal or an ordinary word — with whose it is and whom it is done with.

use super::lex::Raw;
use super::parse::{Class, Term, Tok, emit, mark_owned};
use super::tables::{TABLES, is_animal, is_kin, known_word};

/// A word's fields, as lexed.
struct Word<'r> {
    lower: &'r str,
    shown: &'r str,
    cap: bool,
    pos: usize,
    possessive: bool,
    stem: &'r str,
}

/// Reads the word at `raws[i]` (a [`Raw::Word`]) into `toks`, marking the fact `past` or
/// `born` where the word says so; returns the index of the next raw to read.
pub(super) fn read_word(
    raws: &[Raw],
    i: usize,
    toks: &mut Vec<Tok>,
    past: &mut bool,
    born: &mut bool,
) -> usize {
    let Some(Raw::Word {
        lower,
        shown,
        cap,
        pos,
        possessive,
        stem,
        ..
    }) = raws.get(i)
    else {
        return i + 1;
    };
    let w = Word {
        lower,
        shown,
        cap: *cap,
        pos: *pos,
        possessive: *possessive,
        stem,
    };
    mark_tense(raws, i, &w, past, born);
    if let Some(next) = phrase(raws, i, &w, toks) {
        return next;
    }
    // "home before 6", "open until 9 pm": a time against a number is a marker of its own
    if number_next(raws, i) && matches!(w.lower, "before" | "after" | "until" | "till" | "since") {
        let what = if w.lower == "till" { "until" } else { w.lower };
        toks.push(Tok::Mark(what.to_string(), w.shown.to_string()));
        return i + 1;
    }
    if let Some(r) = role(raws, i, &w) {
        toks.push(Tok::Role(r));
        return i + 1;
    }
    if let Some(next) = read_by_neighbours(raws, i, &w, toks) {
        return next;
    }
    read_term(raws, i, &w, toks);
    i + 1
}

/// The lowercase word `k` places before `i`, if a word.
fn before(raws: &[Raw], i: usize, k: usize) -> Option<&str> {
    match i.checked_sub(k).map(|j| &raws[j]) {
        Some(Raw::Word { lower, .. }) => Some(lower.as_str()),
        _ => None,
    }
}

/// Who does it, said as the word right before the verb.
const SUBJECTS: &[&str] = &["user", "he", "she", "they", "i", "we", "you"];

/// Verbs whose past is spelled as the present.
const SAME_IN_THE_PAST: &[&str] = &[
    "quit", "beat", "hit", "cut", "put", "set", "shut", "split", "spread", "upset", "bet", "let",
];

/// Marks the fact said in the past ("lived", "was", "got married"; not "have taught") or of a
/// birth ("born", "birthday").
fn mark_tense(raws: &[Raw], i: usize, w: &Word<'_>, past: &mut bool, born: &mut bool) {
    // right after who does it ("User", "I", "my father", "Anna"), not after an adverb
    let after_doer = before(raws, i, 1).is_some_and(|p| {
        let key = super::tables::stem(p);
        SUBJECTS.contains(&p)
            || is_kin(&key)
            // "grandma", "mom": kin by the word the tables read them as
            || TABLES.words.get(&key).is_some_and(|t| is_kin(t) || is_kin(&super::tables::stem(t)))
            || matches!(
                &raws[i - 1],
                Raw::Word { cap: true, .. }
                    | Raw::Word {
                        possessive: true,
                        ..
                    }
            )
    });
    let after_subject =
        after_doer || before(raws, i, 1).is_some_and(|p| TABLES.subject_left.contains(&p));
    let lower = w.lower;
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
    let perfect = before(raws, i, 1).is_some_and(|p| matches!(p, "have" | "has"));
    if (TABLES.irregular_past.contains(&lower) && !perfect)
        || got
        // "User quit smoking", "Anna beat me": a past spelled as the present, right after
        // who did it (a third person would say "quits" of now; "to quit" is no past)
        || (after_doer && SAME_IN_THE_PAST.contains(&lower))
        || (lower.len() > 4
            && lower.ends_with("ed")
            && !lower.ends_with("eed")
            && after_subject
            // "is married" / "I married my wife": the adjective after the verb, the verb
            // right after who did it
            && (after_doer || !TABLES.participle_adjectives.contains(&lower)))
    {
        *past = true;
    }
    if lower == "born" || lower == "birthday" {
        *born = true;
    }
}

/// A phrase of the lexicon opening at `i` ("used to", "based in"), read as one: the index
/// after it.
fn phrase(raws: &[Raw], i: usize, w: &Word<'_>, toks: &mut Vec<Tok>) -> Option<usize> {
    for (phrase, out) in TABLES.phrases.get(w.stem).into_iter().flatten() {
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
            return Some(i + phrase.len());
        }
    }
    None
}

/// The role a preposition gives what follows it, unless a number follows ("over 10 years",
/// "from 9 to 5").
/// Whether a number follows the word at `i` (digits, or a number word).
fn number_next(raws: &[Raw], i: usize) -> bool {
    match raws.get(i + 1) {
        Some(Raw::Digits(_)) => true,
        Some(Raw::Word { lower, .. }) => TABLES
            .words
            .get(lower.as_str())
            .is_some_and(|o| o.starts_with('#')),
        _ => false,
    }
}

fn role(raws: &[Raw], i: usize, w: &Word<'_>) -> Option<&'static str> {
    if number_next(raws, i) {
        return None;
    }
    match w.lower {
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
    }
}

/// Words whose meaning depends on the words around them: "once a week" / "once lived", "want
/// to" / "want", "5 pm" / "pm", "their own", "has to" / "has", "May" / "may". The index after
/// the word when it is one of them.
fn read_by_neighbours(raws: &[Raw], i: usize, w: &Word<'_>, toks: &mut Vec<Tok>) -> Option<usize> {
    let (lower, shown) = (w.lower, w.shown);
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
        return Some(i + 1);
    }
    let next_is_to = matches!(raws.get(i + 1), Some(Raw::Word { lower, .. }) if lower == "to");
    if matches!(
        w.stem,
        "want" | "wish" | "hope" | "plan" | "intend" | "aim" | "consid" | "dream"
    ) {
        let out = if next_is_to || w.stem == "consid" {
            "@want"
        } else {
            "like"
        };
        emit(out, shown, false, false, toks);
        return Some(i + 1);
    }
    if lower == "am" || lower == "pm" {
        let after_number = matches!(i.checked_sub(1).map(|j| &raws[j]), Some(Raw::Digits(_)))
            || before(raws, i, 1)
                .is_some_and(|p| TABLES.words.get(p).is_some_and(|o| o.starts_with('#')));
        if after_number {
            emit(lower, shown, false, false, toks);
        }
        return Some(i + 1);
    }
    // "their own business": an adjective
    if lower == "own" && before(raws, i, 1).is_some_and(|p| TABLES.possessive_pronouns.contains(&p))
    {
        return Some(i + 1);
    }
    if matches!(lower, "have" | "has" | "had" | "having") {
        let next = next_lower(raws, i).unwrap_or("");
        // "has been", "has lived", "has to": an auxiliary, not possession
        if next == "to" || next.ends_with("ed") || TABLES.irregular_participles.contains(&next) {
            return Some(i + 1);
        }
    }
    if lower == "may" && w.cap && w.pos > 0 {
        emit("%month5", shown, false, false, toks);
        return Some(i + 1);
    }
    if lower == "may" && !w.cap {
        emit("@want", shown, false, false, toks);
        return Some(i + 1);
    }
    None
}

/// A word of the lexicon (synonyms folded, relations, numbers), a stop word (nothing), or a
/// term of its own: a name, a person, an animal or an ordinary word.
fn read_term(raws: &[Raw], i: usize, w: &Word<'_>, toks: &mut Vec<Tok>) {
    let (lower, shown) = (w.lower, w.shown);
    // one capital letter inside a sentence (with its sign: "A+") is a name, not the article:
    // a grade ("an A"), a vitamin, a plan, a group
    let mut letter = shown.chars();
    let inside = w.pos > 0 || matches!(i.checked_sub(1).map(|j| &raws[j]), Some(Raw::Cjk(_)));
    let a_letter = inside
        && shown != "I"
        && letter.next().is_some_and(|c| c.is_ascii_uppercase())
        && letter.all(|c| matches!(c, '+' | '-' | '#'));
    if !a_letter && let Some(out) = TABLES.words.get(lower).or_else(|| TABLES.words.get(w.stem)) {
        // "learns piano with a teacher": someone it is done with, not another relation
        if matches!(*out, "@teach" | "@learn") && companion(raws, i) {
            return;
        }
        let first = toks.len();
        emit(out, shown, owner_context(raws, i), w.possessive, toks);
        mark_owned(&mut toks[first..], owned(raws, i), companion(raws, i));
        return;
    }
    if !a_letter && (TABLES.stop.contains(lower) || crate::memory::text::terms(lower).is_empty()) {
        return;
    }
    let entity = a_letter || (w.cap && !(w.pos == 0 && known_word(lower)));
    let key = if a_letter {
        shown.to_string()
    } else {
        w.stem.to_string()
    };
    let kin = !a_letter && is_kin(&key);
    let class = if kin {
        Class::Kin
    } else if entity {
        Class::Entity
    } else {
        Class::Plain
    };
    let subject = w.possessive || ((kin || is_animal(&key)) && owner_context(raws, i));
    toks.push(Tok::Term(Term {
        key,
        shown: shown.to_string(),
        class,
        subject,
        owned: owned(raws, i),
        companion: companion(raws, i),
        cjk: false,
        role: None,
        left: None,
        owner: None,
        apposed: None,
    }));
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
