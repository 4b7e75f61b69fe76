//! [ReadableStreamDefaultTee](https://streams.spec.whatwg.org/#readable-stream-default-tee):
//! the shared state, the branches' source algorithms and the tee read request.

use std::cell::Cell;

use boa_engine::{object::builtins::JsArray, Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, GcErased, GcRefCell, Trace};

use super::controller::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error, ReadableStreamDefaultController,
};
use super::reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    ReadableStreamDefaultReader,
};
use super::requests::{HostedReadRequest, ReadRequest, ReadRequestTable};
use super::source::{HostedSource, SourceAlgorithms, SourceTable, StartAlgorithm};
use super::{
    create_readable_stream, readable_stream_cancel, with_stream, ReadableStream, StreamController,
    StreamReader,
};
use crate::owning::structured_transfer_or_clone;
use boa_webidl as webidl;
use boa_webidl::promise::{enqueue_microtask, Reaction};
use boa_webidl::promise::{Completion, RustPromise};

/// The variables ReadableStreamDefaultTee's closures share.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct TeeState {
    stream: JsObject<ReadableStream>,
    reader: JsObject<ReadableStreamDefaultReader>,
    #[unsafe_ignore_trace]
    reading: Cell<bool>,
    #[unsafe_ignore_trace]
    read_again: Cell<bool>,
    #[unsafe_ignore_trace]
    canceled1: Cell<bool>,
    #[unsafe_ignore_trace]
    canceled2: Cell<bool>,
    #[unsafe_ignore_trace]
    clone_for_branch2: bool,
    reason1: GcRefCell<JsValue>,
    reason2: GcRefCell<JsValue>,
    branch1: GcRefCell<Option<JsObject<ReadableStream>>>,
    branch2: GcRefCell<Option<JsObject<ReadableStream>>>,
    cancel_promise: Gc<RustPromise>,
}

impl TeeState {
    fn branch_controller(&self, second: bool) -> Option<JsObject<ReadableStreamDefaultController>> {
        let branch = if second {
            self.branch2.borrow().clone()
        } else {
            self.branch1.borrow().clone()
        }?;
        with_stream(&branch, ReadableStream::controller).and_then(StreamController::into_default)
    }
}

/// One branch's pull / cancel algorithms.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct TeeBranch {
    state: Gc<TeeState>,
    #[unsafe_ignore_trace]
    second: bool,
}

/// Branch 1's and branch 2's pull / cancel algorithms, as a [`HostedSource`] performs them on
/// the tee's state.
static TEE_BRANCH1: SourceTable = SourceTable {
    pull: |state, ctx| {
        TeeBranch::of(state, false).map_or_else(Completion::undefined, |b| b.pull_algorithm(ctx))
    },
    cancel: |state, reason, ctx| {
        TeeBranch::of(state, false)
            .map_or_else(Completion::undefined, |b| b.cancel_algorithm(reason, ctx))
    },
};

/// See [`TEE_BRANCH1`].
static TEE_BRANCH2: SourceTable = SourceTable {
    pull: |state, ctx| {
        TeeBranch::of(state, true).map_or_else(Completion::undefined, |b| b.pull_algorithm(ctx))
    },
    cancel: |state, reason, ctx| {
        TeeBranch::of(state, true)
            .map_or_else(Completion::undefined, |b| b.cancel_algorithm(reason, ctx))
    },
};

/// The tee's read request.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct TeeReadRequest {
    state: Gc<TeeState>,
}

/// The tee's read request steps, as a [`HostedReadRequest`] performs them on the tee's state.
static TEE_READ_REQUEST: ReadRequestTable = ReadRequestTable {
    chunk: tee_chunk_steps,
    close: tee_close_steps,
    error: tee_error_steps,
};

fn tee_chunk_steps(state: GcErased, chunk: JsValue, ctx: &mut Context) {
    if let Some(request) = TeeReadRequest::of(state) {
        request.chunk_steps(chunk, ctx);
    }
}

fn tee_close_steps(state: GcErased, ctx: &mut Context) {
    if let Some(request) = TeeReadRequest::of(state) {
        request.close_steps(ctx);
    }
}

fn tee_error_steps(state: GcErased, e: JsValue, ctx: &mut Context) {
    if let Some(request) = TeeReadRequest::of(state) {
        request.error_steps(e, ctx);
    }
}

