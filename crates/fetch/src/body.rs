//! The Fetch Standard's [bodies](https://fetch.spec.whatwg.org/#bodies): a [`Body`] (its
//! stream and source), [extracting](https://fetch.spec.whatwg.org/#concept-bodyinit-extract)
//! one from a `BodyInit`, [consuming](https://fetch.spec.whatwg.org/#concept-body-consume-body)
//! it, and the [Body mixin](https://fetch.spec.whatwg.org/#body-mixin) `Request` and
//! `Response` include ([`BodyMixin`], [`body_attribute_rows`], [`body_operation_rows`]).

use std::cell::{Cell, RefCell};

use boa_engine::{job::GenericJob, Context, JsObject, JsResult, JsString, JsValue};
use boa_gc::{Finalize, Gc, GcRefCell, Trace};

use boa_fileapi::{array_buffer_from, blob_parts, blob_stream, buffer_source_copy, ByteSeq};
use boa_streams::spec::{
    acquire_readable_stream_default_reader, is_readable_stream_locked,
    readable_stream_default_reader_read, readable_stream_tee, ReadRequest, ReadRequestSteps,
    ReadableStream, ReadableStreamDefaultReader,
};
use boa_webidl::promise::{self as promise, PromiseCapability};
use boa_webidl::{self as webidl, type_error, Member};

use crate::{form_data, headers, mime, multipart};

/// A [body](https://fetch.spec.whatwg.org/#concept-body): its stream, and its source when
/// it was made from bytes (kept for `clone()` and re-extraction).
#[derive(Clone, Trace, Finalize)]
pub struct Body {
    pub(crate) stream: JsObject<ReadableStream>,
    #[unsafe_ignore_trace]
    pub(crate) source: Option<ByteSeq>,
}

/// The state of a `Request` or `Response` the Body mixin works on.
#[derive(Trace, Finalize)]
pub struct BodyHolder {
    pub(crate) body: GcRefCell<Option<Body>>,
    /// The MIME type to use for `blob()`: the `Content-Type` header value.
    pub(crate) headers: JsObject<headers::Headers>,
}

impl BodyHolder {
    pub(crate) fn new(body: Option<Body>, headers: JsObject<headers::Headers>) -> Self {
        Self {
            body: GcRefCell::new(body),
            headers,
        }
    }

    pub(crate) fn body(&self) -> Option<Body> {
        self.body.borrow().clone()
    }
}

/// Whether `stream` is [disturbed](https://streams.spec.whatwg.org/#is-readable-stream-disturbed).
fn is_disturbed(stream: &JsObject<ReadableStream>) -> bool {
    stream.borrow().data().disturbed()
}

/// [Extract](https://fetch.spec.whatwg.org/#concept-bodyinit-extract) a body from a
/// `BodyInit` `object`: the body and its Content-Type, or a TypeError.
pub(crate) fn extract(
    object: &JsValue,
    keepalive: bool,
    ctx: &mut Context,
) -> JsResult<(Body, Option<Vec<u8>>)> {
    // 1-2. A ReadableStream is the stream itself.
    if let Some(stream) = object
        .as_object()
        .and_then(|o| o.clone().downcast::<ReadableStream>().ok())
    {
        // If keepalive is true, then throw a TypeError.
        if keepalive {
            return Err(type_error(
                "A keepalive request cannot have a ReadableStream body",
            ));
        }
        // If object is disturbed or locked, then throw a TypeError.
        if is_disturbed(&stream) || is_readable_stream_locked(&stream) {
            return Err(type_error("The body stream is disturbed or locked"));
        }
        return Ok((
            Body {
                stream,
                source: None,
            },
            None,
        ));
    }
    // 3-5. Otherwise stream is a new byte ReadableStream over the bytes of object (set up
    // with byte reading support), and the type depends on object's type.
    let (bytes, content_type): (ByteSeq, Option<Vec<u8>>) =
        if let Some((seq, blob_type)) = blob_parts(object) {
            // Blob: source is object; if its type is not empty, Content-Type is it.
            let t = (!blob_type.is_empty()).then(|| blob_type.into_bytes());
            (seq, t)
        } else if let Some(bytes) = buffer_source_copy(object, ctx) {
            // BufferSource: a copy of the bytes.
            (ByteSeq::from_bytes(bytes), None)
        } else if let Some(entries) = form_data::encode_entries(object) {
            // FormData: the multipart/form-data encoding algorithm with object's entry list
            // and UTF-8; Content-Type `multipart/form-data; boundary=` and the boundary.
            // The result shares the files' bytes: the stream pulls from them as it is read.
            let boundary = multipart::new_boundary();
            let seq = multipart::encode(entries, &boundary);
            (
                seq,
                Some(format!("multipart/form-data; boundary={boundary}").into_bytes()),
            )
        } else if let Some(text) = boa_url::serialization_of(object) {
            // URLSearchParams: the application/x-www-form-urlencoded serialization.
            (
                ByteSeq::from_bytes(bytes::Bytes::from(text.into_bytes())),
                Some(b"application/x-www-form-urlencoded;charset=UTF-8".to_vec()),
            )
        } else {
            // scalar value string: its UTF-8 encoding.
            let s = object.to_string(ctx)?.to_std_string_lossy();
            (
                ByteSeq::from_bytes(bytes::Bytes::from(s.into_bytes())),
                Some(b"text/plain;charset=UTF-8".to_vec()),
            )
        };
    let stream = blob_stream(bytes.clone(), ctx)?;
    Ok((
        Body {
            stream,
            source: Some(bytes),
        },
        content_type,
    ))
}

