//! `pipeTo()` / `pipeThrough()` and
//! [ReadableStreamPipeTo](https://streams.spec.whatwg.org/#readable-stream-pipe-to) as a Rust
//! state machine.
//!
//! The spec leaves the reading and writing loop "in parallel" and only constrains it; this
//! module keeps those constraints:
//!
//! - **Public API must not be used.** The pipe reads through a native read request
//!   ([`ReadRequest::Pipe`]) on its own reader and writes through the writer's abstract
//!   operations with [`Reaction`]s. No JS promise is created for its internal steps;
//!   the only JS promise of a pipe is the one `pipeTo()` returns. Source close / error is
//!   observed through the reader's Rust-side closed observer, destination error through the
//!   writer's `[[closedPromise]]` waiters.
//! - **Backpressure is enforced.** A read is only issued once the writer's `[[readyPromise]]`
//!   is fulfilled (desired size > 0), observed as a reaction to it (one microtask, the
//!   position a `then` on it takes), and only one read is outstanding at a time.
//! - **Writes are not synchronous with reads.** A chunk is written one microtask after it was
//!   read, so `controller.enqueue()` in the source never reaches the sink's `write()`
//!   synchronously (WPT piping/general-addition).
//! - **Shutdown stops activity.** Once `shuttingDown` is set no read is initiated; chunks
//!   already read are still written, and the shutdown action (or finalize) waits until every
//!   read chunk's write has settled when the destination is still writable.
//!
//! Within those constraints the loop's microtask positions are those of the reference
//! implementation with the write deferred by one microtask (the differential tester's oracle,
//! wpt/difftest): a step is a promise for "done", resolved from the ready reaction with the
//! read's promise (adoption: a NewPromiseResolveThenableJob, then a reaction); the next step
//! starts upon its fulfillment. `currentWrite` is resolved with the write's promise
//! (transformed to fulfil either way) in the microtask that writes, and the shutdown waits on
//! it with a reaction (again if another write started meanwhile). These are Rust-side
//! promises ([`RustPromise`]); only their tick counts mirror the JS ones.
//! - **Finalize** releases the writer and the reader, removes the abort algorithm from the
//!   signal (no listener / memory is left on a long-lived signal) and settles the promise.
//!
//! The pipe's state is a [`Pipe`] in a GC object referenced only from the streams (the read
//! request, the writer's waiters, the reader's closed observer) and from the signal's abort
//! algorithm while it is added: a pipe whose two ends are unreachable is collected.

use std::cell::Cell;

