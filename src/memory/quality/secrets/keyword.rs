//! A keyword and its value: "my bank PIN is 4821", "pw: …", "hunter2 is my password", "set
//! the wifi password to …". A keyword alone is not a secret; each kind says what its value
//! must look like.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

use super::super::ascii_classes;
use super::words::{CODES_NOT_SECRET, FILLERS, NOT_VALUES, PLACEHOLDERS, UNITS};

/// Room for the lazy DFA: with the default a large pattern thrashes its cache and matching
/// falls back to a much slower engine.
pub(super) const DFA_SIZE: usize = 32 << 20;

pub(super) fn build(pattern: &str) -> Regex {
    RegexBuilder::new(&ascii_classes(pattern))
        .dfa_size_limit(DFA_SIZE)
        .build()
        .expect("secret pattern compiles")
}

/// What the value after a keyword must look like.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Need {
    /// Any word that is a value rather than a description.
    Any,
    /// Only something that looks generated (digits, symbols, mixed case; five characters at
    /// least) or is quoted: "the secret is hunter2", "key 4kT9pLm2Q8", not "the key is
    /// patience".
    Credential,
    /// At least this many digits (PINs, codes, card and ID numbers).
    Digits(usize),
    /// A one-time code: 3+ digits, or 4–12 letters and digits with a digit or all capitals
    /// ("482913", "R7K2P", "KQPTX").
    Code,
    /// `user / password` (with "is"; after a colon any value).
    Pair,
    /// A list of at least this many words (a wallet's recovery phrase).
    Words(usize),
}

/// Keyword kinds, in the order of `KEYWORD_GROUPS`.
pub(super) const KINDS: &[(&str, Need)] = &[
    ("verification code", Need::Code),
    ("AWS key", Need::Any),
    ("private key", Need::Any),
    ("secret", Need::Any),
    ("API key", Need::Any),
    ("recovery phrase", Need::Words(6)),
    ("passcode", Need::Digits(3)),
    ("passphrase", Need::Any),
    ("password", Need::Any),
    ("PIN", Need::Digits(3)),
    ("token", Need::Any),
    ("access code", Need::Digits(3)),
    ("card security code", Need::Digits(3)),
    ("card number", Need::Digits(12)),
    ("ID number", Need::Digits(6)),
    ("credentials", Need::Pair),
    ("secret", Need::Credential),   // a bare "secret"
    ("key", Need::Credential),      // a bare "key"
    ("password", Need::Credential), // a bare "pass" ("the pass is 'letmein99'")
    ("password", Need::Credential), // a bare "wifi" ("Dave's wifi is orangecat77")
];

pub(super) const SEP: &str = r"[ _\-]?";

