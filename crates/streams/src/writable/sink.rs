//! Sink algorithms of writable streams: the controller's `[[writeAlgorithm]]`,
//! `[[closeAlgorithm]]`, `[[abortAlgorithm]]` (and the start algorithm) as a Rust enum: a JS
//! underlying sink or a Rust sink ([`NativeSink`]: an embedder's, or a TransformStream's
//! writable side, which the transform module defines). Each returns "a
//! promise", a [`Completion`].

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, Trace};

use crate::chunk::Chunk;
use boa_webidl::promise::{completion_resolved_with, invoke_promise_callback, Completion};

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
    /// (`native::enqueue_bytes`) and that reached this sink without passing through
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

/// A sink implemented in Rust, as the controller's algorithms call it: an embedder's
/// [`NativeSink`] (through [`Native`]) or another module's steps (a TransformStream's writable
/// side implements this trait in `transform`; this module names no sink of its own).
pub(crate) trait SinkSteps: Trace + Finalize + 'static {
    /// The start algorithm (may throw).
    fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<Completion>;
    /// `[[writeAlgorithm]]`.
    fn write(&self, chunk: Chunk, controller: &JsObject, ctx: &mut Context) -> Completion;
    /// The write algorithm as WritableStreamDefaultControllerProcessWrite performs it (a sink
    /// may answer that its write promise fulfills in the next microtask, see
    /// [`SinkWrite::FulfilledNextTick`]).
    fn write_processed(&self, chunk: Chunk, controller: &JsObject, ctx: &mut Context) -> SinkWrite {
        SinkWrite::Promise(self.write(chunk, controller, ctx))
    }
    /// `[[closeAlgorithm]]`.
    fn close(&self, ctx: &mut Context) -> Completion;
    /// `[[abortAlgorithm]]`.
    fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion;
}

/// An embedder's [`NativeSink`] as [`SinkSteps`]: a JS chunk goes to `write`, Rust bytes to
/// `write_bytes`.
#[derive(Trace, Finalize)]
pub(crate) struct Native<S: NativeSink>(pub(crate) S);

impl<S: NativeSink> SinkSteps for Native<S> {
    fn start(&self, controller: &JsObject, ctx: &mut Context) -> JsResult<Completion> {
        self.0.start(controller, ctx)
    }
    fn write(&self, chunk: Chunk, controller: &JsObject, ctx: &mut Context) -> Completion {
        match chunk {
            Chunk::Js(chunk) => self.0.write(chunk, controller, ctx),
            Chunk::Bytes(bytes, _) => self.0.write_bytes(bytes, controller, ctx),
        }
    }
    fn close(&self, ctx: &mut Context) -> Completion {
        self.0.close(ctx)
    }
    fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        self.0.abort(reason, ctx)
    }
}

/// A Rust sink in a GC box (cheap to clone out before calling it).
#[derive(Trace, Finalize)]
pub struct RustSink(Box<dyn SinkSteps>);

/// The controller's sink algorithms.
#[derive(Clone, Trace, Finalize)]
pub enum SinkAlgorithms {
    /// [SetUpWritableStreamDefaultControllerFromUnderlyingSink](https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller-from-underlying-sink)
    Js(Gc<JsSink>),
    /// A sink implemented in Rust: an embedder's [`NativeSink`] or a TransformStream's
    /// writable side.
    Rust(Gc<RustSink>),
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
            Self::Rust(_) => f.write_str("SinkAlgorithms::Rust"),
        }
    }
}

impl SinkAlgorithms {
    /// A native sink.
    pub fn native(sink: impl NativeSink) -> Self {
        Self::rust(Native(sink))
    }

    /// A sink whose steps are Rust (see [`SinkSteps`]).
    pub(crate) fn rust(steps: impl SinkSteps) -> Self {
        Self::Rust(Gc::new(RustSink(Box::new(steps))))
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
            Self::Rust(r) => r.0.start(controller, ctx),
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
            Self::Rust(r) => r.0.write(chunk, controller, ctx),
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
            Self::Rust(r) => r.0.write_processed(chunk, controller, ctx),
            Self::Js(_) => SinkWrite::Promise(self.write(chunk, controller, ctx)),
        }
    }

    /// `[[closeAlgorithm]]`.
    pub(crate) fn close(&self, ctx: &mut Context) -> Completion {
        match self {
            Self::Js(s) => match &s.close {
                Some(f) => invoke_promise_callback(f, &s.sink, &[], ctx),
                None => Completion::undefined(),
            },
            Self::Rust(r) => r.0.close(ctx),
        }
    }

    /// `[[abortAlgorithm]]`.
    pub(crate) fn abort(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        match self {
            Self::Js(s) => match &s.abort {
                Some(f) => invoke_promise_callback(f, &s.sink, &[reason], ctx),
                None => Completion::undefined(),
            },
            Self::Rust(r) => r.0.abort(reason, ctx),
        }
    }
}
