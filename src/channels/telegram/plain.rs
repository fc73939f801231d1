//! A plain text message read straight into the parts the bot uses ([`Said`]), without
//! teloxide's reading of a whole `Update`: from the webhook's request, and from each update of
//! long polling's batch.
//!
//! teloxide reads a message by trying each kind of message, and each kind of media, in turn
//! (its `flatten`ed, untagged enums buffer the message and build an error for every kind that
//! does not fit): most of the webhook's work for a text message. Most updates are a person's
//! plain text message, which holds only the keys below, so those are read as they are; an
//! update holding any other key (a reply, a forward, a photo, an edit, a link preview, a key
//! newer than this build…) is not read here and goes teloxide's way (`lenient.rs`).
//!
//! What is read here is read as teloxide would read it: the same keys with the same types
//! (an update teloxide would not read whole is not read here either), the same defaults. A
//! test reads a set of updates both ways and compares what classifying them sees.

use serde::Deserialize;

use super::incoming::{ChatType, Mark, Said, Sender};

/// An update that is a plain text message.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlainUpdate {
    update_id: u32,
    message: PlainMessage,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainMessage {
    message_id: i32,
    message_thread_id: Option<i32>,
    #[serde(default)]
    is_topic_message: bool,
    date: i64,
    chat: PlainChat,
    from: PlainUser,
    text: String,
    #[serde(default)]
    entities: Vec<PlainEntity>,
}

/// teloxide's `Chat` of a private chat, a group or a supergroup, key for key: the keys the
/// bot does not use are read too, so that a value teloxide would refuse is refused here.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainChat {
    id: i64,
    #[serde(rename = "type")]
    kind: PlainChatType,
    title: Option<String>,
    #[allow(dead_code)]
    username: Option<String>,
    #[allow(dead_code)]
    first_name: Option<String>,
    #[allow(dead_code)]
    last_name: Option<String>,
    #[allow(dead_code)]
    #[serde(default)]
    is_forum: bool,
}

/// The kinds of chat read here; a channel's post (no sender) goes teloxide's way.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PlainChatType {
    Private,
    Group,
    Supergroup,
}

/// teloxide's `User`, key for key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainUser {
    id: u64,
    is_bot: bool,
    first_name: String,
    last_name: Option<String>,
    username: Option<String>,
    #[allow(dead_code)]
    language_code: Option<String>,
    #[allow(dead_code)]
    #[serde(default)]
    is_premium: bool,
    #[allow(dead_code)]
    #[serde(default)]
    added_to_attachment_menu: bool,
}

/// An entity of the text. Only a mention, a text mention or a bot command can address the
/// bot; the others are read for their offsets only. An entity teloxide could not read (a
/// kind newer than it, a text link without its URL) is one `lenient.rs` leaves out, and so is
/// it here: none of those address the bot.
#[derive(Debug, Deserialize)]
struct PlainEntity {
    #[serde(rename = "type")]
    kind: String,
    offset: usize,
    length: usize,
    user: Option<PlainUser>,
}

impl PlainEntity {
    fn mark(&self) -> Option<Mark> {
        let (offset, length) = (self.offset, self.length);
        match (self.kind.as_str(), &self.user) {
            ("mention", _) => Some(Mark::Mention { offset, length }),
            ("text_mention", Some(user)) => Some(Mark::TextMention { user: user.id }),
            ("bot_command", _) => Some(Mark::BotCommand { offset, length }),
            _ => None,
        }
    }
}

/// The update in `body` when it is a plain text message that teloxide would read whole, as
/// such; `None` for anything else (to be read teloxide's way).
pub(super) fn read(body: &[u8]) -> Option<PlainUpdate> {
    serde_json::from_slice(body)
        .ok()
        .and_then(PlainUpdate::checked)
}

/// The same, from an update's JSON tree (long polling's batches come as one).
pub(super) fn from_value(update: &serde_json::Value) -> Option<PlainUpdate> {
    PlainUpdate::deserialize(update)
        .ok()
        .and_then(PlainUpdate::checked)
}

impl PlainUpdate {
    /// `self`, unless teloxide would not read it: teloxide reads `date` into a time, which a
    /// date out of its range fails.
    fn checked(self) -> Option<Self> {
        chrono::DateTime::from_timestamp(self.message.date, 0)?;
        Some(self)
    }