/// The keywords of each of `KINDS`, on the ASCII-lowercased folded text.
pub(super) static KEYWORD_GROUPS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let s = SEP;
    let groups = vec![
        format!(
            r"(?:verification|confirmation|one{s}time|otp|2fa|two{s}factor|mfa|login|sms|auth|authenticator|backup|recovery|reset|security|unlock|guard){s}codes?|otps?|one{s}time{s}passwords?|totp|codici{s}di{s}(?:recupero|backup|verifica)|c(?:o|ó)digos{s}de{s}(?:recuperaci(?:o|ó)n|respaldo|verificaci(?:o|ó)n)|codes{s}de{s}(?:r(?:e|é)cup(?:e|é)ration|secours|v(?:e|é)rification)|wiederherstellungs{s}?codes?|backup{s}?codes"
        ),
        format!(
            r"aws{s}(?:secret{s})?(?:access{s})?keys?(?:{s}id)?|secret{s}access{s}keys?|aws{s}secrets?"
        ),
        format!(r"private{s}keys?|ssh{s}keys?|gpg{s}keys?|pgp{s}keys?|signing{s}keys?"),
        format!(
            r"(?:client|api|app|shared|signing|webhook|jwt|session|consumer|oauth){s}secrets?|secret{s}(?:codes?|words?|phrases?|answers?|values?|keys?)|security{s}(?:question{s})?answers?|answers?{s}to{s}(?:the|my|his|her|their|our|your){s}security{s}questions?|memorable{s}(?:words?|answers?)"
        ),
        format!(
            r"api{s}keys?|apikeys?|access{s}keys?(?:{s}(?:id|secret))?|license{s}keys?|product{s}keys?|activation{s}keys?|encryption{s}keys?|master{s}keys?|recovery{s}keys?|unseal{s}keys?|app{s}keys?|client{s}keys?|wi{s}fi{s}keys?|wifi{s}keys?|wpa2?{s}keys?|network{s}keys?"
        ),
        format!(r"(?:seed|recovery|mnemonic|backup|wallet){s}(?:phrases?|words)|mnemonic|seed"),
        format!(r"pass{s}codes?|unlock{s}pins?"),
        format!(r"pass{s}phrases?"),
        format!(
            r"pass(?:word|wd|wort)s?|p[a@4]ssw[o0]rds?|pwd|pw|p/w|mot de passe|contrase(?:ñ|n)a|senha|kennw(?:o|ö)rt|wachtwoord|parola d'ordine|(?:п|П)ароль|パスワード|비밀번호|wi{s}fi{s}(?:codes?|pass(?:word|wd)?s?)"
        ),
        format!(r"pin{s}codes?|pin{s}numbers?|pincode|pins?|puk{s}codes?|puks?"),
        format!(
            r"(?:(?:access|auth|bearer|refresh|api|bot|session|personal{s}access|vpn|security|github|gitlab|slack|discord|telegram|npm|hf|oauth|csrf|login){s})?tokens?(?:{s}codes?)?"
        ),
        format!(
            r"(?:front{s}door|back{s}door|door|gate|garage|alarm|safe|lock|locker|entry|entrance|keypad|disarm|lockbox|key{s}box|padlock|bike{s}lock|access|building|apartment|house){s}codes?|codes?{s}(?:to|for){s}(?:the{s}|my{s}|our{s})?(?:(?:front|back|side|main|garden|rear|building|garage){s})?(?:door|gate|garage|alarm|safe|lockbox|building|apartment|house|entrance|shed)|(?:alarm{s})?(?:disarm|arming){s}(?:sequence|number)s?|combinations?|combo|keypads?|lockbox(?:es)?|key{s}box(?:es)?|codes?{s}(?:de{s}la{s}porte(?:{s}d'entr(?:e|é)e)?|d'entr(?:e|é)e|du{s}portail|de{s}l'immeuble|d'acc(?:e|è)s)|digicode|t(?:u|ü)r{s}?code|tor{s}?code|c(?:o|ó)digo{s}de{s}(?:la{s}puerta|acceso|entrada)"
        ),
        format!(
            r"cvv2?|cvc2?|csc|card{s}security{s}codes?|(?:three|3|four|4){s}digits{s}on{s}the{s}back(?:{s}of{s}(?:my|the|his|her|their|our|your|a)?{s}?(?:visa|mastercard|amex|card|credit{s}card|debit{s}card))?"
        ),
        format!(r"(?:credit|debit|bank){s}card{s}(?:number|no\.?|#)|card{s}(?:number|no\.?|#)"),
        format!(
            r"(?:ssn|social{s}security|national{s}insurance|ni|national{s}id|tax{s}id|tax{s}file|passport|driver'?s?{s}licen[cs]e|driving{s}licen[cs]e|licen[cs]e|id{s}card|identity{s}card|medicare|nhs|social{s}insurance|health{s}insurance){s}(?:numbers?|no\.?|#)|ssn|social{s}security|social|tax{s}id|passport|driver'?s?{s}licen[cs]e|driving{s}licen[cs]e"
        ),
        format!(r"credentials?|creds|logins?|log{s}in|sign{s}in|username and password"),
        r"secrets?".to_string(),
        r"keys?".to_string(),
        r"pass".to_string(),
        format!(r"wi{s}fi"),
    ];
    assert_eq!(groups.len(), KINDS.len());
    groups
});

