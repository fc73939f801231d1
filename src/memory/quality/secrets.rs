//! Does a text carry a credential? Five ways to tell, from the surest:
//!
//! 1. **Shapes**: provider keys and tokens whose format gives them away (`sk-…`, `ghp_…`,
//!    `AKIA…`, JWTs, PEM private keys, URLs with a password or a token parameter).
//! 2. **A keyword and its value**: "my bank PIN is 4821", "pw: …", "the password for the router
//!    is …", "hunter2 is my password", "set the wifi password to …", "密码是 …", "验证码 482913",
//!    "the storage unit code is 4471". A keyword alone is not a secret: "my password manager is
//!    Bitwarden", "the PIN pad is broken", "the password is on the fridge" (a word that
//!    describes rather than being the value), "my zip code is 10115", "密码学". Each kind says
//!    what its value must look like (a PIN has digits, "the secret is X" needs an X that looks
//!    generated).
//! 3. **Login pairs**: `user/password` where an account or a device is named ("router:
//!    admin/admin123").
//! 4. **Card numbers**: Luhn-valid, a known issuer's prefix, and a card word or 4-digit groups.
//! 5. **Opaque strings**: long runs of mixed letters and digits that switch class often, like
//!    generated keys (an AWS secret key, a base64 blob, 32+ hex digits), and short strings
//!    mixing lower- and uppercase, digits and symbols, like a password (`Q7!vLm2#xR`). A
//!    commit hash, a wallet address or a UUID is an identifier, not a secret, when it is named
//!    as one; URL paths and e-mail addresses are left alone.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

use super::{ascii_classes, normalize};

