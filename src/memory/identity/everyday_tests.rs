//! Everyday forms found among the labelled set's misses (2026-11-30): the hour with
//! the part of the day before it (晚上7点 is 19:00, the word for the evening then says
//! nothing more), 一点 inside an hour (十一点) that is no "a little", and the short names of
//! universities (北大 is 北京大学) and of studying for a degree (读研, 研究生); and in English, a
//! place in a row said either way, one quantity in two units, and the passive with its doer.

use super::trial_tests::{never_one, one_fact};
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
    one_fact(&[
        ("我晚上十一点睡觉", "我晚上11点睡觉"),
        ("用户中午一点吃饭", "用户13:00吃饭"),
        ("用户一点半下班", "用户1:30下班"),
    ]);
    never_one_nor_claimed(&[("用户中午十二点吃饭", "用户中午一点吃饭")]);
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

#[test]
fn a_place_in_a_row_said_either_way_is_one_place() {
    one_fact(&[
        ("User's kid is in Grade 3", "User's kid is in third grade"),
        ("I live on the fifth floor", "I live on floor 5"),
        (
            "User's favourite film is The Godfather Part II",
            "User's favourite film is The Godfather Part 2",
        ),
        (
            "She is on the second season of Dark",
            "She is on season 2 of Dark",
        ),
    ]);
    never_one_nor_claimed(&[
        ("User's kid is in Grade 3", "User's kid is in fourth grade"),
        ("I live on the fifth floor", "I live on floor 6"),
        (
            "User's building has 5 floors",
            "User's building has floor 5",
        ),
        (
            "User loved The Godfather Part II",
            "User loved The Godfather",
        ),
    ]);
}

#[test]
fn kin_without_de_opening_a_chinese_fact_are_someone_of_mine() {
    // 姥姥, 祖母, 姥爷 are as much someone of mine as 外婆, 奶奶, 外公
    one_fact(&[
        ("我外婆住在成都", "我姥姥住在成都"),
        ("我奶奶今年九十岁", "我祖母今年90岁"),
        ("我外公是老师", "我姥爷是教师"),
    ]);
    never_one_nor_claimed(&[
        ("我姥姥住在成都", "我住在成都"),
        ("我祖母今年九十岁", "我今年九十岁"),
    ]);
    never_one(&[("我前妻是老师", "我是老师")]);
}

#[test]
fn one_quantity_in_two_units_is_one_value() {
    one_fact(&[
        ("User is 1.70 m tall", "User is 170 cm tall"),
        (
            "User's commute takes 45 minutes",
            "User's commute takes three quarters of an hour",
        ),
        (
            "User runs 5 km every morning",
            "User runs 5000 m every morning",
        ),
        (
            "The film lasts an hour and a half",
            "The film lasts 90 minutes",
        ),
    ]);
    never_one_nor_claimed(&[
        ("User is 1.70 m tall", "User is 175 cm tall"),
        (
            "User runs 5 km every morning",
            "User runs 5 miles every morning",
        ),
        (
            "User's commute takes an hour",
            "User's commute takes 45 minutes",
        ),
    ]);
    // a newer value in another unit replaces the old
    let change = super::changed("User is 175 cm tall", "User is 1.70 m tall");
    assert!(change.is_some_and(|c| c.old == "170" && c.new == "175"));
}

#[test]
fn the_passive_with_its_doer_is_the_active() {
    one_fact(&[
        ("My grandmother raised me", "I was raised by my grandmother"),
        (
            "User's son was bitten by a dog last week",
            "Last week a dog bit User's son",
        ),
        (
            "My father taught me to fish",
            "I was taught to fish by my father",
        ),
        (
            "User's dog Max was bitten by a fox",
            "A fox bit User's dog Max",
        ),
        ("The cake was made by my mom", "My mom made the cake"),
    ]);
    never_one_nor_claimed(&[
        ("I was raised by my grandmother", "I raised my grandmother"),
        ("The dog was bitten by the cat", "The dog bit the cat"),
        ("Tom was hired by Anna", "Tom hired Anna"),
    ]);
    never_one(&[(
        "The novel was written by my aunt in 1990",
        "My aunt read the novel in 1990",
    )]);
}

