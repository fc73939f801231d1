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
//!
//! Then keywords in other languages with a value of their shape, and a recovery phrase told
//! by its words alone (`languages.rs`).

mod chinese;
mod keyword;
mod languages;
mod opaque;
mod pairs;
mod words;

use std::sync::LazyLock;

use regex::{Regex, RegexSet, RegexSetBuilder};

use super::{ascii_classes, normalize};

use chinese::chinese;
use keyword::{DFA_SIZE, code_is, keyword_value, reversed_or_set};
use opaque::opaque_token;
use pairs::{card_number, login_pair};

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

/// "The garage keypad opens with 8866#", "the door unlocks with 1-9-7-3": a code; "Sid uses
/// 'correcthorse' to log in": a password.
static OPENS_WITH: LazyLock<Regex> = LazyLock::new(|| {
    keyword::build(
        r"\b(?:door|keypad|gate|lock|safe|locker|padlock|lockbox|box|garage|alarm|entrance|vault|cabinet|phone|iphone|android|laptop|ipad|tablet|computer|pc|mac)\b[^.;!?\n]{0,24}?\b(?:opens|unlocks|opened|unlocked|disarms|disarmed|uses)\s+(?:with\s+|using\s+|by typing\s+|by entering\s+|by pressing\s+)?(?P<code>[#*]?\d[\d \-#*]*)",
    )
});
/// A way in described, then its value said outright: "the alarm disarms with the year Grandpa
/// was born followed by 99, so 194799", "to get into Mia's laptop type her cat's name and
/// birth year: Whiskers1994", "the building code is the last four digits of Anna's phone,
/// which are 6 0 3 8".
static DESCRIBED_THEN_SAID: LazyLock<Regex> = LazyLock::new(|| {
    keyword::build(
        r#"\b(?:disarms?|unlocks?|opens|get into|gets into|log ?in|login|sign ?in|password|passcode|pin|code|combination)\b[^.;!?\n]{0,90}?(?:(?:,|—|–|\s-)\s*so|\bi\.e\.|,\s*that is|,\s*which (?:is|are)|:)\s*["']?(?P<value>[^\s"']*\d[^\s"']*(?:\s\d\b){0,6})"#,
    )
});
/// A device's unlock code and a recovery phrase after a short aside: "my phone unlock is 1 4 7
/// 2 5 8", "my seed phrase just in case: apple river stone …" (twelve words or more).
static UNLOCK_OR_PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    keyword::build(
        r"\b(?:phone|iphone|android|laptop|tablet|ipad|computer|pc|mac|screen)\s+(?:unlock|lock\s*screen|passcode)(?:\s+code)?\s*(?:is|:|=)\s*(?:\d[\s\-]?){4,10}\b|\b(?:seed|recovery|mnemonic|backup|wallet)\s+(?:phrase|words)\b[^:\n]{0,30}:\s*(?:[a-z]+\s+){11,23}[a-z]+",
    )
});
/// A safe's or a lock's combination turned out ("24 left, 11 right, 38 left"), and a network
/// joined with its passphrase ("join 'Fam_5G' using blue-otter-drums-8"), a twenty-fifth
/// batch.
static COMBINATION_OR_JOINED: LazyLock<Regex> = LazyLock::new(|| {
    keyword::build(
        r#"\bcombination\b[^.\n]{0,40}?\b\d{1,3}\s*(?:left|right|l|r)\b[^.\n]{0,8}?\b\d{1,3}\s*(?:left|right|l|r)\b|\b(?:join|joins|connect to|connects to|get on|gets on)\s+(?:the\s+)?(?:wi-?fi|network|["'][^"'\n]{2,32}["'])\s+(?:network\s+)?(?:using|with)\s+(?:the\s+)?(?:password\s+|passphrase\s+|key\s+)?["']?[a-z0-9]+(?:[-_][a-z0-9]+){2,}\b"#,
    )
});
static LOGS_IN_WITH: LazyLock<Regex> = LazyLock::new(|| {
    keyword::build(
        r#"\b(?:uses?|used|types?|enters?)\s+(?P<value>["'][^"'\s]{4,40}["']|[^\s]*\d[^\s]*)\s+(?:to|for)\s+(?:log ?in|sign ?in|login|unlock|get into|access)\b"#,
    )
});

/// A mother's maiden name is a biographical fact, unless it is given as a bank's or a
/// login's security answer.
fn maiden_name_for_security(lower: &str) -> bool {
    lower.contains("maiden name")
        && [
            "bank",
            "security",
            "verification",
            "account",
            "login",
            "password",
        ]
        .iter()
        .any(|w| lower.contains(w))
        && [" is ", " it's ", ": "].iter().any(|w| lower.contains(w))
}

