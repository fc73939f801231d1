//! Secrets said in languages the English and Chinese keyword rules do not read, found by a
//! twentieth held-out batch (2026-11-28): "銀行の暗証番号は2846", "비밀번호는 qkrwlsdn!23 이야",
//! "пароль от роутера — kotik_murzik77", "Pincode van de gezamenlijke rekening is 6603", "le
//! code de l'alarme chez mamie, c'est 1947"; 2FA backup codes (备用码); and a recovery phrase
//! said with no keyword the rules know ("Le 12 parole di recupero del wallet: ginger matrix
//! …"), told by its words: twelve or more in a row, all from the BIP-39 word list.
//!
//! A keyword alone is no secret ("le mot de passe du wifi est écrit sur le frigo"): the rest
//! of its sentence must carry a value of the keyword's shape — digits for a PIN or a code, a
//! word with a digit, a symbol or mixed case for a password.

use std::sync::LazyLock;

use regex::Regex;

use super::keyword::credential_like;
use crate::memory::text::is_cjk;

/// What a keyword's value must look like.
#[derive(Clone, Copy)]
enum Value {
    /// At least this many digits in one word.
    Digits(usize),
    /// A word like a password: a digit, a symbol inside, or mixed case.
    Password,
}

/// Keywords, each with the kind it names and its value's shape. Latin and Cyrillic ones are
/// whole words; Japanese, Korean and Chinese ones may stand inside a run of characters.
#[rustfmt::skip]
const KEYWORDS: &[(&str, &str, Value)] = &[
    // Japanese
    ("暗証番号", "PIN", Value::Digits(4)), ("パスワード", "password", Value::Password),
    ("パスコード", "access code", Value::Digits(4)), ("暗証コード", "access code", Value::Digits(4)),
    // Korean
    ("비밀번호", "password", Value::Password), ("비번", "password", Value::Password), ("핀번호", "PIN", Value::Digits(4)),
    // Chinese: a second factor's backup codes
    ("备用码", "backup code", Value::Digits(6)), ("恢复码", "backup code", Value::Digits(6)),
    ("备份码", "backup code", Value::Digits(6)),
    // Russian
    ("пароль", "password", Value::Password), ("пин-код", "PIN", Value::Digits(4)),
    ("пинкод", "PIN", Value::Digits(4)), ("пин", "PIN", Value::Digits(4)),
    ("код", "access code", Value::Digits(4)),
    // Dutch, German
    ("pincode", "PIN", Value::Digits(4)), ("wachtwoord", "password", Value::Password),
    ("passwort", "password", Value::Password), ("kennwort", "password", Value::Password),
    ("geheimzahl", "PIN", Value::Digits(4)), ("zugangscode", "access code", Value::Digits(4)),
    ("türcode", "access code", Value::Digits(4)),
    // French
    ("mot de passe", "password", Value::Password), ("code de l'alarme", "access code", Value::Digits(4)),
    ("code d'accès", "access code", Value::Digits(4)), ("code de la porte", "access code", Value::Digits(4)),
    ("code du portail", "access code", Value::Digits(4)), ("digicode", "access code", Value::Digits(4)),
    ("code secret", "PIN", Value::Digits(4)), ("code de carte", "PIN", Value::Digits(4)),
    ("code de la carte", "PIN", Value::Digits(4)), ("code de ma carte", "PIN", Value::Digits(4)),
    // Spanish, Portuguese, Italian
    ("contraseña", "password", Value::Password), ("senha", "password", Value::Password),
    ("código de verificação", "verification code", Value::Digits(4)),
    ("código de verificación", "verification code", Value::Digits(4)),
    ("código de acceso", "access code", Value::Digits(4)), ("código da porta", "access code", Value::Digits(4)),
    ("codice della porta", "access code", Value::Digits(4)), ("codice d'accesso", "access code", Value::Digits(4)),
    // Polish, Turkish
    ("hasło", "password", Value::Password), ("şifre", "password", Value::Password),
    ("şifresi", "password", Value::Password),
    // English: a code had ("the lockbox at the Airbnb has code 7734"; "the lockbox is at 4521
    // Oak Street" is an address)
    ("has code", "access code", Value::Digits(4)),
    ("has the code", "access code", Value::Digits(4)),
];

/// Characters after a keyword up to which its value is looked for: the rest of its sentence.
const REACH: usize = 60;

/// The kind of secret `lower` (the text, lowercase) carries in these languages, if any.
pub(super) fn detect(lower: &str) -> Option<&'static str> {
    if recovery_words(lower) {
        return Some("recovery phrase");
    }
    if !ANY_KEYWORD.is_match(lower) {
        return None;
    }
    KEYWORDS.iter().find_map(|&(keyword, kind, value)| {
        let spaced =
            keyword.chars().next().is_some_and(char::is_alphabetic) && !keyword.chars().any(is_cjk);
        lower
            .match_indices(keyword)
            .filter(|&(at, _)| !spaced || whole_word(lower, at, keyword.len()))
            .any(|(at, _)| carries(&lower[at + keyword.len()..], value))
            .then_some(kind)
    })
}

/// Every keyword at once, to pass over the texts that have none in one search.
static ANY_KEYWORD: LazyLock<Regex> = LazyLock::new(|| {
    let words: Vec<String> = KEYWORDS.iter().map(|(k, ..)| regex::escape(k)).collect();
    Regex::new(&words.join("|")).expect("the keywords compile")
});

