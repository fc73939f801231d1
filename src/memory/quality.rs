//! Checks on text before it becomes a memory.

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

static SECRET_PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // provider keys and tokens with well-known shapes
        r"\bsk-[A-Za-z0-9_\-]{16,}",
        r"\b(?:ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}",
        r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",
        r"\bAKIA[0-9A-Z]{16}\b",
        r"\bAIza[0-9A-Za-z_\-]{30,}",
        r"\b\d{6,12}:[A-Za-z0-9_\-]{30,}\b", // Telegram bot token
        r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.", // JWT
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
        // "my password is …", "api key: …", "密码是…"
        r"(?i)\b(?:password|passwd|passphrase|pin code|api[ _-]?key|secret key|access token|auth token|private key)s?\b\s*(?:is|was|:|=)\s*\S+",
        r"(?:密码|口令|密钥|令牌)\s*(?:是|为|:|：|=)\s*\S+",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("secret pattern compiles"))
    .collect()
});

/// A long run of letters and digits mixed, like a generated key.
static OPAQUE_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9_\-+/=]{32,}").expect("token pattern compiles"));

/// True when the text looks like it carries a credential, which must never be stored.
pub fn looks_like_secret(text: &str) -> bool {
    if SECRET_PATTERNS.iter().any(|re| re.is_match(text)) {
        return true;
    }
    OPAQUE_TOKEN.find_iter(text).any(|m| {
        let s = m.as_str();
        let digits = s.chars().filter(char::is_ascii_digit).count();
        let letters = s.chars().filter(char::is_ascii_alphabetic).count();
        digits >= 4 && letters >= 8
    })
}

/// Text addressed to the assistant rather than stating a fact: prompt injection in waiting.
static INSTRUCTION: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        r"(?i)\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(previous|prior|above|earlier|all|any|your|the|these|those)\b.{0,30}\b(instructions?|rules?|prompts?|messages?|context|guidelines?|directions?|memor(y|ies))\b",
        r"(?i)\b(always|never)\s+(answer|respond|reply|say|use|call|include|tell|speak|write|talk|address|refer|mention|reveal|follow|obey|agree|do)\b",
        r"(?i)\byou\s+(must|should|shall|have to|need to|are (to|required|supposed)|will (always|never|now))\b",
        r"(?i)\b(the )?(assistant|bot|ai|model|mneme|chatbot)\s+(must|should|shall|has to|needs to|is required to|is to|will always|will never|always|never)\b",
        r"(?i)\b(from now on|system prompt|jailbreak|developer mode|dan mode|act as|pretend (to be|you)|role-?play as|new instructions?)\b",
        r"(?i)^(please\s+)?(ignore|disregard|forget|always|never|do not|don'?t|stop|respond|reply|answer|say|tell|act|pretend|behave|output|print|reveal|repeat|write|use|call|execute|run|send|obey|follow|remember to)\b",
        r"(?i)</?\s*(system|user|assistant|instructions?|structured_memories|global_memory|chat_memory|messages|existing_memories)\s*>",
        r"(?i)^\s*(system|assistant|user|developer)\s*:",
        r"\[(PROFILE|KNOWLEDGE|EVENT)\]",
        r"(忽略|无视|忘记)(之前|以上|前面|所有|上面|你的)",
        r"你(必须|应该|一定要|要始终|总是|永远|务必)",
        r"(总是|始终|永远)(回答|回复|用|说|使用)",
        r"(从现在(起|开始)|系统提示)",
        r"(助手|机器人|AI)(必须|应该|要始终|总是|永远)",
    ])
    .expect("instruction patterns compile")
});

/// True when the text reads as an instruction to the assistant ("ignore previous…", "always
/// answer…", "you must…", prompt markup) rather than a fact: prompt injection in waiting,
/// never stored as a memory whoever offers it (the reflector's model or a tool call).
pub fn reads_as_instruction(text: &str) -> bool {
    INSTRUCTION.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_recognised() {
        for text in [
            "my openai key is sk-proj-abcdefghijklmnop1234",
            "the wifi password is hunter2",
            "API key: 12345",
            "token 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0",
            "我的密码是 abc123",
            "use ghp_abcdefghijklmnopqrstuvwx1234",
            "key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ] {
            assert!(looks_like_secret(text), "{text}");
        }
    }

    #[test]
    fn ordinary_facts_are_not_secrets() {
        for text in [
            "I prefer Rust examples",
            "my password manager is Bitwarden",
            "the office wifi password rotates monthly",
            "我喜欢喝绿茶",
            "https://example.com/docs/getting-started",
        ] {
            assert!(!looks_like_secret(text), "{text}");
        }
    }
}
