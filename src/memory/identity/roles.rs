//! The same words in swapped roles: what a switch is from and to, what is traded for what.

use super::Reason;
use super::parse::{Class, Fact};
use super::tables::categories_of;
use super::words::DEGREE_WORDS;

/// Whether `a` and `b` give one role to other shared words: in Chinese, where a role holds for
/// the words after it (从安卓换成苹果 / 从苹果换成安卓, 把安卓换成苹果 / 把苹果换成安卓; one
/// side's words including the other's is no swap); in English, by the word right after the
/// role ("swapped cow's milk for oat milk" / "… oat milk for cow's milk", "replaced X with Y"
/// / "replaced Y with X"; English folds words into others' places, as "commute" into "work",
/// so the words after it say too little, and its "from" and "than" are read by `compare`).
pub(super) fn swapped(a: &Fact, b: &Fact) -> Option<Reason> {
    for r in a.roles.iter().filter(|r| b.roles.contains(r)) {
        let (wa, wb) = (after(a, b, r), after(b, a, r));
        let within = |x: &[&str], y: &[&str]| x.iter().all(|k| y.contains(k));
        if !wa.is_empty() && !wb.is_empty() && !within(&wa, &wb) && !within(&wb, &wa) {
            return Some(Reason::Roles(format!(
                "{r}: {} / {}",
                wa.join(" "),
                wb.join(" ")
            )));
        }
        let (ha, hb) = (heads(a, b, r), heads(b, a, r));
        if !ha.is_empty() && !hb.is_empty() && ha.iter().all(|k| !hb.contains(k)) {
            return Some(Reason::Roles(format!(
                "{r} {} / {r} {}",
                ha.join(" "),
                hb.join(" ")
            )));
        }
    }
    None
}

/// The Chinese words of `x` in role `r` that `y` has too, sorted.
fn after<'f>(x: &'f Fact, y: &Fact, r: &str) -> Vec<&'f str> {
    let mut w: Vec<&str> = x
        .terms
        .iter()
        .filter(|t| t.cjk && t.role == Some(r) && y.has(&t.key))
        .map(|t| t.key.as_str())
        .collect();
    w.sort_unstable();
    w
}

/// The words right after role `r` in `x` that `y` has too: a thing or someone, not how much
/// ("listens to most").
fn heads<'f>(x: &'f Fact, y: &Fact, r: &str) -> Vec<&'f str> {
    let mut h: Vec<&str> = x
        .heads
        .iter()
        .filter(|(role, k)| *role == r && y.has(k))
        .filter(|(_, k)| {
            !DEGREE_WORDS.contains(&k.as_str())
                && !categories_of(k).contains(&"quantity")
                && x.term(k).is_some_and(|t| t.class != Class::Light)
        })
        .map(|(_, k)| k.as_str())
        .collect();
    h.sort_unstable();
    h.dedup();
    h
}