use boa_engine::{
    object::builtins::JsArray, Context, JsData, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::{
    acquire_readable_stream_default_reader, is_readable_stream_locked, readable_stream_cancel,
    readable_stream_default_reader_read, readable_stream_default_reader_release, with_stream,
    ReadRequest, ReadRequestSteps, ReadableStream, ReadableStreamDefaultReader, StreamReader,
    StreamState,
};
use crate::chunk::Chunk;
use crate::writable::{
    acquire_writable_stream_default_writer, is_writable_stream_locked, writable_stream_abort,
    writable_stream_close_queued_or_in_flight,
    writable_stream_default_writer_close_with_error_propagation,
    writable_stream_default_writer_ready_state, writable_stream_default_writer_release,
    writable_stream_default_writer_upon_closed, writable_stream_default_writer_upon_ready,
    writable_stream_default_writer_write_native, AbortWaiter, WritableStream, WritableStreamRef,
    WritableStreamState, WriterRef,
};
use boa_dom::{self as dom, AbortAlgorithmId};
use boa_webidl::promise::{
    enqueue_microtask, react, Completion, PromiseCapability, Reaction, RustPromise, Settlement,
};
use boa_webidl::{self as webidl, arg, brand, type_error, Dictionary};

// ---------------------------------------------------------------------------------------
// The methods
// ---------------------------------------------------------------------------------------

/// A converted [`StreamPipeOptions`](https://streams.spec.whatwg.org/#dictdef-streampipeoptions)
/// dictionary.
struct StreamPipeOptions {
    prevent_abort: bool,
    prevent_cancel: bool,
    prevent_close: bool,
    signal: Option<JsObject>,
}

impl StreamPipeOptions {
    /// Convert (members in lexicographic order: preventAbort, preventCancel, preventClose,
    /// signal; `signal` must implement AbortSignal). Runs user code (getters): `pipeTo()`
    /// calls it inside [`webidl::catching`], `pipeThrough()` lets the exception propagate.
    fn from_value(value: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let dict = Dictionary::new(value, "StreamPipeOptions")?;
        let get = |key, ctx: &mut Context| dict.get(key, ctx);
        let prevent_abort =
            get(webidl::js_key!("preventAbort"), ctx)?.is_some_and(|v| v.to_boolean());
        let prevent_cancel =
            get(webidl::js_key!("preventCancel"), ctx)?.is_some_and(|v| v.to_boolean());
        let prevent_close =
            get(webidl::js_key!("preventClose"), ctx)?.is_some_and(|v| v.to_boolean());
        let signal = match get(webidl::js_key!("signal"), ctx)? {
            None => None,
            Some(v) => {
                if !dom::is_abort_signal(&v) {
                    return Err(type_error("'signal' must be an AbortSignal"));
                }
                v.as_object()
            }
        };
        Ok(Self {
            prevent_abort,
            prevent_cancel,
            prevent_close,
            signal,
        })
    }
}

/// [pipeTo(destination, options)](https://streams.spec.whatwg.org/#rs-pipe-to)
pub(crate) fn pipe_to(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // The options conversion runs user code (getters): the steps run inside
    // webidl::catching and an exception rejects the returned promise.
    Ok(webidl::promise::promise_method(ctx, |ctx| {
        let source = brand::<ReadableStream>(this, "ReadableStream")?;
        // IDL layer: `WritableStream destination`, `optional StreamPipeOptions options = {}`.
        let dest = WritableStream::slots_of(&arg(args, 0))
            .ok_or_else(|| type_error("pipeTo's destination must be a WritableStream"))?;
        let options = StreamPipeOptions::from_value(&arg(args, 1), ctx)?;
        // 1. If ! IsReadableStreamLocked(this) is true, return a promise rejected with a
        //    TypeError exception.
        if is_readable_stream_locked(&source) {
            return Err(type_error("Cannot pipe a locked ReadableStream"));
        }
        // 2. If ! IsWritableStreamLocked(destination) is true, return a promise rejected with a
        //    TypeError exception.
        if is_writable_stream_locked(&dest) {
            return Err(type_error("Cannot pipe to a locked WritableStream"));
        }
        // 3. Let signal be options["signal"] if it exists, or undefined otherwise.
        // 4. Return ! ReadableStreamPipeTo(this, destination, options["preventClose"],
        //    options["preventAbort"], options["preventCancel"], signal).
        let promise = readable_stream_pipe_to(
            &source,
            &dest,
            options.prevent_close,
            options.prevent_abort,
            options.prevent_cancel,
            options.signal,
            ctx,
        )?;
        Ok(promise.into())
    }))
}

/// [pipeThrough(transform, options)](https://streams.spec.whatwg.org/#rs-pipe-through)
pub(crate) fn pipe_through(
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let source = brand::<ReadableStream>(this, "ReadableStream")?;
    // IDL layer: `ReadableWritablePair transform` (required members readable, writable, in
    // lexicographic order), `optional StreamPipeOptions options = {}`.
    let pair = Dictionary::new(&arg(args, 0), "ReadableWritablePair")?;
    let readable = pair
        .get(webidl::js_key!("readable"), ctx)?
        .ok_or_else(|| type_error("ReadableWritablePair requires 'readable'"))?;
    let readable = readable
        .as_object()
        .and_then(|o| o.clone().downcast::<ReadableStream>().ok())
        .ok_or_else(|| type_error("'readable' must be a ReadableStream"))?;
    let writable = pair
        .get(webidl::js_key!("writable"), ctx)?
        .ok_or_else(|| type_error("ReadableWritablePair requires 'writable'"))?;
    let writable = WritableStream::slots_of(&writable)
        .ok_or_else(|| type_error("'writable' must be a WritableStream"))?;
    let options = StreamPipeOptions::from_value(&arg(args, 1), ctx)?;
    // 1. If ! IsReadableStreamLocked(this) is true, throw a TypeError exception.
    if is_readable_stream_locked(&source) {
        return Err(type_error("Cannot pipe a locked ReadableStream"));
    }
    // 2. If ! IsWritableStreamLocked(transform["writable"]) is true, throw a TypeError
    //    exception.
    if is_writable_stream_locked(&writable) {
        return Err(type_error("Cannot pipe to a locked WritableStream"));
    }
    // 3. Let signal be options["signal"] if it exists, or undefined otherwise.
    // 4. Let promise be ! ReadableStreamPipeTo(this, transform["writable"],
    //    options["preventClose"], options["preventAbort"], options["preventCancel"], signal).
    // 5. Set promise.[[PromiseIsHandled]] to true.
    // NOTE: script never sees this promise and, being handled, its rejection is never
    // reported: the pipe runs without creating it.
    pipe_to_with(
        &source,
        &writable,
        options.prevent_close,
        options.prevent_abort,
        options.prevent_cancel,
        options.signal,
        false,
        ctx,
    )?;
    // 6. Return transform["readable"].
    Ok(readable.upcast().into())
}

// ---------------------------------------------------------------------------------------
// The pipe
// ---------------------------------------------------------------------------------------

/// A shutdown action (the spec's "action" of "shutdown with an action").
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum Action {
    /// ! WritableStreamAbort(dest, reason).
    AbortDest(JsValue),
    /// ! ReadableStreamCancel(source, reason).
    CancelSource(JsValue),
    /// ! WritableStreamDefaultWriterCloseWithErrorPropagation(writer).
    CloseDest,
    /// The abort signal's action: getting a promise to wait for all of the abort / cancel
    /// actions (each one only while its stream is still writable / readable).
    Signal(JsValue),
}

/// The state of one pipe.
#[derive(Trace, Finalize, JsData)]
#[boa_gc(unsafe_no_drop)]
pub(crate) struct Pipe {
    source: JsObject<ReadableStream>,
    dest: WritableStreamRef,
    reader: JsObject<ReadableStreamDefaultReader>,
    writer: WriterRef,
    #[unsafe_ignore_trace]
    prevent_close: bool,
    #[unsafe_ignore_trace]
    prevent_abort: bool,
    #[unsafe_ignore_trace]
    prevent_cancel: bool,
    signal: Option<JsObject>,
    #[unsafe_ignore_trace]
    abort_algorithm: Cell<Option<AbortAlgorithmId>>,
    /// The promise `pipeTo()` returns (none for `pipeThrough()`).
    promise: Option<PromiseCapability>,
    /// `shuttingDown`.
    #[unsafe_ignore_trace]
    shutting_down: Cell<bool>,
    #[unsafe_ignore_trace]
    finalized: Cell<bool>,
    /// `currentWrite`: the promise for the last chunk read being written (`None`: a promise
    /// resolved with undefined, no chunk read yet). Only without [`Pipe::inline`].
    current_write: GcRefCell<Option<Gc<RustPromise>>>,
    /// Fast paths on when the pipe started: the loop's step and read promises and the
    /// `currentWrite` promises are kept inline ([`Pipe::read`], [`Pipe::writes`]) instead of as
    /// a [`RustPromise`] each (see [`InlineRead`]).
    #[unsafe_ignore_trace]
    inline: bool,
    /// The pending read of the loop ([`Pipe::inline`] only).
    read: GcRefCell<InlineRead>,
    /// The `currentWrite` promises not settled yet ([`Pipe::inline`] only).
    writes: GcRefCell<InlineWrites>,
    /// The error finalize is passed when the action fulfills.
    original_error: GcRefCell<Option<JsValue>>,
    /// Outstanding parts of the signal's "wait for all" action.
    #[unsafe_ignore_trace]
    actions_pending: Cell<usize>,
    /// The action is the signal's: its parts settle a "wait for all" promise, and the shutdown
    /// reacts to that promise (one microtask after the part that decides it).
    #[unsafe_ignore_trace]
    wait_for_all: Cell<bool>,
}

impl std::fmt::Debug for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipe").finish_non_exhaustive()
    }
}

