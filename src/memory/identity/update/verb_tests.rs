//! Values said with a verb of change, and ranks of which one is one at a time.

use super::changed;

fn change(new: &str, stored: &str) -> Option<(String, String)> {
    changed(new, stored).map(|c| (c.old, c.new))
}

#[test]
fn a_rank_a_thing_that_went_up_and_a_weight_said_as_down_to_change() {
    for (stored, new, old, value) in [
        (
            "I'm a junior developer at Shopify",
            "I'm a senior developer at Shopify",
            "junior",
            "senior",
        ),
        (
            "I'm a sophomore in college",
            "I'm a junior in college",
            "sophomore",
            "junior",
        ),
        (
            "My rent is $1,500 a month",
            "My rent went up to $1,650 a month",
            "1,500",
            "1,650",
        ),
        (
            "The gate code is 2580",
            "The gate code changed to 0852",
            "2580",
            "0852",
        ),
        (
            "My cholesterol is 240",
            "My cholesterol is down to 195",
            "240",
            "195",
        ),
        ("I weigh 82 kg", "I'm down to 76 kg now", "82", "76"),
        ("我在北京工作", "我调到上海工作了", "北京", "上海"),
        (
            "我的目标体重是60公斤",
            "我把目标体重调到55公斤了",
            "60",
            "55",
        ),
        (
            "论文截止日期是5月10号",
            "论文截止日期延到5月20号了",
            "10",
            "20",
        ),
        ("用户住在南京", "用户已搬至苏州", "南京", "苏州"),
        (
            "User's job title is Product Manager.",
            "User's job title is Senior Product Manager.",
            "Product Manager",
            "Senior Product Manager",
        ),
    ] {
        assert_eq!(
            change(new, stored),
            Some((old.into(), value.into())),
            "{stored} → {new}"
        );
    }
    for (stored, new) in [
        // said of others than who the sentence is about
        ("I mentor junior developers", "I mentor senior developers"),
        ("I mentor developers", "I mentor senior developers"),
        ("I'm hiring a developer", "I'm hiring a senior developer"),
        (
            "User works with engineers",
            "User works with senior engineers",
        ),
        (
            "I'm hiring a junior developer",
            "I'm hiring a senior developer",
        ),
        // "down to" a count of something else than one's weight
        ("I weigh 80 kg", "I'm down to 3 cups of coffee"),
        ("I weigh 80 kg", "We are down to 70 kg of flour"),
    ] {
        assert_eq!(change(new, stored), None, "{stored} → {new}");
    }
}

#[test]
fn a_thing_or_a_person_one_has_one_of_changes_by_name() {
    for (stored, new) in [
        (
            "My bike is a Trek FX 2",
            "My bike is a Specialized Sirrus now",
        ),
        ("My TV is a 55-inch Samsung", "My TV is a 65-inch LG"),
        (
            "My default browser is Chrome",
            "My default browser is Firefox",
        ),
        (
            "My car insurance is with Geico",
            "My car insurance is with Progressive",
        ),
        (
            "My cardiologist is Dr. Reyes",
            "My cardiologist is now Dr. Osei",
        ),
        (
            "My piano teacher is Ms. Kim",
            "My piano teacher is Mr. Ruiz",
        ),
        (
            "My personal trainer is Greg",
            "My personal trainer is Bianca",
        ),
        (
            "I set my sleep goal to 7 hours",
            "I set my sleep goal to 8 hours",
        ),
        (
            "My car insurance is with Geico",
            "I switched my car insurance to Progressive",
        ),
        (
            "My health insurance is Aetna",
            "switched health insurance to Kaiser this year",
        ),
        (
            "My internet provider is Comcast",
            "I switched internet providers to Verizon Fios",
        ),
        ("我是初级工程师", "我升职为高级工程师了"),
        ("我在读大一", "我在读大二"),
        ("我体重70公斤", "我现在瘦到65公斤了"),
    ] {
        assert!(change(new, stored).is_some(), "{stored} → {new}");
    }
    for (stored, new) in [
        // one may have several teachers, and one teacher may be described
        ("My teacher is Mr. Brown", "My teacher is Ms. Green"),
        ("My piano teacher is Ms. Kim", "My piano teacher is strict"),
        ("My lawyer is Tom Baker", "My lawyer is very good"),
        (
            "My therapist is Dr. Kim",
            "My couples therapist is Dr. Alvarez",
        ),
        ("My bank is Chase", "My bank is closed today"),
        // "switched" a thing of which one has many, or a rank of someone else
        ("My team is Platform", "I switched teams to Payments"),
        ("我带初级工程师", "我带高级工程师"),
    ] {
        assert!(change(new, stored).is_none(), "{stored} → {new}");
    }
}
