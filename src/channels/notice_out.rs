//! Notices outside any turn (a stranger told how to get access, "text only", "slow down", a
//! full queue) are sent from tasks of their own. The intake never waits for the platform to
//! take one: not the next `getUpdates`, not a webhook's 200, not the gateway's next messages.
//! A slow or rate-limited send (retried for up to `NOTICE_WITHIN`) then delays that notice
//! only, where it used to hold up every chat's messages behind it.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::Semaphore;

/// At most this many notices of a channel on their way at once. Past that, a notice is not
/// sent (and a warning says so): a flood of them would only meet the platform's rate limits,
/// and each one waiting holds a task.
pub const IN_FLIGHT: usize = 32;

/// A channel's notices on their way.
pub struct NoticeOut {
    channel: &'static str,
    slots: Arc<Semaphore>,
}

impl NoticeOut {
    pub fn new(channel: &'static str) -> Self {
        Self {
            channel,
            slots: Arc::new(Semaphore::new(IN_FLIGHT)),
        }
    }

    /// Sends a notice (`send`) from a task of its own, without waiting for it. `false` when
    /// [`IN_FLIGHT`] notices are on their way already: this one is not sent.
    pub fn spawn(&self, send: impl Future<Output = ()> + Send + 'static) -> bool {
        let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() else {
            tracing::warn!(
                channel = self.channel,
                "{IN_FLIGHT} notices are already on their way; one more is not sent"
            );
            return false;
        };
        tokio::spawn(async move {
            send.await;
            drop(slot);
        });
        true
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::oneshot;

    use super::*;

    /// Notices go out without the caller waiting; past IN_FLIGHT unfinished ones, one more is
    /// refused, and a slot freed by a notice sent takes the next.
    #[tokio::test]
    async fn notices_go_out_beside_the_caller_up_to_a_limit() {
        let out = NoticeOut::new("test");
        let mut release = Vec::new();
        let mut started = Vec::new();
        for _ in 0..IN_FLIGHT {
            let (go, wait) = oneshot::channel::<()>();
            let (begun, seen) = oneshot::channel::<()>();
            assert!(out.spawn(async move {
                let _ = begun.send(());
                let _ = wait.await;
            }));
            release.push(go);
            started.push(seen);
        }
        // Every one runs while none has finished: the caller did not wait for any.
        for seen in started {
            seen.await.unwrap();
        }
        assert!(!out.spawn(async {}), "one past the limit is refused");
        release.pop().unwrap().send(()).unwrap();
        // The slot comes back once that notice's task ends.
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        while out.slots.available_permits() == 0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the slot never came back"
            );
            tokio::task::yield_now().await;
        }
        let (done, finished) = oneshot::channel::<()>();
        assert!(out.spawn(async move {
            let _ = done.send(());
        }));
        finished.await.unwrap();
    }
}