type PipeRef = JsObject<Pipe>;

fn pipe<R>(p: &PipeRef, f: impl FnOnce(&Pipe) -> R) -> R {
    f(p.borrow().data())
}

fn native(p: &PipeRef, steps: fn(&PipeRef, Settlement, &mut Context)) -> Reaction {
    Reaction::new(p.clone(), steps)
}

/// [ReadableStreamPipeTo](https://streams.spec.whatwg.org/#readable-stream-pipe-to)
///
/// Returns the promise (the only JS promise the pipe creates).
pub fn readable_stream_pipe_to(
    source: &JsObject<ReadableStream>,
    dest: &WritableStreamRef,
    prevent_close: bool,
    prevent_abort: bool,
    prevent_cancel: bool,
    signal: Option<JsObject>,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    pipe_to_with(
        source,
        dest,
        prevent_close,
        prevent_abort,
        prevent_cancel,
        signal,
        true,
        ctx,
    )?
    .ok_or_else(|| type_error("the pipe has no promise"))
}

/// [ReadableStreamPipeTo](https://streams.spec.whatwg.org/#readable-stream-pipe-to) with or
/// without the JS promise (`pipeThrough()` never exposes it).
#[allow(clippy::too_many_arguments)]
fn pipe_to_with(
    source: &JsObject<ReadableStream>,
    dest: &WritableStreamRef,
    prevent_close: bool,
    prevent_abort: bool,
    prevent_cancel: bool,
    signal: Option<JsObject>,
    with_promise: bool,
    ctx: &mut Context,
) -> JsResult<Option<JsObject>> {
    // 1. Assert: source implements ReadableStream.
    // 2. Assert: dest implements WritableStream.
    // 3. Assert: preventClose, preventAbort, and preventCancel are all booleans.
    // 4. If signal was not given, let signal be undefined.
    // 5. Assert: either signal is undefined, or signal implements AbortSignal.
    // 6. Assert: ! IsReadableStreamLocked(source) is false.
    debug_assert!(!is_readable_stream_locked(source));
    // 7. Assert: ! IsWritableStreamLocked(dest) is false.
    debug_assert!(!is_writable_stream_locked(dest));
    // 8. If source.[[controller]] implements ReadableByteStreamController, ... (no byte
    //    streams yet).
    // 9. Otherwise, let reader be ! AcquireReadableStreamDefaultReader(source).
    let reader = acquire_readable_stream_default_reader(source, ctx)?;
    // 10. Let writer be ! AcquireWritableStreamDefaultWriter(dest).
    let writer = acquire_writable_stream_default_writer(dest, ctx)?;
    // 11. Set source.[[disturbed]] to true.
    with_stream(source, |s| s.set_disturbed(true));
    // 12. Let shuttingDown be false.
    // 13. Let promise be a new promise.
    let promise = with_promise.then(|| PromiseCapability::new(ctx));
    let result = promise.as_ref().map(|p| p.promise.clone());
    let p: PipeRef = JsObject::new(
        ctx.root_shape(),
        None,
        Pipe {
            source: source.clone(),
            dest: dest.clone(),
            reader,
            writer,
            prevent_close,
            prevent_abort,
            prevent_cancel,
            signal: signal.clone(),
            abort_algorithm: Cell::new(None),
            promise,
            shutting_down: Cell::new(false),
            finalized: Cell::new(false),
            current_write: GcRefCell::new(None),
            inline: boa_webidl::fast_paths(),
            read: GcRefCell::new(InlineRead::Idle),
            writes: GcRefCell::new(InlineWrites::default()),
            original_error: GcRefCell::new(None),
            actions_pending: Cell::new(0),
            wait_for_all: Cell::new(false),
        },
    );
    // 14. If signal is not undefined,
    if let Some(signal) = &signal {
        //   1. Let abortAlgorithm be the following steps: (see abort_algorithm)
        //   2. If signal is aborted, perform abortAlgorithm and return promise.
        if dom::is_aborted(signal) {
            abort_algorithm(&p, ctx);
            return Ok(result);
        }
        //   3. Add abortAlgorithm to signal.
        let f = NativeFunction::from_copy_closure_with_captures(
            |_, _, p: &PipeRef, ctx| {
                abort_algorithm(p, ctx);
                Ok(JsValue::undefined())
            },
            p.clone(),
        )
        .to_js_function(ctx.realm());
        let id = dom::add_abort_algorithm(signal, f);
        pipe(&p, |s| s.abort_algorithm.set(Some(id)));
    }
    // 15. In parallel, using reader and writer, read all chunks from source and write them to
    //     dest (see the module documentation for the constraints).
    start(&p, ctx);
    // 16. Return promise.
    Ok(result)
}

/// The abort algorithm of step 14.1.
fn abort_algorithm(p: &PipeRef, ctx: &mut Context) {
    // 1. Let error be signal's abort reason.
    let error = pipe(p, |s| s.signal.as_ref().map(dom::abort_reason)).unwrap_or_default();
    // 2. Let actions be an empty ordered set.
    // 3. If preventAbort is false, append the abort action to actions.
    // 4. If preventCancel is false, append the cancel action to actions.
    // 5. Shutdown with an action consisting of getting a promise to wait for all of the
    //    actions in actions, and with error.
    shutdown_with_an_action(p, Action::Signal(error.clone()), Some(error), ctx);
}

