//! Reading Chinese: phrases from the lexicon (longest first), numerals with their units
//! (三月 → 3月, 两个 → 2), and any other character as a term of its own, so a one-character
//! swap (猫 / 狗) shows.

use super::lex::{Raw, ZH_NUMERALS, zh_number};
use super::lexicon;
use super::parse::{Class, Num, Term, Tok, emit, mark_owned};
use super::tables::TABLES;

pub(super) fn read_cjk(raws: &[Raw], i: usize, toks: &mut Vec<Tok>) -> usize {
    let run: Vec<char> = raws[i..]
        .iter()
        .map_while(|r| match r {
            Raw::Cjk(c) => Some(*c),
            _ => None,
        })
        .collect();
    let t = &*TABLES;
    // 中午一点, 一点半: one o'clock, not the lexicon's 一点 ("a little")
    let one_oclock = run.starts_with(&['一', '点'])
        && (day_part_before(&raws[..i]).is_some()
            || run.get(2).is_some_and(|c| "半钟整".contains(*c)));
    for len in (1..=t.zh_longest.min(run.len())).rev() {
        if one_oclock {
            break;
        }
        let s: String = run[..len].iter().collect();
        if let Some(out) = t.zh.get(s.as_str()) {
            // 跟老师学钢琴: someone it is done with, not another relation
            if matches!(*out, "@teach" | "@learn") && zh_companion(raws, i) {
                return i + len;
            }
            // who: after 的, right after the subject, or owning what follows (X的)
            let before = i.checked_sub(1).map(|k| &raws[k]);
            let after = raws.get(i + len);
            let subject = matches!(before, None | Some(Raw::Cjk('的')) | Some(Raw::Break))
                || matches!(after, Some(Raw::Cjk('的')))
                || (i >= 2
                    && matches!(
                        (&raws[i - 2], &raws[i - 1]),
                        (Raw::Cjk('用'), Raw::Cjk('户'))
                    ));
            let first = toks.len();
            emit(out, &s, subject, false, toks);
            mark_owned(
                &mut toks[first..],
                zh_possessed(raws, i),
                zh_companion(raws, i),
            );
            return i + len;
        }
    }
    let numerals = run.iter().take_while(|c| ZH_NUMERALS.contains(**c)).count();
    if numerals > 0
        && let Some(n) = zh_number(&run[..numerals])
    {
        let shown: String = run[..numerals].iter().collect();
        let (num, used) = number(n.to_string(), shown, raws, i, i + numerals);
        // 一只猫: "a cat" as much as "one cat"; 一天: "a day" as much as "one day"
        let weak = (num.key == "1" || num.key == "1天") && used > i + numerals;
        drop_day_part(raws, i, &num, toks);
        toks.push(Tok::Num(Num { weak, ..num }));
        return used;
    }
    let c = run[0];
    if let Some(time) = zh_time(raws, i) {
        // 下周一前交, 3点前到: before a date or a time, which no word stands for
        if matches!(toks.last(), Some(Tok::Num(_))) {
            toks.push(Tok::Mark(time.to_string(), c.to_string()));
        } else {
            mark_time(raws, i, time, toks);
        }
        return i + 1;
    }
    // 快毕业了, 要戒烟了: about to, not done yet
    if prospective(raws, i) {
        toks.push(Tok::Mark("want".to_string(), c.to_string()));
        return i + 1;
    }
    // a character written twice is one word (孙丽丽 is not 孙丽)
    let doubled = run.get(1) == Some(&c);
    let word: String = if doubled {
        [c, c].iter().collect()
    } else {
        c.to_string()
    };
    if !lexicon::ZH_STOP.contains(c) && !crate::memory::text::terms(&c.to_string()).is_empty() {
        toks.push(Tok::Term(Term {
            key: word.clone(),
            shown: word,
            class: Class::Plain,
            subject: false,
            owned: zh_possessed(raws, i),
            companion: false,
            cjk: true,
            role: None,
            left: None,
            owner: None,
            apposed: None,
        }));
    }
    if doubled { i + 2 } else { i + 1 }
}

