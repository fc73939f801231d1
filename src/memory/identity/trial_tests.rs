//! The kinds of lost fact new-user trials found on 2026-11-27 (a fifth trial's list, a sixth
//! trial of 551 pairs, two held-out trials of 438 and 514), each pinned: different facts that
//! read as one fact with a word more, and rewordings that must still be one.

use super::tests::{denial, same};
use super::*;

/// Each pair is two facts, whichever is said first.
pub(super) fn never_one(pairs: &[(&str, &str)]) {
    for &(a, b) in pairs {
        for (x, y) in [(a, b), (b, a)] {
            let v = judge(x, y, None);
            assert!(!matches!(v, Verdict::Same(_)), "{x} / {y}: {v:?}");
        }
    }
}

/// Each pair is one fact.
pub(super) fn one_fact(pairs: &[(&str, &str)]) {
    for &(a, b) in pairs {
        assert!(same(a, b), "{a} / {b}: {:?}", judge(a, b, None));
    }
}

/// A word joined to a thing into another thing, whose a thing is, what it is done with or for,
/// which money, done once: each makes another fact, where a merge would keep one wording and
/// lose the other (found by a new-user trial: all of these merged).
#[test]
fn compounds_owners_prepositions_currencies_and_aspect_make_another_fact() {
    for (a, b) in [
        // a word after a thing, in English; a suffix in Chinese
        ("I like cats", "I like cat videos"),
        ("I like coffee", "I like coffee shops"),
        ("I am allergic to peanuts", "I am allergic to peanut butter"),
        ("I am a nurse", "I am a nurse practitioner"),
        ("我喜欢咖啡", "我喜欢咖啡馆"),
        ("我喜欢猫", "我喜欢猫粮"),
        // a character before a one-character thing; words and places read whole
        ("我喜欢鸟", "我喜欢鸵鸟"),
        ("我喜欢猫", "我喜欢熊猫"),
        ("我喜欢鱼", "我喜欢鲸鱼"),
        ("我喜欢海", "我喜欢上海"),
        ("我住在京都", "我住在东京都"),
        ("I like dogs", "I like hot dogs"),
        // whose
        ("Bob is my boss", "I am Bob's boss"),
        ("Alice is User's sister", "User is Alice's sister"),
        ("我的老板是小明", "我是小明的老板"),
        // for or with
        ("I work for Bob", "I work with Bob"),
        ("I cook for my kids", "I cook with my kids"),
        // which money
        ("I paid $500 for my bike", "I paid €500 for my bike"),
        ("My rent is $1000", "My rent is 1000 yuan"),
        // been there, there now; done once; would
        ("I have been to Paris", "I live in Paris"),
        ("我喜欢过小红", "我喜欢小红"),
        ("我去过日本", "我在日本"),
        ("我会喜欢咖啡", "我喜欢咖啡"),
    ] {
        for (x, y) in [(a, b), (b, a)] {
            let v = judge(x, y, None);
            assert!(!matches!(v, Verdict::Same(_)), "{x} / {y}: {v:?}");
            assert!(vetoes_claim(x, y, None).is_some(), "{x} / {y}");
        }
    }
    // what only says how, when, which colour or size, or what is done with it: still one fact
    for (a, b) in [
        ("I play chess", "I play chess online"),
        ("User drinks coffee", "User drinks coffee daily"),
        ("User drinks tea", "User drinks peppermint tea before bed"),
        ("User likes running", "User likes running along the river"),
        ("User likes cats", "User likes cute cats"),
        ("我喜欢茶", "我喜欢红茶"),
        ("我喜欢狗", "我喜欢大狗"),
        ("我喜欢鱼", "我喜欢吃鱼"),
        ("用户养了一只猫", "用户家里养了只猫"),
        ("用户对花生过敏", "用户对花生严重过敏"),
        ("I paid $20 for the book", "I paid 20 dollars for the book"),
        ("My boss is Bob", "Bob is my boss"),
    ] {
        assert!(same(a, b), "{a} / {b}: {:?}", judge(a, b, None));
        assert!(same(b, a), "{b} / {a}: {:?}", judge(b, a, None));
    }
}