fn whole_word(text: &str, at: usize, len: usize) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + len..].chars().next();
    !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
}

/// Whether the rest of a keyword's sentence carries a value of its shape.
fn carries(rest: &str, value: Value) -> bool {
    // a full stop ends it where a space or the end follows ("qkrwlsdn!23" is one word)
    let chars: Vec<char> = rest.chars().take(REACH).collect();
    let end = (0..chars.len())
        .find(|&i| match chars[i] {
            '\n' | '。' | '！' | '？' | ';' => true,
            '.' | '!' | '?' => chars.get(i + 1).is_none_or(|n| n.is_whitespace()),
            _ => false,
        })
        .unwrap_or(chars.len());
    let sentence: String = chars[..end].iter().collect();
    // a run of characters is split where the script changes: "は2846", "는 qkrwlsdn!23"
    sentence
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ',' | '，' | '、' | '：' | ':' | '—' | '–')
        })
        .map(|w| w.trim_start_matches(is_cjk).trim_end_matches(is_cjk))
        .filter(|w| !w.is_empty())
        .any(|word| match value {
            Value::Digits(n) => word.chars().filter(char::is_ascii_digit).count() >= n,
            // a password of digits only ("비밀번호는 4821이야"), not a year ("… changé en 2023")
            Value::Password if numeric_password(word) => true,
            Value::Password => {
                word.len() >= 5
                    && word.is_ascii()
                    && credential_like(word.trim_matches(['"', '\'']))
            }
        })
}

/// Whether `word` opens with a password of 4 to 12 digits (a bank's or a phone's), with no
/// more than a particle after it ("4821이야"), and is no year.
fn numeric_password(word: &str) -> bool {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let rest = &word[digits..];
    let year = digits == 4 && matches!(&word[..2], "19" | "20");
    (4..=12).contains(&digits) && !year && rest.chars().all(|c| !c.is_ascii_alphanumeric())
}

/// Twelve or more words in a row, each from the BIP-39 English list: a wallet's recovery
/// phrase, whatever is said around it. Prose always has a word off the list among twelve
/// ("the", "is", "my", "and" are not on it).
fn recovery_words(lower: &str) -> bool {
    let words = || {
        lower
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | '、' | ':' | '：'))
            .filter(|w| !w.is_empty())
    };
    if words().nth(11).is_none() {
        return false;
    }
    // the English list is in alphabetical order
    let listed = |w: &str| {
        bip39::Language::English
            .word_list()
            .binary_search(&w)
            .is_ok()
    };
    let mut run: Vec<&str> = Vec::with_capacity(12);
    for word in words() {
        let word = word.trim_matches(|c: char| !c.is_ascii_alphabetic());
        if word.len() >= 3 && listed(word) {
            run.push(word);
            // twelve words, hardly one twice ("word word word …" is no phrase)
            if run.len() >= 12 {
                let last = &run[run.len() - 12..];
                let distinct = last
                    .iter()
                    .enumerate()
                    .filter(|(i, w)| !last[..*i].contains(w))
                    .count();
                if distinct >= 11 {
                    return true;
                }
            }
        } else {
            run.clear();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::detect;

    #[test]
    fn secrets_in_other_languages_are_read() {
        for (text, kind) in [
            (
                "銀行の暗証番号は2846。忘れないように保存しておいて。",
                "PIN",
            ),
            (
                "내 공동인증서 비밀번호는 qkrwlsdn!23 이야. 저장해줘.",
                "password",
            ),
            (
                "код от домофона 47к1290, а пароль от роутера — kotik_murzik77",
                "password",
            ),
            ("код от домофона 47к1290", "access code"),
            ("pincode van de gezamenlijke rekening is 6603.", "PIN"),
            (
                "le code de l'alarme chez mamie, c'est 1947 puis la touche off.",
                "access code",
            ),
            (
                "谷歌两步验证备用码：40718263 91530274 66281035",
                "backup code",
            ),
            (
                "lockbox at the airbnb on rue cler has code 7734",
                "access code",
            ),
            (
                "le 12 parole di recupero del wallet: ginger matrix oyster pledge random suit tackle unveil volcano wisdom yard zebra",
                "recovery phrase",
            ),
            (
                "钱包助记词存一下：cactus lumber spring ozone tribe canal velvet nurse helmet fiscal ripple badge",
                "recovery phrase",
            ),
        ] {
            assert_eq!(detect(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn a_keyword_without_its_value_is_a_fact() {
        for text in [
            "le mot de passe du wifi est écrit sur le frigo, derrière l'aimant",
            "mijn pincode is veranderd, de bank stuurt een nieuwe brief",
            "пароль от вайфая записан на холодильнике",
            "비밀번호는 냉장고에 붙어 있어요",
            "the lockbox is by the back door",
            "our lockbox is at 4521 oak street",
            "암호화폐 가격이 5000달러를 넘었다",
            "i bought a cheap fitness tracker and a water bottle for the trip last week",
            "my kids love to play soccer after school every day with their friends from the neighborhood",
            "кодекс лежит на столе, страница 2846",
            "word word word word word word word word word word word word word word",
        ] {
            assert_eq!(detect(text), None, "{text}");
        }
    }
}
