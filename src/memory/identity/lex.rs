//! The lexer: words (lowercased, accents folded, possessives and "n't" split off), numbers
//! (8:15, 1,200, 3rd), Chinese characters one by one, sentence breaks; and reading Chinese
//! numerals.

use crate::memory::text::is_cjk;

/// What the lexer sees.
#[derive(Debug, Clone)]
pub enum Raw {
    Word {
        lower: String,
        shown: String,
        cap: bool,
        /// Index of the word in its sentence.
        pos: usize,
        possessive: bool,
        /// `lower`'s stem.
        stem: String,
        /// A comma comes right before it.
        after_comma: bool,
    },
    Digits(String),
    Cjk(char),
    /// Punctuation inside Chinese text: ends a run of characters.
    Gap,
    Break,
}

/// What letters right after a number say when they are not part of it: units, times of day,
/// ordinals.
const UNITS_AFTER_A_NUMBER: &[&str] = &[
    "am", "pm", "st", "nd", "rd", "th", "km", "kg", "cm", "mm", "ml", "lb", "lbs", "mb", "gb",
    "tb", "kb", "hz", "khz", "mhz", "ghz", "min", "mins", "hr", "hrs", "sec", "secs", "ft", "in",
    "mph", "kph", "kmh", "yo", "yrs", "mi", "oz", "mg", "kw", "kwh", "ms", "hp", "px", "pt",
];

pub fn lex(text: &str) -> Vec<Raw> {
    super::memo::cached("lex", text, lex_fresh)
}

