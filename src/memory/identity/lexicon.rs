//! The word tables behind fact identity, English and Chinese, as text: `key, key => tokens;`
//! (a line starting with `//` is a comment). An entry maps words or phrases to what they mean
//! for identity, written as space-separated tokens:
//!
//! - a plain word: the canonical term (synonyms share one: "resides", "is based" → `live`);
//! - `~x`: a light verb (have, take, make): no difference unless another word stands in
//!   its place;
//! - `-`: nothing (filler: "works as" in "works as a nurse");
//! - `!`: a negation, which binds to the next content term ("dislikes" → `! like`);
//! - `@x`: a marker that changes the relation (`@past` "used to", `@want` "plans to",
//!   `@learn`, `@teach`, `@start`, `@rarely`): one side having it and not the other is
//!   another fact; `@<x` binds to the word before it (X附近);
//! - `#n`: a number, `%x` a date word (weekday, month, "next year"): they must agree;
//! - `^x`: a named entity (Chinese has no capitals to tell them by);
//! - `<from`, `<than`: a role marker, so "tea over coffee" is not "coffee over tea".
//!
//! English keys are matched by stem (`rust-stemmers`), so one entry covers "likes", "liked",
//! "liking". Chinese keys are matched longest first over the characters.

/// English phrases (several words), matched before single words.
pub const EN_PHRASES: &str = "
no longer, not any more, gave up, give up => !;
can not stand, can not bear, can not handle => ! like;
least favourite, least favorite => ! favourite; used to => @past;
grew up in, grow up in, raised in => @past live;
would like to, would love to, going to, thinking about, thinking of, looking forward to => @want;
would like, big fan of, huge fan of, fan of, fond of, keen on, in love with, is into, are into,
    really into => like;
know how to, knows how to, works as, work as, employed as, for a living, by profession,
    year old, years old => -; a bit, a little bit => @little; a lot of, lots of, plenty of => much;
take class, take lesson, take course => @learn; from home => home;
based in, based out of, home is in => live;
mother tongue, first language, native speaker => native speak;
software engineer => software developer; best friend, close friend => friend;
little bit => little; check in => checkin; check out => checkout; move in => movein;
move out => moveout; time zone => timezone; night owl, stay up late, go to bed late => sleep late;
early riser, early bird, morning person, get up early, wake up early => wake early;
self employed, own business => selfemployed; married to => spouse; only child => ! sibling;
in law => inlaw; step son => stepson; step daughter => stepdaughter;
step mother, step mom => stepmother; step father, step dad => stepfather;
great grandmother, great grandma, great granny => great_grandmother;
great grandfather, great grandpa => great_grandfather;
great grandchild, great grandchildren, great grandkid, great grandkids, great grandson,
    great grandsons, great granddaughter, great granddaughters => great_grandchild;
great aunt => great_aunt; great uncle => great_uncle; short sighted => nearsighted;
long sighted => farsighted;
step brother => stepbrother; step sister => stepsister; half brother => halfbrother;
half sister => halfsister; significant other => partner; suffer from => ~have;
been to => visit; rent out, let out => @let; close to, next to, next door => @near; passed away => @dead; ice cream => icecream;
hot dog => hotdog; root beer => rootbeer; ginger beer => gingerbeer;
sweet potato => sweetpotato; prairie dog => prairiedog; air guitar => airguitar;
fire truck, fire engine => firetruck; bell pepper => bellpepper; martial art => martialart;
crab apple => crabapple; cheese cake => cheesecake; sea food => seafood; guinea pig => guineapig; sea lion => sealion; polar bear => polarbear;
per cent => percent; the last => #last; new york city => nyc; san francisco => sf; washington dc => dc; united kingdom => uk; united nations => un; european union => eu;
massachusetts institute of technology => mit; user experience => ux;
rural area => countryside; station wagon, estate car => stationwagon;
the underground => subway;
pay rise, pay raise => raise; cell phone, mobile phone => phone;
email address, e mail address, e mail => email;
sea horse => seahorse; hip hop => hiphop; table tennis => pingpong; part time => parttime; full time => fulltime;
next year => %year+1; last year => %year-1; this year => %year0; this month => %month+0;
next month => %month+1; last month => %month-1; this week => %week+0; next week => %week+1;
last week => %week-1;
";

