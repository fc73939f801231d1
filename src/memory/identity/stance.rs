//! Who a fact is about when it says so with a pronoun, and how it holds it, from its words:
//! what the reading leaves out as too common to tell facts apart ("I", "she", "would",
//! "pretend", "lol") but which makes "she likes tea" another fact than "I like tea", "Bob
//! trusts me" another than "I trust Bob", and "I would like tea" or "I like tea lol jk"
//! another than "I like tea". Two facts whose stances differ are never one fact.

use std::collections::BTreeSet;

use super::Reason;
use super::denial::{Token, expand, tokens};
use super::who::Who;

/// A person a pronoun names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Person {
    /// "I", "the user", 我: in a private chat one person.
    Me,
    We,
    You,
    He,
    She,
    They,
    Nobody,
    Everyone,
    Others,
}

/// Whether a pronoun is the subject ("I", "he") or an object ("me", "him"); possessives
/// and "you" say neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    Subject,
    Object,
}

#[derive(Debug, Default, PartialEq)]
pub(super) struct Stance {
    persons: BTreeSet<Person>,
    cases: BTreeSet<(Person, Case)>,
    /// Modal, hedging or doubting words, as written: would, pretend, maybe, lol, 应该…
    modals: BTreeSet<String>,
    /// Two clauses, one of them negated: one more word may change which is denied.
    pub(super) compound: bool,
    /// "have trained", "has read": done; against "am training", "is reading".
    perfect: bool,
    pub(super) progressive: bool,
    /// Chinese: someone of 我's opens the text (我老公每周打羽毛球, 我妈喜欢茶): they are its
    /// subject, not 我.
    owned_opens: bool,
    /// English: the words, lowercase, and where the speaker (a bare "User", "I", "me") and
    /// the names written with a capital stand among them ("Sam owes User $200").
    who: Who,
}

fn pronoun(w: &str) -> Option<(Person, Option<Case>)> {
    use Case::*;
    use Person::*;
    Some(match w {
        "i" => (Me, Some(Subject)),
        "me" => (Me, Some(Object)),
        "my" | "mine" | "myself" | "user" | "user's" | "users" => (Me, None),
        "we" => (We, Some(Subject)),
        "us" => (We, Some(Object)),
        "our" | "ours" | "ourselves" => (We, None),
        "you" | "your" | "yours" | "yourself" | "yourselves" | "u" | "ya" | "y'all" | "yall" => {
            (You, None)
        }
        "he" => (He, Some(Subject)),
        "him" => (He, Some(Object)),
        "his" | "himself" => (He, None),
        "she" => (She, Some(Subject)),
        "her" | "hers" | "herself" => (She, None),
        "they" => (They, Some(Subject)),
        "them" => (They, Some(Object)),
        // "their" is often the user's own ("User runs their own business"): not counted
        "nobody" | "noone" | "none" => (Nobody, None),
        "everyone" | "everybody" => (Everyone, None),
        _ => return None,
    })
}

