//! The same words in another order: where the order says which goes with which (two clauses,
//! numbers, people and names, words crossing a third), another fact may be said; where a phrase
//! or a time only moved, the same one.

use super::compound::{a_thing, not_a_thing};
use super::parse::{Class, Fact, Term};
use super::reason::Reason;
use super::tables::{self, categories_of};

/// The same words in another order where the order says which goes with which: two clauses
/// ("football on Tuesday and piano on Thursday" / "… Thursday and … Tuesday"), numbers ("3
/// fillings and 1 crown" / "1 filling and 3 crowns", 五毛六 / 六毛五), names, people or animals
/// ("Alice likes Bob" / "Bob likes Alice", "our cat fears the dog" / "the dog fears our cat").
pub(super) fn differs(a: &Fact, b: &Fact) -> Option<Reason> {
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
        return Some(Reason::Roles(na.join(" ")));
    }
    if a.clauses || b.clauses {
        let (oa, ob) = (shared_order(a, b, &|_| true), shared_order(b, a, &|_| true));
        if oa != ob {
            return Some(Reason::Roles(oa.join(" ")));
        }
        // the same words, denied in the other clause: "vegetarian on weekdays and eats meat
        // on weekends" / "eats meat on weekdays and is vegetarian on weekends"
        let (da, db) = (denied(a), denied(b));
        if !da.is_empty() && da.len() == db.len() && da != db {
            return Some(Reason::Roles(format!(
                "not {}",
                da.iter()
                    .map(|(k, _)| k.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            )));
        }
    }
    // not a name and who bears it ("Bob is User's boss", "Rex is the name of User's dog"),
    // which says nothing between them
    let between = |x: &Fact| {
        !x.has("name")
            && x.terms
                .iter()
                .any(|t| t.class == Class::Plain && !tables::is_animal(&t.key))
    };
    let people = between(a) && between(b);
    let who = |t: &Term| {
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
        return Some(Reason::Roles(names(a, b).join(", ")));
    }
    crossed(a, b)
        .map(Reason::Roles)
        .or_else(|| compound_undone(a, b).map(Reason::Compound))
}

/// The denied terms of `f`, each with how many times its word came before it, sorted.
fn denied(f: &Fact) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = f
        .denied_at
        .iter()
        .filter_map(|&i| {
            let key = f.order.get(i)?;
            Some((
                key.clone(),
                f.order[..i].iter().filter(|k| *k == key).count(),
            ))
        })
        .collect();
    out.sort();
    out
}

/// Two words both say, joined into one thing on one side and the other way round or apart on
/// the other: "dog house" / "house dog", "tea cup" / "cup of tea", "car park" / "car at the
/// park", 蜜蜂 / 蜂蜜 — another thing. In English the first word names a thing (an animal, a
/// drink, a vehicle…), so a verb and its object ("drinks coffee") are no compound; in Chinese,
/// where every character is read on its own, only two characters the other way round.
fn compound_undone(a: &Fact, b: &Fact) -> Option<String> {
    for (x, y) in [(a, b), (b, a)] {
        for t in &x.terms {
            let Some(u) = t.left.as_deref().and_then(|k| x.term(k)) else {
                continue;
            };
            let (Some(yt), Some(yu)) = (y.term(&t.key), y.term(&u.key)) else {
                continue;
            };
            let joined_there = yt.left.as_deref() == Some(u.key.as_str());
            let undone = if t.cjk || u.cjk {
                yu.left.as_deref() == Some(t.key.as_str()) && !joined_there
            } else {
                let word = |w: &Term| {
                    w.class == Class::Plain
                        && !not_a_thing(&w.shown.to_lowercase())
                        && !categories_of(&w.key).iter().any(|c| {
                            matches!(*c, "quantity" | "daytime" | "period" | "timing" | "degree")
                        })
                };
                // as written on both sides ("marathon runner" / "runs marathons" is one act,
                // which the stemmer makes one word), and not someone's ("my dog's name")
                let as_written = |p: &Term, q: &Term| {
                    p.shown.to_lowercase().trim_end_matches('s')
                        == q.shown.to_lowercase().trim_end_matches('s')
                };
                word(t)
                    && word(u)
                    && a_thing(&u.key)
                    && t.owner.is_none()
                    && as_written(t, yt)
                    && as_written(u, yu)
                    && !joined_there
            };
            if undone {
                let space = if t.cjk { "" } else { " " };
                return Some(format!("{}{space}{}", u.shown, t.shown));
            }
        }
    }
    None
}

/// Two of the words both say crossing a third that stays between them: "my dog bit my son" /
/// "my son bit my dog", 我上班喝茶在家喝咖啡 / 我上班喝咖啡在家喝茶, 我只吃鱼不吃肉 / 我只吃肉不吃鱼 —
/// which goes with which has changed. A phrase moved whole ("on Sundays I go to church" / "I
/// go to church on Sundays", 周末我在家 / 我在家周末) crosses nothing: whatever it passes
/// moves the one way only; nor does a time. Each repeat of a word counts as a word of its own (the second 喝).
/// The crossing as shown, if any.
fn crossed(a: &Fact, b: &Fact) -> Option<String> {
    fn tagged(order: &[String]) -> Vec<(&str, usize)> {
        let mut seen: Vec<(&str, usize)> = Vec::with_capacity(order.len());
        for k in order {
            let nth = seen.iter().filter(|(s, _)| *s == k.as_str()).count();
            seen.push((k.as_str(), nth));
        }
        seen
    }
    let (tx, ty) = (tagged(&a.order), tagged(&b.order));
    let tx: Vec<_> = tx.iter().filter(|t| ty.contains(t)).collect();
    let ty: Vec<_> = ty.iter().filter(|t| tx.contains(t)).collect();
    // a time or a quantity moves freely ("in the evenings I play chess online" / "I play
    // online chess in the evenings"), and a name with what bears it ("Rex is the name of my
    // dog" / "my dog is named Rex")
    let moves_freely = |k: &str| {
        k.starts_with('%')
            || categories_of(k)
                .iter()
                .any(|c| matches!(*c, "daytime" | "season" | "period" | "quantity" | "timing"))
    };
    for (i, pivot) in tx.iter().enumerate() {
        let Some(j) = ty.iter().position(|t| t == pivot) else {
            continue;
        };
        if pivot.0 == "name" {
            continue;
        }
        let (before_x, before_y) = (&tx[..i], &ty[..j]);
        let went_after = (before_x.iter()).find(|t| !before_y.contains(t) && !moves_freely(t.0));
        let came_before = (before_y.iter()).find(|t| !before_x.contains(t) && !moves_freely(t.0));
        if let (Some(u), Some(v)) = (went_after, came_before) {
            let [u, pivot, v] = [u.0, pivot.0, v.0].map(|k| shown_key(a, k));
            return Some(format!("{u} {pivot} {v} / {v} {pivot} {u}"));
        }
    }
    None
}

/// A key of `f`'s order as written.
fn shown_key<'f>(f: &'f Fact, key: &'f str) -> &'f str {
    f.term(key)
        .map(|t| t.shown.as_str())
        .or_else(|| {
            f.numbers
                .iter()
                .find(|n| n.key == key)
                .map(|n| n.shown.as_str())
        })
        .or_else(|| {
            f.markers
                .iter()
                .find(|m| m.what == key)
                .map(|m| m.shown.as_str())
        })
        .unwrap_or(key)
}
