//! The [underlying source](https://streams.spec.whatwg.org/#underlying-source-api) behind a
//! controller: its start algorithm ([`StartAlgorithm`]) and its `[[pullAlgorithm]]` /
//! `[[cancelAlgorithm]]` ([`SourceAlgorithms`]), one type for both controller kinds
//! (`ReadableStreamDefaultController` and `ReadableByteStreamController`).
//!
//! The kinds: a JS underlying source given to the constructor ([`SourceAlgorithms::Js`],
//! default or `type: "bytes"`), the branches of a default tee and of a byte tee,
//! `ReadableStream.from()`'s iterator source, a Rust-side source with function pointers
//! (TransformStream's readable side: [`SourceAlgorithms::Rust`]) and an embedder's
//! [`NativeSource`] trait object, which can sit behind either controller kind: its `pull`
//! gets the [`StreamController`]. Byte sources written in Rust (the embedder's and the
//! crate's own async adapters in `native::io`) do not implement it directly: they implement
//! `native::ByteSource`, whose adapter over this trait hands them a
//! `native::ByteController` that fills the pending read in place.

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, GcErased, Trace};

use super::StreamController;
use boa_webidl::promise::promise_resolved_with;
use boa_webidl::promise::{completion_resolved_with, invoke_promise_callback, Completion};

/// An embedder's underlying source written in Rust, for either controller kind.
pub trait NativeSource: Trace {
    /// The pull algorithm: called when the stream wants more data. Enqueue through the
    /// controller ([`super::readable_stream_default_controller_enqueue`]); behind a byte
    /// controller, the `native::ByteSource` adapter answers through its
    /// `native::ByteController`.
    fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion;
    /// The cancel algorithm.
    fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion;
}

/// A boxed [`NativeSource`] in a GC cell (cloned out before it is called).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct NativeSourceBox(pub Box<dyn NativeSource>);

/// A Rust-side source: traced `state` and function pointers (e.g. TransformStream's default
/// source, with the TransformStream object as `state`).
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct RustSource {
    /// Handed to the algorithms.
    pub state: JsValue,
    /// The pull algorithm.
    #[unsafe_ignore_trace]
    pub pull: fn(&JsValue, &mut Context) -> Completion,
    /// The cancel algorithm.
    #[unsafe_ignore_trace]
    pub cancel: fn(&JsValue, JsValue, &mut Context) -> Completion,
}

/// The underlying source object and its `pull` / `cancel` methods as converted from the
/// `UnderlyingSource` dictionary.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct JsSource {
    /// The callback this value.
    pub source: JsValue,
    /// `underlyingSourceDict["pull"]`.
    pub pull: Option<JsObject>,
    /// `underlyingSourceDict["cancel"]`.
    pub cancel: Option<JsObject>,
}

/// The pull and cancel algorithms of a [`HostedSource`], each given the source's state.
pub(crate) struct SourceTable {
    /// `[[pullAlgorithm]]`.
    pub(crate) pull: fn(&GcErased, &mut Context) -> Completion,
    /// `[[cancelAlgorithm]]`, given `reason`.
    pub(crate) cancel: fn(&GcErased, JsValue, &mut Context) -> Completion,
}

/// A source whose algorithms a higher module of `readable` keeps (a tee's branches,
/// `ReadableStream.from()`'s iterator source): that module's state, type-erased, and a table of
/// its algorithms.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct HostedSource {
    state: GcErased,
    #[unsafe_ignore_trace]
    algorithms: &'static SourceTable,
}

impl HostedSource {
    /// A source performing `algorithms` on `state`.
    pub(crate) fn new(state: GcErased, algorithms: &'static SourceTable) -> Self {
        Self { state, algorithms }
    }
}

/// A controller's `[[pullAlgorithm]]` + `[[cancelAlgorithm]]` as one enum (both controller
/// kinds).
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum SourceAlgorithms {
    /// An underlying source given to the constructor (default or `type: "bytes"`).
    Js(JsSource),
    /// A branch of a default tee.
    Tee(HostedSource),
    /// A branch of a byte tee.
    ByteTee(HostedSource),
    /// `ReadableStream.from()`'s iterator source.
    FromIterable(HostedSource),
    /// A Rust-side source (TransformStream's readable side).
    Rust(RustSource),
    /// An embedder's native source (behind a default or a byte controller).
    Native(Gc<NativeSourceBox>),
}

