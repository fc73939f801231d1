//! A habit that stopped: "I no longer drink coffee" after "User drinks coffee every morning",
//! "I quit Spotify" after "User works at Spotify", "I don't play tennis anymore" after "I
//! play tennis on Saturdays", 我不再打羽毛球了 after 我每周六打羽毛球, 我戒咖啡了 after 我每天喝两杯
//! 咖啡. The stopping denies the habit however it was done (on Saturdays, every morning), so
//! it replaces the stored habit though the words around it differ. Read only where the
//! stored fact is the speaker's one habit and nothing more: "I drink coffee and tea" is not
//! replaced by "I quit coffee" (the tea still holds), nor "I drink coffee" by "I quit
//! drinking" (drinking is alcohol's), nor "my wife drinks coffee" by anything of mine.
//!
//! Pure: text in, decision out.

use super::Change;
use crate::memory::identity::lex::{Raw, lex};
use crate::memory::identity::tables::stem;

/// Verbs of a habit that stopping a thing ends ("quit coffee" ends "drinks coffee", "quit
/// Spotify" ends "works at Spotify"); not feelings ("likes coffee" may outlast quitting it).
#[rustfmt::skip]
const HABITS: &[&str] = &[
    "drink", "eat", "smoke", "use", "play", "take", "go", "attend", "learn", "study",
    "practice", "practise", "work", "volunteer", "subscribe", "do", "run", "swim", "watch",
    "visit", "see", "teach", "coach", "ride", "wear", "follow", "train", "support", "cycle",
    "bike", "walk", "drive", "catch",
];

/// Words that open a stopping: "quit", "stopped", "gave up (on)", "no longer".
#[rustfmt::skip]
const STOPS: &[&[&str]] = &[
    &["have", "quit"], &["has", "quit"], &["quit"], &["have", "stopped"], &["has", "stopped"],
    &["stopped"], &["have", "given", "up", "on"], &["have", "given", "up"], &["gave", "up", "on"],
    &["gave", "up"], &["no", "longer"], &["am", "no", "longer"], &["do", "not"],
    &["does", "not"],
];

/// Words that may close a stopping: when, and how wholly ("completely", "for good").
#[rustfmt::skip]
const CLOSING: &[&str] = &[
    "anymore", "completely", "altogether", "entirely", "cold", "turkey", "last",
    "this", "past", "a", "few", "couple", "of", "ago", "in", "the", "yesterday", "week",
    "weeks", "month", "months", "year", "years", "days", "day", "now", "recently", "just",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "spring", "summer", "fall", "autumn", "winter", "one",
    "two", "three", "four", "five", "six", "several",
];

/// Words that join two habits in one fact ("coffee and tea"): the fact holds more than one.
const JOINING: &[&str] = &["and", "or", "but", "also", "plus", "as", "well"];

/// A habit stopped, as read: the verb, when said ("no longer drink" → "drink"), and what it
/// was done with ("coffee").
#[derive(Debug)]
struct Stopped {
    verb: Option<String>,
    thing: Vec<String>,
}

/// A stored habit, as read: its verb and the words after it.
#[derive(Debug)]
struct Habit {
    verb: String,
    rest: Vec<String>,
}

fn words(text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for raw in lex(text) {
        match raw {
            Raw::Word { lower, .. } => out.push(lower),
            Raw::Digits(d) => out.push(d),
            Raw::Break if out.is_empty() => {}
            // one statement only
            _ => return None,
        }
    }
    while out.last().is_some_and(|w| w.is_empty()) {
        out.pop();
    }
    Some(out)
}

/// The speaker opening a statement ("I", "User", "the user"), and the words after.
fn by_the_speaker(words: &[String]) -> Option<&[String]> {
    match words {
        [i, rest @ ..] if i == "i" || i == "user" => Some(rest),
        [the, user, rest @ ..] if the == "the" && user == "user" => Some(rest),
        _ => None,
    }
}

