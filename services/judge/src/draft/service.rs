//! The draft judge as a NATS request/reply service (`memval serve judge`): a request on
//! `memval.v1.judge.draft` carries `{"draft": "..."}`, the reply is the judgement JSON the
//! CLI prints, or `{"judge": "memory-conflict", "error": "..."}` when the request or the
//! served memory folder cannot be used.
//!
//! The memory folder is the service's (`--memory DIR`), read afresh for every request, so a
//! memory saved a second ago counts; a request never names a path, so nothing outside that
//! folder can be read on a requester's say. The folder read and the rules run on a blocking
//! thread; only the model call (if any) is awaited on the runtime.
//!
//! Replicas share requests through the queue group `memval-judge` ([`QUEUE_GROUP`]).

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use memval_proto::subjects;
use memval_transport::reply::{Requester, Responder, ResponderStats};
use serde_json::{json, Value};

use super::{draft_text, memory, prepare, render, DraftError, DraftJudge, JUDGE};

/// Replicas of `serve judge` share requests through this queue group.
pub const QUEUE_GROUP: &str = "memval-judge";

pub struct DraftService {
    judge: DraftJudge,
    memory: PathBuf,
}

impl DraftService {
    pub fn new(judge: DraftJudge, memory: PathBuf) -> DraftService {
        DraftService { judge, memory }
    }

    /// The reply to one request's payload.
    pub async fn answer(&self, request: Vec<u8>) -> Vec<u8> {
        match self.try_answer(request).await {
            Ok(reply) => reply,
            Err(e) => error_reply(&e.to_string()),
        }
    }

    async fn try_answer(&self, request: Vec<u8>) -> Result<Vec<u8>, DraftError> {
        let value: Value =
            serde_json::from_slice(&request).map_err(|e| DraftError::Draft(format!("the request is not JSON: {e}")))?;
        let draft = match value.get("draft") {
            Some(Value::String(s)) => draft_text(s.clone().into_bytes())?,
            _ => return Err(DraftError::Draft("the request must be a JSON object with a \"draft\" string".into())),
        };
        let dir = self.memory.clone();
        let (folder, draft, prepared) = tokio::task::spawn_blocking(move || {
            let folder = memory::read_folder(&dir)?;
            let prepared = prepare(&folder, &draft);
            Ok::<_, DraftError>((folder, draft, prepared))
        })
        .await
        .map_err(|e| DraftError::Draft(format!("the judgement failed: {e}")))??;
        let judgement = self.judge.finish(&folder, &draft, prepared).await;
        Ok(render::json_bytes(&judgement))
    }
}

fn error_reply(error: &str) -> Vec<u8> {
    memval_proto::display::json_safe(&json!({"judge": JUDGE, "error": error}).to_string()).into_bytes()
}

/// Subscribe to draft judgement requests on [`subjects::JUDGE_DRAFT`] (replicas share them
/// through [`QUEUE_GROUP`]); at most `concurrency` are judged at once.
pub async fn listen(connection: &Requester, concurrency: usize) -> Result<Responder, DraftError> {
    Ok(connection.subscribe(subjects::JUDGE_DRAFT, QUEUE_GROUP, concurrency).await?)
}

/// Answer the requests `responder` receives with `service` until `shutdown` resolves.
pub async fn serve(
    responder: Responder,
    service: Arc<DraftService>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<Arc<ResponderStats>, DraftError> {
    let handler = move |payload: Vec<u8>| {
        let service = service.clone();
        async move { service.answer(payload).await }
    };
    Ok(responder.run(handler, shutdown).await?)
}
