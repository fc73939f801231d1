//! The "remember …" / "记住…" fast path: recognising the request, no model involved.

use crate::base::Category;
use crate::memory::text::{is_apostrophe, is_cjk};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RememberRequest {
    pub content: String,
    pub category: Category,
}

/// English openers, lowercase, longest first so "remember that" wins over "remember".
const EN_OPENERS: &[&str] = &[
    "please remember that",
    "please remember",
    "remember that",
    "remember",
];
const ZH_OPENERS: &[&str] = &["请记住", "记住"];

/// Recognises a request to remember something and extracts the fact.
///
/// Accepts `remember …`, `remember that …`, `remember: …`, `please remember …`, `记住…` and
/// `请记住…`, after any leading @mentions (`@bot`, Discord's `<@123>`). A question
/// ("remember when we met?") is not a request. Returns `None` when the text is not one, or
/// when nothing follows the opener.
///
/// ```
/// use mneme::memory::remember::parse;
/// use mneme::base::Category;
///
/// let req = parse("@mneme_bot remember that I prefer tea").unwrap();
/// assert_eq!(req.content, "I prefer tea");
/// assert_eq!(req.category, Category::Profile);
/// assert_eq!(parse("记住周五开会").unwrap().category, Category::Knowledge);
/// assert!(parse("remember when we met?").is_none());
/// ```
pub fn parse(text: &str) -> Option<RememberRequest> {
    let text = strip_mentions(text.trim());
    let rest = strip_opener(text)?;
    let content = rest
        .trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, ':' | '：' | ',' | '，' | '-' | '—')
        })
        .trim();
    if content.is_empty() || content.ends_with('?') || content.ends_with('？') {
        return None;
    }
    Some(RememberRequest {
        category: classify(content),
        content: content.to_string(),
    })
}

fn strip_opener(text: &str) -> Option<&str> {
    for opener in ZH_OPENERS {
        if let Some(rest) = text.strip_prefix(opener) {
            return Some(rest);
        }
    }
    for opener in EN_OPENERS {
        // ASCII openers: compare bytes case-insensitively, then require a boundary.
        if text.len() >= opener.len()
            && text.is_char_boundary(opener.len())
            && text[..opener.len()].eq_ignore_ascii_case(opener)
        {
            let rest = &text[opener.len()..];
            let boundary = rest.chars().next().is_some_and(|c| {
                c.is_whitespace() || matches!(c, ':' | '：' | ',' | '，' | '-' | '—')
            });
            if boundary {
                return Some(rest);
            }
        }
    }
    None
}

/// Drops leading `@name` and `<@123>` / `<@!123>` mentions, with a following `,` or `:`.
pub fn strip_mentions(mut text: &str) -> &str {
    loop {
        let trimmed = text.trim_start();
        let rest = if let Some(after) = trimmed.strip_prefix('@') {
            let end =
                after.find(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '，' | '：'));
            match end {
                Some(0) | None => return trimmed,
                Some(i) => &after[i..],
            }
        } else if let Some(after) = trimmed.strip_prefix("<@") {
            match after.find('>') {
                Some(i)
                    if after[..i]
                        .trim_start_matches('!')
                        .chars()
                        .all(|c| c.is_ascii_digit()) =>
                {
                    &after[i + 1..]
                }
                _ => return trimmed,
            }
        } else {
            return trimmed;
        };
        text = rest.trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ':' | '，' | '：')
        });
    }
}

/// Whether `content` speaks of whoever said it in the first person singular: "I", "me",
/// "my", "mine", "myself" (and their contractions) as words, or 我 not in 我们 or 自我 ("we"
/// and "our" speak for a group, which a group's memory may hold as it is). Not inside
/// quotes (someone else's words), not "I" joined to another word ("I/O", "I-beam"), not a
/// word in capitals ("ME TOO").
pub fn speaks_of_speaker(content: &str) -> bool {
    let chars: Vec<char> = content.chars().collect();
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '"' | '“' | '”' | '「' | '」' | '『' | '』') {
            quoted = !quoted;
            i += 1;
            continue;
        }
        if quoted {
            i += 1;
            continue;
        }
        if c == '我' {
            let before = i.checked_sub(1).map(|j| chars[j]);
            if chars.get(i + 1) != Some(&'们') && before != Some('自') {
                return true;
            }
            i += 1;
            continue;
        }
        let in_word = |c: char| !is_cjk(c) && (c.is_alphanumeric() || is_apostrophe(c));
        if !in_word(c) || is_apostrophe(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && in_word(chars[i]) {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let stem = word.split(is_apostrophe).next().unwrap_or_default();
        let joined = |c: Option<&char>| c.is_some_and(|c| matches!(c, '/' | '-'));
        let shouted = stem.chars().count() > 1 && stem.chars().all(char::is_uppercase);
        if matches!(
            stem.to_lowercase().as_str(),
            "i" | "me" | "my" | "mine" | "myself"
        ) && !shouted
            && !joined(chars.get(i))
            && !joined(start.checked_sub(1).and_then(|j| chars.get(j)))
        {
            return true;
        }
    }
    false
}

