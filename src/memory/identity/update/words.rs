//! The words the reading of a changed value goes by: relations of one value, of many,
//! people one has one or several of, numbers and dates.

/// Most words a changed value may have, in English; in Chinese, characters.
pub(super) const MAX_WORDS: usize = 5;
pub(super) const MAX_CJK: usize = 8;
/// How far a value may reach back past where the two texts part ("New York" / "New Jersey",
/// 小雨 / 小雪, 河南周口 / 河南商丘) to meet the words of its relation.
pub(super) const BACK_WORDS: usize = 2;
pub(super) const BACK_CJK: usize = 3;

/// Words before a value that hold one value at a time (the prefix's last words, articles and
/// titles taken off; verbs in their plain form, see [`VERB_FORMS`]). Earlier words of a
/// relation may have a word between them ("work full-time at").
pub(super) const ONE_VALUE_BEFORE: &[&[&str]] = &[
    // where someone lives
    &["live", "in"],
    &["live", "at"],
    &["live", "on"],
    &["living", "in"],
    &["reside", "in"],
    &["based", "in"],
    &["home", "is", "in"],
    // where someone works or studies, and as what
    &["work", "at"],
    &["working", "at"],
    &["work", "for"],
    &["working", "for"],
    &["employed", "at"],
    &["employed", "by"],
    &["work", "as"],
    &["working", "as"],
    &["job", "is"],
    &["title", "is"],
    &["study", "at"],
    &["studying", "at"],
    &["student", "at"],
    &["major", "is"],
    &["majoring", "in"],
    &["major", "in"],
    // where someone is from or was born
    &["am", "from"],
    &["is", "from"],
    &["are", "from"],
    &["come", "from"],
    &["originally", "from"],
    &["born", "in"],
    &["born", "on"],
    &["hometown", "is"],
    // what someone is called
    &["called"],
    &["named"],
    &["name", "is"],
    &["nickname", "is"],
    &["go", "by"],
    // whom someone is married to, what they drive
    &["married", "to"],
    &["engaged", "to"],
    &["drive"],
    &["birthday", "is"],
    &["birthday", "is", "on"],
    // when something one has or does each day starts ("practice starts at 5pm")
    &["start", "at"],
    &["begin", "at"],
];

/// A verb's forms read as its plain form, so that "I live" and "User lives" share the words
/// of their relation.
pub(super) const VERB_FORMS: &[(&str, &str)] = &[
    ("lives", "live"),
    ("works", "work"),
    ("drives", "drive"),
    ("studies", "study"),
    ("comes", "come"),
    ("majors", "major"),
    ("resides", "reside"),
    ("meets", "meet"),
    ("goes", "go"),
    ("starts", "start"),
    ("begins", "begin"),
    ("weighs", "weigh"),
];

/// Intransitive verbs of change after a thing, read as "is": "my rent went up to $1,950",
/// "the gate code changed to 0852", "my cholesterol is down to 195".
#[rustfmt::skip]
pub(super) const BECAME: &[&[&str]] = &[
    &["went", "up", "to"], &["went", "down", "to"], &["is", "down", "to"], &["is", "up", "to"],
    &["has", "gone", "up", "to"], &["has", "gone", "down", "to"], &["changed", "to"],
    &["has", "changed", "to"], &["rose", "to"], &["has", "risen", "to"], &["dropped", "to"],
    &["has", "dropped", "to"], &["fell", "to"], &["increased", "to"], &["decreased", "to"],
    &["climbed", "to"], &["was", "raised", "to"], &["got", "raised", "to"],
    &["was", "increased", "to"], &["was", "changed", "to"], &["got", "changed", "to"],
    &["was", "cut", "to"], &["got", "cut", "to"], &["was", "lowered", "to"],
];

/// Units of one's weight: "I'm down to 76 kg" says what one weighs.
pub(super) const WEIGHT_UNITS: &[&str] =
    &["kg", "kgs", "kilos", "kilograms", "lbs", "lb", "pounds"];

/// Ranks at work, one at a time: "I'm a junior developer" / "… a senior developer"; a title
/// that gains one is another title ("Product Manager" / "Senior Product Manager").
pub(super) const WORK_RANKS: &[&str] = &[
    "intern",
    "trainee",
    "junior",
    "senior",
    "staff",
    "principal",
];

