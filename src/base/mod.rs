//! The bottom layer: the vocabulary every other module shares (a chat's name, a memory's
//! category, scope and row) and small pure helpers. It imports nothing of the crate, so any
//! module may import it.

mod backend;
pub mod bug;
mod chat;
pub mod markdown;
mod memory;
pub mod suggest;
pub mod visible;

pub use backend::Backend;
pub use chat::{BadChatKey, CHANNELS, ChatKey, MAX_WEB_ID, is_external_id};
pub use memory::{Category, MemoryRow, MemoryScope, Source};
