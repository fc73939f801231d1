//! The time of day said in words, written as a clock shows it before the lexer reads it:
//! "half past six" is 6:30, "a quarter to seven" 6:45, "seven o'clock" 7, and "in the
//! morning" / "in the evening" / "at night" after a time say am or pm ("eleven at night" is
//! 11 pm, which the lexer reads as 23). Without it "I wake up at half past six" and "I wake up
//! at 6:30" read as two different times.

use std::borrow::Cow;

use crate::memory::text::{end_punctuation, unpunctuated};

/// Hours said as words.
const HOURS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
];
/// Words before a time that say it is one: "at eleven at night", "until five in the
/// afternoon" (not "two dogs at night").
const BEFORE_A_TIME: &[&str] = &[
    "at", "around", "about", "by", "until", "till", "before", "after", "from", "to", "past",
];

/// `text` with its times of day in words written as a clock shows them; as it was when it
/// has none.
pub(super) fn in_digits(text: &str) -> Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let may = [
        "past",
        "quarter",
        "clock",
        "morning",
        "afternoon",
        "evening",
        "night",
    ];
    if !may.iter().any(|w| lower.contains(w)) {
        return Cow::Borrowed(text);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let plain = |i: usize| plain(&words, i);
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut changed = false;
    let mut i = 0;
    while i < words.len() {
        let mut clock: Option<(String, usize)> = None;
        // [a] half / quarter past H, [a] quarter to H
        let at = i + usize::from(plain(i).as_deref() == Some("a"));
        let part = plain(at);
        let minutes = match (part.as_deref(), plain(at + 1).as_deref()) {
            (Some("half"), Some("past" | "after")) => Some(30),
            (Some("quarter"), Some("past" | "after")) => Some(15),
            (Some("quarter"), Some("to")) => Some(-15),
            _ => None,
        };
        if let Some(m) = minutes
            && let Some(h) = plain(at + 2).as_deref().and_then(hour)
        {
            let (h, m) = if m < 0 { (h % 12 + 11, 45) } else { (h, m) };
            let h = if h > 12 { h - 12 } else { h };
            clock = Some((format!("{h}:{m:02}"), at + 3));
        } else if let Some(h) = plain(i).as_deref().and_then(hour)
            && matches!(
                plain(i + 1).as_deref(),
                Some("o'clock" | "o’clock" | "oclock")
            )
        {
            clock = Some((h.to_string(), i + 2));
        } else if let Some(h) = plain(i)
            .as_deref()
            .and_then(hour)
            .map(|h| h.to_string())
            .or_else(|| plain(i).filter(|w| digits_time(w)))
            && i > 0
            && plain(i - 1).is_some_and(|p| BEFORE_A_TIME.contains(&p.as_str()))
            && part_of_day(&words, i + 1).is_some()
        {
            clock = Some((h, i + 1));
        }
        let Some((time, next)) = clock else {
            out.push(words[i].to_string());
            i += 1;
            continue;
        };
        changed = true;
        match part_of_day(&words, next) {
            Some((meridiem, len)) => {
                let last = words[next + len - 1];
                out.push(format!("{time} {meridiem}{}", end_punctuation(last)));
                i = next + len;
            }
            None => {
                out.push(format!("{time}{}", end_punctuation(words[next - 1])));
                i = next;
            }
        }
    }
    if changed {
        Cow::Owned(out.join(" "))
    } else {
        Cow::Borrowed(text)
    }
}

/// An hour from one to twelve, in words or digits.
fn hour(w: &str) -> Option<u32> {
    match HOURS.iter().position(|h| *h == w) {
        Some(p) => Some(p as u32 + 1),
        None => w.parse().ok().filter(|h| (1..=12).contains(h)),
    }
}

/// "9", "9:30", "11:05": an hour on the twelve-hour clock, with its minutes or without.
fn digits_time(w: &str) -> bool {
    let (h, m) = w.split_once(':').unwrap_or((w, "00"));
    hour(h).is_some() && m.len() == 2 && m.bytes().all(|b| b.is_ascii_digit())
}

/// "in the morning" (am), "in the afternoon", "in the evening", "at night" (pm) at `at`, with
/// how many words say it.
fn part_of_day(words: &[&str], at: usize) -> Option<(&'static str, usize)> {
    let plain = |i: usize| plain(words, i);
    match (
        plain(at).as_deref(),
        plain(at + 1).as_deref(),
        plain(at + 2).as_deref(),
    ) {
        (Some("in"), Some("the"), Some("morning")) => Some(("am", 3)),
        (Some("in"), Some("the"), Some("afternoon" | "evening")) => Some(("pm", 3)),
        (Some("at"), Some("night"), _) => Some(("pm", 2)),
        _ => None,
    }
}

/// Word `i` of `words` lowercase, without the punctuation it ends with.
fn plain(words: &[&str], i: usize) -> Option<String> {
    words.get(i).map(|w| unpunctuated(w).to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::in_digits;

    #[test]
    fn times_said_in_words_are_written_as_a_clock_shows_them() {
        for (said, written) in [
            ("I wake up at half past six", "I wake up at 6:30"),
            (
                "My appointment is at half past nine in the morning.",
                "My appointment is at 9:30 am.",
            ),
            (
                "User's flight leaves at a quarter to seven in the morning",
                "User's flight leaves at 6:45 am",
            ),
            ("Lunch is at quarter past twelve", "Lunch is at 12:15"),
            ("We meet at a quarter to one", "We meet at 12:45"),
            (
                "Dinner is at seven o'clock, always",
                "Dinner is at 7, always",
            ),
            (
                "User usually sleeps at about eleven at night",
                "User usually sleeps at about 11 pm",
            ),
            ("I work until 5 in the afternoon", "I work until 5 pm"),
            (
                "The class is at 9:30 in the evening",
                "The class is at 9:30 pm",
            ),
        ] {
            assert_eq!(in_digits(said), written, "{said}");
        }
    }

    #[test]
    fn words_that_are_no_time_stay_as_they_are() {
        for said in [
            "I have two dogs at night",
            "I walked past six houses",
            "User has a quarter of the shares",
            "half past the point of no return",
            "I slept 8 hours at night",
            "I like the morning",
        ] {
            assert_eq!(in_digits(said), said);
        }
    }
}