/// Words of one kind of which a person is one at a time: [`WORK_RANKS`], and years of study
/// ("a sophomore in college" / "a junior …"; a word may be of two kinds).
pub(super) const EXCLUSIVE: &[&[&str]] =
    &[WORK_RANKS, &["freshman", "sophomore", "junior", "senior"]];

/// Words only a newer statement adds ("now", "currently"): they say the value changed, and
/// are no part of it.
#[rustfmt::skip]
pub(super) const NOW: &[&str] = &[
    "now", "currently", "presently", "nowadays", "just", "recently", "actually",
];
pub(super) const ZH_NOW: &[&str] = &["现在", "目前", "如今", "已经", "最近", "其实", "实际上"];

/// Nouns that name one thing of their owner's: "my dentist is …", "User's car is …".
#[rustfmt::skip]
pub(super) const ONE_VALUE_NOUNS: &[&str] = &[
    "car", "phone", "laptop", "address", "email", "birthday", "age", "job", "employer", "company",
    "school", "university", "college", "major", "hometown", "rent", "salary", "mortgage",
    "height", "weight", "size", "timezone", "bedtime", "name", "nickname", "surname", "religion",
    "commute", "order", "instrument", "language", "tongue", "plan", "subscription", "title",
    "type", "zone", "sign", "username", "handle", "bike", "bicycle", "watch", "tv", "browser",
    "insurance", "insurer", "carrier", "provider", "isp", "pronouns", "currency", "prescription",
    "position", "pharmacy", "bank", "diet", "pace",
];

/// People one has one of, by their role: "my dentist is Dr. Patel" names them, but "my wife is
/// a teacher" / "… is from Brazil" says two things of one person, so the value must be a name.
#[rustfmt::skip]
pub(super) const ONE_PERSON_NOUNS: &[&str] = &[
    "dentist", "doctor", "gp", "vet", "boss", "manager", "landlord", "wife", "husband", "partner",
    "girlfriend", "boyfriend", "fiance", "fiancee", "lead", "advisor", "adviser", "supervisor",
    "therapist", "hairdresser", "barber", "cardiologist", "dermatologist", "pediatrician",
    "paediatrician", "physio", "physiotherapist", "mentor", "accountant", "lawyer", "attorney",
    "mechanic", "optometrist", "psychiatrist",
];

/// People one may have several of by their role alone, but one of for a thing ("my piano
/// teacher", "my personal trainer", "my Chinese tutor"; not "my teacher", "my tutor").
pub(super) const ONE_PERSON_FOR_A_THING: &[&str] =
    &["teacher", "instructor", "tutor", "coach", "trainer"];
/// What such a person is one's one for: an instrument, a subject, a sport, a class.
#[rustfmt::skip]
pub(super) const FOR_A_THING: &[&str] = &[
    "piano", "violin", "guitar", "cello", "drum", "drums", "voice", "singing", "music", "math",
    "maths", "english", "french", "spanish", "chinese", "mandarin", "german", "japanese",
    "italian", "korean", "art", "dance", "yoga", "swim", "swimming", "driving", "class", "form",
    "homeroom", "ballet", "tennis", "golf", "personal", "fitness", "pilates", "chess",
];
/// Titles a name may carry: "Dr. Patel", 黄教授, 赵总.
pub(super) const TITLES: &[&str] = &["dr", "mr", "mrs", "ms", "miss", "prof", "sir", "dame"];
pub(super) const ZH_TITLES: &[&str] = &[
    "总", "教授", "老师", "医生", "经理", "先生", "女士", "小姐", "主任", "律师", "师傅", "博士",
];

/// Words that make a preference or a habit one value: "favourite colour is …", "go-to order".
#[rustfmt::skip]
pub(super) const ONE_OF_A_KIND: &[&str] = &[
    "favourite", "favorite", "fave", "fav", "main", "usual", "primary", "preferred", "only",
    "current", "native", "mother", "go", "best",
];

/// Chinese before a value that holds one value at a time.
#[rustfmt::skip]
pub(super) const ZH_ONE_VALUE_BEFORE: &[&str] = &[
    "住在", "定居在", "定居于", "来自", "出生在", "出生于", "生于", "老家是", "老家在", "家乡是", "家在", "叫", "名叫", "名字是",
    "就职于", "任职于", "供职于", "开的是", "开的车是", "生日是", "生日在", "最常点", "最常喝", "最常吃", "最爱吃", "最爱喝", "最喜欢吃",
    "最喜欢喝", "姓",
];

