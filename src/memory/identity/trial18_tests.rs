//! The kinds an eighteenth held-out trial (2026-11-29, 300 pairs, a third Chinese, by a tester
//! who never saw the rules) found merged, or let a model's wrong duplicate claim through, each
//! pinned in new wordings: a percentage against an amount, two things of one kind joined into
//! a third (bass guitar), next door against with, an interim role, the passive with its doer
//! after "by", 用户 doing against done to, a count of times against a count of days (两次 /
//! 两天), a position or an amount against a number (the last / the first, the whole / half),
//! one way against a round trip, and whose it is said the other way round (a model's claim).

use super::trial_tests::one_fact;
use super::trial17_tests::never_one_nor_claimed;

#[test]
fn a_percentage_is_no_amount_of_money() {
    never_one_nor_claimed(&[
        ("User's rent went up 5%", "User's rent went up $5"),
        ("I tip 20% at restaurants", "I tip €20 at restaurants"),
    ]);
    one_fact(&[(
        "User saves 10% of his salary",
        "User saves 10 percent of his salary",
    )]);
}

#[test]
fn two_things_of_a_kind_joined_are_a_third() {
    never_one_nor_claimed(&[
        ("my son plays the drum", "my son plays the bass drum"),
        ("User orders tea", "User orders milk tea"),
    ]);
    // a word that names no thing says which one
    one_fact(&[("User plays the guitar", "User plays the acoustic guitar")]);
}

#[test]
fn where_and_in_what_role_make_another_fact() {
    never_one_nor_claimed(&[
        ("my parents live with us", "my parents live next door to us"),
        ("User is interim head of sales", "User is head of sales"),
        ("Maria is the interim CEO", "Maria is the CEO"),
    ]);
}

#[test]
fn the_doer_after_by_is_the_one_who_does_it() {
    never_one_nor_claimed(&[
        (
            "User owes Priya 300 dollars",
            "User is owed 300 dollars by Priya",
        ),
        (
            "I was coached by Lena for a year",
            "I coached Lena for a year",
        ),
    ]);
    // the passive with the two the other way round says the same
    one_fact(&[(
        "Priya is owed 300 dollars by User",
        "User owes Priya 300 dollars",
    )]);
}

#[test]
fn the_user_doing_is_not_the_user_done_to_in_chinese() {
    never_one_nor_claimed(&[
        ("用户欠老李三百块", "老李欠用户三百块"),
        ("用户借给小陈一辆车", "小陈借给用户一辆车"),
    ]);
    // 用户的, what is the user's, is neither
    one_fact(&[("用户的猫叫咪咪", "咪咪是用户的猫的名字")]);
}

#[test]
fn a_count_of_times_is_no_count_of_days() {
    never_one_nor_claimed(&[
        ("用户每周游三次泳", "用户每三天游一次泳"),
        ("我每天喝两次茶", "我每两天喝一次茶"),
    ]);
    // 一天, "a day", as 每天
    one_fact(&[("用户一天走一万步", "用户每天走一万步")]);
}

#[test]
fn one_way_is_no_round_trip() {
    never_one_nor_claimed(&[
        (
            "User's drive to work is 25 minutes one way",
            "User's drive to work is 25 minutes round trip",
        ),
        ("用户的机票往返三千块", "用户的机票三千块"),
    ]);
}

/// 张总是李总的上司 / 李总是张总的上司: the judge was unsure, and the veto of a model's claim
/// now asks the same question first.
#[test]
fn whose_it_is_said_the_other_way_round_vetoes_a_claim() {
    never_one_nor_claimed(&[("王经理是刘经理的下属", "刘经理是王经理的下属")]);
}

#[test]
fn a_position_or_an_amount_is_no_number() {
    never_one_nor_claimed(&[
        (
            "User's team meets the last Monday of the month",
            "User's team meets the first Monday of the month",
        ),
        ("User ate half the cake", "User ate the whole cake"),
        ("I read the entire book", "I read half the book"),
    ]);
}
