//! One quantity in two units: "1.70 m" / "170 cm", "45 minutes" / "three quarters of an hour",
//! "5 km" / "5000 m", "2 kg" / "2000 g". The reading compares numbers as said, so the same
//! length in metres and in centimetres reads as two numbers, a proof of two facts; here the
//! quantity in the larger unit is written in the other side's smaller one (a whole number or
//! a short decimal, exactly), and the pair is read again.
//!
//! Only units of one kind with a fixed ratio (lengths, masses, volumes, durations up to
//! hours), a number right before its unit; days, weeks and months are the calendar's, which
//! the dates read. A number after a currency sign is money ("$5 m" is five million).

use crate::memory::text::spans;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Length,
    Mass,
    Volume,
    Duration,
}

/// A unit: its kind, its size in the kind's base unit, and whether "a" / "an" count one of it
/// ("an hour", not "a gram").
struct Unit {
    kind: Kind,
    size: f64,
    one_with_a: bool,
}

/// The unit a word (lowercase) names.
fn unit(word: &str) -> Option<Unit> {
    let (kind, size, one_with_a) = match word {
        "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => {
            (Kind::Length, 0.001, false)
        }
        "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => {
            (Kind::Length, 0.01, false)
        }
        "m" | "metre" | "metres" | "meter" | "meters" => (Kind::Length, 1.0, false),
        "km" | "kms" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => {
            (Kind::Length, 1000.0, false)
        }
        "mg" | "milligram" | "milligrams" => (Kind::Mass, 0.001, false),
        "g" | "gram" | "grams" => (Kind::Mass, 1.0, false),
        "kg" | "kgs" | "kilo" | "kilos" | "kilogram" | "kilograms" => (Kind::Mass, 1000.0, false),
        "ml" | "millilitre" | "millilitres" | "milliliter" | "milliliters" => {
            (Kind::Volume, 0.001, false)
        }
        "l" | "litre" | "litres" | "liter" | "liters" => (Kind::Volume, 1.0, false),
        "sec" | "secs" | "second" | "seconds" => (Kind::Duration, 1.0, false),
        "min" | "mins" | "minute" | "minutes" => (Kind::Duration, 60.0, true),
        "hr" | "hrs" | "hour" | "hours" => (Kind::Duration, 3600.0, true),
        _ => return None,
    };
    Some(Unit {
        kind,
        size,
        one_with_a,
    })
}

/// Units written onto their number ("170cm", "5km"); not "1.8m" (a million as often) nor
/// "5g" (a network).
const GLUED: &[&str] = &["mm", "cm", "km", "mg", "kg", "ml"];

/// Number words up to twelve.
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
];

/// A quantity in `text`: where it is, how much of its kind in the base unit, and its unit.
struct Quantity {
    start: usize,
    end: usize,
    base: f64,
    kind: Kind,
    size: f64,
    /// The unit as written, to write the other side's quantity in.
    unit_word: String,
}

impl Quantity {
    /// `n` of unit `u` at `span`, `word` the unit as written.
    fn of(span: std::ops::Range<usize>, n: f64, u: &Unit, word: &str) -> Quantity {
        Quantity {
            start: span.start,
            end: span.end,
            base: n * u.size,
            kind: u.kind,
            size: u.size,
            unit_word: word.to_string(),
        }
    }
}