/// Provider formats, each with the kind it names. On the folded text, case kept.
static SHAPES: LazyLock<(RegexSet, Vec<&'static str>)> = LazyLock::new(|| {
    let (patterns, kinds): (Vec<&str>, Vec<&'static str>) = [
        (r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", "private key"),
        (r"\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_\-]{16,}", "API key"),
        (r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}", "API key"),
        (r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b", "AWS key"),
        (r"\bAIza[0-9A-Za-z_\-]{30,}", "API key"),
        (r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}", "API key"),
        (r"\bkey-[0-9a-z]{32}\b", "API key"),
        (r"\bLTAI[A-Za-z0-9]{12,}", "API key"),
        (r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}", "token"),
        (r"\bglpat-[A-Za-z0-9_\-]{20,}", "token"),
        (r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", "token"),
        (r"\bxapp-\d-[A-Za-z0-9\-]{10,}", "token"),
        (r"\b(?:npm|hf)_[A-Za-z0-9]{30,}", "token"),
        (r"\bya29\.[A-Za-z0-9_\-]{20,}", "token"),
        (r"\b\d{8,10}:[A-Za-z0-9_\-]{30,}", "token"), // Telegram bot token
        (r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.", "token"), // JWT
        (r"\b(?:whsec|GOCSPX)[_\-][A-Za-z0-9_\-]{16,}", "secret"),
        (r"(?i)hooks\.slack\.com/services/[A-Za-z0-9/]{16,}", "token"),
        (r"(?i)discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{16,}", "token"),
        // scheme://user:password@host
        (r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]+:[^\s/@]+@[^\s/]+", "credentials"),
        (
            r"(?i)[?&](?:access_token|token|api_?key|key|secret|password|passwd|pwd|sig|signature|auth)=[^\s&]{8,}",
            "token",
        ),
    ]
    .into_iter()
    .unzip();
    let set = RegexSetBuilder::new(patterns.iter().map(|p| ascii_classes(p)))
        .dfa_size_limit(DFA_SIZE)
        .build()
        .expect("secret shapes compile");
    (set, kinds)
});

/// Room for the lazy DFA: with the default a large pattern thrashes its cache and matching
/// falls back to a much slower engine.
const DFA_SIZE: usize = 32 << 20;

fn build(pattern: &str) -> Regex {
    RegexBuilder::new(&ascii_classes(pattern))
        .dfa_size_limit(DFA_SIZE)
        .build()
        .expect("secret pattern compiles")
}

/// What the value after a keyword must look like.
#[derive(Clone, Copy, PartialEq)]
enum Need {
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
const KINDS: &[(&str, Need)] = &[
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
    ("secret", Need::Credential), // a bare "secret"
    ("key", Need::Credential),    // a bare "key"
];

const SEP: &str = r"[ _\-]?";

/// The keywords of each of `KINDS`, on the ASCII-lowercased folded text.
static KEYWORD_GROUPS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let s = SEP;
    let groups = vec![
        format!(
            r"(?:verification|confirmation|one{s}time|otp|2fa|two{s}factor|mfa|login|sms|auth|authenticator|backup|recovery|reset|security|unlock|guard){s}codes?|otps?|one{s}time{s}passwords?|totp"
        ),
        format!(
            r"aws{s}(?:secret{s})?(?:access{s})?keys?(?:{s}id)?|secret{s}access{s}keys?|aws{s}secrets?"
        ),
        format!(r"private{s}keys?|ssh{s}keys?|gpg{s}keys?|pgp{s}keys?|signing{s}keys?"),
        format!(
            r"(?:client|api|app|shared|signing|webhook|jwt|session|consumer|oauth){s}secrets?|secret{s}(?:codes?|words?|phrases?|answers?|values?|keys?)"
        ),
        format!(
            r"api{s}keys?|apikeys?|access{s}keys?(?:{s}(?:id|secret))?|license{s}keys?|product{s}keys?|activation{s}keys?|encryption{s}keys?|master{s}keys?|recovery{s}keys?|unseal{s}keys?|app{s}keys?|client{s}keys?|wi{s}fi{s}keys?|wifi{s}keys?|wpa2?{s}keys?|network{s}keys?"
        ),
        format!(r"(?:seed|recovery|mnemonic|backup|wallet){s}(?:phrases?|words)|mnemonic|seed"),
        format!(r"pass{s}codes?|unlock{s}pins?"),
        format!(r"pass{s}phrases?"),
        format!(
            r"pass(?:word|wd|wort)s?|p[a@4]ssw[o0]rds?|pwd|pw|p/w|mot de passe|contrase(?:ñ|n)a|senha|wi{s}fi{s}(?:codes?|pass(?:word|wd)?s?)"
        ),
        format!(r"pin{s}codes?|pin{s}numbers?|pincode|pins?"),
        format!(
            r"(?:(?:access|auth|bearer|refresh|api|bot|session|personal{s}access|vpn|security|github|gitlab|slack|discord|telegram|npm|hf|oauth|csrf|login){s})?tokens?(?:{s}codes?)?"
        ),
        format!(
            r"(?:front{s}door|back{s}door|door|gate|garage|alarm|safe|lock|locker|entry|entrance|keypad|disarm|lockbox|key{s}box|padlock|bike{s}lock|access|building|apartment|house){s}codes?|combinations?|combo"
        ),
        format!(r"cvv2?|cvc2?|csc|card{s}security{s}codes?"),
        format!(r"(?:credit|debit|bank){s}card{s}(?:number|no\.?|#)|card{s}(?:number|no\.?|#)"),
        format!(
            r"ssn|social{s}security(?:{s}(?:number|no\.?|#))?|national{s}insurance{s}number|tax{s}id"
        ),
        format!(r"credentials?|creds|logins?|log{s}in|sign{s}in|username and password"),
        r"secrets?".to_string(),
        r"keys?".to_string(),
    ];
    assert_eq!(groups.len(), KINDS.len());
    groups
});

/// Any keyword. It starts after a non-alphanumeric character (so `db_password=` counts,
/// `tokenomics` does not); its end is checked by the caller. Leftmost-first: the first group
/// that matches where a keyword starts is the one found.
static KEYWORD: LazyLock<Regex> = LazyLock::new(|| {
    let alternation = KEYWORD_GROUPS
        .iter()
        .map(|g| format!("(?:{g})"))
        .collect::<Vec<_>>()
        .join("|");
    build(&format!(r"(?:^|[^a-z0-9])(?:{alternation})"))
});

/// Which kind a keyword found by `KEYWORD` is: the first group that matches it whole (cheaper
/// than capture groups over the whole text).
static KEYWORD_KIND: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSetBuilder::new(
        KEYWORD_GROUPS
            .iter()
            .map(|g| ascii_classes(&format!("^(?:{g})$"))),
    )
    .build()
    .expect("keyword kinds compile")
});

