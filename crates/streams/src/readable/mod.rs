//! Readable streams ([spec §4](https://streams.spec.whatwg.org/#rs)), a file per spec
//! interface or section, abstract operations with the interface that owns them:
//!
//! | file | spec |
//! | --- | --- |
//! | `mod.rs` | the `ReadableStream` class (§4.2) and the abstract operations "working with readable streams" and "interfacing with controllers" (§4.10.1-2) |
//! | `source.rs` | the underlying source API (§4.2.3): [`SourceAlgorithms`], [`StartAlgorithm`], [`NativeSource`] |
//! | `iterator.rs` | async iteration (§4.2.5) |
//! | `from.rs` | ReadableStreamFromIterable |
//! | `tee.rs`, `byte_tee.rs` | ReadableStreamDefaultTee, ReadableByteStreamTee |
//! | `pipe.rs`, `pipe/` | ReadableStreamPipeTo, `pipeTo()` / `pipeThrough()` |
//! | `generic_reader.rs` | the `ReadableStreamGenericReader` mixin (§4.4) and ReadableStreamReaderGeneric* (§4.10.3) |
//! | `requests.rs` | read requests and read-into requests (§4.5, §4.6), `ReadableStreamReadResult`: a leaf every reader, controller and tee names |
//! | `reader.rs` | `ReadableStreamDefaultReader` (§4.5), its abstract operations |
//! | `byob_reader.rs` | `ReadableStreamBYOBReader` (§4.6), its abstract operations |
//! | `controller.rs` | `ReadableStreamDefaultController` (§4.7, §4.10.4) |
//! | `byte_controller.rs` | `ReadableByteStreamController` (§4.8, §4.10.5), pull-into descriptors, the BYOB request's slots |
//! | `byob_request.rs` | the `ReadableStreamBYOBRequest` interface (§4.9) |
//! | `buffers.rs` | the ECMAScript ArrayBuffer / view operations byte streams use |
//!
//! # Internal API for WritableStream / TransformStream / pipeTo
//!
//! All functions are named as the spec names them (snake_case) and take typed handles:
//!
//! - Streams: [`is_readable_stream_locked`], [`readable_stream_cancel`] (returns a
//!   [`Completion`]; react to it with [`Completion::upon`], or turn it into a JS promise with
//!   [`Completion::into_js_promise`] when script sees it), [`readable_stream_close`],
//!   [`readable_stream_error`], [`ReadableStream::state`], [`ReadableStream::stored_error`],
//!   [`ReadableStream::controller`].
//! - Creation: [`create_readable_stream`] (default controller) and
//!   [`create_readable_byte_stream`] (byte controller) with a [`StartAlgorithm`] and a
//!   [`SourceAlgorithms`] (use [`SourceAlgorithms::Rust`] for TransformStream: a traced state
//!   value plus `pull`/`cancel` function pointers returning [`Completion`]s;
//!   [`SourceAlgorithms::Native`] for embedders: a [`NativeSource`] trait object, behind
//!   either controller kind).
//! - Readers: [`acquire_readable_stream_default_reader`],
//!   [`readable_stream_default_reader_read`] with a [`ReadRequest`] (pipeTo: use
//!   [`ReadRequest::Pipe`] with a boxed [`ReadRequestSteps`] whose chunk/close/error steps run
//!   in Rust), [`readable_stream_default_reader_release`],
//!   [`readable_stream_reader_generic_cancel`](generic_reader::readable_stream_reader_generic_cancel), [`StreamReader::closed_promise`].
//! - Controllers: [`readable_stream_default_controller_close`],
//!   [`readable_stream_default_controller_enqueue`],
//!   [`readable_stream_default_controller_error`],
//!   [`readable_stream_default_controller_get_desired_size`],
//!   [`readable_stream_default_controller_has_backpressure`],
//!   [`readable_stream_default_controller_can_close_or_enqueue`].
//! - Byte streams: `[[controller]]` is [`StreamController::Byte`] and `[[reader]]` may be
//!   [`StreamReader::Byob`]. Default readers (and so pipeTo's [`ReadRequest`]s) work on byte
//!   streams unchanged. BYOB: [`acquire_readable_stream_byob_reader`],
//!   [`readable_stream_byob_reader_release`](byob_reader::readable_stream_byob_reader_release), [`readable_stream_reader_generic_cancel`](generic_reader::readable_stream_reader_generic_cancel),
//!   read-into requests ([`ReadIntoRequest`](requests::ReadIntoRequest), [`ReadIntoRequestSteps`]). Controller:
//!   [`readable_byte_stream_controller_enqueue`](byte_controller::readable_byte_stream_controller_enqueue) (takes a [`ViewRecord`](buffers::ViewRecord) from
//!   [`to_array_buffer_view`]), [`readable_byte_stream_controller_close`](byte_controller::readable_byte_stream_controller_close),
//!   [`readable_byte_stream_controller_error`](byte_controller::readable_byte_stream_controller_error), [`readable_byte_stream_controller_respond`](byte_controller::readable_byte_stream_controller_respond),
//!   [`readable_byte_stream_controller_respond_with_new_view`](byte_controller::readable_byte_stream_controller_respond_with_new_view),
//!   [`readable_byte_stream_controller_get_byob_request`](byte_controller::readable_byte_stream_controller_get_byob_request),
//!   [`readable_byte_stream_controller_get_desired_size`](byte_controller::readable_byte_stream_controller_get_desired_size).
//!   Buffers: [`transfer_array_buffer`](buffers::transfer_array_buffer) (real detachment, no
//!   copy), [`is_detached_buffer`](buffers::is_detached_buffer).
//!
//! Rust-side promises ([`RustPromise`]) never touch JS; reactions run in microtasks at the
//! positions JS promise reactions would take.
//!
//! # Design
//!
//! - Internal slots are typed fields (`Cell` / `GcRefCell`); `[[state]]` is [`StreamState`],
//!   `[[controller]]` is [`StreamController`] and `[[reader]]` is [`StreamReader`] (enums, so
//!   byte streams / BYOB readers can join), the queue is [`crate::queue::QueueWithSizes`].
//! - `[[pullAlgorithm]]` / `[[cancelAlgorithm]]` are one [`SourceAlgorithms`] enum; read
//!   requests are the [`ReadRequest`] enum. No boxed JS closures run internal steps.
//! - Promises script sees (`read()` results, `cancel()` results, iterator results) are JS
//!   promises created once; a reader's `[[closedPromise]]` is a lazily materialised
//!   [`PromiseSlot`](boa_webidl::promise::PromiseSlot) (its JS promise is created when script reads `closed`;
//!   tee, byte tee and pipeTo wait on it without one). Everything else is a [`Completion`].
//! - Fast paths ([`crate::fast_paths`]): "a promise resolved with" a user result (start, pull,
//!   cancel, an iterator chunk) runs the promise resolve function's steps in Rust: a
//!   non-thenable settles at once and its reaction is queued as a native microtask at the
//!   position the JS reaction would take; a thenable gets a JS promise and the thenable job.
//!   `[[pulling]]` stays true until that microtask runs. With fast paths off every such
//!   promise is a real JS promise; WPT results and tick order are the same either way (unit
//!   tests compare ordering logs both ways).
//! - No `GcRefCell` borrow or object-data borrow is held across a call into JS (user
//!   callbacks, `size()`, getters, resolving a promise with an object).