#[test]
fn a_compound_is_named_in_the_reason() {
    assert_eq!(
        judge("I like cats", "I like cat videos", None),
        Verdict::Unsure(Reason::Compound("cat videos".into()))
    );
    assert_eq!(
        judge("我喜欢猫", "我喜欢猫粮", None),
        Verdict::Unsure(Reason::Compound("猫粮".into()))
    );
    assert_eq!(
        Reason::Compound("cat videos".into()).to_string(),
        "another thing: cat videos"
    );
}

/// A sixth new-user trial's merges (551 pairs, 111 different facts merged): a denial of the
/// shared thing with one word more, signs and letters, quantities, more prepositions,
/// someone's someone, Chinese modals and aspect, listed compounds and suffixes. Each was
/// "one more word" or "the same words" before.
#[test]
fn signs_quantities_prepositions_and_denied_modifiers_make_another_fact() {
    never_one(&[
        // a denial of the shared thing, worded with one more word
        ("I have a cat", "I don't have a black cat"),
        ("I have a cat", "I have no black cat"),
        ("我有猫", "我没有黑猫"),
        // signs and letters are part of what is said
        ("My blood type is O+", "My blood type is O-"),
        ("I got an A", "I got an A+"),
        ("I use C", "I use C++"),
        ("I use C#", "I use C++"),
        ("It was -5 degrees", "It was 5 degrees"),
        ("My seat is 12A", "My seat is 12B"),
        ("我考了A", "我考了A+"),
        ("余额-200元", "余额200元"),
        // quantities against numbers and each other
        ("All my friends are vegan", "Some of my friends are vegan"),
        ("I read every book by King", "I read one book by King"),
        ("我看过所有的哈利波特", "我看过一本哈利波特"),
        ("我买了两斤苹果", "我买了两公斤苹果"),
        // prepositions, and "prefer … to" compares
        ("I play against Bob", "I play with Bob"),
        ("I drove to Leeds", "I drove through Leeds"),
        ("I prefer cats to dogs", "I prefer dogs to cats"),
        ("我为小李工作", "我和小李工作"),
        // someone's someone
        ("I hate my boss", "I hate my boss's boss"),
        ("I am in love with Ann", "I am in love with Ann's sister"),
        ("my team likes Slack", "my team lead likes Slack"),
        // can, only, done, watching
        ("我会开车", "我开车"),
        ("我学会了开车", "我在学开车"),
        ("I eat fish", "I only eat fish"),
        ("I like tennis", "I like watching tennis"),
        ("我喜欢篮球", "我喜欢看篮球"),
        // fake things, listed compounds, suffixes and words read whole
        ("I wear a Rolex", "I wear a fake Rolex"),
        ("I like beer", "I like root beer"),
        ("I like butter", "I like butterflies"),
        ("I like stamps", "I like stamp albums"),
        ("我喜欢苹果", "我喜欢苹果派"),
        ("我喜欢日本", "我喜欢日本菜"),
        ("我住在北京", "我住在北京路"),
        ("我在北京工作", "我在北京大学工作"),
        ("我喜欢水", "我喜欢水果"),
    ]);
    // still one fact
    one_fact(&[
        ("User drinks coffee", "User drinks coffee without sugar"),
        ("User is an only child", "User has no siblings"),
        ("User goes running every morning", "User jogs each morning"),
        ("用户会说法语", "用户能说法语"),
        ("用户已婚", "用户结婚了"),
        ("User reads before bed", "User reads novels before bed"),
        ("User hates the cold", "User can't stand cold weather"),
        ("I work 9-5", "I work 9-5"),
    ]);
}

