//! Bodies across the runtime boundary: a hyper body as a byte `ReadableStream`
//! ([`incoming_stream`]), and a `ReadableStream` (or bytes) as a hyper body ([`OutBody`],
//! fed by [`pump`]).

use std::cell::RefCell;
use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll};

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Trace};
use boa_streams::native::{
    native_readable_byte_stream, spawn_future, ByteController, ByteSource, ByteStreamOptions,
    Completion, ReadableStream, RustPromise, SpawnedFuture, StreamReader,
};
use boa_webidl::type_error;
use bytes::Bytes;
use futures::StreamExt;
use hyper::body::{Body, Frame, SizeHint};

/// The error of a received body.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A body received from hyper (a response's for `fetch()`, a request's for the server), or
/// read from a file.
pub(crate) type InBody = Pin<Box<dyn Body<Data = Bytes, Error = BoxError> + Send>>;

/// A body fed through a channel by a task on the runtime (a file's reader): its capacity
/// bounds what is read ahead of the stream.
pub(crate) struct ChannelBody(pub(crate) tokio::sync::mpsc::Receiver<Result<Bytes, io::Error>>);

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut().0.poll_recv(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Ready(Some(r)) => Poll::Ready(Some(r.map(Frame::data))),
        }
    }
}

/// The state a body stream shares with its pending pull and with whoever can abort it.
#[derive(Default)]
pub(crate) struct InState {
    /// The body (`None` once it ended, failed, or was dropped by cancel / abort).
    body: RefCell<Option<InBody>>,
    /// What is left of a frame a BYOB read took part of.
    rest: RefCell<Bytes>,
    /// The pending pull's future.
    pending: RefCell<Option<SpawnedFuture>>,
    /// Bytes handed to the stream so far.
    pub(crate) received: std::cell::Cell<u64>,
    /// Run once when the body is finished with: read to its end, failed, cancelled or
    /// aborted.
    on_done: RefCell<Option<Box<dyn FnOnce()>>>,
}

impl InState {
    /// Drop the body (the connection closes if it was not read to its end) and the pending
    /// pull.
    pub(crate) fn drop_body(&self) {
        let pending = self.pending.borrow_mut().take();
        if let Some(p) = pending {
            p.abort();
        }
        let body = self.body.borrow_mut().take();
        drop(body);
        let on_done = self.on_done.borrow_mut().take();
        if let Some(f) = on_done {
            f();
        }
    }
}

/// The byte source of a received body.
#[derive(Trace, Finalize)]
struct InSource {
    #[unsafe_ignore_trace]
    state: Rc<InState>,
}

/// What one pull got from the body.
enum Next {
    Data(Bytes),
    End,
    Failed(String),
}

/// Poll `state`'s body for its next non-empty data frame (trailers are skipped). Borrows the
/// body only within one poll.
fn poll_next(state: &InState, cx: &mut TaskContext<'_>) -> Poll<Next> {
    let mut body = state.body.borrow_mut();
    let Some(b) = body.as_mut() else {
        return Poll::Ready(Next::End);
    };
    // Bounded per poll: a peer sending only empty frames yields back to the loop.
    for _ in 0..64 {
        match b.as_mut().poll_frame(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => return Poll::Ready(Next::End),
            Poll::Ready(Some(Err(e))) => {
                return Poll::Ready(Next::Failed(crate::runtime::error_chain(e.as_ref())));
            }
            Poll::Ready(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if !data.is_empty() {
                        return Poll::Ready(Next::Data(data));
                    }
                }
            }
        }
    }
    cx.waker().wake_by_ref();
    Poll::Pending
}