/// "hunter2 is my password", "4821 is the door code".
static REVERSED: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r#"(?:^|[\s"'(])(?P<val>[^\s"']{3,})["']?\s+(?:is|was|=)\s+(?:my|the|our|his|her|their|your|[a-z]+'s)\s+(?:[a-z0-9\-]+\s+){0,3}?(?P<kw>passwords?|passcodes?|passphrases?|pw|pin(?: code)?|(?:door|gate|garage|alarm|safe|lock|access|entry) codes?|combination|secret word|api key|token)(?P<rest>.*)"#,
    )
});

/// "set the wifi password to …", "changed my PIN to …".
static SET_TO: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"(?:^|[^a-z])(?:set|sets|setting|change|changed|changes|changing|reset|resets|update|updated|updating)\s+(?:(?:the|my|our|his|her|their|your|[a-z]+'s)\s+)?(?:[a-z0-9\-]+\s+){0,2}?(?P<kw>passwords?|passcodes?|passphrases?|pw|pins?|pin codes?|(?:door|gate|garage|alarm|safe) codes?)\s+to\s+",
    )
});

/// "the storage unit code is 4471": any code given as 4–10 digits, unless it names something
/// public (`CODES_NOT_SECRET`).
static CODE_IS: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"(?:^|[^a-z0-9])(?P<word>[a-z]+)[ _\-]?codes?\s*(?:is|was|:|=)\s*(?P<value>[#*]?\d[\d \-#*]*)",
    )
});

/// Codes that are addresses, classifications or published numbers, not secrets.
const CODES_NOT_SECRET: &[&str] = &[
    "zip",
    "postal",
    "post",
    "postcode",
    "area",
    "country",
    "dialing",
    "dial",
    "calling",
    "error",
    "status",
    "exit",
    "return",
    "response",
    "http",
    "course",
    "class",
    "module",
    "product",
    "item",
    "sku",
    "tax",
    "airport",
    "flight",
    "station",
    "branch",
    "sort",
    "swift",
    "bic",
    "iata",
    "icao",
    "region",
    "language",
    "locale",
    "color",
    "colour",
    "hex",
    "source",
    "qr",
    "bar",
    "promo",
    "discount",
    "coupon",
    "voucher",
    "referral",
    "invite",
    "invitation",
    "friend",
    "dress",
    "building",
    "fiscal",
    "department",
    "dept",
    "project",
    "unit",
    "room",
    "location",
    "site",
    "store",
    "shop",
    "cost",
    "budget",
    "account",
    "ticket",
    "booking",
    "reservation",
    "order",
    "tracking",
    "customer",
    "client",
    "employee",
    "staff",
    "member",
    "membership",
    "loyalty",
    "style",
    "model",
    "part",
    "serial",
    "batch",
    "lot",
    "diagnosis",
    "icd",
    "billing",
    "hs",
    "naics",
    "sic",
    "routing",
    "bank",
    "pin",
];

fn code_is(lower: &str) -> bool {
    CODE_IS.captures_iter(lower).any(|caps| {
        let digits = caps["value"].chars().filter(char::is_ascii_digit).count();
        (4..=10).contains(&digits) && !CODES_NOT_SECRET.contains(&&caps["word"])
    })
}

/// Chinese keywords, with the kind and what their value must look like.
static ZH_KEYWORD: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"(?P<card>银行卡号|信用卡号|储蓄卡号|卡号)|(?P<id>身份证号码|身份证号|身份证)|(?P<pin>(?i:pin)\s?码)|(?P<code>验证码|校验码|动态码|动态口令|安全码|识别码|门禁码)|(?P<seed>助记词|恢复短语)|(?P<key>私钥|密钥|秘钥|激活码|授权码)|(?P<pw>密码锁|密码箱|密码|口令|暗号|令牌)",
    )
});