/// The plain form of a verb as said, stemmed ("drinks", "drinking" → "drink").
fn plain(verb: &str) -> String {
    match verb {
        "goes" | "going" => "go".into(),
        "does" | "doing" => "do".into(),
        _ => stem(verb),
    }
}

fn read_stopped(text: &str) -> Option<Stopped> {
    let words = words(text.trim_end_matches(['.', '!']))?;
    let rest = by_the_speaker(&words)?;
    let stop = STOPS
        .iter()
        .find(|s| rest.len() > s.len() && rest.iter().zip(s.iter()).all(|(a, b)| a == b))?;
    let mut rest: Vec<&str> = rest[stop.len()..].iter().map(String::as_str).collect();
    // "don't play tennis anymore": a plain "don't" is a denial's to read, not a stopping
    if stop.ends_with(&["not"]) && rest.last() != Some(&"anymore") {
        return None;
    }
    let no_longer = stop.ends_with(&["longer"]) || stop.ends_with(&["not"]);
    // what closes it: "anymore", "for good", when (not "for a week": a pause)
    if rest.ends_with(&["for", "good"]) {
        rest.truncate(rest.len() - 2);
    }
    while rest.last().is_some_and(|w| CLOSING.contains(w)) {
        rest.pop();
    }
    what_stopped(&rest, no_longer)
}

/// What stopped, from the words after the stopping: a verb first where `verb_first` ("no
/// longer drink coffee") or where it is a gerund ("quit drinking coffee"), else the thing
/// alone ("quit coffee", "quit the gym").
fn what_stopped(words: &[&str], verb_first: bool) -> Option<Stopped> {
    let (first, rest) = words.split_first()?;
    let (verb, thing) = if verb_first || first.ends_with("ing") {
        (Some(plain(first)), rest)
    } else {
        (None, words)
    };
    let thing = thing_words(thing.iter().copied())?;
    // "quit drinking" is alcohol's; "no longer drink" says nothing of what
    (!thing.is_empty()).then_some(Stopped { verb, thing })
}

/// The words of a thing as they are matched, articles and "my" left out; `None` where they
/// join two ("coffee and tea").
fn thing_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Option<Vec<String>> {
    let thing: Vec<String> = words
        .into_iter()
        .filter(|w| !matches!(*w, "a" | "an" | "the" | "my"))
        .map(String::from)
        .collect();
    (!thing.iter().any(|w| JOINING.contains(&w.as_str()))).then_some(thing)
}

fn read_habit(text: &str) -> Option<Habit> {
    let words = words(text.trim_end_matches(['.', '!']))?;
    let mut rest = by_the_speaker(&words)?;
    // "I'm learning Spanish" as "I learn Spanish"
    if rest.first().is_some_and(|w| w == "am" || w == "is")
        && rest.get(1).is_some_and(|w| w.ends_with("ing"))
    {
        rest = &rest[1..];
    }
    let (verb, rest) = rest.split_first()?;
    let verb = plain(verb);
    if !HABITS.iter().any(|h| plain(h) == verb) {
        return None;
    }
    let rest = thing_words(rest.iter().map(String::as_str))?;
    Some(Habit { verb, rest })
}

/// Whether the stopping ends the habit: the same verb where it says one, and the same thing
/// first after it ("coffee" in "coffee every morning"; "Spotify" in "at Spotify").
/// `anywhere`: a thing without its verb may also be the one closing the habit after a
/// preposition ("work from home on Mondays" by "instead of Mondays").
fn ends(stopped: &Stopped, habit: &Habit, anywhere: bool) -> bool {
    let from = |at: usize| {
        let rest = &habit.rest[at..];
        rest.len() >= stopped.thing.len()
            && rest
                .iter()
                .zip(&stopped.thing)
                .all(|(a, b)| a == b || stem(a) == stem(b))
    };
    let preposition = |w: &String| {
        matches!(
            w.as_str(),
            "at" | "for" | "to" | "with" | "in" | "on" | "from" | "by"
        )
    };
    match &stopped.verb {
        Some(verb) => *verb == habit.verb && from(0),
        None if anywhere => {
            // the thing ends the habit ("… on Mondays"), after a preposition
            let at = habit.rest.len().checked_sub(stopped.thing.len());
            from(0) || at.is_some_and(|at| at > 0 && preposition(&habit.rest[at - 1]) && from(at))
        }
        None => from(usize::from(habit.rest.first().is_some_and(preposition))),
    }
}

