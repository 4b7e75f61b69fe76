//! The [`ReadableStreamGenericReader`](https://streams.spec.whatwg.org/#generic-reader-mixin)
//! mixin: the `[[closedPromise]]` and `[[stream]]` slots, the `closed` attribute and the
//! `cancel()` method both readers share, and the reader abstract operations the spec writes
//! once for both ([ReadableStreamReaderGenericCancel], [ReadableStreamReaderGenericInitialize],
//! [ReadableStreamReaderGenericRelease], spec §4.10.3).
//!
//! [ReadableStreamReaderGenericCancel]: https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel
//! [ReadableStreamReaderGenericInitialize]: https://streams.spec.whatwg.org/#readable-stream-reader-generic-initialize
//! [ReadableStreamReaderGenericRelease]: https://streams.spec.whatwg.org/#readable-stream-reader-generic-release

use boa_engine::{class::Class, object::JsObject, Context, JsResult, JsValue};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use super::{
    readable_stream_cancel, rejected, with_stream, Completion, ReadableStream, StreamReader,
    StreamState,
};
use boa_webidl::promise::{PromiseSlot, Reaction};
use boa_webidl::{self as webidl, arg, brand, type_error};

/// The slots of the `ReadableStreamGenericReader` mixin, embedded in both readers.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub(crate) struct GenericReader {
    /// `[[stream]]`.
    stream: GcRefCell<Option<JsObject<ReadableStream>>>,
    /// `[[closedPromise]]`: its JS promise is created when script first reads `closed`.
    // NOTE: unobservable (see `PromiseSlot`): every rejection of a reader's
    // [[closedPromise]] in the spec also sets [[PromiseIsHandled]] (ReadableStreamError,
    // ReadableStreamReaderGenericInitialize, ReadableStreamReaderGenericRelease).
    // NOTE: in its own GC cell so the promise operations run with no borrow of the reader
    // object held (marking a new promise handled can reach script through Boa's species
    // lookup).
    closed_promise: Gc<GcRefCell<PromiseSlot>>,
}

impl GenericReader {
    /// Fresh slots; ReadableStreamReaderGenericInitialize sets them.
    pub(crate) fn new() -> Self {
        Self {
            stream: GcRefCell::new(None),
            closed_promise: Gc::new(GcRefCell::new(PromiseSlot::pending())),
        }
    }

    /// `[[stream]]`.
    pub(crate) fn stream(&self) -> Option<JsObject<ReadableStream>> {
        self.stream.borrow().clone()
    }
}

impl StreamReader {
    /// The reader's generic slots, borrowed briefly: `f` must not call into JS.
    pub(crate) fn generic<R>(&self, f: impl FnOnce(&GenericReader) -> R) -> R {
        match self {
            Self::Default(r) => f(r.borrow().data().generic()),
            Self::Byob(r) => f(r.borrow().data().generic()),
        }
    }

    /// `[[closedPromise]]`, borrowed briefly: `f` must not call into JS.
    fn closed_slot<R>(&self, f: impl FnOnce(&mut PromiseSlot) -> R) -> R {
        f(&mut self.closed_cell().borrow_mut())
    }

    /// The cell holding `[[closedPromise]]` (no borrow of the reader held).
    fn closed_cell(&self) -> Gc<GcRefCell<PromiseSlot>> {
        self.generic(|g| g.closed_promise.clone())
    }

    /// `[[stream]]`.
    pub fn stream(&self) -> Option<JsObject<ReadableStream>> {
        self.generic(GenericReader::stream)
    }

    /// `[[closedPromise]]` as a JS promise (created on first use).
    pub fn closed_promise(&self, ctx: &mut Context) -> JsObject {
        PromiseSlot::promise_of(&self.closed_cell(), ctx)
    }

    /// Run `waiter` when `[[closedPromise]]` settles, at the position a reaction registered
    /// on it now would take (as a microtask at once if it already has). No JS promise is
    /// allocated.
    pub(crate) fn upon_closed(&self, waiter: Reaction, ctx: &mut Context) {
        PromiseSlot::react_in(&self.closed_cell(), waiter, ctx);
    }

    /// "Resolve reader.[[closedPromise]] with undefined" (runs no user code).
    pub(crate) fn resolve_closed(&self, ctx: &mut Context) {
        PromiseSlot::resolve_in(&self.closed_cell(), ctx);
    }

    /// "Reject reader.[[closedPromise]] with e" and set its [[PromiseIsHandled]] to true
    /// (runs no user code).
    pub(crate) fn reject_closed(&self, e: JsValue, ctx: &mut Context) {
        PromiseSlot::settle_in(&self.closed_cell(), Err(e), ctx);
    }