/// The propagation rules checked when the pipe starts, and the observers for "becomes".
fn start(p: &PipeRef, ctx: &mut Context) {
    let (source, dest, reader, writer) = pipe(p, |s| {
        (
            s.source.clone(),
            s.dest.clone(),
            s.reader.clone(),
            s.writer.clone(),
        )
    });
    let (source_state, source_error) = with_stream(&source, |s| (s.state(), s.stored_error()));
    // Errors must be propagated forward: if source.[[state]] is "errored" ...
    if source_state == StreamState::Errored {
        source_errored(p, source_error, ctx);
    }
    // Errors must be propagated backward: if dest.[[state]] is "errored" ...
    if dest.state() == WritableStreamState::Errored {
        dest_errored(p, dest.stored_error(), ctx);
    } else {
        // ... or becomes "errored" (the writer's [[closedPromise]] rejects).
        writable_stream_default_writer_upon_closed(
            &writer,
            native(p, |p, result, ctx| {
                if let Err(e) = result {
                    dest_errored(p, e, ctx);
                }
            }),
            ctx,
        );
    }
    // Closing must be propagated forward: if source.[[state]] is "closed" ...
    if source_state == StreamState::Closed {
        source_closed(p, ctx);
    }
    if source_state == StreamState::Readable {
        // ... or becomes "errored" / "closed" (the reader's [[closedPromise]] settles).
        StreamReader::Default(reader.clone()).upon_closed(
            native(p, |p, settlement, ctx| match settlement {
                Ok(_) => source_closed(p, ctx),
                Err(e) => source_errored(p, e, ctx),
            }),
            ctx,
        );
    }
    // Closing must be propagated backward: if ! WritableStreamCloseQueuedOrInFlight(dest) is
    // true or dest.[[state]] is "closed", then
    if writable_stream_close_queued_or_in_flight(&dest)
        || dest.state() == WritableStreamState::Closed
    {
        //   1. Assert: no chunks have been read or written.
        //   2. Let destClosed be a new TypeError.
        let dest_closed = boa_webidl::type_error_value(
            "The destination WritableStream closed before all data was piped",
            ctx,
        );
        //   3. If preventCancel is false, shutdown with an action of !
        //      ReadableStreamCancel(source, destClosed) and with destClosed.
        //   4. Otherwise, shutdown with destClosed.
        if pipe(p, |s| s.prevent_cancel) {
            shutdown(p, Some(dest_closed), ctx);
        } else {
            shutdown_with_an_action(
                p,
                Action::CancelSource(dest_closed.clone()),
                Some(dest_closed),
                ctx,
            );
        }
    }
    // The loop: next(false).
    loop_next(p, false, ctx);
}

/// Errors must be propagated forward.
fn source_errored(p: &PipeRef, stored_error: JsValue, ctx: &mut Context) {
    if pipe(p, |s| s.finalized.get()) {
        return;
    }
    // 1. If preventAbort is false, shutdown with an action of ! WritableStreamAbort(dest,
    //    source.[[storedError]]) and with source.[[storedError]].
    // 2. Otherwise, shutdown with source.[[storedError]].
    if pipe(p, |s| s.prevent_abort) {
        shutdown(p, Some(stored_error), ctx);
    } else {
        shutdown_with_an_action(
            p,
            Action::AbortDest(stored_error.clone()),
            Some(stored_error),
            ctx,
        );
    }
}

/// Errors must be propagated backward.
fn dest_errored(p: &PipeRef, stored_error: JsValue, ctx: &mut Context) {
    if pipe(p, |s| s.finalized.get()) {
        return;
    }
    // 1. If preventCancel is false, shutdown with an action of ! ReadableStreamCancel(source,
    //    dest.[[storedError]]) and with dest.[[storedError]].
    // 2. Otherwise, shutdown with dest.[[storedError]].
    if pipe(p, |s| s.prevent_cancel) {
        shutdown(p, Some(stored_error), ctx);
    } else {
        shutdown_with_an_action(
            p,
            Action::CancelSource(stored_error.clone()),
            Some(stored_error),
            ctx,
        );
    }
}

/// Closing must be propagated forward.
fn source_closed(p: &PipeRef, ctx: &mut Context) {
    if pipe(p, |s| s.finalized.get()) {
        return;
    }
    // 1. If preventClose is false, shutdown with an action of !
    //    WritableStreamDefaultWriterCloseWithErrorPropagation(writer).
    // 2. Otherwise, shutdown.
    if pipe(p, |s| s.prevent_close) {
        shutdown(p, None, ctx);
    } else {
        shutdown_with_an_action(p, Action::CloseDest, None, ctx);
    }
}

// ---------------------------------------------------------------------------------------
// The read / write loop
// ---------------------------------------------------------------------------------------

/// The loop's `next(done)`: unless done, run a pipe step and continue upon its fulfillment
/// (a rejection, i.e. a read that errored or a rejected ready promise, ends the loop: the
/// error propagation shuts the pipe down).
fn loop_next(p: &PipeRef, done: bool, ctx: &mut Context) {
    if done {
        return;
    }
    if pipe(p, |s| s.inline) {
        pipe_step_inline(p, ctx);
        return;
    }
    pipe_step(p, ctx).upon(
        p.clone(),
        |p, settlement, ctx| {
            if let Ok(done) = settlement {
                loop_next(p, done.to_boolean(), ctx);
            }
        },
        ctx,
    );
}

/// One step of the loop: a promise for "done", settled once the writer was ready and one read
/// finished (true for the close steps).
fn pipe_step(p: &PipeRef, ctx: &mut Context) -> Completion {
    // Shutdown must stop activity: no read is initiated once shuttingDown is true.
    let (shutting_down, writer) = pipe(p, |s| (s.shutting_down.get(), s.writer.clone()));
    if shutting_down {
        return Completion::Fulfilled(true.into());
    }
    // Backpressure is enforced: read only once the writer's [[readyPromise]] is fulfilled
    // (desired size > 0), as a reaction to it; the step's promise is resolved with the read's
    // promise (adopting it takes a NewPromiseResolveThenableJob and a reaction).
    let step = RustPromise::new();
    writable_stream_default_writer_upon_ready(
        &writer,
        Reaction::new((p.clone(), step.clone()), |(p, step), result, ctx| {
            if let Err(e) = result {
                step.settle(Err(e), ctx);
                return;
            }
            let read = read_next(p, ctx);
            RustPromise::resolve_with(step, read, ctx);
        }),
        ctx,
    );
    Completion::Rust(step)
}

/// Issue one read on the pipe's reader: a promise for "done".
fn read_next(p: &PipeRef, ctx: &mut Context) -> Completion {
    if let Some(done) = read_needed(p) {
        return Completion::Fulfilled(done.into());
    }
    let read = RustPromise::new();
    issue_read(p, Some(read.clone()), ctx);
    Completion::Rust(read)
}