/// Chinese after a value at 在: where someone works or studies (在腾讯工作).
#[rustfmt::skip]
pub(super) const ZH_AT_WORK: &[&str] = &[
    "工作", "上学", "读书", "念书", "任职", "实习", "读研", "读博", "读", "做", "住",
];
/// What one may do in many places at once (在图书馆做志愿者).
pub(super) const ZH_MANY_PLACES: &[&str] = &["志愿", "义工", "兼职"];

/// Chinese nouns that name one thing of their owner's (的 X 是 …).
#[rustfmt::skip]
pub(super) const ZH_ONE_VALUE_NOUNS: &[&str] = &[
    "车", "手机", "电话", "地址", "邮箱", "学校", "公司", "专业", "职位", "工作", "血型", "星座",
    "名字", "生日", "年龄", "房租", "工资", "月薪", "年薪", "身高", "体重", "母语", "会员", "套餐",
    "老家", "电脑", "笔记本", "航班", "网名", "昵称", "用户名", "微信名",
];
/// People one has one of (的 X 是 …): the value must be a name with its title (赵总, 黄教授);
/// "我老公是老师" / "我老公是东北人" say two things of one person.
#[rustfmt::skip]
pub(super) const ZH_ONE_PERSON_NOUNS: &[&str] = &[
    "老板", "上司", "领导", "医生", "牙医", "老公", "老婆", "丈夫", "妻子", "男朋友", "女朋友", "对象",
    "房东", "班主任", "导师",
];

/// Chinese rewritten before reading: a verb of change read as the relation it ends in
/// (搬到 X → 住在 X, 换成 X → 是 X), and 上班 as 工作.
pub(super) const ZH_REWRITES: &[(&str, &str)] = &[
    ("已搬到", "住在"),
    ("已搬至", "住在"),
    ("搬到了", "住在"),
    ("搬去了", "住在"),
    ("搬到", "住在"),
    ("搬去", "住在"),
    ("换成了", "是"),
    ("换成", "是"),
    ("改成了", "是"),
    ("改成", "是"),
    ("改到了", "在"),
    ("改到", "在"),
    ("上班", "工作"),
    ("改为", "是"),
    ("换为", "是"),
    ("升级到了", "是"),
    ("升级到", "是"),
    ("降到了", "是"),
    ("降到", "是"),
    ("涨到了", "是"),
    ("涨到", "是"),
    ("提高到了", "是"),
    ("提高到", "是"),
    ("降低到了", "是"),
    ("降低到", "是"),
    ("延到了", "是"),
    ("延到", "是"),
    ("推迟到了", "在"),
    ("推迟到", "在"),
    ("提前到了", "在"),
    ("提前到", "在"),
    ("搬至", "住在"),
    ("瘦到了", "体重"),
    ("瘦到", "体重"),
    ("胖到了", "体重"),
    ("胖到", "体重"),
    ("晋升为", "是"),
    ("升职为", "是"),
    ("升职成", "是"),
    ("升为", "是"),
];

/// Ranks of which one is one at a time, in Chinese (初级 / 高级工程师, 大一 / 大二); 升 before
/// one says one is it now (升高级工程师了).
pub(super) const ZH_EXCLUSIVE: &[&[&str]] = &[
    &["初级", "中级", "高级", "资深"],
    &["大一", "大二", "大三", "大四"],
    &["研一", "研二", "研三"],
    &["博一", "博二", "博三"],
    &["高一", "高二", "高三"],
    &["初一", "初二", "初三"],
];

/// 调到: to a place of work (调到上海工作, read as 在上海工作), else to a value (把目标体重调到
/// 55公斤, read as 是).
pub(super) const ZH_MOVED_TO: &str = "调到";