/// 后 / 前 at `i` placing what comes before it in time (毕业后, 饭前, 在大学毕业后): "after" or
/// "before"; not a place (后面, 前面, 后门, 后院), a date (前天, 后年), someone former (前妻), "then" (然后,
/// 最后) or "later" (后来).
fn zh_time(raws: &[Raw], i: usize) -> Option<&'static str> {
    let time = match raws.get(i) {
        Some(Raw::Cjk('后')) => "after",
        Some(Raw::Cjk('前')) => "before",
        _ => return None,
    };
    let before = i.checked_sub(1).and_then(|j| match &raws[j] {
        Raw::Cjk(c) => Some(*c),
        _ => None,
    });
    let after = match raws.get(i + 1) {
        Some(Raw::Cjk(c)) => Some(*c),
        _ => None,
    };
    let word = before.is_some_and(|b| "然最背面目提往".contains(b))
        || after.is_some_and(|a| "面边天年妻夫任女男悔往进方头台来门座院排窗".contains(a));
    (before.is_some() && !word).then_some(time)
}

/// 快 / 要 at `i` saying what follows is about to happen: a verb of a few characters, then 了
/// (哥哥快毕业了, 我要戒烟了); not "fast" (跑得快, 很快), nor a word of its own (快乐, 快递, 重要,
/// 需要, 要求), nor 要了 ("ordered").
fn prospective(raws: &[Raw], i: usize) -> bool {
    let cjk = |k: usize| match raws.get(k) {
        Some(Raw::Cjk(c)) => Some(*c),
        _ => None,
    };
    let (Some(c), before, after) = (cjk(i), i.checked_sub(1).and_then(cjk), cjk(i + 1)) else {
        return false;
    };
    let word = match c {
        '快' => {
            before.is_some_and(|b| "得很太真挺更最越飞赶尽".contains(b))
                || after.is_some_and(|a| "乐递餐速车手捷活感照门件了".contains(a))
        }
        '要' => {
            before.is_some_and(|b| "需重主只必首想要不还就紧纲摘概".contains(b))
                || after.is_some_and(|a| "求是紧素点命好不了么".contains(a))
        }
        _ => return false,
    };
    !word
        && (2..=5).any(|k| {
            cjk(i + k) == Some('了') && (1..k).all(|j| cjk(i + j).is_some_and(|x| x != '了'))
        })
}

/// Binds `time` to what it places: the words since 在 (在大学毕业后: 大学 and 毕业), else the
/// characters read one by one right before it (毕业后), else the word right before it.
fn mark_time(raws: &[Raw], i: usize, time: &'static str, toks: &mut [Tok]) {
    let start = (1..=8)
        .map_while(|back| i.checked_sub(back))
        .map_while(|j| match raws[j] {
            Raw::Cjk(c) => Some((j, c)),
            _ => None,
        })
        .find(|&(_, c)| c == '在')
        .map(|(j, _)| j + 1);
    let span: String = match start {
        Some(k) => raws[k..i]
            .iter()
            .filter_map(|r| match r {
                Raw::Cjk(c) => Some(*c),
                _ => None,
            })
            .collect(),
        None => String::new(),
    };
    let mut marked = 0;
    for tok in toks.iter_mut().rev() {
        let Tok::Term(t) = tok else { continue };
        let inside = if start.is_some() {
            t.shown.chars().all(|c| span.contains(c))
        } else {
            // one word, or an unlisted one read a character at a time (毕 业)
            marked == 0 || (t.key == t.shown && t.shown.chars().count() == 1)
        };
        if !inside {
            break;
        }
        t.role = Some(time);
        marked += 1;
    }
}

