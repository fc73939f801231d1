//! The labelled set for retrieval quality: facts as the reflector would store them, each with
//! a question a person would ask about it in other words. Roughly half the questions share
//! a content word with their fact (keyword search can find them), half share none (only
//! meaning can). English and Chinese.

/// (fact, question about it)
pub const ENGLISH: &[(&str, &str)] = &[
    ("User's dog is named Rex", "what's my dog called?"),
    ("Alice is allergic to peanuts", "can Alice eat nuts safely?"),
    (
        "The team standup is at 10:00 every weekday",
        "when do we meet each morning?",
    ),
    (
        "User works as a nurse at the city hospital",
        "what is my job?",
    ),
    (
        "User's daughter Mia starts school in September",
        "when does my kid begin classes?",
    ),
    (
        "User prefers answers in short bullet points",
        "how should you format replies for me?",
    ),
    (
        "User moved from Tokyo to Osaka in March",
        "which city do I live in now?",
    ),
    (
        "User's car is a blue 2015 Toyota Corolla",
        "what vehicle do I drive?",
    ),
    (
        "User is vegetarian and does not eat fish",
        "is there any food I avoid?",
    ),
    (
        "The project deadline is the 14th of June",
        "when is the project due?",
    ),
    (
        "User plays the cello in a community orchestra",
        "what instrument do I play?",
    ),
    (
        "User's favourite tea is jasmine green tea",
        "which drink do I like best?",
    ),
    (
        "Bob is the team's database administrator",
        "who looks after our database?",
    ),
    (
        "User's wedding anniversary is on the 2nd of May",
        "when did I get married?",
    ),
    (
        "User runs a half marathon every autumn",
        "what sport do I do?",
    ),
    (
        "User's landlord is called Mr. Peters",
        "who do I rent my flat from?",
    ),
    (
        "The office wifi network is named Nebula",
        "what is the office wireless called?",
    ),
    (
        "User is learning Spanish on weekends",
        "which language am I studying?",
    ),
    (
        "User's sister lives in Vancouver",
        "where does my sibling live?",
    ),
    ("User takes the 7:40 train to work", "how do I commute?"),
];

/// (fact, question about it)
pub const CHINESE: &[(&str, &str)] = &[
    ("用户的猫叫咪咪", "我的猫叫什么名字？"),
    ("用户在上海的一家银行工作", "我在哪里上班？"),
    ("用户对花生过敏", "我有什么食物不能吃？"),
    ("用户每周六早上去游泳", "我周末做什么运动？"),
    ("用户的生日是十月三日", "我什么时候过生日？"),
    ("用户喜欢喝乌龙茶", "我最喜欢什么饮料？"),
    ("用户的女儿叫小雨", "我女儿的名字是什么？"),
    ("项目截止日期是六月十四日", "项目什么时候到期？"),
    ("用户住在北京朝阳区", "我住在哪个城市？"),
    ("用户正在学习日语", "我在学哪种语言？"),
    ("用户开一辆白色的特斯拉", "我开什么车？"),
    ("用户是素食者", "我吃肉吗？"),
];