/// Whether the step issues a read (`None`) or is done with `Some(done)` without one.
fn read_needed(p: &PipeRef) -> Option<bool> {
    let (shutting_down, writer) = pipe(p, |s| (s.shutting_down.get(), s.writer.clone()));
    if shutting_down {
        return Some(true);
    }
    // Backpressure: the destination may have started erroring since the ready reaction was
    // queued (its desired size is then null, and the spec says the pipe "must not read from
    // reader"): do not read; the error propagation shuts the pipe down.
    // NOTE: the differential tester's oracle reads in that case (difftest pending gen-306).
    if !matches!(
        writable_stream_default_writer_ready_state(&writer),
        Some(Ok(_))
    ) {
        return Some(false);
    }
    None
}

/// Issue one read on the pipe's reader, settling `read` (`None`: [`Pipe::read`]).
fn issue_read(p: &PipeRef, read: Option<Gc<RustPromise>>, ctx: &mut Context) {
    let reader = pipe(p, |s| s.reader.clone());
    readable_stream_default_reader_read(
        &reader,
        ReadRequest::Pipe(Box::new(PipeReadRequest {
            pipe: p.clone(),
            read,
        })),
        ctx,
    );
}

/// pipeTo's read request.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct PipeReadRequest {
    pipe: PipeRef,
    /// The read's promise: fulfilled with "done" (`None`: [`Pipe::inline`], the read is
    /// settled in [`Pipe::read`]).
    read: Option<Gc<RustPromise>>,
}

impl PipeReadRequest {
    /// Settle the read's promise.
    fn settle(self, settlement: Settlement, ctx: &mut Context) {
        match self.read {
            Some(read) => read.settle(settlement, ctx),
            None => inline_read_settled(&self.pipe, settlement, ctx),
        }
    }
}

impl ReadRequestSteps for PipeReadRequest {
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context) {
        self.chunk_steps_native(Chunk::Js(chunk), ctx);
    }

    /// The chunk is written as it was queued: bytes a native source enqueued stay bytes
    /// (native-to-native pipes, see [`Chunk`](crate::chunk::Chunk)); they become a `Uint8Array` only if
    /// the destination hands them to script.
    fn chunk_steps_native(self: Box<Self>, chunk: Chunk, ctx: &mut Context) {
        let p = self.pipe.clone();
        // currentWrite is the promise for this chunk's write, which happens one microtask
        // later: never synchronously inside the source's enqueue().
        if pipe(&p, |s| s.inline) {
            let id = pipe(&p, |s| s.writes.borrow_mut().start());
            enqueue_microtask(ctx, move |ctx| write_chunk_inline(&p, chunk, id, ctx));
        } else {
            let current_write = RustPromise::new();
            pipe(&p, |s| {
                *s.current_write.borrow_mut() = Some(current_write.clone());
            });
            enqueue_microtask(ctx, move |ctx| write_chunk(&p, chunk, &current_write, ctx));
        }
        self.settle(Ok(false.into()), ctx);
    }

    fn close_steps(self: Box<Self>, ctx: &mut Context) {
        // The reader's closed observer propagates the close.
        self.settle(Ok(true.into()), ctx);
    }

    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context) {
        // The reader's closed observer propagates the error (or the pipe released the reader).
        self.settle(Err(e), ctx);
    }
}

/// Write a chunk that was read: `current_write` is resolved with the write's promise
/// transformed to fulfil with undefined either way (its rejection is handled: the error
/// propagation acts on it).
fn write_chunk(p: &PipeRef, chunk: Chunk, current_write: &Gc<RustPromise>, ctx: &mut Context) {
    let writer = pipe(p, |s| s.writer.clone());
    let written = RustPromise::new();
    writable_stream_default_writer_write_native(
        &writer,
        chunk,
        Reaction::new(written.clone(), |written, _result, ctx| {
            written.settle(Ok(JsValue::undefined()), ctx);
        }),
        ctx,
    );
    RustPromise::resolve_with(current_write, Completion::Rust(written), ctx);
}

/// Wait until every chunk that has been read has been written: a promise fulfilled once
/// `currentWrite` settled without another write having started meanwhile.
fn wait_for_writes_to_finish(p: &PipeRef, ctx: &mut Context) -> Completion {
    if pipe(p, |s| s.inline) {
        return wait_for_writes_to_finish_inline(p, ctx);
    }
    let old = pipe(p, |s| s.current_write.borrow().clone());
    let promise = old
        .clone()
        .map_or_else(Completion::undefined, Completion::Rust);
    react(
        promise,
        (p.clone(), old),
        |(p, old), _settlement, ctx| {
            let changed = pipe(p, |s| match (&*s.current_write.borrow(), old) {
                (Some(a), Some(b)) => !Gc::ptr_eq(a, b),
                (None, None) => false,
                _ => true,
            });
            if changed {
                wait_for_writes_to_finish(p, ctx)
            } else {
                Completion::undefined()
            }
        },
        ctx,
    )
}

// ---------------------------------------------------------------------------------------
// The loop's promises kept inline (fast paths)
// ---------------------------------------------------------------------------------------
//
// NOTE: with the fast paths on, the loop's step promise, its read promise and each
// `currentWrite` promise (with the write's transformed promise it is resolved with) are not
// `RustPromise`s: script never sees them and each has at most the reactions listed below, so
// the pipe keeps their state in its own record and enqueues the same microtasks at the same
// moments ("resolve step with read": a NewPromiseResolveThenableJob, then a reaction to
// `read`, then the loop's reaction to `step`; "resolve currentWrite with written": a thenable
// job, then a reaction to `written`, then the shutdown's reactions to `currentWrite`). No
// callback and no settlement script can observe moves; only the allocations go (four
// `Gc<RustPromise>` and their reaction boxes per chunk). A reaction whose steps do nothing
// (the loop's reaction to a rejected step) is not enqueued: a job that runs no code and
// settles nothing is unobservable.

