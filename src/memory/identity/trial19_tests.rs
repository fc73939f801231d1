//! The kinds a nineteenth held-out trial (2026-11-29, 300 pairs, a third Chinese, by a tester
//! who never saw the rules) found merged, let a model's wrong claim through, or missed as one
//! fact, each pinned in new wordings: how long between (every two days) against how many
//! times (twice a day), "a few" against "few", a grandchild against a child in Chinese, two
//! joined things the other way round, an English "X is Y" turned round, the 12-hour clock
//! against the 24-hour one, and words two countries say differently.

use super::trial_tests::one_fact;
use super::trial17_tests::never_one_nor_claimed;

#[test]
fn how_long_between_is_not_how_many_times() {
    never_one_nor_claimed(&[
        (
            "User waters the plants three times a week",
            "User waters the plants every three weeks",
        ),
        (
            "I call my mother twice a month",
            "I call my mother every 2 months",
        ),
    ]);
    one_fact(&[(
        "I see my physio every two weeks",
        "I see my physio every 2 weeks",
    )]);
}

#[test]
fn a_few_is_not_few() {
    never_one_nor_claimed(&[
        ("User has a few regrets", "User has few regrets"),
        (
            "I know a few people in Oslo",
            "I know very few people in Oslo",
        ),
    ]);
}

#[test]
fn a_grandchild_is_not_a_child() {
    never_one_nor_claimed(&[
        ("用户有两个孩子", "用户有两个孙女"),
        ("用户的儿子在上海", "用户的侄子在上海"),
    ]);
}

#[test]
fn two_joined_things_the_other_way_round_are_one_fact() {
    one_fact(&[
        (
            "User speaks Welsh and Gaelic",
            "User speaks Gaelic and Welsh",
        ),
        ("用户喜欢吃饺子和包子", "用户喜欢吃包子和饺子"),
        ("Anna's dentist is Dr. Osei", "Dr. Osei is Anna's dentist"),
    ]);
    // acts after their subject may be a sequence; numbers may pair things with others
    never_one_nor_claimed(&[(
        "User retired and moved to Spain",
        "User moved to Spain and retired",
    )]);
}

#[test]
fn the_12_hour_clock_is_read_on_the_24_hour_one() {
    one_fact(&[
        (
            "User's shift starts at 3 p.m.",
            "User's shift starts at 15:00",
        ),
        ("I eat dinner at 6:30pm", "I eat dinner at 18:30"),
    ]);
    never_one_nor_claimed(&[
        ("User's alarm is set for 6am", "User's alarm is set for 6pm"),
        ("The pharmacy opens at 9 pm", "The pharmacy opens at 9:00"),
        // noon and midnight are clock times too (a final read: "1 pm" read as 13 had let a
        // model's claim through against "noon")
        ("User eats lunch at noon", "User eats lunch at 1 pm"),
    ]);
    one_fact(&[("User's standup is at noon", "User's standup is at 12pm")]);
}

#[test]
fn words_said_differently_are_one() {
    one_fact(&[
        ("User sleeps on the couch", "User sleeps on the sofa"),
        ("User lost his cellphone", "User lost his mobile phone"),
        ("User is shortsighted", "User is nearsighted"),
        ("User's son is 5 feet tall", "User's son is 5 ft tall"),
        (
            "I take 200 milligrams of magnesium",
            "I take 200 mg of magnesium",
        ),
    ]);
}
