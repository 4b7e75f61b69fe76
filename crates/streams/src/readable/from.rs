//! [ReadableStreamFromIterable](https://streams.spec.whatwg.org/#readable-stream-from-iterable)
//! with WebIDL's async sequence (open / get the next value / close) and ECMAScript's
//! GetIterator(async) + CreateAsyncFromSyncIterator written in Rust (Boa does not expose the
//! iterator record).

use boa_engine::{
    builtins::iterable::create_iter_result_object,
    object::{
        builtins::{JsFunction, JsPromise},
        JsObject,
    },
    Context, JsData, JsResult, JsSymbol, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, GcErased, GcRefCell, Trace};

use super::controller::{
    readable_stream_default_controller_close, readable_stream_default_controller_enqueue,
    readable_stream_default_controller_error,
};
use super::create_readable_stream;
use super::source::{HostedSource, SourceAlgorithms, SourceTable, StartAlgorithm};
use super::{with_stream, ReadableStream, StreamController};
use boa_webidl::promise::{
    enqueue_microtask, react, Completion, PromiseCapability, RustPromise, Settlement,
};
use boa_webidl::promise::{promise_rejected_with, promise_resolved_with};
use boa_webidl::{self as webidl, type_error};

/// An iterator record: `[[Iterator]]` and `[[NextMethod]]`; `FromSync` is the record of a
/// CreateAsyncFromSyncIterator wrapper around a sync iterator record.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum IteratorRecord {
    Async { iterator: JsObject, next: JsValue },
    FromSync { iterator: JsObject, next: JsValue },
}

/// `ReadableStream.from()`'s pull / cancel algorithms, as a [`HostedSource`] performs them on
/// its [`FromIterableSource`].
static FROM_ITERABLE_SOURCE: SourceTable = SourceTable {
    pull: |state, ctx| {
        FromIterableSource::of(state).map_or_else(Completion::undefined, |s| {
            FromIterableSource::pull_algorithm(&s, ctx)
        })
    },
    cancel: |state, reason, ctx| {
        FromIterableSource::of(state)
            .map_or_else(Completion::undefined, |s| s.cancel_algorithm(reason, ctx))
    },
};

/// `ReadableStream.from()`'s underlying source: the async iterator and the stream.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub struct FromIterableSource {
    record: IteratorRecord,
    stream: GcRefCell<Option<JsObject<ReadableStream>>>,
    /// The async-iterator fast path's reaction to the promise `next()` returned (see
    /// [`async_next_promise`]): the two native functions, made once per stream, and the
    /// nextPromise they settle (at most one is pending: the next pull waits for it).
    next_reaction: GcRefCell<Option<NextReaction>>,
    /// The sync-iterator fast path's iterator result of the pending "get the next value"
    /// (the one the wrapper's `unwrap` makes), kept as its parts until script could see the
    /// object (see [`LazyIterResult`]).
    sync_result: GcRefCell<Option<LazyIterResult>>,
    /// For an Array iterated by the intrinsic `Array.prototype.values` and
    /// %ArrayIteratorPrototype%.next (see [`ArrayIteration`]).
    array_iteration: Option<ArrayIteration>,
}

/// An Array iterated by an ArrayIterator that only the source can reach: the intrinsic
/// `%Array.prototype.values%` made it, the `next` lookup on it ran no code and found the
/// intrinsic %ArrayIteratorPrototype%.next. The source counts the elements that `next()` has
/// returned, which is the iterator's [[ArrayLikeNextIndex]] (nothing else can call `next()` on
/// it), so it can tell when `next()` runs no user code: its Get of `length` and of the element
/// find own data properties, or the index is past the length.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct ArrayIteration {
    array: JsObject,
    /// The iterator's [[ArrayLikeNextIndex]].
    #[unsafe_ignore_trace]
    next_index: std::cell::Cell<u64>,
    /// Set when the count may no longer be the iterator's (a `return` lookup on the iterator
    /// at cancel could show it to script, `next()` threw, the fast paths were switched off):
    /// from then on `next()` is always run as user code.
    #[unsafe_ignore_trace]
    untracked: std::cell::Cell<bool>,
}

impl ArrayIteration {
    /// Whether %ArrayIteratorPrototype%.next on the iterator runs no user code now: the
    /// array's `length` is an own data property (always, for an Array) and the element at the
    /// iterator's index is an own data property, or the index is at or past the length (no
    /// element Get).
    fn next_runs_no_code(&self) -> bool {
        if self.untracked.get() {
            return false;
        }
        let array = self.array.borrow();
        let properties = array.properties();
        let length = properties
            .get(&webidl::js_key!("length"))
            .filter(boa_engine::property::PropertyDescriptor::is_data_descriptor)
            .and_then(|d| d.value().and_then(JsValue::as_number));
        let Some(length) = length else {
            return false;
        };
        let index = self.next_index.get();
        #[allow(clippy::cast_precision_loss)]
        if index as f64 >= length {
            return true;
        }
        properties
            .get(&boa_engine::property::PropertyKey::from(index))
            .is_some_and(|d| d.is_data_descriptor())
    }

    /// Record what `next()` returned: the index moves on with every result that is not done.
    fn record(&self, result: &Result<(bool, JsValue), JsValue>) {
        match result {
            Ok((false, _)) => self.next_index.set(self.next_index.get() + 1),
            Ok((true, _)) => {}
            Err(_) => self.untracked.set(true),
        }
    }
}

/// The iterator result `CreateIterResultObject(value, done)` of the sync-iterator wrapper's
/// `unwrap`, made only when a step could show it to script.
///
/// The promises that carry it ([`WrapperStep::wrapper`] and nextPromise) are settled with
/// [`lazy_iter_result`], a symbol no script sees, and the steps that take it from them read
/// it here.
// NOTE: unobservable: until a step hands the object to script, the steps that touch it are
// the two `then` lookups of the promise resolve functions (wrapper promise, nextPromise) and
// "get the next value" step 4's `done` / `value` Gets. The object is an ordinary object with
// own data properties `value` and `done` whose prototype is %Object.prototype%, so the
// Gets of `done` and `value` find its parts without running code, and a `then` lookup walks
// to %Object.prototype%'s chain: when that lookup runs no code and finds no callable `then`
// ([`iter_result_then_is_silent`]) it is answered without the object. Otherwise the object is
// made right then (a fresh object: its identity was never seen, and making it runs no code)
// and the step goes on with it as the spec's.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum LazyIterResult {
    Parts { value: JsValue, done: bool },
    Object(JsValue),
}

/// See [`FromIterableSource::next_reaction`].
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct NextReaction {
    on_fulfilled: JsFunction,
    on_rejected: JsFunction,
    next_promise: Option<Gc<RustPromise>>,
}

/// GetMethod(V, P).
fn get_method(
    value: &JsObject,
    key: impl Into<boa_engine::property::PropertyKey>,
    ctx: &mut Context,
) -> JsResult<Option<JsObject>> {
    // 1. Let func be ? GetV(V, P).
    let func = value.get(key, ctx)?;
    // 2. If func is either undefined or null, return undefined.
    if func.is_null_or_undefined() {
        return Ok(None);
    }
    // 3. If IsCallable(func) is false, throw a TypeError exception.
    match func.as_callable() {
        Some(f) => Ok(Some(f.clone())),
        None => Err(type_error("iterator method is not callable")),
    }
}

/// GetMethod(V, P) for a caller that catches the exception (see [`webidl::get_catching`]).
fn get_method_catching(
    value: &JsObject,
    key: &str,
    ctx: &mut Context,
) -> Result<Option<JsObject>, webidl::Caught> {
    webidl::catching(ctx, |ctx| get_method(value, webidl::key(key), ctx))
}

