//! [ReadableByteStreamTee](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamtee):
//! the shared state, the branches' pull / cancel algorithms and the tee's read(-into) requests.
//! Each branch gets its own copy of every chunk (CloneAsUint8Array, implemented directly).

use std::cell::Cell;

use boa_engine::{object::builtins::JsArray, Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Gc, GcErased, GcRefCell, Trace};

use super::buffers::{clone_as_uint8_array, to_array_buffer_view};
use super::byob_reader::{
    acquire_readable_stream_byob_reader, readable_stream_byob_reader_read,
    readable_stream_byob_reader_release,
};
use super::byte_controller::{
    byte_controller_of, readable_byte_stream_controller_close,
    readable_byte_stream_controller_enqueue, readable_byte_stream_controller_error,
    readable_byte_stream_controller_get_byob_request, readable_byte_stream_controller_respond,
    readable_byte_stream_controller_respond_with_new_view, ReadableByteStreamController,
};
use super::reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    readable_stream_default_reader_release,
};
use super::requests::{ReadIntoRequest, ReadIntoRequestSteps, ReadRequest, ReadRequestSteps};
use super::source::{HostedSource, SourceAlgorithms, SourceTable, StartAlgorithm};
use super::{create_readable_byte_stream, readable_stream_cancel, ReadableStream, StreamReader};
use boa_webidl::promise::{enqueue_microtask, Reaction};
use boa_webidl::promise::{Completion, RustPromise};

/// The variables ReadableByteStreamTee's closures share.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct ByteTeeState {
    stream: JsObject<ReadableStream>,
    reader: GcRefCell<StreamReader>,
    #[unsafe_ignore_trace]
    reading: Cell<bool>,
    #[unsafe_ignore_trace]
    read_again_for_branch1: Cell<bool>,
    #[unsafe_ignore_trace]
    read_again_for_branch2: Cell<bool>,
    #[unsafe_ignore_trace]
    canceled1: Cell<bool>,
    #[unsafe_ignore_trace]
    canceled2: Cell<bool>,
    reason1: GcRefCell<JsValue>,
    reason2: GcRefCell<JsValue>,
    branch1: GcRefCell<Option<JsObject<ReadableStream>>>,
    branch2: GcRefCell<Option<JsObject<ReadableStream>>>,
    cancel_promise: Gc<RustPromise>,
}

impl ByteTeeState {
    fn branch_controller(&self, second: bool) -> Option<JsObject<ReadableByteStreamController>> {
        let branch = if second {
            self.branch2.borrow().clone()
        } else {
            self.branch1.borrow().clone()
        }?;
        byte_controller_of(&branch)
    }

    fn canceled(&self, second: bool) -> bool {
        if second {
            self.canceled2.get()
        } else {
            self.canceled1.get()
        }
    }

    fn error_branch(&self, second: bool, e: JsValue, ctx: &mut Context) {
        if let Some(c) = self.branch_controller(second) {
            readable_byte_stream_controller_error(&c, e, ctx);
        }
    }

    fn close_branch(&self, second: bool, ctx: &mut Context) {
        if let Some(c) = self.branch_controller(second) {
            let _ = readable_byte_stream_controller_close(&c, ctx);
        }
    }

    fn respond_zero_if_pending(&self, second: bool, ctx: &mut Context) {
        if let Some(c) = self.branch_controller(second) {
            if c.borrow().data().has_pending_pull_intos() {
                let _ = readable_byte_stream_controller_respond(&c, 0, ctx);
            }
        }
    }

    /// The chunk steps' "If cloneResult is an abrupt completion" branch.
    fn clone_failed(this: &Gc<Self>, byob_second: bool, e: JsValue, ctx: &mut Context) {
        // 1. Perform ! ReadableByteStreamControllerError(byobBranch.[[controller]], e).
        this.error_branch(byob_second, e.clone(), ctx);
        // 2. Perform ! ReadableByteStreamControllerError(otherBranch.[[controller]], e).
        this.error_branch(!byob_second, e.clone(), ctx);
        // 3. Resolve cancelPromise with ! ReadableStreamCancel(stream, e).
        let result = readable_stream_cancel(&this.stream, e, ctx);
        RustPromise::resolve_with(&this.cancel_promise, result, ctx);
    }