/// A held-out trial of new wordings (375 different-fact pairs, 27 merged): units, names
/// written longer, Chinese words a character longer, places and roles in Chinese, done
/// against doing, "except", a denial inside a condition.
#[test]
fn units_longer_names_and_words_and_aspect_make_another_fact() {
    never_one(&[
        ("my son is 4 months old", "my son is 4 years old"),
        ("I paid $500", "I paid 500 euros"),
        ("我每月房租三千块", "我每月房租三千美元"),
        ("我家离公司三公里", "我家离公司三站地"),
        ("我每天跑五公里", "我每天跑五英里"),
        ("I work for Mr Brown", "I work for Mr Browning"),
        ("我老板是张伟", "我老板是张伟民"),
        ("我的邻居是孙丽", "我的邻居是孙丽丽"),
        ("我喜欢蜂", "我喜欢蜂蜜"),
        ("我喜欢山", "我喜欢山药"),
        ("我喜欢柠檬", "我喜欢柠檬茶"),
        ("我在深圳上班", "我在深圳湾上班"),
        ("我哥哥是律师", "我表哥是律师"),
        ("我表哥是警察", "我堂哥是警察"),
        ("我在公园里跑步", "我在公园外跑步"),
        ("我公司在地铁站对面", "我公司在地铁站后面"),
        ("我开车经过杭州", "我开车去杭州"),
        ("I'm reading Dune", "I have read Dune"),
        (
            "I am training for a marathon",
            "I have trained for a marathon",
        ),
        ("我辞职了", "我差点辞职了"),
        ("我父母都是医生", "我父母有一个是医生"),
        (
            "I work from home on Mondays",
            "I work from home except on Mondays",
        ),
    ]);
    // a denial inside a condition denies the condition: both may hold
    assert!(!denial("我心情不好的时候唱歌", "我心情好的时候唱歌"));
    assert!(!denial(
        "I sing when I'm not happy",
        "I sing when I'm happy"
    ));
    assert!(denial("我不会滑雪", "我会滑雪"));
    // still one fact
    one_fact(&[
        ("I paid $20 for the book", "I paid 20 dollars for the book"),
        ("User is 34 years old", "User is 34"),
        ("用户住在杭州", "用户住在杭州市"),
        ("用户在学画画", "用户在学画画"),
        (
            "User has been vegetarian since university",
            "User is vegetarian since university",
        ),
    ]);
}

/// A second held-out trial (419 different-fact pairs, 18 merged): obligation and seeming,
/// done once in Chinese, where, how much, what is counted, a godmother, who does what to
/// whom in Chinese.
#[test]
fn obligation_place_amount_and_chinese_roles_make_another_fact() {
    never_one(&[
        ("I run every morning", "I ought to run every morning"),
        (
            "I go to church on Sundays",
            "I have to go to church on Sundays",
        ),
        ("I take insulin", "I need to take insulin"),
        ("我去看牙医", "我得去看牙医"),
        ("我老婆怀孕了", "我老婆好像怀孕了"),
        ("我吃早饭", "我尽量吃早饭"),
        ("我在装修房子", "我装修过房子"),
        (
            "I keep my passport in the drawer",
            "I keep my passport under the drawer",
        ),
        (
            "the clinic is past the church",
            "the clinic is opposite the church",
        ),
        ("I commute into Leeds", "I commute out of Leeds"),
        ("I know some Arabic", "I know a lot of Arabic"),
        (
            "I visit my grandma every month",
            "I visit my grandma every few months",
        ),
        ("我每天喝八杯水", "我每天喝八瓶水"),
        ("我每次跑十公里", "我每次跑十圈"),
        ("我干妈在银行工作", "我妈在银行工作"),
        ("我老板信任我", "我信任我老板"),
        ("我女儿听我的", "我听我女儿的"),
        ("小赵是我的学生", "我是小赵的学生"),
        ("老板让我加班", "我让老板加班"),
    ]);
    // a real contradiction still replaces
    assert!(denial("I can't ride a bike", "I can ride a bike"));
    assert!(denial("我没有钢琴", "我有钢琴"));
    one_fact(&[
        (
            "User is allergic to nuts",
            "User is severely allergic to nuts",
        ),
        ("User watches anime", "User watches a lot of anime"),
        ("用户喜欢游泳", "用户喜欢在海里游泳"),
        // 我 after a time still opens its clause
        ("周末我去游泳", "我周末去游泳"),
        ("每天早上我喝绿茶", "我每天早上喝绿茶"),
    ]);
}

