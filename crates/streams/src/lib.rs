//! # boa_streams
//!
//! The [WHATWG Streams Standard](https://streams.spec.whatwg.org/) as native host objects for
//! the [Boa](https://boajs.dev) JavaScript engine: `ReadableStream` (default and byte
//! streams, BYOB readers, `tee()`, async iteration, `ReadableStream.from()`), `WritableStream`,
//! `TransformStream`, pipes with an `AbortSignal`, the queuing strategies and the experimental
//! owning type, plus the Rust API for embedders ([`native`]) and for the standards built on
//! streams ([`spec`]). `DOMException` comes from `boa_webidl`, `AbortSignal` from `boa_dom`;
//! the Encoding, Compression, File API, Fetch and HTML pieces are crates of their own, and
//! `boa_web` registers them all.
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
//! (Do not register boa_runtime's own `AbortControllerExtension`: `boa_dom`'s replaces it,
//! and registering both would leave whichever comes last as the global.)
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
//! - **Owning streams' hooks**: [`set_owning_hooks`] / [`OwningHooks`] (the owning type's
//!   StructuredTransferOrClone and dispose steps, which `boa_html` installs).
//! - **For other standards** ([`spec`]): the abstract operations and internal types the
//!   Encoding, Compression, File API, Fetch and HTML crates call (the Streams Standard's
//!   "other specifications" section), named as the spec names them.
//!
//! The DOM hooks a host needs (the exception reporter, abort signals) are `boa_dom`'s, and
//! `DOMException` is `boa_webidl`'s. The workspace's other crates use exactly this API,
//! nothing behind a back door.
//!
//! # Module map
//!
//! | module | what |
//! | --- | --- |
//! | `readable` | `ReadableStream`, its readers (default, BYOB), controllers (default, byte), the async iterator, `tee()`, `ReadableStream.from()`, the BYOB request, buffer transfer; `readable::pipe` is `pipeTo()` / `pipeThrough()` as a Rust state machine |
//! | `writable` | `WritableStream`, its writer and controller; the sink algorithms (a JS sink, or a Rust one through the `SinkSteps` trait: an embedder's `NativeSink` or a TransformStream's writable side) |
//! | `transform` | `TransformStream` and its controller; the default sink and source algorithms of its two sides |
//! | `strategies` | `ByteLengthQueuingStrategy`, `CountQueuingStrategy`, the `QueuingStrategy` dictionary, ExtractHighWaterMark / ExtractSizeAlgorithm |
//! | `queue` | the queue-with-sizes (`[[queue]]` + `[[queueTotalSize]]`) |
//! | `chunk` | a queued chunk: a JS value, or native bytes not yet turned into a `Uint8Array` |
//! | `owning` | the owning type's hooks ([`OwningHooks`]) |
//! | [`native`] | the embedder API for Rust sources and sinks |
//! | [`spec`] | the operations other standards call (re-exports) |
//!
//! The promise vocabulary, the WebIDL glue (`catching`) and the `ArrayBuffer` funnel
//! (`gc_pressure`) are `boa_webidl`'s.
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
//! Edges are `use crate::…` in non-test code (`a → b`: `a` uses `b`); the graph reads
//! top-down, and nothing imports a module above it:
//!
//! ```text
//! spec ─→ native, transform ─→ readable ─→ writable ─→ queue ─→ chunk
//!                                  │            └────→ strategies
//!                                  └─→ owning
//! ```
//!
//! - `transform` → `readable`, `writable`: a TransformStream's readable side is a readable
//!   Rust source, its writable side a Rust sink (`writable::SinkSteps`); `writable` names no
//!   transform.
//! - `readable` → `writable` is `readable::pipe` (pipeTo is a ReadableStream method that
//!   writes to a WritableStream).
//! - `native` → `readable`, `writable`: the embedder API is built on the spec layer, never the
//!   other way round.
//! - Outside the crate: `boa_webidl` (glue, promises, `catching`, `gc_pressure`, the
//!   fast-path switch) and `boa_dom` (`AbortSignal` for pipes and `controller.signal`).

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

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the Streams Standard (see
    /// [`register`]): compose it with boa_runtime's others.
    StreamsExtension,
    register
);

#[cfg(test)]
mod tests;
