//! Retrying the writes a channel must not lose: a message, an update offset, a delivered mark.

use std::fmt::Display;
use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

/// The first wait after a failed attempt, doubled each time up to [`RETRY_MAX`].
const RETRY_FIRST: Duration = Duration::from_millis(250);
const RETRY_MAX: Duration = Duration::from_secs(5);

/// Runs `op` until it succeeds, waiting longer after each failure (250 ms doubling to 5 s) and
/// logging each one; `None` when `shutdown` comes first. For the writes a channel must not
/// lose or give up on: a message, its update offset.
pub async fn retry_until<T, E: Display, F: Future<Output = Result<T, E>>>(
    what: &str,
    shutdown: &CancellationToken,
    mut op: impl FnMut() -> F,
) -> Option<T> {
    let mut wait = RETRY_FIRST;
    loop {
        match op().await {
            Ok(v) => return Some(v),
            Err(e) => {
                tracing::warn!(error = %e, ?wait, "could not {what}; retrying");
            }
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = shutdown.cancelled() => return None,
        }
        wait = (wait * 2).min(RETRY_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn retries_until_it_works_or_shutdown() {
        let stop = CancellationToken::new();
        let mut calls = 0;
        let got = retry_until("count", &stop, || {
            calls += 1;
            let result = if calls < 3 { Err("busy") } else { Ok(calls) };
            std::future::ready(result)
        })
        .await;
        assert_eq!(got, Some(3));

        stop.cancel();
        let never: Option<()> =
            retry_until("fail", &stop, || std::future::ready(Err("busy"))).await;
        assert_eq!(never, None);
    }
}
