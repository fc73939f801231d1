//! Updates read so that a message's text is never lost to a part of it this build cannot
//! read.
//!
//! teloxide reads a message all or nothing: one entity of a type newer than teloxide (Telegram
//! adds some now and then), one it finds malformed (a negative offset, a `custom_emoji`
//! without its id), or one unfamiliar shape anywhere in a message's decorations (a quote, a
//! forward's origin, a link preview) and the whole message is unreadable, or read as a kind
//! that carries no text. Both modes read updates through [`Lenient`] instead:
//!
//! 1. the entities teloxide cannot read are left out, and an entity list that is no list (the
//!    text stays whole; only the formatting or the mention they marked is not seen), then
//! 2. should a message with a text or caption still not read as one, it is read again with
//!    only the parts the bot uses ([`ESSENTIAL`]): who, where, when, the text and its entities,
//!    the message it replies to (likewise; left out too when even that cannot be read). What
//!    was left out is named in the log.
//!
//! Most updates are messages teloxide reads whole; those are taken as teloxide reads them,
//! without the JSON tree the two steps above work on ([`loses_nothing`]).

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use teloxide::types::{Message, MessageEntity, Update, UpdateKind};

use super::{Read, plain};

/// An update as long polling reads it: a plain text message as `plain.rs` reads it, any other
/// as the module's documentation says.
pub(super) struct Lenient(pub Read);

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if let Some(plain) = plain::from_value(&value) {
            return Ok(Lenient(Read::Plain(plain)));
        }
        read(value)
            .map(|update| Lenient(Read::Update(update)))
            .map_err(serde::de::Error::custom)
    }
}

/// The keys of a message the bot reads (`incoming.rs`), with the media a caption belongs to.
const ESSENTIAL: &[&str] = &[
    "message_id",
    "message_thread_id",
    "is_topic_message",
    "date",
    "chat",
    "from",
    "sender_chat",
    "text",
    "entities",
    "caption",
    "caption_entities",
    "reply_to_message",
    "photo",
    "document",
    "video",
    "animation",
    "audio",
    "voice",
];

/// Reads one update from its JSON text, as [`read`] does; without building the JSON tree when
/// teloxide's own reading [`loses_nothing`] (the webhook's requests).
pub(super) fn from_slice(bytes: &[u8]) -> Result<Update, serde_json::Error> {
    if let Ok(update) = serde_json::from_slice::<Update>(bytes)
        && loses_nothing(&update)
    {
        return Ok(update);
    }
    read_leniently(serde_json::from_slice(bytes)?)
}

/// Whether teloxide's own reading of an update is the one the steps of [`read`] give: a message
/// read with its text or caption, replying to none or to one read with its text or caption.
/// Those steps change only entity lists teloxide cannot read (and, failing that, read the
/// message's essentials); a list teloxide cannot read fails the message's reading as a kind
/// with a text, leaving it read as one without (a reply so read does not fail the message
/// replying to it, hence the reply's check).
fn loses_nothing(update: &Update) -> bool {
    matches!(&update.kind, UpdateKind::Message(m)
        if has_words_read(m) && m.reply_to_message().is_none_or(has_words_read))
}

/// Reads one update (see the module's documentation). Fails only where teloxide's own reading
/// of an update fails: without an `update_id`.
pub(super) fn read(value: Value) -> Result<Update, serde_json::Error> {
    if let Ok(update) = Update::deserialize(&value)
        && loses_nothing(&update)
    {
        return Ok(update);
    }
    read_leniently(value)
}

/// The two steps of the module's documentation.
fn read_leniently(mut value: Value) -> Result<Update, serde_json::Error> {
    let dropped = drop_unreadable_entities(&mut value);
    if dropped > 0 {
        tracing::debug!(
            update = %value["update_id"],
            dropped,
            "telegram: left out message entities this build cannot read"
        );
    }
    let update = Update::deserialize(&value)?;
    let Some(message) = value.get("message").filter(|m| has_words(m)) else {
        return Ok(update);
    };
    if matches!(&update.kind, UpdateKind::Message(m) if has_words_read(m)) {
        return Ok(update);
    }
    let mut essential = essentials(message);
    let left_out: Vec<&str> = message
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .filter(|k| !ESSENTIAL.contains(k))
        .collect();
    if let Some(reply) = essential.get_mut("reply_to_message") {
        *reply = Value::Object(essentials(reply));
    }
    let mut read = Message::deserialize(&Value::Object(essential.clone()));
    // the message it replies to, unreadable even so: the message goes without it
    if !read.as_ref().is_ok_and(has_words_read) && essential.remove("reply_to_message").is_some() {
        read = Message::deserialize(&Value::Object(essential));
    }
    match read {
        Ok(read) if has_words_read(&read) => {
            tracing::warn!(
                update = update.id.0,
                left_out = ?left_out,
                "telegram: read a message without the parts of it this build cannot read"
            );
            Ok(Update {
                id: update.id,
                kind: UpdateKind::Message(read),
            })
        }
        _ => {
            tracing::warn!(
                update = update.id.0,
                "telegram: a message with text this build cannot read at all; taken as teloxide reads it (not as text)"
            );
            Ok(update)
        }
    }
}