    /// Steps 7-8 at the end of the chunk steps: pull again for the branch that asked.
    fn pull_again_if_requested(this: &Gc<Self>, ctx: &mut Context) {
        if this.read_again_for_branch1.get() {
            pull_algorithm(this, false, ctx);
        } else if this.read_again_for_branch2.get() {
            pull_algorithm(this, true, ctx);
        }
    }
}

/// One branch's pull / cancel algorithms.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct ByteTeeBranch {
    state: Gc<ByteTeeState>,
    #[unsafe_ignore_trace]
    second: bool,
}

/// Branch 1's and branch 2's pull / cancel algorithms, as a [`HostedSource`] performs them on
/// the tee's state.
static BYTE_TEE_BRANCH1: SourceTable = SourceTable {
    pull: |state, ctx| {
        ByteTeeBranch::of(state, false)
            .map_or_else(Completion::undefined, |b| b.pull_algorithm(ctx))
    },
    cancel: |state, reason, ctx| {
        ByteTeeBranch::of(state, false)
            .map_or_else(Completion::undefined, |b| b.cancel_algorithm(reason, ctx))
    },
};

/// See [`BYTE_TEE_BRANCH1`].
static BYTE_TEE_BRANCH2: SourceTable = SourceTable {
    pull: |state, ctx| {
        ByteTeeBranch::of(state, true).map_or_else(Completion::undefined, |b| b.pull_algorithm(ctx))
    },
    cancel: |state, reason, ctx| {
        ByteTeeBranch::of(state, true)
            .map_or_else(Completion::undefined, |b| b.cancel_algorithm(reason, ctx))
    },
};

/// [ReadableByteStreamTee](https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamtee)
pub(crate) fn readable_byte_stream_tee(
    stream: &JsObject<ReadableStream>,
    ctx: &mut Context,
) -> JsResult<(JsObject<ReadableStream>, JsObject<ReadableStream>)> {
    // 1. Assert: stream implements ReadableStream.
    // 2. Assert: stream.[[controller]] implements ReadableByteStreamController.
    // 3. Let reader be ? AcquireReadableStreamDefaultReader(stream).
    let reader = acquire_readable_stream_default_reader(stream, ctx)?;
    // 4-13. reading, readAgainForBranch1, readAgainForBranch2, canceled1, canceled2 = false;
    //       reason1, reason2, branch1, branch2 = undefined; cancelPromise = a new promise.
    let state = Gc::new(ByteTeeState {
        stream: stream.clone(),
        reader: GcRefCell::new(StreamReader::Default(reader.clone())),
        reading: Cell::new(false),
        read_again_for_branch1: Cell::new(false),
        read_again_for_branch2: Cell::new(false),
        canceled1: Cell::new(false),
        canceled2: Cell::new(false),
        reason1: GcRefCell::new(JsValue::undefined()),
        reason2: GcRefCell::new(JsValue::undefined()),
        branch1: GcRefCell::new(None),
        branch2: GcRefCell::new(None),
        cancel_promise: RustPromise::new(),
    });
    // 14-20. forwardReaderError, pullWithDefaultReader, pullWithBYOBReader, pull1Algorithm,
    //        pull2Algorithm, cancel1Algorithm, cancel2Algorithm.
    // 21. Let startAlgorithm be an algorithm that returns undefined.
    // 22. Set branch1 to ! CreateReadableByteStream(startAlgorithm, pull1Algorithm,
    //     cancel1Algorithm).
    let branch1 = create_readable_byte_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::ByteTee(HostedSource::new(
            GcErased::new(state.clone()),
            &BYTE_TEE_BRANCH1,
        )),
        None,
        None,
        ctx,
    )?;
    // 23. Set branch2 to ! CreateReadableByteStream(startAlgorithm, pull2Algorithm,
    //     cancel2Algorithm).
    let branch2 = create_readable_byte_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::ByteTee(HostedSource::new(
            GcErased::new(state.clone()),
            &BYTE_TEE_BRANCH2,
        )),
        None,
        None,
        ctx,
    )?;
    *state.branch1.borrow_mut() = Some(branch1.clone());
    *state.branch2.borrow_mut() = Some(branch2.clone());
    // 24. Perform forwardReaderError, given reader.
    forward_reader_error(&state, StreamReader::Default(reader), ctx);
    // 25. Return « branch1, branch2 ».
    Ok((branch1, branch2))
}

