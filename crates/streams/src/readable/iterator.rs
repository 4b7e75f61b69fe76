//! ReadableStream's async iterator ([spec](https://streams.spec.whatwg.org/#rs-asynciterator))
//! with WebIDL's async iterator prototype `next()` / `return()` ("ongoing promise" queueing).

use std::cell::Cell;

use boa_engine::{
    builtins::iterable::create_iter_result_object,
    object::{builtins::JsPromise, JsObject},
    property::PropertyDescriptor,
    Context, JsData, JsResult, JsString, JsSymbol, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcErased, GcRefCell, Trace};

use super::generic_reader::readable_stream_reader_generic_cancel;
use super::reader::{
    acquire_readable_stream_default_reader, readable_stream_default_reader_read,
    readable_stream_default_reader_release, ReadableStreamDefaultReader,
};
use super::requests::{HostedReadRequest, ReadRequest, ReadRequestTable};
use super::{Completion, ReadableStream, StreamReader};
use boa_webidl::promise::{
    completion_resolved_with, promise_rejected_with, promise_resolved_with, PromiseCapability,
};
use boa_webidl::{self as webidl, arg, brand, type_error, Dictionary};

/// `%ReadableStreamAsyncIteratorPrototype%` of a realm (kept in the realm's host-defined
/// data).
#[derive(Trace, Finalize, JsData)]
struct AsyncIteratorPrototype(JsObject);

/// A ReadableStream default asynchronous iterator object.
#[derive(Trace, Finalize, JsData)]
pub struct ReadableStreamAsyncIterator {
    /// The iterator's reader.
    reader: JsObject<ReadableStreamDefaultReader>,
    /// The iterator's prevent cancel.
    #[unsafe_ignore_trace]
    prevent_cancel: bool,
    /// WebIDL's ongoing promise.
    ongoing: GcRefCell<Option<JsObject>>,
    /// WebIDL's is finished.
    #[unsafe_ignore_trace]
    is_finished: Cell<bool>,
}

/// Create `%ReadableStreamAsyncIteratorPrototype%` for the current realm (once).
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    let async_iterator = ctx
        .intrinsics()
        .objects()
        .iterator_prototypes()
        .async_iterator();
    let proto = JsObject::with_object_proto(ctx.intrinsics());
    proto.set_prototype(Some(async_iterator));
    let next = webidl::function(ctx, "next", 0, NativeFunction::from_fn_ptr(next));
    let ret = webidl::function(ctx, "return", 1, NativeFunction::from_fn_ptr(return_));
    for (name, f) in [("next", next), ("return", ret)] {
        proto.define_property_or_throw(
            webidl::key(name),
            PropertyDescriptor::builder()
                .value(f)
                .writable(true)
                .enumerable(true)
                .configurable(true),
            ctx,
        )?;
    }
    proto.define_property_or_throw(
        JsSymbol::to_string_tag(),
        PropertyDescriptor::builder()
            .value(JsString::from("ReadableStream AsyncIterator"))
            .writable(false)
            .enumerable(false)
            .configurable(true),
        ctx,
    )?;
    ctx.realm()
        .host_defined_mut()
        .insert(AsyncIteratorPrototype(proto));
    Ok(())
}

/// `ReadableStream.prototype.values` (also `[Symbol.asyncIterator]`).
pub(crate) fn values(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let stream = brand::<ReadableStream>(this, "ReadableStream")?;
    let options = Dictionary::new(&arg(args, 0), "ReadableStreamIteratorOptions")?;
    let prevent_cancel = options.get_bool(webidl::js_key!("preventCancel"), false, ctx)?;
    let proto = ctx
        .realm()
        .host_defined()
        .get::<AsyncIteratorPrototype>()
        .map(|p| p.0.clone())
        .ok_or_else(|| type_error("ReadableStream is not registered in this realm"))?;
    // The asynchronous iterator initialization steps:
    // 1. Let reader be ? AcquireReadableStreamDefaultReader(stream).
    let reader = acquire_readable_stream_default_reader(&stream, ctx)?;
    // 2. Set iterator's reader to reader.
    // 3. Let preventCancel be args[0]["preventCancel"].
    // 4. Set iterator's prevent cancel to preventCancel.
    let iterator = JsObject::new(
        ctx.root_shape(),
        proto,
        ReadableStreamAsyncIterator {
            reader,
            prevent_cancel,
            ongoing: GcRefCell::new(None),
            is_finished: Cell::new(false),
        },
    );
    Ok(iterator.into())
}

