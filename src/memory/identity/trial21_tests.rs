//! The kinds a twenty-first held-out trial (2026-11-29, 300 pairs, a third Chinese, aimed past
//! the kinds tried before) and a look-alike check of its readings (200 pairs) found merged or
//! let a model's duplicate claim through, each pinned in new wordings: said and not shown
//! ("claims to", 自称), done ("finished"), half and dozens, a sequel or a season, a model's
//! letter or suffix, a name against the plain word, "the" before a name, great-aunts and
//! 外孙女, 南京大学 against 南京的大学, a place for a thing ("dog park"), a teacher as one
//! profession of several, Chinese vague numbers; and formats read as one value ("$120k",
//! "2021-09-04", "M.B.A.", 3万, 7点, 我的儿子).

use super::trial_tests::one_fact;
use super::trial17_tests::never_one_nor_claimed;

#[test]
fn said_or_done_is_not_the_fact_itself() {
    never_one_nor_claimed(&[
        ("小王自称是律师", "小王是律师"),
        (
            "User's daughter finished her first year of college",
            "User's daughter is in her first year of college",
        ),
    ]);
    one_fact(&[(
        "User nearly missed the train",
        "User almost missed the train",
    )]);
}

#[test]
fn half_dozens_and_sequels_are_other_amounts_and_other_things() {
    never_one_nor_claimed(&[
        (
            "User ran a half marathon in May",
            "User ran a marathon in May",
        ),
        (
            "User owns dozens of vinyl records",
            "User owns a dozen vinyl records",
        ),
        ("User loved Dune Part Two", "User loved Dune"),
        ("他在追《繁花》第二集", "他在追《繁花》"),
        ("他家有几十只羊", "他家有十几只羊"),
        ("我跑过半程马拉松", "我跑过全程马拉松"),
    ]);
    one_fact(&[("User bought a dozen roses", "User bought twelve roses")]);
}

#[test]
fn another_model_name_or_place_is_another_thing() {
    never_one_nor_claimed(&[
        ("User has a Pixel 8 Pro", "User has a Pixel 8"),
        ("User flies a Boeing 747", "User flies a Boeing E"),
        ("User loves Jaguar", "User loves jaguars"),
        ("User once met Prince", "User once met the Prince"),
        ("User lives next to a dog park", "User lives next to a park"),
        ("用户毕业于南京大学", "用户毕业于南京的大学"),
        ("用户在清华大学附属中学教书", "用户在清华大学教书"),
    ]);
    // a plural name takes "the" or not: one country
    one_fact(&[(
        "User grew up in the Philippines",
        "User grew up in Philippines",
    )]);
}

#[test]
fn other_kin_and_other_professions_are_other_facts() {
    never_one_nor_claimed(&[
        ("用户的外孙女在学钢琴", "用户的孙女在学钢琴"),
        ("User is a teacher", "User is a pharmacist"),
        ("User's son is a student", "User's son is a plumber"),
        ("用户每天8点起床", "用户每天8点半起床"),
    ]);
}

#[test]
fn one_value_written_two_ways_is_one_fact() {
    one_fact(&[
        ("User earns $120k a year", "User earns $120,000 a year"),
        (
            "User's wedding was on 2021-09-04",
            "User's wedding was on 4 September 2021",
        ),
        ("User has an M.B.A.", "User has an MBA"),
        (
            "User moved to the U.S. in 2015",
            "User moved to the US in 2015",
        ),
        ("用户存了3万元", "用户存了三万元"),
        ("用户每天7点起床", "用户每天7:00起床"),
        ("我的儿子叫小明", "我儿子叫小明"),
    ]);
}