/// Any keyword. It starts after a non-alphanumeric character (so `db_password=` counts,
/// `tokenomics` does not); its end is checked by the caller. Leftmost-first: the first group
/// that matches where a keyword starts is the one found.
pub(super) static KEYWORD: LazyLock<Regex> = LazyLock::new(|| {
    let alternation = KEYWORD_GROUPS
        .iter()
        .map(|g| format!("(?:{g})"))
        .collect::<Vec<_>>()
        .join("|");
    build(&format!(r"(?:^|[^a-z0-9])(?:{alternation})"))
});

/// Which kind a keyword found by `KEYWORD` is: the first group that matches it whole (cheaper
/// than capture groups over the whole text).
pub(super) static KEYWORD_KIND: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSetBuilder::new(
        KEYWORD_GROUPS
            .iter()
            .map(|g| ascii_classes(&format!("^(?:{g})$"))),
    )
    .build()
    .expect("keyword kinds compile")
});

/// "hunter2 is my password", "4821 is the door code".
pub(super) static REVERSED: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r#"(?:^|[\s"'(])(?P<val>[^\s"']{3,})["']?\s+(?:is|was|=)\s+(?:my|the|our|his|her|their|your|[a-z]+'s)\s+(?:[a-z0-9\-]+\s+){0,3}?(?P<kw>passwords?|passcodes?|passphrases?|pw|pin(?: code)?|(?:door|gate|garage|alarm|safe|lock|access|entry) codes?|combination|secret word|api key|token)(?P<rest>.*)"#,
    )
});

/// "set the wifi password to …", "changed my PIN to …".
pub(super) static SET_TO: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"(?:^|[^a-z])(?:set|sets|setting|change|changed|changes|changing|reset|resets|update|updated|updating)\s+(?:(?:the|my|our|his|her|their|your|[a-z]+'s)\s+)?(?:[a-z0-9\-]+\s+){0,2}?(?P<kw>passwords?|passcodes?|passphrases?|pw|pins?|pin codes?|(?:door|gate|garage|alarm|safe) codes?)\s+to\s+",
    )
});

/// "the storage unit code is 4471": any code given as 4–10 digits (or digits spelled as words,
/// "one two three four"), unless it names something public (`CODES_NOT_SECRET`).
pub(super) static CODE_IS: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"(?:^|[^a-z0-9])(?P<word>[a-z]+)[ _\-]?codes?(?:\s+(?:from|for|of|on|in|at|the|that|which|i|we|you|he|she|they)\s+(?:[a-z0-9'\-]+\s+){0,5}?|\s+(?:right now|now|today|currently))?\s*(?:is|was|:|=)\s*(?P<value>[#*]?\d[\d \-#*]*|(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[ ,\-]*){4,})",
    )
});

pub(super) fn code_is(lower: &str) -> bool {
    CODE_IS.captures_iter(lower).any(|caps| {
        let value = &caps["value"];
        let digits = value.chars().filter(char::is_ascii_digit).count() + spelled_digits(value);
        (4..=10).contains(&digits) && !CODES_NOT_SECRET.contains(&&caps["word"])
    })
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Conn {
    /// The value follows the keyword directly: "PIN 4821".
    None,
    /// "is", "was", "是".
    Is,
    /// ":" or "=".
    Colon,
}

pub(super) fn is_quote(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '“' | '”' | '‘' | '’' | '「' | '」' | '`' | '«' | '»'
    )
}

pub(super) fn is_symbol(c: char) -> bool {
    matches!(
        c,
        '!' | '@' | '#' | '$' | '%' | '^' | '&' | '*' | '?' | '~' | '+' | '=' | '_'
    )
}