fn this_iterator(this: &JsValue) -> Option<JsObject<ReadableStreamAsyncIterator>> {
    this.as_object()
        .and_then(|o| o.clone().downcast::<ReadableStreamAsyncIterator>().ok())
}

fn rejected_type_error(msg: &str, ctx: &mut Context) -> JsValue {
    let e = boa_webidl::type_error_value(msg, ctx);
    promise_rejected_with(e, ctx).into()
}

fn then(
    promise: &JsObject,
    on_settled: NativeFunction,
    on_rejected: Option<NativeFunction>,
    ctx: &mut Context,
) -> JsObject {
    let f = on_settled.to_js_function(ctx.realm());
    let r = on_rejected.map(|r| r.to_js_function(ctx.realm()));
    match JsPromise::from_object(promise.clone()) {
        // NOTE: JsPromise::then reads `constructor` (SpeciesConstructor): user code.
        Ok(p) => match webidl::catching(ctx, |ctx| p.then(Some(f), r, ctx)) {
            Ok(d) => d.into(),
            Err(e) => promise_rejected_with(e.into_value(), ctx),
        },
        Err(e) => {
            let e = webidl::own_error_value(e, ctx);
            promise_rejected_with(e, ctx)
        }
    }
}

/// `%ReadableStreamAsyncIteratorPrototype%.next()` (WebIDL asynchronous iterator prototype).
fn next(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // 1-7. Validate this: a ReadableStream default asynchronous iterator, else a promise
    //      rejected with a TypeError.
    let Some(object) = this_iterator(this) else {
        return Ok(rejected_type_error(
            "'this' is not a ReadableStream async iterator",
            ctx,
        ));
    };
    // 8. Let nextSteps be the following steps: (next_steps)
    // 9. Let ongoingPromise be object's ongoing promise.
    let ongoing = object.borrow().data().ongoing.borrow().clone();
    let result = if let Some(ongoing) = ongoing {
        // 10. If ongoingPromise is not null, then:
        //   1. Let afterOngoingPromiseCapability be ! NewPromiseCapability(%Promise%).
        //   2. Let onSettled be CreateBuiltinFunction(nextSteps, « »).
        //   3. Perform PerformPromiseThen(ongoingPromise, onSettled, onSettled,
        //      afterOngoingPromiseCapability).
        let on_settled = NativeFunction::from_copy_closure_with_captures(
            |_, _, object: &JsObject<ReadableStreamAsyncIterator>, ctx| {
                Ok(next_steps(object, ctx).into())
            },
            object.clone(),
        );
        let on_settled2 = NativeFunction::from_copy_closure_with_captures(
            |_, _, object: &JsObject<ReadableStreamAsyncIterator>, ctx| {
                Ok(next_steps(object, ctx).into())
            },
            object.clone(),
        );
        //   4. Set object's ongoing promise to afterOngoingPromiseCapability.[[Promise]].
        then(&ongoing, on_settled, Some(on_settled2), ctx)
    } else {
        // 11. Otherwise: Set object's ongoing promise to the result of running nextSteps.
        next_steps(&object, ctx)
    };
    *object.borrow().data().ongoing.borrow_mut() = Some(result.clone());
    // 12. Return object's ongoing promise.
    Ok(result.into())
}