/// Verbs of change, read as the relation they end in: "moved to X" says where one lives,
/// "started a new job at X" where one works.
pub(super) const CHANGE_VERBS: &[(&[&str], &[&str])] = &[
    (&["moved", "to"], &["live", "in"]),
    (&["relocated", "to"], &["live", "in"]),
    (&["started", "a", "new", "job", "at"], &["work", "at"]),
    (&["started", "a", "job", "at"], &["work", "at"]),
    (&["started", "working", "at"], &["work", "at"]),
    (&["started", "working", "for"], &["work", "for"]),
    (&["started", "work", "at"], &["work", "at"]),
    (&["got", "a", "new", "job", "at"], &["work", "at"]),
    (&["got", "a", "job", "at"], &["work", "at"]),
    (&["took", "a", "new", "job", "at"], &["work", "at"]),
    (&["took", "a", "job", "at"], &["work", "at"]),
];
/// "I changed my X to Y": verbs that give a thing of one's a new value.
#[rustfmt::skip]
pub(super) const CHANGED_TO: &[&str] = &[
    "changed", "switched", "upgraded", "downgraded", "updated", "raised", "increased", "bumped",
    "cut", "lowered", "reduced", "renamed", "moved", "set", "revised",
];
/// 入职 X: where one works now (read as 在 X 工作).
pub(super) const ZH_JOINED: &[&str] = &["入职", "跳槽到", "跳槽去"];
/// When a change came, said with it, in Chinese (left out of the value).
#[rustfmt::skip]
pub(super) const ZH_CHANGE_TIMES: &[&str] = &[
    "上个月", "上个星期", "上星期", "上礼拜", "上周", "去年", "前年", "前几天", "前阵子", "前段时间",
    "今年", "昨天", "前天", "年初", "月初", "刚刚",
];
/// When a change came, said at its end in English ("… last month", "… two weeks ago").
pub(super) const WHEN_WORDS: &[&str] = &["yesterday", "today", "recently", "lately"];
#[rustfmt::skip]
pub(super) const WHEN_UNITS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "year", "years", "weekend", "night",
    "summer", "winter", "spring", "autumn", "fall", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday",
];
#[rustfmt::skip]
pub(super) const MONTHS: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
];
pub(super) const AGO_COUNTS: &[&str] = &[
    "a", "an", "one", "two", "three", "four", "five", "six", "few", "couple", "of", "several",
];

/// Words of a relation that holds many values, of an event that happens again, or of one
/// among several: a value there is one of many ("visited Paris in 2019" and "… in 2021").
#[rustfmt::skip]
pub(super) const MANY: &[&str] = &[
    "visit", "visited", "visiting", "went", "met", "saw", "seen", "bought", "ate", "watched", "ran",
    "read", "tried", "like", "likes", "love", "loves", "enjoy", "enjoys", "among", "include",
    "includes", "including", "used", "formerly", "previously", "worked", "lived", "studied",
    "attended", "weekends", "weekend", "part", "side", "allergic", "collect", "collects",
    "collecting", "hired", "hire",
    "paid", "spent", "pay", "spend",
    "tomorrow", "tonight", "today", "yesterday",
];
#[rustfmt::skip]
pub(super) const ZH_MANY: &[&str] = &[
    "去过", "去了", "见过", "看过", "吃过", "买过", "买了", "喜欢", "爱", "之一", "以前", "曾经", "之前", "过", "过敏", "收藏",
    "来了",
    "明天", "今天", "今晚", "昨天", "后天", "明早", "明晚", "下周", "这周", "本周",
];
/// Words that add a value to one held ("also", 也): in the newer statement only.
pub(super) const ADDED: &[&str] = &["also", "too", "another", "second", "other"];
pub(super) const ZH_ADDED: &[&str] = &["也", "还", "另"];
/// People and animals one has one of: a fact about one of these is about that one. Anyone
/// else (a sister, a friend, a roommate, a client, a cat — kin and animals are read from the
/// identity tables, and the words below) may be one of several: "User's sister lives in
/// Boston" then "… in Denver" may be two sisters, unless a name or "only", "eldest" says which.
#[rustfmt::skip]
pub(super) const ONE_OF: &[&str] = &[
    "wife", "husband", "spouse", "partner", "girlfriend", "boyfriend", "fiance", "fiancee",
    "mother", "mom", "mum", "mommy", "mummy", "father", "dad", "daddy", "parents", "boss",
    "manager", "landlord", "landlady", "dentist", "doctor", "gp", "vet", "therapist",
];
/// People not in the kin tables one may have several of.
#[rustfmt::skip]
pub(super) const OTHERS: &[&str] = &[
    "housemate", "flatmate", "roommate", "buddy", "sitter", "host", "ta", "tutor", "coach", "hire",
    "intern", "trainer", "nanny", "babysitter", "student", "teacher", "professor", "instructor",
    "client", "customer", "patient", "guest", "contractor", "pet", "kid", "kids", "children",
    "sisters", "brothers", "sons", "daughters", "friends", "coworker", "neighbor", "classmate",
    "teammate", "colleague", "pal", "bestie",
    "plant", "plants", "houseplant", "houseplants",
];
#[rustfmt::skip]
pub(super) const ZH_ONE_OF: &[&str] = &[
    "男朋友", "女朋友", "老公", "老婆", "丈夫", "妻子", "对象", "爱人", "妈妈", "爸爸", "父母", "爸妈", "母亲", "父亲", "老板",
    "领导", "上司", "房东", "妈", "爸",
    // one's father's parents and one's mother's: one person each, as "grandma" is not
    "奶奶", "爷爷", "外婆", "外公", "姥姥", "姥爷",
];
#[rustfmt::skip]
pub(super) const ZH_OTHERS: &[&str] = &[
    "姐", "哥", "妹", "弟", "儿子", "女儿", "孩子", "朋友", "同事", "邻居", "表", "堂", "侄", "外甥", "孙", "姑", "姨", "舅",
    "叔", "伯", "闺蜜", "室友", "舍友", "同学", "老师", "客户", "实习生", "猫", "狗",
    "宠物", "鸟", "鱼", "兔", "保安", "司机", "保姆", "教练", "助理", "秘书", "快递员", "病人", "学生", "徒弟",
];
/// Characters that go on with a fact after a name (朵朵今年, 旺财是, 豆豆在, 乐乐上): a name
/// right after a word for someone one may have several of ends before them.
pub(super) const ZH_AFTER_A_NAME: &str =
    "今是在上已现的叫有住每去喜最也还了读念考学工和跟很都刚又要会能说身体重总们早晚中下";