/// The quantities of `text`, in order.
fn quantities(text: &str) -> Vec<Quantity> {
    let words: Vec<(usize, &str)> = spans(text, |c| c.is_alphanumeric() || c == '.')
        .map(|(at, w)| (at, w.trim_end_matches('.')))
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let lower: Vec<String> = words.iter().map(|(_, w)| w.to_lowercase()).collect();
    let word = |i: usize| lower.get(i).map(String::as_str);
    let end = |i: usize| words[i].0 + words[i].1.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let money = text[..words[i].0].ends_with(['$', '€', '£', '¥']);
        // "three quarters of an hour", "a quarter of an hour", "half an hour"
        let (fraction, used) = match (word(i), word(i + 1), word(i + 2), word(i + 3)) {
            (Some(n), Some("quarters"), Some("of"), Some("an")) => (number(n).map(|n| n / 4.0), 4),
            (Some("a" | "one"), Some("quarter"), Some("of"), Some("an")) => (Some(0.25), 4),
            (Some("half"), Some("an"), _, _) => (Some(0.5), 2),
            _ => (None, 0),
        };
        if let Some(f) = fraction
            && let Some(u) = word(i + used).and_then(unit)
            && u.kind == Kind::Duration
            && u.size > 60.0
        {
            out.push(Quantity::of(
                words[i].0..end(i + used),
                f,
                &u,
                words[i + used].1,
            ));
            i += used + 1;
            continue;
        }
        let w = word(i).unwrap_or_default();
        // "170cm"
        let digits = w
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        if !money
            && digits > 0
            && GLUED.contains(&&w[digits..])
            && let (Ok(n), Some(u)) = (w[..digits].parse::<f64>(), unit(&w[digits..]))
        {
            out.push(Quantity::of(
                words[i].0..end(i),
                n,
                &u,
                &words[i].1[digits..],
            ));
            i += 1;
            continue;
        }
        // "1.70 m", "45 minutes", "an hour", "an hour and a half"
        if !money
            && let Some(u) = word(i + 1).and_then(unit)
            && let Some(n) =
                number(w).or_else(|| (matches!(w, "a" | "an") && u.one_with_a).then_some(1.0))
        {
            let and_a_half = matches!(
                (word(i + 2), word(i + 3), word(i + 4)),
                (Some("and"), Some("a"), Some("half"))
            );
            let (n, last) = if and_a_half {
                (n + 0.5, i + 4)
            } else {
                (n, i + 1)
            };
            out.push(Quantity::of(words[i].0..end(last), n, &u, words[i + 1].1));
            i = last + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// Whether a word of `text` (as `quantities` splits it), or its end after a number ("170cm"),
/// names a unit: what every quantity needs.
fn names_a_unit(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.'))
        .map(|w| {
            w.trim_end_matches('.')
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        })
        .any(|w| {
            // unit words are short and ASCII: lowercased on the stack
            let mut lower = [0u8; 12];
            if w.is_empty() || w.len() > lower.len() || !w.is_ascii() {
                return false;
            }
            for (l, b) in lower.iter_mut().zip(w.bytes()) {
                *l = b.to_ascii_lowercase();
            }
            std::str::from_utf8(&lower[..w.len()])
                .ok()
                .and_then(unit)
                .is_some()
        })
}

/// A number in digits ("1.70") or a word up to twelve.
fn number(w: &str) -> Option<f64> {
    if w.bytes().all(|b| b.is_ascii_digit() || b == b'.') && w.bytes().any(|b| b.is_ascii_digit()) {
        return w.parse().ok();
    }
    NUMBER_WORDS
        .iter()
        .position(|n| *n == w)
        .map(|p| (p + 1) as f64)
}

/// `value` as a number is written: whole, or with up to three decimals.
fn written(value: f64) -> Option<String> {
    let thousandths = (value * 1000.0).round();
    if (value * 1000.0 - thousandths).abs() > 1e-6 {
        return None;
    }
    let s = format!("{:.3}", thousandths / 1000.0);
    Some(s.trim_end_matches('0').trim_end_matches('.').to_string())
}

/// The pair `(a, b)` with one quantity written in the other side's smaller unit of its kind,
/// when one side says a quantity in another unit than the other; `None` when no quantity of
/// one kind is in two units.
pub(super) fn in_one_unit(a: &str, b: &str) -> Option<(String, String)> {
    // each judgement of a pair passes here: a side naming no unit holds no quantity, and is
    // told without an allocation
    if !names_a_unit(a) || !names_a_unit(b) {
        return None;
    }
    let qa = quantities(a);
    if qa.is_empty() {
        return None;
    }
    let qb = quantities(b);
    for x in &qa {
        for y in &qb {
            if x.kind != y.kind || x.size == y.size {
                continue;
            }
            // the larger unit is written in the smaller
            let (text, q, unit_word, size) = if x.size > y.size {
                (a, x, &y.unit_word, y.size)
            } else {
                (b, y, &x.unit_word, x.size)
            };
            let value = written(q.base / size)?;
            let rewritten = format!("{}{value} {unit_word}{}", &text[..q.start], &text[q.end..]);
            return Some(if x.size > y.size {
                (rewritten, b.to_string())
            } else {
                (a.to_string(), rewritten)
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::in_one_unit;

    fn one(a: &str, b: &str) -> Option<(String, String)> {
        in_one_unit(a, b)
    }

    #[test]
    fn the_larger_unit_is_written_in_the_smaller() {
        for (a, b, a2, b2) in [
            (
                "User is 1.70 m tall",
                "User is 170 cm tall",
                "User is 170 cm tall",
                "User is 170 cm tall",
            ),
            (
                "User's commute takes 45 minutes",
                "User's commute takes three quarters of an hour",
                "User's commute takes 45 minutes",
                "User's commute takes 45 minutes",
            ),
            (
                "User runs 5km a day",
                "User runs 5000 metres a day",
                "User runs 5000 metres a day",
                "User runs 5000 metres a day",
            ),
            (
                "The movie lasts an hour and a half.",
                "The movie lasts 90 minutes.",
                "The movie lasts 90 minutes.",
                "The movie lasts 90 minutes.",
            ),
            (
                "User naps for half an hour",
                "User naps for 30 mins",
                "User naps for 30 mins",
                "User naps for 30 mins",
            ),
            (
                "The baby weighed 3.2 kg",
                "The baby weighed 3200 grams",
                "The baby weighed 3200 grams",
                "The baby weighed 3200 grams",
            ),
        ] {
            assert_eq!(
                one(a, b),
                Some((a2.to_string(), b2.to_string())),
                "{a} / {b}"
            );
        }
    }

    #[test]
    fn units_of_one_size_money_and_other_kinds_are_left() {
        for (a, b) in [
            ("User is 170 cm tall", "User is 180 cm tall"),
            ("User runs 5 km", "User weighs 5 kg"),
            ("User earned $1.5 m", "User earned 1500 km"),
            ("User sleeps 8 hours", "User sleeps 8 hours a night"),
            ("Wait a second", "It takes an hour"),
            ("User has a 5G phone", "User has a 5000 g phone"),
        ] {
            assert_eq!(one(a, b), None, "{a} / {b}");
        }
    }
}
