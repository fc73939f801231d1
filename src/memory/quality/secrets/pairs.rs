//! Login pairs (`router: admin/admin123`) and card numbers (Luhn-valid, a known issuer's
//! prefix, and a card word or 4-digit groups).

use std::sync::LazyLock;

use regex::Regex;

use super::keyword::{build, credential_like};

pub(super) static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    build(r"(?:^|[\s:=(])(?P<user>[a-z0-9._@\-]{2,40}) ?/ ?(?P<pass>[^\s/]{3,40})(?:$|[\s,;)])")
});

pub(super) static PAIR_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"\b(?:router|admin|login|log in|logs? (?:in|into|on)|logged (?:in|into|on)|signs? (?:in|into|on)|signed (?:in|into|on)|account|server|ssh|s?ftp|vpn|wi-?fi|nas|db|database|mysql|postgres|e-?mail|gmail|root|user(?:name)?|portal|panel|console|dashboard|creds?|credentials)\b|账号|账户|用户名|登录",
    )
});

/// Factory defaults: "admin/admin", "root/root".
pub(super) const DEFAULT_USERS: &[&str] = &[
    "admin",
    "root",
    "administrator",
    "user",
    "guest",
    "pi",
    "ubnt",
];

/// `user/password` where a device or an account is named: "router: admin/admin123".
pub(super) fn login_pair(folded: &str, lower: &str) -> bool {
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
            && (PAIR_CONTEXT.is_match(lower) || is_email(user))
    })
}

/// An e-mail address as the user of a pair is a login: "dan@example.com / hunter2".
fn is_email(user: &str) -> bool {
    user.split_once('@')
        .is_some_and(|(name, host)| !name.is_empty() && host.contains('.'))
}

pub(super) fn luhn(digits: &[u32]) -> bool {
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

pub(super) static CARD: LazyLock<Regex> =
    LazyLock::new(|| build(r"(?:^|[^\d+])(\d(?:[ -]?\d){12,18})(?:$|[^\d])"));

pub(super) static CARD_WORD: LazyLock<Regex> = LazyLock::new(|| {
    build(r"card|visa|mastercard|amex|american express|discover|unionpay|maestro|jcb|卡")
});

/// A payment card number: 13–19 digits, Luhn-valid, a known issuer's prefix; either a card
/// word in the text or written in groups of four.
pub(super) fn card_number(lower: &str) -> bool {
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