impl SourceAlgorithms {
    /// Perform `[[pullAlgorithm]]` for `controller` (the stream's controller).
    pub(crate) fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
        match self {
            // SetUpReadable…ControllerFromUnderlyingSource: "If underlyingSourceDict["pull"]
            // exists, then set pullAlgorithm to an algorithm which returns the result of
            // invoking underlyingSourceDict["pull"] with argument list « controller » and
            // callback this value underlyingSource" (else one that returns a promise resolved
            // with undefined).
            Self::Js(s) => match &s.pull {
                Some(f) => invoke_promise_callback(f, &s.source, &[controller.to_value()], ctx),
                None => Completion::undefined(),
            },
            Self::Tee(h) | Self::ByteTee(h) | Self::FromIterable(h) => {
                (h.algorithms.pull)(&h.state, ctx)
            }
            Self::Rust(s) => (s.pull)(&s.state, ctx),
            Self::Native(n) => n.0.pull(controller, ctx),
        }
    }

    /// Perform `[[cancelAlgorithm]]`, passing `reason`.
    pub(crate) fn cancel(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        match self {
            // "If underlyingSourceDict["cancel"] exists, then set cancelAlgorithm to an
            // algorithm which takes an argument reason and returns the result of invoking
            // underlyingSourceDict["cancel"] with argument list « reason » and callback this
            // value underlyingSource" (else one that returns a promise resolved with
            // undefined).
            Self::Js(s) => match &s.cancel {
                Some(f) => invoke_promise_callback(f, &s.source, &[reason], ctx),
                None => Completion::undefined(),
            },
            Self::Tee(h) | Self::ByteTee(h) | Self::FromIterable(h) => {
                (h.algorithms.cancel)(&h.state, reason, ctx)
            }
            Self::Rust(s) => (s.cancel)(&s.state, reason, ctx),
            Self::Native(n) => n.0.cancel(reason, ctx),
        }
    }
}

/// `startAlgorithm` of SetUpReadableStreamDefaultController and
/// SetUpReadableByteStreamController.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum StartAlgorithm {
    /// An algorithm that returns undefined.
    ReturnUndefined,
    /// An algorithm that returns this promise (TransformStream's startPromise). The stream
    /// adopts it as "a promise resolved with" a promise does (two extra ticks), even when it
    /// is given as an already settled [`Completion::Fulfilled`] / [`Completion::Rejected`].
    Return(Completion),
    /// "An algorithm that returns the result of invoking underlyingSourceDict["start"] with
    /// argument list « controller » and callback this value underlyingSource" (a missing
    /// `start` is [`StartAlgorithm::ReturnUndefined`]).
    Js {
        /// The callback this value.
        source: JsValue,
        /// `underlyingSourceDict["start"]`.
        start: JsObject,
    },
}

impl StartAlgorithm {
    /// The start algorithm of an underlying source's (optional) `start` member.
    pub(crate) fn from_underlying_source(source: JsValue, start: Option<JsObject>) -> Self {
        match start {
            Some(start) => Self::Js { source, start },
            None => Self::ReturnUndefined,
        }
    }

    /// "Let startResult be the result of performing startAlgorithm. (This might throw an
    /// exception.) Let startPromise be a promise resolved with startResult." (the set-up
    /// steps of both controllers).
    pub(crate) fn perform(
        self,
        controller: &StreamController,
        ctx: &mut Context,
    ) -> JsResult<Completion> {
        Ok(match self {
            Self::ReturnUndefined => completion_resolved_with(JsValue::undefined(), ctx),
            Self::Js { source, start } => {
                let result = start.call(&source, &[controller.to_value()], ctx)?;
                completion_resolved_with(result, ctx)
            }
            // NOTE: "a promise resolved with" a promise is a new promise that adopts it; for a
            // JS promise this is done literally, for a Rust-side (or already settled) one
            // through RustPromise::resolve_with (same tick count: a thenable job, then a
            // reaction).
            Self::Return(c) => match c {
                Completion::Js(p) => Completion::Js(promise_resolved_with(p.into(), ctx)),
                other => {
                    let out = super::RustPromise::new();
                    super::RustPromise::resolve_with(&out, other, ctx);
                    Completion::Rust(out)
                }
            },
        })
    }
}