mod buffers;
mod byob_reader;
mod byob_request;
mod byte_controller;
mod byte_tee;
mod controller;
mod from;
mod generic_reader;
mod iterator;
mod pipe;
mod reader;
mod requests;
mod source;
mod tee;
#[cfg(test)]
mod tests;

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsSymbol, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use crate::strategies::QueuingStrategy;
pub use crate::strategies::SizeAlgorithm;
pub use boa_webidl::promise::{Completion, RustPromise};
pub(crate) use buffers::ViewRecord;
pub use buffers::{to_array_buffer_view, ViewConstructor};
pub use byob_reader::{acquire_readable_stream_byob_reader, ReadableStreamBYOBReader};
pub(crate) use byte_controller::{
    readable_byte_stream_controller_close, readable_byte_stream_controller_enqueue,
    readable_byte_stream_controller_error, readable_byte_stream_controller_get_desired_size,
    readable_byte_stream_controller_respond,
};
pub use byte_controller::{ReadableByteStreamController, ReadableStreamBYOBRequest};
pub(crate) use controller::readable_stream_default_controller_enqueue_native;
pub use controller::{
    readable_stream_default_controller_can_close_or_enqueue,
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, readable_stream_default_controller_get_desired_size,
    readable_stream_default_controller_has_backpressure, ReadableStreamDefaultController,
};
pub(crate) use generic_reader::readable_stream_reader_generic_cancel;
pub use pipe::readable_stream_pipe_to;
pub use reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    readable_stream_default_reader_release, ReadableStreamDefaultReader,
};
pub use requests::{ReadIntoRequest, ReadIntoRequestSteps, ReadRequest, ReadRequestSteps};
pub use source::{NativeSource, NativeSourceBox, RustSource, SourceAlgorithms, StartAlgorithm};

use crate::strategies::{extract_high_water_mark, extract_size_algorithm};
use boa_webidl::promise::promise_rejected_with;
use boa_webidl::{
    self as webidl, arg, brand, range_error, type_error, Dictionary, Member, INTERFACE_ATTRIBUTES,
};

/// Register `ReadableStream`, `ReadableStreamDefaultReader`,
/// `ReadableStreamDefaultController`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<ReadableStream>(context)?;
    webidl::register_interface::<ReadableStreamDefaultReader>(context)?;
    webidl::register_interface::<ReadableStreamDefaultController>(context)?;
    webidl::register_interface::<ReadableStreamBYOBReader>(context)?;
    webidl::register_interface::<ReadableByteStreamController>(context)?;
    webidl::register_interface::<ReadableStreamBYOBRequest>(context)?;
    iterator::register(context)?;
    from::register(context)?;
    Ok(())
}

/// `[[state]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamState {
    Readable,
    Closed,
    Errored,
}

/// `[[controller]]`.
#[derive(Debug, Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum StreamController {
    /// A ReadableStreamDefaultController.
    Default(JsObject<ReadableStreamDefaultController>),
    /// A ReadableByteStreamController.
    Byte(JsObject<ReadableByteStreamController>),
}

impl StreamController {
    /// The controller object as a JS value (the argument of a JS source's `start` / `pull`).
    pub fn to_value(&self) -> JsValue {
        match self {
            Self::Default(c) => c.clone().upcast().into(),
            Self::Byte(c) => c.clone().upcast().into(),
        }
    }

    /// The default controller, if it is one.
    pub fn into_default(self) -> Option<JsObject<ReadableStreamDefaultController>> {
        match self {
            Self::Default(c) => Some(c),
            Self::Byte(_) => None,
        }
    }

    /// `controller.[[CancelSteps]](reason)`: the
    /// [default controller's](https://streams.spec.whatwg.org/#rs-default-controller-private-cancel)
    /// or the [byte controller's](https://streams.spec.whatwg.org/#rbs-controller-private-cancel).
    pub(crate) fn cancel_steps(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        match self {
            Self::Default(c) => controller::cancel_steps(c, reason, ctx),
            Self::Byte(c) => byte_controller::cancel_steps(c, reason, ctx),
        }
    }