/// A number read at `next`'s left, with the unit that follows it (3月, 3日 for 3号) or without
/// the measure word that does (两个 is 2); and where reading goes on.
pub(super) fn number(
    key: String,
    shown: String,
    raws: &[Raw],
    start: usize,
    next: usize,
) -> (Num, usize) {
    let (mut key, mut shown, mut next) = (key, shown, next);
    let mut unit = None;
    // 1.5万 is 15000, as 一万五千 is (a twenty-first trial)
    if let Some(Raw::Cjk(m @ ('万' | '亿'))) = raws.get(next)
        && let Ok(n) = key.parse::<f64>()
    {
        let times = if *m == '万' { 1e4 } else { 1e8 };
        key = format!("{}", (n * times).round());
        shown.push(*m);
        next += 1;
    }
    // units of two characters: 公斤 and 千克 are kilograms, not 斤; 公里 kilometres; the
    // currencies (美元, 块钱…)
    let pair = match (raws.get(next), raws.get(next + 1)) {
        (Some(Raw::Cjk(x)), Some(Raw::Cjk(y))) => Some((*x, *y)),
        _ => None,
    };
    let two = match pair {
        Some(('公' | '千', '斤' | '克')) => Some("kg"),
        Some(('公' | '千', '里' | '米')) => Some("km"),
        Some(('英', '里')) => Some("mile"),
        // 英尺 is feet and 尺 a Chinese foot; 毫克 milligrams and 克 grams
        Some(('英', '尺')) => Some("ft"),
        Some(('英', '寸')) => Some("inch"),
        Some(('毫', '克')) => Some("mg"),
        Some(('微', '克')) => Some("mcg"),
        Some(('毫', '升')) => Some("ml"),
        Some(('厘', '米')) => Some("cm"),
        Some(('毫', '米')) => Some("mm"),
        Some(('美', '元' | '金')) => Some("dollar"),
        Some(('欧', '元')) => Some("euro"),
        Some(('英', '镑')) => Some("pound"),
        Some(('日', '元')) => Some("yen"),
        Some(('港', '币' | '元')) => Some("hkd"),
        Some(('台', '币')) => Some("twd"),
        Some(('韩', '元')) => Some("krw"),
        Some(('块' | '元', '钱')) => Some("yuan"),
        _ => None,
    };
    let renminbi = pair == Some(('人', '民')) && matches!(raws.get(next + 2), Some(Raw::Cjk('币')));
    if let Some((cm, used)) = height(&key, raws, next) {
        // 一米八, 1米75, 1.8米: a height, in centimetres as 180厘米 says it
        key = cm.to_string();
        unit = Some("cm".to_string());
        shown.extend(raws[next..used].iter().filter_map(|r| match r {
            Raw::Cjk(c) => Some(c.to_string()),
            Raw::Digits(d) => Some(d.clone()),
            _ => None,
        }));
        next = used;
    } else if renminbi {
        unit = Some("yuan".to_string());
        next += 3;
    } else if let Some(u) = two {
        unit = Some(u.to_string());
        next += 2;
    } else if matches!(raws.get(next), Some(Raw::Cjk('元' | '块'))) {
        // 三千块: money, as 元 is (一块蛋糕 is read as "a piece" the same way)
        unit = Some("yuan".to_string());
        next += 1;
    } else if let Some(Raw::Cjk(u)) = raws.get(next) {
        // 5米 is five metres (no 5公里); 一米七五 is a height, 1.75 m, read as its two numbers
        let metres = *u == '米'
            && !matches!(raws.get(next + 1), Some(Raw::Cjk(c)) if ZH_NUMERALS.contains(*c))
            && !matches!(raws.get(next + 1), Some(Raw::Digits(_)));
        if lexicon::ZH_UNIT.contains(*u) || metres {
            let u = if *u == '号' { '日' } else { *u };
            // 晚上10点 is 22点: the hour on the 24-hour clock, as the part of the day before it
            // says it
            if u == '点'
                && let Some(part) = day_part_before(&raws[..start])
                && let Ok(h) = key.parse::<u32>()
            {
                key = on_the_clock(part, h).to_string();
            }
            // 8点 is the hour "8:00" says (a twenty-first trial); other units stay with
            // their number
            if u == '点' {
                unit = Some("o'clock".to_string());
            } else {
                key.push(u);
            }
            shown.push(u);
            next += 1;
            // 8点半 is 8:30
            if u == '点' && matches!(raws.get(next), Some(Raw::Cjk('半'))) {
                key.push_str(":30");
                shown.push('半');
                next += 1;
            }
        } else if lexicon::ZH_MEASURE.contains(*u) {
            // 八杯水 / 八瓶水: what is counted; the classifiers for anything (个, 只…) count
            // pieces, which a box or a bag is not (一箱苹果 / 一个苹果); a pair (一对, 一双) is two
            if "对双".contains(*u) {
                if let Ok(n) = key.parse::<u64>() {
                    key = (n * 2).to_string();
                }
                unit = Some("piece".to_string());
            } else if "个只位名种件条张本".contains(*u) {
                unit = Some("piece".to_string());
            } else {
                unit = Some(u.to_string());
            }
            next += 1;
        }
    }
    let num = Num {
        key,
        shown,
        weak: false,
        unit,
    };
    (num, next)
}