/// The Chinese words that may come between who and a habit: how often and when (每天,
/// 每周六, 早上, 平时).
const ZH_WHEN: &str = "每天周一二三四五六日末早上晚中午下午平时经常一般都常个月年";
/// A count between a verb and its thing (两杯, 3次).
const ZH_COUNT: &str = "0123456789一二两三四五六七八九十几半杯个次包瓶罐根支";

/// 我不再打羽毛球了 → (Some("打羽毛球"), …); 我戒咖啡了, 我把咖啡戒了 → (None, "咖啡").
fn read_stopped_zh(text: &str) -> Option<(bool, String)> {
    let text: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !"。！!.".contains(*c))
        .collect();
    let rest = text
        .strip_prefix('我')
        .or_else(|| text.strip_prefix("用户"))?;
    let rest = rest
        .trim_start_matches("已经")
        .trim_end_matches(['了', '啦']);
    if let Some(habit) = rest.strip_prefix("不再") {
        return (2..=8)
            .contains(&habit.chars().count())
            .then(|| (true, habit.to_string()));
    }
    let thing = rest
        .strip_prefix("戒掉")
        .or_else(|| rest.strip_prefix("戒了"))
        .or_else(|| rest.strip_prefix('戒'))
        .or_else(|| rest.strip_prefix('把').and_then(|r| r.strip_suffix('戒')))?;
    (1..=4)
        .contains(&thing.chars().count())
        .then(|| (false, thing.to_string()))
}

/// Whether a stored Chinese habit is the speaker's doing `habit` (a verb and its thing) or,
/// when `with_verb` is false, doing something with the thing `habit`.
fn ends_zh(with_verb: bool, habit: &str, stored: &str) -> bool {
    let stored: String = stored
        .chars()
        .filter(|c| !c.is_whitespace() && !"。！!.".contains(*c))
        .collect();
    let Some(rest) = stored
        .strip_prefix('我')
        .or_else(|| stored.strip_prefix("用户"))
    else {
        return false;
    };
    let Some((before, after)) = rest.split_once(habit) else {
        return false;
    };
    let before: Vec<char> = before.chars().collect();
    // with the thing only, a verb of one character comes before it, then maybe a count
    let when = if with_verb {
        &before[..]
    } else {
        let counted = before
            .iter()
            .rev()
            .take_while(|c| ZH_COUNT.contains(**c))
            .count();
        let Some(verb_at) = before.len().checked_sub(counted + 1) else {
            return false;
        };
        if ZH_WHEN.contains(before[verb_at]) {
            return false;
        }
        &before[..verb_at]
    };
    when.iter().all(|c| ZH_WHEN.contains(*c))
        && after.chars().count() <= 3
        && !after.contains(['和', '跟', '还', '也', '不', '没'])
}

/// The habit `stored` states that `new` says stopped, as the change it is: `None` where
/// either is not read so, or the stopping is of something else.
pub(super) fn changed(new: &str, stored: &str) -> Option<Change> {
    let change = || Change {
        old: stored.trim_end_matches(['。', '.']).to_string(),
        new: new.trim_end_matches(['。', '.']).to_string(),
    };
    // "I quit Spotify and joined Google", 我戒咖啡了，现在只喝茶, "I bike to work now, I gave
    // up on the bus": each clause
    let clauses = new
        .split([',', ';', '，', '；'])
        .flat_map(|c| c.split(" and "))
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let habit = read_habit(stored);
    for clause in clauses {
        if let Some((with_verb, stopped)) = read_stopped_zh(clause) {
            if ends_zh(with_verb, &stopped, stored) {
                return Some(change());
            }
            continue;
        }
        let Some(habit) = &habit else { continue };
        if let Some(stopped) = read_stopped(clause)
            && ends(&stopped, habit, false)
        {
            return Some(change());
        }
        // "I cycle to work now instead of taking the bus"
        if let Some(stopped) = instead_of(clause)
            && ends(&stopped, habit, true)
        {
            return Some(change());
        }
    }
    None
}