/// Whether `value` is one of `BodyInit`'s object types (ReadableStream, Blob, BufferSource,
/// FormData, URLSearchParams); anything else converts to a string.
pub(crate) fn is_body_init_object(value: &JsValue, ctx: &mut Context) -> JsResult<bool> {
    let Some(o) = value.as_object() else {
        return Ok(false);
    };
    if o.is::<ReadableStream>() || blob_parts(value).is_some() {
        return Ok(true);
    }
    if boa_fileapi::is_buffer_source(value, ctx) {
        return Ok(true);
    }
    Ok(o.is::<boa_url::UrlSearchParams>() || o.is::<form_data::FormData>())
}

/// Whether the holder is [unusable](https://fetch.spec.whatwg.org/#body-unusable): its body
/// is non-null and its stream disturbed or locked.
pub(crate) fn is_unusable(holder: &BodyHolder) -> bool {
    holder
        .body()
        .is_some_and(|b| is_disturbed(&b.stream) || is_readable_stream_locked(&b.stream))
}

/// `bodyUsed`: body non-null and its stream disturbed.
fn body_used(holder: &BodyHolder) -> bool {
    holder.body().is_some_and(|b| is_disturbed(&b.stream))
}

/// [Clone](https://fetch.spec.whatwg.org/#concept-body-clone) the holder's body: tee its
/// stream, keep the first branch, return the second.
pub(crate) fn clone_body(holder: &BodyHolder, ctx: &mut Context) -> JsResult<Option<Body>> {
    let Some(body) = holder.body() else {
        return Ok(None);
    };
    // 1. Let « out1, out2 » be the result of teeing body's stream.
    let (out1, out2) = readable_stream_tee(&body.stream, true, ctx)?;
    // 2. Set body's stream to out1.
    *holder.body.borrow_mut() = Some(Body {
        stream: out1,
        source: body.source.clone(),
    });
    // 3. Return a body whose stream is out2 and other members are copied from body.
    Ok(Some(Body {
        stream: out2,
        source: body.source.clone(),
    }))
}

/// The body and headers steps of `clone()` on a `Request` or `Response` (`what`: "request"
/// or "response"): 1. if this is unusable, a TypeError; 2. the clone's holder, with a clone
/// of the body and a new `Headers` with this's headers' guard and list.
pub(crate) fn clone_holder(
    holder: &BodyHolder,
    what: &str,
    ctx: &mut Context,
) -> JsResult<Gc<BodyHolder>> {
    // 1. If this is unusable, then throw a TypeError.
    if is_unusable(holder) {
        return Err(type_error(format!("The {what} body is already used")));
    }
    // 2. Let the clone be the result of cloning this's request or response.
    let body = clone_body(holder, ctx)?;
    let (list, guard) = {
        let h = holder.headers.borrow();
        (h.data().list(), h.data().guard())
    };
    let headers_obj = headers::new_headers(guard, list, ctx)?;
    Ok(Gc::new(BodyHolder::new(body, headers_obj)))
}