/// English words: synonyms onto one canonical term, and words that mark negation, relation,
/// numbers or dates.
pub const EN_WORDS: &str = "
// liking and its opposite
like, enjoy, love, adore, prefer, preference, keen, avid, enthusiastic => like;
// British and American words for one thing
holiday, vacation => vacation; complete, finish => finish;
dislike, hate, detest, loathe, despise => ! like; favourite, favorite, fave => favourite;
// negation and frequency that changes the fact
not, no, never, none, nobody, nothing, neither, nor, without, least, quit, stop => !;
rarely, seldom, hardly, occasionally, sometimes => @rarely;
// relation markers
former, formerly, previously, ex, retired => @past; learn, study, major => @learn; student => @learn student;
teach, taught => @teach;
// a teacher is one who teaches, and one profession of several: is a teacher, is a lawyer
teacher => @teach teacher; tutor => @teach tutor; instructor => @teach instructor;
lecturer => @teach lecturer;
start, begin, began, begun => @start; near, nearby, outside => @near;
died, dead, deceased => @dead; fake, faux, imitation, replica, counterfeit, toy, virtual,
artificial, fictional, decaf, decaffeinated => @fake; non => !; watch => @watch; each => every; except => !; few, couple => #few; beneath, underneath => under; bucks, buck, usd => dollar;
kilogram, kilograms, kilo, kilos, kgs => kg; kilometer, kilometers, kilometre, kilometres, kms => km;
centimeter, centimeters, centimetre, centimetres => cm; milligram, milligrams => mg; inch, inches => inch; milliliter, milliliters, millilitre, millilitres => ml;
feet, foot => ft; cellphone => phone; couch => sofa; jobless => unemployed;
nearsighted, shortsighted, myopic => nearsighted; farsighted, longsighted => farsighted; cilantro => coriander; lbs => lb; miles => mile; eur, euros => euro; gbp, quid => pound;
rmb, cny, renminbi => yuan; jpy => yen; inr, rupees => rupee; passionate, favour, favor => like; daily => day;
weekly => week; monthly => month; yearly, annually, annual => year;
maybe, might, soon => @want; almost, nearly => @almost; or => @or;
slightly, somewhat, mildly => @little;
// places and what one does there
live, reside, resident, located => live; work, job, employed, employer => work;
remote, remotely => home; move, relocate => move; visit, travel, trip => visit;
born, birthday => born;
// having, naming, buying
have, has, had, own, owner, possess => ~have; go, went, gone => ~go; get, got => ~get;
make, made => ~make; take, took, taken => ~take; use, used => ~use; keep, kept => ~keep;
assistant, deputy, vice, acting, interim => @deputy;
aspiring, wannabe, future => @want; rent, lease => @rent; film => movie;
occupation, profession, ride, rode => -; commute => work;
name, named, called, nicknamed => name; buy, bought, purchase => buy; sell, sold => sell;
lend, lent, loan => lend; borrow => borrow; give, gave => give; receive => receive;
speak, spoke, fluent, fluently, language, speaker => speak; non, anti => !;
hubby => husband; wifey, missus => wife; attorney => lawyer;
teetotal, teetotaler => ! drink alcohol; vegetarian => ! eat meat;
freelance, freelancer => selfemployed;
fear, afraid, scared, terrified, frightened, phobia => fear; reply, response => answer;
concise, brief, succinct => short; lengthy, verbose => long; player => play;
guitarist => play guitar; pianist => play piano; drummer => play drums;
violinist => play violin; cellist => play cello; runner => run; swimmer => swim;
hiker => hike; allergy, allergic => allergic; cuisine => food;
married, marriage, wed => married;
// people (kin and other subjects)
kid, child, children => child; mom, mum, mama, mommy => mother; dad, papa, daddy => father;
gf => girlfriend; bf => boyfriend; fiancee => fiance; grandma, granny => grandmother;
grandpa => grandfather; grandkid, grandchildren => grandchild; buddy, pal => friend;
manager, supervisor => boss; coworker => colleague; neighbor => neighbour;
flatmate, housemate => roommate; landlady => landlord;
// things said two ways
puppy, doggy => dog; kitten, kitty => cat; bicycle, cycle, cycling, cyclist => bike;
automobile, drive, drove, driving => car; jog, jogging, ran, running => run;
swimming, swam => swim; hiking, trekking, trek => hike; programmer, coder => developer;
physician => doctor; gray => grey; color => colour; fall => autumn;
drank => drink; ate => eat;
// numbers
one, once => #1?; two, twice, second => #2; three, thrice, third => #3; four, fourth => #4;
five, fifth => #5; six, sixth => #6; seven, seventh => #7; eight, eighth => #8;
nine, ninth => #9; ten, tenth => #10; eleven => #11; twelve, dozen => #12; thirteen => #13;
fourteen => #14; fifteen => #15; sixteen => #16; seventeen => #17; eighteen => #18;
nineteen => #19; twenty => #20; thirty => #30; forty => #40; fifty => #50; sixty => #60;
seventy => #70; eighty => #80; ninety => #90; hundred => #100; thousand => #1000;
million => #1000000; half => #0.5; quarter => #0.25; first => #1;
// noon and midnight are clock times, as 12pm and 12am are read: lunch at noon / at 1 pm
noon, midday => #12; midnight => #0;
// an amount against a number: the whole bill / half the bill
whole, entire => #whole;
// dates
monday => %weekday1; tuesday => %weekday2; wednesday => %weekday3; thursday => %weekday4;
friday => %weekday5; saturday => %weekday6; sunday => %weekday7; january => %month1;
february => %month2; march => %month3; april => %month4; june => %month6; july => %month7;
august => %month8; september => %month9; october => %month10; november => %month11;
december => %month12; yesterday => %day-1; today => %day0; tomorrow => %day+1;
tonight => %day0 night;
";