#[test]
fn everyday_synonyms_are_one_word() {
    one_fact(&[
        ("用户喜欢番茄", "用户喜欢西红柿"),
        ("用户讨厌香菜", "用户讨厌芫荽"),
        ("用户住在农村", "用户住在乡下"),
        ("用户失业了", "用户没工作了"),
        ("用户一个人住", "用户独居"),
        (
            "User lives in the countryside",
            "User lives in a rural area",
        ),
        (
            "User's car is a station wagon",
            "User's car is an estate car",
        ),
    ]);
    never_one_nor_claimed(&[("用户喜欢番茄", "用户喜欢土豆")]);
    never_one(&[
        ("用户住在农村", "用户住在城市"),
        ("用户失业了", "用户工作了"),
        // "out of work" is no job, "gets out of work" leaving it: not read as one word
        ("User gets out of work at 5pm", "User is unemployed at 5pm"),
    ]);
}

#[test]
fn one_thing_in_british_or_american_words_is_one_thing() {
    one_fact(&[
        (
            "User's vacation is in August",
            "User's holiday is in August",
        ),
        (
            "User takes the subway to work",
            "User takes the underground to work",
        ),
        (
            "I finished my degree in 2019",
            "I completed my degree in 2019",
        ),
    ]);
    // a flat is a home only sometimes: a tyre, a fee
    never_one(&[
        (
            "User got a flat on the highway",
            "User got an apartment on the highway",
        ),
        (
            "User pays a flat fee for parking",
            "User pays an apartment fee for parking",
        ),
    ]);
}

#[test]
fn a_plan_a_death_and_a_deed_said_in_other_chinese_words_are_one_fact() {
    one_fact(&[
        ("用户打算明年结婚", "用户计划明年结婚"),
        ("用户的父亲2019年去世了", "用户的父亲2019年过世了"),
        ("用户的外婆去世了", "用户的姥姥过世了"),
        ("用户的狗被邻居家的猫抓伤了", "邻居家的猫抓伤了用户的狗"),
        ("用户的儿子上周被狗咬了", "上周一只狗咬了用户的儿子"),
    ]);
    // 过 after a verb is still "done once"
    never_one(&[
        ("用户去过上海", "用户去上海"),
        ("用户打算明年结婚", "用户明年结婚"),
    ]);
    never_one_nor_claimed(&[("用户的狗被邻居家的猫抓伤了", "用户的狗抓伤了邻居家的猫")]);
}

/// 都会 after a word for every so often is a habit, not "can"; 养了 a pet kept and 岁了 an age
/// reached are states, not something done (the labelled set's misses of a forty-sixth
/// session).
#[test]
fn a_habit_a_pet_kept_and_an_age_reached_are_the_plain_fact() {
    one_fact(&[
        ("我每个周末都去爬山", "我周末都会去爬山"),
        ("用户每天早上跑步", "用户每天早晨都会去跑步"),
        ("用户养了两只猫", "用户有两只猫"),
        ("用户养了两只猫", "用户养着两只猫"),
        ("用户的女儿今年七岁", "用户的女儿今年7岁了"),
    ]);
    never_one_nor_claimed(&[
        // all the children can swim: 都 is "all", 会 "can"
        ("用户的孩子都会游泳", "用户的孩子游泳"),
        ("用户的每个孩子都会游泳", "用户的每个孩子游泳"),
        // kept once, not now
        ("用户养过两只猫", "用户养了两只猫"),
        ("用户养过两只猫", "用户有两只猫"),
        ("用户养了三只猫", "用户有两只猫"),
        ("我女儿今年七岁了", "我女儿今年八岁"),
        ("我周末都会去爬山", "我周末都去游泳"),
    ]);
}

/// One person holding two roles, said from either (the labelled set's misses of a
/// forty-sixth session): "also" and the one person's "his" say nothing more.
#[test]
fn one_holding_two_roles_is_one_fact_from_either_role() {
    one_fact(&[
        (
            "User's neighbour is also his dentist",
            "User's dentist is also his neighbour",
        ),
        ("用户的邻居也是他的牙医", "用户的牙医也是他的邻居"),
        (
            "User's brother-in-law is his business partner",
            "User's business partner is his brother-in-law",
        ),
    ]);
    never_one_nor_claimed(&[
        (
            "User's neighbour is also his dentist",
            "User's dentist is also his doctor",
        ),
        ("用户的邻居也是他的牙医", "用户的牙医也是他的同事"),
        (
            "User's neighbour is Tom's dentist",
            "User's dentist is Tom's neighbour",
        ),
    ]);
}
