//! A Chinese object said before its verb, written after it: with 把 (我两年前把烟戒了 is
//! 我两年前戒烟了), as the topic (香菜我不吃 is 我不吃香菜, 游泳用户不会 用户不会游泳), or in
//! a 是…的 that says who did it (科幻电影是我喜欢看的 is 我喜欢看科幻电影, 我是奶奶带大的
//! 奶奶带大我). The pair is then read again.
//!
//! Precision first: one clause, the object a few characters, the doer a pronoun, 用户 or a
//! word for kin, the verb one or two characters (a topic's with its negation or modal).

/// Who may do what is said: a topic or a 是…的 names them right before the verb.
const DOERS: &[&str] = &[
    "用户", "我们", "他们", "她们", "我", "他", "她", "奶奶", "爷爷", "外婆", "外公", "姥姥",
    "姥爷", "爸爸", "妈妈", "父母", "爸妈", "老师",
];

/// A result said after a verb (戒掉, 做完, 带大): part of it.
const RESULTS: &[char] = &['掉', '完', '好', '大', '坏', '丢', '光', '走'];

/// What comes between a topic's doer and its verb: a negation or a modal.
const BEFORE_THE_VERB: &[&str] = &[
    "从来不",
    "从不",
    "也不",
    "都不",
    "不太",
    "不",
    "没有",
    "没",
    "很",
    "最",
    "也",
    "都",
    "不会",
];

/// One-character verbs a fronted topic goes with (香菜我不吃, 游泳用户不会).
const TOPIC_VERBS: &[&str] = &[
    "吃", "喝", "会", "抽", "碰", "看", "玩", "用", "信", "要", "喜欢", "爱", "讨厌", "怕",
];

/// Characters that say when: a topic made of them is a time, not an object (昨天我没去).
const TIME: &[char] = &[
    '天', '年', '月', '周', '点', '前', '后', '早', '晚', '时', '今', '昨', '明',
];

/// `text` with its object after its verb, when it is said before it; else `None`.
pub(super) fn in_order(text: &str) -> Option<String> {
    if !text.chars().any(super::is_cjk) {
        return None;
    }
    let t = text.trim_end_matches(['。', '！', '.', '!', ' ']);
    with_ba(t).or_else(|| cleft(t)).or_else(|| topic(t))
}

/// 把 + object + verb + 了 (or 的) at the end: the verb, then the object.
fn with_ba(t: &str) -> Option<String> {
    let (head, rest) = t.split_once('把')?;
    if rest.contains('把') || head.is_empty() {
        return None;
    }
    let (seg, end) = if let Some(s) = rest.strip_suffix('了') {
        (s, "了")
    } else {
        (rest.strip_suffix('的')?, "")
    };
    let chars: Vec<char> = seg.chars().collect();
    let n = chars.len();
    let verb_len = if n >= 2 && RESULTS.contains(&chars[n - 1]) {
        2
    } else {
        1
    };
    let object: String = chars[..n.checked_sub(verb_len)?].iter().collect();
    let verb: String = chars[n - verb_len..].iter().collect();
    let count = object.chars().count();
    if !(1..=4).contains(&count) || object.contains(['给', '到', '在', '成', '了']) {
        return None;
    }
    Some(format!("{head}{verb}{object}{end}"))
}

/// Object + 是 + doer + verb + 的 at the end: the doer, the verb, the object.
fn cleft(t: &str) -> Option<String> {
    let body = t.strip_suffix('的')?;
    let (object, said) = body.split_once('是')?;
    if said.contains('是') || !(1..=4).contains(&object.chars().count()) {
        return None;
    }
    let doer = DOERS.iter().find(|d| said.starts_with(**d))?;
    let verb = &said[doer.len()..];
    if !(1..=3).contains(&verb.chars().count()) || verb.contains('的') {
        return None;
    }
    Some(format!("{doer}{verb}{object}"))
}

/// Topic + doer + (negation or modal) + verb at the end: the doer, the verb, the topic.
fn topic(t: &str) -> Option<String> {
    let (at, doer) = DOERS
        .iter()
        .filter_map(|d| t.find(d).map(|i| (i, *d)))
        .min_by_key(|(i, _)| *i)?;
    let topic = &t[..at];
    let said = &t[at + doer.len()..];
    if !(1..=4).contains(&topic.chars().count())
        || topic.contains(TIME)
        || topic.contains(['是', '在', '有', '的', '不', '没'])
    {
        return None;
    }
    let adverb = BEFORE_THE_VERB
        .iter()
        .find(|b| said.starts_with(**b))
        .copied()
        .unwrap_or("");
    let verb = &said[adverb.len()..];
    if !TOPIC_VERBS.contains(&verb) {
        return None;
    }
    Some(format!("{doer}{said}{topic}"))
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;
    use super::in_order;

    #[test]
    fn an_object_said_before_its_verb_is_written_after_it() {
        for (said, ordered) in [
            ("我两年前把烟戒了", "我两年前戒烟了"),
            ("用户已经把烟戒了", "用户已经戒烟了"),
            ("奶奶把我带大的", "奶奶带大我"),
            ("我是奶奶带大的", "奶奶带大我"),
            ("科幻电影是我喜欢看的", "我喜欢看科幻电影"),
            ("香菜我不吃", "我不吃香菜"),
            ("游泳用户不会", "用户不会游泳"),
        ] {
            assert_eq!(in_order(said).as_deref(), Some(ordered), "{said}");
        }
        for said in [
            "我不吃香菜",
            "昨天我没吃",
            "用户把车卖给了小王",
            "这本书是我的",
            "绿色是我最喜欢的颜色",
            "I quit smoking",
        ] {
            assert_eq!(in_order(said), None, "{said}");
        }
    }

    #[test]
    fn an_object_said_before_its_verb_is_one_fact_with_it_after() {
        one_fact(&[
            ("我两年前戒烟了", "我两年前把烟戒了"),
            ("我不吃香菜", "香菜我不吃"),
            ("用户不会游泳", "游泳用户不会"),
            ("我喜欢看科幻电影", "科幻电影是我喜欢看的"),
            ("我是奶奶带大的", "奶奶把我带大的"),
        ]);
        never_one_nor_claimed(&[
            ("我不吃香菜", "香菜我吃"),
            ("我是奶奶带大的", "我是外婆带大的"),
            ("我把烟戒了", "我把酒戒了"),
            ("我喜欢看科幻电影", "科幻电影是他喜欢看的"),
        ]);
    }
}
