use super::*;

fn change(new: &str, stored: &str) -> Option<(String, String)> {
    changed(new, stored).map(|c| (c.old, c.new))
}

#[test]
fn a_value_of_a_one_value_relation_changes() {
    for (stored, new) in [
        ("I live in Tokyo", "I live in Osaka"),
        ("I live in Tokyo", "I moved to Osaka"),
        ("User lives in Denver", "User has moved to Austin"),
        ("User lives in New York", "User lives in New Jersey"),
        ("User works at Google", "User works at Meta"),
        ("I work full-time at Deloitte", "I work full-time at KPMG"),
        ("User is from Chile", "User is from Peru"),
        (
            "User's dentist is Dr. Patel",
            "User's dentist is Dr. Okafor",
        ),
        ("My landlord is Mr. Greene", "My landlord is Mrs. Ortiz"),
        (
            "User's go-to coffee order is a cappuccino",
            "User's go-to coffee order is an americano",
        ),
        (
            "User's favourite football club is Celtic",
            "User's favourite football club is Rangers",
        ),
        ("User drives a Honda Civic", "User now drives a Toyota RAV4"),
        ("User is 30 years old", "User is 31 years old"),
        ("User has 2 cats", "User has 3 cats"),
        ("I run twice a week", "I run five times a week"),
        (
            "I usually go to bed at 11 pm",
            "I usually go to bed at 1 am",
        ),
        (
            "User's weekly piano lesson is on Tuesday",
            "User's weekly piano lesson is on Thursday",
        ),
        (
            "User's book club meets on the first Monday of the month",
            "User's book club meets on the first Wednesday of the month",
        ),
        ("用户在腾讯工作", "用户在阿里巴巴工作"),
        ("我在腾讯工作", "我现在在字节上班了"),
        ("我住在广州", "我住在深圳"),
        ("我住在北京", "我搬到深圳了"),
        ("我女朋友叫小雨", "我女朋友叫小雪"),
        ("我老家是河南周口", "我老家是河南商丘"),
        ("用户最喜欢的歌手是王菲", "用户最喜欢的歌手是邓紫棋"),
        ("我最喜欢的电影是《霸王别姬》", "我最喜欢的电影是《活着》"),
        ("用户的大儿子今年十岁", "用户的大儿子今年十二岁"),
        ("我的月薪是两万", "我的月薪是两万五"),
        ("我每天早上7点起床", "我每天早上6点半起床"),
        ("用户的房租是每月三千元", "用户的房租是每月五千元"),
        ("我的钢琴课在每周二", "我的钢琴课改到每周四了"),
        ("我是北京人", "我是上海人"),
        ("用户的 manager 是 Kevin", "用户的 manager 是 Linda"),
        ("我开的是Tesla Model 3", "我开的是Tesla Model Y"),
        ("User's manager is Karen", "User's manager is Linda"),
        ("User's manager is 陈经理", "User's manager is 周经理"),
        ("我的直属领导是赵总", "我的直属领导换成孙总了"),
        ("我老公叫张伟", "打错了，我老公叫张炜"),
        ("I live in Tokyo", "Correction: I live in Kyoto"),
        (
            "User's only pet is a cat named Tom",
            "User's only pet is a cat named Milo",
        ),
        ("我的房东姓王", "我的房东姓陈"),
        ("User's birthday is March 3", "User's birthday is March 5"),
        ("我的生日是5月3日", "我的生日是5月8日"),
        (
            "用户回老家的航班是下午三点起飞",
            "用户回老家的航班是晚上八点起飞",
        ),
        ("我的房租每月3500元", "我的房租每月4200元"),
    ] {
        assert!(change(new, stored).is_some(), "{stored} → {new}");
    }
}