/// The state of the loop's read promise ([`Pipe::inline`]).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum InlineRead {
    /// No read outstanding.
    Idle,
    /// Issued, not settled; `waiting`: the step's NewPromiseResolveThenableJob ran and reacts
    /// to it.
    Pending {
        #[unsafe_ignore_trace]
        waiting: bool,
    },
    /// Settled before anything reacted to it.
    Settled(Settlement),
}

/// The `currentWrite` promises that have not settled yet ([`Pipe::inline`]): the current
/// one and older ones a shutdown may still wait on.
#[derive(Default, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct InlineWrites {
    /// `currentWrite`'s id (0: a promise resolved with undefined, no chunk read yet).
    #[unsafe_ignore_trace]
    current: u64,
    /// The last id handed out.
    #[unsafe_ignore_trace]
    last: u64,
    /// The pending ones, oldest first.
    pending: Vec<InlineWrite>,
}

/// One pending `currentWrite` promise.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct InlineWrite {
    #[unsafe_ignore_trace]
    id: u64,
    /// The thenable job of "resolve currentWrite with written" ran.
    #[unsafe_ignore_trace]
    adopted: bool,
    /// `written` (the write's promise, transformed to fulfil either way) fulfilled.
    #[unsafe_ignore_trace]
    written: bool,
    /// The reactions to this `currentWrite`.
    waiters: Vec<Reaction>,
}

impl InlineWrites {
    /// "Set currentWrite to a new promise": its id.
    fn start(&mut self) -> u64 {
        self.last += 1;
        self.current = self.last;
        self.pending.push(InlineWrite {
            id: self.last,
            adopted: false,
            written: false,
            waiters: Vec::new(),
        });
        self.last
    }

    fn entry(&mut self, id: u64) -> Option<&mut InlineWrite> {
        self.pending.iter_mut().find(|w| w.id == id)
    }
}

/// The loop's step with inline promises (see [`pipe_step`]).
fn pipe_step_inline(p: &PipeRef, ctx: &mut Context) {
    let (shutting_down, writer) = pipe(p, |s| (s.shutting_down.get(), s.writer.clone()));
    // NOTE: the step would be fulfilled with true and the loop's reaction would end the
    // loop: a job that runs nothing, not enqueued.
    if shutting_down {
        return;
    }
    writable_stream_default_writer_upon_ready(
        &writer,
        Reaction::new(p.clone(), |p, result, ctx| {
            // A rejected step ends the loop (its reaction runs nothing: not enqueued).
            if result.is_err() {
                return;
            }
            // The read settles Pipe::read; a step fulfilled without a read ("done" already
            // known) is a read promise already settled with it.
            if let Some(done) = read_needed(p) {
                pipe(p, |s| {
                    *s.read.borrow_mut() = InlineRead::Settled(Ok(done.into()))
                });
            } else {
                pipe(p, |s| {
                    *s.read.borrow_mut() = InlineRead::Pending { waiting: false }
                });
                issue_read(p, None, ctx);
            }
            // "Resolve step with read": the NewPromiseResolveThenableJob.
            let p = p.clone();
            enqueue_microtask(ctx, move |ctx| inline_read_adopted(&p, ctx));
        }),
        ctx,
    );
}

/// The step's NewPromiseResolveThenableJob: react to the read's promise.
fn inline_read_adopted(p: &PipeRef, ctx: &mut Context) {
    let settled = pipe(p, |s| {
        let mut read = s.read.borrow_mut();
        match &mut *read {
            InlineRead::Pending { waiting } => {
                *waiting = true;
                None
            }
            InlineRead::Settled(_) => match std::mem::replace(&mut *read, InlineRead::Idle) {
                InlineRead::Settled(settlement) => Some(settlement),
                _ => None,
            },
            InlineRead::Idle => None,
        }
    });
    if let Some(settlement) = settled {
        inline_step_settled(p, settlement, ctx);
    }
}

/// The read's promise settles (the pipe's read request's steps).
fn inline_read_settled(p: &PipeRef, settlement: Settlement, ctx: &mut Context) {
    let waiting = pipe(p, |s| {
        let mut read = s.read.borrow_mut();
        match &*read {
            InlineRead::Pending { waiting: true } => {
                *read = InlineRead::Idle;
                true
            }
            InlineRead::Pending { waiting: false } => {
                *read = InlineRead::Settled(settlement.clone());
                false
            }
            // Already settled: a no-op, as for a settled promise.
            _ => false,
        }
    });
    if waiting {
        inline_step_settled(p, settlement, ctx);
    }
}

/// The reaction of the thenable job to the read's settled promise (one microtask): it settles
/// the step, whose one reaction (the loop's, one more microtask) continues the loop.
fn inline_step_settled(p: &PipeRef, settlement: Settlement, ctx: &mut Context) {
    let p = p.clone();
    enqueue_microtask(ctx, move |ctx| {
        // Settle step: its reaction is the loop's.
        if let Ok(done) = settlement {
            enqueue_microtask(ctx, move |ctx| loop_next(&p, done.to_boolean(), ctx));
        }
    });
}

/// [`write_chunk`] with `currentWrite` inline (its id `id`).
fn write_chunk_inline(p: &PipeRef, chunk: Chunk, id: u64, ctx: &mut Context) {
    let writer = pipe(p, |s| s.writer.clone());
    writable_stream_default_writer_write_native(
        &writer,
        chunk,
        // The write's promise transformed to fulfil with undefined either way ("written").
        Reaction::new((p.clone(), id), |(p, id), _result, ctx| {
            let adopted = pipe(p, |s| {
                s.writes.borrow_mut().entry(*id).is_some_and(|w| {
                    w.written = true;
                    w.adopted
                })
            });
            if adopted {
                inline_write_settles(p, *id, ctx);
            }
        }),
        ctx,
    );
    // "Resolve currentWrite with written": the NewPromiseResolveThenableJob.
    let p = p.clone();
    enqueue_microtask(ctx, move |ctx| {
        let written = pipe(&p, |s| {
            s.writes.borrow_mut().entry(id).is_some_and(|w| {
                w.adopted = true;
                w.written
            })
        });
        if written {
            inline_write_settles(&p, id, ctx);
        }
    });
}