/// A third held-out trial (362 different-fact pairs, 23 merged): which goes with which in two
/// clauses or in numbers, people and animals in another order, someone's someone, under way
/// against done, allowed, meant, heard, feared.
#[test]
fn order_pairing_and_hearsay_make_another_fact() {
    never_one(&[
        (
            "my son has 3 fillings and 1 crown",
            "my son has 1 filling and 3 crowns",
        ),
        (
            "my son has football on Tuesday at 5 and piano on Thursday at 6",
            "my son has football on Thursday at 5 and piano on Tuesday at 6",
        ),
        (
            "我儿子周二下午学书法，周四下午学围棋",
            "我儿子周四下午学书法，周二下午学围棋",
        ),
        ("我家电费每度五毛六", "我家电费每度六毛五"),
        ("my wife reports to Hannah", "Hannah reports to my wife"),
        (
            "our cat is scared of the neighbour's dog",
            "the neighbour's dog is scared of our cat",
        ),
        (
            "my manager's manager is based in Dublin",
            "my manager is based in Dublin",
        ),
        ("我老公的发小在美国读博", "我老公在美国读博"),
        ("我同事的儿子和我儿子同班", "我同事和我儿子同班"),
        (
            "we are moving to Bristol in September",
            "we moved to Bristol in September",
        ),
        (
            "we're allowed to work from home on Fridays",
            "we work from home on Fridays",
        ),
        (
            "I'm meant to take my pills at night",
            "I take my pills at night",
        ),
        ("我弟弟听说要结婚了", "我弟弟要结婚了"),
        ("我老婆害怕坐飞机", "我老婆坐飞机"),
        ("我老家在河南信阳", "我老家在河南南阳"),
    ]);
    assert!(denial("我女儿对鸡蛋不过敏", "我女儿对鸡蛋过敏"));
    assert!(denial(
        "our flat doesn't have a balcony",
        "our flat has a balcony"
    ));
    one_fact(&[
        (
            "Alice's birthday is 12 October",
            "Alice's birthday is October 12",
        ),
        ("Rex is the name of User's dog", "User's dog is named Rex"),
        ("User's boss is Bob", "Bob is User's boss"),
        ("用户怕狗", "用户害怕狗"),
        ("用户喜欢看科幻电影", "用户喜欢看科幻电影，尤其是老电影"),
    ]);
}

/// A fourth held-out trial (336 different-fact pairs, 14 merged): relative dates, model
/// numbers, "until", 除外, 借 / 还, two clauses split by a comma or 但, 我 after a weekday.
#[test]
fn relative_dates_model_numbers_and_clauses_make_another_fact() {
    never_one(&[
        (
            "my book club is reading Middlemarch this month",
            "my book club is reading Middlemarch next month",
        ),
        ("读书会这个月读《活着》", "读书会下个月读《活着》"),
        ("打印机用的是惠普803墨盒", "打印机用的是惠普803XL墨盒"),
        ("保洁阿姨每周四来，八月除外", "保洁阿姨每周四来，八月也来"),
        ("邻居老郑三月借了我的电钻", "邻居老郑三月还了我的电钻"),
        (
            "my wife can't eat gluten, my son can't eat nuts",
            "my wife can't eat nuts, my son can't eat gluten",
        ),
        ("我女儿讨厌西兰花但喜欢花菜", "我女儿讨厌花菜但喜欢西兰花"),
        ("周五同事小白替我值班", "周五我替同事小白值班"),
    ]);
    one_fact(&[
        (
            "On Fridays, User works from home",
            "User works from home on Fridays",
        ),
        ("I wake up at 7am", "I wake up at 7 am"),
    ]);
}

