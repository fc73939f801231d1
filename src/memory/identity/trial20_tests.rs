//! The kinds a twentieth held-out trial (2026-11-29, 300 pairs, a third Chinese, by a tester
//! told to look past the obvious differences) found merged — 24 of 61 merges wrong — each
//! pinned in new wordings: a place in a row against a count, a part against the whole, how
//! much or how far ("at most", "up by" / "up to", "in a month"), a wish, "used to" against
//! "used to living", several people against one, an article before initials, "also" against
//! "too" and "anymore", and in Chinese a function character added or exchanged, a degree
//! before or after 不, and whose a thing is moved to another word.

use super::trial_tests::one_fact;
use super::trial17_tests::never_one_nor_claimed;

#[test]
fn a_place_in_a_row_is_not_a_count() {
    never_one_nor_claimed(&[
        (
            "User is the second child in his family",
            "User is one of two children in his family",
        ),
        ("I had my first son at 30", "I had one son at 30"),
    ]);
    // a date's day stays a date
    one_fact(&[("User's exam is on May 3rd", "User's exam is on May 3")]);
}

#[test]
fn a_part_is_not_the_whole() {
    never_one_nor_claimed(&[
        (
            "User repainted the roof of his cabin",
            "User repainted his cabin",
        ),
        ("用户的车轮胎坏了", "用户的车坏了"),
    ]);
    one_fact(&[(
        "User drinks a glass of milk every night",
        "User drinks milk every night",
    )]);
}

#[test]
fn how_much_and_how_far_make_another_fact() {
    never_one_nor_claimed(&[
        (
            "User works at most 40 hours a week",
            "User works 40 hours a week",
        ),
        (
            "User's salary went up by 5000 dollars",
            "User's salary went up to 5000 dollars",
        ),
        ("User gained 3 kg in a week", "User gained 3 kg a week"),
        ("I'd love to learn Italian", "I learned Italian"),
        ("I'm used to waking up at 5", "I used to wake up at 5"),
    ]);
}

#[test]
fn several_people_are_not_one() {
    never_one_nor_claimed(&[
        ("User's cousins run a bakery", "User's cousin runs a bakery"),
        (
            "My sisters' flat is in Leeds",
            "My sister's flat is in Leeds",
        ),
    ]);
}

#[test]
fn an_article_also_and_anymore_change_the_fact() {
    never_one_nor_claimed(&[
        ("User has an ALS", "User has ALS"),
        (
            "User also plays chess on Fridays",
            "User plays chess on Fridays too",
        ),
        ("User rarely eats sugar", "User rarely eats sugar anymore"),
    ]);
}

#[test]
fn a_chinese_function_character_or_whose_it_is_changes_the_fact() {
    never_one_nor_claimed(&[
        ("我会开车", "我会去开车"),
        ("用户的同事们也来了", "用户的同事来了"),
        ("用户戴着眼镜", "用户戴过眼镜"),
        ("用户不太喜欢茶", "用户很不喜欢茶"),
        ("用户把房子租给了表哥", "用户把表哥的房子租了"),
    ]);
    // 都 alone is a habit said again
    one_fact(&[("用户周末去钓鱼", "用户周末都去钓鱼")]);
}