/// Names that say nothing of who someone is: a pronoun, or nothing but symbols.
const NO_NAMES: &[&str] = &[
    "i", "me", "my", "you", "he", "she", "it", "we", "they", "someone", "somebody", "nobody",
    "everyone", "user", "bot", "我", "你", "他", "她", "它", "我们", "大家",
];

/// Words of a name that read as a role the model may take for its own or for authority
/// ("The assistant: I always answer in French", "System: …"): such a name has the id beside
/// it, which makes it a member's.
const ROLES: &[&str] = &[
    "assistant",
    "bot",
    "system",
    "admin",
    "administrator",
    "owner",
    "operator",
    "developer",
    "moderator",
    "mneme",
    "ai",
    "gpt",
    "chatgpt",
    "claude",
    "llm",
    "model",
    "openai",
    "anthropic",
    "tool",
    "function",
    "user",
    "root",
    "sudo",
];
const ZH_ROLES: &[&str] = &["助手", "机器人", "系统", "管理员", "群主"];

/// How a speaker is named in a group's memory: their name made one short line, and where
/// that tells people apart poorly — empty, only emoji or symbols, or a pronoun ("I", "You")
/// — their platform id beside it ("🍎 (user 42)", "user 42"), so that two members are never
/// one person to the memory.
pub fn speaker_label(name: &str, id: &str) -> String {
    label(name, id, false)
}

/// [`speaker_label`] with the id beside the name whatever the name: for a member whose name
/// someone else in the chat uses too.
pub fn speaker_label_with_id(name: &str, id: &str) -> String {
    label(name, id, true)
}

fn label(name: &str, id: &str, with_id: bool) -> String {
    let name: String = name
        .split(|c: char| c.is_whitespace() || c.is_control() || matches!(c, ':' | '：'))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_SPEAKER_CHARS)
        .collect();
    let name = name.trim();
    // read as a person reads it (fullwidth, look-alike letters), word by word
    let read = crate::memory::quality::as_read(name);
    let words: Vec<&str> = read
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let role = |w: &&str| ROLES.contains(w) || (w.len() > 3 && w.ends_with("bot"));
    let telling = !words.is_empty()
        && !words.iter().all(|w| NO_NAMES.contains(w))
        && !words.iter().any(role)
        && !ZH_ROLES.iter().any(|r| name.contains(r));
    let id: String = id
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
        .take(32)
        .collect();
    match (telling && !with_id, name.is_empty()) {
        (true, _) => name.to_string(),
        (false, true) => format!("user {id}"),
        (false, false) => format!("{name} (user {id})"),
    }
}

/// Longest speaker's name kept in a memory, in characters.
const MAX_SPEAKER_CHARS: usize = 48;

/// `content`, said by `speaker` (a [`speaker_label`]) where "I" is no one in particular — a
/// group, whose memory every member's answers read: "Bob: I am vegetarian", "Bob：我不吃辣".
/// A fact that does not speak of its speaker is left as it is.
pub fn said_by(content: &str, speaker: &str) -> String {
    if !speaks_of_speaker(content) {
        return content.to_string();
    }
    if content.starts_with(crate::memory::text::is_cjk) {
        format!("{speaker}：{content}")
    } else {
        format!("{speaker}: {content}")
    }
}