/// A fifth held-out trial (237 different-fact pairs, 10 merged): a doubt or a guess, "about
/// to", another time for a shared thing (at / after university, 在大学 / 在大学毕业后),
/// a deputy or an intern, a thing named by what it belongs to (书桌灯, 手机壳), and the two
/// sides of a switch (从安卓换成苹果). Each pair below is new, of the same kinds.
#[test]
fn doubts_plans_times_deputies_and_switches_make_another_fact() {
    never_one(&[
        ("I'm lactose intolerant", "I suspect I'm lactose intolerant"),
        (
            "I reckon my landlord is selling the flat",
            "my landlord is selling the flat",
        ),
        ("I'm about to start a new job", "I started a new job"),
        ("我对猫过敏", "我觉得我对猫过敏"),
        ("我即将搬到深圳", "我搬到了深圳"),
        (
            "I started running at college",
            "I started running after college",
        ),
        (
            "I moved to Leeds after my divorce",
            "I moved to Leeds before my divorce",
        ),
        ("We married at 25", "We married after 25"),
        ("我和老婆是在大学认识的", "我和老婆是在大学毕业后认识的"),
        ("我们在孩子出生后买了房", "我们在孩子出生前买了房"),
        ("我是公司的副总经理", "我是公司的总经理"),
        ("我是实习律师", "我是律师"),
        ("我的书桌坏了", "我的书桌灯坏了"),
        ("我家的车坏了", "我家的车门坏了"),
        ("我喜欢番茄", "我喜欢番茄酱"),
        ("我从安卓换成了苹果", "我从苹果换成了安卓"),
        ("我从微信转到支付宝", "我从支付宝转到微信"),
        ("我把猫粮换成了狗粮", "我把狗粮换成了猫粮"),
        (
            "I swapped cow's milk for oat milk",
            "I swapped oat milk for cow's milk",
        ),
        (
            "I replaced my sofa with a futon",
            "I replaced my futon with a sofa",
        ),
    ]);
    one_fact(&[
        ("我的牙医是李医生", "李医生是我的牙医"),
        ("秋天是我最喜欢的季节", "我最喜欢的季节是秋天"),
        ("我毕业后去了上海", "我毕业之后去了上海"),
        ("我喜欢睡前看书", "我睡前喜欢看书"),
        ("I drink coffee", "I drink coffee before work"),
        (
            "I moved to Berlin after graduating",
            "I moved to Berlin after I graduated",
        ),
        ("我每天走路去公司", "我每天走路到公司"),
        ("我有两个女儿", "我有俩女儿"),
        ("我女儿在学长笛", "我女儿正在学长笛"),
        (
            "Jazz is the music User listens to most",
            "User listens to jazz most",
        ),
    ]);
}

/// A sixth held-out trial (233 different-fact pairs, 15 merged): a plan against what was done
/// ("getting married" / "got married"), "for two years" / "two years ago", a number that
/// labels against one that counts ("year 3" / "3 years old"), who "only" is about, a word the
/// tables do not know after a thing (火车模型), 被, 隔周, currencies (港币, 人民币), 一对 / 一只
/// and 一箱 / 一个, 给 / 和, 只有. Each pair below is new, of the same kinds.
#[test]
fn plans_labels_passives_pairs_and_boxes_make_another_fact() {
    never_one(&[
        ("I'm getting engaged in Paris", "I got engaged in Paris"),
        (
            "I worked in Lyon for three years",
            "I worked in Lyon three years ago",
        ),
        ("my son is in grade 5", "my son is 5 years old"),
        ("only my brother cooks", "my brother only cooks"),
        ("我女儿喜欢飞机", "我女儿喜欢飞机模型"),
        ("我的钱包被小偷偷了", "我的钱包偷了小偷"),
        ("我隔天跑步", "我每天跑步"),
        ("我的相机花了两千港币", "我的相机花了两千美元"),
        ("我的房租是三千人民币", "我的房租是三千港币"),
        ("我养了一只兔子", "我养了一对兔子"),
        ("我买了一袋米", "我买了一个米"),
        ("我给女儿做饭", "我和女儿一起做饭"),
        ("我周末也加班", "我只有周末加班"),
    ]);
    one_fact(&[
        (
            "my bike was stolen last month",
            "my bike got stolen last month",
        ),
        ("we have two cats", "we've got 2 cats"),
        ("我们俩都是医生", "我们两个都是医生"),
        (
            "we have been together for 6 years",
            "we have been together for six years",
        ),
    ]);
}