/// forwardReaderError, given thisReader.
fn forward_reader_error(state: &Gc<ByteTeeState>, this_reader: StreamReader, ctx: &mut Context) {
    // 1. Upon rejection of thisReader.[[closedPromise]] with reason r,
    // NOTE: the reader is internal: no script reaction on its [[closedPromise]] can run
    // between the promise's settlement and this step, so a waiter on the promise slot takes
    // the position of the reaction.
    let reader = this_reader.clone();
    reader.upon_closed(
        Reaction::new(
            (state.clone(), this_reader),
            |(state, this_reader), settlement, ctx| {
                let Err(r) = settlement else {
                    return;
                };
                //   1. If thisReader is not reader, return.
                let current = state.reader.borrow().clone();
                if !this_reader.is(&current) {
                    return;
                }
                //   2. Perform ! ReadableByteStreamControllerError(branch1.[[controller]], r).
                state.error_branch(false, r.clone(), ctx);
                //   3. Perform ! ReadableByteStreamControllerError(branch2.[[controller]], r).
                state.error_branch(true, r, ctx);
                //   4. If canceled1 is false or canceled2 is false, resolve cancelPromise with
                //      undefined.
                if !state.canceled1.get() || !state.canceled2.get() {
                    state.cancel_promise.resolve_undefined(ctx);
                }
            },
        ),
        ctx,
    );
}

/// pullWithDefaultReader.
fn pull_with_default_reader(state: &Gc<ByteTeeState>, ctx: &mut Context) {
    // 1. If reader implements ReadableStreamBYOBReader,
    let current = state.reader.borrow().clone();
    let reader = match current {
        StreamReader::Byob(byob) => {
            //   1. Assert: reader.[[readIntoRequests]] is empty.
            debug_assert_eq!(byob.borrow().data().num_read_into_requests(), 0);
            //   2. Perform ! ReadableStreamBYOBReaderRelease(reader).
            readable_stream_byob_reader_release(&byob, ctx);
            //   3. Set reader to ! AcquireReadableStreamDefaultReader(stream).
            let Ok(reader) = acquire_readable_stream_default_reader(&state.stream, ctx) else {
                return;
            };
            *state.reader.borrow_mut() = StreamReader::Default(reader.clone());
            //   4. Perform forwardReaderError, given reader.
            forward_reader_error(state, StreamReader::Default(reader.clone()), ctx);
            reader
        }
        StreamReader::Default(reader) => reader,
    };
    // 2. Let readRequest be a read request with the chunk / close / error steps of
    //    ByteTeeReadRequest.
    let request = ReadRequest::Native(Box::new(ByteTeeReadRequest {
        state: state.clone(),
    }));
    // 3. Perform ! ReadableStreamDefaultReaderRead(reader, readRequest).
    readable_stream_default_reader_read(&reader, request, ctx);
}

/// pullWithBYOBReader, given view and forBranch2.
fn pull_with_byob_reader(
    state: &Gc<ByteTeeState>,
    view: JsValue,
    for_branch2: bool,
    ctx: &mut Context,
) {
    // 1. If reader implements ReadableStreamDefaultReader,
    let current = state.reader.borrow().clone();
    let reader = match current {
        StreamReader::Default(default) => {
            //   1. Assert: reader.[[readRequests]] is empty.
            debug_assert_eq!(default.borrow().data().num_read_requests(), 0);
            //   2. Perform ! ReadableStreamDefaultReaderRelease(reader).
            readable_stream_default_reader_release(&default, ctx);
            //   3. Set reader to ! AcquireReadableStreamBYOBReader(stream).
            let Ok(reader) = acquire_readable_stream_byob_reader(&state.stream, ctx) else {
                return;
            };
            *state.reader.borrow_mut() = StreamReader::Byob(reader.clone());
            //   4. Perform forwardReaderError, given reader.
            forward_reader_error(state, StreamReader::Byob(reader.clone()), ctx);
            reader
        }
        StreamReader::Byob(reader) => reader,
    };
    // 2. Let byobBranch be branch2 if forBranch2 is true, and branch1 otherwise.
    // 3. Let otherBranch be branch2 if forBranch2 is false, and branch1 otherwise.
    // 4. Let readIntoRequest be a read-into request with the steps of ByteTeeReadIntoRequest.
    let request = ReadIntoRequest::Native(Box::new(ByteTeeReadIntoRequest {
        state: state.clone(),
        for_branch2,
    }));
    // 5. Perform ! ReadableStreamBYOBReaderRead(reader, view, 1, readIntoRequest).
    let view = match to_array_buffer_view(&view, "view", ctx) {
        Ok(v) => v,
        Err(e) => {
            let e = boa_webidl::own_error_value(e, ctx);
            request.error_steps(e, ctx);
            return;
        }
    };
    readable_stream_byob_reader_read(&reader, &view, 1, request, ctx);
}