/// What a body-consuming method returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Consume {
    ArrayBuffer,
    Blob,
    Bytes,
    /// `formData()`.
    FormData,
    Json,
    Text,
}

/// [Consume body](https://fetch.spec.whatwg.org/#concept-body-consume-body) of `holder`,
/// converting with `kind`: the promise.
pub(crate) fn consume_body(holder: &BodyHolder, kind: Consume, ctx: &mut Context) -> JsValue {
    // 1. If object is unusable, then return a promise rejected with a TypeError.
    if is_unusable(holder) {
        let e = webidl::type_error_value("The body has already been consumed or is locked", ctx);
        return promise::promise_rejected_with(e, ctx).into();
    }
    // 2. Let promise be a new promise.
    let promise = PromiseCapability::new(ctx);
    let mime = holder.headers.borrow().data().get(b"content-type");
    let state = Gc::new(ConsumeState {
        promise: promise.clone(),
        kind,
        mime,
    });
    match holder.body() {
        // 5. If object's body is null, then run successSteps with an empty byte sequence.
        None => state.success(Collected::Bytes(ByteSeq::new()), ctx),
        // 6. Otherwise, fully read object's body given successSteps, errorSteps, and
        //    object's relevant global object.
        Some(body) => {
            // NOTE: formData() of a multipart/form-data body parses each chunk as it is
            // read instead of after the last one: the same reads and the same result (an
            // error is kept until the end), with file contents sharing the chunks' memory.
            let sink = match multipart_boundary(kind, state.mime.as_deref()) {
                Some(boundary) => match multipart::MultipartParser::new(&boundary) {
                    Ok(p) => Collected::Multipart(Box::new(p)),
                    Err(_) => Collected::Bytes(ByteSeq::new()),
                },
                None => Collected::Bytes(ByteSeq::new()),
            };
            fully_read(&body.stream, state, sink, ctx)
        }
    }
    // 7. Return promise.
    promise.value()
}

/// The `boundary` parameter of a `multipart/form-data` MIME type, for `formData()`.
fn multipart_boundary(kind: Consume, mime: Option<&[u8]>) -> Option<String> {
    if kind != Consume::FormData {
        return None;
    }
    let mime = mime::extract_mime_type(mime)?;
    if mime.essence() != "multipart/form-data" {
        return None;
    }
    mime.parameter("boundary").map(str::to_string)
}

/// What fully reading a body collects: its bytes, or (`formData()` of a
/// `multipart/form-data` body) the parser they were fed to.
enum Collected {
    Bytes(ByteSeq),
    Multipart(Box<multipart::MultipartParser>),
}

impl Collected {
    fn push(&mut self, bytes: bytes::Bytes) {
        match self {
            Self::Bytes(seq) => seq.push(bytes),
            Self::Multipart(parser) => parser.feed(bytes),
        }
    }
}

/// A pending consume body: its promise and how to package the bytes.
#[derive(Trace, Finalize)]
struct ConsumeState {
    promise: PromiseCapability,
    #[unsafe_ignore_trace]
    kind: Consume,
    #[unsafe_ignore_trace]
    mime: Option<Vec<u8>>,
}

impl ConsumeState {
    /// successSteps given a byte sequence data: resolve promise with the result of running
    /// convertBytesToJSValue with data; if that threw, reject promise with the exception.
    fn success(&self, data: Collected, ctx: &mut Context) {
        match self.convert(data, ctx) {
            Ok(v) => self.promise.resolve(v, ctx),
            Err(e) => self.promise.reject(e, ctx),
        }
    }