/// A seventh held-out trial (219 different-fact pairs, 12 merged): a number that labels
/// against a bare one ("is 7" / "is in year 7"), a denial narrowed by words more ("I don't
/// have caffeine after lunch", 我晚上不喝茶, "except lamb"), 只 against 也, 比起 swapped,
/// 不太, 让. Each pair below is new, of the same kinds.
#[test]
fn labels_narrowed_denials_and_comparisons_make_another_fact() {
    never_one(&[
        ("my daughter is 9", "my daughter is in year 9"),
        ("I don't eat sugar at breakfast", "I don't eat sugar"),
        ("I don't eat fish except salmon", "I don't eat fish"),
        ("我周末不喝咖啡", "我不喝咖啡"),
        ("我只在周五健身", "我周五也健身"),
        ("比起咖啡我更喜欢茶", "比起茶我更喜欢咖啡"),
        ("我不太会游泳", "我不会游泳"),
        ("我妈不让我熬夜", "我妈不熬夜"),
    ]);
    one_fact(&[
        ("我家养了只狗", "我家养了一只狗"),
        ("I was born in 1985", "I was born in the year 1985"),
    ]);
}

/// An eighth held-out trial (225 different-fact pairs, 19 ended as one memory: 9 a denial
/// replacing its fact, as meant; 10 merged as "more specific"): an act against things the
/// stemmer makes one word of ("afraid of flying" / "of flies"), a language against what is
/// written in it ("French" / "French literature"), and Chinese written into an institution's
/// name (北京师范大学 / 北京大学, 中国人民银行 / 中国银行). Each pair below is new, of the same
/// kinds; a common noun said more closely ("electric guitar", "sourdough bread") is still the
/// same fact, kept in its more specific wording (two instruments joined, "bass guitar", are
/// another: the eighteenth trial).
#[test]
fn acts_languages_and_names_of_places_make_another_fact() {
    never_one(&[
        ("I'm scared of sailing", "I'm scared of sails"),
        ("my son loves drawing", "my son loves drawings"),
        ("I hate fishing", "I hate fishes"),
        ("I teach Spanish", "I teach Spanish history"),
        (
            "my wife studies German",
            "my wife studies German literature",
        ),
        ("我在浙江大学工作", "我在浙江工业大学工作"),
        ("我儿子在北京小学上学", "我儿子在北京实验小学上学"),
        ("我在华为公司工作", "我在华为技术公司工作"),
        ("我常去人民公园", "我常去人民文化公园"),
    ]);
    one_fact(&[
        ("I love hiking", "I love to hike"),
        ("I go running", "I run"),
        ("I like swimming", "I like to swim"),
        ("我在中国银行工作", "我在中国银行上班"),
        ("I play the guitar", "I play the electric guitar"),
    ]);
}

/// A ninth held-out trial, on the build with the eighth's fixes (161 different-fact pairs, 8
/// merged as one side saying more): an allergy named after what causes it ("cat allergy"), a
/// direction written into a street's name (南京路 / 南京西路), great-grandparents (太奶奶), a pot
/// against a cup (一壶 / 一杯), and a time of day on one side only ("6:30" / "6:30 pm"). Each
/// pair below is new, of the same kinds.
#[test]
fn allergies_streets_generations_measures_and_hours_make_another_fact() {
    never_one(&[
        ("I have a dog", "I have a dog allergy"),
        ("my son has a horse", "my son has a horse allergy"),
        ("我住在中山路", "我住在中山北路"),
        ("我家在解放街", "我家在解放东街"),
        ("我爷爷住在乡下", "我太爷爷住在乡下"),
        ("我每天吃一碗米饭", "我每天吃一锅米饭"),
        ("我周末泡一壶茶", "我周末泡一杯茶"),
        ("my alarm is set for 7:15", "my alarm is set for 7:15 pm"),
        (
            "I take my pills at 9",
            "I take my pills at 9 in the evening",
        ),
    ]);
    one_fact(&[("I have a dog", "I have a small dog")]);
}

