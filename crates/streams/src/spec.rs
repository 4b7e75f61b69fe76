//! The Streams Standard's abstract operations and internal types for
//! [other specifications](https://streams.spec.whatwg.org/#other-specs): what the web API
//! crates built on streams (Encoding, Compression, the File API, Fetch, HTML) call, named as
//! the spec names them. An embedder implementing another standard on top of streams uses the
//! same items; an embedder feeding streams from Rust wants [`crate::native`] instead.
//!
//! ```
//! use boa_engine::{Context, JsValue};
//! use boa_gc::Gc;
//! use boa_streams::spec::{
//!     create_readable_stream, is_readable_stream_locked, readable_stream_default_controller_close,
//!     readable_stream_default_controller_enqueue, NativeSource, NativeSourceBox, SourceAlgorithms,
//!     StartAlgorithm, StreamController,
//! };
//! use boa_webidl::promise::Completion;
//!
//! /// Two chunks, then the end.
//! #[derive(boa_gc::Trace, boa_gc::Finalize)]
//! struct Two;
//!
//! impl NativeSource for Two {
//!     fn pull(&self, controller: &StreamController, ctx: &mut Context) -> Completion {
//!         if let StreamController::Default(c) = controller {
//!             let _ = readable_stream_default_controller_enqueue(c, JsValue::from(1), ctx);
//!             let _ = readable_stream_default_controller_enqueue(c, JsValue::from(2), ctx);
//!             let _ = readable_stream_default_controller_close(c, ctx);
//!         }
//!         Completion::undefined()
//!     }
//!
//!     fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
//!         Completion::undefined()
//!     }
//! }
//!
//! let mut context = Context::default();
//! boa_streams::register(&mut context).unwrap();
//! let algorithms = SourceAlgorithms::Native(Gc::new(NativeSourceBox(Box::new(Two))));
//! let stream =
//!     create_readable_stream(StartAlgorithm::ReturnUndefined, algorithms, None, None, &mut context)
//!         .unwrap();
//! assert!(!is_readable_stream_locked(&stream));
//! ```

use boa_engine::{object::JsObject, Context, JsResult, JsValue, NativeObject};
use boa_webidl::Member;

pub use crate::chunk::Chunk;
pub use crate::readable::{
    acquire_readable_stream_default_reader, create_readable_stream, is_readable_stream_locked,
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, readable_stream_default_reader_read,
    readable_stream_pipe_to, readable_stream_tee, to_array_buffer_view, NativeSource,
    NativeSourceBox, ReadRequest, ReadRequestSteps, ReadableStream,
    ReadableStreamDefaultController, ReadableStreamDefaultReader, SourceAlgorithms, StartAlgorithm,
    StreamController, ViewConstructor,
};
pub use crate::strategies::SizeAlgorithm;
pub use crate::transform::{
    transferred_transform_stream, transform_stream_default_controller_enqueue,
    transform_stream_default_controller_enqueue_chunk, transform_stream_set_up, RustTransformer,
    TransformBytesAlgorithm, TransformStream, TransformStreamDefaultController,
};
pub use crate::writable::{
    create_writable_stream, is_writable_stream_locked,
    writable_stream_default_controller_error_if_needed, NativeSink, SinkAlgorithms, WritableStream,
    WritableStreamRef,
};

/// An interface that includes the
/// [GenericTransformStream](https://streams.spec.whatwg.org/#generictransformstream) mixin
/// (`CompressionStream`, `TextDecoderStream`, ...): an object with a
/// [transform](https://streams.spec.whatwg.org/#generictransformstream-transform), a
/// [`TransformStream`]. Its `readable` and `writable` attributes are
/// [`generic_transform_stream`]'s rows.
///
/// ```
/// use boa_engine::{object::JsObject, JsData};
/// use boa_gc::{Finalize, Trace};
/// use boa_streams::spec::{GenericTransformStream, TransformStream};
///
/// #[derive(Trace, Finalize, JsData)]
/// struct Upper {
///     transform: JsObject<TransformStream>,
/// }
///
/// impl GenericTransformStream for Upper {
///     const INTERFACE: &'static str = "Upper";
///     fn transform(&self) -> Option<JsObject<TransformStream>> {
///         Some(self.transform.clone())
///     }
/// }
/// assert_eq!(<Upper as GenericTransformStream>::INTERFACE, "Upper");
/// ```
pub trait GenericTransformStream: NativeObject {
    /// The interface's identifier, as the brand check's TypeError names it ("'this' is not a
    /// `INTERFACE` object").
    const INTERFACE: &'static str;

