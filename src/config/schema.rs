//! Shape check: the user's YAML against the shape of `Config::default()`.
//!
//! The defaults serialized to YAML *are* the schema, so a key added to `Config` is known here
//! without a second list to keep in sync.

use serde_yaml::Value;

use super::{Config, Problem};

/// Keys whose values are lists of ids (numbers or strings).
const ID_LISTS: &[&str] = &[
    "control_chat_ids",
    "channels.telegram.allowed_user_ids",
    "channels.telegram.allowed_groups",
    "channels.discord.allowed_channels",
    "channels.discord.allowed_user_ids",
];

pub(super) fn check_shape(value: &Value) -> Vec<Problem> {
    let schema = serde_yaml::to_value(Config::default()).expect("defaults serialize");
    let mut problems = Vec::new();
    walk(&schema, value, "", &mut problems);
    problems
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number with a fraction",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn walk(schema: &Value, value: &Value, path: &str, out: &mut Vec<Problem>) {
    match (schema, value) {
        (Value::Mapping(known), Value::Mapping(given)) => {
            for (k, v) in given {
                let Some(name) = k.as_str() else {
                    out.push(Problem::error(path, format!("key {k:?} is not a string")));
                    continue;
                };
                let key_path = join(path, name);
                match known.get(name) {
                    Some(expected) => walk(expected, v, &key_path, out),
                    None => {
                        let mut names: Vec<&str> = known.keys().filter_map(Value::as_str).collect();
                        names.sort_unstable();
                        let message =
                            match crate::base::suggest::closest(name, names.iter().copied()) {
                                Some(meant) => format!("unknown key; did you mean `{meant}`?"),
                                None => format!("unknown key (known here: {})", names.join(", ")),
                            };
                        out.push(Problem::error(&key_path, message));
                    }
                }
            }
        }
        (Value::Sequence(_), Value::Sequence(items)) => {
            if ID_LISTS.contains(&path) {
                for (i, item) in items.iter().enumerate() {
                    if !matches!(item, Value::String(_))
                        && !matches!(item, Value::Number(n) if n.is_i64() || n.is_u64())
                    {
                        out.push(Problem::error(
                            &format!("{path}[{i}]"),
                            format!("expected an id (number or string), got {}", kind(item)),
                        ));
                    }
                }
            }
        }
        (Value::Bool(_), Value::Bool(_)) | (Value::String(_), Value::String(_)) => {}
        // A fraction key (its default has one) takes any number; validate.rs checks its range.
        (Value::Number(expected), Value::Number(_)) if expected.is_f64() => {}
        (Value::Number(_), Value::Number(n)) if n.is_u64() => {}
        (Value::Number(_), Value::Number(n)) => out.push(Problem::error(
            path,
            format!("expected a whole number of 0 or more, got {n}"),
        )),
        // A key written with no value (`api_key:`) means "use the default".
        (_, Value::Null) => {}
        (expected, got) => out.push(Problem::error(
            path,
            format!("expected {}, got {}", kind(expected), kind(got)),
        )),
    }
}

/// Removes keys written without a value, so their defaults apply.
pub(super) fn drop_nulls(value: &mut Value) {
    if let Value::Mapping(map) = value {
        map.retain(|_, v| !v.is_null());
        for (_, v) in map.iter_mut() {
            drop_nulls(v);
        }
    }
}