/// English words that say nothing about which fact it is: articles, pronouns, auxiliaries,
/// intensifiers and "usually"-like adverbs (`text`'s stop words are dropped too).
pub const EN_STOP: &str = "
user, users, the, a, an, also, any, per, been, being, who, whom, whose,
very, really, quite, extremely, truly, absolutely, definitely, totally, highly, deeply,
especially, usually, often, always, generally, typically, normally, regularly, currently,
now, mostly, mainly, actually, mine, one's, than, over, rather, instead, from, to,
anymore, these, those, around, about, approximately, roughly, lot, lots,
sort, thing, things, time, times, aged, age, become, becomes, became, becoming, m, s,
come, comes, came, originally, hails, hail
";

/// Words naming another person a fact can be about: "User's wife's birthday" is not
/// "User's birthday". Canonical terms.
pub const KIN: &str = "
wife, husband, spouse, partner, girlfriend, boyfriend, fiance, sister, brother, sibling,
mother, father, parent, parents, son, daughter, child, baby, grandmother, grandfather,
grandparent, grandparents, grandson, granddaughter, grandchild, aunt, uncle, cousin, nephew,
niece, friend, boss, colleague, neighbour, roommate, family, landlord, tenant, mentor,
teammate, classmate, client, stepson, stepdaughter, stepmother, stepfather, elder_brother,
younger_brother, elder_sister, younger_sister, maternal_grandfather, maternal_grandmother,
paternal_uncle, maternal_uncle, paternal_aunt, maternal_aunt, others, inlaw, stepbrother,
stepsister, halfbrother, halfsister,
father_in_law, mother_in_law, elder_male_cousin, elder_female_cousin, younger_male_cousin,
younger_female_cousin, elder_male_paternal_cousin, elder_female_paternal_cousin,
younger_male_paternal_cousin, younger_female_paternal_cousin, godmother, godfather,
great_grandmother, great_grandfather, elder_paternal_uncle, younger_paternal_uncle,
great_grandchild, great_aunt, great_uncle, maternal_grandson, maternal_granddaughter
";

/// A kin word and the more precise ones it covers: "spouse" may be the wife, so the two do not
/// prove another person.
pub const KIN_COVERS: &str = "
spouse: wife, husband;
partner: wife, husband, spouse, girlfriend, boyfriend, fiance;
sibling: sister, brother, elder_sister, younger_sister, elder_brother, younger_brother;
sister: elder_sister, younger_sister;
brother: elder_brother, younger_brother;
parents: mother, father;
parent: mother, father;
child: son, daughter, baby;
grandparent: grandmother, grandfather, maternal_grandmother, maternal_grandfather;
grandchild: grandson, granddaughter, maternal_grandson, maternal_granddaughter;
friend: boyfriend, girlfriend;
cousin: elder_male_cousin, elder_female_cousin, younger_male_cousin, younger_female_cousin,
    elder_male_paternal_cousin, elder_female_paternal_cousin, younger_male_paternal_cousin,
    younger_female_paternal_cousin;
";

/// Words that fill the same slot: two different ones are two different facts ("dog" / "cat",
/// "cello" / "violin", "morning" / "evening", "moved to" / "visited"). Canonical terms.
pub const CATEGORIES: &str = "
animal: dog, cat, rabbit, bunny, hamster, parrot, bird, fish, turtle, tortoise, horse,
    snake, lizard, pig, ferret, mouse, rat, chicken, cow, goat, sheep, budgie, canary,
    gecko, frog, pony, panda, bear, polarbear, dolphin, whale, shark, crocodile, alligator,
    penguin, zebra, hippo, owl, squirrel, kangaroo, lion, tiger, elephant, monkey, wolf, fox,
    duck, seahorse, sealion, guineapig, deer, octopus, prairiedog, dinosaur, crab;
instrument: piano, guitar, violin, cello, viola, bass, drum, drums, flute, clarinet,
    saxophon, saxophone, sax, trumpet, trombone, harp, ukulele, banjo, keyboard, synth,
    harmonica, accordion, oboe, erhu, guzheng, pipa;
colour: red, blue, green, yellow, black, white, purple, pink, orange, grey, brown, beige,
    teal, navy, gold, silver, violet;
drink: tea, coffee, espresso, latte, cappuccino, milk, juice, water, beer, wine, whisky,
    whiskey, cola, soda, kombucha, matcha, chai, alcohol, cocoa, lemonade, sake, vodka, gin,
    rum, cider, milktea, rootbeer, gingerbeer;