/// Connectors after a Chinese keyword: "是", "为", "改成了", ":".
const ZH_CONNECTORS: &[&str] = &[
    "都是",
    "就是",
    "还是",
    "是",
    "为",
    "改成了",
    "改成",
    "改为",
    "换成了",
    "换成",
    "设置成",
    "设置为",
    "设为",
    "设成了",
    "设成",
    ":",
    "=",
];

/// Words after "is" that describe a credential rather than being it: "the password is too
/// short", "… is on the fridge", "… is the same as …", "… is my dog's name".
const NOT_VALUES: &[&str] = &[
    "a",
    "an",
    "the",
    "my",
    "his",
    "her",
    "their",
    "our",
    "your",
    "its",
    "this",
    "that",
    "these",
    "those",
    "it",
    "same",
    "different",
    "too",
    "very",
    "so",
    "quite",
    "really",
    "pretty",
    "not",
    "no",
    "never",
    "always",
    "being",
    "been",
    "going",
    "about",
    "like",
    "similar",
    "in",
    "on",
    "at",
    "under",
    "with",
    "from",
    "for",
    "by",
    "of",
    "to",
    "as",
    "into",
    "inside",
    "behind",
    "somewhere",
    "something",
    "nothing",
    "none",
    "missing",
    "lost",
    "unknown",
    "known",
    "written",
    "hidden",
    "stolen",
    "forgotten",
    "shown",
    "given",
    "taken",
    "kept",
    "stuck",
    "gone",
    "old",
    "new",
    "weak",
    "strong",
    "long",
    "short",
    "secure",
    "insecure",
    "safe",
    "unsafe",
    "complex",
    "complicated",
    "simple",
    "easy",
    "hard",
    "difficult",
    "wrong",
    "incorrect",
    "invalid",
    "valid",
    "required",
    "needed",
    "mandatory",
    "optional",
    "also",
    "both",
    "either",
    "only",
    "more",
    "less",
    "longer",
    "shorter",
    "over",
    "outdated",
    "default",
    "empty",
    "available",
    "fine",
    "ok",
    "okay",
    "good",
    "bad",
    "great",
    "terrible",
    "stupid",
    "silly",
    "obvious",
    "impossible",
    "annoying",
    "one",
    "two",
    "what",
    "which",
    "who",
    "why",
    "how",
    "where",
    "when",
    "whatever",
    "here",
    "there",
    "out",
    "up",
    "off",
    "due",
    "still",
    "expiring",
    "case-sensitive",
    "unique",
    "random",
    "personal",
    "private",
    "public",
    "shared",
    "mine",
    "yours",
    "hers",
    "theirs",
    "all",
    "some",
    "any",
    "every",
    "each",
    "another",
    "other",
    "half",
    "changing",
    "rotating",
];

/// After a colon or "=" almost anything is a value; these are placeholders.
const PLACEHOLDERS: &[&str] = &[
    "none", "n/a", "na", "unknown", "tbd", "same", "see", "redacted", "hidden", "***", "xxx",
    "...", "?",
];

/// "16 characters long": what follows a number that measures rather than is the value.
const UNITS: &[&str] = &[
    "characters",
    "chars",
    "digits",
    "letters",
    "symbols",
    "words",
    "long",
    "years",
    "days",
    "weeks",
    "months",
    "times",
    "numbers",
];

/// Adverbs between "is" and the value: "is now hunter3", "is still 1234".
const FILLERS: &[&str] = &[
    "now",
    "still",
    "currently",
    "actually",
    "just",
    "literally",
    "simply",
    "always",
    "again",
];

#[derive(Clone, Copy, PartialEq)]
enum Conn {
    /// The value follows the keyword directly: "PIN 4821".
    None,
    /// "is", "was", "是".
    Is,
    /// ":" or "=".
    Colon,
}

fn is_quote(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '“' | '”' | '‘' | '’' | '「' | '」' | '`' | '«' | '»'
    )
}

fn is_symbol(c: char) -> bool {
    matches!(
        c,
        '!' | '@' | '#' | '$' | '%' | '^' | '&' | '*' | '?' | '~' | '+' | '=' | '_'
    )
}

