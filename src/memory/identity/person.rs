//! A fact about the one person of a private chat, said as they would say it: "Alice lives in
//! Osaka" is their "I live in Osaka", "User's car is a Tesla" their "my car is a Tesla". The
//! reflector reads its facts both ways; a newer value is looked for both ways too, since a
//! memory the reflector wrote ("User works at Spotify") and one remembered in the person's own
//! words ("remember I work at Netflix") name the same person.

use crate::memory::text::is_cjk;

/// How a model, or a memory, names the one person of a private chat.
pub const THE_USER: &[&str] = &["the user", "user", "用户"];

/// `content` with `name` opening it said in the first person: "Alice lives in Osaka" → "I
/// lives in Osaka" (the reading takes "lives" as "live"), "Alice is 41" → "I am 41",
/// "Alice's car is a Tesla" → "my car is a Tesla", 小雨住在上海 → 我住在上海. `None` when it
/// does not open with `name`.
pub fn first_person(content: &str, name: &str) -> Option<String> {
    let name = name.trim();
    let head = content.get(..name.len())?;
    if name.is_empty() || !head.eq_ignore_ascii_case(name) {
        return None;
    }
    let rest = &content[name.len()..];
    if let Some(thing) = rest
        .strip_prefix("'s ")
        .or_else(|| rest.strip_prefix("’s "))
    {
        return Some(format!("my {thing}"));
    }
    // 小雨住在上海 → 我住在上海, 小雨的车 → 我的车
    if rest.starts_with(is_cjk) {
        return Some(format!("我{rest}"));
    }
    let said = rest.strip_prefix(' ')?;
    Some(match said.split_once(' ') {
        Some(("is", more)) => format!("I am {more}"),
        Some(("has", more)) => format!("I have {more}"),
        _ => format!("I {said}"),
    })
}

/// `content` said in the first person when it opens with [`THE_USER`].
pub fn user_in_first_person(content: &str) -> Option<String> {
    THE_USER.iter().find_map(|n| first_person(content, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_opening_with_its_speakers_name_is_said_in_the_first_person() {
        for (fact, said) in [
            ("Alice lives in Osaka", "I lives in Osaka"),
            ("alice moved to Osaka", "I moved to Osaka"),
            ("Alice is 41", "I am 41"),
            ("Alice has 3 cats", "I have 3 cats"),
            ("Alice's car is a Tesla", "my car is a Tesla"),
        ] {
            assert_eq!(first_person(fact, "Alice").as_deref(), Some(said), "{fact}");
        }
        for (fact, said) in [
            ("小雨住在上海", "我住在上海"),
            ("小雨的车是特斯拉", "我的车是特斯拉"),
        ] {
            assert_eq!(first_person(fact, "小雨").as_deref(), Some(said), "{fact}");
        }
        for fact in [
            "Alicia lives in Osaka",
            "Bob is 41",
            "Alice",
            "The user is 41",
        ] {
            assert_eq!(first_person(fact, "Alice"), None, "{fact}");
        }
        assert_eq!(first_person("Alice is 41", ""), None);
        // as a model may call the one person of a private chat
        assert_eq!(
            first_person("The user moved to Osaka", "the user").as_deref(),
            Some("I moved to Osaka")
        );
        assert_eq!(first_person("Username is cat", "user"), None);
    }

    #[test]
    fn the_user_is_said_in_the_first_person() {
        for (fact, said) in [
            ("User's favourite drink is tea", "my favourite drink is tea"),
            ("User works at Spotify", "I works at Spotify"),
            ("用户在华为上班", "我在华为上班"),
        ] {
            assert_eq!(user_in_first_person(fact).as_deref(), Some(said), "{fact}");
        }
        assert_eq!(user_in_first_person("Users of Linux are few"), None);
    }
}
