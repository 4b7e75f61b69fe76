//! # boa_streams
//!
//! The [WHATWG Streams Standard](https://streams.spec.whatwg.org/) as native host objects for
//! the [Boa](https://boajs.dev) JavaScript engine, plus the DOM pieces streams need
//! (`DOMException`, `Event`, `CustomEvent`, `EventTarget`, `AbortController`, `AbortSignal`),
//! the Encoding Standard's `TextEncoder` / `TextDecoder` / `TextEncoderStream` /
//! `TextDecoderStream` and the Compression
//! Standard's `CompressionStream` / `DecompressionStream`.
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_streams::register(&mut context).unwrap();
//! context
//!     .eval(Source::from_bytes(
//!         "globalThis.got = [];
//!          const stream = new ReadableStream({
//!              start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); },
//!          });
//!          (async () => { for await (const chunk of stream) got.push(chunk); })();",
//!     ))
//!     .unwrap();
//! context.run_jobs().unwrap();
//! let got = context.eval(Source::from_bytes("got.join()")).unwrap();
//! assert_eq!(got.as_string().unwrap().to_std_string_escaped(), "a,b");
//! ```
//!
//! Or compose with boa_runtime's extensions:
//! `boa_runtime::register_extensions((ConsoleExtension::default(), boa_streams::StreamsExtension), None, ctx)`.
//! (Do not register boa_runtime's own `AbortControllerExtension` or `EncodingExtension`
//! (`TextEncoder`/`TextDecoder`): ours replace them, and registering both would leave
//! whichever comes last as the global.)
//!
//! Streams need a job executor that runs microtasks in FIFO order and drains them before
//! timers: the host crate (`boa_streams_host`) has one; `Context::run_jobs` with Boa's default
//! executor is enough for scripts without timers (as above).
//!
//! # Public API
//!
//! Everything an embedder needs, and nothing else (the spec layer is crate-private, so it can
//! change without breaking embedders):
//!
//! - **Registration**: [`register`] (every interface on the current realm),
//!   [`register_in_realm`], and [`StreamsExtension`] (the same as a boa_runtime
//!   `RuntimeExtension`, to compose with boa_runtime's other extensions).
//! - **The fast-path switch**: [`fast_paths`] / [`set_fast_paths`] (and the environment
//!   variable `BOA_STREAMS_FAST_PATHS=0`, the cargo feature `fast-paths`). The conformance runs
//!   and the differential tester run everything both ways; embedders may turn them off to
//!   compare.
//! - **Native sources and sinks** ([`native`]): streams fed from or consumed into Rust without
//!   JS glue: the [`NativeSource`](native::NativeSource) / [`NativeSink`](native::NativeSink)
//!   traits, [`native_readable_stream`](native::native_readable_stream),
//!   [`native_writable_stream`](native::native_writable_stream),
//!   [`native_byte_stream`](native::native_byte_stream) (an iterator of `Bytes` as a byte
//!   stream), byte sources filling BYOB reads in place (the one mechanism for byte sources in
//!   Rust, which the async adapters below use too: [`ByteSource`](native::ByteSource),
//!   [`ByteController`](native::ByteController),
//!   [`native_readable_byte_stream`](native::native_readable_byte_stream),
//!   [`io_error`](native::io_error)),
//!   [`enqueue_bytes`](native::enqueue_bytes) / [`bytes_to_uint8_array`](native::bytes_to_uint8_array),
//!   the default controller's enqueue / close / error / desired size, the spec's introspection
//!   for other specifications ([`readable_stream_is_locked`](native::readable_stream_is_locked),
//!   [`readable_stream_is_disturbed`](native::readable_stream_is_disturbed)), and the types those
//!   signatures mention ([`Completion`](native::Completion),
//!   [`RustPromise`](native::RustPromise), [`Settlement`](native::Settlement),
//!   [`ReadableStream`](native::ReadableStream),
//!   [`ReadableStreamDefaultController`](native::ReadableStreamDefaultController)).
//!   Async Rust I/O and Rust consumers, in the same module:
//!   [`readable_stream_from_stream`](native::readable_stream_from_stream),
//!   [`readable_stream_from_async_read`](native::readable_stream_from_async_read),
//!   [`writable_stream_from_sink`](native::writable_stream_from_sink),
//!   [`writable_stream_from_async_write`](native::writable_stream_from_async_write) (and
//!   `native::tokio` behind the cargo feature `tokio`), [`StreamReader`](native::StreamReader)
//!   / [`ChunkStream`](native::ChunkStream) / [`StreamWriter`](native::StreamWriter), and the
//!   driver of their futures ([`poll_tasks`](native::poll_tasks),
//!   [`block_on`](native::block_on), [`run_until_idle`](native::run_until_idle)).
//! - **The DOM hooks a host needs** ([`dom`]): [`set_exception_reporter`](dom::set_exception_reporter)
//!   (where exceptions thrown by event listeners and abort algorithms are "reported"; the host
//!   crate routes them into its error list), the abort signal API an embedder's own
//!   cancellable operations use ([`create_abort_signal`](dom::create_abort_signal),
//!   [`is_abort_signal`](dom::is_abort_signal), [`is_aborted`](dom::is_aborted),
//!   [`abort_reason`](dom::abort_reason), [`signal_abort`](dom::signal_abort),
//!   [`add_abort_algorithm`](dom::add_abort_algorithm) /
//!   [`remove_abort_algorithm`](dom::remove_abort_algorithm)), and `DOMException`
//!   ([`create_dom_exception`](dom::create_dom_exception), [`DomException`](dom::DomException),
//!   whose `name` / `message` a host reads to print an uncaught one).
//!
//! What the workspace's other crates use is exactly this API, nothing behind a back door: the
//! host (`crates/host`) uses [`register`], [`dom::set_exception_reporter`] and
//! [`dom::DomException`]; the WPT runner and the differential tester (`wpt/`) use
//! [`set_fast_paths`] and [`dom::add_abort_algorithm`] / [`dom::remove_abort_algorithm`] (the
//! reference implementation's pipe abort algorithm joins the host signal's abort algorithms);
//! the benches use [`set_fast_paths`].
//!
//! # Module map
//!
//! | module | what |
//! | --- | --- |
//! | `readable` | `ReadableStream`, its readers (default, BYOB), controllers (default, byte), the async iterator, `tee()`, `ReadableStream.from()`, the BYOB request, buffer transfer; `readable::pipe` is `pipeTo()` / `pipeThrough()` as a Rust state machine |
//! | `writable` | `WritableStream`, its writer and controller; the sink algorithms (JS, transform, native) |
//! | `transform` | `TransformStream` and its controller; the default sink and source algorithms of its two sides |
//! | `strategies` | `ByteLengthQueuingStrategy`, `CountQueuingStrategy`, the `QueuingStrategy` dictionary, ExtractHighWaterMark / ExtractSizeAlgorithm |
//! | `queue` | the queue-with-sizes (`[[queue]]` + `[[queueTotalSize]]`) |
//! | `promise` | the whole promise vocabulary (a table maps each spec phrase to one item): JS-visible promises, Rust-side promises script never sees, `Completion` ("a promise" an algorithm returns), `Reaction` (the one way to react with Rust steps, at a promise reaction's microtask position), `PromiseSlot` (`closed` / `ready` attributes) |
//! | `webidl` | WebIDL glue: interface / operation / attribute installation with WebIDL shapes, brand checks, errors, conversions, promise-returning methods, `catching` (user code run inside a JS try/catch trampoline, `docs/engine-bugs/`) |
//! | `dom` | `DOMException`, `Event`, `CustomEvent`, `EventTarget`, `AbortController`, `AbortSignal` |
//! | `encoding` | `TextEncoder`, `TextDecoder`, `TextDecoderStream`, `TextEncoderStream` (one decoder on `encoding_rs`) |
//! | `compression` | `CompressionStream`, `DecompressionStream` (deflate, deflate-raw, gzip on `flate2`) |
//! | `gc_pressure` | the one way the library makes an `ArrayBuffer`: counts its data block (which Boa's collector does not see) and forces a collection every 4 MiB or more (more for a large heap) |
//! | [`native`] | the embedder API for Rust sources and sinks |
//!
//! Tests sit beside the code by one rule: module `m`'s unit tests are its child module
//! `tests` (`#[cfg(test)] mod tests;`, file `m/tests.rs` or `m/tests/mod.rs`); crate-wide
//! tests are `src/tests/`; the helpers they share are `src/test_support.rs`.
//!
//! # Hot paths
//!
//! Where the time goes in a stream-heavy script, and what the fast paths ([`fast_paths`], on by
//! default; every one switchable off with identical results) avoid there:
//!
//! - **Reads from a queue** (`reader.read()`, `for await`): the chunk is dequeued in Rust
//!   (`queue`) and the read promise is a single JS promise resolved at once; no promise is made
//!   for the internal steps.
//! - **Callback results** ("a promise resolved with" what `start` / `pull` / `write` /
//!   `transform` / `flush` / `cancel` return, `promise`): with fast paths on, the promise
//!   resolve function's steps run in Rust: a non-thenable result settles at once and the
//!   reaction is queued as a native microtask at the exact position the spec's promise
//!   reaction would take, so a synchronous `pull()` / `write()` allocates no JS promise and
//!   runs no JS reaction; a thenable still gets a JS promise and the thenable job.
//! - **Piping** (`readable::pipe`): `pipeTo` reads with a native read request and writes with
//!   native completions, observing both ends through Rust-side waiters; the only JS promise of
//!   a pipe is the one `pipeTo()` returns. `pipeThrough(new TransformStream())`'s default
//!   transform enqueues without a JS promise.
//! - **`CountQueuingStrategy`'s size**: not called (it always returns 1 without side effects).
//! - **Catching user exceptions** (`webidl::catching`): every call into user code whose
//!   exception the library catches pays a small JS trampoline (about 0.25-0.45 µs); the
//!   `then` probes and `then()` registrations take it only when the lookup can run user code.
//!
//! # Module import graph
//!
//! Edges are `use crate::…` in non-test code (`a → b`: `a` uses `b`). The spec layer is
//! layered bottom-up; nothing in `readable` or `writable` imports `transform`, `encoding`,
//! `compression` or `native` (a TransformStream's writable side is a `writable::NativeSink`
//! implemented in `transform`, its readable side a `readable` Rust source).
//!
//! ```text
//! compression ─┐
//! encoding ────┴─→ transform ─→ readable ─→ writable ─→ strategies, queue
//! native ──────────────────────→ readable, writable          │
//!                                                            ↓
//!   every spec module ─→ promise ⇄ webidl ─→ dom        (webidl, fast_paths)
//! ```
//!
//! - `readable` → `writable` is `readable::pipe` (pipeTo is a ReadableStream method that
//!   writes to a WritableStream), plus `dom` for its `AbortSignal`.
//! - `promise` ⇄ `webidl`: promise-returning methods (`webidl`) create their rejected promise
//!   with `promise`; `promise` runs user code through `webidl::catching`.
//! - `dom` uses only `webidl`.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{realm::Realm, Context, JsResult};