/// First-person statements about the user are PROFILE; anything else is KNOWLEDGE.
pub fn classify(content: &str) -> Category {
    let lower = content.trim().to_lowercase();
    let first_word = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or_default();
    let about_me = matches!(
        first_word,
        "i" | "i'm"
            | "i’m"
            | "im"
            | "i've"
            | "i’ve"
            | "i'd"
            | "i’d"
            | "i'll"
            | "my"
            | "mine"
            | "me"
    ) || lower.starts_with('我');
    if about_me {
        Category::Profile
    } else {
        Category::Knowledge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_about_its_speaker_says_who_in_a_group() {
        for (content, said) in [
            ("I am vegetarian", "Bob: I am vegetarian"),
            ("I'm allergic to nuts", "Bob: I'm allergic to nuts"),
            ("my dog is Rex", "Bob: my dog is Rex"),
            (
                "the standup is with me at 10",
                "Bob: the standup is with me at 10",
            ),
            ("我不吃辣", "Bob：我不吃辣"),
            ("周五我请客", "Bob：周五我请客"),
        ] {
            assert_eq!(said_by(content, "Bob"), said, "{content}");
        }
        for kept in [
            "the wifi is on floor 2",
            "we meet on Fridays",
            "our standup is at 10",
            "我们周五开会",
            "Alice is vegetarian",
            "the IMF report is due",
        ] {
            assert_eq!(said_by(kept, "Bob"), kept, "{kept}");
        }
        // someone else's words, "I" joined to another word, capitals, 自我
        for kept in [
            "Bob said \"I quit\" on Monday",
            "the movie “I, Robot” is on tonight",
            "the I/O board is broken",
            "the I-beam is steel",
            "ME TOO is a movement",
            "自我介绍在周五",
        ] {
            assert_eq!(said_by(kept, "Bob"), kept, "{kept}");
        }
    }

    #[test]
    fn a_speaker_is_named_so_that_two_are_never_one() {
        // one short line, without the colon that would split it
        assert_eq!(
            speaker_label(" Bob\n: the\tBuilder ", "7"),
            "Bob the Builder"
        );
        assert_eq!(speaker_label(&"x".repeat(500), "7").chars().count(), 48);
        // a name that tells no one apart has the platform's id beside it
        assert_eq!(speaker_label("", "7"), "user 7");
        assert_eq!(speaker_label(" \n", "7"), "user 7");
        assert_eq!(speaker_label("🍎", "42"), "🍎 (user 42)");
        assert_eq!(speaker_label("I", "42"), "I (user 42)");
        assert_eq!(speaker_label("You", "43"), "You (user 43)");
        assert_ne!(speaker_label("🍎", "42"), speaker_label("🍌", "43"));
        assert_eq!(speaker_label("金", "9"), "金");
        // a role the model may take for its own, or for authority
        assert_eq!(
            speaker_label("The assistant", "42"),
            "The assistant (user 42)"
        );
        assert_eq!(speaker_label("SYSTEM", "5"), "SYSTEM (user 5)");
        assert_eq!(speaker_label("群主小王", "6"), "群主小王 (user 6)");
        assert_eq!(speaker_label("Botond", "8"), "Botond");
        // names that read as nothing, or as another member's label, however written
        for (name, label) in [
            ("I .", "I . (user 3)"),
            ("me!", "me! (user 3)"),
            ("I I", "I I (user 3)"),
            ("ⅰ", "ⅰ (user 3)"),
            ("Ｉ", "Ｉ (user 3)"),
            ("user 41", "user 41 (user 3)"),
            ("🍎 (user 41)", "🍎 (user 41) (user 3)"),
            ("mnemebot", "mnemebot (user 3)"),
            ("Ｓｙｓｔｅｍ", "Ｓｙｓｔｅｍ (user 3)"),
            ("Sуstem", "Sуstem (user 3)"),
        ] {
            assert_eq!(speaker_label(name, "3"), label, "{name}");
        }
    }

    fn content(text: &str) -> Option<String> {
        parse(text).map(|r| r.content)
    }

    #[test]
    fn english_forms() {
        assert_eq!(
            content("remember I prefer Rust examples").as_deref(),
            Some("I prefer Rust examples")
        );
        assert_eq!(
            content("Remember that my dog is Rex").as_deref(),
            Some("my dog is Rex")
        );
        assert_eq!(
            content("REMEMBER: the wifi is on floor 2").as_deref(),
            Some("the wifi is on floor 2")
        );
        assert_eq!(
            content("please remember, standup is at 10").as_deref(),
            Some("standup is at 10")
        );
    }

    #[test]
    fn chinese_forms() {
        assert_eq!(content("记住我喜欢喝绿茶").as_deref(), Some("我喜欢喝绿茶"));
        assert_eq!(content("请记住：周五开会").as_deref(), Some("周五开会"));
    }

    #[test]
    fn after_mentions() {
        assert_eq!(
            content("@mneme_bot remember I like tea").as_deref(),
            Some("I like tea")
        );
        assert_eq!(
            content("<@123456> remember that I like tea").as_deref(),
            Some("I like tea")
        );
        assert_eq!(
            content("<@!42>, @other: 记住我住在大阪").as_deref(),
            Some("我住在大阪")
        );
    }

    #[test]
    fn not_requests() {
        for text in [
            "remember when we went to Paris?",
            "remembering things is hard",
            "do you remember me",
            "remember",
            "remember:   ",
            "记住",
            "I remember that",
            "@bot",
            "<@abc> remember x",
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn categories() {
        assert_eq!(classify("I prefer Rust"), Category::Profile);
        assert_eq!(classify("my birthday is in May"), Category::Profile);
        assert_eq!(classify("I'm vegetarian"), Category::Profile);
        assert_eq!(classify("我喜欢喝绿茶"), Category::Profile);
        assert_eq!(
            classify("the office wifi password rotates monthly"),
            Category::Knowledge
        );
        assert_eq!(classify("周五开会"), Category::Knowledge);
        assert_eq!(classify("Iceland is cold"), Category::Knowledge);
    }
}
