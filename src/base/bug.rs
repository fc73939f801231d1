//! Containing a bug: a panic in one piece of work (an answer, a reflector batch, a round of
//! embeddings, a message's first reading) is caught where that work runs, logged, and turned
//! into that work's failure, so that nothing the network or the model sends can stop the
//! daemon. What the work leaves undone stays owed; its caller's rules retry it.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, PanicHookInfo};

use futures_util::FutureExt;

/// A panic caught in some work, with the start of what it said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a bug stopped it ({said}); please report it")]
pub struct Bug {
    pub said: String,
}

/// The most of a panic's message kept (in a [`Bug`], in the log).
const SAID_CHARS: usize = 120;

/// The start of a panic's message: its first line, up to the first backquote (what a panic
/// quotes there is data — a slice of a chat message, say — which stays out of logs and
/// records), at most [`SAID_CHARS`] characters.
fn said(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    let line = text.lines().next().unwrap_or_default();
    let line = line.split('`').next().unwrap_or_default().trim_end();
    let mut kept: String = line.chars().take(SAID_CHARS).collect();
    if kept.len() < text.trim_end().len() {
        kept.push('…');
    }
    kept
}

impl Bug {
    fn caught(what: &str, payload: &(dyn Any + Send)) -> Self {
        let bug = Self {
            said: said(payload),
        };
        tracing::error!(work = what, error = %bug, "a bug was met; the daemon goes on without this work");
        bug
    }
}

/// Runs `work`; a panic in it is logged (naming `what`) and returned as a [`Bug`].
pub async fn contained<T>(what: &str, work: impl Future<Output = T>) -> Result<T, Bug> {
    AssertUnwindSafe(work)
        .catch_unwind()
        .await
        .map_err(|payload| Bug::caught(what, payload.as_ref()))
}

/// The same for work that does not wait.
pub fn contained_now<T>(what: &str, work: impl FnOnce() -> T) -> Result<T, Bug> {
    std::panic::catch_unwind(AssertUnwindSafe(work))
        .map_err(|payload| Bug::caught(what, payload.as_ref()))
}

/// Has every panic logged as a `tracing` error with where it happened and the start of what
/// it said (not Rust's default message on stderr, which quotes whatever data it met in full).
pub fn log_panics() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo<'_>| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!(at = %place, said = %said(info.payload()), "panic (a bug: please report it)");
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_bug_and_its_quoted_data_stays_out() {
        let bug = contained_now("slicing", || {
            let text = String::from("secret é token");
            let cut = 8;
            text[..cut].len()
        })
        .unwrap_err();
        assert!(
            bug.said.contains("byte index 8 is not a char boundary"),
            "{bug:?}"
        );
        assert!(!bug.said.contains("secret"), "{bug:?}");
        assert!(bug.to_string().contains("please report it"));

        let long = contained_now("long", || panic!("{}", "x".repeat(500))).unwrap_err();
        assert_eq!(long.said.chars().count(), SAID_CHARS + 1, "{long:?}");
        assert_eq!(contained_now("fine", || 7), Ok(7));
    }

    #[tokio::test]
    async fn a_future_that_panics_is_contained_and_the_runtime_goes_on() {
        let caught = contained("a turn", async {
            tokio::task::yield_now().await;
            let n: Option<u8> = "x".parse().ok();
            n.expect("no value")
        })
        .await;
        assert_eq!(caught.unwrap_err().said, "no value");
        assert_eq!(contained("fine", async { 3 }).await, Ok(3));
    }
}