food: apple, banana, orange, mango, papaya, pear, peach, grape, strawberry, cherry, plum,
    kiwi, pineapple, watermelon, melon, lemon, lime, blueberry, raspberry, durian, pizza,
    sushi, pasta, burger, ramen, curry, taco, steak, salad, soup, rice, noodle, noodles,
    bread, cheese, chocolate, icecream, cheesecake, tiramisu, cake, pie, oatmeal, cereal,
    dumpling, dumplings, hotpot, peanut, shellfish, seafood, gluten, dairy, lactose, nut,
    egg, soy, wheat, beef, pork, lamb, meat, tofu, cilantro, garlic, onion, mushroom,
    tomato, potato, sugar, honey, hotdog, sweetpotato, bellpepper, crabapple, applepie, fruit,
    tangyuan, penicillin, pollen, latex, bee, spicy;
meal: breakfast, brunch, lunch, dinner, supper, snack;
currency: dollar, euro, pound, yuan, yen, rupee, franc, peso, rubl, rouble, krona, krone;
daytime: morning, afternoon, evening, night, noon, midnight, dawn, dusk, weekend, weekday,
    workday;
meridiem: am, pm;
season: spring, summer, autumn, winter;
transport: car, bike, bus, train, tram, subway, metro, tube, taxi, uber, scooter, motorbike,
    motorcycle, plane, ferry, boat, walk, foot;
sport: tennis, football, basketball, baseball, volleyball, badminton, golf, rugby, hockey,
    cricket, swim, run, yoga, pilates, climb, boxing, karate, judo, chess, ski, surf, hike,
    gym, pingpong, squash, skate, dance;
genre: jazz, rock, pop, techno, classical, metal, hiphop, rap, blues, country, folk, punk,
    reggae, house, opera, kpop, edm, soul, funk;
profession: nurse, midwife, doctor, surgeon, dentist, professor, engineer, developer,
    designer, architect, lawyer, accountant, chef, cook, pilot, pharmacist, journalist,
    writer, electrician, plumber, carpenter, firefighter, police, officer, driver,
    scientist, researcher, analyst, consultant, therapist, vet, veterinarian, baker, farmer,
    artist, musician, photographer, cashier, waiter, barista, librarian, paramedic, teacher,
    tutor, instructor, lecturer, student;
software: linux, windows, macos, mac, ubuntu, debian, fedora, android, ios, vim, neovim,
    emacs, vscode, intellij, nano, sublime, python, rust, java, javascript, typescript,
    kotlin, haskell, ruby, php, scala, elixir, golang, iphone, pixel;
language: english, french, german, spanish, italian, portuguese, dutch, chinese, mandarin,
    cantonese, japanese, korean, russian, arabic, hindi, polish, swedish, greek, turkish;
place_relation: live, move, visit, born, work;
direction: north, south, east, west, left, right, top, bottom, upstairs, downstairs, front,
    back, inside, outside, opposite, aisle, window, under, above, below, behind, beside;
size: big, large, small, tiny, huge, little;
temperature: hot, warm, cold, cool, iced;
speed: fast, slow, quick;
timing: early, late, earlier, later, before, after, next, last;
height: tall, short, taller, shorter;
length: long, short, longer, shorter;
age: older, younger, elder, new, young, old;
price: cheap, expensive;
difficulty: easy, hard, difficult;
taste: sweet, sour, salty, bitter, mild, savory, savoury;
quality: good, bad, best, worst, better, worse;
schedule: parttime, fulltime;
quantity: many, few, several, all, both, most, much, some, every, each;
degree: more, less, fewer, most, least;
period: hour, day, week, month, year, minute, decade;
brightness: dark, light, bright, dim;
setting: indoor, indoors, outdoor, outdoors;
have_or_like: have, like;
marital: married, divorced, engaged, single, widowed, separated;
remember_forget: remember, forget;
pass_fail: pass, fail;
win_lose: win, lose, lost;
accept_refuse: accept, agree, refuse, reject, decline;
attend_skip: attend, skip, miss;
eat_skip: eat, skip;
allow_forbid: allow, forbid, ban, permit;
arrive_leave: arrive, leave, join, quit;
like_dread: like, dread, fear;
allergic_immune: allergic, immune, tolerant;
open_close: open, close, closed;
have_or_sell: have, buy, sell, lend, borrow, give, receive, return;
study_subject: chemistry, physics, biology, math, maths, mathematics, history, economics,
    law, medicine, philosophy, literature, psychology, geography;
";