/// GetIteratorFromMethod(obj, method).
///
/// With `ordinary_fresh` (the caller knows the iterator is a new object with the ordinary
/// internal methods and no own properties), also says whether the `next` lookup ran no code:
/// it then walks the prototype chain only ([`webidl::plain_data_lookup`]), so nothing could see the
/// iterator.
fn get_iterator_from_method(
    obj: &JsValue,
    method: &JsObject,
    ordinary_fresh: bool,
    ctx: &mut Context,
) -> JsResult<(JsObject, JsValue, bool)> {
    // 1. Let iterator be ? Call(method, obj).
    let iterator = method.call(obj, &[], ctx)?;
    // 2. If iterator is not an Object, throw a TypeError exception.
    let Some(iterator) = iterator.as_object() else {
        return Err(type_error("the iterator method did not return an object"));
    };
    // 3. Let nextMethod be ? Get(iterator, "next").
    let key = webidl::js_key!("next");
    let silent = ordinary_fresh && {
        let (own, prototype) = {
            let o = iterator.borrow();
            (o.properties().get(&key), o.prototype())
        };
        own.is_none() && prototype.is_some_and(|p| webidl::plain_data_lookup(&p, &key).is_some())
    };
    let next = iterator.get(key, ctx)?;
    // 4-5. Return the Iterator Record { [[Iterator]]: iterator, [[NextMethod]]: nextMethod }.
    Ok((iterator, next, silent))
}

