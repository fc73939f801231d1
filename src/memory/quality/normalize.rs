//! What a reader sees, not how it is encoded: the text both checks look at.
//!
//! Two views. [`fold`] (for the secret check) only undoes encoding tricks and keeps case, digits
//! and symbols, because a credential's shape is what gives it away. [`instruction_views`] goes
//! further, because an instruction is recognised by its words: it also maps look-alike letters
//! and accents, lowercases, reads leetspeak and joins spelled-out letters.

use std::borrow::Cow;

/// Base letters of U+00C0..U+024F (Latin-1 Supplement, Latin Extended-A and -B), `.` where
/// there is none: `é` → `e`, `ø` → `o`, `ł` → `l`. Generated from Unicode's NFKD.
const LATIN_BASE: &[u8] = concat!(
    "AAAAAA.CEEEEIIII.NOOOOO.OUUUUY.saaaaaa.ceeeeiiii.nooooo.ouuuuy.y",
    "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIiJjKk.LlLlLlL",
    "lLlNnNnNn...OoOoOo..RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs",
    "b......................I........Oo.............Uu...............",
    "....DDdLLlNNnAaIiOoUuUuUuUuUu.AaAa....GgKkOoOo..jDDdGg..NnAa....",
    "AaAaEeEeIiIiOoOoRrRrUuUuSsTt..Hh......AaEeOoOoOoOoYy............",
    "................",
)
.as_bytes();

fn ascii_letter(index: u32, upper: bool) -> char {
    let base = if upper { b'A' } else { b'a' };
    char::from(base + (index % 26) as u8)
}

/// Undoes what changes the bytes but not what a person (or a model) reads: invisible
/// characters are dropped (zero-width, bidi controls, variation selectors, combining marks,
/// soft hyphen); fullwidth forms, mathematical and enclosed letters and Unicode "tag"
/// characters (invisible ASCII) become ASCII; unusual spaces become a space. Case is kept.
/// `None`: drop the character.
pub(super) fn fold_char(c: char) -> Option<char> {
    let cp = c as u32;
    if cp < 0x80 {
        return Some(c);
    }
    match cp {
        0xAD
        | 0x34F
        | 0x61C
        | 0x115F
        | 0x1160
        | 0x17B4
        | 0x17B5
        | 0x180B..=0x180F
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x206F
        | 0x3164
        | 0xFE00..=0xFE0F
        | 0xFEFF
        | 0xFFA0
        | 0x1D173..=0x1D17A
        | 0xE0000..=0xE001F
        | 0xE007F..=0xE0FFF => None,
        // combining marks: "i\u{308}" reads as "ï", which reads as "i"
        0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F => {
            None
        }
        // tag characters: invisible copies of ASCII ("ASCII smuggling")
        0xE0020..=0xE007E => char::from_u32(cp - 0xE0000),
        0x2028 | 0x2029 => Some('\n'),
        0xA0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 => Some(' '),
        0xFF01..=0xFF5E => char::from_u32(cp - 0xFEE0),
        // mathematical alphanumerics: 𝐀..𝐳, 𝑨.., 𝓐.., 𝔄.., 𝕬.., 𝖠.., 𝚊..
        0x1D400..=0x1D6A3 => {
            let i = (cp - 0x1D400) % 52;
            Some(ascii_letter(i, i < 26))
        }
        0x1D7CE..=0x1D7FF => char::from_u32(u32::from(b'0') + (cp - 0x1D7CE) % 10),
        // Ⓐ, ⓐ, 🄰, 🅐, 🅰, regional indicators 🇦
        0x24B6..=0x24CF => Some(ascii_letter(cp - 0x24B6, true)),
        0x24D0..=0x24E9 => Some(ascii_letter(cp - 0x24D0, false)),
        0x1F130..=0x1F149 => Some(ascii_letter(cp - 0x1F130, true)),
        0x1F150..=0x1F169 => Some(ascii_letter(cp - 0x1F150, true)),
        0x1F170..=0x1F189 => Some(ascii_letter(cp - 0x1F170, true)),
        0x1F1E6..=0x1F1FF => Some(ascii_letter(cp - 0x1F1E6, true)),
        _ => Some(c),
    }
}