/// Leaves out, in every entity list of the update (`entities`, `caption_entities`, a quote's,
/// a poll's…, at any depth), the entities teloxide cannot read; returns how many.
fn drop_unreadable_entities(value: &mut Value) -> usize {
    match value {
        Value::Object(map) => {
            let is_list = |key: &str| key == "entities" || key.ends_with("_entities");
            // a list that is no list (null, an object, a string): left out whole
            let before = map.len();
            map.retain(|key, v| !is_list(key) || v.is_array());
            let dropped = before - map.len();
            dropped
                + map
                    .iter_mut()
                    .map(|(key, v)| match v {
                        Value::Array(list) if is_list(key) => {
                            let before = list.len();
                            list.retain(|e| MessageEntity::deserialize(e).is_ok());
                            before - list.len()
                        }
                        _ => drop_unreadable_entities(v),
                    })
                    .sum::<usize>()
        }
        Value::Array(list) => list.iter_mut().map(drop_unreadable_entities).sum(),
        _ => 0,
    }
}

/// The message's [`ESSENTIAL`] keys.
fn essentials(message: &Value) -> Map<String, Value> {
    message
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| ESSENTIAL.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// True when the raw message has a text or a caption.
fn has_words(message: &Value) -> bool {
    message.get("text").is_some_and(Value::is_string)
        || message.get("caption").is_some_and(Value::is_string)
}

/// True when teloxide read the message with its text or caption.
fn has_words_read(message: &Message) -> bool {
    message.text().is_some() || message.caption().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use teloxide::types::MessageEntityKind;

    fn message(extra: Value) -> Value {
        let mut m = json!({
            "message_id": 7,
            "date": 1_700_000_000,
            "chat": {"id": 100, "type": "private", "first_name": "Ann"},
            "from": {"id": 100, "is_bot": false, "first_name": "Ann"},
            "text": "hi @mneme_bot, see this"
        });
        for (k, v) in extra.as_object().unwrap() {
            m[k] = v.clone();
        }
        json!({"update_id": 41, "message": m})
    }

    /// The update as teloxide alone reads it from the wire.
    fn as_teloxide_reads(raw: &Value) -> Update {
        serde_json::from_str(&raw.to_string()).unwrap()
    }

    fn text_of(update: &Update) -> Option<&str> {
        match &update.kind {
            UpdateKind::Message(m) => m.text(),
            _ => None,
        }
    }

    #[test]
    fn unreadable_entities_are_left_out_and_the_rest_kept() {
        let raw = message(json!({"entities": [
            {"type": "a_type_from_the_future", "offset": 0, "length": 2},
            {"type": "mention", "offset": 3, "length": 10},
            {"type": "bold", "offset": -1, "length": 2},
            {"type": "custom_emoji", "offset": 0, "length": 2},
        ]}));
        // as teloxide alone reads it, the text is gone
        assert_eq!(text_of(&as_teloxide_reads(&raw)), None);

        let read = read(raw).unwrap();
        assert_eq!(text_of(&read), Some("hi @mneme_bot, see this"));
        let UpdateKind::Message(m) = &read.kind else {
            unreachable!()
        };
        let kinds: Vec<_> = m.entities().unwrap().iter().map(|e| &e.kind).collect();
        assert_eq!(kinds, [&MessageEntityKind::Mention]);
    }

    #[test]
    fn entities_are_mended_at_any_depth_and_in_captions() {
        let raw = message(json!({
            "text": null,
            "photo": [{"file_id": "a", "file_unique_id": "b", "width": 1, "height": 1}],
            "caption": "look",
            "caption_entities": [{"type": "nope", "offset": 0, "length": 4}],
            "quote": {"text": "q", "position": 0, "entities": [{"type": "nope", "offset": 0, "length": 1}]},
        }));
        let mut value = raw.clone();
        assert_eq!(drop_unreadable_entities(&mut value), 2);
        let read = read(raw).unwrap();
        let UpdateKind::Message(m) = &read.kind else {
            panic!("{:?}", read.kind)
        };
        assert_eq!(m.caption(), Some("look"));
    }

    #[test]
    fn a_message_with_an_unfamiliar_decoration_keeps_its_text() {
        let raw = message(json!({
            "forward_origin": {"type": "a_new_origin", "date": 5},
            "link_preview_options": {"is_disabled": "sometimes"},
            "reply_to_message": {
                "message_id": 3, "date": 1, "chat": {"id": 100, "type": "private"},
                "from": {"id": 9, "is_bot": true, "first_name": "mneme"},
                "text": "earlier", "reply_markup": {"inline_keyboard": "?"}
            },
        }));
        assert_eq!(
            text_of(&as_teloxide_reads(&raw)),
            None,
            "teloxide alone loses it"
        );
        let read = read(raw).unwrap();
        assert_eq!(read.id.0, 41);
        assert_eq!(text_of(&read), Some("hi @mneme_bot, see this"));
        let UpdateKind::Message(m) = &read.kind else {
            unreachable!()
        };
        let replied = m.reply_to_message().unwrap();
        assert_eq!(replied.from.as_ref().unwrap().id.0, 9);
    }

    #[test]
    fn entity_lists_that_are_no_lists_and_unreadable_replies_cost_nothing_but_themselves() {
        for broken in [
            json!({"entities": null}),
            json!({"entities": {"type": "bold"}}),
            json!({"entities": "notalist"}),
            json!({"reply_to_message": {"message_id": "abc"}}),
        ] {
            let read = read(message(broken.clone())).unwrap();
            assert_eq!(text_of(&read), Some("hi @mneme_bot, see this"), "{broken}");
        }
    }

    #[test]
    fn a_reply_teloxide_reads_without_its_text_is_read_with_it() {
        let raw = message(json!({"reply_to_message": {
            "message_id": 3, "date": 1, "chat": {"id": 100, "type": "private"},
            "from": {"id": 9, "is_bot": true, "first_name": "mneme"},
            "text": "earlier", "entities": [{"type": "nope", "offset": 0, "length": 1}]
        }}));
        let reply_text = |update: &Update| match &update.kind {
            UpdateKind::Message(m) => m
                .reply_to_message()
                .and_then(|r| r.text())
                .map(String::from),
            _ => None,
        };
        // teloxide alone reads the message with its text, and the reply without its own
        let strict = as_teloxide_reads(&raw);
        assert_eq!(text_of(&strict), Some("hi @mneme_bot, see this"));
        assert_eq!(reply_text(&strict), None);
        for read in [
            read(raw.clone()).unwrap(),
            from_slice(raw.to_string().as_bytes()).unwrap(),
        ] {
            assert_eq!(text_of(&read), Some("hi @mneme_bot, see this"));
            assert_eq!(reply_text(&read).as_deref(), Some("earlier"));
        }
    }

    /// Whichever way an update is read (from the JSON text or its tree, as teloxide reads it
    /// when that [`loses_nothing`]), it is read as the lenient steps read it.
    #[test]
    fn every_way_of_reading_an_update_reads_it_as_the_lenient_steps_do() {
        let reply = json!({
            "message_id": 3, "date": 1, "chat": {"id": 100, "type": "private"},
            "from": {"id": 9, "is_bot": true, "first_name": "mneme"}, "text": "earlier"
        });
        let cases = [
            message(json!({})),
            message(json!({"reply_to_message": reply})),
            message(json!({"entities": [{"type": "mention", "offset": 3, "length": 10}]})),
            message(json!({"entities": [{"type": "nope", "offset": 3, "length": 10}]})),
            message(json!({"entities": null})),
            message(json!({"forward_origin": {"type": "a_new_origin", "date": 5}})),
            message(json!({"reply_to_message": {"message_id": "abc"}})),
            message(json!({"text": null, "sticker": {"file_id": "x"}})),
            message(json!({"text": null, "caption": "look",
                "photo": [{"file_id": "a", "file_unique_id": "b", "width": 1, "height": 1}]})),
            json!({"update_id": 5, "edited_message": message(json!({}))["message"]}),
            json!({"update_id": 3, "something_new": {"a": 1}}),
            json!({"message": {}}),
            json!(["not", "an", "update"]),
        ];
        let mut taken_as_read = 0;
        for raw in cases {
            let text = raw.to_string();
            let lenient = read_leniently(raw.clone());
            taken_as_read +=
                usize::from(serde_json::from_str::<Update>(&text).is_ok_and(|u| loses_nothing(&u)));
            for way in [from_slice(text.as_bytes()), read(raw)] {
                match (&way, &lenient) {
                    (Ok(way), Ok(lenient)) => assert_eq!(way, lenient, "{text}"),
                    (Err(_), Err(_)) => {}
                    _ => panic!("{text}: {way:?} against {lenient:?}"),
                }
            }
        }
        assert_eq!(
            taken_as_read, 4,
            "teloxide's reading loses nothing of the plain message, the reply, the mention, the caption"
        );
        assert!(from_slice(b"{not json").is_err());
    }

    #[test]
    fn what_is_readable_or_not_a_message_is_read_as_teloxide_reads_it() {
        let ok = message(json!({}));
        assert_eq!(read(ok.clone()).unwrap(), as_teloxide_reads(&ok));
        let sticker = message(json!({"text": null, "sticker": {"file_id": "x"}}));
        assert!(read(sticker).is_ok());
        let other = json!({"update_id": 3, "something_new": {"a": 1}});
        assert!(matches!(read(other).unwrap().kind, UpdateKind::Error(_)));
        assert!(read(json!({"message": {}})).is_err(), "no update_id");
        assert!(read(json!(["not", "an", "update"])).is_err());
    }
}