fn lex_fresh(text: &str) -> Vec<Raw> {
    // "half past six" is 6:30, "eleven at night" 11 pm; "third grade" is "grade 3"
    let clocked = super::clock::in_digits(text);
    let text = super::ordinal::as_numbers(&clocked);
    let text: &str = &text;
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0usize;
    let mut i = 0;
    let may_hold_an_address = text.contains('@') || text.contains("://") || text.contains("www.");
    while i < chars.len() {
        let c = chars[i];
        if is_cjk(c) || c == '〇' {
            out.push(Raw::Cjk(c));
            i += 1;
        } else if let Some(len) = may_hold_an_address
            .then(|| address(&chars[..], i))
            .flatten()
        {
            // "jon.doe@gmail.com", "https://alice.dev": one value, one word (its dots end no
            // sentence, its parts are no words of their own)
            let shown: String = chars[i..i + len].iter().collect();
            out.push(word(&shown.to_lowercase(), &shown, pos, false));
            pos += 1;
            i += len;
        } else if let Some((year, month, day, len)) = iso_date(&chars[i..]) {
            // "2018-06-12" is "12 June 2018" (a twenty-first trial)
            out.push(Raw::Digits(day.to_string()));
            out.push(word(MONTHS[month - 1], MONTHS[month - 1], pos + 1, false));
            out.push(Raw::Digits(year.to_string()));
            pos += 3;
            i += len;
        } else if c.is_ascii_digit() {
            // 8:15, 3.5, 1,200; then letters attached ("7pm", "3rd", "5km") split off
            let start_char = i.checked_sub(1).map(|j| chars[j]);
            let digits_start = i;
            let mut s = String::new();
            while i < chars.len() {
                let d = chars[i];
                let joins = matches!(d, ':' | '.' | ',')
                    && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
                if d.is_ascii_digit() || joins {
                    if d != ',' {
                        s.push(d);
                    }
                    i += 1;
                } else {
                    break;
                }
            }
            // "-5 degrees", not "5-10" or "COVID-19"
            let negative = start_char == Some('-')
                && digits_start
                    .checked_sub(2)
                    .is_none_or(|j| !chars[j].is_ascii_alphanumeric());
            let mut number = normalise_number(&s);
            // "7pm", "7:30 p.m.": the hour as a 24-hour clock reads it ("19:30"), so that it
            // meets "19:30" and is no "7am"
            if let Some((pm, len)) = meridiem(&chars[i..]) {
                number = on_the_24_hour_clock(&number, pm);
                i += len;
            }
            if negative {
                number.insert(0, '-');
            }
            // "12A", "204B": a seat, a room, a flat; one letter is part of the number
            let letter = chars.get(i).filter(|l| {
                l.is_ascii_alphabetic()
                    && !matches!(l.to_ascii_lowercase(), 's' | 'x')
                    && !chars.get(i + 1).is_some_and(|n| n.is_alphabetic())
            });
            if let Some(l) = letter {
                // "$85k" is "$85,000"
                let thousands = number
                    .parse::<f64>()
                    .ok()
                    .filter(|_| l.eq_ignore_ascii_case(&'k') && !number.contains(':'));
                match thousands {
                    Some(n) => number = normalise_number(&format!("{}", n * 1000.0)),
                    None => number.push(l.to_ascii_lowercase()),
                }
                i += 1;
            }
            // "803XL", "A320neo": letters that are no unit or ordinal are part of a model's
            // number ("5pm", "3rd", "5km", "2GB" stay a number and a word)
            let letters = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect::<String>()
                .to_lowercase();
            if letters.len() >= 2
                && !UNITS_AFTER_A_NUMBER.contains(&letters.as_str())
                && !super::tables::known_word(&letters)
            {
                number.push_str(&letters);
                i += letters.len();
            }
            out.push(Raw::Digits(number));
            pos += 1;
            // "$500" reads "500 dollar", so it is not "€500" and is "500 dollars"
            let currency = match start_char {
                Some('$') => Some("dollar"),
                Some('€') => Some("euro"),
                Some('£') => Some("pound"),
                Some('¥' | '￥') => Some("yuan"),
                Some('₹') => Some("rupee"),
                _ => None,
            };
            if let Some(c) = currency {
                out.push(word(c, c, pos, false));
                pos += 1;
            }
            // "10%" reads "10 percent", so it is not "$10"
            if chars.get(i) == Some(&'%') {
                out.push(word("percent", "%", pos, false));
                pos += 1;
                i += 1;
            }
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() && !is_cjk(chars[i]) {
                i += 1;
            }
            let tail: String = chars[start..i].iter().collect::<String>().to_lowercase();
            if !tail.is_empty() && !matches!(tail.as_str(), "st" | "nd" | "rd" | "th" | "s") {
                out.push(word(&tail, &tail, pos, false));
                pos += 1;
            }
        } else if let Some((joined, len)) = dotted_initials(&chars[i..]) {
            // "Ph.D." is "PhD", "U.S." is "US": not two sentences
            let lower = joined.to_lowercase();
            let mut w = word(&lower, &joined, pos, false);
            if let Raw::Word { cap, .. } = &mut w {
                *cap = joined.starts_with(char::is_uppercase);
            }
            out.push(w);
            pos += 1;
            i += len;
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() && !is_cjk(chars[i]) {
                i += 1;
            }
            // "C++", "C#", "A+", "O-", "HIV+": the sign is part of the word
            let letters = i;
            while i < chars.len() && matches!(chars[i], '+' | '#') && i - letters < 2 {
                i += 1;
            }
            if i == letters
                && chars.get(i) == Some(&'-')
                && !chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
            {
                i += 1;
            }
            let shown: String = chars[start..i].iter().collect();
            let mut lower: String = shown.to_lowercase().chars().map(fold_accent).collect();
            let mut possessive = false;
            let mut negated = false;
            // "I've", "I'm", "we're", "she'll": the verb the contraction stands for, read as
            // if spelled out ("I've lived" is "I have lived", not "I lived")
            let mut spelled: Option<(&str, &str)> = None;
            if i + 1 < chars.len()
                && crate::memory::text::is_apostrophe(chars[i])
                && chars[i + 1].is_alphabetic()
            {
                let tail_start = i + 1;
                let mut j = tail_start;
                while j < chars.len() && chars[j].is_ascii_alphabetic() {
                    j += 1;
                }
                let tail: String = chars[tail_start..j]
                    .iter()
                    .collect::<String>()
                    .to_lowercase();
                match tail.as_str() {
                    "s" => possessive = true,
                    "t" if lower.ends_with('n') => {
                        lower.pop();
                        lower = base_before_nt(&lower).to_string();
                        negated = true;
                    }
                    "ve" => spelled = Some(("have", "'ve")),
                    "m" => spelled = Some(("am", "'m")),
                    "re" => spelled = Some(("are", "'re")),
                    "ll" => spelled = Some(("will", "'ll")),
                    _ => {}
                }
                i = j;
            }
            // "cannot", and the contractions typed without their apostrophe ("dont", "isnt")
            let spelled_out = negated_without_apostrophe(&lower);
            if let Some(base) = spelled_out {
                lower = base.into();
                negated = true;
            }
            let cap = shown.chars().next().is_some_and(char::is_uppercase);
            let comma = chars[..start]
                .iter()
                .rev()
                .find(|c| !c.is_whitespace())
                .is_some_and(|c| matches!(c, ',' | '，' | '、'));
            let mut w = word(&lower, &shown, pos, possessive);
            if let Raw::Word {
                cap: c,
                after_comma,
                ..
            } = &mut w
            {
                *c = cap;
                *after_comma = comma;
            }
            out.push(w);
            pos += 1;
            if let Some((verb, shown)) = spelled {
                out.push(word(verb, shown, pos, false));
                pos += 1;
            }
            if negated {
                out.push(word("not", "n't", pos, false));
                pos += 1;
            }
        } else {
            if matches!(c, '.' | '!' | '?' | ';' | '。' | '！' | '？' | '；' | '\n') {
                out.push(Raw::Break);
                pos = 0;
            } else if !c.is_whitespace() && matches!(out.last(), Some(Raw::Cjk(_))) {
                // "，" or "、" ends a run of characters (and of numerals) but not the sentence
                out.push(Raw::Gap);
            }
            i += 1;
        }
    }
    out
}