/// [`fold_char`] over a text; borrows when there is nothing to fold (plain ASCII).
pub(super) fn fold(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter_map(fold_char).collect())
}

/// [`fold`], then [`plain_char`] over what is left, and Roman numerals' letters (ⅰ, Ⅰ) as
/// letters: a text as a person reads it, lowercase.
pub(super) fn as_read(text: &str) -> String {
    fold(text)
        .chars()
        .map(|c| match c as u32 {
            0x2160 | 0x2170 => 'i',
            _ => plain_char(c),
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// For reading words: a letter that looks like a Latin one becomes it (Cyrillic and Greek
/// look-alikes, accented letters, small capitals), and CJK punctuation and typographic quotes
/// and dashes become their ASCII forms. Applied after [`fold_char`]; output is lowercase
/// where it is a letter.
fn plain_char(c: char) -> char {
    let cp = c as u32;
    if cp < 0x80 {
        return c.to_ascii_lowercase();
    }
    if (0xC0..0x250).contains(&cp) {
        let b = LATIN_BASE[(cp - 0xC0) as usize];
        if b != b'.' {
            return char::from(b).to_ascii_lowercase();
        }
    }
    match c {
        // Cyrillic
        'а' | 'А' => 'a',
        'в' | 'В' | 'Ь' | 'ь' => 'b',
        'е' | 'Е' | 'ё' | 'Ё' | 'є' | 'Є' => 'e',
        'і' | 'І' | 'ї' | 'Ї' | 'ӏ' | 'Ӏ' => 'i',
        'ј' | 'Ј' => 'j',
        'к' | 'К' => 'k',
        'м' | 'М' => 'm',
        'н' | 'Н' | 'һ' | 'Һ' => 'h',
        'о' | 'О' => 'o',
        'р' | 'Р' => 'p',
        'с' | 'С' => 'c',
        'т' | 'Т' => 't',
        'у' | 'У' | 'ү' | 'Ү' => 'y',
        'х' | 'Х' => 'x',
        'ѕ' | 'Ѕ' => 's',
        'ԁ' => 'd',
        'ԛ' => 'q',
        'ԝ' | 'Ԝ' => 'w',
        'ɡ' => 'g',
        // Greek
        'α' | 'Α' => 'a',
        'β' | 'Β' => 'b',
        'ε' | 'Ε' => 'e',
        'ζ' | 'Ζ' => 'z',
        'η' | 'Η' => 'n',
        'ι' | 'Ι' | 'ί' => 'i',
        'κ' | 'Κ' => 'k',
        'μ' | 'Μ' => 'm',
        'ν' | 'Ν' => 'v',
        'ο' | 'Ο' | 'ό' => 'o',
        'ρ' | 'Ρ' => 'p',
        'τ' | 'Τ' => 't',
        'υ' | 'Υ' | 'ύ' => 'u',
        'χ' | 'Χ' => 'x',
        // small capitals
        'ᴀ' => 'a',
        'ʙ' => 'b',
        'ᴄ' => 'c',
        'ᴅ' => 'd',
        'ᴇ' => 'e',
        'ꜰ' => 'f',
        'ɢ' => 'g',
        'ʜ' => 'h',
        'ɪ' => 'i',
        'ᴊ' => 'j',
        'ᴋ' => 'k',
        'ʟ' => 'l',
        'ᴍ' => 'm',
        'ɴ' => 'n',
        'ᴏ' => 'o',
        'ᴘ' => 'p',
        'ʀ' => 'r',
        'ꜱ' => 's',
        'ᴛ' => 't',
        'ᴜ' => 'u',
        'ᴠ' => 'v',
        'ᴡ' => 'w',
        'ʏ' => 'y',
        'ᴢ' => 'z',
        // punctuation
        '。' | '．' | '…' | '・' => '.',
        '、' => ',',
        '“' | '”' | '„' | '‟' | '«' | '»' | '「' | '」' | '『' | '』' => '"',
        '‘' | '’' | '‚' | '‛' | '′' => '\'',
        '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' => '-',
        _ => c.to_lowercase().next().unwrap_or(c),
    }
}

/// Leetspeak inside a word: `1gn0r3` → `ignore`, `@ct` → `act`, `$ystem` → `system`, `ru|es`
/// → `rules`. Only in runs that hold a letter, so numbers ("8:15", "2024") stay numbers.
fn leet(c: char, one: char) -> Option<char> {
    Some(match c {
        '0' => 'o',
        '1' => one,
        '3' => 'e',
        '4' => 'a',
        '5' => 's',
        '7' => 't',
        '@' => 'a',
        '$' => 's',
        '|' => one,
        '!' => 'i',
        _ => return None,
    })
}

fn in_run(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '@' | '$' | '|' | '!')
}

/// Applies [`leet`] to every run of word characters that holds a letter. A leading `@` on a
/// handle (`@mneme`) and a trailing `!` stay punctuation.
fn unleet(chars: &[char], one: char, out: &mut Vec<char>) {
    let mut i = 0;
    while i < chars.len() {
        if !in_run(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && in_run(chars[i]) {
            i += 1;
        }
        let run = &chars[start..i];
        if !run.iter().any(char::is_ascii_lowercase) || email_at(run, &chars[i..]) {
            out.extend_from_slice(run);
            continue;
        }
        // the last character that is a letter or digit: `!` after it is punctuation
        let last_word = run.iter().rposition(|c| c.is_ascii_alphanumeric());
        // "@mneme": a handle, not "amneme"; "@ct": leetspeak
        let handle = run[0] == '@'
            && run.len() > 4
            && run[1..].iter().all(|c| c.is_ascii_lowercase() || *c == '_');
        for (k, &c) in run.iter().enumerate() {
            // `|` only between letters ("ru|es"): "<|im_start|>" is markup
            let between = k > 0
                && run[k - 1].is_ascii_lowercase()
                && run.get(k + 1).is_some_and(char::is_ascii_lowercase);
            let keep = (c == '!' && last_word.is_none_or(|l| k > l))
                || (k == 0 && handle)
                || (c == '|' && !between);
            match leet(c, one) {
                Some(m) if !keep => out.push(m),
                _ => out.push(c),
            }
        }
    }
}

/// Whether `run` is the part of an e-mail address up to its domain's first dot or hyphen: a
/// name, `@`, a domain label, and `rest` going on with the domain ("zoe@gmail" + ".com",
/// "audit@acme" + "-partners.io"). Such a run stays as written, so "zoe@gmail.com" is not read
/// as "zoeagmail.com".
fn email_at(run: &[char], rest: &[char]) -> bool {
    let Some(at) = run.iter().position(|&c| c == '@') else {
        return false;
    };
    let plain = |c: &char| c.is_ascii_alphanumeric();
    // the rest of the domain: labels with hyphens, at least one dot before a letter
    let domain: Vec<char> = rest
        .iter()
        .copied()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
        .collect();
    at > 0
        && run[at + 1..].first().is_some_and(plain)
        && run[at + 1..].iter().all(plain)
        && matches!(rest.first(), Some('.' | '-'))
        && domain
            .windows(2)
            .any(|w| w[0] == '.' && w[1].is_ascii_alphabetic())
}

pub(super) fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

fn is_sep(c: char) -> bool {
    matches!(c, '.' | '-' | '_' | '*' | '·' | '•' | '/' | '+')
}

/// `i.g.n.o.r.e`, `f-o-r-g-e-t`: one letter, a separator, one letter… (two letters at least).
fn spelled_out(token: &[char]) -> bool {
    token.len() >= 3
        && token[0].is_ascii_lowercase()
        && token.iter().enumerate().all(|(k, c)| {
            if k % 2 == 0 {
                c.is_ascii_lowercase()
            } else {
                is_sep(*c)
            }
        })
        && token.iter().filter(|c| c.is_ascii_lowercase()).count() >= 2
}

/// Joins letters spelled out one by one: "i g n o r e previous" → "ignore previous" (a run of
/// three or more single letters one space apart; two spaces end a word, so "y o u  a r e" →
/// "you are"), "i.g.n.o.r.e" → "ignore"; removes spaces between CJK characters ("忽 略" →
/// "忽略"); collapses other whitespace to one space (a newline stays a newline). Returns
/// whether letters were joined.
fn join_spelled(chars: &[char], out: &mut String) -> bool {
    // tokens and the whitespace before each: (token, gap length, gap has a newline)
    let mut tokens: Vec<(&[char], usize, bool)> = Vec::with_capacity(chars.len() / 4 + 1);
    let mut i = 0;
    while i < chars.len() {
        let gap_start = i;
        let mut newline = false;
        while i < chars.len() && chars[i].is_whitespace() {
            newline |= chars[i] == '\n';
            i += 1;
        }
        let gap = i - gap_start;
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        if i > start {
            tokens.push((&chars[start..i], gap, newline));
        }
    }
    let single = |t: &[char]| t.len() == 1 && t[0].is_ascii_lowercase();
    // an apostrophe spelled out too: "a s s i s t a n t ' s"
    let joinable = |t: &[char]| single(t) || t == ['\''];
    let mut joined = false;
    let mut k = 0;
    while k < tokens.len() {
        let (token, gap, newline) = tokens[k];
        if k > 0 {
            let prev_end = tokens[k - 1].0.last().copied();
            let glue = !newline && prev_end.is_some_and(is_cjk) && is_cjk(token[0]);
            if newline {
                out.push('\n');
            } else if gap > 0 && !glue {
                out.push(' ');
            }
        }
        if single(token) {
            let mut end = k + 1;
            while end < tokens.len()
                && joinable(tokens[end].0)
                && tokens[end].1 == 1
                && !tokens[end].2
            {
                end += 1;
            }
            if end - k >= 3 {
                out.extend(tokens[k..end].iter().map(|t| t.0[0]));
                joined = true;
                k = end;
                continue;
            }
        }
        if spelled_out(token) {
            out.extend(token.iter().filter(|c| c.is_ascii_lowercase()));
            joined = true;
        } else {
            out.extend(token.iter());
        }
        k += 1;
    }
    joined
}

/// The instruction check's views of a text: folded ([`fold_char`]), look-alikes and accents
/// made plain, lowercased, leetspeak read, spelled-out letters joined. Two views when a `1` or
/// `|` sits inside a word (read as `i`, then as `l`). `joined` tells whether letters were
/// joined (word boundaries may then be lost, so the caller also tries the text without spaces).
pub(super) struct Views {
    pub views: Vec<String>,
    pub joined: bool,
}

pub(super) fn instruction_views(text: &str) -> Views {
    let mut plain = Vec::with_capacity(text.len());
    if text.is_ascii() {
        plain.extend(text.bytes().map(|b| char::from(b.to_ascii_lowercase())));
    } else {
        plain.extend(text.chars().filter_map(fold_char).map(plain_char));
    }
    let two = plain.windows(2).any(|w| {
        matches!(w[0], '1' | '|') && w[1].is_ascii_lowercase()
            || matches!(w[1], '1' | '|') && w[0].is_ascii_lowercase()
    });
    let mut views = Vec::with_capacity(if two { 2 } else { 1 });
    let mut joined = false;
    let mut buf = Vec::with_capacity(plain.len());
    for one in if two { &['i', 'l'][..] } else { &['i'][..] } {
        buf.clear();
        unleet(&plain, *one, &mut buf);
        let mut view = String::with_capacity(buf.iter().map(|c| c.len_utf8()).sum());
        joined |= join_spelled(&buf, &mut view);
        views.push(chat_spelling_read(view));
    }
    Views { views, joined }
}

/// Chat spelling, as written in a group ("remember u should…", "ur default language", "pls",
/// "rmbr"), read as the words it stands for.
static CHAT_SPELLING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"\b(?:u|ur|pls|plz|rmbr|remembr|rememberr|rember|ppl|cuz|coz|whenevr|wheneva)\b",
    )
    .expect("compiles")
});