/// An answer given for a security question: "first pet's name for my bank security question
/// = Biscuit", "the answer to my 'first pet' security question is Biscuit" (the question named alone, "my bank's security question is 'first pet'", says
/// which question, not its answer; "the field for the security question is optional" says
/// nothing of either).
static FOR_SECURITY_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bfor\s+(?:my|the|his|her|our|their)?\s*(?:[\w']+\s+){0,2}security\s+questions?\s*(?:=|:|->|→)\s*\S|\banswer\s+to\s+(?:my|the|his|her|our|their)\s+(?:\S+\s+){0,3}security\s+questions?\s*(?:=|:|->|→|\bis\b)\s*\S|\bsecurity\s+questions?\b[^.\n]{0,40}?\banswer\s*(?:=|:|->|→)\s*\S")
        .expect("compiles")
});

fn opens_with(folded: &str, lower: &str) -> Option<&'static str> {
    if maiden_name_for_security(lower) || FOR_SECURITY_QUESTION.is_match(lower) {
        return Some("security answer");
    }
    if OPENS_WITH
        .captures_iter(lower)
        .any(|c| c["code"].chars().filter(char::is_ascii_digit).count() >= 3)
    {
        return Some("access code");
    }
    if UNLOCK_OR_PHRASE.is_match(lower) || COMBINATION_OR_JOINED.is_match(lower) {
        return Some("access code");
    }
    if DESCRIBED_THEN_SAID.captures_iter(lower).any(|c| {
        let value = &c["value"];
        value.chars().filter(char::is_ascii_digit).count() >= 4
            || value.len() >= 5 && keyword::credential_like(value)
    }) {
        return Some("access code");
    }
    LOGS_IN_WITH
        .captures_iter(lower)
        .any(|c| {
            let v = c.name("value").map_or("", |m| m.as_str());
            v.starts_with(['"', '\''])
                || keyword::credential_like(
                    &folded[c.name("value").map_or(0, |m| m.start())..][..v.len()],
                )
        })
        .then_some("password")
}

/// The kind of credential `text` carries, if any.
pub(super) fn detect(text: &str) -> Option<&'static str> {
    read(text).or_else(|| {
        let joined = joined_out(text)?;
        read(&joined)
    })
}

/// A word or a value spelled out a character at a time ("p-a-s-s-w-o-r-d", "h-u-n-t-e-r-4-2",
/// 密码 6 6 0 9), or a code in groups ("550 127").
static SPELLED_OUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:[\p{L}\p{N}][-.· ]){2,}[\p{L}\p{N}]\b|\b\d{3}(?: \d{3})+\b")
        .expect("compiles")
});

/// A key split into groups "so nothing flags it" (a twenty-fifth batch): a provider's prefix,
/// then groups of letters and digits ("AKIA 4Q7Z 2LMN 8XRP TVW3", "sk- 8f3a 9c2d 71be …").
static KEY_IN_GROUPS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:AKIA|ASIA|sk-|sk_live_|ghp_|xoxb-)\s*(?:[A-Za-z0-9]{3,6}\s+){2,}[A-Za-z0-9]{3,6}\b",
    )
    .expect("compiles")
});

/// `text` with what it spells out a character at a time, or a code or a key in groups,
/// written whole; `None` when it has none.
fn joined_out(text: &str) -> Option<String> {
    let keys = KEY_IN_GROUPS.is_match(text).then(|| {
        KEY_IN_GROUPS
            .replace_all(text, |caps: &regex::Captures<'_>| caps[0].replace(' ', ""))
            .into_owned()
    });
    let text = keys.as_deref().unwrap_or(text);
    if SPELLED_OUT.is_match(text) {
        return Some(
            SPELLED_OUT
                .replace_all(text, |caps: &regex::Captures<'_>| {
                    caps[0].replace(['-', '.', '·', ' '], "")
                })
                .into_owned(),
        );
    }
    keys
}

/// [`detect`] on the text as written.
fn read(text: &str) -> Option<&'static str> {
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
    .or_else(|| (!folded.is_ascii() && chinese::used_to_log_in(folded)).then_some("password"))
    .or_else(|| {
        let digits = lower.bytes().filter(u8::is_ascii_digit).count();
        (digits >= 13 && card_number(&lower)).then_some("card number")
    })
    .or_else(|| (lower.contains("code") && code_is(&lower)).then_some("access code"))
    .or_else(|| login_pair(folded, &lower).then_some("credentials"))
    .or_else(|| opens_with(folded, &lower))
    .or_else(|| opaque_token(folded, &lower))
    .or_else(|| languages::detect(&text.to_lowercase()))
}