/// A tenth held-out trial (152 different-fact pairs, none merged but "soccer" / "football"; 10
/// of 50 rewordings missed) showed a contraction dropped: "I've lived" read as "I lived", so
/// "I've lived in Madrid for ten years" was not "I have lived …" and was "I lived …" (a
/// present against a past, merged). A contraction is now read as its verb spelled out, and a
/// participle spelled as the past ("taught", "had") after "have" is the present perfect.
#[test]
fn contractions_and_the_present_perfect_are_read_as_spelled_out() {
    never_one(&[
        (
            "I've lived in Madrid for ten years",
            "I lived in Madrid for ten years",
        ),
        (
            "I have taught piano for twenty years",
            "I taught piano for twenty years",
        ),
        (
            "I've taught piano for 20 years",
            "I taught piano for 20 years",
        ),
        ("we have had a boat for years", "we had a boat for years"),
        ("I'm a nurse", "I was a nurse"),
    ]);
    one_fact(&[
        (
            "I have lived in Madrid for ten years",
            "I've lived in Madrid for 10 years",
        ),
        (
            "my parents have lived in Porto since 1990",
            "my parents've lived in Porto since 1990",
        ),
        (
            "we are moving to Lyon in May",
            "we're moving to Lyon in May",
        ),
        (
            "I will start my new job on Monday",
            "I'll start my new job on Monday",
        ),
        ("I've got two cats", "I have two cats"),
    ]);
}

/// The tenth trial's one wrong merge: "soccer" had been read as "football", which is the same
/// sport in Britain and another one in America. Which one a user means is not in the words, and
/// merging them loses the fact when they differ, so a word that names different things in
/// different countries is not a synonym.
#[test]
fn a_word_that_differs_by_country_is_not_a_synonym() {
    never_one(&[
        ("My son plays soccer", "My son plays football"),
        (
            "I watch soccer every weekend",
            "I watch football every weekend",
        ),
        (
            "my favourite sport is soccer",
            "my favourite sport is football",
        ),
    ]);
    one_fact(&[
        ("My son plays soccer", "my son is a soccer player"),
        (
            "I watch football every weekend",
            "every weekend I watch football",
        ),
    ]);
}

/// An eleventh held-out trial (2026-11-28: 500 new pairs, 22 of 330 different facts merged):
/// the same words where two of them cross a third ("my dog bit my son" / "my son bit my dog",
/// 我上班喝茶在家喝咖啡 / 我上班喝咖啡在家喝茶), "only" before another word, "about" against
/// "with", and what someone both name has, in Chinese (小明的车 / 小明), each another fact; a
/// phrase or a time moved whole, and a name with what bears it, are still one.
#[test]
fn crossed_words_scope_topics_and_possessions_make_another_fact() {
    never_one(&[
        // two words crossing a third that stays
        ("My dog bit my son", "My son bit my dog"),
        ("The cat chased the dog", "The dog chased the cat"),
        ("My son kicked my nephew", "My nephew kicked my son"),
        ("我上班喝茶在家喝咖啡", "我上班喝咖啡在家喝茶"),
        ("我早上喝咖啡晚上喝茶", "我早上喝茶晚上喝咖啡"),
        ("我周三学钢琴周六学画画", "我周三学画画周六学钢琴"),
        ("我只吃鱼不吃肉", "我只吃肉不吃鱼"),
        ("我在北京工作在上海住", "我在上海工作在北京住"),
        (
            "My wife is a teacher and I am a nurse",
            "I am a teacher and my wife is a nurse",
        ),
        // what "only" restricts
        ("I only eat fish on Fridays", "I eat only fish on Fridays"),
        ("Not only my son plays chess", "My son plays not only chess"),
        (
            "Not only my wife speaks French",
            "My wife speaks not only French",
        ),
        // with someone, or about them
        (
            "I have a meeting with Tom at 2",
            "I have a meeting about Tom at 2",
        ),
        ("I argued with my brother", "I argued about my brother"),
        (
            "I wrote a book with my father",
            "I wrote a book about my father",
        ),
        // what someone has, against them
        ("我喜欢小明的车", "我喜欢小明"),
        ("我最喜欢周杰伦的歌", "我最喜欢周杰伦"),
    ]);
    one_fact(&[
        ("I call my mom every Sunday", "Every Sunday I call my mom"),
        (
            "On Sundays I go to church with my family",
            "I go to church with my family on Sundays",
        ),
        (
            "In the evenings I play chess online",
            "I play online chess in the evenings",
        ),
        ("我周末在家看书", "周末我在家看书"),
        ("My dog is named Rex", "Rex is the name of my dog"),
        ("I read about history", "I read about history every night"),
    ]);
}