/// The thenable job's reaction to the settled `written` (one microtask): `currentWrite`
/// `id` fulfills, queueing its reactions.
fn inline_write_settles(p: &PipeRef, id: u64, ctx: &mut Context) {
    let p = p.clone();
    enqueue_microtask(ctx, move |ctx| {
        let waiters = pipe(&p, |s| {
            let mut writes = s.writes.borrow_mut();
            let i = writes.pending.iter().position(|w| w.id == id);
            i.map(|i| writes.pending.remove(i).waiters)
        });
        for w in waiters.into_iter().flatten() {
            w.settle(Ok(JsValue::undefined()), ctx);
        }
    });
}

/// React to `currentWrite` `id` (now, as a microtask, if it has settled).
fn inline_write_react(p: &PipeRef, id: u64, reaction: Reaction, ctx: &mut Context) {
    let reaction = pipe(p, |s| match s.writes.borrow_mut().entry(id) {
        Some(w) => {
            w.waiters.push(reaction);
            None
        }
        None => Some(reaction),
    });
    if let Some(reaction) = reaction {
        reaction.settle(Ok(JsValue::undefined()), ctx);
    }
}

/// [`wait_for_writes_to_finish`] with `currentWrite` inline: the result of reacting to it
/// (again if another write started meanwhile).
fn wait_for_writes_to_finish_inline(p: &PipeRef, ctx: &mut Context) -> Completion {
    let old = pipe(p, |s| s.writes.borrow().current);
    let out = RustPromise::new();
    inline_write_react(
        p,
        old,
        Reaction::new((out.clone(), p.clone(), old), |(out, p, old), _, ctx| {
            let changed = pipe(p, |s| s.writes.borrow().current != *old);
            if changed {
                let next = wait_for_writes_to_finish_inline(p, ctx);
                RustPromise::resolve_with(out, next, ctx);
            } else {
                out.settle(Ok(JsValue::undefined()), ctx);
            }
        }),
        ctx,
    );
    Completion::Rust(out)
}

// ---------------------------------------------------------------------------------------
// Shutdown and finalize
// ---------------------------------------------------------------------------------------

/// [Shutdown with an action](https://streams.spec.whatwg.org/#rs-pipeTo-shutdown-with-action)
fn shutdown_with_an_action(
    p: &PipeRef,
    action: Action,
    original_error: Option<JsValue>,
    ctx: &mut Context,
) {
    // 1. If shuttingDown is true, abort these substeps.
    // 2. Set shuttingDown to true.
    if pipe(p, |s| s.shutting_down.replace(true)) {
        return;
    }
    // 3. If dest.[[state]] is "writable" and ! WritableStreamCloseQueuedOrInFlight(dest) is
    //    false,
    //   1. If any chunks have been read but not yet written, write them to dest.
    //   2. Wait until every chunk that has been read has been written (i.e. the
    //      corresponding promises have settled).
    // 4. Let p be the result of performing action. (see shutdown_rest)
    wait_for_writes_then(p, Some(action), original_error, ctx);
}

/// [Shutdown](https://streams.spec.whatwg.org/#rs-pipeTo-shutdown)
fn shutdown(p: &PipeRef, error: Option<JsValue>, ctx: &mut Context) {
    // 1. If shuttingDown is true, abort these substeps.
    // 2. Set shuttingDown to true.
    if pipe(p, |s| s.shutting_down.replace(true)) {
        return;
    }
    // 3. If dest.[[state]] is "writable" and ! WritableStreamCloseQueuedOrInFlight(dest) is
    //    false, write the chunks read and wait until they have been written.
    // 4. Finalize, passing along error if it was given.
    wait_for_writes_then(p, None, error, ctx);
}

fn wait_for_writes_then(
    p: &PipeRef,
    action: Option<Action>,
    error: Option<JsValue>,
    ctx: &mut Context,
) {
    let dest = pipe(p, |s| s.dest.clone());
    let must_wait = dest.state() == WritableStreamState::Writable
        && !writable_stream_close_queued_or_in_flight(&dest);
    if !must_wait {
        shutdown_rest(p, action, error, ctx);
        return;
    }
    // Chunks read but not yet written are written by their pending microtask; upon
    // fulfillment of the wait for them, the rest runs.
    // NOTE: the wait is a reaction to currentWrite even when it already settled (one
    // microtask, then one for reacting to the wait), as in the reference implementation the
    // WPT tests pin (e.g. a pre-aborted signal lets the destination's start() finish before
    // abort()).
    wait_for_writes_to_finish(p, ctx).upon(
        (p.clone(), action, error),
        |(p, action, error), settlement, ctx| {
            if settlement.is_ok() {
                shutdown_rest(p, action.clone(), error.clone(), ctx);
            }
        },
        ctx,
    );
}

/// The steps after the writes finished: perform the action and finalize upon its settlement,
/// or finalize.
fn shutdown_rest(p: &PipeRef, action: Option<Action>, error: Option<JsValue>, ctx: &mut Context) {
    let Some(action) = action else {
        finalize(p, error, ctx);
        return;
    };
    pipe(p, |s| *s.original_error.borrow_mut() = error);
    // Let p be the result of performing action.
    // Upon fulfillment of p, finalize, passing along originalError if it was given.
    // Upon rejection of p with reason newError, finalize with newError.
    let (source, dest, writer) = pipe(p, |s| (s.source.clone(), s.dest.clone(), s.writer.clone()));
    match action {
        Action::AbortDest(reason) => {
            pipe(p, |s| s.actions_pending.set(1));
            abort_dest(p, &dest, reason, ctx);
        }
        Action::CancelSource(reason) => {
            pipe(p, |s| s.actions_pending.set(1));
            cancel_source(p, &source, reason, ctx);
        }
        Action::CloseDest => {
            pipe(p, |s| s.actions_pending.set(1));
            writable_stream_default_writer_close_with_error_propagation(
                &writer,
                native(p, action_settled_native),
                ctx,
            );
        }
        Action::Signal(error) => {
            // The action is getting a promise to wait for all of the actions: its parts are
            // reacted to, and the shutdown reacts to the promise they settle.
            pipe(p, |s| s.wait_for_all.set(true));
            let (prevent_abort, prevent_cancel) = pipe(p, |s| (s.prevent_abort, s.prevent_cancel));
            let count = usize::from(!prevent_abort) + usize::from(!prevent_cancel);
            if count == 0 {
                // Wait for all, step 8: if total is 0, queue a microtask to perform
                // successSteps (which resolve the promise).
                pipe(p, |s| s.actions_pending.set(1));
                let p = p.clone();
                enqueue_microtask(ctx, move |ctx| action_settled(&p, Ok(()), ctx));
                return;
            }
            pipe(p, |s| s.actions_pending.set(count));
            // If preventAbort is false: if dest.[[state]] is "writable", return !
            // WritableStreamAbort(dest, error); otherwise a promise resolved with undefined.
            if !prevent_abort {
                if dest.state() == WritableStreamState::Writable {
                    abort_dest(p, &dest, error.clone(), ctx);
                } else {
                    native(p, action_settled_native).settle(Ok(JsValue::undefined()), ctx);
                }
            }
            // If preventCancel is false: if source.[[state]] is "readable", return !
            // ReadableStreamCancel(source, error); otherwise a promise resolved with
            // undefined.
            if !prevent_cancel {
                if with_stream(&source, ReadableStream::state) == StreamState::Readable {
                    cancel_source(p, &source, error, ctx);
                } else {
                    native(p, action_settled_native).settle(Ok(JsValue::undefined()), ctx);
                }
            }
        }
    }
}

