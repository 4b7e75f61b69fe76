//! Sink algorithms of writable streams: the controller's `[[writeAlgorithm]]`,
//! `[[closeAlgorithm]]`, `[[abortAlgorithm]]` (and the start algorithm) as a Rust enum: a JS
//! underlying sink or a Rust sink ([`NativeSink`]: an embedder's, or a TransformStream's
//! writable side, which the transform module defines). Each returns "a
//! promise", a [`Completion`].

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, Trace};

use crate::chunk::Chunk;
use crate::promise::{completion_resolved_with, invoke_promise_callback, Completion};

// ---------------------------------------------------------------------------------------
// Sink algorithms
// ---------------------------------------------------------------------------------------

/// A JS underlying sink: the object (callback this value) and its converted members.
#[derive(Debug, Trace, Finalize)]
pub struct JsSink {
    pub sink: JsValue,
    pub start: Option<JsObject>,
    pub write: Option<JsObject>,
    pub close: Option<JsObject>,
    pub abort: Option<JsObject>,
}

/// A sink written in Rust (an embedder's, or a TransformStream's writable side). Methods must not assume they are not re-entered:
/// they may run JS.
pub trait NativeSink: Trace + Finalize + 'static {
    /// The start algorithm (may throw: the stream construction then fails).
    fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<Completion> {
        let _ = (controller, ctx);
        Ok(Completion::undefined())
    }
    /// The write algorithm.
    fn write(&self, chunk: JsValue, controller: &JsObject, ctx: &mut Context) -> Completion;
    /// The write algorithm for a chunk that a native source enqueued as bytes
    /// ([`crate::native::enqueue_bytes`]) and that reached this sink without passing through
    /// script (a pipe, fast paths on). By default the bytes become the `Uint8Array` script
    /// would have seen and go to [`Self::write`]; a sink that consumes bytes overrides this
    /// to take them without that JS object.
    fn write_bytes(
        &self,
        chunk: bytes::Bytes,
        controller: &JsObject,
        ctx: &mut Context,
    ) -> Completion {
        let chunk = Chunk::bytes(chunk, ctx).into_js(ctx);
        self.write(chunk, controller, ctx)
    }
    /// The close algorithm.
    fn close(&self, ctx: &mut Context) -> Completion {
        let _ = ctx;
        Completion::undefined()
    }
    /// The abort algorithm.
    fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let _ = (reason, ctx);
        Completion::undefined()
    }
}

/// A boxed native sink in a GC box (cheap to clone out before calling it).
#[derive(Trace, Finalize)]
pub struct NativeSinkBox(pub Box<dyn NativeSink>);

/// The controller's sink algorithms.
#[derive(Clone, Trace, Finalize)]
pub enum SinkAlgorithms {
    /// [SetUpWritableStreamDefaultControllerFromUnderlyingSink](https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller-from-underlying-sink)
    Js(Gc<JsSink>),
    /// A sink implemented in Rust.
    Native(Gc<NativeSinkBox>),
    /// A `TransformStream`'s writable side: its [`NativeSink`] steps, called directly, and a
    /// write whose transform settled synchronously without the "result of reacting" promise
    /// (see [`SinkWrite::FulfilledNextTick`]).
    Transform(Gc<crate::transform::TransformSink>),
}

/// What the write algorithm gave WritableStreamDefaultControllerProcessWrite.
pub(crate) enum SinkWrite {
    /// sinkWritePromise.
    Promise(Completion),
    /// sinkWritePromise is a promise that fulfills in the next microtask: the result of
    /// reacting to an already fulfilled promise, not made (its one reaction, the write
    /// processing's, is enqueued from that microtask).
    FulfilledNextTick,
}

impl std::fmt::Debug for SinkAlgorithms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Js(_) => f.write_str("SinkAlgorithms::Js"),
            Self::Native(_) => f.write_str("SinkAlgorithms::Native"),
            Self::Transform(_) => f.write_str("SinkAlgorithms::Transform"),
        }
    }
}

impl SinkAlgorithms {
    /// A native sink.
    pub fn native(sink: impl NativeSink) -> Self {
        Self::Native(Gc::new(NativeSinkBox(Box::new(sink))))
    }

    /// The start algorithm ("may throw"); its result is "a promise resolved with" the result.
    pub(crate) fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<Completion> {
        match self {
            Self::Js(s) => match &s.start {
                // Invoke with « controller », exception behavior "rethrow", this = sink.
                Some(f) => {
                    let v = f.call(&s.sink, &[controller.clone().into()], ctx)?;
                    Ok(completion_resolved_with(v, ctx))
                }
                None => Ok(Completion::undefined()),
            },
            Self::Native(n) => n.0.start(controller, ctx),
            Self::Transform(t) => t.start(controller, ctx),
        }
    }

    /// `[[writeAlgorithm]]`.
    pub(crate) fn write(
        &self,
        chunk: Chunk,
        controller: &JsObject,
        ctx: &mut Context,
    ) -> Completion {
        match self {
            Self::Js(s) => match &s.write {
                Some(f) => {
                    // The chunk reaches script: Rust bytes become their Uint8Array here.
                    let chunk = chunk.into_js(ctx);
                    invoke_promise_callback(f, &s.sink, &[chunk, controller.clone().into()], ctx)
                }
                None => Completion::undefined(),
            },
            Self::Native(n) => match chunk {
                Chunk::Js(chunk) => n.0.write(chunk, controller, ctx),
                Chunk::Bytes(bytes, _) => n.0.write_bytes(bytes, controller, ctx),
            },
            Self::Transform(t) => t.write_chunk(chunk, ctx),
        }
    }

    /// The write algorithm as WritableStreamDefaultControllerProcessWrite performs it.
    pub(crate) fn write_processed(
        &self,
        chunk: Chunk,
        controller: &JsObject,
        ctx: &mut Context,
    ) -> SinkWrite {
        match self {
            Self::Transform(t) => t.write_processed(chunk, ctx),
            _ => SinkWrite::Promise(self.write(chunk, controller, ctx)),
        }
    }

    /// `[[closeAlgorithm]]`.
    pub(crate) fn close(&self, ctx: &mut Context) -> Completion {
        match self {
            Self::Js(s) => match &s.close {
                Some(f) => invoke_promise_callback(f, &s.sink, &[], ctx),
                None => Completion::undefined(),
            },
            Self::Native(n) => n.0.close(ctx),
            Self::Transform(t) => t.close(ctx),
        }
    }

    /// `[[abortAlgorithm]]`.
    pub(crate) fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        match self {
            Self::Js(s) => match &s.abort {
                Some(f) => invoke_promise_callback(f, &s.sink, &[reason], ctx),
                None => Completion::undefined(),
            },
            Self::Native(n) => n.0.abort(reason, ctx),
            Self::Transform(t) => t.abort(reason, ctx),
        }
    }
}
