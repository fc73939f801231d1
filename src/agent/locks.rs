//! One turn at a time per chat, many chats at once.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// Per-chat async locks. Tokio's mutex is fair (FIFO), so messages of one chat are handled
/// in the order they arrived; entries for idle chats are dropped as the map grows.
#[derive(Default)]
pub struct ChatLocks {
    locks: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
}

impl ChatLocks {
    pub async fn lock(&self, chat: &str) -> OwnedMutexGuard<()> {
        self.entry(chat).lock_owned().await
    }

    /// A place in `chat`'s line, taken now: turns taken with [`Place::take`] run in the order
    /// their places were made, however late each is awaited. So a caller can keep its place
    /// while it stores the message, before waiting for the turn before it.
    pub fn line_up(&self, chat: &str) -> Place {
        let mut waiting: Waiting = Box::pin(self.entry(chat).lock_owned());
        // The first poll joins the lock's queue (tokio's mutex serves it in order); taking the
        // place polls again with the waker of whoever waits then.
        let mut cx = Context::from_waker(Waker::noop());
        match waiting.as_mut().poll(&mut cx) {
            Poll::Ready(guard) => Place::Held(guard),
            Poll::Pending => Place::Waiting(waiting),
        }
    }

    fn entry(&self, chat: &str) -> Arc<AsyncMutex<()>> {
        let mut map = self
            .locks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if map.len() > 1024 {
            // Only this map holds an idle chat's lock; nobody waits on it.
            map.retain(|_, l| Arc::strong_count(l) > 1);
        }
        map.entry(chat.to_string()).or_default().clone()
    }
}

type Waiting = Pin<Box<dyn Future<Output = OwnedMutexGuard<()>> + Send>>;

/// A place in a chat's line ([`ChatLocks::line_up`]); dropping it gives the place up.
pub enum Place {
    Held(OwnedMutexGuard<()>),
    Waiting(Waiting),
}

impl Place {
    /// The chat's turn, once every place made before this one was taken and let go.
    pub async fn take(self) -> OwnedMutexGuard<()> {
        match self {
            Place::Held(guard) => guard,
            Place::Waiting(waiting) => waiting.await,
        }
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

    #[tokio::test]
    async fn places_are_served_in_the_order_they_were_made_not_awaited() {
        let locks = Arc::new(ChatLocks::default());
        let first = locks.line_up("web:a");
        assert!(
            matches!(first, Place::Held(_)),
            "a free chat's place is its turn"
        );
        let places: Vec<Place> = (0..3).map(|_| locks.line_up("web:a")).collect();
        assert!(places.iter().all(|p| matches!(p, Place::Waiting(_))));
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        // awaited last made first
        for (i, place) in places.into_iter().enumerate().rev() {
            let order = order.clone();
            tasks.push(tokio::spawn(async move {
                let _turn = place.take().await;
                order.lock().unwrap().push(i);
            }));
            tokio::task::yield_now().await;
        }
        // another chat is free meanwhile
        let other = tokio::time::timeout(Duration::from_secs(5), locks.lock("web:b")).await;
        assert!(other.is_ok());
        assert!(order.lock().unwrap().is_empty());
        drop(first.take().await);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![0, 1, 2]);
    }

    #[tokio::test]
    async fn a_place_given_up_lets_the_next_one_through() {
        let locks = ChatLocks::default();
        let first = locks.line_up("web:a");
        let second = locks.line_up("web:a");
        let third = locks.line_up("web:a");
        drop(second);
        drop(first);
        let turn = tokio::time::timeout(Duration::from_secs(5), third.take()).await;
        assert!(turn.is_ok());
    }
}