/// A twelfth held-out trial (2026-11-28: 476 new pairs, 7 of 354 different facts merged, 5 of
/// them losing one): a deputy of another ("the assistant manager" / "the manager's assistant",
/// 副经理 / 经理的助理), a part of a thing in Chinese (车的电瓶 / 车), and "even" before another
/// word, each another fact.
#[test]
fn deputies_parts_and_even_make_another_fact() {
    never_one(&[
        (
            "I'm the assistant manager at the store",
            "I'm the manager's assistant at the store",
        ),
        ("I'm the assistant coach", "I'm the coach's assistant"),
        ("我是店里的副经理", "我是店里经理的助理"),
        ("车的电瓶上个月换了", "车上个月换了"),
        ("我家电脑的屏幕坏了", "我家电脑坏了"),
        ("Even my boss likes jazz", "My boss likes even jazz"),
        (
            "Even my dad plays video games",
            "My dad plays even video games",
        ),
    ]);
    one_fact(&[(
        "I'm the assistant coach",
        "I'm the assistant coach of the team",
    )]);
}

/// A thirteenth held-out trial (2026-11-28: 451 new pairs sharing almost all their words, 26
/// of 340 different facts merged): a compound the other way round or taken apart ("dog house"
/// / "house dog", "tea cup" / "cup of tea", 蜜蜂 / 蜂蜜), "check in" / "check out", which
/// question is asked ("why" / "when", 为什么 / 什么时候), how exact a number is ("exactly" /
/// "around", 三十来个 / 至少三十个), 伯伯 / 叔叔, and 我妹 / 我, each another fact.
#[test]
fn compounds_undone_questions_and_exactness_make_another_fact() {
    never_one(&[
        ("I need to buy a dog house.", "I need to buy a house dog."),
        ("I need a new tea cup.", "I need a new cup of tea."),
        ("I have a coffee table", "I have a table for coffee"),
        ("I like cat food", "I like food for cats"),
        ("我儿子对蜜蜂过敏。", "我儿子对蜂蜜过敏。"),
        ("我喜欢牛奶咖啡", "我喜欢咖啡牛奶"),
        (
            "I check in at the hotel at 3 pm.",
            "I check out of the hotel at 3 pm.",
        ),
        (
            "My daughter keeps asking why we moved.",
            "My daughter keeps asking when we moved.",
        ),
        ("My son wonders where we met.", "My son wonders how we met."),
        ("女儿老问我们为什么搬家。", "女儿老问我们什么时候搬家。"),
        (
            "My flight lands at exactly 6 pm.",
            "My flight lands at around 6 pm.",
        ),
        ("I run at least 5 km a day", "I run about 5 km a day"),
        ("我班上有三十来个学生。", "我班上至少有三十个学生。"),
        ("我伯伯住在广州。", "我叔叔住在广州。"),
        ("我妹想明年夏天去冰岛。", "我想明年夏天去冰岛。"),
    ]);
    one_fact(&[
        (
            "I drink coffee every morning",
            "every morning I drink coffee",
        ),
        ("User runs marathons", "User is a marathon runner"),
        ("my dog is named Rex", "my dog's name is Rex"),
    ]);
}