/// The next whitespace-delimited token from `s`, after leading whitespace; with its end.
pub(super) fn next_token(s: &str) -> Option<(&str, usize)> {
    let start = s.len() - s.trim_start().len();
    let rest = &s[start..];
    if rest.is_empty() {
        return None;
    }
    let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    Some((&rest[..len], start + len))
}

pub(super) fn trim_punct(token: &str) -> &str {
    token.trim_end_matches(['.', ',', ';', ':', ')', '，', '。', '；', '、'])
}

/// Looks generated rather than chosen as a word: a digit, a symbol, a capital after a
/// lowercase letter.
pub(super) fn credential_like(token: &str) -> bool {
    let inner = token
        .char_indices()
        .filter(|&(i, c)| i > 0 && i + c.len_utf8() < token.len());
    token.bytes().any(|b| b.is_ascii_digit())
        || inner.clone().any(|(_, c)| is_symbol(c))
        || token
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// A word that describes a state rather than being a value: "expired", "rotating", "rarely".
pub(super) fn descriptive(word: &str) -> bool {
    word.len() >= 5
        && word.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && (word.ends_with("ed") || word.ends_with("ing") || word.ends_with("ly"))
}

/// Whether what follows a keyword (`rest`, the folded text from the keyword's end) carries a
/// value of the kind `need`. `lower_rest` is the same text, ASCII-lowercased.
pub(super) fn has_value(rest: &str, lower_rest: &str, need: Need) -> bool {
    let mut pos = 0;
    let mut conn = Conn::None;
    let mut qualified = false;
    // "The Wi-Fi password? It's sunflower42"
    if let Some(after) = lower_rest.trim_start().strip_prefix('?') {
        let after = after.trim_start();
        if let Some(p) = ["it's ", "it’s ", "its ", "it is "]
            .iter()
            .find(|p| after.starts_with(**p))
        {
            pos = lower_rest.len() - after.len() + p.len();
            conn = Conn::Is;
        }
    }
    // the connector: directly, or after a short qualifier ("for the router", "on my Visa")
    for step in 0..7 {
        if conn != Conn::None {
            break;
        }
        let tail = &lower_rest[pos..];
        let trimmed = tail.trim_start();
        let skip = tail.len() - trimmed.len();
        if let Some(c) = trimmed.chars().next()
            && matches!(c, ':' | '=' | '：')
        {
            conn = Conn::Colon;
            pos += skip + c.len_utf8();
            break;
        }
        if step == 0 && (trimmed.starts_with("- ") || trimmed.starts_with("— ")) {
            conn = Conn::Colon;
            pos += skip + trimmed.chars().next().map_or(1, char::len_utf8);
            break;
        }
        // (Japanese: "パスワードは …")
        if let Some(zh) = ["是", "为", "は"].iter().find(|z| trimmed.starts_with(**z)) {
            conn = Conn::Is;
            pos += skip + zh.len();
            break;
        }
        let Some((word, end)) = next_token(tail) else {
            return false;
        };
        // an aside: "security answer (mother's maiden name) is …"
        if word.starts_with('(') {
            match tail.find(')') {
                Some(close) if close < 64 => {
                    pos += close + 1;
                    continue;
                }
                _ => return false,
            }
        }
        let bare = word.trim_end_matches([':', '=']);
        // "the gate code changed to *1846"
        if matches!(bare, "changed" | "switched" | "moved" | "updated")
            && bare == word
            && let Some((to, end2)) = next_token(&tail[end..])
            && to == "to"
        {
            conn = Conn::Is;
            pos += end + end2;
            break;
        }
        // "the Steam Guard code right now is …"
        if matches!(bare, "right" | "now" | "currently" | "today" | "still") && bare == word {
            pos += end;
            continue;
        }
        if matches!(
            bare,
            "is" | "was" | "are" | "were" | "equals" | "became" | "reads" | "=>" | "->"
            // an arrow: "gate code for the parking lot → 1357"
            | "→" | "⇒" | "➜" | "➡"
            // in Spanish, German, French, Portuguese, Italian
            | "es" | "ist" | "est" | "c'est" | "c’est" | "é" | "è"
        ) {
            conn = if bare.len() < word.len() {
                Conn::Colon
            } else {
                Conn::Is
            };
            pos += end;
            break;
        }
        // a short tag with a digit, then the colon: "Codici di recupero 2FA: 3391-7720, …"
        if step == 0
            && word.len() <= 6
            && let Some(tag) = word.strip_suffix(':')
            && tag.chars().all(|c| c.is_ascii_alphanumeric())
            && tag.chars().any(|c| c.is_ascii_digit())
        {
            conn = Conn::Colon;
            pos += end;
            break;
        }
        // a qualifier ("for the router") or a relative clause ("the code I just got is …")
        if step == 0
            && matches!(
                word,
                "for"
                    | "to"
                    | "of"
                    | "on"
                    | "at"
                    | "in"
                    | "from"
                    | "i"
                    | "we"
                    | "you"
                    | "he"
                    | "she"
                    | "they"
                    | "that"
                    | "which"
                    | "someone"
                    // "the OTP the bank just texted me is …"
                    | "the"
                    // "la contraseña del correo de Marta es …", "die PIN für Ottos Karte ist …"
                    | "de"
                    | "del"
                    | "da"
                    | "do"
                    | "di"
                    | "della"
                    | "du"
                    | "des"
                    | "für"
                    | "fur"
                    | "von"
                    | "pour"
                    | "от"
                    | "для"
            )
        {
            qualified = true;
            pos += end;
            continue;
        }
        if qualified {
            pos += end;
            if word.ends_with(':') || word.ends_with('=') {
                conn = Conn::Colon;
                break;
            }
            if word.ends_with([',', '.', ';', '?', '!']) {
                return false;
            }
            continue;
        }
        break;
    }
    if qualified && conn == Conn::None {
        return false;
    }
    // after "is": "now", "set to", "changed to"
    if conn == Conn::Is {
        loop {
            let Some((word, end)) = next_token(&lower_rest[pos..]) else {
                return false;
            };
            if FILLERS.contains(&word) {
                pos += end;
                continue;
            }
            if matches!(word, "set" | "changed" | "updated" | "reset")
                && let Some((to, end2)) = next_token(&lower_rest[pos + end..])
                && to == "to"
            {
                pos += end + end2;
            }
            break;
        }
    }
    if value_fits(&rest[pos..], &lower_rest[pos..], need, conn) {
        return true;
    }
    // "= same as Facebook: Kitty2010": a colon further on in the clause brings the value
    if conn != Conn::None {
        let tail = &lower_rest[pos..];
        let clause = tail.find(['.', ';', '\n', '?', '!']).unwrap_or(tail.len());
        if let Some(c) = tail[..clause].find(':')
            && c <= 48
        {
            let at = pos + c + 1;
            return value_fits(&rest[at..], &lower_rest[at..], need, Conn::Colon);
        }
    }
    false
}

/// Units written right after a number in Japanese or Chinese: a length, a period, a count.
const CJK_UNITS: &[&str] = &[
    "ヶ月", "か月", "カ月", "ヵ月", "文字", "桁", "日", "年", "回", "週", "時間", "分", "个月",
    "个字", "位", "天", "次", "周", "小时",
];

/// Whether the text after a connector is a value of the kind `need`.
pub(super) fn value_fits(value: &str, lower: &str, need: Need, conn: Conn) -> bool {
    let Some((token, _)) = next_token(value) else {
        return false;
    };
    let quoted = token.starts_with(is_quote);
    let token = trim_punct(token.trim_matches(is_quote));
    if token.is_empty() {
        return false;
    }
    let (lower_token, _) = next_token(lower).unwrap_or(("", 0));
    let lower_token = trim_punct(lower_token.trim_matches(is_quote));
    let placeholder = PLACEHOLDERS.contains(&lower_token);
    // "is 16 characters long", "is 4 digits": a measure, not the value
    let measure = next_token(lower)
        .and_then(|(_, end)| next_token(&lower[end..]))
        .is_some_and(|(w, _)| UNITS.contains(&trim_punct(w)));
    // パスワードは3ヶ月ごとに…, 密码是8位数字: a number with a unit of its own, no value
    let after_digits = lower_token.trim_start_matches(|c: char| c.is_ascii_digit());
    let cjk_measure = after_digits.len() < lower_token.len()
        && CJK_UNITS.iter().any(|u| after_digits.starts_with(u));
    let describes =
        NOT_VALUES.contains(&lower_token) || descriptive(lower_token) || measure || cjk_measure;
    match need {
        Need::Digits(min) => {
            // "665 201", "12-34-56", "*1942", "4455#": the digits of the value's run
            let run: String = value
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || " -*#./".contains(*c))
                .collect();
            let digits = run.chars().filter(char::is_ascii_digit).count();
            // "QQ 12 34 56 C", "K9981234": an ID's letters before its digits
            let lettered = token.len() <= 3 && token.chars().all(|c| c.is_ascii_uppercase());
            digits >= min
                && (!run.trim_start().starts_with(char::is_alphabetic)
                    || credential_like(token)
                    || lettered)
                || spelled_digits(lower) >= min.max(4)
                || conn != Conn::None && described_then_digits(lower, min.max(3))
        }
        Need::Code => {
            value_fits(value, lower, Need::Digits(3), conn)
                || conn != Conn::None
                    && (4..=12).contains(&token.len())
                    && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                    && (token.chars().any(|c| c.is_ascii_digit())
                        || token.chars().all(|c| !c.is_ascii_lowercase()))
        }
        Need::Words(min) => {
            let words = value
                .split_whitespace()
                .take_while(|w| w.chars().all(|c| c.is_ascii_alphabetic() || c == ','))
                .count();
            conn != Conn::None && words >= min
        }
        Need::Credential => {
            !placeholder
                && (quoted && conn != Conn::None
                    || credential_like(token) && token.chars().count() >= 5)
        }
        Need::Pair => match conn {
            Conn::Colon => !placeholder,
            Conn::Is => {
                let pair = token.contains(['/', ':', '|'])
                    || next_token(&value[value.find(token).map_or(0, |p| p + token.len())..])
                        .is_some_and(|(t, _)| matches!(t, "/" | "|" | ":"));
                pair && !describes
            }
            Conn::None => false,
        },
        Need::Any => match conn {
            Conn::Colon => !placeholder,
            Conn::Is => quoted || !describes,
            Conn::None => quoted || credential_like(token) && token.chars().count() >= 4,
        },
    }
}