/// What a clause of the speaker's says they do "instead of": "I cycle to work now instead of
/// taking the bus" (taking the bus stopped), "… a full marathon instead of the half".
fn instead_of(clause: &str) -> Option<Stopped> {
    let words = words(clause.trim_end_matches(['.', '!']))?;
    by_the_speaker(&words)?;
    let at = words
        .windows(2)
        .position(|w| w[0] == "instead" && w[1] == "of")?;
    let mut what: Vec<&str> = words[at + 2..].iter().map(String::as_str).collect();
    while what.last().is_some_and(|w| CLOSING.contains(w)) {
        what.pop();
    }
    what_stopped(&what, false)
}

#[cfg(test)]
mod tests {
    use super::changed;

    #[test]
    fn a_habit_stopped_replaces_the_habit_however_it_was_done() {
        for (stored, new) in [
            ("I drink coffee every morning.", "I no longer drink coffee."),
            (
                "User drinks coffee every morning",
                "I quit coffee, I have green tea now",
            ),
            (
                "I play tennis on Saturdays.",
                "I don't play tennis anymore.",
            ),
            ("I'm learning Spanish", "I stopped learning Spanish"),
            ("User works at Spotify", "I quit Spotify and joined Google"),
            ("I go to the gym", "I quit the gym"),
            (
                "I take the bus to work",
                "I cycle to work now instead of taking the bus",
            ),
            (
                "I work from home on Mondays",
                "I work from home on Fridays instead of Mondays",
            ),
            (
                "I support Arsenal",
                "I've given up on Arsenal and support Tottenham now",
            ),
            (
                "I take the bus to work",
                "I bike to work now, I gave up on the bus",
            ),
            ("I take the bus to work", "I gave up on the bus for good"),
            ("我每周六打羽毛球。", "我不再打羽毛球了。"),
            ("我每天喝两杯咖啡", "我戒咖啡了，一杯都不喝"),
            ("用户每天喝咖啡提神", "我戒咖啡了，现在只喝茶"),
        ] {
            assert!(changed(new, stored).is_some(), "{stored} → {new}");
        }
    }

    #[test]
    fn a_stopping_of_something_else_or_of_one_of_two_replaces_nothing() {
        for (stored, new) in [
            ("I drink coffee and tea", "I quit coffee"),
            ("I drink coffee", "I quit drinking"),
            ("I drink coffee", "I quit coffee creamer"),
            ("My wife drinks coffee", "I quit coffee"),
            ("I like coffee", "I quit coffee"),
            (
                "I play tennis with Tom",
                "I don't play tennis with Sam anymore",
            ),
            ("I play tennis", "I don't play tennis at night anymore"),
            ("I play tennis", "I don't play tennis"),
            (
                "I drink coffee every morning",
                "I no longer drink coffee in the evening",
            ),
            ("I work at Google", "I quit Google Maps"),
            (
                "I use Notion for work",
                "I no longer use Notion for personal notes",
            ),
            ("I run 5k every morning", "I stopped running"),
            ("I drink coffee", "I quit coffee for Lent"),
            ("I drink coffee", "I quit coffee for a week"),
            (
                "I take the bus to work",
                "I walk to work instead of taking the car",
            ),
            (
                "I work from home on Mondays and Fridays",
                "I work from home on Tuesdays instead of Mondays",
            ),
            ("我和老公每天喝咖啡", "我戒咖啡了"),
            ("我妈每天喝咖啡", "我戒咖啡了"),
            ("我每天喝咖啡", "我不再喝咖啡加糖了"),
            ("我每天喝咖啡", "我不再早上喝咖啡了"),
        ] {
            assert!(changed(new, stored).is_none(), "{stored} → {new}");
        }
    }
}