pub(super) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A date written "2018-06-12" at the start of `at`: year, month, day, and its length.
fn iso_date(at: &[char]) -> Option<(u32, usize, u32, usize)> {
    let digits = |from: usize, n: usize| -> Option<u32> {
        let part = at.get(from..from + n)?;
        part.iter()
            .all(char::is_ascii_digit)
            .then(|| part.iter().collect::<String>().parse().ok())?
    };
    let year = digits(0, 4)?;
    let month = digits(5, 2)? as usize;
    let day = digits(8, 2)?;
    let shaped = at[4] == '-' && at[7] == '-' && !at.get(10).is_some_and(|c| c.is_alphanumeric());
    (shaped && (1..=12).contains(&month) && (1..=31).contains(&day))
        .then_some((year, month, day, 10))
}

/// An email address ("jon.doe@gmail.com") or a web address ("https://alice.dev/blog",
/// "www.example.org") starting at `chars[i]`, where a word starts: how many characters it
/// takes, a closing full stop or comma left to the sentence.
fn address(chars: &[char], i: usize) -> Option<usize> {
    let in_local = |c: &char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-');
    if i > 0 && (in_local(&chars[i - 1]) || matches!(chars[i - 1], '@' | '/' | ':')) {
        return None;
    }
    let at = &chars[i..];
    let head: String = at.iter().take(8).collect::<String>().to_ascii_lowercase();
    let web = ["https://", "http://", "www."]
        .iter()
        .find(|p| head.starts_with(**p));
    let mut len = match web {
        Some(prefix) => at
            .iter()
            .take_while(|c| {
                !c.is_whitespace() && !is_cjk(**c) && !matches!(c, '"' | '<' | '>' | '(' | ')')
            })
            .count()
            .max(prefix.len()),
        None => {
            let local = at.iter().take_while(|c| in_local(c)).count();
            if local == 0 || at[0] == '.' || at.get(local) != Some(&'@') {
                return None;
            }
            let domain = at[local + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
                .count();
            local + 1 + domain
        }
    };
    while len > 0 && matches!(at[len - 1], '.' | ',' | ';' | ':' | '!' | '?') {
        len -= 1;
    }
    let valid = match web {
        Some(prefix) => len > prefix.len(),
        None => {
            // a domain with a dot, ending in letters: "gmail.com", "qq.com", "proton.me"
            let text: String = at[..len].iter().collect();
            text.split_once('@').is_some_and(|(_, domain)| {
                domain.rsplit_once('.').is_some_and(|(name, top)| {
                    !name.is_empty()
                        && top.len() >= 2
                        && top.chars().all(|c| c.is_ascii_alphabetic())
                })
            })
        }
    };
    valid.then_some(len)
}

/// Initials written with dots at the start of `at` ("Ph.D.", "U.S.", "e.g."): the letters
/// joined, and how many characters they take. Two groups at least, of three letters at most.
fn dotted_initials(at: &[char]) -> Option<(String, usize)> {
    let (mut joined, mut i, mut groups) = (String::new(), 0, 0);
    loop {
        let letters = at[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        if letters == 0 || letters > 3 || at.get(i + letters) != Some(&'.') {
            break;
        }
        joined.extend(&at[i..i + letters]);
        i += letters + 1;
        groups += 1;
    }
    (groups >= 2).then_some((joined, i))
}

/// "fiancé" → "fiance": the tables are written without accents.
fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        _ => c,
    }
}

