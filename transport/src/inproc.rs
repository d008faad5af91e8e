//! In-process transport: bounded tokio channels of encoded messages.
//!
//! A nak'd message is redelivered with a higher delivery count; a delivery dropped without an
//! answer is redelivered, as a broker would after its ack wait; the inbox closes only when
//! upstream is gone *and* nothing is in flight. The retry queue is bounded by the messages in
//! flight, so nothing here grows without bound.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, Notify};

use crate::{Acker, BoxFuture, DeadLetter, Envelope, Headers, Inbox, Outbox, Outgoing, TransportError};

#[derive(Default)]
struct Packet {
    subject: String,
    msg_id: String,
    headers: Headers,
    payload: Vec<u8>,
    delivery: u32,
}

/// Shared list of dead letters of an in-process pipeline.
#[derive(Clone, Default)]
pub struct DeadLetters(Arc<Mutex<Vec<DeadLetter>>>);

impl DeadLetters {
    pub fn take(&self) -> Vec<DeadLetter> {
        std::mem::take(&mut *self.0.lock().expect("dead letter list poisoned"))
    }

    fn push(&self, letter: DeadLetter) {
        self.0.lock().expect("dead letter list poisoned").push(letter);
    }
}

/// A bounded channel of `capacity` messages. The inbox closes when every outbox clone is
/// dropped, the channel is drained, and no delivered message is still unanswered (a nak'd
/// message comes back, so the inbox must not close under it).
pub fn channel(capacity: usize, dead: DeadLetters) -> (ChannelOutbox, ChannelInbox) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let inbox = ChannelInbox { rx: tokio::sync::Mutex::new(rx), shared: Arc::new(Shared::default()), dead };
    (ChannelOutbox { tx }, inbox)
}

#[derive(Clone)]
pub struct ChannelOutbox {
    tx: mpsc::Sender<Packet>,
}

impl Outbox for ChannelOutbox {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<(), TransportError>> {
        let Outgoing { subject, msg_id, headers, payload } = message;
        let packet = Packet { subject, msg_id, headers, payload, delivery: 1 };
        Box::pin(async move {
            self.tx.send(packet).await.map_err(|_| TransportError::Closed("in-process channel has no consumer".into()))
        })
    }
}

#[derive(Default)]
struct Shared {
    /// Nak'd messages waiting for redelivery; bounded by the number in flight.
    retry: Mutex<VecDeque<Packet>>,
    in_flight: AtomicUsize,
    upstream_closed: AtomicBool,
    changed: Notify,
}

impl Shared {
    fn settle(&self, requeue: Option<Packet>) {
        if let Some(packet) = requeue {
            self.retry.lock().expect("retry queue poisoned").push_back(packet);
        }
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.changed.notify_waiters();
    }
}

pub struct ChannelInbox {
    rx: tokio::sync::Mutex<mpsc::Receiver<Packet>>,
    shared: Arc<Shared>,
    dead: DeadLetters,
}

impl ChannelInbox {
    fn deliver(&self, packet: Packet) -> Envelope {
        self.shared.in_flight.fetch_add(1, Ordering::SeqCst);
        let acker = ChannelAcker {
            shared: Some(self.shared.clone()),
            dead: self.dead.clone(),
            packet: Packet {
                subject: packet.subject.clone(),
                msg_id: packet.msg_id.clone(),
                headers: packet.headers.clone(),
                payload: packet.payload.clone(),
                delivery: packet.delivery,
            },
        };
        Envelope {
            subject: packet.subject,
            payload: packet.payload,
            msg_id: Some(packet.msg_id),
            delivery: packet.delivery,
            published_at: None,
            headers: packet.headers,
            acker: Box::new(acker),
        }
    }
}

impl Inbox for ChannelInbox {
    fn next(&self) -> BoxFuture<'_, Option<Result<Envelope, TransportError>>> {
        Box::pin(async move {
            loop {
                let changed = self.shared.changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                let retry = self.shared.retry.lock().expect("retry queue poisoned").pop_front();
                if let Some(packet) = retry {
                    return Some(Ok(self.deliver(packet)));
                }
                if !self.shared.upstream_closed.load(Ordering::SeqCst) {
                    let mut rx = self.rx.lock().await;
                    tokio::select! {
                        packet = rx.recv() => match packet {
                            Some(packet) => return Some(Ok(self.deliver(packet))),
                            None => self.shared.upstream_closed.store(true, Ordering::SeqCst),
                        },
                        _ = &mut changed => {}
                    }
                    continue;
                }
                if self.shared.in_flight.load(Ordering::SeqCst) == 0 {
                    return None;
                }
                changed.await;
            }
        })
    }
}

