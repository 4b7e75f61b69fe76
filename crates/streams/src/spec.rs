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