/// Words that change how a fact holds when one side only has them.
const MODALS: &[&str] = &[
    "would",
    "will",
    "could",
    "should",
    "might",
    "may",
    "must",
    "shall",
    "pretend",
    "pretends",
    "pretended",
    "pretending",
    "maybe",
    "perhaps",
    "probably",
    "possibly",
    "supposedly",
    "apparently",
    "if",
    "unless",
    "whether",
    "sure",
    "think",
    "thinks",
    "guess",
    "wish",
    "hope",
    "barely",
    "hardly",
    "scarcely",
    "seldom",
    "rarely",
    "lol",
    "jk",
    "kidding",
    "joking",
    "sarcasm",
    "doubt",
    "doubts",
    "theory",
    "dream",
    "dreams",
    "less",
    "more",
    "again",
    "try",
    "tries",
    "tried",
    "trying",
    "not",
    "right",
    "can",
    "only",
    "ought",
    "allowed",
    "meant",
    "need",
    "needs",
    "supposed",
    "gotta",
    // believing, suspecting, guessing: not the fact itself ("I suspect I'm lactose intolerant")
    "suspect",
    "suspects",
    "suspected",
    "believe",
    "believes",
    "assume",
    "assumes",
    "reckon",
    "reckons",
    "suppose",
    "presumably",
    "allegedly",
    "seemingly",
    "likely",
    "unlikely",
    "unsure",
    "uncertain",
    "wonder",
    // said, not shown: "claims to speak fluent French" (a twenty-first trial)
    "claim",
    "claims",
    "claimed",
    "claiming",
    "hopes",
    "hoped",
    "hoping",
    "almost",
    "nearly",
];
/// Of [`MODALS`], those that count only as a text's last word ("I like tea, not", "…,
/// right"), and "can" only when not denied ("can't stand" is "hates").
const LAST_ONLY: &[&str] = &["not", "right"];
/// Chinese ones, as written in the text.
const ZH_MODALS: &[&str] = &[
    "应该",
    "可能",
    "也许",
    "大概",
    "假装",
    "以为",
    // said, not shown (声称会说日语 is no 会说日语)
    "声称",
    "自称",
    "号称",
    "据说",
    "不知道",
    "才怪",
    "骗你",
    "骗人",
    "开玩笑",
    "几乎不",
    "很少",
    "想要",
    "想成",
    "想去",
    "想学",
    "想当",
    "想做",
    "打算",
    "计划",
    "尝试",
    "试着",
    "又",
    "再次",
    "理论上",
    // can, may, would, hope (会弹钢琴 is "can play": another fact than 弹钢琴, "plays")
    "会",
    "能",
    "可以",
    "懂",
    "希望",
    // only (只吃鱼)
    "只吃",
    "只喝",
    "只用",
    "只穿",
    "只看",
    "只听",
    "只会",
    // done (学会了, 已婚): another fact than the plain one; 正在 (under way) is not: 在学 says
    // it too, and 学会了 against it is told by 了
    "了",
    "已",
    // obliged, trying, seeming (我得去, 必须, 尽量, 好像)
    "我得",
    "得去",
    "必须",
    "需要",
    "应当",
    "尽量",
    "好像",
    "似乎",
    // heard, asked of oneself, feared: not the fact itself (听说, 要求自己, 害怕)
    "听说",
    "据说",
    "要求自己",
    "害怕",
    "怕",
    // believing, suspecting, guessing (我怀疑, 我觉得, 估计)
    "怀疑",
    "觉得",
    "认为",
    "感觉",
    "相信",
    "猜",
    "估计",
    "恐怕",
    "疑似",
    "说不定",
    "或许",
    "貌似",
    "看起来",
    "看样子",
    // done to, not doing (我儿子被同学打了 / 我儿子打了同学); every other (隔周 / 每周); only
    // (只有周末 / 也周末)
    "被",
    "隔",
    "只有",
    // not quite (不太能吃辣 / 不能吃辣); someone else's say (不让我抽烟 / 不抽烟)
    "不太",
    "不怎么",
    "不大",
    "让",
    // about to (快要签, 即将): not done yet
    "快要",
    "就要",
    "即将",
    "马上",
    "将要",
];
/// Words saying something is done every so often (每天, 周末): a 都会 after them is a habit, not
/// "can".
pub(super) const ZH_HABITUAL: &[&str] = &[
    "每天",
    "每晚",
    "每周",
    "每星期",
    "每个星期",
    "每月",
    "每个月",
    "每年",
    "每早",
    "每个周末",
    "周末",
    "平时",
    "通常",
    "经常",
    "总是",
];

/// Whether each 会 of `text` says a habit: right after 都, and said to be done every so often
/// (我周末都会去爬山 is 我每个周末都去爬山; 用户的孩子都会游泳 says "can").
fn habitual_hui(text: &str) -> bool {
    ZH_HABITUAL.iter().any(|w| text.contains(w))
        && text.matches('会').count() == text.matches("都会").count()
}