/// A height in metres at `at`, after the number `key`: 米 and one or two digits after it
/// (一米八 is 180 cm, 一米七五 175, 1米8 180), or 米 after a number of metres with a decimal
/// point (1.8米). Its centimetres and where reading goes on.
fn height(key: &str, raws: &[Raw], at: usize) -> Option<(u64, usize)> {
    if !matches!(raws.get(at), Some(Raw::Cjk('米'))) {
        return None;
    }
    if let Some((whole, fraction)) = key.split_once('.') {
        let metres: f64 = key.parse().ok()?;
        let plausible = whole.len() == 1 && !fraction.is_empty() && metres < 3.0;
        return plausible.then(|| ((metres * 100.0).round() as u64, at + 1));
    }
    let metres: u64 = key.parse().ok().filter(|m| (1..=2).contains(m))?;
    let (digits, used) = match raws.get(at + 1) {
        Some(Raw::Digits(d)) => (d.clone(), at + 2),
        _ => {
            let run: String = raws[at + 1..]
                .iter()
                .map_while(|r| match r {
                    Raw::Cjk(c) if ZH_NUMERALS.contains(*c) && !"十百千万两俩仨".contains(*c) => {
                        Some(*c)
                    }
                    _ => None,
                })
                .collect();
            let chars: Vec<char> = run.chars().collect();
            if chars.is_empty() {
                return None;
            }
            (zh_number(&chars)?.to_string(), at + 1 + chars.len())
        }
    };
    let cm = match digits.len() {
        1 => digits.parse::<u64>().ok()? * 10,
        2 => digits.parse::<u64>().ok()?,
        _ => return None,
    };
    Some((metres * 100 + cm, used))
}

/// The words for a part of the day that say which half of the clock an hour after them is
/// on (晚上7点 is 19:00, 早上7点 7:00).
pub(super) const DAY_PARTS: &[&str] = &[
    "早上", "早晨", "清晨", "上午", "中午", "下午", "傍晚", "晚上", "夜里", "夜间", "凌晨", "半夜",
    "深夜", "每晚",
];

/// The part of the day whose word ends `before` (下午, 晚上…), if one does.
pub(super) fn day_part_before(before: &[Raw]) -> Option<&'static str> {
    let [.., Raw::Cjk(a), Raw::Cjk(b)] = before else {
        return None;
    };
    let tail: String = [*a, *b].iter().collect();
    DAY_PARTS.iter().copied().find(|p| *p == tail)
}

/// Hour `h` said after `part` of the day, on the 24-hour clock: 下午3点 is 15, 晚上10点 22
/// but 晚上2点 2 (past midnight), 晚上12点 and 凌晨12点 midnight (0), 中午1点 13, 深夜11点 23;
/// a morning's hours are as said.
fn on_the_clock(part: &str, h: u32) -> u32 {
    let evening = matches!(part, "晚上" | "每晚");
    let night = matches!(part, "夜里" | "夜间" | "半夜" | "深夜");
    match (part, h) {
        (_, 12) if evening || night || part == "凌晨" => 0,
        ("下午" | "傍晚", 1..=11) | ("中午", 1..=3) => h + 12,
        (_, 5..=11) if evening => h + 12,
        (_, 8..=11) if night => h + 12,
        _ => h,
    }
}

/// Drops the word for the part of the day right before an hour (晚上 in 晚上7点) once the
/// hour is read on the 24-hour clock: it said which half, which the hour now says itself, so
/// 晚上7点 and 19:00 read alike.
pub(super) fn drop_day_part(raws: &[Raw], start: usize, num: &Num, toks: &mut Vec<Tok>) {
    if num.unit.as_deref() != Some("o'clock") {
        return;
    }
    let Some(part) = day_part_before(&raws[..start]) else {
        return;
    };
    if matches!(toks.last(), Some(Tok::Term(t)) if t.cjk && part.ends_with(t.shown.as_str())) {
        toks.pop();
    }
}

/// Right after 用户的: what the fact is about.
fn zh_possessed(raws: &[Raw], i: usize) -> bool {
    i >= 3
        && matches!(
            (&raws[i - 3], &raws[i - 2], &raws[i - 1]),
            (Raw::Cjk('用'), Raw::Cjk('户'), Raw::Cjk('的'))
        )
}

/// Someone the user does something with or for: 和/跟/给/陪 just before.
fn zh_companion(raws: &[Raw], i: usize) -> bool {
    (1..=2).any(|back| {
        i.checked_sub(back)
            .is_some_and(|j| matches!(raws[j], Raw::Cjk(c) if "和跟给陪同与".contains(c)))
    })
}