/// The next whitespace-delimited token from `s`, after leading whitespace; with its end.
fn next_token(s: &str) -> Option<(&str, usize)> {
    let start = s.len() - s.trim_start().len();
    let rest = &s[start..];
    if rest.is_empty() {
        return None;
    }
    let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    Some((&rest[..len], start + len))
}

fn trim_punct(token: &str) -> &str {
    token.trim_end_matches(['.', ',', ';', ':', ')', '，', '。', '；', '、'])
}

/// Looks generated rather than chosen as a word: a digit, a symbol, a capital after a
/// lowercase letter.
fn credential_like(token: &str) -> bool {
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
fn descriptive(word: &str) -> bool {
    word.len() >= 5
        && word.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && (word.ends_with("ed") || word.ends_with("ing") || word.ends_with("ly"))
}

/// Whether what follows a keyword (`rest`, the folded text from the keyword's end) carries a
/// value of the kind `need`. `lower_rest` is the same text, ASCII-lowercased.
fn has_value(rest: &str, lower_rest: &str, need: Need) -> bool {
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
        if let Some(zh) = ["是", "为"].iter().find(|z| trimmed.starts_with(**z)) {
            conn = Conn::Is;
            pos += skip + zh.len();
            break;
        }
        let Some((word, end)) = next_token(tail) else {
            return false;
        };
        let bare = word.trim_end_matches([':', '=']);
        if matches!(
            bare,
            "is" | "was" | "are" | "were" | "equals" | "became" | "reads" | "=>" | "->"
        ) {
            conn = if bare.len() < word.len() {
                Conn::Colon
            } else {
                Conn::Is
            };
            pos += end;
            break;
        }
        if step == 0 && matches!(word, "for" | "to" | "of" | "on" | "at" | "in" | "from") {
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

/// Whether the text after a connector is a value of the kind `need`.
fn value_fits(value: &str, lower: &str, need: Need, conn: Conn) -> bool {
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
    let describes = NOT_VALUES.contains(&lower_token) || descriptive(lower_token) || measure;
    match need {
        Need::Digits(min) => {
            // "665 201", "12-34-56", "*1942", "4455#": the digits of the value's run
            let run: String = value
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || " -*#./".contains(*c))
                .collect();
            let digits = run.chars().filter(char::is_ascii_digit).count();
            digits >= min
                && (!run.trim_start().starts_with(char::is_alphabetic) || credential_like(token))
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

/// Keyword, connector, value (English and the other Latin-script keywords); and whether the
/// text holds a keyword at all.
fn keyword_value(folded: &str, lower: &str) -> (Option<&'static str>, bool) {
    let mut any = false;
    for found in KEYWORD.find_iter(lower) {
        any = true;
        let keyword = found
            .as_str()
            .trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
        let Some(index) = KEYWORD_KIND.matches(keyword).iter().next() else {
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
        let (kind, need) = KINDS[index];
        if has_value(&folded[m.end()..], &lower[m.end()..], need) {
            return (Some(kind), true);
        }
    }
    (None, any)
}

fn reversed_or_set(folded: &str, lower: &str) -> Option<&'static str> {
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

/// "密码是 abc123", "验证码 482913", "口令是“天王盖地虎”", "取款密码是女儿生日 0815".
fn chinese(folded: &str) -> Option<&'static str> {
    for caps in ZH_KEYWORD.captures_iter(folded) {
        let Some(m) = caps.get(0) else { continue };
        let (kind, digits_needed) = if caps.name("card").is_some() {
            ("card number", 12)
        } else if caps.name("id").is_some() {
            ("ID number", 6)
        } else if caps.name("pin").is_some() {
            ("PIN", 3)
        } else if caps.name("code").is_some() {
            ("verification code", 3)
        } else if caps.name("seed").is_some() {
            ("recovery phrase", 0)
        } else if caps.name("key").is_some() {
            ("API key", 0)
        } else {
            ("password", 0)
        };
        let mut rest = folded[m.end()..].trim_start();
        let mut connected = false;
        for _ in 0..2 {
            if let Some(c) = ZH_CONNECTORS.iter().find(|c| rest.starts_with(**c)) {
                rest = rest[c.len()..].trim_start();
                connected = true;
            } else if rest.starts_with('的') {
                // "密码的话是", not "密码的长度"
                break;
            }
        }
        if kind == "recovery phrase" {
            if connected && rest.split_whitespace().take_while(|w| w.is_ascii()).count() >= 6 {
                return Some(kind);
            }
            continue;
        }
        let first = rest.chars().next();
        if first.is_some_and(is_quote) && connected {
            return Some(kind);
        }
        // an ASCII value right there: "是 Xy!92kLm", "密码 556677"
        let ascii: String = rest
            .chars()
            .take_while(|c| c.is_ascii_graphic() || *c == ' ')
            .collect();
        let ascii = ascii.trim();
        let value = ascii.split(' ').next().unwrap_or("");
        let digits = ascii
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || " -*#/".contains(*c))
            .filter(char::is_ascii_digit)
            .count();
        if digits_needed > 0 {
            if digits >= digits_needed
                && (connected
                    || digits == ascii.chars().filter(char::is_ascii_alphanumeric).count()
                    || credential_like(value))
            {
                return Some(kind);
            }
            continue;
        }
        let generated = value.len() >= 8 && value.chars().all(|c| c.is_ascii_alphanumeric());
        if !value.is_empty()
            && value.chars().count() >= 3
            && (connected || credential_like(value) || kind == "API key" && generated)
        {
            return Some(kind);
        }
        // a description, then the value: "取款密码是女儿生日 0815"
        if connected {
            let near: String = rest.chars().take(12).collect();
            let run = near
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|t| t.chars().filter(char::is_ascii_digit).count() >= 4);
            if run {
                return Some(kind);
            }
            if kind == "password"
                && first.is_some_and(|c| !c.is_ascii())
                && matches!(m.as_str(), "口令" | "暗号")
                && rest
                    .chars()
                    .take_while(|c| !matches!(c, '，' | ',' | '。' | '.'))
                    .count()
                    >= 3
            {
                return Some(kind);
            }
        }
    }
    None
}

static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    build(r"(?:^|[\s:=(])(?P<user>[a-z0-9._@\-]{2,40}) ?/ ?(?P<pass>[^\s/]{3,40})(?:$|[\s,;)])")
});

static PAIR_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"\b(?:router|admin|login|log in|account|server|ssh|s?ftp|vpn|wi-?fi|nas|db|database|mysql|postgres|e-?mail|gmail|root|user(?:name)?|portal|panel|console|dashboard|creds?|credentials)\b|账号|账户|用户名|登录",
    )
});