pub fn word(lower: &str, shown: &str, pos: usize, possessive: bool) -> Raw {
    Raw::Word {
        lower: lower.to_string(),
        shown: shown.to_string(),
        cap: false,
        pos,
        possessive,
        stem: super::tables::stem(lower),
        after_comma: false,
    }
}

/// "09:30" → "9:30", "9:00" → "9", "3.50" → "3.5".
/// Whether the text right after a number says "pm" (`true`) or "am" (`false`), and how many
/// characters say it: "pm", " pm", "p.m.", not a word that starts so ("7 pmt", "5 amps").
fn meridiem(after: &[char]) -> Option<(bool, usize)> {
    let start = after.iter().take_while(|c| **c == ' ').count().min(1);
    let rest: String = after[start..]
        .iter()
        .take(5)
        .collect::<String>()
        .to_lowercase();
    let (pm, used) = if let Some(r) = rest.strip_prefix("p.m") {
        (true, r)
    } else if let Some(r) = rest.strip_prefix("a.m") {
        (false, r)
    } else if let Some(r) = rest.strip_prefix("pm") {
        (true, r)
    } else if let Some(r) = rest.strip_prefix("am") {
        (false, r)
    } else {
        return None;
    };
    // "8 am", not "8 amazing": only a whole "am" (Chinese may follow it: 7pm下班)
    if used.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let dot = usize::from(used.starts_with('.'));
    Some((pm, start + rest.len() - used.len() + dot))
}

/// `number` (an hour, or an hour and minutes) on the 24-hour clock, given as am or pm;
/// anything else as it was.
fn on_the_24_hour_clock(number: &str, pm: bool) -> String {
    let (hour, minutes) = number.split_once(':').unwrap_or((number, ""));
    let Ok(h) = hour.parse::<u32>() else {
        return number.to_string();
    };
    let h = match (h, pm) {
        (1..=11, true) => h + 12,
        (12, false) => 0,
        (0..=12, _) => h,
        _ => return number.to_string(),
    };
    if minutes.is_empty() {
        h.to_string()
    } else {
        format!("{h}:{minutes}")
    }
}