/// A description and then the value, at the clause's end or after a comma: "passcode: her
/// birth year backwards, 5491".
fn described_then_digits(lower: &str, min: usize) -> bool {
    let clause = &lower[..lower
        .find(['.', ';', '\n', '?', '!'])
        .unwrap_or(lower.len())];
    let clause = clause.get(..clause.len().min(80)).unwrap_or(clause);
    let Some((_, last)) = clause.rsplit_once(',') else {
        return false;
    };
    let value = last.trim();
    value.split_whitespace().count() == 1
        && value.chars().filter(char::is_ascii_digit).count() >= min
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || "-#*".contains(c))
}

/// How many digits `lower` starts with, spelled as words: "one two three four five" is 5,
/// "oh nine one one" is 4 ("six" alone is 1: a number of digits says what a value is, not
/// the value).
pub(super) fn spelled_digits(lower: &str) -> usize {
    const DIGITS: &[&str] = &[
        "zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    lower
        .split([' ', ',', '-'])
        .filter(|w| !w.is_empty())
        .map(trim_punct)
        .take_while(|w| DIGITS.contains(w))
        .count()
}

/// Words before "pass" that make it a ticket, not a password.
const TICKETS: &[&str] = &[
    "boarding",
    "bus",
    "train",
    "rail",
    "metro",
    "ski",
    "season",
    "day",
    "week",
    "month",
    "annual",
    "hall",
    "backstage",
    "guest",
    "visitor",
    "press",
    "festival",
    "gym",
    "museum",
    "park",
    "parking",
    "mountain",
    "hill",
    "free",
    "all",
];

/// Keyword, connector, value (English and the other Latin-script keywords); and whether the
/// text holds a keyword at all.
pub(super) fn keyword_value(folded: &str, lower: &str) -> (Option<&'static str>, bool) {
    let mut any = false;
    for found in KEYWORD.find_iter(lower) {
        any = true;
        // the keyword without the boundary before it (one character; a keyword in another
        // script may have none: "Пароль …" opening the text, "のパスワード")
        let whole = found.as_str();
        let after_boundary = whole
            .chars()
            .next()
            .filter(|c| !c.is_ascii_alphanumeric())
            .map(|c| &whole[c.len_utf8()..]);
        let kind_of = |k: &str| KEYWORD_KIND.matches(k).iter().next();
        let Some((keyword, index)) = after_boundary
            .and_then(|k| Some((k, kind_of(k)?)))
            .or_else(|| Some((whole, kind_of(whole)?)))
        else {
            continue;
        };
        let m = found;
        // the keyword must end a word: "pins" yes, "pinyin" no
        if lower[m.end()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        {
            continue;
        }
        // a pass that lets someone in, not a password: "boarding pass", "ski pass"
        if keyword == "pass"
            && lower[..m.start()]
                .split_whitespace()
                .next_back()
                .is_some_and(|w| {
                    TICKETS.contains(&w.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
                })
        {
            continue;
        }
        let (kind, need) = KINDS[index];
        if has_value(&folded[m.end()..], &lower[m.end()..], need) {
            return (Some(kind), true);
        }
    }
    (None, any)
}

pub(super) fn reversed_or_set(folded: &str, lower: &str) -> Option<&'static str> {
    for caps in REVERSED.captures_iter(lower) {
        let (val, kw, rest) = (&caps["val"], &caps["kw"], &caps["rest"]);
        let rest = rest.trim_start();
        // "Bitwarden is my password manager": the keyword must end the phrase
        let ends = rest.is_empty()
            || rest.starts_with([',', '.', ';', '!', '?', ')'])
            || ["for ", "on ", "to ", "at ", "and ", "now", "btw", "too"]
                .iter()
                .any(|w| rest.starts_with(w));
        if !ends || NOT_VALUES.contains(&val) || PLACEHOLDERS.contains(&val) {
            continue;
        }
        let digits = val.chars().filter(char::is_ascii_digit).count();
        let numeric_kind = kw.starts_with("pin") || kw.contains("code") || kw == "combination";
        if numeric_kind && digits < 3 {
            continue;
        }
        let kind = if kw.starts_with("pin") {
            "PIN"
        } else if numeric_kind {
            "access code"
        } else if kw.starts_with("passcode") {
            "passcode"
        } else if kw == "api key" {
            "API key"
        } else if kw == "token" {
            "token"
        } else {
            "password"
        };
        return Some(kind);
    }
    for m in SET_TO.captures_iter(lower) {
        let end = m.get(0).map_or(0, |m| m.end());
        let kw = &m["kw"];
        let need = if kw.starts_with("pin") || kw.contains("code") {
            Need::Digits(3)
        } else {
            Need::Any
        };
        if value_fits(&folded[end..], &lower[end..], need, Conn::Is) {
            return Some(if kw.starts_with("pin") {
                "PIN"
            } else {
                "password"
            });
        }
    }
    None
}