    fn convert(&self, data: Collected, ctx: &mut Context) -> Result<JsValue, JsValue> {
        let own = |e: boa_engine::JsError, ctx: &mut Context| webidl::own_error_value(e, ctx);
        let data = match data {
            Collected::Bytes(data) => data,
            Collected::Multipart(parser) => {
                return match parser.finish() {
                    Ok(entries) => {
                        form_data::form_data_from_parsed(entries, ctx).map_err(|e| own(e, ctx))
                    }
                    Err(message) => Err(webidl::type_error_value(message, ctx)),
                };
            }
        };
        match self.kind {
            Consume::ArrayBuffer => array_buffer_from(&data, ctx)
                .map(JsValue::from)
                .map_err(|e| own(e, ctx)),
            Consume::Bytes => boa_fileapi::uint8_array_from(&data, ctx)
                .map(Into::into)
                .map_err(|e| own(e, ctx)),
            Consume::Text => Ok(boa_fileapi::utf8_decode(&data.to_vec()).into()),
            Consume::Blob => {
                // A Blob whose bytes are data and type is this's MIME type serialized: the
                // MIME type extracted from `Content-Type` ("" when there is none).
                let mime = mime::body_mime_type(self.mime.as_deref());
                boa_fileapi::create_blob(data.parts().iter().cloned(), &mime, ctx)
                    .map_err(|e| own(e, ctx))
            }
            Consume::FormData => self.form_data(data, ctx),
            Consume::Json => {
                // Parse JSON from bytes: UTF-8 decode, then %JSON.parse%.
                let text = boa_fileapi::utf8_decode(&data.to_vec());
                json_parse(text, ctx)
            }
        }
    }
}

impl ConsumeState {
    /// `formData()`'s steps given bytes (multipart/form-data bodies read here are those
    /// whose parser could not be made: a bad boundary, or a null body).
    fn form_data(&self, data: ByteSeq, ctx: &mut Context) -> Result<JsValue, JsValue> {
        let own = |e: boa_engine::JsError, ctx: &mut Context| webidl::own_error_value(e, ctx);
        // 1. Let mimeType be the result of get the MIME type with this.
        let mime = mime::extract_mime_type(self.mime.as_deref());
        let essence = mime.as_ref().map(mime::MimeType::essence);
        match essence.as_deref() {
            // 2. If mimeType's essence is "multipart/form-data", then: parse bytes, using
            //    the value of the `boundary` parameter from mimeType, per RFC 7578; if that
            //    fails, throw a TypeError; return a new FormData with the entries.
            Some("multipart/form-data") => {
                let boundary = mime
                    .as_ref()
                    .and_then(|m| m.parameter("boundary"))
                    .unwrap_or_default();
                let parsed = multipart::MultipartParser::new(boundary).and_then(|mut p| {
                    for part in data.parts() {
                        p.feed(part.clone());
                    }
                    p.finish()
                });
                match parsed {
                    Ok(entries) => {
                        form_data::form_data_from_parsed(entries, ctx).map_err(|e| own(e, ctx))
                    }
                    Err(message) => Err(webidl::type_error_value(message, ctx)),
                }
            }
            // 3. If mimeType's essence is "application/x-www-form-urlencoded", then: let
            //    entries be the result of parsing bytes; return a new FormData whose entry
            //    list is entries.
            Some("application/x-www-form-urlencoded") => {
                let pairs = boa_url::parse(&data.to_vec());
                form_data::form_data_from_pairs(pairs, ctx).map_err(|e| own(e, ctx))
            }
            // 4. Throw a TypeError.
            _ => Err(webidl::type_error_value(
                "formData(): the body's Content-Type is neither multipart/form-data nor application/x-www-form-urlencoded",
                ctx,
            )),
        }
    }
}

/// `%JSON.parse%(text)` (no reviver), its SyntaxError as the error value: boa_json's parse
/// step, since Boa 0.22's own `JSON.parse` rejects valid JSON (docs/engine-bugs/json-parse.js).
fn json_parse(text: JsString, ctx: &mut Context) -> Result<JsValue, JsValue> {
    boa_json::parse(&text, ctx).map_err(|e| webidl::own_error_value(e, ctx))
}

/// [Fully read](https://fetch.spec.whatwg.org/#body-fully-read) `stream`: read all bytes
/// with a default reader, then queue a task to settle `state`.
fn fully_read(
    stream: &JsObject<ReadableStream>,
    state: Gc<ConsumeState>,
    sink: Collected,
    ctx: &mut Context,
) {
    // 4. Let reader be the result of getting a reader for body's stream. If that threw an
    //    exception, then run errorSteps with that exception and return.
    let reader = match acquire_readable_stream_default_reader(stream, ctx) {
        Ok(r) => r,
        Err(e) => {
            let e = webidl::own_error_value(e, ctx);
            queue_settle(state, Err(e), ctx);
            return;
        }
    };
    // 5. Read all bytes from reader, given successSteps and errorSteps.
    let loop_state = Gc::new(ReadAllState {
        reader,
        bytes: RefCell::new(sink),
        reading: Cell::new(false),
        again: Cell::new(false),
        consume: state,
    });
    read_loop(&loop_state, ctx);
}