/// [ReadableStreamDefaultTee](https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaulttee)
pub(crate) fn readable_stream_default_tee(
    stream: &JsObject<ReadableStream>,
    clone_for_branch2: bool,
    ctx: &mut Context,
) -> JsResult<(JsObject<ReadableStream>, JsObject<ReadableStream>)> {
    // 1. Assert: stream implements ReadableStream.
    // 2. Assert: cloneForBranch2 is a boolean.
    // NOTE: experimental: a stream of the "owning" type (whatwg/streams#1271) tees with
    // cloneForBranch2 true, so each branch owns its chunk (branch2 a structured clone).
    let clone_for_branch2 = clone_for_branch2
        || with_stream(stream, ReadableStream::controller)
            .and_then(StreamController::into_default)
            .is_some_and(|c| c.borrow().data().is_owning());
    // 3. Let reader be ? AcquireReadableStreamDefaultReader(stream).
    let reader = acquire_readable_stream_default_reader(stream, ctx)?;
    // 4-12. reading, readAgain, canceled1, canceled2 = false; reason1, reason2, branch1,
    //       branch2 = undefined; cancelPromise = a new promise.
    let state = Gc::new(TeeState {
        stream: stream.clone(),
        reader: reader.clone(),
        reading: Cell::new(false),
        read_again: Cell::new(false),
        canceled1: Cell::new(false),
        canceled2: Cell::new(false),
        clone_for_branch2,
        reason1: GcRefCell::new(JsValue::undefined()),
        reason2: GcRefCell::new(JsValue::undefined()),
        branch1: GcRefCell::new(None),
        branch2: GcRefCell::new(None),
        cancel_promise: RustPromise::new(),
    });
    // 13-16. pullAlgorithm, cancel1Algorithm, cancel2Algorithm, startAlgorithm.
    // 17. Set branch1 to ! CreateReadableStream(startAlgorithm, pullAlgorithm,
    //     cancel1Algorithm).
    let branch1 = create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Tee(HostedSource::new(
            GcErased::new(state.clone()),
            &TEE_BRANCH1,
        )),
        None,
        None,
        ctx,
    )?;
    // 18. Set branch2 to ! CreateReadableStream(startAlgorithm, pullAlgorithm,
    //     cancel2Algorithm).
    let branch2 = create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::Tee(HostedSource::new(
            GcErased::new(state.clone()),
            &TEE_BRANCH2,
        )),
        None,
        None,
        ctx,
    )?;
    *state.branch1.borrow_mut() = Some(branch1.clone());
    *state.branch2.borrow_mut() = Some(branch2.clone());
    // 19. Upon rejection of reader.[[closedPromise]] with reason r,
    //   1. Perform ! ReadableStreamDefaultControllerError(branch1.[[controller]], r).
    //   2. Perform ! ReadableStreamDefaultControllerError(branch2.[[controller]], r).
    //   3. If canceled1 is false or canceled2 is false, resolve cancelPromise with undefined.
    // NOTE: the reader is internal: no script reaction on its [[closedPromise]] can run
    // between the promise's settlement and this step, so a waiter on the promise slot takes
    // the position of the reaction.
    let reader = StreamReader::Default(reader);
    reader.upon_closed(
        Reaction::new(state, |state, settlement, ctx| {
            if let Err(r) = settlement {
                if let Some(c) = state.branch_controller(false) {
                    readable_stream_default_controller_error(&c, r.clone(), ctx);
                }
                if let Some(c) = state.branch_controller(true) {
                    readable_stream_default_controller_error(&c, r, ctx);
                }
                if !state.canceled1.get() || !state.canceled2.get() {
                    state.cancel_promise.resolve_undefined(ctx);
                }
            }
        }),
        ctx,
    );
    // 20. Return « branch1, branch2 ».
    Ok((branch1, branch2))
}

impl TeeBranch {
    /// The branch (`second` for branch 2) over the tee's state a [`HostedSource`] carries.
    fn of(state: &GcErased, second: bool) -> Option<Self> {
        let state = state.clone().downcast::<TeeState>();
        debug_assert!(
            state.is_some(),
            "a tee branch's source holds the tee's state"
        );
        state.map(|state| Self { state, second })
    }

    /// The tee's pullAlgorithm (shared by both branches).
    pub(crate) fn pull_algorithm(&self, ctx: &mut Context) -> Completion {
        let state = &self.state;
        // 1. If reading is true,
        if state.reading.get() {
            //   1. Set readAgain to true.
            state.read_again.set(true);
            //   2. Return a promise resolved with undefined.
            return Completion::undefined();
        }
        // 2. Set reading to true.
        state.reading.set(true);
        // 3. Let readRequest be a read request with the tee's chunk/close/error steps.
        let request = ReadRequest::Tee(HostedReadRequest::new(
            GcErased::new(state.clone()),
            &TEE_READ_REQUEST,
        ));
        // 4. Perform ! ReadableStreamDefaultReaderRead(reader, readRequest).
        let reader = state.reader.clone();
        readable_stream_default_reader_read(&reader, request, ctx);
        // 5. Return a promise resolved with undefined.
        Completion::undefined()
    }

    /// cancel1Algorithm / cancel2Algorithm.
    pub(crate) fn cancel_algorithm(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        let state = &self.state;
        // 1. Set canceled1 (canceled2) to true.
        // 2. Set reason1 (reason2) to reason.
        let other_canceled = if self.second {
            state.canceled2.set(true);
            *state.reason2.borrow_mut() = reason;
            state.canceled1.get()
        } else {
            state.canceled1.set(true);
            *state.reason1.borrow_mut() = reason;
            state.canceled2.get()
        };
        // 3. If canceled2 (canceled1) is true,
        if other_canceled {
            //   1. Let compositeReason be ! CreateArrayFromList(« reason1, reason2 »).
            let reasons = [
                state.reason1.borrow().clone(),
                state.reason2.borrow().clone(),
            ];
            let composite = JsArray::from_iter(reasons, ctx);
            //   2. Let cancelResult be ! ReadableStreamCancel(stream, compositeReason).
            let stream = state.stream.clone();
            let cancel_result = readable_stream_cancel(&stream, composite.into(), ctx);
            //   3. Resolve cancelPromise with cancelResult.
            RustPromise::resolve_with(&state.cancel_promise, cancel_result, ctx);
        }
        // 4. Return cancelPromise.
        Completion::Rust(state.cancel_promise.clone())
    }
}