    pub(super) fn id(&self) -> u32 {
        self.update_id
    }

    /// The chat's id, for the log's timeline.
    pub(super) fn chat_id(&self) -> i64 {
        self.message.chat.id
    }

    pub(super) fn said(&self) -> Said<'_> {
        let m = &self.message;
        let chat = match m.chat.kind {
            PlainChatType::Private => ChatType::Private,
            PlainChatType::Group => ChatType::Group,
            PlainChatType::Supergroup => ChatType::Supergroup,
        };
        Said {
            message_id: m.message_id,
            chat_id: m.chat.id,
            chat,
            // teloxide keeps no title for a private chat
            chat_title: match chat {
                ChatType::Private => None,
                _ => m.chat.title.as_deref(),
            },
            from: Some(Sender {
                id: m.from.id,
                is_bot: m.from.is_bot,
                first_name: &m.from.first_name,
                last_name: m.from.last_name.as_deref(),
                username: m.from.username.as_deref(),
            }),
            text: Some(&m.text),
            marks: m.entities.iter().filter_map(PlainEntity::mark).collect(),
            replies_to: None,
            sent_at: m.date * 1000,
            topic: m.message_thread_id.filter(|_| m.is_topic_message),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use teloxide::types::{Update, UpdateKind};

    use super::*;

    fn update(message: Value) -> Value {
        json!({"update_id": 41, "message": message})
    }

    const ABSENT: &str = "(absent)";

    fn plain(extra: Value) -> Value {
        let mut m = json!({
            "message_id": 7,
            "date": 1_700_000_000,
            "chat": {"id": 100, "type": "private", "first_name": "Ann", "username": "ann"},
            "from": {"id": 100, "is_bot": false, "first_name": "Ann", "language_code": "en"},
            "text": "hi @mneme_bot, see /start@mneme_bot"
        });
        // ABSENT: the key left out
        for (k, v) in extra.as_object().unwrap() {
            if v == ABSENT {
                m.as_object_mut().unwrap().remove(k);
            } else {
                m[k] = v.clone();
            }
        }
        update(m)
    }

    /// What classifying sees of the update read teloxide's way (`lenient.rs`, as the webhook
    /// reads what is not read here).
    fn as_teloxide_reads(raw: &Value) -> Option<String> {
        let update: Update = super::super::lenient::from_slice(raw.to_string().as_bytes()).ok()?;
        match &update.kind {
            UpdateKind::Message(m) => Some(format!("{:?}", Said::from(m))),
            _ => None,
        }
    }

    /// What classifying sees of the update read here, from its text and from its tree (the
    /// two must agree).
    fn as_read_here(raw: &Value) -> Option<String> {
        let from_text = read(raw.to_string().as_bytes()).map(|u| format!("{:?}", u.said()));
        let from_tree = from_value(raw).map(|u| format!("{:?}", u.said()));
        assert_eq!(from_text, from_tree, "{raw}");
        from_text
    }

    /// Every update read here is seen as it is seen when teloxide reads it; and the ones not
    /// read here are those holding something else, or something teloxide would not read.
    #[test]
    fn what_is_read_here_is_seen_as_teloxide_reads_it() {
        let group = json!({"id": -5, "type": "group", "title": "Team"});
        let forum = json!({"id": -6, "type": "supergroup", "title": "Forum", "is_forum": true});
        let read_here = [
            plain(json!({})),
            plain(json!({"entities": [
                {"type": "mention", "offset": 3, "length": 10},
                {"type": "bot_command", "offset": 19, "length": 16},
                {"type": "bold", "offset": 0, "length": 2},
                {"type": "text_link", "offset": 0, "length": 2, "url": "https://example.com/"},
            ]})),
            plain(json!({"chat": group, "entities": [
                {"type": "text_mention", "offset": 0, "length": 2,
                 "user": {"id": 9, "is_bot": true, "first_name": "mneme"}},
            ]})),
            plain(
                json!({"chat": forum, "message_thread_id": 12, "is_topic_message": true,
                "from": {"id": 5, "is_bot": false, "first_name": "", "last_name": "Lee",
                         "username": "lee", "is_premium": true}}),
            ),
            plain(json!({"chat": forum, "message_thread_id": 12})),
            plain(json!({"from": {"id": 9, "is_bot": true, "first_name": "mneme"}})),
            plain(json!({"text": "日本語 \"quoted\" \\ \u{1F600}", "date": 0})),
            // entities teloxide cannot read, which it leaves out: none addresses the bot
            plain(json!({"entities": [
                {"type": "a_type_from_the_future", "offset": 0, "length": 2},
                {"type": "custom_emoji", "offset": 0, "length": 2},
                {"type": "text_mention", "offset": 0, "length": 2},
            ]})),
        ];
        for raw in &read_here {
            let here = as_read_here(raw);
            assert!(here.is_some(), "not read here: {raw}");
            assert_eq!(here, as_teloxide_reads(raw), "{raw}");
        }
        let not_here = [
            plain(json!({"reply_to_message": {
                "message_id": 3, "date": 1, "chat": {"id": 100, "type": "private"},
                "from": {"id": 9, "is_bot": true, "first_name": "mneme"}, "text": "earlier"}})),
            plain(json!({"link_preview_options": {"is_disabled": true}})),
            plain(json!({"forward_origin": {"type": "hidden_user", "date": 5,
                "sender_user_name": "x"}})),
            plain(json!({"text": ABSENT, "caption": "look",
                "photo": [{"file_id": "a", "file_unique_id": "b", "width": 1, "height": 1}]})),
            plain(json!({"text": ABSENT, "sticker": {"file_id": "x"}})),
            plain(json!({"from": ABSENT, "sender_chat": group})),
            plain(json!({"chat": {"id": -7, "type": "channel", "title": "News"}})),
            plain(json!({"chat": {"id": -7, "type": "a_new_kind"}})),
            plain(json!({"from": {"id": 100, "is_bot": false}})),
            plain(json!({"from": {"id": 100, "is_bot": false, "first_name": "A", "new": 1}})),
            plain(
                json!({"from": {"id": 100, "is_bot": false, "first_name": "A",
                "is_premium": null}}),
            ),
            plain(json!({"text": null})),
            plain(json!({"entities": null})),
            plain(json!({"entities": [{"type": "mention", "offset": -1, "length": 2}]})),
            plain(json!({"is_topic_message": null})),
            plain(json!({"date": i64::MAX})),
            plain(json!({"date": 1.5})),
            plain(json!({"message_id": "seven"})),
            json!({"update_id": 41, "edited_message": plain(json!({}))["message"]}),
            json!({"update_id": -1, "message": plain(json!({}))["message"]}),
            json!({"update_id": 41, "message": plain(json!({}))["message"], "something_new": 1}),
            json!({"message": plain(json!({}))["message"]}),
        ];
        for raw in &not_here {
            assert!(as_read_here(raw).is_none(), "read here: {raw}");
        }
        assert!(read(b"{not json").is_none());
    }

    /// What classifying sees of a plain text message, field by field.
    #[test]
    fn a_plain_message_is_seen_whole() {
        let raw = plain(json!({
            "chat": {"id": -6, "type": "supergroup", "title": "Forum", "is_forum": true},
            "message_thread_id": 12, "is_topic_message": true,
            "from": {"id": 5, "is_bot": false, "first_name": "Kim", "last_name": "Lee"},
            "entities": [{"type": "mention", "offset": 3, "length": 10}, {"type": "bold", "offset": 0, "length": 2}],
        }));
        let update = read(raw.to_string().as_bytes()).unwrap();
        assert_eq!(update.chat_id(), -6);
        assert_eq!(update.id(), 41);
        let said = update.said();
        assert_eq!(
            said,
            Said {
                message_id: 7,
                chat_id: -6,
                chat: ChatType::Supergroup,
                chat_title: Some("Forum"),
                from: Some(Sender {
                    id: 5,
                    is_bot: false,
                    first_name: "Kim",
                    last_name: Some("Lee"),
                    username: None,
                }),
                text: Some("hi @mneme_bot, see /start@mneme_bot"),
                marks: vec![Mark::Mention {
                    offset: 3,
                    length: 10
                }],
                replies_to: None,
                sent_at: 1_700_000_000_000,
                topic: Some(12),
            }
        );
    }
}