    /// `controller.[[PullSteps]](readRequest)`: the
    /// [default controller's](https://streams.spec.whatwg.org/#rs-default-controller-private-pull)
    /// or the [byte controller's](https://streams.spec.whatwg.org/#rbs-controller-private-pull).
    pub(crate) fn pull_steps(&self, read_request: ReadRequest, ctx: &mut Context) {
        match self {
            Self::Default(c) => controller::pull_steps(c, read_request, ctx),
            Self::Byte(c) => byte_controller::pull_steps(c, read_request, ctx),
        }
    }

    /// `controller.[[ReleaseSteps]]()`: the
    /// [default controller's](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultcontroller-releasesteps)
    /// or the [byte controller's](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontroller-releasesteps).
    pub(crate) fn release_steps(&self) {
        match self {
            Self::Default(c) => controller::release_steps(c),
            Self::Byte(c) => byte_controller::release_steps(c),
        }
    }
}

/// `[[reader]]`.
#[derive(Debug, Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum StreamReader {
    Default(JsObject<ReadableStreamDefaultReader>),
    Byob(JsObject<ReadableStreamBYOBReader>),
}

impl StreamReader {
    /// The default reader, if it is one.
    pub fn into_default(self) -> Option<JsObject<ReadableStreamDefaultReader>> {
        match self {
            Self::Default(r) => Some(r),
            Self::Byob(_) => None,
        }
    }
}

/// Arguments converted by the constructor's IDL layer, consumed by its steps.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct PendingInit {
    underlying_source: Option<JsObject>,
    strategy: QueuingStrategy,
}

/// A `ReadableStream` object's internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStream {
    #[unsafe_ignore_trace]
    state: Cell<StreamState>,
    controller: GcRefCell<Option<StreamController>>,
    #[unsafe_ignore_trace]
    disturbed: Cell<bool>,
    reader: GcRefCell<Option<StreamReader>>,
    stored_error: GcRefCell<JsValue>,
    /// Empty once the constructor returns. NOTE: not boxed: a box saves 24 bytes per live
    /// stream but costs an allocation per construction (+2.5% instructions for
    /// `new ReadableStream()`).
    pending_init: GcRefCell<Option<PendingInit>>,
}

impl std::fmt::Debug for ReadableStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadableStream")
            .field("state", &self.state.get())
            .finish_non_exhaustive()
    }
}

impl ReadableStream {
    /// [InitializeReadableStream](https://streams.spec.whatwg.org/#initialize-readable-stream)
    fn initialize_readable_stream() -> Self {
        Self {
            // 1. Set stream.[[state]] to "readable".
            state: Cell::new(StreamState::Readable),
            controller: GcRefCell::new(None),
            // 2. Set stream.[[reader]] and stream.[[storedError]] to undefined.
            reader: GcRefCell::new(None),
            stored_error: GcRefCell::new(JsValue::undefined()),
            // 3. Set stream.[[disturbed]] to false.
            disturbed: Cell::new(false),
            pending_init: GcRefCell::new(None),
        }
    }

    /// `[[state]]`.
    pub(crate) fn state(&self) -> StreamState {
        self.state.get()
    }

    /// `[[storedError]]`.
    pub(crate) fn stored_error(&self) -> JsValue {
        self.stored_error.borrow().clone()
    }

    /// `[[disturbed]]`.
    pub fn disturbed(&self) -> bool {
        self.disturbed.get()
    }

    /// Set `[[disturbed]]` (pipeTo sets it to true).
    pub(crate) fn set_disturbed(&self, value: bool) {
        self.disturbed.set(value);
    }

    /// `[[controller]]`.
    pub fn controller(&self) -> Option<StreamController> {
        self.controller.borrow().clone()
    }

    /// `[[reader]]`.
    pub(crate) fn reader(&self) -> Option<StreamReader> {
        self.reader.borrow().clone()
    }

    fn default_reader(&self) -> Option<JsObject<ReadableStreamDefaultReader>> {
        self.reader
            .borrow()
            .clone()
            .and_then(StreamReader::into_default)
    }
}

/// Read a field of a stream's slots briefly.
pub(crate) fn with_stream<R>(
    stream: &JsObject<ReadableStream>,
    f: impl FnOnce(&ReadableStream) -> R,
) -> R {
    f(stream.borrow().data())
}

/// Create a new `ReadableStream` object in the current realm with fresh slots.
pub(crate) fn new_readable_stream_object(ctx: &mut Context) -> JsResult<JsObject<ReadableStream>> {
    let proto = ctx
        .get_global_class::<ReadableStream>()
        .ok_or_else(|| type_error("ReadableStream is not registered in this realm"))?
        .prototype();
    Ok(JsObject::new(
        ctx.root_shape(),
        proto,
        ReadableStream::initialize_readable_stream(),
    ))
}

