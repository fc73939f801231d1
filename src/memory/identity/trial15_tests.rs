//! The kinds a fifteenth held-out trial (2026-11-28, 450 pairs, 60 % Chinese, 20 % mixed, by a
//! tester who never saw the rules) found merged, each pinned in new wordings: measure words,
//! "former", an alternative against both, moving in or out, this / next, a little against
//! very, before a date or a time, about to against done, and two people named the other way
//! round in X是Y的Z; then the sixteenth trial's 向, 后门 and "next to".

use super::trial_tests::{never_one, one_fact};

#[test]
fn measure_words_former_and_alternatives_make_another_fact() {
    never_one(&[
        // what is counted: a building, a flat; a dozen, one; a litre, a glass; a meal, a bowl
        ("我们家有一栋别墅", "我们家有一套别墅"),
        ("她买了一打橙子", "她买了一个橙子"),
        ("每天喝两升牛奶", "每天喝两杯牛奶"),
        ("他请我吃了一顿火锅", "他请我吃了一碗火锅"),
        // someone former
        ("小王是我前同事", "小王是我同事"),
        ("李姐是我前室友", "李姐是我室友"),
        ("他是我前领导", "他是我领导"),
        // one or the other, against both, or against one alone
        ("午饭吃米饭或者面条", "午饭吃米饭和面条"),
        ("周六去看电影", "周六去看电影或者逛街"),
        (
            "I drink tea or coffee at breakfast",
            "I drink tea and coffee at breakfast",
        ),
        (
            "we will visit Rome or Paris",
            "we will visit Rome and Paris",
        ),
        ("she studies on Sundays", "she studies or naps on Sundays"),
    ]);
    one_fact(&[("他是我以前的老板", "他是我前老板")]);
}

#[test]
fn direction_degree_deadlines_and_aspect_make_another_fact() {
    never_one(&[
        ("他下个月搬进新家", "他下个月搬出新家"),
        ("我们搬离了北京", "我们搬到了北京"),
        ("会议是这个 Monday", "会议是下个 Monday"),
        ("我妈妈有点不高兴", "我妈妈非常不高兴"),
        ("我有点怕狗", "我非常怕狗"),
        ("my boss is slightly annoyed", "my boss is very annoyed"),
        ("she is a bit tired", "she is very tired"),
        // before a date or a time, which no word stands for
        ("周五前交作业", "周五交作业"),
        ("6点前到家", "6点到家"),
        (
            "the rent is due before the 5th",
            "the rent is due on the 5th",
        ),
        ("I get home before 6 pm", "I get home at 6 pm"),
        ("she arrives after 9", "she arrives at 9"),
        // about to, against done
        ("姐姐快结婚了", "姐姐结婚了"),
        ("爸爸要退休了", "爸爸退休了"),
        ("我要搬家了", "我搬家了"),
    ]);
    // 快 as "fast", and a time said two ways, stay one fact
    one_fact(&[
        ("他跑得很快了", "他跑得快了"),
        ("the shop is open until 9", "the shop is open till 9"),
    ]);
}

#[test]
fn two_people_named_the_other_way_round_are_another_fact() {
    never_one(&[
        ("张总是李总的上司", "李总是张总的上司"),
        ("王经理是陈工的师傅", "陈工是王经理的师傅"),
    ]);
    // the same two halves turned round are one fact
    one_fact(&[("我的牙医是李医生", "李医生是我的牙医")]);
}

/// From the sixteenth trial (2026-11-28, 470 pairs, on the build with the fifteenth's
/// fixes): who is reported to in Chinese (向), a door at the back read as "after", "next to".
#[test]
fn toward_whom_a_back_door_and_next_to_make_another_fact() {
    never_one(&[
        ("小刘向陈总汇报工作", "陈总向小刘汇报工作"),
        ("备用钥匙在前门花盆里", "备用钥匙在后门花盆里"),
        (
            "Keep the bikes in the shed",
            "Keep the bikes next to the shed",
        ),
    ]);
    one_fact(&[("我家后院有个秋千", "我家后院里有个秋千")]);
}
