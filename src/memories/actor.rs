//! Who is asking: the one answer to "may this actor see or change memory X", and whether
//! instruction-like text is refused from it.

use crate::base::{MemoryScope, Source};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A chat: its own memories; global ones to read, to change only from a control chat.
    Chat {
        chat_id: i64,
        is_group: bool,
        is_control: bool,
    },
    /// The web console: every chat; global memories changed only with its token.
    Console { global_writable: bool },
    /// The operator at the command line (`mneme memory …`) on the machine: everything.
    Operator,
    /// The reflector working on one chat: that chat only.
    Reflector { chat_id: i64 },
}

impl Actor {
    /// Whether the actor may see a memory of `scope` at all (one it may not is reported as
    /// absent: another chat's memories are not this chat's business).
    pub fn may_see(&self, scope: MemoryScope) -> bool {
        match (self, scope) {
            (Self::Chat { chat_id, .. } | Self::Reflector { chat_id }, MemoryScope::Chat(id)) => {
                *chat_id == id
            }
            (Self::Reflector { .. }, MemoryScope::Global) => false,
            _ => true,
        }
    }

    /// Whether the actor may write, change or delete a memory of `scope`.
    pub fn may_change(&self, scope: MemoryScope) -> bool {
        match (self, scope) {
            (_, MemoryScope::Chat(_)) => self.may_see(scope),
            (Self::Chat { is_control, .. }, MemoryScope::Global) => *is_control,
            (Self::Console { global_writable }, MemoryScope::Global) => *global_writable,
            (Self::Operator, MemoryScope::Global) => true,
            (Self::Reflector { .. }, MemoryScope::Global) => false,
        }
    }

    /// Whether instruction-like text is refused from this actor writing with `source`. Only
    /// a person in their own private chat saying "remember …" may keep a standing wish
    /// ("always answer in French") as a memory: it shapes only their own answers. From a
    /// group it would reach every member's; from the model, the reflector or an import it
    /// may be an injection passed along; the console edits facts (standing instructions go
    /// in AGENTS.md).
    pub fn refuses_instructions(&self, source: Source) -> bool {
        !matches!(
            (self, source),
            (
                Self::Chat {
                    is_group: false,
                    ..
                },
                Source::Explicit
            )
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions() {
        let member = Actor::Chat {
            chat_id: 1,
            is_group: true,
            is_control: false,
        };
        let control = Actor::Chat {
            chat_id: 2,
            is_group: false,
            is_control: true,
        };
        let g = MemoryScope::Global;
        assert!(member.may_see(MemoryScope::Chat(1)) && member.may_change(MemoryScope::Chat(1)));
        assert!(!member.may_see(MemoryScope::Chat(2)) && !member.may_change(MemoryScope::Chat(2)));
        assert!(member.may_see(g) && !member.may_change(g));
        assert!(control.may_change(g) && !control.may_see(MemoryScope::Chat(1)));
        let console = Actor::Console {
            global_writable: false,
        };
        assert!(console.may_change(MemoryScope::Chat(7)) && !console.may_change(g));
        assert!(Actor::Operator.may_change(g));
        let reflector = Actor::Reflector { chat_id: 1 };
        assert!(!reflector.may_see(g) && !reflector.may_change(MemoryScope::Chat(2)));
    }

    #[test]
    fn only_a_person_in_their_private_chat_may_keep_a_standing_wish() {
        let private = Actor::Chat {
            chat_id: 1,
            is_group: false,
            is_control: false,
        };
        let group = Actor::Chat {
            chat_id: 1,
            is_group: true,
            is_control: true,
        };
        assert!(!private.refuses_instructions(Source::Explicit));
        assert!(private.refuses_instructions(Source::Tool));
        assert!(group.refuses_instructions(Source::Explicit));
        assert!(Actor::Operator.refuses_instructions(Source::Explicit));
        assert!(Actor::Reflector { chat_id: 1 }.refuses_instructions(Source::Reflector));
    }
}
