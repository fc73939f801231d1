//! Secrets said in Chinese: "密码是 …", "验证码 482913".

use std::sync::LazyLock;

use regex::Regex;

use super::keyword::{build, credential_like, is_quote};

/// Chinese keywords, with the kind and what their value must look like.
pub(super) static ZH_KEYWORD: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"(?P<cvv>(?:信用卡|银行卡|卡)(?:背面|后面)的?(?:三位数字?|3位数字?|数字|安全码))|(?P<card>银行卡号|信用卡号|储蓄卡号|卡号|银行卡|信用卡)|(?P<id>(?:驾驶证|驾照|护照|身份证|社保卡|医保卡)(?:档案)?编号|身份证号码|身份证号|身份证|护照号码|护照号|驾照号码|驾照号|驾驶证号码|驾驶证号|社保卡号|社保号码|社保号)|(?P<pin>(?i:pin)\s?码|暗証番号|暗证番号)|(?P<code>验证码|校验码|动态码|动态口令|安全码|识别码|门禁码|撤防码|布防码|撤防密码|门禁(?:新换的|新的|换的|现在的)?|短信码|短信验证码|手机码|登录码|(?:取款|支付|付款|开机|解锁|银行卡?|账户|保险箱|门锁)的?(?:六位数|6位数|四位数|4位数)字?|(?:保险柜|保险箱|密码箱|门锁|密码锁)的?号码|保险柜|保险箱)|(?P<seed>助记词|恢复短语)|(?P<key>私钥|密钥|秘钥|激活码|授权码)|(?P<pw>密码锁|密码箱|密码|口令|暗号|令牌|密保答案|密保问题答案|安全问题答案|安全问题的答案|(?:密保|安全)问题[^,.!?;，。]{0,24}?答案)",
    )
});

/// Connectors after a Chinese keyword: "是", "为", "改成了", ":".
pub(super) const ZH_CONNECTORS: &[&str] = &[
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
    // one part of it: "密码前半段是 Qz7!"
    "前半段是",
    "后半段是",
    "前半部分是",
    "后半部分是",
    "开头是",
    ":",
    "=",
];

/// "密码是 abc123", "验证码 482913", "口令是“天王盖地虎”", "取款密码是女儿生日 0815".
pub(super) fn chinese(folded: &str) -> Option<&'static str> {
    for caps in ZH_KEYWORD.captures_iter(folded) {
        let Some(m) = caps.get(0) else { continue };
        let (kind, digits_needed) = if caps.name("cvv").is_some() {
            ("card security code", 3)
        } else if caps.name("card").is_some() {
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
        // "这些口令" names commands given before ("「坐下」「前进」这些口令"), not one held back
        if ["这些", "那些", "各种"]
            .iter()
            .any(|w| folded[..m.start()].ends_with(w))
        {
            continue;
        }
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
            // twelve or more words, in any script: "助记词：苹果 香蕉 橙子 …"
            let words = rest
                .split([' ', '、', ',', '，'])
                .filter(|w| !w.is_empty())
                .take_while(|w| w.chars().count() <= 12 && !w.contains(['。', '.']))
                .count();
            if connected && words >= 6 {
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
        // a description, then the value said again: "保险柜的号码是爸爸生日加 00，也就是 19630700"
        let said_again = ["也就是", "就是", "即"]
            .iter()
            .filter_map(|w| rest.find(w).map(|at| &rest[at + w.len()..]))
            .next();
        let four_digits = |s: &str| {
            let near: String = s.chars().take(12).collect();
            near.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|t| t.chars().filter(char::is_ascii_digit).count() >= 4)
        };
        if connected && said_again.is_some_and(four_digits) {
            return Some(kind);
        }
        // the same as something, then said: "支付密码跟我生日一样，0923"
        // (the digits right after, not a year: "跟邻居家一样，是2020年装的")
        let same_then_said = ["一样", "相同"]
            .iter()
            .filter_map(|w| {
                rest.find(w)
                    .filter(|at| *at < 30)
                    .map(|at| &rest[at + w.len()..])
            })
            .next()
            .map(|s| s.trim_start_matches(['，', ',', '：', ':', ' ']));
        let said = same_then_said.is_some_and(|s| {
            let digits = s.chars().take_while(char::is_ascii_digit).count();
            digits >= 4 && !s[digits..].starts_with('年')
        });
        if said {
            return Some(kind);
        }
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
        // a value in numerals: "左三右七左九", "一二三四五六", "六个8"
        if connected && kind != "card number" && spelled_in_numerals(rest) {
            return Some(kind);
        }
        // a description, then the value: "取款密码是女儿生日 0815"
        if connected {
            if four_digits(rest) {
                return Some(kind);
            }
            let answer = m.as_str().ends_with("答案");
            if kind == "password"
                && first.is_some_and(|c| !c.is_ascii())
                && (matches!(m.as_str(), "口令" | "暗号") || answer)
                && rest
                    .chars()
                    .take_while(|c| !matches!(c, '，' | ',' | '。' | '.'))
                    .count()
                    >= if answer { 2 } else { 3 }
            {
                return Some(kind);
            }
        }
    }
    None
}

/// A value given in numerals within its clause: three or more (Chinese or ASCII digits, "左三
/// 右七左九", "一二三四"), or one repeated ("六个8", "四个零"). A description with one number
/// ("我生日", "六位数") is not.
fn spelled_in_numerals(rest: &str) -> bool {
    const NUMERALS: &str = "零〇一二三四五六七八九幺两";
    let clause: Vec<char> = rest
        .chars()
        .take_while(|c| !matches!(c, '，' | ',' | '。' | '.' | '；' | ';' | '!' | '?'))
        .take(16)
        .collect();
    let numeral = |c: &char| NUMERALS.contains(*c) || c.is_ascii_digit();
    if clause.iter().filter(|c| numeral(c)).count() >= 3 {
        return true;
    }
    clause
        .windows(3)
        .any(|w| numeral(&w[0]) && w[1] == '个' && numeral(&w[2]))
}

/// "用 wu1970WU 登录": a generated-looking value used to log in or unlock.
static USED_TO_LOG_IN: LazyLock<Regex> = LazyLock::new(|| {
    build(
        r"用\s*(?P<value>[\x21-\x7e]{4,40})\s*(?:登录|登陆|解锁|开机|登入)|(?:连接|连网|联网|登录|登陆|解锁)(?:时|的时候)?用\s*(?P<after>[\x21-\x7e]{4,40})",
    )
});

pub(super) fn used_to_log_in(folded: &str) -> bool {
    USED_TO_LOG_IN.captures_iter(folded).any(|c| {
        let value = c
            .name("value")
            .or(c.name("after"))
            .map_or("", |m| m.as_str());
        credential_like(value) || value.starts_with(is_quote)
    })
}