    /// Whether both are the same reader object.
    pub(crate) fn is(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Default(a), Self::Default(b)) => {
                JsObject::equals(&a.clone().upcast(), &b.clone().upcast())
            }
            (Self::Byob(a), Self::Byob(b)) => {
                JsObject::equals(&a.clone().upcast(), &b.clone().upcast())
            }
            _ => false,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Methods and properties
// ---------------------------------------------------------------------------------------

/// A reader interface that includes the mixin.
pub(crate) trait GenericReaderClass: Class {
    /// The generic slots of `self`.
    fn generic(&self) -> &GenericReader;
    /// `this` as a [`StreamReader`].
    fn into_reader(this: JsObject<Self>) -> StreamReader;
}

/// [closed](https://streams.spec.whatwg.org/#generic-reader-closed), the mixin's attribute:
/// `Member::attribute("closed", closed::<R>)`.
pub(crate) fn closed<R: GenericReaderClass>(
    this: &JsValue,
    _: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    match brand::<R>(this, R::NAME) {
        // 1. Return this.[[closedPromise]].
        Ok(r) => Ok(R::into_reader(r).closed_promise(ctx).into()),
        Err(e) => Ok(rejected(e, ctx)),
    }
}

/// [cancel(reason)](https://streams.spec.whatwg.org/#generic-reader-cancel), the mixin's
/// operation: `Member::operation("cancel", 0, cancel::<R>)`.
pub(crate) fn cancel<R: GenericReaderClass>(
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let r = match brand::<R>(this, R::NAME) {
        Ok(r) => R::into_reader(r),
        Err(e) => return Ok(rejected(e, ctx)),
    };
    // 1. If this.[[stream]] is undefined, return a promise rejected with a TypeError
    //    exception.
    if r.stream().is_none() {
        return Ok(rejected(type_error("The reader has been released"), ctx));
    }
    // 2. Return ! ReadableStreamReaderGenericCancel(this, reason).
    let c = readable_stream_reader_generic_cancel(&r, arg(args, 0), ctx);
    Ok(c.into_js_promise(ctx).into())
}

// ---------------------------------------------------------------------------------------
// Abstract operations
// ---------------------------------------------------------------------------------------

/// [ReadableStreamReaderGenericCancel](https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel)
pub fn readable_stream_reader_generic_cancel(
    reader: &StreamReader,
    reason: JsValue,
    ctx: &mut Context,
) -> Completion {
    // 1. Let stream be reader.[[stream]].
    let stream = reader.stream();
    // 2. Assert: stream is not undefined.
    debug_assert!(
        stream.is_some(),
        "ReadableStreamReaderGenericCancel: released reader"
    );
    let Some(stream) = stream else {
        return Completion::Rejected(webidl::type_error_value(
            "The reader has been released",
            ctx,
        ));
    };
    // 3. Return ! ReadableStreamCancel(stream, reason).
    readable_stream_cancel(&stream, reason, ctx)
}

/// [ReadableStreamReaderGenericInitialize](https://streams.spec.whatwg.org/#readable-stream-reader-generic-initialize)
pub(crate) fn readable_stream_reader_generic_initialize(
    reader: StreamReader,
    stream: &JsObject<ReadableStream>,
) {
    let (state, stored_error) = with_stream(stream, |s| (s.state(), s.stored_error()));
    // 1. Set reader.[[stream]] to stream.
    reader.generic(|r| *r.stream.borrow_mut() = Some(stream.clone()));
    reader.closed_slot(|slot| {
        *slot = match state {
            // 3. If stream.[[state]] is "readable",
            //   1. Set reader.[[closedPromise]] to a new promise.
            StreamState::Readable => PromiseSlot::pending(),
            // 4. Otherwise, if stream.[[state]] is "closed",
            //   1. Set reader.[[closedPromise]] to a promise resolved with undefined.
            StreamState::Closed => PromiseSlot::fulfilled(),
            // 5. Otherwise,
            //   1. Assert: stream.[[state]] is "errored".
            //   2. Set reader.[[closedPromise]] to a promise rejected with
            //      stream.[[storedError]].
            //   3. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true.
            StreamState::Errored => PromiseSlot::rejected(stored_error),
        };
    });
    // 2. Set stream.[[reader]] to reader.
    // NOTE: done after steps 3-5 here: the steps read the stream's state only, so the order
    // is unobservable.
    with_stream(stream, |s| *s.reader.borrow_mut() = Some(reader));
}

/// [ReadableStreamReaderGenericRelease](https://streams.spec.whatwg.org/#readable-stream-reader-generic-release)
pub(crate) fn readable_stream_reader_generic_release(reader: &StreamReader, ctx: &mut Context) {
    // 1. Let stream be reader.[[stream]].
    let stream = reader.stream();
    // 2. Assert: stream is not undefined.
    debug_assert!(
        stream.is_some(),
        "ReadableStreamReaderGenericRelease: released reader"
    );
    let Some(stream) = stream else {
        return;
    };
    // 3. Assert: stream.[[reader]] is reader.
    debug_assert!(
        with_stream(&stream, ReadableStream::reader).is_some_and(|r| r.is(reader)),
        "ReadableStreamReaderGenericRelease: stream.[[reader]] is another reader"
    );
    let e = webidl::type_error_value("The reader's lock was released", ctx);
    if with_stream(&stream, ReadableStream::state) == StreamState::Readable {
        // 4. If stream.[[state]] is "readable", reject reader.[[closedPromise]] with a
        //    TypeError exception.
        reader.reject_closed(e, ctx);
    } else {
        // 5. Otherwise, set reader.[[closedPromise]] to a promise rejected with a TypeError
        //    exception.
        reader.closed_slot(|slot| slot.replace(PromiseSlot::rejected(e)));
    }
    // 6. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true. (A rejected
    //    `PromiseSlot` is handled.)
    // 7. Perform ! stream.[[controller]].[[ReleaseSteps]]().
    match with_stream(&stream, ReadableStream::controller) {
        Some(c) => c.release_steps(),
        None => debug_assert!(false, "a locked stream has a controller"),
    }
    // 8. Set stream.[[reader]] to undefined.
    with_stream(&stream, |s| *s.reader.borrow_mut() = None);
    // 9. Set reader.[[stream]] to undefined.
    reader.generic(|r| *r.stream.borrow_mut() = None);
}