/// pull1Algorithm / pull2Algorithm.
fn pull_algorithm(state: &Gc<ByteTeeState>, second: bool, ctx: &mut Context) -> Completion {
    // 1. If reading is true,
    if state.reading.get() {
        //   1. Set readAgainForBranch1 (readAgainForBranch2) to true.
        if second {
            state.read_again_for_branch2.set(true);
        } else {
            state.read_again_for_branch1.set(true);
        }
        //   2. Return a promise resolved with undefined.
        return Completion::undefined();
    }
    // 2. Set reading to true.
    state.reading.set(true);
    // 3. Let byobRequest be ! ReadableByteStreamControllerGetBYOBRequest(
    //    branch1.[[controller]] (branch2.[[controller]])).
    let byob_request = state.branch_controller(second).and_then(|c| {
        readable_byte_stream_controller_get_byob_request(&c, ctx)
            .ok()
            .flatten()
    });
    match byob_request {
        // 4. If byobRequest is null, perform pullWithDefaultReader.
        None => pull_with_default_reader(state, ctx),
        // 5. Otherwise, perform pullWithBYOBReader, given byobRequest.[[view]] and false
        //    (true).
        Some(request) => {
            let view = request
                .borrow()
                .data()
                .view()
                .map_or(JsValue::undefined(), JsValue::from);
            pull_with_byob_reader(state, view, second, ctx);
        }
    }
    // 6. Return a promise resolved with undefined.
    Completion::undefined()
}

impl ByteTeeBranch {
    /// The branch (`second` for branch 2) over the tee's state a [`HostedSource`] carries.
    fn of(state: &GcErased, second: bool) -> Option<Self> {
        let state = state.clone().downcast::<ByteTeeState>();
        debug_assert!(
            state.is_some(),
            "a tee branch's source holds the tee's state"
        );
        state.map(|state| Self { state, second })
    }

    /// pull1Algorithm / pull2Algorithm.
    pub(crate) fn pull_algorithm(&self, ctx: &mut Context) -> Completion {
        pull_algorithm(&self.state, self.second, ctx)
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
            let cancel_result = readable_stream_cancel(&state.stream, composite.into(), ctx);
            //   3. Resolve cancelPromise with cancelResult.
            RustPromise::resolve_with(&state.cancel_promise, cancel_result, ctx);
        }
        // 4. Return cancelPromise.
        Completion::Rust(state.cancel_promise.clone())
    }
}

/// pullWithDefaultReader's read request.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct ByteTeeReadRequest {
    state: Gc<ByteTeeState>,
}

