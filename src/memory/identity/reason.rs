//! Why two facts are or are not one: the reason each decision gives, shown to people.

use std::fmt;

/// Why two facts are or are not the same fact. `Display` gives a short human reason.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    SameWords,
    /// One side says more: these words.
    MoreSpecific(String),
    Reworded(f32),
    /// Numbers, times (and Chinese dates written with numbers) that disagree.
    Number(String, String),
    Date(String, String),
    /// A number or date on one side only.
    ExtraNumber(String),
    /// Another person (or animal) the fact is about.
    Subject(String),
    /// Another person mentioned on one side only, not as the subject.
    ExtraPerson(String),
    Entity(String, String),
    ExtraEntity(String),
    /// Two words of one kind: dog / cat, cello / violin.
    Slot(String, String),
    Opposite(String, String),
    Negation(String),
    Relation(String),
    Roles(String),
    Tense,
    /// A word joined to a shared one into another thing: "cat videos" / "cats", 熊猫 / 猫.
    Compound(String),
    /// Other words on each side and nothing to vouch for them.
    OtherWords(String, String),
    LowCosine(f32),
    TooLittle,
    Nothing,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::SameWords => write!(f, "same words"),
            Reason::MoreSpecific(w) => write!(f, "more specific: {w}"),
            Reason::Reworded(c) => write!(f, "reworded (cosine {c:.2})"),
            Reason::Number(a, b) => write!(f, "different number: {a} vs {b}"),
            Reason::Date(a, b) => write!(f, "different date: {a} vs {b}"),
            Reason::ExtraNumber(n) => write!(f, "a number on one side only: {n}"),
            Reason::Subject(w) => write!(f, "another subject: {w}"),
            Reason::ExtraPerson(w) => write!(f, "someone on one side only: {w}"),
            Reason::Entity(a, b) => write!(f, "another name: {a} vs {b}"),
            Reason::ExtraEntity(w) => write!(f, "a name on one side only: {w}"),
            Reason::Slot(a, b) => write!(f, "another of the same kind: {a} vs {b}"),
            Reason::Opposite(a, b) => write!(f, "opposite: {a} vs {b}"),
            Reason::Negation(w) => write!(f, "negation: {w}"),
            Reason::Relation(w) => write!(f, "another relation: {w}"),
            Reason::Roles(w) => write!(f, "roles swapped: {w}"),
            Reason::Tense => write!(f, "past on one side only"),
            Reason::Compound(w) => write!(f, "another thing: {w}"),
            Reason::OtherWords(a, b) => write!(f, "other words: {a} vs {b}"),
            Reason::LowCosine(c) => write!(f, "little alike (cosine {c:.2})"),
            Reason::TooLittle => write!(f, "too little in common"),
            Reason::Nothing => write!(f, "nothing to compare"),
        }
    }
}