/// Whether each 了 of `text` says a state reached, not something done: a pet kept (养了两只猫 is
/// 有两只猫), an age reached at the end (今年7岁了 is 今年七岁).
fn stative_le(text: &str) -> bool {
    let end = text.trim_end_matches(|c: char| !c.is_alphanumeric() && !super::is_cjk(c));
    let les = text.matches('了').count();
    les > 0 && les == text.matches("养了").count() + usize::from(end.ends_with("岁了"))
}

/// Chinese sentence-final particles of a question or a guess, at the end of a text.
const ZH_FINAL: &[char] = &['吧', '呢', '么', '吗', '嘛'];

pub(super) fn read(text: &str) -> Stance {
    // "third grade" is "grade 3", as the lexer reads it
    let text: &str = &super::ordinal::as_numbers(text);
    let mut s = Stance::default();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let next = chars.get(i + 1);
        let before = i.checked_sub(1).map(|j| chars[j]);
        let person = match c {
            '我' if before == Some('自') => None,
            '我' | '咱' => Some(if next == Some(&'们') || *c == '咱' {
                Person::We
            } else {
                Person::Me
            }),
            '你' | '您' => Some(if next == Some(&'们') {
                Person::They
            } else {
                Person::You
            }),
            '他' | '她' if before == Some('其') => None,
            '他' | '她' if next == Some(&'们') => Some(Person::They),
            '他' => Some(Person::He),
            '她' => Some(Person::She),
            _ => None,
        };
        if let Some(p) = person {
            s.persons.insert(p);
        }
    }
    for (zh, p) in [
        ("用户", Person::Me),
        ("大家", Person::Everyone),
        ("别人", Person::Others),
        ("没有人", Person::Nobody),
        ("没人", Person::Nobody),
    ] {
        if text.contains(zh) {
            s.persons.insert(p);
        }
    }
    for m in ZH_MODALS {
        if text.contains(m)
            && !(*m == "会" && habitual_hui(text))
            && !(*m == "了" && stative_le(text))
        {
            // 能, 可以, 懂: "can" as 会 says it; 已 (已婚): done, as 了 says it
            let canonical = match *m {
                "能" | "可以" | "懂" => "会",
                "害怕" => "怕",
                "已" => "了",
                "认为" | "感觉" => "觉得",
                "计划" => "打算",
                "就要" | "即将" | "马上" | "将要" => "快要",
                other => other,
            };
            s.modals.insert(canonical.to_string());
        }
    }
    let end = text.trim_end_matches(|c: char| !c.is_alphanumeric() && !super::is_cjk(c));
    if let Some(c) = end.chars().last().filter(|c| ZH_FINAL.contains(c)) {
        s.modals.insert(c.to_string());
    }
    let (mut conjunction, mut negated) = (false, false);
    let the_country = text.contains("U.S.")
        || text
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "US")
            && text.chars().any(char::is_lowercase);
    let mut words: Vec<String> = Vec::new();
    for t in tokens(text) {
        if let Token::Word(w) = t {
            words.extend(expand(&w));
        }
    }
    for (i, w) in words.iter().enumerate() {
        // "no one" is one word here
        let w = if w == "no" && words.get(i + 1).is_some_and(|n| n == "one") {
            "noone"
        } else {
            w.as_str()
        };
        // "visited the US", "the U.S.": the country, not "us" (a twenty-first trial)
        if the_country && (w == "us" || w == "u" && words.get(i + 1).is_some_and(|n| n == "s")) {
            continue;
        }
        if let Some((p, case)) = pronoun(w) {
            s.persons.insert(p);
            if let Some(c) = case {
                s.cases.insert((p, c));
            }
        }
        // "only my wife drives" / "my wife only drives": only whoever does it
        if w == "only" && i == 0 {
            s.modals.insert("only who".into());
            continue;
        }
        // "even" with what it reaches: "even my boss likes jazz" / "my boss likes even jazz"
        if w == "even" {
            let next = words.get(i + 1).map_or("", String::as_str);
            s.modals.insert(format!("even {next}"));
        }
        // asked which: "keeps asking why we moved" / "when we moved"
        if matches!(
            w,
            "why" | "when" | "where" | "how" | "who" | "what" | "whether" | "which"
        ) && i > 0
            && matches!(
                words[i - 1].as_str(),
                "asking"
                    | "asks"
                    | "asked"
                    | "ask"
                    | "wonder"
                    | "wonders"
                    | "wondering"
                    | "wondered"
                    | "know"
                    | "knows"
                    | "knew"
                    | "explain"
                    | "explained"
                    | "remember"
                    | "forgot"
                    | "understand"
            )
        {
            // (not "knows how to swim": what they can do)
            if words.get(i + 1).is_none_or(|n| n != "to") {
                s.modals.insert(format!("asks {w}"));
            }
        }
        // how exact a number is: "exactly 6 pm" / "around 6 pm", "at least 30"
        if matches!(
            w,
            "exactly"
                | "precisely"
                | "around"
                | "about"
                | "roughly"
                | "approximately"
                | "almost"
                | "nearly"
                | "least"
                | "most"
                | "over"
                | "under"
                | "than"
        ) && words
            .get(i + 1)
            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        {
            s.modals.insert(format!("number {w}"));
        }
        // "about to": not done yet
        if w == "about" && words.get(i + 1).is_some_and(|n| n == "to") {
            s.modals.insert("about to".into());
        }
        // "not" counts only at the end ("I like tea, not"): elsewhere it is a negation,
        // which the reading binds
        let last = i + 1 == words.len();
        let denied = words.get(i + 1).is_some_and(|n| n == "not");
        // "an only child" has no siblings: no restriction of what else is said
        let only_child = w == "only" && words.get(i + 1).is_some_and(|n| n.starts_with("child"));
        if MODALS.contains(&w)
            && (!LAST_ONLY.contains(&w) || last)
            && !(w == "can" && denied)
            && !only_child
        {
            // "only" with what it restricts: "I only eat fish on Fridays" / "I eat only fish
            // on Fridays", "not only my son" / "not only chess"
            if w == "only" {
                let next = words.get(i + 1).map_or("", String::as_str);
                s.modals.insert(format!("only {next}"));
            } else {
                let canonical = match w {
                    "nearly" => "almost",
                    "claims" | "claimed" | "claiming" => "claim",
                    "hopes" | "hoped" | "hoping" => "hope",
                    other => other,
                };
                s.modals.insert(canonical.to_string());
            }
        }
        let next = words.get(i + 1).map_or("", String::as_str);
        if matches!(w, "have" | "has" | "had" | "ve")
            && next != "been"
            && (next.ends_with("ed") || super::tables::TABLES.irregular_participles.contains(next))
        {
            s.perfect = true;
        }
        // "have to", "has to": obliged
        if matches!(w, "have" | "has" | "had") && next == "to" {
            s.modals.insert("have to".into());
        }
        if matches!(w, "am" | "is" | "are" | "m" | "re") && next.len() > 4 && next.ends_with("ing")
        {
            s.progressive = true;
        }
        if CONJUNCTIONS.contains(&w) {
            conjunction = true;
        }
        if w == "not" {
            negated = true;
        }
    }
    super::qualifiers::read(&words, text, &mut s.modals);
    s.who = Who::read(text);
    let all: Vec<char> = text.chars().collect();
    // 只 as "only" before what is done (我只在周一加班 / 我周一也加班), not a measure word
    // (一只猫, 养了只猫); with the word it restricts (我只给我妈打电话 / 我只打电话给我妈)
    for (i, c) in all.iter().enumerate() {
        let after = all.get(i + 1).copied();
        if *c == '只'
            && let Some(a) = after.filter(|a| {
                super::compound::ZH_VERBS.contains(*a)
                    || "在有是会能喜吃喝做上加给打和跟对".contains(*a)
            })
        {
            s.modals.insert(format!("只{a}"));
        }
    }
    // a verb with 过: done once, not done now (我喜欢过小红, 我去过上海, 装修过); not 过敏,
    // 过去, 超过, 不过
    for (i, c) in all.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| all[j]);
        let after = all.get(i + 1).copied();
        if *c == '过'
            && before.is_some_and(|b| super::is_cjk(b) && !"不超经难通度错路只太越穿跳".contains(b))
            // nor 过世 (died), 过节 (a holiday kept)
            && !after.is_some_and(|a| "敏去年来程渡滤世节".contains(a))
        {
            s.modals.insert("过".into());
        }
    }
    // asked which (为什么 / 什么时候), and how exact a number is (三十来个 / 至少三十个)
    for w in [
        "为什么",
        "什么时候",
        "怎么",
        "哪里",
        "哪儿",
        "多少",
        "几点",
        "至少",
        "最多",
        "大约",
        "大概",
        "左右",
        "将近",
        "差不多",
        "以上",
        "以下",
        "来个",
        "多个",
        "正好",
        "整整",
    ] {
        if text.contains(w) {
            s.modals.insert(w.to_string());
        }
    }
    if ZH_CONJUNCTIONS.iter().any(|c| text.contains(c)) {
        conjunction = true;
    }
    if text.chars().any(|c| matches!(c, '不' | '没')) {
        negated = true;
    }
    // "I like tea and I don't like coffee", 我喜欢茶，不喜欢咖啡: a negation in one of two
    // clauses, which the reading may bind to the wrong one
    s.compound = conjunction && negated;
    // Chinese: 我 (or 用户) opening the text (or a clause) is its subject, anywhere else an
    // object ("小红爱我", "老板让我加班", 小王欠用户五千块);
    // 我 before someone (我老板) is theirs, and says neither
    let chars: Vec<char> = text.trim_start().chars().collect();
    if s.persons.contains(&Person::Me) && !text.contains("我们") {
        for i in 0..chars.len() {
            // (用户的, how a memory names what is the user's, says neither: 用户的狗叫豆豆 /
            // 豆豆是用户的狗的名字)
            let len = match chars[i] {
                '我' => 1,
                '用' if chars.get(i + 1) == Some(&'户') && chars.get(i + 2) != Some(&'的') => 2,
                _ => continue,
            };
            let rest: String = chars[i + len..].iter().take(2).collect();
            // after a time or a pause 我 still opens its clause (周末我去游泳, 每天早上我喝茶)
            let opens = i == 0
                || chars[i - 1].is_whitespace()
                || "天末午上晚点年月日周后前时候，,、一二三四五六七八九十".contains(chars[i - 1]);
            if ZH_OWNED.iter().any(|k| rest.starts_with(k)) {
                s.owned_opens |= opens && ZH_OWNED_PEOPLE.iter().any(|k| rest.starts_with(k));
                continue;
            }
            // 我的女儿叫小雨 opening the text is 我女儿叫小雨 (a twenty-first trial)
            let after_de: String = chars[i + len..].iter().skip(1).take(2).collect();
            if len == 1
                && opens
                && chars.get(i + 1) == Some(&'的')
                && ZH_OWNED_PEOPLE.iter().any(|k| after_de.starts_with(k))
            {
                s.owned_opens = true;
                continue;
            }
            s.cases
                .insert((Person::Me, if opens { Case::Subject } else { Case::Object }));
        }
    }
    s
}

