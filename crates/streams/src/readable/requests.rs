//! [Read requests](https://streams.spec.whatwg.org/#read-request) and
//! [read-into requests](https://streams.spec.whatwg.org/#read-into-request): what a reader
//! queues and a controller fulfils, and the `ReadableStreamReadResult` they resolve with.
//!
//! A leaf: the readers, the controllers, the tees and the async iterator all name these
//! types, and this module names none of them. The requests whose steps a higher module keeps
//! (a default tee's, the async iterator's) are a [`HostedReadRequest`]: that module's state
//! behind a type-erased `Gc` and a `&'static` table of its steps, so a read allocates nothing
//! more than before.

use boa_engine::{
    builtins::object::OrdinaryObject, object::JsObject, property::PropertyDescriptor, Context,
    JsValue,
};
use boa_gc::{Finalize, GcErased, Trace};

use boa_webidl as webidl;
use boa_webidl::promise::PromiseCapability;

/// The steps of a [`HostedReadRequest`], each given the request's state.
pub(crate) struct ReadRequestTable {
    /// Chunk steps, given `chunk`.
    pub(crate) chunk: fn(GcErased, JsValue, &mut Context),
    /// Close steps.
    pub(crate) close: fn(GcErased, &mut Context),
    /// Error steps, given `e`.
    pub(crate) error: fn(GcErased, JsValue, &mut Context),
}

/// A read request whose steps a higher module of `readable` keeps: its state (a `Gc` the
/// module allocated for the tee or for the `next()` call, type-erased) and a table of its
/// steps.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct HostedReadRequest {
    state: GcErased,
    #[unsafe_ignore_trace]
    steps: &'static ReadRequestTable,
}

impl HostedReadRequest {
    /// A request performing `steps` on `state`.
    pub(crate) fn new(state: GcErased, steps: &'static ReadRequestTable) -> Self {
        Self { state, steps }
    }

    fn chunk_steps(self, chunk: JsValue, ctx: &mut Context) {
        (self.steps.chunk)(self.state, chunk, ctx);
    }

    fn close_steps(self, ctx: &mut Context) {
        (self.steps.close)(self.state, ctx);
    }

    fn error_steps(self, e: JsValue, ctx: &mut Context) {
        (self.steps.error)(self.state, e, ctx);
    }
}

/// The chunk/close/error steps of a read request implemented in Rust (pipeTo, embedders).
pub trait ReadRequestSteps: Trace {
    /// Chunk steps, given `chunk`.
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context);
    /// Chunk steps, given a queued chunk that may still be Rust bytes
    /// ([`Chunk`](crate::chunk::Chunk)): by default it is turned into its JS value first; a request
    /// that never hands the chunk to script (pipeTo's) takes it as it is.
    fn chunk_steps_native(self: Box<Self>, chunk: crate::chunk::Chunk, ctx: &mut Context) {
        let chunk = chunk.into_js(ctx);
        self.chunk_steps(chunk, ctx);
    }
    /// Close steps.
    fn close_steps(self: Box<Self>, ctx: &mut Context);
    /// Error steps, given `e`.
    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context);
}

/// A [read request](https://streams.spec.whatwg.org/#read-request).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum ReadRequest {
    /// `reader.read()`: the JS promise it returned.
    Default(PromiseCapability),
    /// A default tee's read request (its steps are the tee's).
    Tee(HostedReadRequest),
    /// The async iterator's `next()` read request (its steps are the iterator's).
    AsyncIterator(HostedReadRequest),
    /// pipeTo's read request.
    Pipe(Box<dyn ReadRequestSteps>),
    /// An embedder's read request.
    Native(Box<dyn ReadRequestSteps>),
}