/// WebIDL's nextSteps for `next()`.
fn next_steps(object: &JsObject<ReadableStreamAsyncIterator>, ctx: &mut Context) -> JsObject {
    // 1. Let nextPromiseCapability be ! NewPromiseCapability(%Promise%).
    let capability = PromiseCapability::new(ctx);
    let promise = capability.promise.clone();
    // 2. If object's is finished is true, then: resolve with CreateIterResultObject(undefined,
    //    true) and return.
    let (finished, reader) = {
        let b = object.borrow();
        (b.data().is_finished.get(), b.data().reader.clone())
    };
    if finished {
        let result = create_iter_result_object(JsValue::undefined(), true, ctx);
        capability.resolve(result, ctx);
        return promise;
    }
    // 3-9. Let nextPromise be the result of getting the next iteration result; react to it with
    //      fulfillSteps / rejectSteps into nextPromiseCapability. (The read request carries the
    //      capability and settles nextPromise; the reaction is queued once the read has
    //      returned, see NextPromise.)
    // "Get the next iteration result":
    // 1. Let reader be iterator's reader.
    // 2. Assert: reader.[[stream]] is not undefined.
    if reader.borrow().data().stream().is_none() {
        let e = boa_webidl::type_error_value("The iterator's reader was released", ctx);
        capability.reject(e, ctx);
        return promise;
    }
    // 3. Let promise be a new promise.
    // 4. Let readRequest be a new read request (IteratorReadRequest).
    let read = Gc::new(IteratorReadRequest {
        iterator: object.clone(),
        capability,
        read: GcRefCell::new(NextPromise::Reading(None)),
    });
    let request = ReadRequest::AsyncIterator(HostedReadRequest::new(
        GcErased::new(read.clone()),
        &ITERATOR_READ_REQUEST,
    ));
    // 5. Perform ! ReadableStreamDefaultReaderRead(this, readRequest).
    //    (This can run the source's pull() synchronously, and its read request steps with it;
    //    whatever they queue, e.g. the NewPromiseResolveThenableJob for pull's result or the
    //    pull promise's reaction, comes before nextSteps' reaction to the promise.)
    readable_stream_default_reader_read(&reader, request, ctx);
    // 6. Return promise.
    // nextSteps: React to nextPromise with fulfillSteps / rejectSteps (now, after the read
    // returned: a promise the read request steps settled gets its reaction queued here).
    let settled = std::mem::replace(&mut *read.read.borrow_mut(), NextPromise::Reacted);
    if let NextPromise::Reading(Some((next_promise, reacting))) = settled {
        next_promise.upon(reacting, on_next_promise, ctx);
    }
    promise
}

/// "promise" of "get the next iteration result", as far as nextSteps' reaction to it goes.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum NextPromise {
    /// `ReadableStreamDefaultReaderRead` has not returned yet, so nextSteps has not reacted to
    /// the promise yet: the read request steps that ran during the read leave the settled
    /// promise and the reaction here.
    Reading(Option<(Completion, Reacting)>),
    /// nextSteps has reacted: the read request steps react at once.
    Reacted,
}

/// The async iterator's read request: settles "nextPromise", whose reactions run WebIDL's
/// fulfillSteps / rejectSteps into nextPromiseCapability. One `Gc` per `next()`, shared by the
/// read request and nextSteps.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct IteratorReadRequest {
    iterator: JsObject<ReadableStreamAsyncIterator>,
    capability: PromiseCapability,
    read: GcRefCell<NextPromise>,
}

/// The async iterator's read request steps, as a [`HostedReadRequest`] performs them on the
/// `next()` call's [`IteratorReadRequest`].
static ITERATOR_READ_REQUEST: ReadRequestTable = ReadRequestTable {
    chunk: iterator_chunk_steps,
    close: iterator_close_steps,
    error: iterator_error_steps,
};

fn iterator_chunk_steps(state: GcErased, chunk: JsValue, ctx: &mut Context) {
    if let Some(request) = IteratorReadRequest::of(state) {
        request.chunk_steps(chunk, ctx);
    }
}

fn iterator_close_steps(state: GcErased, ctx: &mut Context) {
    if let Some(request) = IteratorReadRequest::of(state) {
        request.close_steps(ctx);
    }
}

