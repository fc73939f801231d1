//! Opaque strings: long runs of mixed letters and digits that look generated, and short
//! strings mixing cases, digits and symbols like a password; identifiers named as such are not
//! secrets.

use super::keyword::{is_quote, is_symbol};

/// Words naming what follows as an identifier: a commit, an address, an id.
pub(super) const IDENTIFIER_WORDS: &[&str] = &[
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
pub(super) struct Shape {
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

pub(super) fn shape(token: &str) -> Shape {
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
pub(super) fn opaque_token(folded: &str, lower: &str) -> Option<&'static str> {
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
        // (a random one uses most of the 16 digits: "aaaa…" or "deadbeefdeadbeef…" is no key)
        let digits_used = |h: &str| {
            let mut seen = [false; 128];
            h.bytes()
                .for_each(|b| seen[usize::from(b.to_ascii_lowercase() & 0x7f)] = true);
            seen.iter().filter(|s| **s).count()
        };
        if hex.len() >= 32 && hex.chars().all(|c| c.is_ascii_hexdigit()) && digits_used(hex) >= 8 {
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

pub(super) fn is_uuid(token: &str) -> bool {
    let parts: Vec<&str> = token.split('-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
}