pub(crate) mod chunk;
pub mod native;
mod owning;
pub(crate) mod queue;
pub(crate) mod readable;
pub mod spec;
pub(crate) mod strategies;
pub(crate) mod transform;
pub(crate) mod writable;

#[cfg(test)]
mod test_support;

pub use boa_webidl::{fast_paths, set_fast_paths};
pub use owning::{set_owning_hooks, OwningHooks};

/// Register the Streams Standard's interfaces on the context's current realm: the streams,
/// readers, writers, controllers and queuing strategies. What they need and is not registered
/// yet is registered first: WebIDL's ([`boa_webidl::register`]: `DOMException`) and the DOM's
/// ([`boa_dom::register`]: `AbortSignal` for pipes and `controller.signal`). Registering twice
/// does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if boa_webidl::first_registration::<Registered>(context) {
        boa_dom::register(context)?;
        strategies::register(context)?;
        readable::register(context)?;
        writable::register(context)?;
        transform::register(context)?;
    }
    Ok(())
}

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

/// Register every interface on `realm` (the context's current realm is restored after).
pub fn register_in_realm(realm: Realm, context: &mut Context) -> JsResult<()> {
    let old = context.enter_realm(realm);
    let result = register(context);
    context.enter_realm(old);
    result
}

/// A boa_runtime extension that registers boa_streams (compose it with boa_runtime's others).
#[derive(Debug, Clone, Copy, Default)]
pub struct StreamsExtension;

impl boa_runtime::extensions::RuntimeExtension for StreamsExtension {
    fn register(self, realm: Option<Realm>, context: &mut Context) -> JsResult<()> {
        match realm {
            Some(realm) => register_in_realm(realm, context),
            None => register(context),
        }
    }
}

#[cfg(test)]
mod tests;