impl ReadRequestSteps for ByteTeeReadRequest {
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context) {
        // 1. Queue a microtask to perform the following steps:
        let state = self.state;
        enqueue_microtask(ctx, move |ctx| {
            //   1. Set readAgainForBranch1 to false.
            //   2. Set readAgainForBranch2 to false.
            state.read_again_for_branch1.set(false);
            state.read_again_for_branch2.set(false);
            //   3. Let chunk1 and chunk2 be chunk.
            let chunk1 = chunk.clone();
            let mut chunk2 = chunk;
            //   4. If canceled1 is false and canceled2 is false,
            if !state.canceled1.get() && !state.canceled2.get() {
                //   1. Let cloneResult be CloneAsUint8Array(chunk).
                let clone_result = to_array_buffer_view(&chunk1, "chunk", ctx)
                    .and_then(|v| clone_as_uint8_array(&v, ctx));
                match clone_result {
                    //   2. If cloneResult is an abrupt completion, error both branches, resolve
                    //      cancelPromise with ! ReadableStreamCancel(stream, e) and return.
                    Err(e) => {
                        let e = boa_webidl::own_error_value(e, ctx);
                        ByteTeeState::clone_failed(&state, false, e, ctx);
                        return;
                    }
                    //   3. Otherwise, set chunk2 to cloneResult.[[Value]].
                    Ok(clone) => chunk2 = clone.into(),
                }
            }
            //   5. If canceled1 is false, perform ! ReadableByteStreamControllerEnqueue(
            //      branch1.[[controller]], chunk1).
            //   6. If canceled2 is false, perform ! ReadableByteStreamControllerEnqueue(
            //      branch2.[[controller]], chunk2).
            for (second, chunk) in [(false, chunk1), (true, chunk2)] {
                if state.canceled(second) {
                    continue;
                }
                if let Some(c) = state.branch_controller(second) {
                    if let Ok(view) = to_array_buffer_view(&chunk, "chunk", ctx) {
                        let _ = readable_byte_stream_controller_enqueue(&c, &view, ctx);
                    }
                }
            }
            //   7. Set reading to false.
            state.reading.set(false);
            //   8. If readAgainForBranch1 is true, perform pull1Algorithm.
            //   9. Otherwise, if readAgainForBranch2 is true, perform pull2Algorithm.
            ByteTeeState::pull_again_if_requested(&state, ctx);
        });
    }

    fn close_steps(self: Box<Self>, ctx: &mut Context) {
        let state = self.state;
        // 1. Set reading to false.
        state.reading.set(false);
        // 2. If canceled1 is false, perform ! ReadableByteStreamControllerClose(
        //    branch1.[[controller]]).
        if !state.canceled1.get() {
            state.close_branch(false, ctx);
        }
        // 3. If canceled2 is false, perform ! ReadableByteStreamControllerClose(
        //    branch2.[[controller]]).
        if !state.canceled2.get() {
            state.close_branch(true, ctx);
        }
        // 4. If branch1.[[controller]].[[pendingPullIntos]] is not empty, perform !
        //    ReadableByteStreamControllerRespond(branch1.[[controller]], 0).
        state.respond_zero_if_pending(false, ctx);
        // 5. If branch2.[[controller]].[[pendingPullIntos]] is not empty, perform !
        //    ReadableByteStreamControllerRespond(branch2.[[controller]], 0).
        state.respond_zero_if_pending(true, ctx);
        // 6. If canceled1 is false or canceled2 is false, resolve cancelPromise with undefined.
        if !state.canceled1.get() || !state.canceled2.get() {
            state.cancel_promise.resolve_undefined(ctx);
        }
    }

    fn error_steps(self: Box<Self>, _e: JsValue, _ctx: &mut Context) {
        // 1. Set reading to false.
        self.state.reading.set(false);
    }
}

/// pullWithBYOBReader's read-into request.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct ByteTeeReadIntoRequest {
    state: Gc<ByteTeeState>,
    #[unsafe_ignore_trace]
    for_branch2: bool,
}