/// Hand `bytes` to the stream: into the pending BYOB read's buffer (keeping what does not
/// fit for the next pull), or as a new chunk.
fn deliver(
    state: &InState,
    controller: &ByteController,
    bytes: Bytes,
    ctx: &mut Context,
) -> JsResult<()> {
    state
        .received
        .set(state.received.get().saturating_add(bytes.len() as u64));
    match controller.byob_request() {
        Some(request) => {
            let n = bytes.len().min(request.remaining);
            *state.rest.borrow_mut() = bytes.slice(n..);
            controller
                .fill(
                    |view| match (view.get_mut(..n), bytes.get(..n)) {
                        (Some(to), Some(from)) => {
                            to.copy_from_slice(from);
                            n
                        }
                        _ => 0,
                    },
                    ctx,
                )
                .map(drop)
        }
        None => controller.enqueue(&bytes, ctx),
    }
}

impl ByteSource for InSource {
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        let rest = self.state.rest.take();
        if !rest.is_empty() {
            let r = deliver(&self.state, controller, rest, ctx);
            return Completion::from_result(r, ctx);
        }
        let promise = RustPromise::new();
        let state = self.state.clone();
        let settle = promise.clone();
        let controller = controller.clone();
        let reading = state.clone();
        let task = spawn_future(
            poll_fn(move |cx| poll_next(&reading, cx)),
            move |next, ctx| {
                state.pending.borrow_mut().take();
                let result = match next {
                    Next::Data(bytes) => deliver(&state, &controller, bytes, ctx),
                    Next::End => {
                        state.drop_body();
                        controller.close(ctx)
                    }
                    Next::Failed(message) => {
                        state.drop_body();
                        Err(type_error(format!("network error: {message}")))
                    }
                };
                let settlement = result
                    .map(|()| JsValue::undefined())
                    .map_err(|e| boa_webidl::own_error_value(e, ctx));
                settle.settle(settlement, ctx);
            },
            ctx,
        );
        if !task.is_finished() {
            *self.state.pending.borrow_mut() = Some(task);
        }
        Completion::Rust(promise)
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        self.state.drop_body();
        Completion::undefined()
    }
}

/// The high water mark (bytes) of a received body's stream.
pub(crate) const IN_HIGH_WATER_MARK: f64 = 65536.0;

/// A byte `ReadableStream` over `body`, polled while a read is pending or its queue holds
/// less than [`IN_HIGH_WATER_MARK`] bytes; `on_done` runs
/// once the body is finished with (ended, failed, cancelled or aborted). Returns the stream and the shared state (to drop the body on
/// abort).
pub(crate) fn incoming_stream<B>(
    body: B,
    on_done: Option<Box<dyn FnOnce()>>,
    ctx: &mut Context,
) -> JsResult<(JsObject<ReadableStream>, Rc<InState>)>
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    use http_body_util::BodyExt;
    let body: InBody = Box::pin(body.map_err(Into::into));
    let state = Rc::new(InState {
        body: RefCell::new(Some(body)),
        on_done: RefCell::new(on_done),
        ..InState::default()
    });
    let source = InSource {
        state: state.clone(),
    };
    // A small high water mark: the next frame is awaited while the script handles the
    // previous one (socket reads overlap the script's work), and at most this many bytes
    // (plus one frame) wait in the stream's queue for a reader that stopped reading.
    let options = ByteStreamOptions {
        high_water_mark: IN_HIGH_WATER_MARK,
        ..ByteStreamOptions::default()
    };
    let stream = native_readable_byte_stream(source, options, ctx)?;
    Ok((stream, state))
}

/// Error `stream` (a byte stream) with `reason` and drop its body: an abort.
pub(crate) fn abort_incoming(
    stream: &JsObject<ReadableStream>,
    state: &InState,
    reason: JsValue,
    ctx: &mut Context,
) {
    state.drop_body();
    if let Some(controller) = ByteController::of_stream(stream) {
        controller.error(reason, ctx);
    }
}

/// A body to send through hyper: nothing, bytes (with a `Content-Length`), or the chunks a
/// [`pump`] sends (chunked).
pub(crate) enum OutBody {
    Empty,
    Full(Option<Bytes>),
    Channel(tokio::sync::mpsc::Receiver<Result<Bytes, io::Error>>),
}

