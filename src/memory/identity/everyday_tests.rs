//! Everyday Chinese forms found among the labelled set's misses (2026-11-30): the hour with
//! the part of the day before it (晚上7点 is 19:00, the word for the evening then says
//! nothing more), 一点 inside an hour (十一点) that is no "a little", and the short names of
//! universities (北大 is 北京大学) and of studying for a degree (读研, 研究生).

use super::trial_tests::one_fact;
use super::trial17_tests::never_one_nor_claimed;

#[test]
fn an_hour_after_the_part_of_the_day_is_the_hour_on_the_clock() {
    one_fact(&[
        ("用户晚上7点上瑜伽课", "用户19:00上瑜伽课"),
        ("用户每天早上六点起床", "用户每天6:00起床"),
        ("我每天晚上10点睡觉", "我每天22点睡觉"),
        ("我晚上十一点睡觉", "我每晚23点睡"),
        ("用户下午3点开会", "用户15:00开会"),
        ("用户7点起床", "用户早上7点起床"),
        ("用户晚上7点半下班", "用户19:30下班"),
    ]);
    never_one_nor_claimed(&[
        ("用户早上7点起床", "用户晚上7点起床"),
        // noon and midnight are both 12 on the dial
        ("用户中午12点吃饭", "用户晚上12点吃饭"),
        ("用户晚上7点上瑜伽课", "用户晚上8点上瑜伽课"),
        // past midnight, not the evening
        ("用户晚上2点睡觉", "用户14:00睡觉"),
    ]);
}

#[test]
fn one_in_an_hour_is_not_a_little() {
    one_fact(&[("我晚上十一点睡觉", "我晚上11点睡觉")]);
    // still "a little" where it is no hour
    never_one_nor_claimed(&[("我会说一点日语", "我会说日语")]);
}

#[test]
fn a_universitys_short_name_is_the_university() {
    one_fact(&[
        ("用户在北大读书", "用户在北京大学读书"),
        ("用户毕业于北京大学", "用户毕业于北大"),
        ("用户在北大读研究生", "用户在北京大学读研"),
        ("我女儿在清华读书", "我女儿在清华大学读书"),
        ("用户是研究生", "用户在读研"),
    ]);
    never_one_nor_claimed(&[
        ("用户在北大读书", "用户在清华读书"),
        ("我在北京的一所大学读书", "我在北京大学读书"),
        ("用户在北京大学读书", "用户在北京工作"),
        ("用户在北大读书", "用户在北大工作"),
    ]);
}