/// What says which one of several relatives: "only", "eldest"; 大, 小 (我大女儿).
#[rustfmt::skip]
pub(super) const WHICH: &[&str] = &[
    "only", "eldest", "oldest", "youngest", "younger", "older", "elder", "best",
];
/// Owning or keeping: "has a dog named Luna" then "… named Max" may be a second dog.
pub(super) const OWNS: &[&str] = &["has", "have", "had", "got", "owns", "own", "adopted"];
pub(super) const ZH_OWNS: &[&str] = &["有", "养"];

/// Words of a number ("two cats", "twice a week", "third year").
#[rustfmt::skip]
pub(super) const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "once",
    "twice", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "half", "dozen",
];
/// Days and months: a date, which a relation of events may have many of.
#[rustfmt::skip]
pub(super) const DAYS: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mondays",
    "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays", "january", "february",
    "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december", "weekday", "weekdays",
];
/// When a value holds, after "on", "in", "during" in it ("on weeknights", "in the summer"):
/// another value under another condition is no change.
#[rustfmt::skip]
pub(super) const CONDITIONS: &[&str] = &[
    "weeknight", "weeknights", "weekend", "weekends", "winter", "winters", "summer", "summers",
    "spring", "autumn", "fall", "morning", "mornings", "evening", "evenings", "night", "nights",
    "holiday", "holidays", "term", "semester", "vacation",
];
pub(super) const ZH_CONDITIONS: &[&str] = &[
    "冬天",
    "夏天",
    "春天",
    "秋天",
    "周末",
    "工作日",
    "平时",
    "假期",
    "寒假",
    "暑假",
    "节假日",
];

/// Words before a date that make it the one date of something: "is on Tuesday", "meets on".
pub(super) const ONE_DATE_BEFORE: &[&[&str]] = &[
    &["is", "on"],
    &["are", "on"],
    &["is", "in"],
    &["meet", "on"],
    &["is"],
];

/// Nouns a number after labels rather than counts: "fact 1", "chapter 3", "version 2".
#[rustfmt::skip]
pub(super) const LABELS: &[&str] = &[
    "fact", "item", "note", "step", "chapter", "part", "no", "number", "version", "v", "level",
    "season", "episode", "page", "line", "test", "task", "question", "point", "rule", "option",
    "case", "figure", "table", "section", "phase", "round", "stage", "lesson", "unit", "week",
    "day", "model", "gen", "generation", "series", "mark",
];

/// What opens a correction ("Correction: …", 打错了，…): no part of the fact.
pub(super) const CORRECTIONS: &[&str] = &["correction", "sorry", "actually", "update", "oops"];
pub(super) const ZH_CORRECTIONS: &[&str] = &["打错了", "说错了", "更正一下", "更正", "纠正一下"];