/// Factory defaults: "admin/admin", "root/root".
const DEFAULT_USERS: &[&str] = &[
    "admin",
    "root",
    "administrator",
    "user",
    "guest",
    "pi",
    "ubnt",
];

/// `user/password` where a device or an account is named: "router: admin/admin123".
fn login_pair(folded: &str, lower: &str) -> bool {
    PAIR.captures_iter(lower).any(|caps| {
        let (Some(user), Some(pass)) = (caps.name("user"), caps.name("pass")) else {
            return false;
        };
        let user = user.as_str();
        let pass_lower = pass.as_str().trim_end_matches(['.', ',']);
        let pass_folded = &folded[pass.start()..pass.start() + pass_lower.len()];
        user.chars().any(|c| c.is_ascii_alphabetic())
            && (credential_like(pass_folded)
                || DEFAULT_USERS.contains(&user)
                    && (pass_lower == user || DEFAULT_USERS.contains(&pass_lower)))
            && PAIR_CONTEXT.is_match(lower)
    })
}

fn luhn(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

static CARD: LazyLock<Regex> =
    LazyLock::new(|| build(r"(?:^|[^\d+])(\d(?:[ -]?\d){12,18})(?:$|[^\d])"));

static CARD_WORD: LazyLock<Regex> = LazyLock::new(|| {
    build(r"card|visa|mastercard|amex|american express|discover|unionpay|maestro|jcb|卡")
});

/// A payment card number: 13–19 digits, Luhn-valid, a known issuer's prefix; either a card
/// word in the text or written in groups of four.
fn card_number(lower: &str) -> bool {
    CARD.captures_iter(lower).any(|caps| {
        let raw = &caps[1];
        let digits: Vec<u32> = raw.chars().filter_map(|c| c.to_digit(10)).collect();
        let n = digits.len();
        let issuer = match digits[0] {
            4 => matches!(n, 13 | 16 | 19),
            3 => n == 15 && matches!(digits[1], 4 | 7) || n == 16 && digits[1] == 5,
            5 => n == 16 && (1..=5).contains(&digits[1]),
            2 => n == 16 && (2..=7).contains(&digits[1]),
            6 => (16..=19).contains(&n),
            _ => false,
        };
        let grouped = raw
            .split([' ', '-'])
            .filter(|g| !g.is_empty())
            .all(|g| g.len() == 4 || g.len() == 3)
            && raw.contains([' ', '-']);
        issuer && luhn(&digits) && (grouped || CARD_WORD.is_match(lower))
    })
}

/// Words naming what follows as an identifier: a commit, an address, an id.
const IDENTIFIER_WORDS: &[&str] = &[
    "commit",
    "sha",
    "sha1",
    "sha256",
    "sha-256",
    "hash",
    "checksum",
    "digest",
    "md5",
    "revision",
    "rev",
    "object",
    "blob",
    "build",
    "address",
    "addr",
    "wallet",
    "tx",
    "txid",
    "transaction",
    "uuid",
    "guid",
    "id",
    "ids",
    "id:",
    "hash:",
    "commit:",
    "block",
    "cid",
    "ipfs",
    "torrent",
    "magnet",
    "isbn",
    "doi",
    "fingerprint",
    "image",
    "container",
];

/// Counts of a token's character classes and of its class changes.
struct Shape {
    len: usize,
    alnum: usize,
    lower: usize,
    upper: usize,
    digits: usize,
    symbols: usize,
    /// lowercase → uppercase and letter ↔ digit changes between neighbours (capitalising a word
    /// does not count)
    switches: usize,
    distinct: usize,
}

fn shape(token: &str) -> Shape {
    let mut s = Shape {
        len: 0,
        alnum: 0,
        lower: 0,
        upper: 0,
        digits: 0,
        symbols: 0,
        switches: 0,
        distinct: 0,
    };
    let mut seen = [false; 128];
    let mut prev: Option<u8> = None; // 0 lower, 1 upper, 2 digit
    for c in token.chars() {
        s.len += 1;
        let class = if c.is_ascii_lowercase() {
            s.lower += 1;
            0
        } else if c.is_ascii_uppercase() {
            s.upper += 1;
            1
        } else if c.is_ascii_digit() {
            s.digits += 1;
            2
        } else {
            if is_symbol(c) {
                s.symbols += 1;
            }
            continue;
        };
        s.alnum += 1;
        // an ASCII letter or digit here
        let b = c as usize;
        if !seen[b] {
            seen[b] = true;
            s.distinct += 1;
        }
        if let Some(p) = prev
            && p != class
            && !(p == 1 && class == 0)
        {
            s.switches += 1;
        }
        prev = Some(class);
    }
    s
}

/// Long generated strings and password-like tokens, outside URLs, paths and e-mail addresses.
fn opaque_token(folded: &str, lower: &str) -> Option<&'static str> {
    let tokens: Vec<(usize, &str)> = folded
        .split(|c: char| {
            c.is_whitespace()
                || !c.is_ascii()
                || matches!(
                    c,
                    '"' | '\'' | '(' | ')' | '[' | ']' | '{' | '}' | '<' | '>' | ',' | ';' | '`'
                )
        })
        .filter(|t| !t.is_empty())
        .map(|t| (t.as_ptr() as usize - folded.as_ptr() as usize, t))
        .collect();
    for (i, &(offset, raw)) in tokens.iter().enumerate() {
        let token = raw
            .trim_end_matches(['.', ',', ':', ';'])
            .trim_start_matches([':', '=']);
        // "KEY=value": judge the value
        let token = token
            .split_once('=')
            .filter(|(k, v)| {
                !k.is_empty()
                    && v.len() >= 8
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
            .map_or(token, |(_, v)| v.trim_matches(is_quote));
        if token.len() < 8 {
            continue;
        }
        let low = &lower[offset..offset + raw.len()];
        if low.contains("://") || low.starts_with("www.") || token.starts_with(['/', '~', '#', '@'])
        {
            continue;
        }
        if let Some((user, domain)) = token.split_once('@')
            && !user.is_empty()
            && domain.contains('.')
            && domain
                .rsplit('.')
                .next()
                .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
        {
            continue; // an e-mail address
        }
        let named = || {
            tokens[i.saturating_sub(6)..i].iter().any(|(o, t)| {
                let w = lower[*o..*o + t.len()].trim_end_matches([':', '.', ',']);
                IDENTIFIER_WORDS.contains(&w)
            })
        };
        let hex = token.strip_prefix("0x").unwrap_or(token);
        if hex.len() >= 32 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            // 0x + 40 hex digits is an address (public); a UUID-free run of 32+ hex digits,
            // unnamed, is a key
            let address = token.starts_with("0x") && hex.len() == 40;
            if !address && !named() {
                return Some("high-entropy string");
            }
            continue;
        }
        if is_uuid(token) {
            continue;
        }
        let s = shape(token);
        // an AWS secret access key: 40 base64 characters, mixed case and digits
        if s.len == 40
            && token
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '/' || c == '+')
            && s.lower > 0
            && s.upper > 0
            && s.digits > 0
            && s.switches >= 6
            && !named()
        {
            return Some("AWS key");
        }
        let mixed = s.digits >= 2 && s.lower + s.upper >= 6 || s.upper >= 4 && s.lower >= 4;
        let ratio = s.switches as f64 / (s.alnum.max(2) - 1) as f64;
        let long_random = s.alnum >= 20 && mixed && s.distinct >= 10 && ratio >= 0.3
            || s.alnum >= 30 && mixed && s.distinct >= 12 && ratio >= 0.18
            || s.alnum >= 16
                && s.digits >= 3
                && s.lower + s.upper >= 5
                && s.distinct >= 10
                && ratio >= 0.4;
        if long_random && !named() {
            return Some("high-entropy string");
        }
        // a password: lower- and uppercase, digits and a symbol inside, 8–64 characters
        let inner_symbol = token
            .chars()
            .skip(1)
            .any(|c| matches!(c, '!' | '@' | '#' | '$' | '%' | '^' | '&' | '*' | '?' | '~'));
        if (8..=64).contains(&s.len)
            && s.lower >= 1
            && s.upper >= 1
            && s.digits >= 1
            && inner_symbol
            && !token.contains("://")
        {
            return Some("password");
        }
    }
    None
}

fn is_uuid(token: &str) -> bool {
    let parts: Vec<&str> = token.split('-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The kind of credential `text` carries, if any.
pub(super) fn detect(text: &str) -> Option<&'static str> {
    let folded = normalize::fold(text);
    let folded = folded.as_ref();
    let (shapes, kinds) = &*SHAPES;
    if shapes.is_match(folded)
        && let Some(i) = shapes.matches(folded).iter().next()
    {
        return Some(kinds[i]);
    }
    let lower = folded.to_ascii_lowercase();
    let (kind, keywords) = keyword_value(folded, &lower);
    kind.or_else(|| {
        // both forms hold a keyword
        keywords.then(|| reversed_or_set(folded, &lower)).flatten()
    })
    .or_else(|| (!folded.is_ascii()).then(|| chinese(folded)).flatten())
    .or_else(|| {
        let digits = lower.bytes().filter(u8::is_ascii_digit).count();
        (digits >= 13 && card_number(&lower)).then_some("card number")
    })
    .or_else(|| (lower.contains("code") && code_is(&lower)).then_some("access code"))
    .or_else(|| login_pair(folded, &lower).then_some("credentials"))
    .or_else(|| opaque_token(folded, &lower))
}