/// Chinese words and phrases, matched longest first. Characters not listed stand for
/// themselves.
pub const ZH: &str = "
用户 => -;
// negation, and words that only look like it
不, 没, 没有, 无, 未, 别, 非, 从不, 从来不, 不再, 再也不, 戒, 戒掉 => !; 不过敏 => ! allergic; 不要 => !; 不错 => good;
不过, 不少, 不断, 不仅, 不得不, 无论, 非常, 没关系, 特别 => -; 别人 => others; 未来 => future; 无聊 => bored;
// liking
喜欢, 喜爱, 爱, 热爱, 钟爱, 偏爱, 偏好, 更喜欢, 宁愿, 希望 => like; 爱好 => hobby; 爱人 => spouse; 可爱 => cute;
恋爱 => dating; 讨厌, 厌恶, 反感, 受不了 => ! like; 最喜欢, 最爱 => favourite; 最不喜欢 => ! favourite;
// relation markers
以前, 退休, 之前, 曾经, 过去, 原来, 从前 => @past; 去世, 过世 => @dead; 附近, 旁边, 郊区 => @<near; 有, 养 => ~have;
有些, 所有, 还有 => -; 有点, 有一点, 有点儿, 稍微, 稍稍, 略微 => @little; 天, 每天 => day; 周, 每周 => week; 每月, 月 => month; 每年, 年 => year;
副, 代理, 助理 => @deputy; 前任 => @past; 前老板, 前上司, 前领导, 前经理 => @past boss;
前同事 => @past colleague; 前室友 => @past roommate; 前邻居 => @past neighbour; 或者, 或 => @or; 或许 => @want;
下个, 下一个 => @next; 上个, 上一个 => @prev; 搬出, 搬走, 搬离 => moveout; 搬进, 搬入 => movein; 实习 => @learn; 候补 => @want;
长大 => @past live; 想, 想要, 打算, 计划, 准备 => @want; 学, 学习, 学生, 考, 备考 => @learn; 租 => @rent;
考虑 => @want; 出租 => @let; 教, 老师, 教师 => @teach; 开始 => @start; 偶尔, 有时, 有时候, 很少 => @rarely; 大学 => university;
学校 => school; 数学 => math; 化学 => chemistry; 物理 => physics;
// places and work
住, 住在, 居住, 现居, 定居, 家住, 生活在 => live; 工作, 上班, 任职, 就职, 供职, 办公 => work; 从事, 职业, 来自 => -;
远程, 在家, 家里 => home; 搬, 搬到, 搬去, 搬家 => move; 去过, 到过, 游览, 参观, 旅游, 旅行 => visit;
出生, 生于, 生日 => born; 过敏 => allergic; 结婚, 已婚 => married; 名叫, 叫, 叫做, 名字, 名为, 取名, 起名 => name;
买 => buy; 卖 => sell; 借给 => lend; 借 => borrow; 说, 讲 => speak; 弹, 拉, 玩, 打, 踢 => play;
// people
妻子, 老婆, 太太, 媳妇, 夫人 => wife; 先生, 丈夫, 老公 => husband; 闺女, 女儿 => daughter; 老伴, 配偶 => spouse;
岳父, 公公 => father_in_law; 岳母, 丈母娘, 婆婆 => mother_in_law;
伴侣 => partner; 男朋友, 男友 => boyfriend; 女朋友, 女友 => girlfriend; 妈妈, 母亲, 妈, 老妈 => mother;
爸爸, 父亲, 爸, 老爸 => father; 父母, 爸妈 => parents; 儿子 => son; 孩子, 小孩, 子女 => child; 宝宝, 婴儿 => baby;
孙子 => grandson; 外孙 => maternal_grandson; 孙女 => granddaughter; 外孙女 => maternal_granddaughter; 孙辈, 孙子女 => grandchild; 侄子, 外甥 => nephew;
侄女, 外甥女 => niece; 继父 => stepfather; 继母, 后妈 => stepmother; 继子 => stepson; 继女 => stepdaughter;
哥哥, 哥 => elder_brother; 弟弟 => younger_brother; 姐姐, 姐 => elder_sister; 妹妹, 妹 => younger_sister;
兄弟 => brother; 兄弟姐妹 => sibling; 独生子, 独生女 => ! sibling; 姐妹 => sister; 爷爷, 祖父 => grandfather;
太奶奶, 曾祖母, 太姥姥 => great_grandmother; 太爷爷, 曾祖父, 太姥爷 => great_grandfather; 奶奶, 祖母 => grandmother; 外公, 姥爷 => maternal_grandfather; 外婆, 姥姥 => maternal_grandmother;
伯伯, 伯父, 大伯 => elder_paternal_uncle; 叔叔, 叔父 => younger_paternal_uncle; 舅舅 => maternal_uncle; 姑姑 => paternal_aunt; 阿姨 => maternal_aunt;
朋友, 好友, 好朋友 => friend; 同事 => colleague; 老板, 上司, 领导, 经理 => boss; 室友 => roommate;
邻居 => neighbour; 家人 => family; 同学 => classmate;
// animals
猫, 猫咪, 小猫 => cat; 狗, 狗狗, 小狗 => dog; 兔, 兔子 => rabbit; 仓鼠 => hamster; 鹦鹉 => parrot;
鱼, 金鱼 => fish; 乌龟 => turtle; 鸟 => bird; 蛇 => snake; 熊猫, 大熊猫 => panda; 熊, 狗熊 => bear;
北极熊 => polarbear; 海豚 => dolphin; 鲸, 鲸鱼 => whale; 鲨鱼 => shark; 鳄鱼 => crocodile; 企鹅 => penguin;
斑马 => zebra; 河马 => hippo; 海马 => seahorse; 马 => horse; 猫头鹰 => owl; 松鼠 => squirrel;
袋鼠 => kangaroo; 老鼠, 鼠 => mouse; 狮子 => lion; 老虎, 虎 => tiger; 大象 => elephant; 猴子, 猴 => monkey;
狼 => wolf; 狐狸 => fox; 鸭子, 鸭 => duck; 海狮 => sealion; 豚鼠 => guineapig; 鹿 => deer; 章鱼 => octopus;
鸡 => chicken; 牛 => cow; 羊 => sheep; 猪 => pig; 热狗 => hotdog; 鼠标 => computermouse;
// places: one name, not its characters (上海 is not 海, 东京都 not 京都)
北京 => ^beijing; 上海 => ^shanghai; 广州 => ^guangzhou; 深圳 => ^shenzhen; 杭州 => ^hangzhou;
南京 => ^nanjing; 成都 => ^chengdu; 重庆 => ^chongqing; 天津 => ^tianjin; 武汉 => ^wuhan; 西安 => ^xian;
苏州 => ^suzhou; 厦门 => ^xiamen; 青岛 => ^qingdao; 大连 => ^dalian; 长沙 => ^changsha; 郑州 => ^zhengzhou;
沈阳 => ^shenyang; 哈尔滨 => ^harbin; 昆明 => ^kunming; 香港 => ^hongkong; 澳门 => ^macau; 台北 => ^taipei;
东京, 东京都 => ^tokyo; 京都 => ^kyoto; 大阪 => ^osaka; 首尔 => ^seoul; 纽约 => ^newyork; 伦敦 => ^london;
巴黎 => ^paris; 柏林 => ^berlin; 新加坡 => ^singapore; 悉尼 => ^sydney; 洛杉矶 => ^losangeles;
旧金山 => ^sanfrancisco; 温哥华 => ^vancouver; 多伦多 => ^toronto; 广东 => ^guangdong; 浙江 => ^zhejiang;
江苏 => ^jiangsu; 山东 => ^shandong; 福建 => ^fujian; 云南 => ^yunnan; 海南 => ^hainan;
// universities and academies, by the short names everyone uses (北大 is 北京大学)
北京大学, 北大 => ^pku; 清华大学, 清华 => ^tsinghua; 复旦大学, 复旦 => ^fudan; 浙江大学, 浙大 => ^zju;
南京大学, 南大 => ^nju; 上海交通大学, 上海交大, 上交 => ^sjtu; 北京师范大学, 北师大 => ^bnu;
中国科学技术大学, 中科大 => ^ustc; 中国科学院, 中科院 => ^cas; 武汉大学, 武大 => ^whu;
哈尔滨工业大学, 哈工大 => ^hit; 香港大学, 港大 => ^hku; 香港中文大学, 港中文 => ^cuhk;
中国人民大学 => ^ruc; 中山大学 => ^sysu; 南开大学, 南开 => ^nankai; 同济大学, 同济 => ^tongji;
// studying for a degree
读研, 读研究生, 研究生, 考研 => @learn graduate; 读博, 读博士, 博士生 => @learn doctorate;
// instruments
钢琴 => piano; 吉他 => guitar; 小提琴 => violin; 中提琴 => viola; 大提琴 => cello; 鼓, 架子鼓 => drums;
长笛 => flute; 萨克斯 => saxophone; 二胡 => erhu; 古筝 => guzheng; 琵琶 => pipa; 尤克里里 => ukulele;
// sport
跑步, 跑 => run; 晨跑 => morning run; 游泳 => swim; 篮球 => basketball; 足球 => football; 网球 => tennis;
羽毛球 => badminton; 乒乓球 => pingpong; 排球 => volleyball; 瑜伽 => yoga; 爬山, 登山, 徒步 => hike;
健身, 健身房 => gym; 滑雪 => ski; 冲浪 => surf; 拳击 => boxing; 高尔夫 => golf;
// transport
自行车, 单车, 骑车 => bike; 地铁 => subway; 公交, 公交车, 巴士 => bus; 火车, 高铁, 动车 => train;
开车, 汽车, 车 => car; 打车, 出租车 => taxi; 飞机 => plane; 走路, 步行 => walk; 骑, 坐, 乘 => -;
// colours and directions
颜色 => colour; 红 => red; 绿 => green; 蓝 => blue; 黄 => yellow; 黑 => black; 白 => white;
紫 => purple; 橘, 橘色 => orange; 粉 => pink; 灰 => grey; 橙 => orange; 棕, 咖啡色 => brown; 色, 明白, 大家, 大约, 大概 => -;
金色 => gold; 银色 => silver; 白天 => daytime; 东 => east; 南 => south; 西 => west; 北 => north;
左 => left; 右 => right; 东西 => thing; 左撇子 => lefthanded; 大 => big; 小 => small; 小时 => hour;
小区 => neighbourhood;
// times of day, seasons, meals, dates
早上, 早晨, 清晨, 上午 => morning; 中午 => noon; 下午 => afternoon; 傍晚, 晚上 => evening;
夜里, 夜间, 夜晚, 半夜, 深夜, 凌晨 => night; 早餐, 早饭 => breakfast; 午餐, 午饭 => lunch; 晚餐, 晚饭 => dinner;
春天, 春季 => spring; 夏天, 夏季 => summer; 秋天, 秋季 => autumn; 冬天, 冬季 => winter; 周末 => weekend;
工作日 => weekday; 今年 => %year0; 明年 => %year+1; 去年 => %year-1; 前年 => %year-2; 后年 => %year+2;
今天 => %day0; 明天 => %day+1; 昨天 => %day-1; 这个月, 本月 => %month+0; 下个月 => %month+1;
上个月 => %month-1; 这周, 本周, 这个星期 => %week+0; 下周, 下个星期 => %week+1; 上周, 上个星期 => %week-1;
除外, 除了 => !; 还了, 归还 => return;
// food and drink
苹果 => apple; 香蕉 => banana; 橙子 => orange; 葡萄 => grape; 西瓜 => watermelon; 草莓 => strawberry;
芒果 => mango; 梨 => pear; 桃子 => peach; 樱桃 => cherry; 柠檬 => lemon; 菠萝 => pineapple;
榴莲 => durian; 香菜, 芫荽 => cilantro; 西红柿, 番茄 => tomato; 辣 => spicy; 海鲜 => seafood; 花生 => peanut; 肉 => meat;
牛肉 => beef; 猪肉 => pork; 鸡肉 => chicken; 羊肉 => lamb; 米饭 => rice; 面条 => noodles;
饺子 => dumplings; 火锅 => hotpot; 寿司 => sushi; 披萨 => pizza; 鸡蛋, 蛋 => egg; 牛奶 => milk;
奶茶 => milktea; 马铃薯, 土豆 => potato; 水果 => fruit; 冰淇淋, 雪糕 => icecream; 恐龙 => dinosaur;
平板电脑, 平板 => tablet; 蛋糕 => cake; 苹果派 => applepie; 面包 => bread; 汤圆 => tangyuan; 音乐会 => concert;
电影院 => cinema; 饭店, 餐厅, 餐馆 => restaurant; 书包 => schoolbag; 总统 => president;
副总统 => vicepresident; 前女友 => @past girlfriend; 前男友 => @past boyfriend; 前妻 => @past wife;
前夫 => @past husband; 所有, 全部 => all; 有些, 有的 => some; 大部分, 大多数, 多数 => most;
每个 => every; 玩具 => @fake; 干妈 => godmother; 干爹 => godfather; 发小 => friend;
河南 => ^henan; 河北 => ^hebei; 湖南 => ^hunan; 湖北 => ^hubei; 山西 => ^shanxi; 陕西 => ^shaanxi;
江西 => ^jiangxi; 广西 => ^guangxi; 四川省 => ^sichuan; 安徽 => ^anhui; 贵州 => ^guizhou; 表哥 => elder_male_cousin; 表姐 => elder_female_cousin; 表弟 => younger_male_cousin;
表妹 => younger_female_cousin; 堂哥 => elder_male_paternal_cousin; 堂姐 => elder_female_paternal_cousin;
堂弟 => younger_male_paternal_cousin; 堂妹 => younger_female_paternal_cousin;
画画, 画 => draw; 上班 => work; 里面, 里 => inside; 外面, 外 => outside; 对面 => opposite; 后面 => back; 前面 => front;
经过, 路过 => <through; 去, 到, 向 => <to; 换成, 换到 => switch <to; 变成 => become <to;
改成, 改为, 转成 => change <to; 转到, 转去 => transfer <to; 差点, 差一点, 几乎 => @almost; 都 => all; 大学 => university; 大厦 => building;
机场 => airport; 医院 => hospital; 酒店 => hotel; 公园 => park; 中学 => middleschool;
银行 => bank; 公司 => company; 学院 => college; 学校 => school; 集团 => group; 商场 => mall;
超市 => supermarket; 书店 => bookstore; 餐厅, 饭店 => restaurant; 剧院 => theater; 车站 => station;
小学 => primaryschool; 为, 替, 给 => <for; 和, 跟, 同, 与 => <with; 胜过, 多过, 多于, 比起 => <than; 看 => @watch; 咖啡 => coffee; 茶 => tea; 酒 => alcohol; 啤酒 => beer; 红酒, 葡萄酒 => wine;
可乐 => cola; 果汁 => juice; 糖 => sugar; 饮料, 喝 => drink; 吃 => eat;
// languages and countries
英语, 英文 => english; 法语, 法文 => french; 日语, 日文 => japanese; 德语 => german; 西班牙语 => spanish;
韩语 => korean; 中文, 汉语, 普通话 => chinese; 粤语 => cantonese; 俄语 => russian; 葡萄牙语 => portuguese;
农村, 乡下, 乡村 => countryside; 失业, 没工作, 待业 => unemployed; 独居, 一个人住 => live alone;
意大利语 => italian; 语言 => speak; 母语 => native speak; 熬夜, 夜猫子, 晚睡 => sleep late; 睡觉, 睡 => sleep; 懂 => -;
早起 => wake early; 素食, 素食者, 吃素 => ! eat meat; 害怕, 怕, 恐惧 => fear; 日本 => ^japan; 中国 => ^china;
美国 => ^usa; 英国 => ^uk; 法国 => ^france; 德国 => ^germany; 韩国 => ^korea; 西班牙 => ^spain;
意大利 => ^italy; 加拿大 => ^canada; 澳大利亚 => ^australia; 葡萄牙 => ^portugal;
// professions
医生, 大夫 => doctor; 护士 => nurse; 工程师 => engineer; 程序员, 码农, 开发者 => developer; 律师 => lawyer;
会计 => accountant; 设计师 => designer; 厨师 => chef; 警察 => police; 司机 => driver; 记者 => journalist;
作家 => writer; 教授 => professor;
// numbers that are not numbers, and words that hide a numeral
一起, 一直, 一些, 一样, 一般, 一定, 一点, 一下, 一切, 万一, 统一, 十分, 千万 => -; 唯一 => only; 三明治 => sandwich;
四川 => ^sichuan; 周日, 周天, 星期日, 星期天, 礼拜天, 礼拜日 => %weekday7; 半 => #0.5;
// filler
已经, 目前, 现在, 如今, 经常, 常常, 总是, 通常, 可以, 正在, 习惯, 比较, 真的, 最, 更 => -; 比 => <than; 从 => <from;
";