impl Class for ReadableStream {
    const NAME: &'static str = "ReadableStream";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                // WebIDL: an object with a class string has the `Symbol.toStringTag` property
                // "at the time it is created", so before `Symbol.asyncIterator` ("define the
                // asynchronous iteration methods").
                Member::to_string_tag("ReadableStream"),
                Member::static_operation("from", 1, from_static),
                Member::attribute("locked", locked),
                Member::operation("cancel", 0, cancel),
                Member::operation("getReader", 0, get_reader),
                Member::operation("pipeThrough", 1, pipe::pipe_through),
                Member::operation("pipeTo", 1, pipe::pipe_to),
                Member::operation("tee", 0, tee),
                Member::install(async_iteration_methods),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<Self> {
            // IDL layer: `optional object underlyingSource`.
            let source = arg(args, 0);
            let underlying_source = if source.is_undefined() {
                None
            } else {
                match source.as_object() {
                    Some(o) => Some(o.clone()),
                    None => return Err(type_error("underlyingSource must be an object")),
                }
            };
            // IDL layer: `optional QueuingStrategy strategy = {}` (highWaterMark, size).
            let strategy = QueuingStrategy::from_value(&arg(args, 1), ctx)?;
            let stream = Self::initialize_readable_stream();
            *stream.pending_init.borrow_mut() = Some(PendingInit {
                underlying_source,
                strategy,
            });
            Ok(stream)
        })())
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        _args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<()> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<()> {
            let init = instance.borrow().data().pending_init.borrow_mut().take();
            let Some(init) = init else {
                return Ok(());
            };
            readable_stream_constructor_steps(instance, init.underlying_source, &init.strategy, ctx)
        })())
    }
}

// ---------------------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------------------

/// [ReadableStream.from(asyncIterable)](https://streams.spec.whatwg.org/#rs-from)
fn from_static(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let stream = from::readable_stream_from_iterable(&arg(args, 0), ctx)?;
    Ok(stream.upcast().into())
}

/// [locked](https://streams.spec.whatwg.org/#rs-locked)
fn locked(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let stream = brand::<ReadableStream>(this, "ReadableStream")?;
    // 1. Return ! IsReadableStreamLocked(this).
    Ok(is_readable_stream_locked(&stream).into())
}

/// [cancel(reason)](https://streams.spec.whatwg.org/#rs-cancel)
fn cancel(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let result = (|| {
        let stream = brand::<ReadableStream>(this, "ReadableStream")?;
        // 1. If ! IsReadableStreamLocked(this) is true, return a promise rejected with a
        //    TypeError exception.
        if is_readable_stream_locked(&stream) {
            return Err(type_error("Cannot cancel a locked ReadableStream"));
        }
        // 2. Return ! ReadableStreamCancel(this, reason).
        let c = readable_stream_cancel(&stream, arg(args, 0), ctx);
        Ok(c.into_js_promise(ctx).into())
    })();
    Ok(webidl::promise::promise_from_own_result(result, ctx))
}

/// [getReader(options)](https://streams.spec.whatwg.org/#rs-get-reader)
fn get_reader(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let stream = brand::<ReadableStream>(this, "ReadableStream")?;
    let options = Dictionary::new(&arg(args, 0), "ReadableStreamGetReaderOptions")?;
    let mode = match options.get(webidl::js_key!("mode"), ctx)? {
        None => None,
        Some(v) => {
            let s = v.to_string(ctx)?;
            if s.to_std_string_escaped() != "byob" {
                return Err(type_error(format!(
                    "'{}' is not a valid ReadableStreamReaderMode",
                    s.to_std_string_escaped()
                )));
            }
            Some(())
        }
    };
    match mode {
        // 1. If options["mode"] does not exist, return ?
        //    AcquireReadableStreamDefaultReader(this).
        None => Ok(acquire_readable_stream_default_reader(&stream, ctx)?
            .upcast()
            .into()),
        // 2. Assert: options["mode"] is "byob".
        // 3. Return ? AcquireReadableStreamBYOBReader(this).
        Some(()) => Ok(acquire_readable_stream_byob_reader(&stream, ctx)?
            .upcast()
            .into()),
    }
}

/// [tee()](https://streams.spec.whatwg.org/#rs-tee)
fn tee(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let stream = brand::<ReadableStream>(this, "ReadableStream")?;
    // 1. Return ? ReadableStreamTee(this, false).
    let (b1, b2) = readable_stream_tee(&stream, false, ctx)?;
    Ok(JsArray::from_iter([b1.upcast().into(), b2.upcast().into()], ctx).into())
}