struct ChannelAcker {
    /// `None` once answered.
    shared: Option<Arc<Shared>>,
    dead: DeadLetters,
    packet: Packet,
}

impl ChannelAcker {
    /// Takes the box the `Acker` methods hold, so the delivery is answered once; `Drop`
    /// redelivers a delivery nobody answered.
    #[allow(clippy::boxed_local)]
    fn answer(mut self: Box<Self>) -> (Arc<Shared>, Packet, DeadLetters) {
        let shared = self.shared.take().expect("a delivery is answered once");
        let packet = std::mem::take(&mut self.packet);
        (shared, packet, self.dead.clone())
    }
}

impl Drop for ChannelAcker {
    /// An unanswered delivery (a worker that panicked) is redelivered, as a broker would
    /// after its ack wait.
    fn drop(&mut self) {
        if let Some(shared) = self.shared.take() {
            let packet = std::mem::take(&mut self.packet);
            shared.settle(Some(Packet { delivery: packet.delivery + 1, ..packet }));
        }
    }
}

impl Acker for ChannelAcker {
    fn ack(self: Box<Self>) -> BoxFuture<'static, Result<(), TransportError>> {
        let (shared, _, _) = self.answer();
        shared.settle(None);
        Box::pin(async { Ok(()) })
    }

    fn nak(self: Box<Self>, delay: Duration) -> BoxFuture<'static, Result<(), TransportError>> {
        let (shared, packet, _) = self.answer();
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            shared.settle(Some(Packet { delivery: packet.delivery + 1, ..packet }));
            Ok(())
        })
    }

    fn dead_letter(
        self: Box<Self>,
        reason: String,
        payload: Vec<u8>,
    ) -> BoxFuture<'static, Result<(), TransportError>> {
        let (shared, packet, dead) = self.answer();
        tracing::warn!(subject = %packet.subject, msg_id = %packet.msg_id, reason = %reason, "dead-lettered");
        dead.push(DeadLetter {
            subject: packet.subject,
            msg_id: Some(packet.msg_id),
            headers: packet.headers,
            reason,
            payload,
        });
        shared.settle(None);
        Box::pin(async { Ok(()) })
    }

    fn progress(&self) -> BoxFuture<'static, Result<(), TransportError>> {
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn inbox_closes_after_outboxes_drop_and_queue_drains() {
        let (out, inbox) = channel(4, DeadLetters::default());
        out.publish("s", "a:0".into(), vec![1]).await.unwrap();
        out.publish("s", "a:1".into(), vec![2]).await.unwrap();
        drop(out);
        let first = inbox.next().await.unwrap().unwrap();
        assert_eq!(first.payload, vec![1]);
        first.acker.ack().await.unwrap();
        let second = inbox.next().await.unwrap().unwrap();
        assert_eq!(second.msg_id.as_deref(), Some("a:1"));
        second.acker.ack().await.unwrap();
        assert!(inbox.next().await.is_none());
    }

    #[tokio::test]
    async fn nak_redelivers_with_a_higher_delivery_count() {
        let (out, inbox) = channel(4, DeadLetters::default());
        out.publish("s", "a:0".into(), vec![7]).await.unwrap();
        let first = inbox.next().await.unwrap().unwrap();
        // Upstream finishing while a message is in flight must not lose the message.
        drop(out);
        first.acker.nak(Duration::from_millis(1)).await.unwrap();
        let again = inbox.next().await.unwrap().unwrap();
        assert_eq!((again.payload.clone(), again.delivery), (vec![7], 2));
        again.acker.ack().await.unwrap();
        assert!(inbox.next().await.is_none());
    }

    #[tokio::test]
    async fn dead_letters_keep_reason_and_payload() {
        let dead = DeadLetters::default();
        let (out, inbox) = channel(1, dead.clone());
        out.publish("s", "a:0".into(), vec![9, 9]).await.unwrap();
        let env = inbox.next().await.unwrap().unwrap();
        env.acker.dead_letter("bad".into(), vec![9, 9]).await.unwrap();
        let letters = dead.take();
        assert_eq!(letters.len(), 1);
        assert_eq!((letters[0].reason.as_str(), letters[0].payload.as_slice()), ("bad", &[9u8, 9][..]));
    }
}

#[cfg(test)]
mod drop_tests {
    use super::*;

    #[tokio::test]
    async fn an_unanswered_delivery_comes_back() {
        let (out, inbox) = channel(2, DeadLetters::default());
        out.publish("s", "a:0".into(), vec![3]).await.unwrap();
        drop(out);
        let env = inbox.next().await.unwrap().unwrap();
        drop(env);
        let again = inbox.next().await.unwrap().unwrap();
        assert_eq!(again.delivery, 2);
        again.acker.ack().await.unwrap();
        assert!(inbox.next().await.is_none());
    }
}