fn normalise_number(s: &str) -> String {
    let s = s.trim_start_matches('0');
    let s = if s.is_empty() || s.starts_with([':', '.']) {
        format!("0{s}")
    } else {
        s.to_string()
    };
    if let Some(h) = s.strip_suffix(":00") {
        return h.to_string();
    }
    if s.contains('.') && !s.contains(':') {
        let t = s.trim_end_matches('0').trim_end_matches('.');
        return t.to_string();
    }
    s
}

/// The value of a run of Chinese numerals (十三 → 13, 一万 → 10000, 两 → 2).
pub fn zh_number(run: &[char]) -> Option<u64> {
    // 七五 (as in 一米七五), 二〇一九: digits read one by one
    if run.len() > 1 && !run.iter().any(|c| "十百千万".contains(*c)) {
        return run
            .iter()
            .map(|&c| zh_number(&[c]))
            .try_fold(0u64, |n, d| n.checked_mul(10)?.checked_add(d?));
    }
    let (mut total, mut section, mut current) = (0u64, 0u64, 0u64);
    // the unit last read, and whether a 零 came after it: 三千五 is 3500 (the digit after a
    // unit counts in the unit below it), 三千零五 is 3005
    let (mut last_unit, mut zero) = (0u64, false);
    for &c in run {
        zero |= matches!(c, '零' | '〇');
        let digit = match c {
            '零' | '〇' => Some(0),
            '一' => Some(1),
            // 俩, 仨: two, three, with their measure word (我有俩女儿 is 我有两个女儿)
            '二' | '两' | '俩' => Some(2),
            '三' | '仨' => Some(3),
            '四' => Some(4),
            '五' => Some(5),
            '六' => Some(6),
            '七' => Some(7),
            '八' => Some(8),
            '九' => Some(9),
            _ => None,
        };
        if let Some(d) = digit {
            current = d;
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            '万' => 10_000,
            _ => return None,
        };
        (last_unit, zero) = (unit, false);
        // a run longer than any number (九万万万…) is none: no overflow, in any build
        if unit == 10_000 {
            let part = section.checked_add(current)?.checked_mul(unit)?;
            total = total.checked_add(part)?;
            section = 0;
        } else {
            // 十三: a bare 十 is ten
            let times = if current == 0 && unit == 10 {
                1
            } else {
                current
            };
            section = section.checked_add(times * unit)?;
        }
        current = 0;
    }
    // 三千五, 一万五, 两百五: the unit below the last one, said without it
    if last_unit >= 100 && !zero {
        current = current.checked_mul(last_unit / 10)?;
    }
    total.checked_add(section)?.checked_add(current)
}

pub const ZH_NUMERALS: &str = "零〇一二两俩三仨四五六七八九十百千万";

/// The word before "n't" as it is spelled alone: "ca" (can't) → can, "wo" → will, "sha" →
/// shall, "ai" (ain't) → is; any other ("do", "is") as it is.
pub(super) fn base_before_nt(head: &str) -> &str {
    match head {
        "ca" => "can",
        "wo" => "will",
        "sha" => "shall",
        "ai" => "is",
        other => other,
    }
}

/// The word a negation typed as one word stands for, with "not": "cannot", and the
/// contractions typed without their apostrophe ("dont" → do, "isnt" → is, "aint" → is).
pub(super) fn negated_without_apostrophe(word: &str) -> Option<&'static str> {
    Some(match word {
        "cannot" | "cant" => "can",
        "dont" => "do",
        "doesnt" => "does",
        "didnt" => "did",
        "isnt" | "aint" => "is",
        "arent" => "are",
        "wasnt" => "was",
        "werent" => "were",
        "wont" => "will",
        "havent" => "have",
        "hasnt" => "has",
        "hadnt" => "had",
        "wouldnt" => "would",
        "shouldnt" => "should",
        "couldnt" => "could",
        "mustnt" => "must",
        _ => return None,
    })
}