fn iterator_error_steps(state: GcErased, e: JsValue, ctx: &mut Context) {
    if let Some(request) = IteratorReadRequest::of(state) {
        request.error_steps(e, ctx);
    }
}

#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct Reacting {
    iterator: JsObject<ReadableStreamAsyncIterator>,
    capability: PromiseCapability,
    #[unsafe_ignore_trace]
    end: bool,
}

fn on_next_promise(r: &Reacting, settlement: Result<JsValue, JsValue>, ctx: &mut Context) {
    let data_ref = r.iterator.borrow();
    let data = data_ref.data();
    // fulfillSteps / rejectSteps: 1. Set object's ongoing promise to null.
    *data.ongoing.borrow_mut() = None;
    match settlement {
        Ok(next) => {
            let result = if r.end {
                // 2. If next is end of iteration, then: set is finished to true; return
                //    CreateIterResultObject(undefined, true).
                data.is_finished.set(true);
                drop(data_ref);
                create_iter_result_object(JsValue::undefined(), true, ctx)
            } else {
                drop(data_ref);
                // 4. Otherwise: return CreateIterResultObject(next, false).
                create_iter_result_object(next, false, ctx)
            };
            r.capability.resolve(result, ctx);
        }
        Err(reason) => {
            // 2. Set object's is finished to true.
            data.is_finished.set(true);
            drop(data_ref);
            // 3. Throw reason.
            r.capability.reject(reason, ctx);
        }
    }
}

impl IteratorReadRequest {
    /// The `next()` call's request a [`HostedReadRequest`] carries.
    fn of(state: GcErased) -> Option<Gc<Self>> {
        let state = state.downcast::<Self>();
        debug_assert!(
            state.is_some(),
            "an iterator's read request holds its next() state"
        );
        state
    }

    /// The promise is settled (`next_promise`): queue nextSteps' reaction to it, now if
    /// nextSteps has reacted already, else when the read returns to nextSteps.
    fn settled(&self, next_promise: Completion, end: bool, ctx: &mut Context) {
        let reacting = Reacting {
            iterator: self.iterator.clone(),
            capability: self.capability.clone(),
            end,
        };
        {
            let mut read = self.read.borrow_mut();
            if let NextPromise::Reading(slot) = &mut *read {
                *slot = Some((next_promise, reacting));
                return;
            }
        }
        next_promise.upon(reacting, on_next_promise, ctx);
    }

    fn chunk_steps(&self, chunk: JsValue, ctx: &mut Context) {
        // 1. Resolve promise with chunk.
        let next_promise = completion_resolved_with(chunk, ctx);
        self.settled(next_promise, false, ctx);
    }

    fn close_steps(&self, ctx: &mut Context) {
        // 1. Perform ! ReadableStreamDefaultReaderRelease(reader).
        let reader = self.iterator.borrow().data().reader.clone();
        readable_stream_default_reader_release(&reader, ctx);
        // 2. Resolve promise with end of iteration.
        let next_promise = if boa_webidl::fast_paths() {
            Completion::undefined()
        } else {
            Completion::Js(promise_resolved_with(JsValue::undefined(), ctx))
        };
        self.settled(next_promise, true, ctx);
    }

    fn error_steps(&self, e: JsValue, ctx: &mut Context) {
        // 1. Perform ! ReadableStreamDefaultReaderRelease(reader).
        let reader = self.iterator.borrow().data().reader.clone();
        readable_stream_default_reader_release(&reader, ctx);
        // 2. Reject promise with e.
        let next_promise = if boa_webidl::fast_paths() {
            Completion::Rejected(e)
        } else {
            Completion::Js(promise_rejected_with(e, ctx))
        };
        self.settled(next_promise, false, ctx);
    }
}

