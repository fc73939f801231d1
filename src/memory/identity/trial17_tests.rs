//! The kinds a seventeenth held-out trial (2026-11-29, 300 pairs, a third Chinese, by a tester
//! who never saw the rules) found merged, or let a model's wrong duplicate claim through, each
//! pinned in new wordings: someone of mine against me in Chinese without 的 (我老公 / 我),
//! a name and the speaker doing the same thing to each other the other way round, how much
//! or how well (some / fluent, 一点), before or after tax, every other, engaged against
//! married, 同居 against 分居, indoors against outdoors.

use super::trial_tests::{never_one, one_fact};
use super::vetoes_claim;

/// Never one fact, and a model's claim that they are is vetoed, either way round.
pub(super) fn never_one_nor_claimed(pairs: &[(&str, &str)]) {
    never_one(pairs);
    for &(a, b) in pairs {
        for (x, y) in [(a, b), (b, a)] {
            assert!(vetoes_claim(x, y, None).is_some(), "{x} / {y}");
        }
    }
}

#[test]
fn someone_of_mine_is_not_me_in_chinese() {
    never_one_nor_claimed(&[
        ("我爸每天早上跑步", "我每天早上跑步"),
        ("我女儿对花生过敏", "我对花生过敏"),
        ("周末我老婆去游泳", "周末我去游泳"),
        ("我母亲在医院上班", "我在医院上班"),
    ]);
    // the same person said two ways, and a place of mine that is no one
    one_fact(&[
        ("我爸爸退休了", "我父亲退休了"),
        ("我妈喜欢喝茶", "我妈妈喜欢喝茶"),
    ]);
}

#[test]
fn a_name_and_the_speaker_the_other_way_round_are_another_fact() {
    never_one_nor_claimed(&[
        ("Dana owes User 50 euros", "User owes Dana 50 euros"),
        ("Tom taught me to drive", "I taught Tom to drive"),
        (
            "Mia sends User a card every Christmas",
            "User sends Mia a card every Christmas",
        ),
    ]);
    // joined by "and", or a day written with a capital, is no one doing it to the other
    one_fact(&[
        ("Kim and I share a flat", "I and Kim share a flat"),
        (
            "On Tuesdays User walks to work",
            "User walks to work on Tuesdays",
        ),
    ]);
}

#[test]
fn how_much_how_often_and_which_state_make_another_fact() {
    never_one_nor_claimed(&[
        (
            "User speaks a bit of Japanese",
            "User is fluent in Japanese",
        ),
        ("I speak some French", "I speak French fluently"),
        ("我会说一点日语", "我会说日语"),
        ("Her salary is $60k before taxes", "Her salary is $60k"),
        (
            "User takes home 4,000 a month after tax",
            "User takes 4,000 a month",
        ),
        ("我税后月薪一万二", "我月薪一万二"),
        (
            "User visits her aunt every other month",
            "User visits her aunt every month",
        ),
        ("I'm engaged to Sam", "I'm married to Sam"),
        ("Leo is divorced", "Leo is married"),
        ("他和女朋友同居了", "他和女朋友分居了"),
        (
            "User runs indoors in winter",
            "User runs outdoors in winter",
        ),
    ]);
    // the same state said two ways
    one_fact(&[
        ("User is married to Ana", "User's wife is Ana"),
        (
            "User's native language is Greek",
            "User's mother tongue is Greek",
        ),
    ]);
}