/// The successSteps / errorSteps of fully read: queue a task (on the relevant global's event
/// loop) that settles the consume body promise.
fn queue_settle(state: Gc<ConsumeState>, result: Result<Collected, JsValue>, ctx: &mut Context) {
    let job = GenericJob::new(
        move |ctx| {
            match result {
                Ok(bytes) => state.success(bytes, ctx),
                Err(e) => state.promise.reject(e, ctx),
            }
            Ok(JsValue::undefined())
        },
        ctx.realm().clone(),
    );
    ctx.enqueue_job(job.into());
}

/// [Read all bytes](https://streams.spec.whatwg.org/#readablestreamdefaultreader-read-all-bytes)'
/// state.
#[derive(Trace, Finalize)]
struct ReadAllState {
    reader: JsObject<ReadableStreamDefaultReader>,
    #[unsafe_ignore_trace]
    bytes: RefCell<Collected>,
    /// Set while a read is being requested: a chunk delivered synchronously asks the loop
    /// to go on instead of recursing.
    #[unsafe_ignore_trace]
    reading: Cell<bool>,
    #[unsafe_ignore_trace]
    again: Cell<bool>,
    consume: Gc<ConsumeState>,
}

/// [Read-loop](https://streams.spec.whatwg.org/#read-loop)
// NOTE: the non-recursive variant the spec's note allows: a chunk delivered while the read
// request is being made continues this loop instead of recursing (same reads, same order).
fn read_loop(state: &Gc<ReadAllState>, ctx: &mut Context) {
    loop {
        state.again.set(false);
        state.reading.set(true);
        // 1. Let readRequest be a new read request with the steps below.
        // 2. Perform ! ReadableStreamDefaultReaderRead(reader, readRequest).
        let request = ReadRequest::Native(Box::new(ReadAllRequest {
            state: state.clone(),
        }));
        let reader = state.reader.clone();
        readable_stream_default_reader_read(&reader, request, ctx);
        state.reading.set(false);
        if !state.again.get() {
            return;
        }
    }
}

/// The read request of [`read_loop`].
#[derive(Trace, Finalize)]
struct ReadAllRequest {
    state: Gc<ReadAllState>,
}

impl ReadRequestSteps for ReadAllRequest {
    fn chunk_steps(self: Box<Self>, chunk: JsValue, ctx: &mut Context) {
        // 1. If chunk is not a Uint8Array object, call failureSteps with a TypeError and
        //    abort these steps.
        let bytes = chunk.as_object().and_then(|o| {
            o.is::<boa_engine::builtins::typed_array::TypedArray>()
                .then(|| {
                    let view =
                        boa_streams::spec::to_array_buffer_view(&chunk, "chunk", ctx).ok()?;
                    matches!(
                        view.constructor,
                        boa_streams::spec::ViewConstructor::Typed(
                            boa_engine::builtins::typed_array::TypedArrayKind::Uint8
                        )
                    )
                    .then(|| buffer_source_copy(&chunk, ctx))
                    .flatten()
                })
                .flatten()
        });
        let Some(bytes) = bytes else {
            let e = webidl::type_error_value("The body's chunks must be Uint8Arrays", ctx);
            queue_settle(self.state.consume.clone(), Err(e), ctx);
            return;
        };
        // 2. Append the bytes represented by chunk to bytes.
        self.state.bytes.borrow_mut().push(bytes);
        // 3. Read-loop given reader, bytes, successSteps, and failureSteps.
        if self.state.reading.get() {
            self.state.again.set(true);
        } else {
            read_loop(&self.state, ctx);
        }
    }

    fn close_steps(self: Box<Self>, ctx: &mut Context) {
        // 1. Call successSteps with bytes.
        let bytes = std::mem::replace(
            &mut *self.state.bytes.borrow_mut(),
            Collected::Bytes(ByteSeq::new()),
        );
        queue_settle(self.state.consume.clone(), Ok(bytes), ctx);
    }