impl TeeReadRequest {
    /// The request over the tee's state a [`HostedReadRequest`] carries.
    fn of(state: GcErased) -> Option<Self> {
        let state = state.downcast::<TeeState>();
        debug_assert!(
            state.is_some(),
            "a tee's read request holds the tee's state"
        );
        state.map(|state| Self { state })
    }

    fn chunk_steps(self, chunk: JsValue, ctx: &mut Context) {
        // 1. Queue a microtask to perform the following steps:
        let state = self.state;
        enqueue_microtask(ctx, move |ctx| {
            //   1. Set readAgain to false.
            state.read_again.set(false);
            //   2. Let chunk1 and chunk2 be chunk.
            let mut chunk2 = chunk.clone();
            //   3. If canceled2 is false and cloneForBranch2 is true,
            if !state.canceled2.get() && state.clone_for_branch2 {
                //   1. Let cloneResult be StructuredClone(chunk2).
                // NOTE: serialization can run user code (getters); its exception is kept as
                // a value, so it runs inside `webidl::catching`.
                let clone_result =
                    webidl::catching(ctx, |ctx| structured_transfer_or_clone(&chunk2, &[], ctx));
                match clone_result {
                    //   3. Otherwise, set chunk2 to cloneResult.[[Value]].
                    Ok(v) => chunk2 = v,
                    //   2. If cloneResult is an abrupt completion,
                    Err(e) => {
                        let e = e.into_value();
                        //   1. Perform ! ReadableStreamDefaultControllerError(
                        //      branch1.[[controller]], cloneResult.[[Value]]).
                        if let Some(c) = state.branch_controller(false) {
                            readable_stream_default_controller_error(&c, e.clone(), ctx);
                        }
                        //   2. Perform ! ReadableStreamDefaultControllerError(
                        //      branch2.[[controller]], cloneResult.[[Value]]).
                        if let Some(c) = state.branch_controller(true) {
                            readable_stream_default_controller_error(&c, e.clone(), ctx);
                        }
                        //   3. Resolve cancelPromise with ! ReadableStreamCancel(stream,
                        //      cloneResult.[[Value]]).
                        let stream = state.stream.clone();
                        let cancel_result = readable_stream_cancel(&stream, e, ctx);
                        RustPromise::resolve_with(&state.cancel_promise, cancel_result, ctx);
                        //   4. Return.
                        return;
                    }
                }
            }
            //   4. If canceled1 is false, perform !
            //      ReadableStreamDefaultControllerEnqueue(branch1.[[controller]], chunk1).
            if !state.canceled1.get() {
                if let Some(c) = state.branch_controller(false) {
                    let _ = readable_stream_default_controller_enqueue(&c, chunk, ctx);
                }
            }
            //   5. If canceled2 is false, perform !
            //      ReadableStreamDefaultControllerEnqueue(branch2.[[controller]], chunk2).
            if !state.canceled2.get() {
                if let Some(c) = state.branch_controller(true) {
                    let _ = readable_stream_default_controller_enqueue(&c, chunk2, ctx);
                }
            }
            //   6. Set reading to false.
            state.reading.set(false);
            //   7. If readAgain is true, perform pullAlgorithm.
            if state.read_again.get() {
                let branch = TeeBranch {
                    state: state.clone(),
                    second: false,
                };
                let _ = branch.pull_algorithm(ctx);
            }
        });
    }

    fn close_steps(self, ctx: &mut Context) {
        let state = self.state;
        // 1. Set reading to false.
        state.reading.set(false);
        // 2. If canceled1 is false, perform ! ReadableStreamDefaultControllerClose(branch1.[[controller]]).
        if !state.canceled1.get() {
            if let Some(c) = state.branch_controller(false) {
                readable_stream_default_controller_close(&c, ctx);
            }
        }
        // 3. If canceled2 is false, perform ! ReadableStreamDefaultControllerClose(branch2.[[controller]]).
        if !state.canceled2.get() {
            if let Some(c) = state.branch_controller(true) {
                readable_stream_default_controller_close(&c, ctx);
            }
        }
        // 4. If canceled1 is false or canceled2 is false, resolve cancelPromise with undefined.
        if !state.canceled1.get() || !state.canceled2.get() {
            state.cancel_promise.resolve_undefined(ctx);
        }
    }

    fn error_steps(self, _e: JsValue, _ctx: &mut Context) {
        // 1. Set reading to false.
        self.state.reading.set(false);
    }
}