/// [ReadableStreamFromIterable](https://streams.spec.whatwg.org/#readable-stream-from-iterable)
pub(crate) fn readable_stream_from_iterable(
    async_iterable: &JsValue,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>> {
    // IDL layer: convert to async_sequence<any>.
    // 1. If V is not an Object, throw a TypeError.
    let Some(obj) = async_iterable.as_object() else {
        return Err(type_error("ReadableStream.from() needs an iterable object"));
    };
    // 2. Let method be ? GetMethod(obj, %Symbol.asyncIterator%).
    let method = get_method(&obj, JsSymbol::async_iterator(), ctx)?;
    // 3. If method is undefined: let syncMethod be ? GetMethod(obj, %Symbol.iterator%); if it
    //    is undefined, throw a TypeError; the sequence is of type "sync".
    let (method, sync) = match method {
        Some(m) => (m, false),
        None => match get_method(&obj, JsSymbol::iterator(), ctx)? {
            Some(m) => (m, true),
            None => {
                return Err(type_error(
                    "ReadableStream.from() needs an async iterable or an iterable",
                ))
            }
        },
    };
    // ReadableStreamFromIterable:
    // 1. Let stream be undefined.
    // 2. Let iterator be the result of opening an async sequence asyncIterable:
    //    "sync": CreateAsyncFromSyncIterator(? GetIteratorFromMethod(object, method));
    //    "async": ? GetIteratorFromMethod(object, method).
    // An Array iterated by the intrinsic `values`: the iterator is a fresh ArrayIterator, an
    // object with the ordinary internal methods and no own properties.
    let array_values = sync
        && obj.is_array()
        && JsObject::equals(
            &method,
            &ctx.intrinsics().objects().array_prototype_values().into(),
        );
    let (iterator, next, next_found_silently) =
        get_iterator_from_method(async_iterable, &method, array_values, ctx)?;
    let array_iteration = (array_values
        && next_found_silently
        && is_array_iterator_next(&next, ctx))
    .then(|| ArrayIteration {
        array: obj.clone(),
        next_index: std::cell::Cell::new(0),
        untracked: std::cell::Cell::new(false),
    });
    let record = if sync {
        IteratorRecord::FromSync { iterator, next }
    } else {
        IteratorRecord::Async { iterator, next }
    };
    let source = Gc::new(FromIterableSource {
        record,
        stream: GcRefCell::new(None),
        next_reaction: GcRefCell::new(None),
        sync_result: GcRefCell::new(None),
        array_iteration,
    });
    // 3. Let startAlgorithm be an algorithm that returns undefined.
    // 4. Let pullAlgorithm be ... (FromIterableSource::pull_algorithm)
    // 5. Let cancelAlgorithm be ... (FromIterableSource::cancel_algorithm)
    // 6. Set stream to ! CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, 0).
    let stream = create_readable_stream(
        StartAlgorithm::ReturnUndefined,
        SourceAlgorithms::FromIterable(HostedSource::new(
            GcErased::new(source.clone()),
            &FROM_ITERABLE_SOURCE,
        )),
        Some(0.0),
        None,
        ctx,
    )?;
    *source.stream.borrow_mut() = Some(stream.clone());
    // 7. Return stream.
    Ok(stream)
}

fn settle_rejected(e: webidl::Caught) -> Completion {
    Completion::Rejected(e.into_value())
}

/// Result of the "end of iteration" check: `Some(value)` or `None` for end of iteration.
fn iter_result_value(result: &JsValue, ctx: &mut Context) -> JsResult<Option<JsValue>> {
    // 1. If iterResult is not an Object, throw a TypeError.
    let Some(o) = result.as_object() else {
        return Err(type_error("the iterator result is not an object"));
    };
    // 2. Let done be ? IteratorComplete(iterResult).
    // NOTE: the callers catch: they run this inside webidl::catching (engine bug
    // native-catch-stack).
    let done = o.get(webidl::js_key!("done"), ctx)?.to_boolean();
    // 3. If done is true, return end of iteration.
    if done {
        return Ok(None);
    }
    // 4. Return ? IteratorValue(iterResult).
    Ok(Some(o.get(webidl::js_key!("value"), ctx)?))
}

/// [`iter_result_value`] when it runs no user code: `result` is an ordinary object with own
/// data properties `done` and `value` (an iterator result made by CreateIterResultObject, by
/// an async generator or by the sync-iterator wrapper). `None`: take the general steps.
// NOTE: the same Gets, without the `catching` trampoline: an own data property's Get runs no
// code and cannot throw, and ToBoolean runs no code.
fn iter_result_value_fast(result: &JsValue) -> Option<Option<JsValue>> {
    let o = result.as_object()?;
    if !own_data(&o, &webidl::js_key!("done"))?.to_boolean() {
        return Some(Some(own_data(&o, &webidl::js_key!("value"))?));
    }
    Some(None)
}

/// The value of an own data property of an ordinary object (its Get runs no code), else `None`.
fn own_data(o: &JsObject, key: &boa_engine::property::PropertyKey) -> Option<JsValue> {
    if !o.is_ordinary() {
        return None;
    }
    o.borrow()
        .properties()
        .get(key)
        .filter(boa_engine::property::PropertyDescriptor::is_data_descriptor)
        .and_then(|d| d.value().cloned())
}

/// `done` (as ToBoolean) and `value` of an iterator result whose Gets run no code: an ordinary
/// object with own data properties `done` and `value` (one the engine made). `None`: take the
/// general steps.
fn own_done_value(result: &JsValue) -> Option<(bool, JsValue)> {
    let o = result.as_object()?;
    let done = own_data(&o, &webidl::js_key!("done"))?.to_boolean();
    Some((done, own_data(&o, &webidl::js_key!("value"))?))
}

/// Whether `next` is the intrinsic %ArrayIteratorPrototype%.next (as registered, before any
/// script ran).
fn is_array_iterator_next(next: &JsValue, ctx: &Context) -> bool {
    let host = ctx.realm().host_defined();
    host.get::<PromiseIntrinsics>().is_some_and(|i| {
        match (i.array_iterator_next.as_object(), next.as_object()) {
            (Some(a), Some(b)) => JsObject::equals(&a, &b),
            _ => false,
        }
    })
}

/// "Get the next value" step 4's fulfillment steps with the settlement of nextPromise: the
/// value, end of iteration, or the exception (a rejection passes through).
fn next_value_steps(settlement: Settlement, ctx: &mut Context) -> Result<NextValue, JsValue> {
    let result = settlement?;
    let value = iter_result_value_fast(&result).map_or_else(
        || webidl::catching(ctx, |ctx| iter_result_value(&result, ctx)),
        Ok,
    );
    match value {
        Ok(Some(v)) => Ok(NextValue::Value(v)),
        Ok(None) => Ok(NextValue::End),
        Err(e) => Err(e.into_value()),
    }
}

/// ReadableStreamFromIterable's pull algorithm step 2: the reaction to nextPromise
/// (captures: the source and the pull algorithm's promise).
fn pull_reaction(
    (source, out): &(Gc<FromIterableSource>, Gc<RustPromise>),
    settlement: Settlement,
    ctx: &mut Context,
) {
    let Some(controller) = source.controller() else {
        out.settle(Ok(JsValue::undefined()), ctx);
        return;
    };
    match settlement {
        // If nextPromise was fulfilled with value v:
        // The settled value carries the end marker (see `NextValue`).
        Ok(v) => match NextValue::from_settled(v) {
            // 1. If v is end of iteration, perform !
            //    ReadableStreamDefaultControllerClose(stream.[[controller]]).
            NextValue::End => readable_stream_default_controller_close(&controller, ctx),
            // 2. Otherwise, perform ! ReadableStreamDefaultControllerEnqueue(
            //    stream.[[controller]], v).
            NextValue::Value(v) => {
                let _ = readable_stream_default_controller_enqueue(&controller, v, ctx);
            }
        },
        // If nextPromise was rejected with reason r, perform !
        // ReadableStreamDefaultControllerError(stream.[[controller]], r).
        Err(r) => readable_stream_default_controller_error(&controller, r, ctx),
    }
    out.settle(Ok(JsValue::undefined()), ctx);
}

/// With fast paths on: "get the next value" step 4's reaction to nextPromise, and the pull
/// algorithm's reaction to its promise without that promise in between.
///
/// The promise of step 4 ("the result of reacting to nextPromise") is resolved with what the
/// steps return, and the pull reaction is its only reaction: a value that is not a thenable
/// (its `then` read once, as the resolve function does) or end of iteration or an exception
/// settles it, which queues the pull reaction, so the pull reaction is queued here directly.
/// A callable `then` gets the promise (a [`RustPromise`]) and the NewPromiseResolveThenableJob.
fn next_value_then_pull(
    captures: &(Gc<FromIterableSource>, Gc<RustPromise>),
    settlement: Settlement,
    ctx: &mut Context,
) {
    let next_value = match settlement {
        Ok(v) if is_lazy_iter_result(&v) => captures.0.take_sync_next_value(ctx),
        settlement => next_value_steps(settlement, ctx),
    };
    let settled = match next_value {
        Ok(NextValue::End) => Ok(NextValue::End.into_settled()),
        Err(e) => Err(e),
        Ok(NextValue::Value(v)) => match v.as_object() {
            // Promise Resolve Functions: 10. If resolution is not an Object, fulfill.
            None => Ok(v),
            // 11-12. Let then be Completion(Get(resolution, "then")); an abrupt completion
            // rejects.
            Some(o) => match webidl::get_then(&o, ctx) {
                Err(e) => Err(e.into_value()),
                // 13-14. If IsCallable(then) is false, fulfill.
                Ok(then) => match then.as_callable() {
                    None => Ok(v),
                    // 15-16. NewPromiseResolveThenableJob(promise, resolution, then).
                    Some(then) => {
                        let promise = RustPromise::new();
                        let job_promise = promise.clone();
                        enqueue_microtask(ctx, move |ctx| {
                            call_then_with_resolving_functions(&then, v, &job_promise, ctx);
                        });
                        Completion::Rust(promise).upon(captures.clone(), pull_reaction, ctx);
                        return;
                    }
                },
            },
        },
    };
    // The promise is settled: its one reaction (the pull reaction) is queued.
    let captures = captures.clone();
    enqueue_microtask(ctx, move |ctx| pull_reaction(&captures, settled, ctx));
}

/// A value carrying "end of iteration" through a promise settlement.
#[derive(Clone, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
enum NextValue {
    Value(JsValue),
    End,
}

impl FromIterableSource {
    fn controller(&self) -> Option<JsObject<super::ReadableStreamDefaultController>> {
        let stream = self.stream.borrow().clone()?;
        with_stream(&stream, ReadableStream::controller).and_then(StreamController::into_default)
    }

    /// %AsyncFromSyncIteratorPrototype%.next() / the async iterator's next(): the promise
    /// "IteratorNext" gives for the async iterator.
    fn call_next(&self, ctx: &mut Context) -> Result<JsValue, webidl::Caught> {
        match &self.record {
            // IteratorNext: Let result be ? Call(next, iterator); if result is not an
            // Object, throw a TypeError.
            IteratorRecord::Async { iterator, next } => webidl::catching(ctx, |ctx| {
                let next = next
                    .as_callable()
                    .ok_or_else(|| type_error("the iterator's next is not callable"))?;
                let result = next.call(&iterator.clone().into(), &[], ctx)?;
                if !result.is_object() {
                    return Err(type_error("the iterator's next() did not return an object"));
                }
                Ok(result)
            }),
            IteratorRecord::FromSync { iterator, next } => {
                // (The fast paths are off: the index is no longer counted.)
                if let Some(array) = &self.array_iteration {
                    array.untracked.set(true);
                }
                // %AsyncFromSyncIteratorPrototype%.next():
                // 3. Let promiseCapability be ! NewPromiseCapability(%Promise%).
                // 5. Let result be Completion(IteratorNext(syncIteratorRecord)).
                // 6. IfAbruptRejectPromise(result, promiseCapability).
                let result = webidl::catching(ctx, |ctx| {
                    let next = next
                        .as_callable()
                        .ok_or_else(|| type_error("the iterator's next is not callable"))?;
                    let r = next.call(&iterator.clone().into(), &[], ctx)?;
                    if !r.is_object() {
                        return Err(type_error("the iterator result is not an object"));
                    }
                    Ok(r)
                });
                match result {
                    Ok(r) => {
                        Ok(async_from_sync_iterator_continuation(&r, iterator, true, ctx).into())
                    }
                    Err(e) => Ok(promise_rejected_with(e.into_value(), ctx).into()),
                }
            }
        }
    }

    /// The source a [`HostedSource`] carries.
    fn of(state: &GcErased) -> Option<Gc<Self>> {
        let state = state.clone().downcast::<Self>();
        debug_assert!(
            state.is_some(),
            "ReadableStream.from()'s source holds its state"
        );
        state
    }

    /// The pull algorithm.
    fn pull_algorithm(this: &Gc<Self>, ctx: &mut Context) -> Completion {
        let out = RustPromise::new();
        if boa_webidl::fast_paths() {
            // 1. Let nextPromise be the result of getting the next value of iterator: steps
            //    1-3 here, step 4's reaction in `next_value_then_pull`.
            // 2. Return the result of reacting to nextPromise: `pull_reaction`.
            let next_promise = Self::next_promise(this, ctx);
            next_promise.upon((this.clone(), out.clone()), next_value_then_pull, ctx);
            return Completion::Rust(out);
        }
        // 1. Let nextPromise be the result of getting the next value of iterator.
        let next_promise = Self::get_next_value(this, ctx);
        // 2. Return the result of reacting to nextPromise:
        next_promise.upon((this.clone(), out.clone()), pull_reaction, ctx);
        Completion::Rust(out)
    }

    /// WebIDL "get the next value" of an async iterator, steps 1-3: nextPromise.
    fn next_promise(this: &Gc<Self>, ctx: &mut Context) -> Completion {
        match &this.record {
            IteratorRecord::FromSync { iterator, next } if boa_webidl::fast_paths() => {
                from_sync_next_promise(this, iterator, next, ctx)
            }
            IteratorRecord::Async { .. } if boa_webidl::fast_paths() => {
                // 1-2. (as below)
                let next_result = match this.call_next(ctx) {
                    Ok(r) => r,
                    Err(e) => return settle_rejected(e),
                };
                // 3. Let nextPromise be a promise resolved with nextResult.[[Value]]: kept in
                //    Rust (see `async_next_promise`).
                async_next_promise(this, next_result, ctx)
            }
            _ => {
                // 1. Let nextResult be IteratorNext(iteratorRecord).
                // 2. If nextResult is an abrupt completion, return a promise rejected with it.
                let next_result = match this.call_next(ctx) {
                    Ok(r) => r,
                    Err(e) => return settle_rejected(e),
                };
                // 3. Let nextPromise be a promise resolved with nextResult.[[Value]].
                // NOTE: always a new promise (for a native promise: a
                // NewPromiseResolveThenableJob and a reaction), not PromiseResolve; the
                // reference implementation's webidl2js helper awaits instead (fewer
                // microtasks), which the differential tester's oracle patch
                // `from-webidl-exact` corrects.
                Completion::Js(promise_resolved_with(next_result, ctx))
            }
        }
    }

    /// WebIDL "get the next value" of an async iterator.
    fn get_next_value(this: &Gc<Self>, ctx: &mut Context) -> Completion {
        let next_promise = Self::next_promise(this, ctx);
        // 4. Return the result of reacting to nextPromise with: fulfilled with iterResult:
        //    type check, IteratorComplete, IteratorValue (end of iteration → End). The
        //    reaction's promise is resolved with what the steps return: the value itself (an
        //    object's `then` is read, a thenable is adopted) or end of iteration.
        let out = RustPromise::new();
        next_promise.upon(
            out.clone(),
            |out, settlement, ctx| match next_value_steps(settlement, ctx) {
                Ok(NextValue::Value(v)) => RustPromise::resolve_value(out, v, ctx),
                Ok(NextValue::End) => out.settle(Ok(NextValue::End.into_settled()), ctx),
                Err(e) => out.settle(Err(e), ctx),
            },
            ctx,
        );
        Completion::Rust(out)
    }

    /// The cancel algorithm: close the async iterator with `reason`.
    fn cancel_algorithm(&self, reason: JsValue, ctx: &mut Context) -> Completion {
        // WebIDL "close an async iterator":
        let return_result = match &self.record {
            IteratorRecord::Async { iterator, .. } => {
                // 1. Let iterator be iteratorRecord.[[Iterator]].
                // 2. Let returnMethod be GetMethod(iterator, "return").
                // 3. If returnMethod is an abrupt completion, return a promise rejected with
                //    returnMethod.[[Value]].
                let method = match get_method_catching(iterator, "return", ctx) {
                    Ok(m) => m,
                    Err(e) => return settle_rejected(e),
                };
                // 4. If returnMethod is undefined, return a promise resolved with undefined.
                let Some(method) = method else {
                    return Completion::undefined();
                };
                // 5. Let returnResult be Call(returnMethod.[[Value]], iterator, « reason »).
                // 6. If returnResult is an abrupt completion, return a promise rejected with
                //    returnResult.[[Value]].
                match webidl::call_catching(&method, &iterator.clone().into(), &[reason], ctx) {
                    Ok(r) => r,
                    Err(e) => return settle_rejected(e),
                }
            }
            // The wrapper's return method is %AsyncFromSyncIteratorPrototype%.return, always
            // present; it never throws (it returns a promise).
            IteratorRecord::FromSync { iterator, .. } => {
                // The `return` lookup may show the iterator to script.
                if let Some(array) = &self.array_iteration {
                    array.untracked.set(true);
                }
                async_from_sync_iterator_return(iterator, reason, ctx).into()
            }
        };
        // 7. Let returnPromise be a promise resolved with returnResult.[[Value]].
        let return_promise = Completion::Js(promise_resolved_with(return_result, ctx));
        // 8. Return the result of reacting to returnPromise with: fulfilled with
        //    returnPromiseResult: if it is not an Object, throw a TypeError; return undefined.
        react(
            return_promise,
            (),
            |(), settlement, ctx| match settlement {
                Ok(v) if v.is_object() => Completion::undefined(),
                Ok(_) => Completion::Rejected(boa_webidl::type_error_value(
                    "the iterator's return() result is not an object",
                    ctx,
                )),
                Err(e) => Completion::Rejected(e),
            },
            ctx,
        )
    }
}

thread_local! {
    /// WebIDL's "end of iteration" as it travels through a Rust promise: a symbol script never
    /// sees, so no iterator value can be mistaken for it.
    static END_OF_ITERATION: Option<JsSymbol> =
        JsSymbol::new(Some(boa_engine::JsString::from("end of iteration")));
}

fn end_of_iteration() -> JsValue {
    END_OF_ITERATION.with(|s| s.clone().map_or_else(JsValue::undefined, JsValue::from))
}

thread_local! {
    /// The settled value of a promise of the sync-iterator fast path whose iterator result is
    /// kept in [`FromIterableSource::sync_result`] (see [`LazyIterResult`]): a symbol script
    /// never sees.
    static LAZY_ITER_RESULT: Option<JsSymbol> =
        JsSymbol::new(Some(boa_engine::JsString::from("iterator result")));
}

fn lazy_iter_result() -> JsValue {
    LAZY_ITER_RESULT.with(|s| s.clone().map_or_else(JsValue::undefined, JsValue::from))
}

fn is_lazy_iter_result(v: &JsValue) -> bool {
    match v.as_symbol() {
        Some(a) => LAZY_ITER_RESULT.with(|b| b.as_ref().is_some_and(|b| a == *b)),
        None => false,
    }
}

/// Whether `Get(iterResult, "then")` on an iterator result made by CreateIterResultObject
/// (an ordinary object with own data properties `value` and `done`, prototype
/// %Object.prototype%) runs no code and finds nothing callable: the lookup walks
/// %Object.prototype%'s chain.
fn iter_result_then_is_silent(ctx: &Context) -> bool {
    let object_prototype = ctx.intrinsics().constructors().object().prototype();
    webidl::plain_data_lookup(&object_prototype, &webidl::js_key!("then"))
        .is_some_and(|then| then.is_none_or(|t| !t.is_callable()))
}

impl FromIterableSource {
    /// The pending iterator result of the sync-iterator fast path as an object (made now if
    /// it was kept as its parts).
    fn sync_iter_result_object(&self, ctx: &mut Context) -> JsValue {
        let lazy = self.sync_result.borrow_mut().take();
        let object = match lazy {
            Some(LazyIterResult::Parts { value, done }) => {
                create_iter_result_object(value, done, ctx)
            }
            Some(LazyIterResult::Object(o)) => o,
            None => JsValue::undefined(),
        };
        *self.sync_result.borrow_mut() = Some(LazyIterResult::Object(object.clone()));
        object
    }

    /// "Get the next value" step 4's steps for the pending iterator result of the
    /// sync-iterator fast path (taken: the next pull makes a new one).
    fn take_sync_next_value(&self, ctx: &mut Context) -> Result<NextValue, JsValue> {
        let lazy = self.sync_result.borrow_mut().take();
        match lazy {
            // 1. (an Object) 2. Let done be ? IteratorComplete(iterResult): the own data
            // property `done`. 3. end of iteration if done. 4. ? IteratorValue(iterResult):
            // the own data property `value`. No code runs.
            Some(LazyIterResult::Parts { value, done }) => Ok(if done {
                NextValue::End
            } else {
                NextValue::Value(value)
            }),
            Some(LazyIterResult::Object(o)) => next_value_steps(Ok(o), ctx),
            None => next_value_steps(Ok(JsValue::undefined()), ctx),
        }
    }
}

impl NextValue {
    fn into_settled(self) -> JsValue {
        match self {
            Self::Value(v) => v,
            Self::End => end_of_iteration(),
        }
    }

    fn from_settled(v: JsValue) -> Self {
        let is_end = match (v.as_symbol(), END_OF_ITERATION.with(Clone::clone)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
        if is_end {
            Self::End
        } else {
            Self::Value(v)
        }
    }
}

/// AsyncFromSyncIteratorContinuation(result, promiseCapability, syncIteratorRecord,
/// closeOnRejection), returning promiseCapability.[[Promise]].
fn async_from_sync_iterator_continuation(
    result: &JsValue,
    sync_iterator: &JsObject,
    close_on_rejection: bool,
    ctx: &mut Context,
) -> JsObject {
    // Every step here that runs user code is caught (IfAbruptRejectPromise): all of them run
    // inside webidl::catching.
    let inner = |ctx: &mut Context| -> JsResult<JsObject> {
        let Some(result) = result.as_object() else {
            return Err(type_error("the iterator result is not an object"));
        };
        let (done, value) = continuation_done_value(&result, ctx)?;
        continuation_tail(done, value, sync_iterator, close_on_rejection, ctx)
    };
    match webidl::catching(ctx, inner) {
        Ok(p) => p,
        Err(e) => promise_rejected_with(e.into_value(), ctx),
    }
}

/// AsyncFromSyncIteratorContinuation steps 2-5: `done` and `value` of the iterator result.
fn continuation_done_value(result: &JsObject, ctx: &mut Context) -> JsResult<(bool, JsValue)> {
    // 1. NOTE: the capability is for a native %Promise%.
    // 2. Let done be Completion(IteratorComplete(result)).
    // 3. IfAbruptRejectPromise(done, promiseCapability).
    let done = result.get(webidl::js_key!("done"), ctx)?.to_boolean();
    // 4. Let value be Completion(IteratorValue(result)).
    // 5. IfAbruptRejectPromise(value, promiseCapability).
    let value = result.get(webidl::js_key!("value"), ctx)?;
    Ok((done, value))
}

/// AsyncFromSyncIteratorContinuation steps 6-15 (the caller catches: every step that runs
/// user code is IfAbruptRejectPromise).
fn continuation_tail(
    done: bool,
    value: JsValue,
    sync_iterator: &JsObject,
    close_on_rejection: bool,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    // 6. Let valueWrapper be Completion(PromiseResolve(%Promise%, value)).
    // 7. If valueWrapper is an abrupt completion, done is false, and closeOnRejection is
    //    true, then set valueWrapper to Completion(IteratorClose(syncIteratorRecord,
    //    valueWrapper)).
    // 8. IfAbruptRejectPromise(valueWrapper, promiseCapability).
    // NOTE: PromiseResolve(%Promise%, value) is written out: JsPromise::resolve turns an
    // exception of the `constructor` getter into an uncatchable engine error (lost reason).
    let value_wrapper = match promise_resolve(value, ctx) {
        Ok(p) => p,
        Err(e) if !done && close_on_rejection => {
            if let Ok(Some(ret)) = get_method(sync_iterator, webidl::js_key!("return"), ctx) {
                let _ = ret.call(&sync_iterator.clone().into(), &[], ctx);
            }
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    // 9. Let unwrap be a new Abstract Closure with parameters (v) that captures done and
    //    performs: Return CreateIterResultObject(v, done).
    // 10. Let onFulfilled be CreateBuiltinFunction(unwrap, 1, "", « »).
    let on_fulfilled = NativeFunction::from_copy_closure(move |_, args, ctx| {
        Ok(create_iter_result_object(webidl::arg(args, 0), done, ctx))
    })
    .to_js_function(ctx.realm());
    // 11. NOTE: onFulfilled is used when processing the "value" property of an
    //     IteratorResult object in order to wait for its value if it is a promise and
    //     re-package the result in a new "unwrapped" IteratorResult object.
    // 12. If done is true, or if closeOnRejection is false, then let onRejected be
    //     undefined.
    // 13. Else: let closeIterator be a closure that, given error, performs ?
    //     IteratorClose(syncIteratorRecord, ThrowCompletion(error)); onRejected is it.
    let on_rejected = if done || !close_on_rejection {
        None
    } else {
        Some(
            NativeFunction::from_copy_closure_with_captures(
                |_, args, iterator: &JsObject, ctx| {
                    let error = webidl::arg(args, 0);
                    // IteratorClose with a throw completion: call return (if any),
                    // ignore its result and errors, rethrow error.
                    if let Ok(Some(ret)) = get_method_catching(iterator, "return", ctx) {
                        let _ = webidl::call_catching(&ret, &iterator.clone().into(), &[], ctx);
                    }
                    Err(boa_engine::JsError::from_opaque(error))
                },
                sync_iterator.clone(),
            )
            .to_js_function(ctx.realm()),
        )
    };
    // 14. Perform PerformPromiseThen(valueWrapper, onFulfilled, onRejected,
    //     promiseCapability).
    // NOTE: JsPromise::then also reads valueWrapper.constructor (SpeciesConstructor).
    let p = value_wrapper.then(Some(on_fulfilled), on_rejected, ctx)?;
    // 15. Return promiseCapability.[[Promise]].
    Ok(p.into())
}

/// `%Promise.prototype.then%` and the `%Promise%[%Symbol.species%]` getter as registered, to
/// prove later that the promise steps of the sync-iterator wrapper run no user code.
#[derive(Trace, Finalize, JsData)]
struct PromiseIntrinsics {
    then: JsValue,
    species_getter: JsValue,
    /// %ArrayIteratorPrototype%.next (see [`ArrayIteration`]).
    array_iterator_next: JsValue,
}

/// Record [`PromiseIntrinsics`] for the realm (at registration, before any script runs).
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    let promise = ctx.intrinsics().constructors().promise();
    let then = promise
        .prototype()
        .borrow()
        .properties()
        .get(&webidl::js_key!("then"))
        .and_then(|d| d.value().cloned())
        .unwrap_or_default();
    let species_getter = promise
        .constructor()
        .borrow()
        .properties()
        .get(&JsSymbol::species().into())
        .and_then(|d| d.get().cloned())
        .unwrap_or_default();
    let array_iterator_next = ctx
        .intrinsics()
        .objects()
        .iterator_prototypes()
        .array()
        .borrow()
        .properties()
        .get(&webidl::js_key!("next"))
        .and_then(|d| d.value().cloned())
        .unwrap_or_default();
    ctx.realm().host_defined_mut().insert(PromiseIntrinsics {
        then,
        species_getter,
        array_iterator_next,
    });
    Ok(())
}

/// The registered `%Promise.prototype.then%` (`None` before registration).
fn intrinsic_then(ctx: &Context) -> Option<JsValue> {
    ctx.realm()
        .host_defined()
        .get::<PromiseIntrinsics>()
        .map(|p| p.then.clone())
}

/// Whether, for a fresh `%Promise%` instance `p` (no own properties), `SpeciesConstructor(p,
/// %Promise%)` runs no user code and gives `%Promise%` (`%Promise.prototype%` has `constructor`
/// as a data property whose value is `%Promise%`, and `%Promise%[%Symbol.species%]` is the
/// intrinsic getter, which returns its this value) and, with `then` true, whether `Get(p,
/// "then")` runs no code and finds the intrinsic `then` (a data property of
/// `%Promise.prototype%`).
fn promise_steps_intrinsic(ctx: &Context, then: bool) -> bool {
    let host = ctx.realm().host_defined();
    let Some(intrinsics) = host.get::<PromiseIntrinsics>() else {
        return false;
    };
    let promise = ctx.intrinsics().constructors().promise();
    let constructor = promise.constructor();
    // Identity of objects, as SameValue decides it for two objects (without SameValue's type
    // dispatch: these checks run twice per chunk).
    let same_object =
        |x: &JsValue, v: &JsObject| x.as_object().is_some_and(|x| JsObject::equals(&x, v));
    let same_data = |d: Option<boa_engine::property::PropertyDescriptor>, v: &JsObject| {
        d.is_some_and(|d| d.is_data_descriptor() && d.value().is_some_and(|x| same_object(x, v)))
    };
    {
        let proto = promise.prototype();
        let proto = proto.borrow();
        let properties = proto.properties();
        if then
            && !intrinsics
                .then
                .as_object()
                .is_some_and(|t| same_data(properties.get(&webidl::js_key!("then")), &t))
        {
            return false;
        }
        if !same_data(
            properties.get(&webidl::js_key!("constructor")),
            &constructor,
        ) {
            return false;
        }
    }
    species_is_intrinsic(&constructor, intrinsics)
}

/// Whether `%Promise%[%Symbol.species%]` is still the intrinsic getter (an own accessor of
/// `constructor`, read from its property storage: no code runs), which returns its this value.
fn species_is_intrinsic(constructor: &JsObject, intrinsics: &PromiseIntrinsics) -> bool {
    let species = constructor
        .borrow()
        .properties()
        .get(&JsSymbol::species().into());
    species.is_some_and(|d| {
        d.get().is_some_and(
            |g| match (g.as_object(), intrinsics.species_getter.as_object()) {
                (Some(g), Some(s)) => JsObject::equals(&g, &s),
                _ => false,
            },
        )
    })
}

/// Whether `PromiseResolve(%Promise%, value)` runs no user code and gives a promise already
/// fulfilled with `value`: `value` is not a promise, and if it is an object its `then` lookup
/// runs no code and finds nothing callable.
fn resolves_to_itself_silently(value: &JsValue, ctx: &mut Context) -> bool {
    value.as_object().is_none_or(|o| {
        !o.is::<boa_engine::builtins::promise::Promise>()
            && webidl::lookup_runs_no_code(&o, "then")
            && !o
                .get(webidl::js_key!("then"), ctx)
                .is_ok_and(|t| t.is_callable())
    })
}

/// The promises of one fast "get the next value" through the sync-iterator wrapper (see
/// [`from_sync_next_promise`]).
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
struct WrapperStep {
    /// The stream's source (its [`FromIterableSource::sync_result`]).
    source: Gc<FromIterableSource>,
    /// The wrapper's `promiseCapability.[[Promise]]` while script cannot see it.
    wrapper: Gc<RustPromise>,
    /// The same promise as a JS promise, once a step that could show it to script came
    /// (then `wrapper` is unused).
    wrapper_js: GcRefCell<Option<JsObject>>,
    /// nextPromise: "a promise resolved with" the wrapper's promise.
    next_promise: Gc<RustPromise>,
}

/// "Get the next value" steps 1-3 for the sync-iterator wrapper with fast paths on:
/// %AsyncFromSyncIteratorPrototype%.next() and "a promise resolved with" its result.
///
/// The JS promises of those steps are kept in Rust while no step can show them to script, and
/// every step that runs user code still runs, at its own tick:
///
/// * at the pull: the user's `next()`, `done`, `value` (as in the spec); the `then` lookup of
///   nextPromise's resolution (the wrapper's promise: proved to find the intrinsic `then`) and
///   PromiseResolve(%Promise%, value) (proved to run no code);
/// * the valueWrapper reaction (onFulfilled): CreateIterResultObject and the wrapper promise's
///   resolve function, with its real `then` lookup on the iterator result;
/// * the NewPromiseResolveThenableJob of nextPromise: the intrinsic `then` on the wrapper's
///   promise, whose SpeciesConstructor lookup must run no code and give %Promise%;
/// * the reaction to the wrapper's promise: nextPromise's resolve function, with its real
///   `then` lookup on the iterator result.
///
/// When the state checked at the pull no longer holds at a later step, the wrapper's promise
/// becomes a real JS promise at that step (before anything can see it) and the remaining steps
/// are the spec's own.
fn from_sync_next_promise(
    source: &Gc<FromIterableSource>,
    iterator: &JsObject,
    next: &JsValue,
    ctx: &mut Context,
) -> Completion {
    // %AsyncFromSyncIteratorPrototype%.next():
    // 5. Let result be Completion(IteratorNext(syncIteratorRecord)).
    // 6. IfAbruptRejectPromise(result, promiseCapability).
    // 10. Return AsyncFromSyncIteratorContinuation(result, promiseCapability, ...): steps 2-5.
    let array = source.array_iteration.as_ref();
    let result = match (array.filter(|a| a.next_runs_no_code()), next.as_callable()) {
        // NOTE: the same call without the `catching` trampoline, which exists only for an
        // exception thrown by a nested JS frame (engine bug native-catch-stack): `next` is the
        // engine's native %ArrayIteratorPrototype%.next and, on this array at this index, its
        // steps run no JS code (see `ArrayIteration`); its result is the engine's iterator
        // result, whose `done` and `value` are own data properties (Gets that run no code).
        (Some(_), Some(next)) => match next.call(&iterator.clone().into(), &[], ctx) {
            Ok(r) => own_done_value(&r).map_or_else(
                || {
                    webidl::catching(ctx, |ctx| {
                        let Some(r) = r.as_object() else {
                            return Err(type_error("the iterator result is not an object"));
                        };
                        continuation_done_value(&r, ctx)
                    })
                    .map_err(webidl::Caught::into_value)
                },
                Ok,
            ),
            Err(e) => Err(webidl::own_error_value(e, ctx)),
        },
        _ => webidl::catching(ctx, |ctx| {
            let next = next
                .as_callable()
                .ok_or_else(|| type_error("the iterator's next is not callable"))?;
            let r = next.call(&iterator.clone().into(), &[], ctx)?;
            // The same Gets, read directly when they run no code (e.g. a generator's result).
            if let Some(done_value) = own_done_value(&r) {
                return Ok(done_value);
            }
            let Some(r) = r.as_object() else {
                return Err(type_error("the iterator result is not an object"));
            };
            continuation_done_value(&r, ctx)
        })
        .map_err(webidl::Caught::into_value),
    };
    if let Some(array) = array {
        array.record(&result);
    }
    // The steps below, as the spec and the slow path take them, read `Promise.prototype.then`
    // (nextPromise's resolution) and `constructor` / `Promise[Symbol.species]` (the slow
    // path's `then` calls): all must be the intrinsics, or the slow path runs.
    let fast = promise_steps_intrinsic(ctx, true);
    let step = Gc::new(WrapperStep {
        source: source.clone(),
        wrapper: RustPromise::new(),
        wrapper_js: GcRefCell::new(None),
        next_promise: RustPromise::new(),
    });
    // `None`: the valueWrapper reaction was queued; `Some(r)`: the wrapper's promise was
    // rejected with r.
    let rejected = match result {
        // 6. IfAbruptRejectPromise(result, promiseCapability): the promise is rejected now.
        Err(reason) if fast => {
            step.wrapper.settle(Err(reason.clone()), ctx);
            Some(reason)
        }
        Ok((done, value)) if fast && resolves_to_itself_silently(&value, ctx) => {
            // 6. Let valueWrapper be PromiseResolve(%Promise%, value): a new promise already
            //    fulfilled with value (no code runs).
            // 9-14. PerformPromiseThen(valueWrapper, onFulfilled, onRejected,
            //       promiseCapability): valueWrapper is fulfilled, so the reaction job is
            //       queued now. onRejected is never called.
            Completion::Fulfilled(value).upon(
                (step.clone(), done),
                |(step, done), settlement, ctx| {
                    if let Ok(v) = settlement {
                        wrapper_on_fulfilled(step, v, *done, ctx);
                    }
                },
                ctx,
            );
            None
        }
        // The JS promises, as with fast paths off.
        Err(reason) => {
            let p = promise_rejected_with(reason, ctx);
            return Completion::Js(promise_resolved_with(p.into(), ctx));
        }
        Ok((done, value)) => {
            let p = match webidl::catching(ctx, |ctx| {
                continuation_tail(done, value, iterator, true, ctx)
            }) {
                Ok(p) => p,
                Err(e) => promise_rejected_with(e.into_value(), ctx),
            };
            return Completion::Js(promise_resolved_with(p.into(), ctx));
        }
    };
    // "Get the next value" 3. Let nextPromise be a promise resolved with nextResult.[[Value]]:
    // its resolve function found the intrinsic `then` (checked above) and queued a
    // NewPromiseResolveThenableJob.
    let job_step = step.clone();
    enqueue_microtask(ctx, move |ctx| {
        wrapper_thenable_job(&job_step, rejected, ctx);
    });
    Completion::Rust(step.next_promise.clone())
}

/// "Get the next value" step 3 for an async iterator with fast paths on: nextPromise, "a
/// promise resolved with" `next_result` (the object the iterator's `next()` returned), as a
/// [`RustPromise`].
///
/// nextPromise is never shown to script (the steps only react to it), so only its resolve
/// function's steps are observable, and they all run, at their own ticks: the `then` lookup
/// on `next_result` now, the NewPromiseResolveThenableJob (`then` called with nextPromise's
/// resolving functions) in the next microtask, and, when `next_result` settles, the `then`
/// lookup on the iterator result.
///
/// When `next_result` is a native promise whose `then` is the intrinsic one (found without
/// running code) and whose SpeciesConstructor is `%Promise%` (again without running code),
/// the job's `then` call is `%Promise.prototype.then%` with resolving functions script never
/// sees: it is made as a native reaction ([`Completion::upon`] on the JS promise).
fn async_next_promise(
    source: &Gc<FromIterableSource>,
    next_result: JsValue,
    ctx: &mut Context,
) -> Completion {
    let next_promise = RustPromise::new();
    let Some(thenable) = next_result.as_object() else {
        // IteratorNext made sure it is an object; a non-object fulfills.
        next_promise.settle(Ok(next_result), ctx);
        return Completion::Rust(next_promise);
    };
    let intrinsic = intrinsic_then(ctx);
    let then_is_intrinsic = webidl::lookup_runs_no_code(&thenable, "then")
        && intrinsic.as_ref().is_some_and(|t| {
            thenable
                .get(webidl::js_key!("then"), ctx)
                .is_ok_and(|v| JsValue::same_value(&v, t))
        });
    if !then_is_intrinsic {
        // The resolve function's steps as they are: `then` read (through `catching`), a
        // callable one called in a NewPromiseResolveThenableJob.
        RustPromise::resolve_value(&next_promise, next_result, ctx);
        return Completion::Rust(next_promise);
    }
    // Promise Resolve Functions: 11. Let then be Get(resolution, "then"): the intrinsic
    // `then` (no code ran). 13-16. Queue NewPromiseResolveThenableJob(promise, resolution,
    // then).
    let job_promise = next_promise.clone();
    let source = source.clone();
    enqueue_microtask(ctx, move |ctx| {
        // NewPromiseResolveThenableJob: 2. Call(then, thenable, « resolve, reject »).
        if let Some(promise) = JsPromise::from_object(thenable.clone())
            .ok()
            .filter(|_| promise_then_runs_no_code(&thenable, ctx))
        {
            // %Promise.prototype.then%: 3. Let C be ? SpeciesConstructor(promise, %Promise%):
            // %Promise% (no code runs). 4. Let resultCapability be ? NewPromiseCapability(C).
            // 5. PerformPromiseThen(promise, onFulfilled, onRejected, resultCapability).
            // NOTE: onFulfilled / onRejected are nextPromise's resolving functions, which no
            // script can reach (the intrinsic `then` keeps them in the promise's reaction
            // lists only): the stream's two native functions stand for them, settling the
            // one pending nextPromise. JsPromise::then reads `constructor` (checked: no code
            // runs) and makes the unobservable resultCapability.
            let (on_fulfilled, on_rejected) =
                FromIterableSource::next_reaction_functions(&source, &job_promise, ctx);
            let _not_observable = promise.then(Some(on_fulfilled), Some(on_rejected), ctx);
        } else if let Some(then) = intrinsic_then(ctx).and_then(|t| t.as_callable()) {
            call_then_with_resolving_functions(&then, thenable.into(), &job_promise, ctx);
        }
    });
    Completion::Rust(next_promise)
}

impl FromIterableSource {
    /// The stream's reaction functions for the promise `next()` returned, now settling
    /// `next_promise` (made on first use).
    fn next_reaction_functions(
        this: &Gc<Self>,
        next_promise: &Gc<RustPromise>,
        ctx: &mut Context,
    ) -> (JsFunction, JsFunction) {
        let mut slot = this.next_reaction.borrow_mut();
        let reaction = slot.get_or_insert_with(|| {
            let function = |rejects: bool, source: &Gc<Self>, ctx: &mut Context| {
                NativeFunction::from_copy_closure_with_captures(
                    move |_, args, source: &Gc<Self>, ctx| {
                        let next_promise = source
                            .next_reaction
                            .borrow_mut()
                            .as_mut()
                            .and_then(|r| r.next_promise.take());
                        if let Some(next_promise) = next_promise {
                            if rejects {
                                next_promise.settle(Err(webidl::arg(args, 0)), ctx);
                            } else {
                                RustPromise::resolve_value(
                                    &next_promise,
                                    webidl::arg(args, 0),
                                    ctx,
                                );
                            }
                        }
                        Ok(JsValue::undefined())
                    },
                    source.clone(),
                )
                .to_js_function(ctx.realm())
            };
            NextReaction {
                on_fulfilled: function(false, this, ctx),
                on_rejected: function(true, this, ctx),
                next_promise: None,
            }
        });
        reaction.next_promise = Some(next_promise.clone());
        (reaction.on_fulfilled.clone(), reaction.on_rejected.clone())
    }
}

/// Whether `%Promise.prototype.then%` called on `promise` runs no user code and cannot throw:
/// `promise` is a native promise and SpeciesConstructor(promise, %Promise%) finds `%Promise%`
/// (its `constructor` lookup runs no code and `%Promise%[@@species]` is the intrinsic getter).
fn promise_then_runs_no_code(promise: &JsObject, ctx: &mut Context) -> bool {
    if !promise.is::<boa_engine::builtins::promise::Promise>() {
        return false;
    }
    // `constructor` found as plain data (the lookup runs no code) and is %Promise%.
    let constructor = ctx.intrinsics().constructors().promise().constructor();
    let found = webidl::plain_data_lookup(promise, &webidl::js_key!("constructor"));
    let Some(Some(c)) = found else {
        return false;
    };
    if !c
        .as_object()
        .is_some_and(|c| JsObject::equals(&c, &constructor))
    {
        return false;
    }
    let host = ctx.realm().host_defined();
    let Some(intrinsics) = host.get::<PromiseIntrinsics>() else {
        return false;
    };
    species_is_intrinsic(&constructor, intrinsics)
}

/// NewPromiseResolveThenableJob steps 1-3 for a [`RustPromise`] `promise`: call `then` on
/// `thenable` with new resolving functions of `promise`; an exception rejects it.
fn call_then_with_resolving_functions(
    then: &JsObject,
    thenable: JsValue,
    promise: &Gc<RustPromise>,
    ctx: &mut Context,
) {
    // 1. Let resolvingFunctions be CreateResolvingFunctions(promiseToResolve).
    // NOTE: the promise's own [[AlreadyResolved]] serves: nothing else resolves it.
    let resolve = NativeFunction::from_copy_closure_with_captures(
        |_, args, promise: &Gc<RustPromise>, ctx| {
            RustPromise::resolve_value(promise, webidl::arg(args, 0), ctx);
            Ok(JsValue::undefined())
        },
        promise.clone(),
    )
    .to_js_function(ctx.realm());
    let reject = NativeFunction::from_copy_closure_with_captures(
        |_, args, promise: &Gc<RustPromise>, ctx| {
            promise.settle(Err(webidl::arg(args, 0)), ctx);
            Ok(JsValue::undefined())
        },
        promise.clone(),
    )
    .to_js_function(ctx.realm());
    // 2. Let thenCallResult be Completion(HostCallJobCallback(then, thenable, « resolve,
    //    reject »)).
    // 3. If thenCallResult is an abrupt completion, return ? Call(reject, undefined,
    //    « thenCallResult.[[Value]] »).
    if let Err(e) = webidl::call_catching(then, &thenable, &[resolve.into(), reject.into()], ctx) {
        promise.settle(Err(e.into_value()), ctx);
    }
}

/// AsyncFromSyncIteratorContinuation's onFulfilled (`unwrap`) run as the reaction job of
/// valueWrapper, and the resolve function of the wrapper's promise that the job calls with its
/// result.
fn wrapper_on_fulfilled(step: &WrapperStep, v: JsValue, done: bool, ctx: &mut Context) {
    // NewPromiseResolveThenableJob (queued right after this job) reads
    // SpeciesConstructor(wrapper promise): checked here (see below).
    let intrinsic = promise_steps_intrinsic(ctx, false);
    if intrinsic && iter_result_then_is_silent(ctx) {
        // unwrap: Return CreateIterResultObject(v, done): kept as its parts (see
        // `LazyIterResult`). The resolve function: `then` is looked up (no code runs, nothing
        // callable found): fulfill the wrapper's promise with the iterator result.
        *step.source.sync_result.borrow_mut() = Some(LazyIterResult::Parts { value: v, done });
        step.wrapper.settle(Ok(lazy_iter_result()), ctx);
        return;
    }
    // unwrap: Return CreateIterResultObject(v, done).
    let iter_result = create_iter_result_object(v, done, ctx);
    let silent = iter_result
        .as_object()
        .is_some_and(|o| webidl::lookup_runs_no_code(&o, "then"));
    // NewPromiseResolveThenableJob (queued right after this job) reads
    // SpeciesConstructor(wrapper promise): if that could run code or give another
    // constructor, or if the `then` lookup below can run code (which could change it), the
    // wrapper's promise is made a JS promise now, before script could see it.
    if silent && intrinsic {
        // The resolve function: `then` is looked up (no code runs) and, if callable, called
        // in a NewPromiseResolveThenableJob.
        RustPromise::resolve_value(&step.wrapper, iter_result, ctx);
    } else {
        // NOTE: the JS promise is made here, not at the pull: until now nothing could reach
        // it (nextPromise's resolve function only found the intrinsic `then` on it), so
        // script sees the spec's promise, in the spec's state, from its first access on.
        let capability = PromiseCapability::new(ctx);
        *step.wrapper_js.borrow_mut() = Some(capability.promise.clone());
        capability.resolve(iter_result, ctx);
    }
}

/// The NewPromiseResolveThenableJob of nextPromise, "resolved with" the wrapper's promise:
/// `Call(%Promise.prototype.then%, wrapperPromise, « resolve, reject »)` with nextPromise's
/// new resolving functions.
fn wrapper_thenable_job(step: &WrapperStep, rejected: Option<JsValue>, ctx: &mut Context) {
    let wrapper_js = step.wrapper_js.borrow().clone();
    let wrapper_js = match (wrapper_js, rejected) {
        (Some(p), _) => Some(p),
        // Checked by the valueWrapper reaction, the job just before this one; no code ran
        // since.
        (None, None) => None,
        // The wrapper's promise was rejected at the pull; script may have run since.
        (None, Some(_)) if promise_steps_intrinsic(ctx, false) => None,
        // NOTE: made now rather than at the pull: the host's rejection tracker sees
        // "reject" then "handle" (the `then` below) within this job instead of "reject" at
        // the pull and "handle" here; it reports only at the end of the checkpoint.
        (None, Some(reason)) => Some(promise_rejected_with(reason, ctx)),
    };
    let Some(wrapper_js) = wrapper_js else {
        // %Promise.prototype.then%: 3. Let C be ? SpeciesConstructor(promise, %Promise%):
        //    %Promise% (checked). 4. Let resultCapability be ? NewPromiseCapability(C).
        // 5. Return PerformPromiseThen(promise, onFulfilled, onRejected, resultCapability).
        // NOTE: resultCapability is a %Promise% no one can reach; it is not made.
        Completion::Rust(step.wrapper.clone()).upon(
            (step.source.clone(), step.next_promise.clone()),
            |(source, next_promise), settlement, ctx| match settlement {
                // nextPromise's resolve function, with its `then` lookup on the iterator
                // result: answered without the object while that runs no code and finds
                // nothing callable (see `LazyIterResult`).
                Ok(v) if is_lazy_iter_result(&v) => {
                    if iter_result_then_is_silent(ctx) {
                        next_promise.settle(Ok(v), ctx);
                    } else {
                        let iter_result = source.sync_iter_result_object(ctx);
                        RustPromise::resolve_value(next_promise, iter_result, ctx);
                    }
                }
                Ok(v) => RustPromise::resolve_value(next_promise, v, ctx),
                Err(e) => next_promise.settle(Err(e), ctx),
            },
            ctx,
        );
        return;
    };
    // 1-3. Call(%Promise.prototype.then%, wrapperPromise, « resolve, reject ») with
    //      nextPromise's new resolving functions.
    let Some(then) = intrinsic_then(ctx).and_then(|t| t.as_callable()) else {
        return;
    };
    call_then_with_resolving_functions(&then, wrapper_js.into(), &step.next_promise, ctx);
}

/// %AsyncFromSyncIteratorPrototype%.return(value).
fn async_from_sync_iterator_return(
    sync_iterator: &JsObject,
    value: JsValue,
    ctx: &mut Context,
) -> JsObject {
    // 3. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    // 5. Let syncIterator be syncIteratorRecord.[[Iterator]].
    // 6. Let return be Completion(GetMethod(syncIterator, "return")).
    // 7. IfAbruptRejectPromise(return, promiseCapability).
    let method = match get_method_catching(sync_iterator, "return", ctx) {
        Ok(m) => m,
        Err(e) => return promise_rejected_with(e.into_value(), ctx),
    };
    // 8. If return is undefined, then: let iteratorResult be CreateIterResultObject(value,
    //    true); resolve promiseCapability with it; return the promise.
    let Some(method) = method else {
        let result = create_iter_result_object(value, true, ctx);
        return promise_resolved_with(result, ctx);
    };
    // 9. If value is present, let result be Completion(Call(return, syncIterator, « value »)).
    // 11. IfAbruptRejectPromise(result, promiseCapability).
    let result = match webidl::call_catching(&method, &sync_iterator.clone().into(), &[value], ctx)
    {
        Ok(r) => r,
        Err(e) => return promise_rejected_with(e.into_value(), ctx),
    };
    // 12. If result is not an Object, then reject promiseCapability with a TypeError.
    if !result.is_object() {
        let e =
            boa_webidl::type_error_value("the iterator's return() result is not an object", ctx);
        return promise_rejected_with(e, ctx);
    }
    // 13. Return AsyncFromSyncIteratorContinuation(result, promiseCapability,
    //     syncIteratorRecord, false).
    async_from_sync_iterator_continuation(&result, sync_iterator, false, ctx)
}

/// [PromiseResolve](https://tc39.es/ecma262/#sec-promise-resolve)(%Promise%, `x`).
fn promise_resolve(x: JsValue, ctx: &mut Context) -> JsResult<JsPromise> {
    // 1. If IsPromise(x) is true, then
    if let Some(o) = x
        .as_object()
        .filter(|o| o.is::<boa_engine::builtins::promise::Promise>())
    {
        //   a. Let xConstructor be ? Get(x, "constructor").
        let x_constructor = o.get(webidl::js_key!("constructor"), ctx)?;
        //   b. If SameValue(xConstructor, C) is true, return x.
        let c: JsValue = ctx
            .intrinsics()
            .constructors()
            .promise()
            .constructor()
            .into();
        if JsValue::same_value(&x_constructor, &c) {
            return JsPromise::from_object(o.clone());
        }
    }
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    // 3. Perform ? Call(promiseCapability.[[Resolve]], undefined, « x »).
    // 4. Return promiseCapability.[[Promise]].
    JsPromise::from_object(promise_resolved_with(x, ctx))
}

#[cfg(test)]
mod tests;