    /// this's [transform](https://streams.spec.whatwg.org/#generictransformstream-transform);
    /// `None` while the constructor has not set it yet (the getters return `undefined` then).
    fn transform(&self) -> Option<JsObject<TransformStream>>;
}

/// The rows of the [GenericTransformStream](https://streams.spec.whatwg.org/#generictransformstream)
/// mixin, in IDL order: `readonly attribute ReadableStream readable;` and
/// `readonly attribute WritableStream writable;`. The including interface puts them in its
/// [`boa_webidl::define`] table where it includes the mixin. Each getter brand-checks `this`
/// as a `T` (a TypeError "'this' is not a `T::INTERFACE` object" otherwise).
///
/// ```
/// use boa_engine::{
///     class::{Class, ClassBuilder},
///     object::JsObject,
///     Context, JsData, JsResult, JsValue, Source,
/// };
/// use boa_gc::{Finalize, Trace};
/// use boa_streams::spec::{
///     generic_transform_stream, transform_stream_set_up, GenericTransformStream,
///     RustTransformer, TransformStream, TransformStreamDefaultController,
/// };
/// use boa_webidl::Member;
///
/// #[derive(Trace, Finalize, JsData)]
/// struct Identity {
///     transform: JsObject<TransformStream>,
/// }
///
/// impl GenericTransformStream for Identity {
///     const INTERFACE: &'static str = "Identity";
///     fn transform(&self) -> Option<JsObject<TransformStream>> {
///         Some(self.transform.clone())
///     }
/// }
///
/// fn pass(
///     _state: &JsValue,
///     chunk: JsValue,
///     controller: &JsObject<TransformStreamDefaultController>,
///     ctx: &mut Context,
/// ) -> JsResult<()> {
///     boa_streams::spec::transform_stream_default_controller_enqueue(controller, chunk, ctx)
/// }
///
/// fn done(
///     _state: &JsValue,
///     _controller: &JsObject<TransformStreamDefaultController>,
///     _ctx: &mut Context,
/// ) -> JsResult<()> {
///     Ok(())
/// }
///
/// impl Class for Identity {
///     const NAME: &'static str = "Identity";
///     fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
///         let [readable, writable] = generic_transform_stream::<Identity>();
///         boa_webidl::define(class, &[readable, writable, Member::to_string_tag("Identity")])
///     }
///     fn data_constructor(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<Self> {
///         let transform = transform_stream_set_up(
///             JsValue::undefined(),
///             RustTransformer { transform: pass, transform_bytes: None, flush: done },
///             ctx,
///         )?;
///         Ok(Identity { transform })
///     }
/// }
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// boa_webidl::register_interface::<Identity>(&mut context).unwrap();
/// let result = context
///     .eval(Source::from_bytes(
///         "const id = new Identity();
///          const get = Object.getOwnPropertyDescriptor(Identity.prototype, 'readable').get;
///          let message = '';
///          try { get.call({}); } catch (e) { message = e.message; }
///          [id.readable instanceof ReadableStream, id.writable instanceof WritableStream,
///           get.name, message].join()",
///     ))
///     .unwrap();
/// assert_eq!(
///     result.to_string(&mut context).unwrap(),
///     "true,true,get readable,'this' is not a Identity object"
/// );
/// ```
#[must_use]
pub const fn generic_transform_stream<T: GenericTransformStream>() -> [Member; 2] {
    [
        Member::attribute("readable", generic_transform_stream_readable::<T>),
        Member::attribute("writable", generic_transform_stream_writable::<T>),
    ]
}

/// [readable](https://streams.spec.whatwg.org/#dom-generictransformstream-readable)
fn generic_transform_stream_readable<T: GenericTransformStream>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    let this = boa_webidl::brand::<T>(this, T::INTERFACE)?;
    let transform = this.borrow().data().transform();
    // The readable getter steps are to return this's transform.[[readable]].
    let readable = transform.and_then(|t| t.borrow().data().readable());
    Ok(readable.map_or_else(JsValue::undefined, |r| r.upcast().into()))
}

/// [writable](https://streams.spec.whatwg.org/#dom-generictransformstream-writable)
fn generic_transform_stream_writable<T: GenericTransformStream>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    let this = boa_webidl::brand::<T>(this, T::INTERFACE)?;
    let transform = this.borrow().data().transform();
    // The writable getter steps are to return this's transform.[[writable]].
    let writable = transform.and_then(|t| t.borrow().data().writable());
    Ok(writable.map_or_else(JsValue::undefined, JsValue::from))
}