impl ReadIntoRequestSteps for ByteTeeReadIntoRequest {
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context) {
        // 1. Queue a microtask to perform the following steps:
        let state = self.state;
        let for_branch2 = self.for_branch2;
        enqueue_microtask(ctx, move |ctx| {
            //   1. Set readAgainForBranch1 to false.
            //   2. Set readAgainForBranch2 to false.
            state.read_again_for_branch1.set(false);
            state.read_again_for_branch2.set(false);
            //   3. Let byobCanceled be canceled2 if forBranch2 is true, and canceled1
            //      otherwise.
            //   4. Let otherCanceled be canceled2 if forBranch2 is false, and canceled1
            //      otherwise.
            let byob_canceled = state.canceled(for_branch2);
            let other_canceled = state.canceled(!for_branch2);
            let view = to_array_buffer_view(&chunk, "chunk", ctx);
            //   5. If otherCanceled is false,
            if !other_canceled {
                //   1. Let cloneResult be CloneAsUint8Array(chunk).
                let clone_result = view.clone().and_then(|v| clone_as_uint8_array(&v, ctx));
                let cloned = match clone_result {
                    //   2. If cloneResult is an abrupt completion, error both branches, resolve
                    //      cancelPromise with ! ReadableStreamCancel(stream, e) and return.
                    Err(e) => {
                        let e = boa_webidl::own_error_value(e, ctx);
                        ByteTeeState::clone_failed(&state, for_branch2, e, ctx);
                        return;
                    }
                    //   3. Otherwise, let clonedChunk be cloneResult.[[Value]].
                    Ok(c) => c,
                };
                //   4. If byobCanceled is false, perform !
                //      ReadableByteStreamControllerRespondWithNewView(byobBranch.[[controller]],
                //      chunk).
                if !byob_canceled {
                    if let (Some(c), Ok(v)) = (state.branch_controller(for_branch2), &view) {
                        let _ = readable_byte_stream_controller_respond_with_new_view(&c, v, ctx);
                    }
                }
                //   5. Perform ! ReadableByteStreamControllerEnqueue(otherBranch.[[controller]],
                //      clonedChunk).
                if let Some(c) = state.branch_controller(!for_branch2) {
                    if let Ok(v) = to_array_buffer_view(&cloned.into(), "chunk", ctx) {
                        let _ = readable_byte_stream_controller_enqueue(&c, &v, ctx);
                    }
                }
            } else if !byob_canceled {
                //   6. Otherwise, if byobCanceled is false, perform !
                //      ReadableByteStreamControllerRespondWithNewView(byobBranch.[[controller]],
                //      chunk).
                if let (Some(c), Ok(v)) = (state.branch_controller(for_branch2), &view) {
                    let _ = readable_byte_stream_controller_respond_with_new_view(&c, v, ctx);
                }
            }
            //   7. Set reading to false.
            state.reading.set(false);
            //   8. If readAgainForBranch1 is true, perform pull1Algorithm.
            //   9. Otherwise, if readAgainForBranch2 is true, perform pull2Algorithm.
            ByteTeeState::pull_again_if_requested(&state, ctx);
        });
    }

    fn close_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context) {
        let state = self.state;
        let for_branch2 = self.for_branch2;
        // 1. Set reading to false.
        state.reading.set(false);
        // 2. Let byobCanceled be canceled2 if forBranch2 is true, and canceled1 otherwise.
        // 3. Let otherCanceled be canceled2 if forBranch2 is false, and canceled1 otherwise.
        let byob_canceled = state.canceled(for_branch2);
        let other_canceled = state.canceled(!for_branch2);
        // 4. If byobCanceled is false, perform ! ReadableByteStreamControllerClose(
        //    byobBranch.[[controller]]).
        if !byob_canceled {
            state.close_branch(for_branch2, ctx);
        }
        // 5. If otherCanceled is false, perform ! ReadableByteStreamControllerClose(
        //    otherBranch.[[controller]]).
        if !other_canceled {
            state.close_branch(!for_branch2, ctx);
        }
        // 6. If chunk is not undefined,
        if !chunk.is_undefined() {
            //   1. Assert: chunk.[[ByteLength]] is 0.
            //   2. If byobCanceled is false, perform !
            //      ReadableByteStreamControllerRespondWithNewView(byobBranch.[[controller]],
            //      chunk).
            if !byob_canceled {
                if let (Some(c), Ok(v)) = (
                    state.branch_controller(for_branch2),
                    to_array_buffer_view(&chunk, "chunk", ctx),
                ) {
                    let _ = readable_byte_stream_controller_respond_with_new_view(&c, &v, ctx);
                }
            }
            //   3. If otherCanceled is false and otherBranch.[[controller]].[[pendingPullIntos]]
            //      is not empty, perform ! ReadableByteStreamControllerRespond(
            //      otherBranch.[[controller]], 0).
            if !other_canceled {
                state.respond_zero_if_pending(!for_branch2, ctx);
            }
        }
        // 7. If byobCanceled is false or otherCanceled is false, resolve cancelPromise with
        //    undefined.
        if !byob_canceled || !other_canceled {
            state.cancel_promise.resolve_undefined(ctx);
        }
    }

    fn error_steps(self: Box<Self>, _e: JsValue, _ctx: &mut Context) {
        // 1. Set reading to false.
        self.state.reading.set(false);
    }
}