impl ReadRequest {
    /// Perform the chunk steps, given `chunk`.
    pub fn chunk_steps(self, chunk: JsValue, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → chunk, "done" → false ]».
            Self::Default(p) => {
                let result = read_result(chunk, false, ctx);
                p.resolve(result, ctx);
            }
            Self::Tee(h) | Self::AsyncIterator(h) => h.chunk_steps(chunk, ctx),
            Self::Pipe(s) | Self::Native(s) => s.chunk_steps(chunk, ctx),
        }
    }

    /// Perform the chunk steps, given a queued chunk: pipeTo's read request takes it as it
    /// is, every other request gets its JS value (`Chunk::into_js`).
    pub fn chunk_steps_native(self, chunk: crate::chunk::Chunk, ctx: &mut Context) {
        match self {
            Self::Pipe(s) => s.chunk_steps_native(chunk, ctx),
            other => {
                let chunk = chunk.into_js(ctx);
                other.chunk_steps(chunk, ctx);
            }
        }
    }

    /// Perform the close steps.
    pub fn close_steps(self, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → undefined, "done" → true ]».
            Self::Default(p) => {
                let result = read_result(JsValue::undefined(), true, ctx);
                p.resolve(result, ctx);
            }
            Self::Tee(h) | Self::AsyncIterator(h) => h.close_steps(ctx),
            Self::Pipe(s) | Self::Native(s) => s.close_steps(ctx),
        }
    }

    /// Perform the error steps, given `e`.
    pub fn error_steps(self, e: JsValue, ctx: &mut Context) {
        match self {
            // 1. Reject promise with e.
            Self::Default(p) => p.reject(e, ctx),
            Self::Tee(h) | Self::AsyncIterator(h) => h.error_steps(e, ctx),
            Self::Pipe(s) | Self::Native(s) => s.error_steps(e, ctx),
        }
    }
}

/// A `ReadableStreamReadResult` dictionary converted to JS: an ordinary object whose members
/// are created in lexicographic order (WebIDL dictionary → ECMAScript): `done`, then `value`.
pub(crate) fn read_result(value: JsValue, done: bool, ctx: &mut Context) -> JsValue {
    // A shared shape (the engine caches the "done" → "value" transitions) instead of the unique
    // shape `JsObject::with_object_proto` would give.
    let proto = ctx.intrinsics().constructors().object().prototype();
    let o = JsObject::new(ctx.root_shape(), proto, OrdinaryObject).upcast();
    // NOTE: CreateDataProperty on a fresh, extensible ordinary object that lacks the key adds
    // a writable, enumerable, configurable data property: inserted directly (the same shape
    // transitions, without [[DefineOwnProperty]]'s validation); no user code can run either way.
    let data = |v: JsValue| {
        PropertyDescriptor::builder()
            .value(v)
            .writable(true)
            .enumerable(true)
            .configurable(true)
    };
    if boa_webidl::fast_paths() {
        o.insert_property(webidl::js_key!("done"), data(done.into()));
        o.insert_property(webidl::js_key!("value"), data(value));
    } else {
        // CreateDataProperty on a fresh ordinary object cannot fail.
        let _ = o.create_data_property(webidl::js_key!("done"), done, ctx);
        let _ = o.create_data_property(webidl::js_key!("value"), value, ctx);
    }
    o.into()
}

/// The chunk/close/error steps of a read-into request implemented in Rust (the byte tee,
/// embedders).
pub trait ReadIntoRequestSteps: Trace {
    /// Chunk steps, given `chunk`.
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context);
    /// Close steps, given `chunk` (a view or undefined).
    fn close_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context);
    /// Error steps, given `e`.
    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context);
}

/// A [read-into request](https://streams.spec.whatwg.org/#read-into-request).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum ReadIntoRequest {
    /// `reader.read(view)`: the JS promise it returned.
    Default(PromiseCapability),
    /// A read-into request whose steps run in Rust.
    Native(Box<dyn ReadIntoRequestSteps>),
}

impl ReadIntoRequest {
    /// Perform the chunk steps, given `chunk`.
    pub fn chunk_steps(self, chunk: JsValue, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → chunk, "done" → false ]».
            Self::Default(p) => {
                let result = read_result(chunk, false, ctx);
                p.resolve(result, ctx);
            }
            Self::Native(s) => s.chunk_steps(chunk, ctx),
        }
    }

    /// Perform the close steps, given `chunk`.
    pub fn close_steps(self, chunk: JsValue, ctx: &mut Context) {
        match self {
            // 1. Resolve promise with «[ "value" → chunk, "done" → true ]».
            Self::Default(p) => {
                let result = read_result(chunk, true, ctx);
                p.resolve(result, ctx);
            }
            Self::Native(s) => s.close_steps(chunk, ctx),
        }
    }

    /// Perform the error steps, given `e`.
    pub fn error_steps(self, e: JsValue, ctx: &mut Context) {
        match self {
            // 1. Reject promise with e.
            Self::Default(p) => p.reject(e, ctx),
            Self::Native(s) => s.error_steps(e, ctx),
        }
    }
}