/// [The asynchronous iteration methods](https://webidl.spec.whatwg.org/#define-the-asynchronous-iteration-methods)
/// of `async_iterable<any>`: `values`, and `@@asyncIterator` the same function object.
fn async_iteration_methods(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    let values = webidl::function(
        class.context(),
        "values",
        0,
        NativeFunction::from_fn_ptr(iterator::values),
    );
    class.property_descriptor(
        webidl::js_key!("values"),
        boa_engine::property::PropertyDescriptor::builder()
            .value(values.clone())
            .writable(true)
            .enumerable(true)
            .configurable(true),
    );
    class.property_descriptor(
        JsSymbol::async_iterator(),
        boa_engine::property::PropertyDescriptor::builder()
            .value(values)
            .writable(true)
            .enumerable(false)
            .configurable(true),
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Constructor steps
// ---------------------------------------------------------------------------------------

/// UnderlyingSource's `autoAllocateChunkSize: [EnforceRange] unsigned long long` member,
/// converted (absent: `None`).
fn auto_allocate_chunk_size(value: Option<JsValue>, ctx: &mut Context) -> JsResult<Option<u64>> {
    value
        .map(|v| webidl::to_enforce_range_u64(&v, "autoAllocateChunkSize", ctx))
        .transpose()
}

/// The [ReadableStream constructor](https://streams.spec.whatwg.org/#rs-constructor) steps
/// after the IDL layer converted `strategy`.
fn readable_stream_constructor_steps(
    stream: &JsObject<ReadableStream>,
    underlying_source: Option<JsObject>,
    strategy: &QueuingStrategy,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If underlyingSource is missing, set it to null.
    // 2. Let underlyingSourceDict be underlyingSource, converted to an IDL value of type
    //    UnderlyingSource (members in lexicographic order).
    let (auto_allocate_chunk_size, cancel, pull, start, type_member) =
        match underlying_source_members(underlying_source.as_ref()) {
            // NOTE: the members were read in one walk of the chain (plain data, no code ran);
            // converting them afterwards is the same as between the reads: only
            // autoAllocateChunkSize's ToNumber could run code, and only for an object, which
            // `underlying_source_members` leaves to the path below. Conversions in member
            // order, so the first error is the same.
            Some([aacs, cancel, pull, start, type_member]) => (
                auto_allocate_chunk_size(webidl::defined(aacs), ctx)?,
                webidl::to_callback(webidl::defined(cancel), "cancel")?,
                webidl::to_callback(webidl::defined(pull), "pull")?,
                webidl::to_callback(webidl::defined(start), "start")?,
                webidl::defined(type_member),
            ),
            // A missing underlying source (null) has no members.
            None if underlying_source.is_none() => (None, None, None, None, None),
            None => {
                let dict = Dictionary::from_object(underlying_source.clone());
                //    autoAllocateChunkSize: [EnforceRange] unsigned long long
                let aacs = dict.get(webidl::js_key!("autoAllocateChunkSize"), ctx)?;
                let aacs = auto_allocate_chunk_size(aacs, ctx)?;
                let cancel = dict.get_callback(webidl::js_key!("cancel"), ctx)?;
                let pull = dict.get_callback(webidl::js_key!("pull"), ctx)?;
                let start = dict.get_callback(webidl::js_key!("start"), ctx)?;
                let type_member = dict.get(webidl::js_key!("type"), ctx)?;
                (aacs, cancel, pull, start, type_member)
            }
        };
    //    type: ReadableStreamType, the enum { "bytes" } and the experimental "owning"
    //    (whatwg/streams#1271, tentative).
    let (is_bytes, is_owning) = match type_member {
        None => (false, false),
        Some(v) => {
            let s = v.to_string(ctx)?;
            if s == boa_engine::js_string!("bytes") {
                (true, false)
            } else if s == boa_engine::js_string!("owning") {
                (false, true)
            } else {
                return Err(type_error(format!(
                    "'{}' is not a valid ReadableStreamType",
                    s.to_std_string_escaped()
                )));
            }
        }
    };
    // 3. Perform ! InitializeReadableStream(this). (Done when the object was created.)
    // 4. If underlyingSourceDict["type"] is "bytes":
    if is_bytes {
        //   1. If strategy["size"] exists, throw a RangeError exception.
        if strategy.size.is_some() {
            return Err(range_error(
                "The strategy for a byte stream cannot have a size function",
            ));
        }
        //   2. Let highWaterMark be ? ExtractHighWaterMark(strategy, 0).
        let hwm = extract_high_water_mark(strategy, 0.0)?;
        //   3. Perform ? SetUpReadableByteStreamControllerFromUnderlyingSource(this,
        //      underlyingSource, underlyingSourceDict, highWaterMark).
        return byte_controller::set_up_readable_byte_stream_controller_from_underlying_source(
            stream,
            underlying_source.map_or(JsValue::null(), JsValue::from),
            start,
            pull,
            cancel,
            hwm,
            auto_allocate_chunk_size,
            ctx,
        );
    }
    // 5. Otherwise,
    //   1. Assert: underlyingSourceDict["type"] does not exist (or, experimental, is
    //      "owning": a default controller with [[isOwning]] true).
    //   2. Let sizeAlgorithm be ! ExtractSizeAlgorithm(strategy).
    let size_algorithm = extract_size_algorithm(strategy, ctx);
    //   3. Let highWaterMark be ? ExtractHighWaterMark(strategy, 1).
    let hwm = extract_high_water_mark(strategy, 1.0)?;
    //   4. Perform ? SetUpReadableStreamDefaultControllerFromUnderlyingSource(this,
    //      underlyingSource, underlyingSourceDict, highWaterMark, sizeAlgorithm).
    controller::set_up_readable_stream_default_controller_from_underlying_source(
        stream,
        underlying_source.map_or(JsValue::null(), JsValue::from),
        start,
        pull,
        cancel,
        hwm,
        size_algorithm,
        is_owning,
        ctx,
    )
}

/// The UnderlyingSource members (autoAllocateChunkSize, cancel, pull, start, type) read in one
/// walk when every lookup is plain data and autoAllocateChunkSize is not an object (its
/// conversion would run code between the reads); `None`: read them one by one (fast paths
/// off, no source, a getter, a proxy or exotic object on the chain).
fn underlying_source_members(source: Option<&JsObject>) -> Option<[JsValue; 5]> {
    if !boa_webidl::fast_paths() {
        return None;
    }
    let members = webidl::get_plain_data_members(
        source?,
        &[
            webidl::js_key!("autoAllocateChunkSize"),
            webidl::js_key!("cancel"),
            webidl::js_key!("pull"),
            webidl::js_key!("start"),
            webidl::js_key!("type"),
        ],
    )?;
    let [aacs, ..] = &members;
    (!aacs.is_object()).then_some(members)
}

// ---------------------------------------------------------------------------------------
// Abstract operations: working with readable streams
// ---------------------------------------------------------------------------------------

/// [CreateReadableStream](https://streams.spec.whatwg.org/#create-readable-stream)
pub fn create_readable_stream(
    start: StartAlgorithm,
    algorithms: SourceAlgorithms,
    high_water_mark: Option<f64>,
    size_algorithm: Option<SizeAlgorithm>,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    // 1. If highWaterMark was not passed, set it to 1.
    let hwm = high_water_mark.unwrap_or(1.0);
    // 2. If sizeAlgorithm was not passed, set it to an algorithm that returns 1.
    let size_algorithm = size_algorithm.unwrap_or(SizeAlgorithm::ReturnOne);
    // 3. Assert: ! IsNonNegativeNumber(highWaterMark) is true.
    debug_assert!(
        hwm >= 0.0,
        "CreateReadableStream: highWaterMark is not non-negative"
    );
    // 4. Let stream be a new ReadableStream.
    // 5. Perform ! InitializeReadableStream(stream).
    let stream = new_readable_stream_object(ctx)?;
    // 6. Let controller be a new ReadableStreamDefaultController.
    let controller = controller::new_controller_object(&stream, ctx)?;
    // 7. Perform ? SetUpReadableStreamDefaultController(stream, controller, startAlgorithm,
    //    pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm).
    controller::set_up_readable_stream_default_controller(
        &stream,
        &controller,
        start,
        algorithms,
        hwm,
        size_algorithm,
        ctx,
    )?;
    // 8. Return stream.
    Ok(stream)
}

/// [CreateReadableByteStream](https://streams.spec.whatwg.org/#abstract-opdef-createreadablebytestream)
///
/// NOTE: for embedders (a [`NativeSource`] behind a byte controller) it also takes the
/// high water mark (as the spec's "set up with byte reading support" does) and an
/// autoAllocateChunkSize; the spec's callers pass neither (`None`: 0 and undefined).
pub fn create_readable_byte_stream(
    start: StartAlgorithm,
    algorithms: SourceAlgorithms,
    high_water_mark: Option<f64>,
    auto_allocate_chunk_size: Option<u64>,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    let high_water_mark = high_water_mark.unwrap_or(0.0);
    if high_water_mark.is_nan() || high_water_mark < 0.0 {
        return Err(range_error("highWaterMark must be a non-negative number"));
    }
    if auto_allocate_chunk_size == Some(0) {
        return Err(type_error("autoAllocateChunkSize must be greater than 0"));
    }
    // 1. Let stream be a new ReadableStream.
    // 2. Perform ! InitializeReadableStream(stream).
    let stream = new_readable_stream_object(ctx)?;
    // 3. Let controller be a new ReadableByteStreamController.
    let controller = byte_controller::new_byte_controller_object(&stream, ctx)?;
    // 4. Perform ? SetUpReadableByteStreamController(stream, controller, startAlgorithm,
    //    pullAlgorithm, cancelAlgorithm, 0, undefined).
    byte_controller::set_up_readable_byte_stream_controller(
        &stream,
        &controller,
        start,
        algorithms,
        high_water_mark,
        auto_allocate_chunk_size,
        ctx,
    )?;
    // 5. Return stream.
    Ok(stream)
}

/// [IsReadableStreamLocked](https://streams.spec.whatwg.org/#is-readable-stream-locked)
pub fn is_readable_stream_locked(stream: &JsObject<ReadableStream>) -> bool {
    // 1. If stream.[[reader]] is undefined, return false.
    // 2. Return true.
    with_stream(stream, |s| s.reader.borrow().is_some())
}

/// [ReadableStreamCancel](https://streams.spec.whatwg.org/#readable-stream-cancel)
pub fn readable_stream_cancel(
    stream: &JsObject<ReadableStream>,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Set stream.[[disturbed]] to true.
    let state = with_stream(stream, |s| {
        s.disturbed.set(true);
        s.state.get()
    });
    match state {
        // 2. If stream.[[state]] is "closed", return a promise resolved with undefined.
        StreamState::Closed => return Completion::undefined(),
        // 3. If stream.[[state]] is "errored", return a promise rejected with
        //    stream.[[storedError]].
        StreamState::Errored => {
            return Completion::Rejected(with_stream(stream, ReadableStream::stored_error))
        }
        StreamState::Readable => {}
    }
    // 4. Perform ! ReadableStreamClose(stream).
    readable_stream_close(stream, ctx);
    // 5. Let reader be stream.[[reader]].
    // 6. If reader is not undefined and reader implements ReadableStreamBYOBReader,
    if let Some(StreamReader::Byob(reader)) = with_stream(stream, ReadableStream::reader) {
        //   1. Let readIntoRequests be reader.[[readIntoRequests]].
        //   2. Set reader.[[readIntoRequests]] to an empty list.
        let requests = reader.borrow().data().take_read_into_requests();
        //   3. For each readIntoRequest of readIntoRequests,
        //     1. Perform readIntoRequest's close steps, given undefined.
        for request in requests {
            request.close_steps(JsValue::undefined(), ctx);
        }
    }
    // 7. Let sourceCancelPromise be ! stream.[[controller]].[[CancelSteps]](reason).
    let source_cancel = match with_stream(stream, ReadableStream::controller) {
        Some(c) => c.cancel_steps(reason, ctx),
        None => {
            debug_assert!(false, "a readable stream has a controller");
            Completion::undefined()
        }
    };
    // 8. Return the result of reacting to sourceCancelPromise with a fulfillment step that
    //    returns undefined.
    source_cancel.then_undefined(ctx)
}

/// [ReadableStreamClose](https://streams.spec.whatwg.org/#readable-stream-close)
pub fn readable_stream_close(stream: &JsObject<ReadableStream>, ctx: &mut Context) {
    // 1. Assert: stream.[[state]] is "readable".
    debug_assert_eq!(
        with_stream(stream, ReadableStream::state),
        StreamState::Readable
    );
    // 2. Set stream.[[state]] to "closed".
    with_stream(stream, |s| s.state.set(StreamState::Closed));
    // 3. Let reader be stream.[[reader]].
    // 4. If reader is undefined, return.
    let Some(reader) = with_stream(stream, ReadableStream::reader) else {
        return;
    };
    // 5. Resolve reader.[[closedPromise]] with undefined.
    reader.resolve_closed(ctx);
    // 6. If reader implements ReadableStreamDefaultReader,
    let StreamReader::Default(reader) = reader else {
        return;
    };
    //   1. Let readRequests be reader.[[readRequests]].
    //   2. Set reader.[[readRequests]] to an empty list.
    let requests = reader.borrow().data().take_read_requests();
    //   3. For each readRequest of readRequests, perform readRequest's close steps.
    for request in requests {
        request.close_steps(ctx);
    }
}

/// [ReadableStreamError](https://streams.spec.whatwg.org/#readable-stream-error)
pub fn readable_stream_error(stream: &JsObject<ReadableStream>, e: JsValue, ctx: &mut Context) {
    // 1. Assert: stream.[[state]] is "readable".
    debug_assert_eq!(
        with_stream(stream, ReadableStream::state),
        StreamState::Readable
    );
    // 2. Set stream.[[state]] to "errored".
    // 3. Set stream.[[storedError]] to e.
    with_stream(stream, |s| {
        s.state.set(StreamState::Errored);
        *s.stored_error.borrow_mut() = e.clone();
    });
    // 4. Let reader be stream.[[reader]].
    // 5. If reader is undefined, return.
    let Some(reader) = with_stream(stream, ReadableStream::reader) else {
        return;
    };
    // 6. Reject reader.[[closedPromise]] with e.
    // 7. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true. (A rejected
    //    `PromiseSlot` is handled.)
    reader.reject_closed(e.clone(), ctx);
    match reader {
        // 8. If reader implements ReadableStreamDefaultReader,
        //   1. Perform ! ReadableStreamDefaultReaderErrorReadRequests(reader, e).
        StreamReader::Default(reader) => {
            reader::readable_stream_default_reader_error_read_requests(&reader, e, ctx);
        }
        // 9. Otherwise,
        //   1. Assert: reader implements ReadableStreamBYOBReader.
        //   2. Perform ! ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e).
        StreamReader::Byob(reader) => {
            byob_reader::readable_stream_byob_reader_error_read_into_requests(&reader, e, ctx);
        }
    }
}

/// [ReadableStreamAddReadRequest](https://streams.spec.whatwg.org/#readable-stream-add-read-request)
pub(crate) fn readable_stream_add_read_request(
    stream: &JsObject<ReadableStream>,
    read_request: ReadRequest,
) {
    // 1. Assert: stream.[[reader]] implements ReadableStreamDefaultReader.
    let reader = with_stream(stream, ReadableStream::default_reader);
    debug_assert!(
        reader.is_some(),
        "ReadableStreamAddReadRequest: no default reader"
    );
    // 2. Assert: stream.[[state]] is "readable".
    debug_assert_eq!(
        with_stream(stream, ReadableStream::state),
        StreamState::Readable
    );
    // 3. Append readRequest to stream.[[reader]].[[readRequests]].
    if let Some(reader) = reader {
        reader.borrow().data().push_read_request(read_request);
    }
}

/// [ReadableStreamFulfillReadRequest](https://streams.spec.whatwg.org/#readable-stream-fulfill-read-request)
pub(crate) fn readable_stream_fulfill_read_request(
    stream: &JsObject<ReadableStream>,
    chunk: JsValue,
    done: bool,
    ctx: &mut Context,
) {
    readable_stream_fulfill_read_request_native(stream, chunk.into(), done, ctx);
}

/// [ReadableStreamFulfillReadRequest](https://streams.spec.whatwg.org/#readable-stream-fulfill-read-request)
/// with a queued chunk that may still be Rust bytes (see [`Chunk`](crate::chunk::Chunk)).
pub(crate) fn readable_stream_fulfill_read_request_native(
    stream: &JsObject<ReadableStream>,
    chunk: crate::chunk::Chunk,
    done: bool,
    ctx: &mut Context,
) {
    // 1. Assert: ! ReadableStreamHasDefaultReader(stream) is true.
    // 2. Let reader be stream.[[reader]].
    let reader = with_stream(stream, ReadableStream::default_reader);
    debug_assert!(
        reader.is_some(),
        "ReadableStreamFulfillReadRequest: no default reader"
    );
    let Some(reader) = reader else {
        return;
    };
    // 3. Assert: reader.[[readRequests]] is not empty.
    // 4. Let readRequest be reader.[[readRequests]][0].
    // 5. Remove readRequest from reader.[[readRequests]].
    let request = reader.borrow().data().shift_read_request();
    debug_assert!(
        request.is_some(),
        "ReadableStreamFulfillReadRequest: no read request"
    );
    let Some(request) = request else {
        return;
    };
    // 6. If done is true, perform readRequest's close steps.
    // 7. Otherwise, perform readRequest's chunk steps, given chunk.
    if done {
        request.close_steps(ctx);
    } else {
        request.chunk_steps_native(chunk, ctx);
    }
}

/// [ReadableStreamGetNumReadRequests](https://streams.spec.whatwg.org/#readable-stream-get-num-read-requests)
pub fn readable_stream_get_num_read_requests(stream: &JsObject<ReadableStream>) -> usize {
    // 1. Assert: ! ReadableStreamHasDefaultReader(stream) is true.
    // 2. Return stream.[[reader]].[[readRequests]]'s size.
    with_stream(stream, ReadableStream::default_reader)
        .map_or(0, |r| r.borrow().data().num_read_requests())
}

/// [ReadableStreamHasDefaultReader](https://streams.spec.whatwg.org/#readable-stream-has-default-reader)
pub fn readable_stream_has_default_reader(stream: &JsObject<ReadableStream>) -> bool {
    // 1. Let reader be stream.[[reader]].
    // 2. If reader is undefined, return false.
    // 3. If reader implements ReadableStreamDefaultReader, return true.
    // 4. Return false.
    with_stream(stream, |s| {
        matches!(&*s.reader.borrow(), Some(StreamReader::Default(_)))
    })
}

fn byob_reader_of(stream: &JsObject<ReadableStream>) -> Option<JsObject<ReadableStreamBYOBReader>> {
    match with_stream(stream, ReadableStream::reader) {
        Some(StreamReader::Byob(r)) => Some(r),
        _ => None,
    }
}

/// [ReadableStreamAddReadIntoRequest](https://streams.spec.whatwg.org/#readable-stream-add-read-into-request)
pub(crate) fn readable_stream_add_read_into_request(
    stream: &JsObject<ReadableStream>,
    read_request: ReadIntoRequest,
) {
    // 1. Assert: stream.[[reader]] implements ReadableStreamBYOBReader.
    let reader = byob_reader_of(stream);
    debug_assert!(
        reader.is_some(),
        "ReadableStreamAddReadIntoRequest: no BYOB reader"
    );
    // 2. Assert: stream.[[state]] is "readable" or "closed".
    debug_assert!(with_stream(stream, ReadableStream::state) != StreamState::Errored);
    // 3. Append readRequest to stream.[[reader]].[[readIntoRequests]].
    if let Some(reader) = reader {
        reader.borrow().data().push_read_into_request(read_request);
    }
}

/// [ReadableStreamFulfillReadIntoRequest](https://streams.spec.whatwg.org/#readable-stream-fulfill-read-into-request)
pub(crate) fn readable_stream_fulfill_read_into_request(
    stream: &JsObject<ReadableStream>,
    chunk: JsValue,
    done: bool,
    ctx: &mut Context,
) {
    // 1. Assert: ! ReadableStreamHasBYOBReader(stream) is true.
    // 2. Let reader be stream.[[reader]].
    let reader = byob_reader_of(stream);
    debug_assert!(
        reader.is_some(),
        "ReadableStreamFulfillReadIntoRequest: no BYOB reader"
    );
    let Some(reader) = reader else {
        return;
    };
    // 3. Assert: reader.[[readIntoRequests]] is not empty.
    // 4. Let readIntoRequest be reader.[[readIntoRequests]][0].
    // 5. Remove readIntoRequest from reader.[[readIntoRequests]].
    let request = reader.borrow().data().shift_read_into_request();
    debug_assert!(
        request.is_some(),
        "ReadableStreamFulfillReadIntoRequest: no request"
    );
    let Some(request) = request else {
        return;
    };
    // 6. If done is true, perform readIntoRequest's close steps, given chunk.
    // 7. Otherwise, perform readIntoRequest's chunk steps, given chunk.
    if done {
        request.close_steps(chunk, ctx);
    } else {
        request.chunk_steps(chunk, ctx);
    }
}

/// [ReadableStreamGetNumReadIntoRequests](https://streams.spec.whatwg.org/#readable-stream-get-num-read-into-requests)
pub(crate) fn readable_stream_get_num_read_into_requests(
    stream: &JsObject<ReadableStream>,
) -> usize {
    // 1. Assert: ! ReadableStreamHasBYOBReader(stream) is true.
    // 2. Return stream.[[reader]].[[readIntoRequests]]'s size.
    byob_reader_of(stream).map_or(0, |r| r.borrow().data().num_read_into_requests())
}

/// [ReadableStreamHasBYOBReader](https://streams.spec.whatwg.org/#readable-stream-has-byob-reader)
pub(crate) fn readable_stream_has_byob_reader(stream: &JsObject<ReadableStream>) -> bool {
    // 1. Let reader be stream.[[reader]].
    // 2. If reader is undefined, return false.
    // 3. If reader implements ReadableStreamBYOBReader, return true.
    // 4. Return false.
    byob_reader_of(stream).is_some()
}

/// [ReadableStreamTee](https://streams.spec.whatwg.org/#readable-stream-tee)
pub fn readable_stream_tee(
    stream: &JsObject<ReadableStream>,
    clone_for_branch2: bool,
    ctx: &mut Context,
) -> JsResult<(JsObject<ReadableStream>, JsObject<ReadableStream>)> {
    // 1. Assert: stream implements ReadableStream.
    // 2. Assert: cloneForBranch2 is a boolean.
    // 3. If stream.[[controller]] implements ReadableByteStreamController, return ?
    //    ReadableByteStreamTee(stream).
    if byte_controller::byte_controller_of(stream).is_some() {
        return byte_tee::readable_byte_stream_tee(stream, ctx);
    }
    // 4. Return ? ReadableStreamDefaultTee(stream, cloneForBranch2).
    tee::readable_stream_default_tee(stream, clone_for_branch2, ctx)
}

/// Reject helper used by promise-returning methods with a bad `this`.
/// `err` is the library's own (a brand check, a released reader): see
/// [`webidl::own_error_value`].
pub(crate) fn rejected(err: boa_engine::JsError, ctx: &mut Context) -> JsValue {
    let reason = webidl::own_error_value(err, ctx);
    promise_rejected_with(reason, ctx).into()
}