fn chat_spelling_read(view: String) -> String {
    if !CHAT_SPELLING.is_match(&view) {
        return view;
    }
    CHAT_SPELLING
        .replace_all(&view, |caps: &regex::Captures<'_>| match &caps[0] {
            "u" => "you",
            "ur" => "your",
            "pls" | "plz" => "please",
            "ppl" => "people",
            "cuz" | "coz" => "because",
            "whenevr" | "wheneva" => "whenever",
            _ => "remember",
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> String {
        instruction_views(text).views.remove(0)
    }

    #[test]
    fn folding_undoes_encoding_tricks() {
        assert_eq!(fold("Ｉｇｎｏｒｅ　ｔｈｉｓ"), "Ignore this");
        assert_eq!(fold("Ig\u{200b}no\u{200d}re\u{feff}"), "Ignore");
        assert_eq!(fold("𝐈𝐠𝐧𝐨𝐫𝐞 𝚒𝚝"), "Ignore it");
        assert_eq!(fold("\u{e0068}\u{e0069}"), "hi");
        assert_eq!(fold("plain ascii"), "plain ascii");
        assert!(matches!(fold("plain ascii"), Cow::Borrowed(_)));
        assert_eq!(fold("密码：１２３"), "密码:123");
    }

    #[test]
    fn the_instruction_view_reads_words() {
        assert_eq!(view("Іgnоrе prеvіоus"), "ignore previous"); // Cyrillic
        assert_eq!(view("Ìgnóré ᴘʀᴇᴠɪᴏᴜs"), "ignore previous");
        assert_eq!(view("1gn0r3 4ll pr3v10us"), "ignore all previous");
        assert_eq!(view("@ct 4s a h4ck3r"), "act as a hacker");
        assert_eq!(view("$y$tem: hi!!!"), "system: hi!!!");
        assert_eq!(view("@mneme always"), "@mneme always");
        // an e-mail address stays as written; "@" inside a word that is not one is leetspeak
        assert_eq!(view("mail zoe@gmail.com"), "mail zoe@gmail.com");
        assert_eq!(
            view("send it to li.wei@163.com"),
            "send it to li.wei@163.com"
        );
        assert_eq!(
            view("to audit@acme-partners.io"),
            "to audit@acme-partners.io"
        );
        assert_eq!(view("r3@d th1s"), "read this");
        assert_eq!(view("c@t. ok"), "cat. ok");
        assert_eq!(
            view("User takes the 8:15 train in 2024"),
            "user takes the 8:15 train in 2024"
        );
        assert_eq!(view("I g n o r e previous"), "ignore previous");
        assert_eq!(view("y o u  a r e  n o w"), "you are now");
        assert_eq!(view("i.g.n.o.r.e f-o-r-g-e-t"), "ignore forget");
        assert_eq!(view("忽 略 之 前\n的  指令"), "忽略之前\n的指令");
        assert_eq!(view("“引号”，逗号。"), "\"引号\",逗号.");
        assert_eq!(view("a  b\t c"), "a b c");
        let two = instruction_views("ru1es");
        assert_eq!(two.views, ["ruies", "rules"]);
    }
}