/// `%ReadableStreamAsyncIteratorPrototype%.return(value)`.
fn return_(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let value = arg(args, 0);
    // 1-7. Validate this, else a promise rejected with a TypeError.
    let Some(object) = this_iterator(this) else {
        return Ok(rejected_type_error(
            "'this' is not a ReadableStream async iterator",
            ctx,
        ));
    };
    // 8. Let returnSteps be the following steps: (return_steps)
    // 9. Let ongoingPromise be object's ongoing promise.
    let ongoing = object.borrow().data().ongoing.borrow().clone();
    let captures = (object.clone(), value.clone());
    let ongoing = if let Some(ongoing) = ongoing {
        // 10. If ongoingPromise is not null: afterOngoing = PerformPromiseThen(ongoingPromise,
        //     onSettled, onSettled, afterOngoingPromiseCapability); set object's ongoing
        //     promise to it.
        let on_settled = NativeFunction::from_copy_closure_with_captures(
            |_, _, (object, value): &(JsObject<ReadableStreamAsyncIterator>, JsValue), ctx| {
                Ok(return_steps(object, value.clone(), ctx).into())
            },
            captures.clone(),
        );
        let on_settled2 = NativeFunction::from_copy_closure_with_captures(
            |_, _, (object, value): &(JsObject<ReadableStreamAsyncIterator>, JsValue), ctx| {
                Ok(return_steps(object, value.clone(), ctx).into())
            },
            captures,
        );
        then(&ongoing, on_settled, Some(on_settled2), ctx)
    } else {
        // 11. Otherwise: set object's ongoing promise to the result of running returnSteps.
        return_steps(&object, value.clone(), ctx)
    };
    *object.borrow().data().ongoing.borrow_mut() = Some(ongoing.clone());
    // 12. Let fulfillSteps be: return CreateIterResultObject(value, true).
    // 13. Let onFulfilled be CreateBuiltinFunction(fulfillSteps, « »).
    let on_fulfilled = NativeFunction::from_copy_closure_with_captures(
        |_, _, value: &JsValue, ctx| Ok(create_iter_result_object(value.clone(), true, ctx)),
        value,
    );
    // 14. Perform PerformPromiseThen(object's ongoing promise, onFulfilled, undefined,
    //     returnPromiseCapability).
    // 15. Return returnPromiseCapability.[[Promise]].
    Ok(then(&ongoing, on_fulfilled, None, ctx).into())
}

/// WebIDL's returnSteps for `return()`.
fn return_steps(
    object: &JsObject<ReadableStreamAsyncIterator>,
    value: JsValue,
    ctx: &mut Context,
) -> JsObject {
    // 1. Let returnPromiseCapability be ! NewPromiseCapability(%Promise%).
    // 2. If object's is finished is true, then: resolve it with
    //    CreateIterResultObject(value, true) and return it.
    let (finished, reader, prevent_cancel) = {
        let b = object.borrow();
        let d = b.data();
        (d.is_finished.get(), d.reader.clone(), d.prevent_cancel)
    };
    if finished {
        let result = create_iter_result_object(value, true, ctx);
        return promise_resolved_with(result, ctx);
    }
    // 3. Set object's is finished to true.
    object.borrow().data().is_finished.set(true);
    // 4. Return the result of running the asynchronous iterator return algorithm:
    //   1. Let reader be iterator's reader.
    //   2. Assert: reader.[[stream]] is not undefined.
    if reader.borrow().data().stream().is_none() {
        return promise_resolved_with(JsValue::undefined(), ctx);
    }
    //   3. Assert: reader.[[readRequests]] is empty.
    //   4. If iterator's prevent cancel is false:
    if !prevent_cancel {
        //   1. Let result be ! ReadableStreamReaderGenericCancel(reader, arg).
        let generic = StreamReader::Default(reader.clone());
        let result = readable_stream_reader_generic_cancel(&generic, value, ctx);
        //   2. Perform ! ReadableStreamDefaultReaderRelease(reader).
        readable_stream_default_reader_release(&reader, ctx);
        //   3. Return result.
        return result.into_js_promise(ctx);
    }
    //   5. Perform ! ReadableStreamDefaultReaderRelease(reader).
    readable_stream_default_reader_release(&reader, ctx);
    //   6. Return a promise resolved with undefined.
    promise_resolved_with(JsValue::undefined(), ctx)
}