    fn error_steps(self: Box<Self>, e: JsValue, ctx: &mut Context) {
        // 1. Call failureSteps with e.
        queue_settle(self.state.consume.clone(), Err(e), ctx);
    }
}

/// The `body` getter: null or the body's stream.
pub(crate) fn body_attribute(holder: &Gc<BodyHolder>) -> JsResult<JsValue> {
    Ok(holder
        .body()
        .map_or(JsValue::null(), |b| b.stream.clone().upcast().into()))
}

/// The `bodyUsed` getter.
pub(crate) fn body_used_attribute(holder: &Gc<BodyHolder>) -> JsResult<JsValue> {
    Ok(body_used(holder).into())
}

/// An interface that includes the [Body mixin](https://fetch.spec.whatwg.org/#body-mixin):
/// how its members find the [`BodyHolder`] of `this` (a brand check).
pub(crate) trait BodyMixin {
    /// The holder of `this`, or the brand check's TypeError.
    fn holder_of(this: &JsValue) -> JsResult<Gc<BodyHolder>>;
}

/// [`body`](https://fetch.spec.whatwg.org/#dom-body-body): null or the body's stream.
fn body<T: BodyMixin>(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    body_attribute(&T::holder_of(this)?)
}

/// [`bodyUsed`](https://fetch.spec.whatwg.org/#dom-body-bodyused)
fn body_used_getter<T: BodyMixin>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    body_used_attribute(&T::holder_of(this)?)
}

/// The Body mixin's attributes (`body`, `bodyUsed`), which the including interface lists
/// after its own attributes.
pub(crate) const fn body_attribute_rows<T: BodyMixin>() -> [Member; 2] {
    [
        Member::attribute("body", body::<T>),
        Member::attribute("bodyUsed", body_used_getter::<T>),
    ]
}

/// A body-consuming operation of `T`: consume the body of `this` with `kind`; a failed brand
/// check is a rejected promise.
fn consume_operation<T: BodyMixin>(this: &JsValue, kind: Consume, ctx: &mut Context) -> JsValue {
    match T::holder_of(this) {
        Ok(h) => consume_body(&h, kind, ctx),
        Err(e) => webidl::promise_from_own_result(Err(e), ctx),
    }
}

/// [`arrayBuffer()`](https://fetch.spec.whatwg.org/#dom-body-arraybuffer)
fn array_buffer<T: BodyMixin>(
    this: &JsValue,
    _: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    Ok(consume_operation::<T>(this, Consume::ArrayBuffer, ctx))
}

/// [`blob()`](https://fetch.spec.whatwg.org/#dom-body-blob)
fn blob<T: BodyMixin>(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(consume_operation::<T>(this, Consume::Blob, ctx))
}

/// [`bytes()`](https://fetch.spec.whatwg.org/#dom-body-bytes)
fn bytes<T: BodyMixin>(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(consume_operation::<T>(this, Consume::Bytes, ctx))
}

/// [`formData()`](https://fetch.spec.whatwg.org/#dom-body-formdata)
fn form_data_operation<T: BodyMixin>(
    this: &JsValue,
    _: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    Ok(consume_operation::<T>(this, Consume::FormData, ctx))
}

/// [`json()`](https://fetch.spec.whatwg.org/#dom-body-json)
fn json<T: BodyMixin>(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(consume_operation::<T>(this, Consume::Json, ctx))
}

/// [`text()`](https://fetch.spec.whatwg.org/#dom-body-text)
fn text<T: BodyMixin>(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(consume_operation::<T>(this, Consume::Text, ctx))
}

/// The Body mixin's operations, which the including interface lists after its own
/// operations.
pub(crate) const fn body_operation_rows<T: BodyMixin>() -> [Member; 6] {
    [
        Member::operation("arrayBuffer", 0, array_buffer::<T>),
        Member::operation("blob", 0, blob::<T>),
        Member::operation("bytes", 0, bytes::<T>),
        Member::operation("formData", 0, form_data_operation::<T>),
        Member::operation("json", 0, json::<T>),
        Member::operation("text", 0, text::<T>),
    ]
}
