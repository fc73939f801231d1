//! The tools a request offers, with their JSON for each provider written once.
//!
//! The tools' names, descriptions and argument schemas are the largest constant part of every
//! model request (about 3 KB for the agent's tools). Serialized afresh for each request they
//! were about a twelfth of the instructions a message costs the daemon (walking the schemas'
//! JSON trees and escaping their strings); a [`ToolSet`] writes each provider's form the
//! first time a request asks for it and splices the same text into every later request.

use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// A tool the model may call: name, what it does, JSON schema of its arguments.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub parameters: Value,
}

/// Tools shared by many requests (cloning shares them), read as a slice of [`ToolSpec`].
#[derive(Debug, Clone, Default)]
pub struct ToolSet(Arc<Written>);

#[derive(Debug, Default)]
struct Written {
    specs: Vec<ToolSpec>,
    openai: OnceLock<Box<RawValue>>,
    anthropic: OnceLock<Box<RawValue>>,
}

impl From<Vec<ToolSpec>> for ToolSet {
    fn from(specs: Vec<ToolSpec>) -> Self {
        Self(Arc::new(Written {
            specs,
            ..Written::default()
        }))
    }
}

impl Deref for ToolSet {
    type Target = [ToolSpec];
    fn deref(&self) -> &[ToolSpec] {
        &self.0.specs
    }
}

impl ToolSet {
    /// OpenAI's `tools`: `[{"type": "function", "function": {name, description, parameters}}]`.
    pub(super) fn openai_json(&self) -> &RawValue {
        #[derive(Serialize)]
        struct Function<'a> {
            name: &'a str,
            description: &'a str,
            parameters: &'a Value,
        }
        #[derive(Serialize)]
        struct Tool<'a> {
            r#type: &'static str,
            function: Function<'a>,
        }
        self.0.openai.get_or_init(|| {
            written(self.iter().map(|t| Tool {
                r#type: "function",
                function: Function {
                    name: t.name,
                    description: t.description,
                    parameters: &t.parameters,
                },
            }))
        })
    }

    /// Anthropic's `tools`: `[{name, description, input_schema}]`.
    pub(super) fn anthropic_json(&self) -> &RawValue {
        #[derive(Serialize)]
        struct Tool<'a> {
            name: &'a str,
            description: &'a str,
            input_schema: &'a Value,
        }
        self.0.anthropic.get_or_init(|| {
            written(self.iter().map(|t| Tool {
                name: t.name,
                description: t.description,
                input_schema: &t.parameters,
            }))
        })
    }
}

fn written<T: Serialize>(tools: impl Iterator<Item = T>) -> Box<RawValue> {
    let tools: Vec<T> = tools.collect();
    // Strings and JSON values with string keys: nothing here can fail to serialize.
    serde_json::value::to_raw_value(&tools).expect("tool schemas always serialize to JSON")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn set() -> ToolSet {
        vec![ToolSpec {
            name: "read_memory",
            description: "Reads \"memory\"\n",
            parameters: json!({"type": "object", "properties": {"scope": {"enum": ["chat", "global"]}}}),
        }]
        .into()
    }

    #[test]
    fn each_providers_form_is_the_json_it_expects() {
        let tools = set();
        let openai: Value = serde_json::from_str(tools.openai_json().get()).unwrap();
        assert_eq!(
            openai,
            json!([{"type": "function", "function": {"name": "read_memory",
                "description": "Reads \"memory\"\n",
                "parameters": {"type": "object", "properties": {"scope": {"enum": ["chat", "global"]}}}}}])
        );
        let anthropic: Value = serde_json::from_str(tools.anthropic_json().get()).unwrap();
        assert_eq!(
            anthropic,
            json!([{"name": "read_memory", "description": "Reads \"memory\"\n",
                "input_schema": {"type": "object", "properties": {"scope": {"enum": ["chat", "global"]}}}}])
        );
    }

    #[test]
    fn clones_share_one_written_form() {
        let tools = set();
        let clone = tools.clone();
        assert!(std::ptr::eq(tools.openai_json(), clone.openai_json()));
        assert_eq!(clone.len(), 1);
        assert!(ToolSet::default().is_empty());
    }
}