/// Chinese characters too common to tell facts apart.
pub const ZH_STOP: &str = "的了是我你他她它们在和就也都吗呢吧啊这那个请很着过地得把被会能要还已经每些又太挺真里与跟同对为于让给所而及其之以才来有去并向呀哦嘛";

/// Measure words: dropped after a number ("两个孩子" is "2 孩子").
pub const ZH_MEASURE: &str = "个只条位本辆件种名张台次杯份瓶节门套把头匹双对口间所座块元圈趟遍碗盒袋箱筐篮桶罐捆串束壶锅盘碟勺栋幢顿打升";

/// Units that stay with their number: "3月" and "3日" are not "3".
pub const ZH_UNIT: &str = "月日号点时岁楼层年分周斤站天克尺里";

/// Words that make what follows someone's ("his wife").
pub const POSSESSIVE_PRONOUNS: &str = "
his, her, their, my, our, its, your
";

/// Words before an owner that make it an object ("lives with his wife"), not the subject.
pub const PREPOSITIONS: &str = "
with, to, for, from, by, and, of, about, at, on, near, visits, or
";

/// "-ed" words that describe rather than tell the past ("is named", "is based").
pub const PARTICIPLE_ADJECTIVES: &str = "
named, called, based, married, located, employed, interested, retired, used, tired, excited,
bored, scared, worried, experienced, qualified, skilled, engaged, divorced, vaccinated,
handed, unemployed, detailed, advanced, related, nicknamed, self, talented, red
";