#[test]
fn a_relation_of_many_values_or_more_than_a_value_keeps_both() {
    for (stored, new) in [
        ("User likes tea", "User likes coffee"),
        ("User has visited Japan", "User has visited Korea"),
        ("User speaks French", "User speaks German"),
        ("用户去过日本", "用户去过韩国"),
        ("用户喜欢猫", "用户喜欢狗"),
        ("我喜欢喝Starbucks", "我也喜欢喝Luckin"),
        ("User visited Paris in 2019", "User visited Paris in 2021"),
        ("User's sister is tall", "User's sister is smart"),
        ("User works with Anna", "User works with Bob"),
        (
            "My partner is allergic to cats",
            "My partner is allergic to penicillin",
        ),
        (
            "One of User's favourite films is Alien",
            "One of User's favourite films is Heat",
        ),
        ("User used to work at IBM", "User used to work at Oracle"),
        ("我以前在阿里工作过", "我以前在百度工作过"),
        ("User works at Google", "User also works at a startup"),
        ("我在社区服务中心做志愿者", "我在图书馆做志愿者"),
        // several of a kind: a second sister, a second dog, a roommate, a colleague
        ("User's son is 4 years old", "User's son is 9 years old"),
        ("My roommate is from Ohio", "My roommate is from Lagos"),
        (
            "User's housemate is named Jordan",
            "User's housemate is named Felix",
        ),
        ("User's cat is named Biscuit", "User's cat is named Mochi"),
        ("用户的同事叫小王", "用户的同事叫小李"),
        ("用户的大学室友在腾讯工作", "用户的大学室友在字节工作"),
        ("用户小区的保安姓刘", "用户小区的保安姓马"),
        (
            "User's client is a bakery in Brooklyn",
            "User's client is a law firm in Queens",
        ),
        // events on days, things collected
        (
            "User's band has a gig on June 12",
            "User's band has a gig on June 26",
        ),
        ("用户的乐队6月10号有演出", "用户的乐队6月24号有演出"),
        (
            "User collects vinyl records from the 70s",
            "User collects vinyl records from the 90s",
        ),
        ("用户在学日语", "用户在教日语"),
        // two things of one person, a value written two ways, two events
        ("My wife is a teacher", "My wife is from Brazil"),
        ("我老公是老师", "我老公是东北人"),
        ("My husband is 6 feet tall", "My husband is six foot tall"),
        ("我今年三十二岁", "我今年32岁"),
        ("我明天上午九点开会", "我明天下午三点开会"),
        (
            "I have a meeting tomorrow at 9 am",
            "I have a meeting tomorrow at 3 pm",
        ),
        // numbers that label, events and purchases, things one has several of
        ("remember fact 1", "remember fact 2"),
        ("fact 1", "fact 2"),
        ("User finished chapter 3", "User finished chapter 4"),
        (
            "I have a concert on the 14th",
            "I have a concert on the 22nd",
        ),
        (
            "User paid $40 for concert tickets",
            "User paid $120 for concert tickets",
        ),
        (
            "User's houseplant is called Gerald",
            "User's houseplant is called Sir Leafington",
        ),
        (
            "User's sister lives in Boston",
            "User's sister lives in Denver",
        ),
        ("我姐姐住在广州", "我姐姐住在厦门"),
        (
            "User has a brother named Tom",
            "User has a brother named Sam",
        ),
        ("I have a dog called Luna", "I have a dog called Max"),
        // a habit on a day, against the one day of something
        ("我每周一去游泳", "我每周四去游泳"),
        (
            "User goes swimming on Mondays",
            "User goes swimming on Thursdays",
        ),
        // numbers of other things, or with the person in the value
        ("User owns a Canon EOS R6", "User owns a Fujifilm X100V"),
        ("I have two kids", "I have three grandchildren"),
        ("我爷爷89岁", "我外婆84岁"),
        ("my grandpa is 88", "my grandma is 85"),
        ("我妈生日是6月3号", "我爸生日是6月13号"),
        // one side says more: the more specific wording, not a change
        ("我住在广州", "我住在广州街"),
        ("User lives in Tokyo", "User lives in Tokyo, Japan"),
        // a negation, a question, a condition, another subject
        ("I live in Tokyo", "I don't live in Osaka"),
        ("I live in Tokyo", "do I live in Osaka?"),
        ("I work at Google", "when I work at Meta"),
        ("Tom lives in Paris", "Anna lives in Berlin"),
        ("我住在广州", "我不住在深圳"),
        ("I live in Tokyo", "I lived in Osaka"),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
}

#[test]
fn a_verb_of_change_is_read_as_its_relation_for_the_search() {
    assert_eq!(
        as_relation("I moved to Osaka").as_deref(),
        Some("I live in Osaka")
    );
    assert_eq!(as_relation("我搬到深圳了").as_deref(), Some("我住在深圳"));
    // what says only that it changed is no term of the search
    assert_eq!(
        as_relation("I live in Osaka now").as_deref(),
        Some("I live in Osaka")
    );
    assert_eq!(
        as_relation("我现在在字节工作").as_deref(),
        Some("我在字节工作")
    );
    // nothing said to have changed: the text's own terms are the search's
    assert_eq!(as_relation("User's dentist is Dr. Patel"), None);
    assert_eq!(as_relation("I live in Osaka"), None);
    // its terms find a stored fact in the third person as well
    let terms = relation_terms("Alice moved to Osaka").unwrap();
    for t in ["alice", "live", "lives", "osaka"] {
        assert!(terms.contains(t), "{t}: {terms:?}");
    }
    assert!(!terms.contains("moved"), "{terms:?}");
}

#[test]
fn verbs_of_change_say_the_new_value_and_when_it_came_is_no_part_of_it() {
    for (stored, new, old_value, new_value) in [
        (
            "I live in Tokyo",
            "I moved to Osaka last month",
            "Tokyo",
            "Osaka",
        ),
        (
            "I live in Tokyo",
            "I moved to Osaka a couple of weeks ago",
            "Tokyo",
            "Osaka",
        ),
        (
            "I work at Google",
            "I started a new job at Meta",
            "Google",
            "Meta",
        ),
        (
            "I work at Google",
            "I got a job at Meta last week",
            "Google",
            "Meta",
        ),
        (
            "I work for Google",
            "I have started working for Meta",
            "Google",
            "Meta",
        ),
        ("I am 40", "I turned 41", "40", "41"),
        ("User is 29", "User turned 30 yesterday", "29", "30"),
        ("我在腾讯工作", "我上周入职美团了", "腾讯", "美团"),
        ("我在阿里巴巴工作。", "我跳槽到腾讯了。", "阿里巴巴", "腾讯"),
        ("我住在北京", "我上个月搬到上海了", "北京", "上海"),
        (
            "User lives in Seattle",
            "User relocated to Portland in March",
            "Seattle",
            "Portland",
        ),
        (
            "User lives in Seattle",
            "User moved to Portland in 2023",
            "Seattle",
            "Portland",
        ),
        // "new" after its owner, and an age with its years, say no more than the value
        (
            "My boss is Karen Liu",
            "My new boss is David Park",
            "Karen Liu",
            "David Park",
        ),
        ("I am 29 years old", "I turned 30 yesterday", "29", "30"),
        // where two statements of change differ only in when, that is the value
        (
            "I moved to Austin in 2019",
            "I moved to Austin in 2018",
            "2019",
            "2018",
        ),
        // a name's first word shown with it
        (
            "I live in New York",
            "I live in New Jersey",
            "New York",
            "New Jersey",
        ),
        // "I changed my X to Y", 把 X 改成 Y: "my X is Y"
        (
            "my username is coolcat88",
            "I changed my username to nightowl_dev",
            "coolcat88",
            "nightowl_dev",
        ),
        (
            "我的网名是追风少年",
            "我把网名改成了夜猫子",
            "追风少年",
            "夜猫子",
        ),
        ("我的车是大众", "我上个月把车换成了特斯拉", "大众", "特斯拉"),
        // a value shown as written, with what glues it together
        (
            "My phone number is 555-0142",
            "My new phone number is 555-0199",
            "555-0142",
            "555-0199",
        ),
        (
            "我的邮箱是zhang@163.com",
            "我的新邮箱是zw@qq.com",
            "zhang@163.com",
            "zw@qq.com",
        ),
        (
            "User works at AT&T",
            "User works at T-Mobile",
            "AT&T",
            "T-Mobile",
        ),
    ] {
        assert_eq!(
            change(new, stored),
            Some((old_value.to_string(), new_value.to_string())),
            "{stored} → {new}"
        );
    }
    // when, without a verb of change, may be the fact itself: a past one keeps both
    for (stored, new) in [
        ("I live in Tokyo", "I lived in Osaka last year"),
        ("我住在上海", "我去年住在北京"),
        ("我在腾讯工作", "我入职美团的时候很紧张"),
        // "changed my … to" said of something else, or not by the one it belongs to
        ("I live in Tokyo", "I moved my stuff to Osaka"),
        (
            "my username is coolcat88",
            "Tom changed my username to nightowl",
        ),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
}

#[test]
fn a_description_may_fit_the_named_value() {
    for (stored, new) in [
        (
            "I moved to Osaka",
            "I live in an apartment near Namba station",
        ),
        ("I live in Tokyo", "I live in a flat"),
        (
            "User's wife works at St Mary's Hospital",
            "User's wife works at a private clinic",
        ),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
    // two of a kind, or a value that only looks like an article
    assert!(change("I drive a Tesla", "I drive a Honda").is_some());
    assert!(
        change(
            "User's blood type is O positive",
            "User's blood type is A positive"
        )
        .is_some()
    );
}

/// Someone one may have several of (a sister, a daughter, a dog) is the one the older fact
/// was about when the newer says it changed ("now", a correction, a verb of change, 了) or a
/// name says which (我女儿朵朵); otherwise both stay: it may be a second sister.
#[test]
fn a_change_said_or_a_name_says_which_of_several() {
    for (stored, new) in [
        ("My sister lives in Boston", "My sister lives in Austin now"),
        (
            "The kids' bedtime is 8pm",
            "The kids' bedtime is 8:30pm now",
        ),
        ("My cat is named Luna", "Correction: my cat is named Lena"),
        ("我姐姐住在南京", "我姐姐搬去苏州了"),
        ("我的狗三岁", "我的狗四岁了"),
        ("我女儿朵朵今年5岁", "我女儿朵朵今年6岁"),
        ("用户的狗旺财今年3岁。", "用户的狗旺财今年4岁。"),
        ("我家狗狗豆豆体重8公斤。", "我家狗狗豆豆体重10公斤。"),
        ("我儿子乐乐在实验小学上学", "我儿子乐乐在育才小学上学"),
        // one's father's mother is one person
        ("我奶奶今年86", "我奶奶今年87了"),
        ("我奶奶85岁", "奶奶86岁了"),
        ("我今年28岁", "我29岁了"),
        ("User's best friend is Dana.", "User's best friend is Ravi."),
    ] {
        assert!(change(new, stored).is_some(), "{stored} → {new}");
    }
    for (stored, new) in [
        ("My sister lives in Boston", "My sister lives in Austin"),
        // said of both: nothing says which
        (
            "My sister lives in Boston now",
            "My sister lives in Austin now",
        ),
        ("我女儿上幼儿园", "我女儿上小学"),
        ("我朋友住在北京", "我朋友住在上海"),
        ("我女儿同学住在北京", "我女儿同学住在上海"),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
}

/// More relations of one value: the floor one lives on, when a thing of one's day starts.
#[test]
fn where_one_lives_on_and_when_a_days_thing_starts() {
    for (stored, new) in [
        ("User lives on the 5th floor", "User lives on the 8th floor"),
        ("I live on Elm Street", "I live on Oak Avenue"),
        ("My shift starts at 9am", "My shift starts at 10am"),
        ("I run 3 times a week", "I run 5 times a week these days"),
    ] {
        assert!(change(new, stored).is_some(), "{stored} → {new}");
    }
    // the day of a month is a date still
    assert!(change("My flight is on the 14th", "My flight is on the 12th").is_some());
}

/// A number of one of several things, or a value under a condition of its own: both hold.
#[test]
fn one_of_several_things_or_another_condition_keeps_both() {
    for (stored, new) in [
        (
            "I have a meeting at 3pm Monday",
            "I have a meeting at 5pm Monday",
        ),
        ("我周一下午3点有个会", "我周一下午5点有个会"),
        (
            "My bedtime is 11 on weeknights",
            "My bedtime is 1am on Fridays",
        ),
        (
            "My mom lives in Miami in the winter",
            "My mom lives in Vermont in the summer",
        ),
        ("I've run 3 marathons", "I've run 12 half marathons"),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
    // the article of the value itself, and the one day a thing moved to
    for (stored, new) in [
        ("My phone is an iPhone 12.", "My phone is an iPhone 15."),
        (
            "User's car is a 2015 Ford Focus",
            "User's car is a 2019 Ford Focus",
        ),
        ("Jenny is 29", "Jenny turned 30 on Sunday"),
        ("I've run 3 marathons", "I've run 4 marathons"),
    ] {
        assert!(change(new, stored).is_some(), "{stored} → {new}");
    }
}

#[test]
fn the_values_are_shown_as_said() {
    assert_eq!(
        change("I live in Osaka", "I live in Tokyo"),
        Some(("Tokyo".into(), "Osaka".into()))
    );
    assert_eq!(
        change(
            "User's dentist is Dr. Okafor",
            "User's dentist is Dr. Patel"
        ),
        Some(("Patel".into(), "Okafor".into()))
    );
    assert_eq!(
        change("用户在阿里巴巴工作", "用户在腾讯工作"),
        Some(("腾讯".into(), "阿里巴巴".into()))
    );
    assert_eq!(
        change("我的月薪是两万五", "我的月薪是两万"),
        Some(("两万".into(), "两万五".into()))
    );
    // a title's words are no relation's, its number no count
    assert_eq!(
        change(
            "My favourite film is Dune Part Two",
            "My favourite film is Inception"
        ),
        Some(("Inception".into(), "Dune Part Two".into()))
    );
    // with the commas as written
    assert_eq!(
        change("My rent is $1,650 a month", "My rent is $1,500 a month"),
        Some(("1,500".into(), "1,650".into()))
    );
    assert_eq!(
        change("My salary is 95,000 now", "My salary is 85000"),
        Some(("85000".into(), "95,000".into()))
    );
}

/// A run of numerals longer than any number is none (it overflowed before: a panic in a
/// debug build, a wrong value in a release one).
#[test]
fn a_numeral_run_past_any_number_is_no_value() {
    let nines = "九".repeat(30);
    assert_eq!(
        super::super::lex::zh_number(&nines.chars().collect::<Vec<_>>()),
        None
    );
    assert_eq!(
        change(&format!("我有{nines}只猫"), &format!("我有{nines}八只猫")),
        None
    );
}

mod any_text {
    use super::*;
    use proptest::prelude::*;

    const PIECES: &[&str] = &[
        "I",
        "live",
        "in",
        "Tokyo",
        "my",
        "My",
        "is",
        "named",
        "not",
        "no",
        "longer",
        "2",
        "30",
        "8:30",
        "$5",
        "User's",
        "Dr.",
        "Mr.",
        "moved",
        "to",
        "now",
        "on",
        "the",
        "14th",
        "am",
        "pm",
        "住在",
        "九九九九九九九九九九九九九九九九九九九九九九九",
        "万",
        "的",
        "是",
        "了",
        "，",
        "?",
        "叫",
        "月",
        "号",
        "周",
        "一",
        "现在",
        "打错了",
        "Correction:",
        "-",
        ".",
        "《",
        "》",
        "第",
        "下午",
        "点",
        "",
        " ",
        "'",
        "\u{0}",
        "\u{200b}",
        "🙂",
        "ß",
        "İ",
    ];

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec((0..PIECES.len(), any::<bool>()), 0..24).prop_map(|parts| {
            parts
                .into_iter()
                .map(|(i, space)| format!("{}{}", PIECES[i], if space { " " } else { "" }))
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whatever two texts a chat sends, reading them for a changed value does not panic,
        /// and a text never changes its own value.
        #[test]
        fn any_two_texts_are_read_without_a_panic(a in text(), b in text()) {
            let _ = changed(&a, &b);
            let _ = as_relation(&a);
            prop_assert_eq!(changed(&a, &a), None);
        }
    }
}

#[test]
fn a_change_in_one_clause_of_several_or_with_the_value_first_is_read() {
    for (stored, new, old_value, new_value) in [
        (
            "I work at Google",
            "I started a new job at Meta, and I love the team",
            "Google",
            "Meta",
        ),
        (
            "my dentist is Maria Lopez",
            "Maria retired; my dentist is Dev Patel now",
            "Maria Lopez",
            "Dev Patel",
        ),
        (
            "my favourite season is winter",
            "autumn is my favourite season now",
            "winter",
            "autumn",
        ),
    ] {
        assert_eq!(
            change(new, stored),
            Some((old_value.to_string(), new_value.to_string())),
            "{stored} → {new}"
        );
    }
    // a clause that does not say it changed, another thing's state, a second one of many
    for (stored, new) in [
        (
            "my dentist is Maria Lopez",
            "I met Dev Patel, he is a dentist now",
        ),
        ("my phone is a Pixel 7", "my phone is on silent now"),
        (
            "my car is a Golf",
            "my car is in the garage now, so I take the bus",
        ),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
}

#[test]
fn initials_are_the_value_they_stand_for_and_a_change_may_come_without_its_subject() {
    // the same value written two ways is no change (the twelfth set)
    for (stored, new) in [
        ("I drive a VW", "I drive a Volkswagen"),
        ("my sister lives in SF", "my sister lives in San Francisco"),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
    for (stored, new, old_value, new_value) in [
        (
            "my phone plan is Mint",
            "Switched my phone plan to Visible",
            "Mint",
            "Visible",
        ),
        (
            "my dentist is Dr. Kim",
            "My new dentist is Dr. Okafor since Dr. Kim retired",
            "Kim",
            "Okafor",
        ),
    ] {
        assert_eq!(
            change(new, stored),
            Some((old_value.to_string(), new_value.to_string())),
            "{stored} → {new}"
        );
    }
}

#[test]
fn an_address_is_one_value() {
    for (stored, new, old, value) in [
        (
            "my email is alice@gmail.com",
            "my email is alice@outlook.com",
            "alice@gmail.com",
            "alice@outlook.com",
        ),
        (
            "My email is jon.doe@gmail.com.",
            "My email is jon.doe@outlook.com now.",
            "jon.doe@gmail.com",
            "jon.doe@outlook.com",
        ),
        (
            "我的邮箱是zhangwei@163.com",
            "我的邮箱是zhangwei@qq.com",
            "zhangwei@163.com",
            "zhangwei@qq.com",
        ),
    ] {
        assert_eq!(
            change(new, stored),
            Some((old.to_string(), value.to_string())),
            "{stored} → {new}"
        );
    }
    // the same address again, or a second one of another kind, changes nothing
    assert_eq!(
        change(
            "my email is alice@gmail.com now",
            "my email is alice@gmail.com"
        ),
        None
    );
    assert_eq!(
        change(
            "my work email is alice@acme.com",
            "my email is alice@gmail.com"
        ),
        None
    );
    // read as one word, its dots no full stops; the sentence's own full stop is not its
    let words = |text: &str| -> Vec<String> {
        crate::memory::identity::lex::lex(text)
            .into_iter()
            .filter_map(|r| match r {
                crate::memory::identity::lex::Raw::Word { shown, .. } => Some(shown),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        words("Mail Ann.Lee@Example.co.uk. See https://alice.dev/blog, or www.x.org"),
        [
            "Mail",
            "Ann.Lee@Example.co.uk",
            "See",
            "https://alice.dev/blog",
            "or",
            "www.x.org"
        ]
    );
    // not addresses: an @-name, a domain without a dot, a bare "http://"
    assert_eq!(words("@alice a@b http://"), ["alice", "a", "b", "http"]);
}