impl Body for OutBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut() {
            OutBody::Empty => Poll::Ready(None),
            OutBody::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            OutBody::Channel(rx) => match rx.poll_recv(cx) {
                Poll::Pending => Poll::Pending,
                Poll::Ready(None) => Poll::Ready(None),
                Poll::Ready(Some(r)) => Poll::Ready(Some(r.map(Frame::data))),
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            OutBody::Empty => true,
            OutBody::Full(bytes) => bytes.is_none(),
            OutBody::Channel(_) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            OutBody::Empty => SizeHint::with_exact(0),
            OutBody::Full(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            OutBody::Channel(_) => SizeHint::default(),
        }
    }
}

/// Chunks a [`pump`] reads ahead of the socket, at most: a few, so a script thread and the
/// socket's thread do not wake each other for every chunk, and memory stays bounded by a
/// small count of chunks whatever the body's length.
const PUMP_AHEAD: usize = 4;

/// Once a [`pump`]'s channel is full, the chunks the socket's side must take before the pump
/// reads again: the socket's thread then wakes the script's thread once per this many
/// chunks rather than once per chunk (with at least `PUMP_AHEAD - PUMP_REFILL` chunks still
/// queued for the socket meanwhile).
const PUMP_REFILL: usize = 2;

/// How a [`pump`] ended.
pub(crate) enum PumpEnd {
    /// The stream ended and every chunk was handed over.
    Done,
    /// The stream errored (the message went to the receiver as an `io::Error`).
    StreamError,
    /// The receiver went away (the connection closed or the request was dropped).
    ReceiverGone,
}

/// Read `stream` with a [`StreamReader`] and send its chunks into a [`PUMP_AHEAD`]-chunk channel: the
/// stream is read only as fast as the receiver (hyper, writing to the socket) takes chunks.
/// Returns the receiving body, the future to spawn, and the reader (to cancel the stream).
pub(crate) fn pump(
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<(
    OutBody,
    impl std::future::Future<Output = PumpEnd>,
    StreamReader,
)> {
    let reader = StreamReader::new(stream, ctx)?;
    let mut chunks = reader.clone().into_stream(ctx);
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, io::Error>>(PUMP_AHEAD);
    let future = async move {
        // Bounded by the stream: each turn takes one chunk. A receiver that goes away while
        // a read is pending (a client vanishing during a `pull()` that has not settled)
        // ends the pump at once, so the stream is cancelled rather than left waiting.
        loop {
            if tx.capacity() == 0 {
                // Full: wait until `PUMP_REFILL` slots are free (the permits go back at
                // once; this pump is the only sender, so the sends below find room).
                let room = tokio::select! {
                    room = tx.reserve_many(PUMP_REFILL) => room.is_ok(),
                    () = tx.closed() => false,
                };
                if !room {
                    return PumpEnd::ReceiverGone;
                }
            }
            let item = tokio::select! {
                item = chunks.next() => item,
                () = tx.closed() => return PumpEnd::ReceiverGone,
            };
            let Some(item) = item else { break };
            match item {
                Ok(bytes) => {
                    if bytes.is_empty() {
                        continue;
                    }
                    // The chunk's bytes were copied out of its ArrayBuffer, which the
                    // collector does not see: count them, so dead chunks do not pile up
                    // between collections (here, between jobs, no GC borrow is held).
                    boa_webidl::gc_pressure::count_foreign_block(bytes.len());
                    if tx.send(Ok(bytes)).await.is_err() {
                        return PumpEnd::ReceiverGone;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Err(io::Error::other(e.to_string()))).await;
                    return PumpEnd::StreamError;
                }
            }
        }
        PumpEnd::Done
    };
    Ok((OutBody::Channel(rx), future, reader))
}
