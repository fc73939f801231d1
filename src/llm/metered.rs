//! A provider wrapper that times every call and counts failures for `/metrics`, labelled with
//! what the call is for (`chat` or `reflector`). Wrapping here, once, instead of at each call
//! site keeps the agent and the reflector free of metrics code.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;

use super::{DeltaSink, LlmError, LlmProvider, LlmRequest, LlmResponse};
use crate::metrics::metrics;

pub struct Metered {
    inner: Arc<dyn LlmProvider>,
    purpose: &'static str,
}

impl Metered {
    /// `inner`, measured under `purpose`.
    pub fn wrap(inner: Arc<dyn LlmProvider>, purpose: &'static str) -> Arc<dyn LlmProvider> {
        Arc::new(Self { inner, purpose })
    }

    fn record(&self, started: Instant, result: &Result<LlmResponse, LlmError>) {
        let error = result.as_ref().err().map(|e| match e {
            LlmError::Status { .. } => "status",
            LlmError::Timeout { .. } => "timeout",
            LlmError::Network { .. } => "network",
            LlmError::InvalidResponse { .. } => "invalid_response",
        });
        metrics().llm_call(self.inner.name(), self.purpose, started.elapsed(), error);
    }
}

#[async_trait]
impl LlmProvider for Metered {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    async fn complete(&self, req: &LlmRequest) -> Result<LlmResponse, LlmError> {
        let started = Instant::now();
        let result = self.inner.complete(req).await;
        self.record(started, &result);
        result
    }

    async fn complete_streaming(
        &self,
        req: &LlmRequest,
        on_delta: DeltaSink<'_>,
    ) -> Result<LlmResponse, LlmError> {
        let started = Instant::now();
        let result = self.inner.complete_streaming(req, on_delta).await;
        self.record(started, &result);
        result
    }
}