/// Who follows 我 when it is theirs: 我老板, 我妈… (我的 still says where 我 stands: 小赵是
/// 我的学生 / 我是小赵的学生)
const ZH_OWNED: &[&str] = &[
    "妈", "爸", "老", "哥", "姐", "弟", "妹", "儿", "女", "孩", "家", "朋", "同", "爷", "奶", "外",
    "丈", "妻", "男", "上司", "领导", "室友", "邻居", "干", "表", "堂", "叔", "阿", "舅", "母",
    "父", "太太", "媳妇", "孙", "婆婆", "公公", "岳", "姥", "祖", "伯", "姑", "侄", "继", "太奶",
    "太爷", "太姥", "曾祖", "前妻", "前夫", "前女", "前男", "前同", "前老", "未婚", "对象", "伴侣",
    "宝宝", "闺蜜", "发小", "兄", "教练", "学生", "徒弟", "师父", "师傅",
];

/// Of those, who is someone (not 我老家, 我家, 我同意): 我老公 doing a thing is not 我 doing it.
const ZH_OWNED_PEOPLE: &[&str] = &[
    "妈", "爸", "老公", "老婆", "老板", "老师", "哥", "姐", "弟", "妹", "儿", "女", "孩", "朋友",
    "同事", "同学", "爷", "奶", "外婆", "外公", "丈夫", "妻子", "男朋", "女朋", "男友", "女友",
    "上司", "领导", "室友", "邻居", "表", "堂", "叔", "阿姨", "舅", "母", "父", "太太", "媳妇",
    "孙", "婆婆", "公公", "岳", "姥", "祖", "伯", "姑", "侄", "继", "太奶", "太爷", "太姥", "曾祖",
    "前妻", "前夫", "前女", "前男", "前同", "前老", "未婚", "老伴", "对象", "伴侣", "宝宝", "闺蜜",
    "发小", "兄", "教练", "学生", "徒弟", "师父", "师傅",
];

