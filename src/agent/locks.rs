//! One turn at a time per chat, many chats at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// Per-chat async locks. Tokio's mutex is fair (FIFO), so messages of one chat are handled
/// in the order they arrived; entries for idle chats are dropped as the map grows.
#[derive(Default)]
pub struct ChatLocks {
    locks: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
}

impl ChatLocks {
    pub async fn lock(&self, chat: &str) -> OwnedMutexGuard<()> {
        let lock = {
            let mut map = self
                .locks
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if map.len() > 1024 {
                // Only this map holds an idle chat's lock; nobody waits on it.
                map.retain(|_, l| Arc::strong_count(l) > 1);
            }
            map.entry(chat.to_string()).or_default().clone()
        };
        lock.lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn same_chat_waits_in_order_other_chats_do_not() {
        let locks = Arc::new(ChatLocks::default());
        let first = locks.lock("cli:a").await;
        // another chat is free
        let other = tokio::time::timeout(Duration::from_secs(5), locks.lock("cli:b")).await;
        assert!(other.is_ok());
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..3 {
            let (locks, order) = (locks.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _g = locks.lock("cli:a").await;
                order.lock().unwrap().push(i);
            }));
            // let each task queue before the next starts
            tokio::task::yield_now().await;
            tokio::task::yield_now().await;
        }
        assert!(
            order.lock().unwrap().is_empty(),
            "nobody runs while the first turn holds the chat"
        );
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![0, 1, 2]);
    }
}