/// Words after which an "-ed" word is the fact's verb: "User moved", "Alice recently visited".
pub const SUBJECT_LEFT: &str = "
user, he, she, they, i, we, you, recently, just, finally, also, then, already, once, previously,
formerly, still, never, always, often, usually, really
";

/// Words after which "has" is an auxiliary ("has been", "has never"), not possession.
pub const IRREGULAR_PARTICIPLES: &str = "
been, gone, done, had, made, taken, known, grown, taught, bought, sold, seen, met, written,
spoken, driven, eaten, begun, become, got, always, never, just, already, recently, not,
since, read, heard, run, lost, left, paid, sent, spent, built, kept, felt, found, won, given,
forgotten, gotten, flown, drunk, swum, sung, worn, ridden, chosen, broken, stolen, fallen,
shown, thrown, understood, learnt
";

/// Irregular past tenses: "User went", "User was".
pub const IRREGULAR_PAST: &str = "
was, were, had, did, went, bought, sold, grew, taught, began, ran, swam, made, took, met,
drove, wrote, spoke, flew, came, became, ate, drank, saw, knew, gave, lost, won, found,
paid, sent, spent, built, broke, fell, felt, kept, lent, told, thought, slept, sang,
brought, caught, chose, forgot, heard, held, left, rode, sat, stood, threw, woke, wore, died
";

/// Words a noun phrase stops at: the verb comes.
pub const NOUN_PHRASE_ENDS: &str = "
is, are, was, were, has, have, had, does, do, did, will, can, would, should, may, might,
must, could, not, who, that, which
";