/// Words joining two clauses.
const CONJUNCTIONS: &[&str] = &["and", "but", "or", "while", "whereas", "though", "although"];
const ZH_CONJUNCTIONS: &[&str] = &["，", ",", "但", "而", "却", "和", "或"];

/// Why facts with stances `a` and `b` cannot be taken for one fact, if they cannot: each
/// names someone by pronoun and not the same people; one person is the subject on one side
/// and an object on the other; or one side holds it otherwise (a modal, a hedge, a doubt).
pub(super) fn differ(a: &Stance, b: &Stance) -> Option<Reason> {
    // a pronoun on one side only: the other may name someone the reading does not see as a
    // name (小明喜欢茶 / 我喜欢茶)
    if a.persons != b.persons {
        return Some(Reason::Subject(format!(
            "{:?} / {:?}",
            a.persons.iter().collect::<Vec<_>>(),
            b.persons.iter().collect::<Vec<_>>()
        )));
    }
    let swapped = |x: &Stance, y: &Stance| {
        x.cases.iter().any(|&(p, c)| {
            c == Case::Subject
                && y.cases.contains(&(p, Case::Object))
                && !y.cases.contains(&(p, Case::Subject))
        })
    };
    if swapped(a, b) || swapped(b, a) {
        return Some(Reason::Roles("subject and object swapped".into()));
    }
    if let Some(name) = a.who.swapped(&b.who) {
        return Some(Reason::Roles(format!("{name} and me swapped")));
    }
    // 我老公打羽毛球 / 我打羽毛球: someone of mine does it, or I do
    let mine = |x: &Stance, y: &Stance| {
        x.owned_opens
            && !x.cases.contains(&(Person::Me, Case::Subject))
            && y.cases.contains(&(Person::Me, Case::Subject))
    };
    if mine(a, b) || mine(b, a) {
        return Some(Reason::Subject("someone of mine / me".into()));
    }
    if (a.perfect && b.progressive) || (a.progressive && b.perfect) {
        return Some(Reason::Tense);
    }
    if a.modals != b.modals {
        let only: Vec<&String> = a.modals.symmetric_difference(&b.modals).collect();
        return Some(Reason::Relation(
            only.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        ));
    }
    None
}