fn abort_dest(p: &PipeRef, dest: &WritableStreamRef, reason: JsValue, ctx: &mut Context) {
    writable_stream_abort(
        dest,
        reason,
        AbortWaiter::Native(native(p, action_settled_native)),
        ctx,
    );
}

fn cancel_source(
    p: &PipeRef,
    source: &JsObject<ReadableStream>,
    reason: JsValue,
    ctx: &mut Context,
) {
    readable_stream_cancel(source, reason, ctx).upon(
        p.clone(),
        |p, settlement, ctx| action_settled(p, settlement.map(|_| ()), ctx),
        ctx,
    );
}

fn action_settled_native(p: &PipeRef, settlement: Settlement, ctx: &mut Context) {
    action_settled(p, settlement.map(|_| ()), ctx);
}

/// One part of the action settled ("wait for all": the first rejection rejects, else the
/// last fulfillment fulfills).
fn action_settled(p: &PipeRef, result: Result<(), JsValue>, ctx: &mut Context) {
    let remaining = pipe(p, |s| {
        let n = s.actions_pending.get();
        if n == 0 {
            // Already settled (an earlier part rejected).
            return None;
        }
        let n = if result.is_err() { 0 } else { n - 1 };
        s.actions_pending.set(n);
        Some(n)
    });
    let result_is_ok = result.is_ok();
    let error = match (remaining, result) {
        // Upon rejection of p with reason newError, finalize with newError.
        (Some(_), Err(new_error)) => Some(new_error),
        // Upon fulfillment of p, finalize, passing along originalError if it was given.
        (Some(0), Ok(())) => pipe(p, |s| s.original_error.borrow_mut().take()),
        _ => return,
    };
    if pipe(p, |s| s.wait_for_all.get()) {
        // This part settled the "wait for all" promise (its success or failure steps); the
        // shutdown's reaction to that promise runs one microtask later.
        let waited = RustPromise::new();
        match (result_is_ok, error) {
            (true, error) => {
                // Get a promise for waiting for all, successSteps given results: "Resolve
                // promise with results": the promise is a Promise<sequence<undefined>>, so the
                // list converts to a new JS array (each action fulfills with undefined) and the
                // resolve function reads its "then" (a throwing getter rejects it; a callable
                // one is called in a NewPromiseResolveThenableJob).
                let (prevent_abort, prevent_cancel) =
                    pipe(p, |s| (s.prevent_abort, s.prevent_cancel));
                let total = usize::from(!prevent_abort) + usize::from(!prevent_cancel);
                let results = JsArray::from_iter(vec![JsValue::undefined(); total], ctx);
                pipe(p, |s| *s.original_error.borrow_mut() = error);
                RustPromise::resolve_value(&waited, results.into(), ctx);
            }
            // failureSteps given reason: "Reject promise with reason".
            (false, error) => waited.settle(Err(error.unwrap_or_default()), ctx),
        }
        // Upon fulfillment of p, finalize, passing along originalError if it was given.
        // Upon rejection of p with reason newError, finalize with newError.
        Completion::Rust(waited).upon(
            p.clone(),
            |p, settlement, ctx| {
                let error = match settlement {
                    Ok(_) => pipe(p, |s| s.original_error.borrow_mut().take()),
                    Err(new_error) => Some(new_error),
                };
                finalize(p, error, ctx);
            },
            ctx,
        );
    } else {
        finalize(p, error, ctx);
    }
}

/// [Finalize](https://streams.spec.whatwg.org/#rs-pipeTo-finalize)
fn finalize(p: &PipeRef, error: Option<JsValue>, ctx: &mut Context) {
    if pipe(p, |s| s.finalized.replace(true)) {
        return;
    }
    let (reader, writer, signal, id, promise) = pipe(p, |s| {
        (
            s.reader.clone(),
            s.writer.clone(),
            s.signal.clone(),
            s.abort_algorithm.take(),
            s.promise.clone(),
        )
    });
    // 1. Perform ! WritableStreamDefaultWriterRelease(writer).
    writable_stream_default_writer_release(&writer, ctx);
    // 2. If reader implements ReadableStreamBYOBReader, ... (no BYOB readers yet).
    // 3. Otherwise, perform ! ReadableStreamDefaultReaderRelease(reader).
    readable_stream_default_reader_release(&reader, ctx);
    // 4. If signal is not undefined, remove abortAlgorithm from signal.
    if let (Some(signal), Some(id)) = (signal, id) {
        dom::remove_abort_algorithm(&signal, id);
    }
    let Some(promise) = promise else { return };
    match error {
        // 5. If error was given, reject promise with error.
        Some(e) => promise.reject(e, ctx),
        // 6. Otherwise, resolve promise with undefined.
        None => promise.resolve(JsValue::undefined(), ctx),
    }
}

#[cfg(test)]
mod tests;
