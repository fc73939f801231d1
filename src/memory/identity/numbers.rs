//! Numbers, times and dates of two facts compared as multisets; a number that labels against
//! one that counts.

use std::collections::HashMap;

use super::parse::{Fact, Num};

pub(super) enum NumDiff {
    None,
    Conflict(Num, Num),
    OneSide(Num),
}

/// Numbers and dates as multisets: what each side has that the other lacks. A weak number
/// ("one", 一只) counts only against another number.
pub(super) fn number_difference(a: &[Num], b: &[Num]) -> NumDiff {
    let minus = |x: &[Num], y: &[Num]| -> Vec<Num> {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for n in y {
            *left.entry(n.key.as_str()).or_default() += 1;
        }
        x.iter()
            .filter(|n| match left.get_mut(n.key.as_str()) {
                Some(k) if *k > 0 => {
                    *k -= 1;
                    false
                }
                _ => true,
            })
            .cloned()
            .collect()
    };
    let (da, db) = (minus(a, b), minus(b, a));
    let strong = |d: &[Num]| d.iter().any(|n| !n.weak);
    match (da.first(), db.first()) {
        (Some(x), Some(y)) if strong(&da) || strong(&db) => NumDiff::Conflict(x.clone(), y.clone()),
        (Some(_), Some(_)) => NumDiff::None,
        (Some(_), None) | (None, Some(_)) => {
            let d = if da.is_empty() { &db } else { &da };
            match d.iter().find(|n| !n.weak) {
                Some(n) => NumDiff::OneSide(n.clone()),
                None => NumDiff::None,
            }
        }
        (None, None) => NumDiff::None,
    }
}

/// A number both sides say, counting another thing on each: "4 months" / "4 years", "$500" /
/// "€500", 三千块 / 三千美元. The two as shown, with their units.
pub(super) fn unit_conflict(a: &[Num], b: &[Num]) -> Option<(String, String)> {
    for x in a {
        let Some(u) = &x.unit else { continue };
        let same_unit = |n: &&Num| n.key == x.key && n.unit.as_ref() == Some(u);
        if b.iter().any(|n| same_unit(&n)) {
            continue;
        }
        if let Some(y) = b
            .iter()
            .find(|n| n.key == x.key && n.unit.as_ref().is_some_and(|v| v != u))
        {
            return Some((
                format!("{} {u}", x.shown),
                format!("{} {}", y.shown, y.unit.as_deref().unwrap_or_default()),
            ));
        }
    }
    None
}

/// Words before a number that make it a label, not a count: "year 3", "grade 5", "room 12".
const LABELS: &[&str] = &[
    "year", "grade", "class", "level", "room", "floor", "size", "page", "stage", "season",
    "episode", "chapter", "platform", "gate", "seat", "row", "route", "form", "standard",
];

/// A number that counts on one side and labels on the other: "3 years old" / "in year 3",
/// "5 years old" / "in grade 5", "is 7" / "is in year 7" (not a year: "born in the year
/// 1990"). The two as shown.
pub(super) fn label_conflict(a: &Fact, b: &Fact) -> Option<(String, String)> {
    let labelled = |f: &Fact, key: &str| {
        f.order
            .windows(2)
            .any(|w| w[1] == key && LABELS.contains(&w[0].as_str()))
    };
    for (x, y) in [(a, b), (b, a)] {
        for n in &x.numbers {
            let counted = n.unit.as_ref().is_some_and(|u| {
                y.order.windows(2).any(|w| w[1] == n.key && w[0] == *u)
                    && y.numbers.iter().any(|m| m.key == n.key && m.unit.is_none())
            });
            let year = n.key.len() == 4 && n.key.starts_with(['1', '2']);
            let label = !year && labelled(y, &n.key) && !labelled(x, &n.key);
            if counted || label {
                let u = n.unit.as_deref().unwrap_or_default();
                return Some((
                    format!("{} {u}", n.shown).trim().to_string(),
                    format!("labels {}", n.shown),
                ));
            }
        }
    }
    None
}
