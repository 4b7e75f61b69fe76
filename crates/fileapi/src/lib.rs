//! # boa_fileapi
//!
//! The [File API](https://w3c.github.io/FileAPI/): `Blob`, `File` and `FileReader`, and the
//! [blob URL store](blob_url) with `URL.createObjectURL`/`URL.revokeObjectURL` (on boa_url's
//! `URL`).
//!
//! A `Blob`'s bytes are a [`ByteSeq`]: a list of shared `bytes::Bytes` pieces, so
//! `slice()`, `new Blob([blob])` and `File`s built from Blobs share memory with their
//! sources. `File` instances carry the same native data as `Blob`s (Boa gives an object one
//! native data type, and a `File` must pass `Blob`'s brand checks), with a name and a
//! modification date.
//!
//! From Rust, [`create_blob`] makes a `Blob` from bytes and [`blob_bytes`] reads one:
//!
//! ```
//! use boa_engine::{Context, JsValue, Source};
//! use bytes::Bytes;
//!
//! let mut ctx = Context::default();
//! boa_fileapi::register(&mut ctx).unwrap();
//! let blob = boa_fileapi::create_blob(
//!     vec![Bytes::from_static(b"hello, "), Bytes::from_static(b"world")],
//!     "Text/Plain",
//!     &mut ctx,
//! )
//! .unwrap();
//! ctx.global_object()
//!     .set(boa_engine::js_string!("blob"), blob, false, &mut ctx)
//!     .unwrap();
//! let sliced = ctx
//!     .eval(Source::from_bytes("blob.slice(7, 12, 'text/x-word')"))
//!     .unwrap();
//! let bytes = boa_fileapi::blob_bytes(&sliced).unwrap();
//! assert_eq!(&bytes.to_bytes()[..], b"world");
//! let size = ctx.eval(Source::from_bytes("blob.size + ':' + blob.type")).unwrap();
//! assert_eq!(size.to_string(&mut ctx).unwrap().to_std_string_escaped(), "12:text/plain");
//! ```

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod blob_url;
mod bytes;
mod reader;
boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the File API (see [`register`]).
    FileApiExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    js_string,
    property::Attribute,
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsSymbol, JsValue,
    NativeFunction,
};
use boa_gc::{Finalize, Trace};

pub use self::bytes::{
    array_buffer_from, buffer_source_copy, is_buffer_source, uint8_array_from, ByteSeq,
};
pub use reader::FileReaderState;

use boa_streams::native::{
    native_readable_byte_stream, ByteController, ByteSource, ByteStreamOptions,
};
use boa_streams::spec::ReadableStream;
use boa_webidl::promise::Completion;
use boa_webidl::{self as webidl, arg, brand, type_error, Dictionary, INTERFACE_ATTRIBUTES};

/// The size of the chunks `Blob.stream()` enqueues when no BYOB request asks for less.
pub const STREAM_CHUNK_SIZE: usize = 64 * 1024;

/// Register Blob, File, FileList, FileReader and `URL.createObjectURL`/`revokeObjectURL` on the context's current realm, after what they depend on (registered
/// first if it is not there yet). Registering twice does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_streams::register(context)?;
    webidl::register_interface::<Blob>(context)?;
    webidl::register_interface::<FileInterface>(context)?;
    let blob = context
        .get_global_class::<Blob>()
        .ok_or_else(|| type_error("Blob is not registered"))?;
    let file = context
        .get_global_class::<FileInterface>()
        .ok_or_else(|| type_error("File is not registered"))?;
    // interface File : Blob
    file.prototype().set_prototype(Some(blob.prototype()));
    file.constructor().set_prototype(Some(blob.constructor()));
    webidl::register_interface::<FileList>(context)?;
    reader::register(context)?;
    // partial interface URL: createObjectURL, revokeObjectURL.
    blob_url::register(context)
}

/// A `File`'s extra slots.
#[derive(Clone, Debug)]
struct FileInfo {
    name: JsString,
    last_modified: i64,
}

/// The native data of a `Blob` (and of a `File`).
#[derive(Trace, Finalize, JsData)]
pub struct Blob {
    /// The blob's byte sequence ("snapshot state" is always readable here).
    #[unsafe_ignore_trace]
    bytes: ByteSeq,
    /// [type](https://w3c.github.io/FileAPI/#dfn-type): ASCII-lowercased, or empty.
    #[unsafe_ignore_trace]
    type_: String,
    /// The `File` slots, if this is a `File`.
    #[unsafe_ignore_trace]
    file: Option<FileInfo>,
}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blob")
            .field("size", &self.bytes.len())
            .field("type", &self.type_)
            .finish_non_exhaustive()
    }
}

impl Blob {
    /// The blob's bytes.
    pub fn bytes(&self) -> &ByteSeq {
        &self.bytes
    }

    /// The blob's type.
    pub fn content_type(&self) -> &str {
        &self.type_
    }
}

/// Make a `Blob` in the current realm holding `parts` (no copy of the bytes) with `type`
/// normalised as the constructor does.
pub fn create_blob(
    parts: impl IntoIterator<Item = ::bytes::Bytes>,
    content_type: &str,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let mut seq = ByteSeq::new();
    for p in parts {
        seq.push(p);
    }
    Ok(blob_object(seq, normalize_type(content_type), None, ctx)?.into())
}

/// Make a `File` in the current realm holding `bytes` (no copy) named `name`, with `type`
/// normalised as the constructor does and `lastModified` `last_modified` (milliseconds since
/// the Unix epoch; the current time when `None`).
///
/// ```
/// use boa_engine::{js_string, Context, Source};
/// use boa_fileapi::ByteSeq;
///
/// let mut ctx = Context::default();
/// boa_fileapi::register(&mut ctx).unwrap();
/// let bytes = ByteSeq::from_bytes(bytes::Bytes::from_static(b"abc"));
/// let file = boa_fileapi::create_file(bytes, "Text/Plain", js_string!("a.txt"), Some(7), &mut ctx)
///     .unwrap();
/// assert_eq!(boa_fileapi::file_name(&file), Some(js_string!("a.txt")));
/// ctx.global_object().set(js_string!("f"), file, false, &mut ctx).unwrap();
/// let v = ctx.eval(Source::from_bytes("f instanceof File && f.type + f.size + f.lastModified")).unwrap();
/// assert_eq!(v.to_string(&mut ctx).unwrap().to_std_string_escaped(), "text/plain37");
/// ```
pub fn create_file(
    bytes: ByteSeq,
    content_type: &str,
    name: JsString,
    last_modified: Option<i64>,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let last_modified = last_modified.unwrap_or_else(|| ctx.clock().system_time_millis());
    let file = FileInfo {
        name,
        last_modified,
    };
    Ok(blob_object(bytes, normalize_type(content_type), Some(file), ctx)?.into())
}

/// The name and `lastModified` of `value` if it is a `File`.
pub fn file_info(value: &JsValue) -> Option<(JsString, i64)> {
    let object = value.as_object()?;
    let blob = object.downcast_ref::<Blob>()?;
    blob.file
        .as_ref()
        .map(|f| (f.name.clone(), f.last_modified))
}

/// The name of `value` if it is a `File`.
pub fn file_name(value: &JsValue) -> Option<JsString> {
    file_info(value).map(|(name, _)| name)
}

/// The bytes of `value` if it is a `Blob` (or `File`); shares the blob's memory.
pub fn blob_bytes(value: &JsValue) -> Option<ByteSeq> {
    let object = value.as_object()?;
    let blob = object.downcast_ref::<Blob>()?;
    Some(blob.bytes.clone())
}

/// The bytes and type of `value` if it is a `Blob`.
pub fn blob_parts(value: &JsValue) -> Option<(ByteSeq, String)> {
    let object = value.as_object()?;
    let blob = object.downcast_ref::<Blob>()?;
    Some((blob.bytes.clone(), blob.type_.clone()))
}

/// A `Blob`'s (or `File`'s) serialized form for structured clone: plain `Send` data, the
/// bytes shared (the `Bytes` pieces are reference-counted, never copied).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerializedBlob {
    /// `[[ByteSequence]]`.
    pub bytes: ByteSeq,
    /// `[[Type]]`.
    pub type_: String,
    /// A `File`'s `[[Name]]` (UTF-16 code units) and `[[LastModified]]`.
    pub file: Option<(Vec<u16>, i64)>,
}

/// [Blob's](https://w3c.github.io/FileAPI/#blob-section) and
/// [File's](https://w3c.github.io/FileAPI/#file-section) serialization steps: `None` if
/// `object` is not a `Blob`.
pub fn blob_serialization_steps(object: &JsObject) -> Option<SerializedBlob> {
    let blob = object.downcast_ref::<Blob>()?;
    // 1. Set serialized.[[SnapshotState]] to value's snapshot state.
    // NOTE: the snapshot state is always "readable" here (no file system backs a Blob), so
    // it is not recorded. The type is kept as [[Type]]: the spec's steps omit
    // it but every engine (and WPT) keeps it.
    Some(SerializedBlob {
        // 2. Set serialized.[[ByteSequence]] to value's underlying byte sequence.
        bytes: blob.bytes.clone(),
        type_: blob.type_.clone(),
        // File 3. Set serialized.[[Name]] to value's name.
        // File 4. Set serialized.[[LastModified]] to value's lastModified.
        file: blob
            .file
            .as_ref()
            .map(|f| (f.name.iter().collect(), f.last_modified)),
    })
}

/// [Blob's](https://w3c.github.io/FileAPI/#blob-section) and
/// [File's](https://w3c.github.io/FileAPI/#file-section) deserialization steps: a new `Blob`
/// (or `File`) in the current realm.
pub fn blob_deserialization_steps(
    serialized: SerializedBlob,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    // 1. Set value's snapshot state to serialized.[[SnapshotState]] (always "readable").
    // 2. Set value's underlying byte sequence to serialized.[[ByteSequence]].
    // File 3. Initialize the value of value's name to serialized.[[Name]].
    // File 4. Initialize the value of value's lastModified to serialized.[[LastModified]].
    let file = serialized.file.map(|(name, last_modified)| FileInfo {
        name: JsString::from(name.as_slice()),
        last_modified,
    });
    blob_object(serialized.bytes, serialized.type_, file, ctx)
}

/// A new `Blob` (or `File`, with `file`) object in the current realm.
fn blob_object(
    bytes: ByteSeq,
    type_: String,
    file: Option<FileInfo>,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let proto = if file.is_some() {
        ctx.get_global_class::<FileInterface>()
    } else {
        ctx.get_global_class::<Blob>()
    }
    .ok_or_else(|| type_error("Blob is not registered in this realm"))?
    .prototype();
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        Blob { bytes, type_, file },
    ))
}

/// A Blob `type`: empty if it holds a character outside U+0020–U+007E, else ASCII
/// lowercased (constructor step 3, `slice()` step 4).
fn normalize_type(t: &str) -> String {
    if t.chars().any(|c| !('\u{20}'..='\u{7e}').contains(&c)) {
        return String::new();
    }
    t.to_ascii_lowercase()
}

/// The same for a `DOMString` (whose lone surrogates are outside the range too).
fn normalize_type_js(t: &JsString) -> String {
    match t.to_std_string() {
        Ok(s) => normalize_type(&s),
        Err(_) => String::new(),
    }
}

/// The `endings` member of `BlobPropertyBag`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endings {
    Transparent,
    Native,
}

/// `BlobPropertyBag` (and `FilePropertyBag`'s `lastModified`), members in lexicographic order.
struct PropertyBag {
    endings: Endings,
    last_modified: Option<i64>,
    type_: String,
}

fn convert_property_bag(value: &JsValue, file: bool, ctx: &mut Context) -> JsResult<PropertyBag> {
    let dict = Dictionary::new(value, "options")?;
    // endings: EndingType = "transparent" ("transparent" or "native", else TypeError).
    let endings = match dict.get(webidl::js_key!("endings"), ctx)? {
        None => Endings::Transparent,
        Some(v) => {
            let s = v.to_string(ctx)?;
            if s == js_string!("transparent") {
                Endings::Transparent
            } else if s == js_string!("native") {
                Endings::Native
            } else {
                return Err(type_error(format!(
                    "'{}' is not a valid value for enumeration EndingType",
                    s.to_std_string_escaped()
                )));
            }
        }
    };
    // lastModified: long long (File only).
    let last_modified = if file {
        match dict.get(webidl::js_key!("lastModified"), ctx)? {
            None => None,
            Some(v) => Some(to_long_long(&v, ctx)?),
        }
    } else {
        None
    };
    // type: DOMString = "".
    let type_ = match dict.get(webidl::js_key!("type"), ctx)? {
        None => String::new(),
        Some(v) => normalize_type_js(&v.to_string(ctx)?),
    };
    Ok(PropertyBag {
        endings,
        last_modified,
        type_,
    })
}

/// WebIDL `long long` conversion (ConvertToInt, 64 bits, signed, no extended attribute).
fn to_long_long(value: &JsValue, ctx: &mut Context) -> JsResult<i64> {
    let x = value.to_number(ctx)?;
    if !x.is_finite() || x == 0.0 {
        return Ok(0);
    }
    let x = x.trunc();
    // In the signed range, x modulo 2^64 taken back into the range is x itself (computed in
    // f64, a small negative x plus 2^64 would round to 2^64 and give 0).
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x) {
        return Ok(x as i64);
    }
    // Modulo 2^64 (exact in f64 for these magnitudes), then into the signed range.
    let m = x.rem_euclid(18_446_744_073_709_551_616.0);
    let m = if m >= 9_223_372_036_854_775_808.0 {
        m - 18_446_744_073_709_551_616.0
    } else {
        m
    };
    Ok(m as i64)
}

/// WebIDL `[Clamp] long long` conversion.
fn to_clamped_long_long(value: &JsValue, ctx: &mut Context) -> JsResult<i64> {
    let x = value.to_number(ctx)?;
    if x.is_nan() {
        return Ok(0);
    }
    let x = x.clamp(-9_223_372_036_854_775_808.0, 9_223_372_036_854_775_807.0);
    Ok(x.round_ties_even() as i64)
}

/// [Convert line endings to native](https://w3c.github.io/FileAPI/#convert-line-endings-to-native)
/// (the native line ending is `\n` on this platform).
fn convert_line_endings_to_native(s: &str) -> String {
    // 1. Let native line ending be the code point U+000A LF.
    // 2. (Not Windows.)
    // 3-8. Replace every CRLF pair and every lone CR by native line ending.
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// One converted `BlobPart`.
enum BlobPart {
    Bytes(::bytes::Bytes),
    Blob(ByteSeq),
    String(String),
}

/// Convert `value` to `(BufferSource or Blob or USVString)`.
fn to_blob_part(value: &JsValue, ctx: &mut Context) -> JsResult<BlobPart> {
    if let Some(object) = value.as_object() {
        if let Some(blob) = object.downcast_ref::<Blob>() {
            return Ok(BlobPart::Blob(blob.bytes.clone()));
        }
    }
    if let Some(bytes) = buffer_source_copy(value, ctx) {
        return Ok(BlobPart::Bytes(bytes));
    }
    // USVString: ToString, then lone surrogates become U+FFFD.
    Ok(BlobPart::String(
        value.to_string(ctx)?.to_std_string_lossy(),
    ))
}

/// Convert `value` to `sequence<BlobPart>` (WebIDL: iterate with `@@iterator`, converting
/// each value as it is produced).
fn to_blob_part_sequence(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<BlobPart>> {
    let Some(object) = value.as_object() else {
        return Err(type_error(
            "The provided value cannot be converted to a sequence",
        ));
    };
    // 1. Let method be ? GetMethod(V, @@iterator).
    let method = object.get(JsSymbol::iterator(), ctx)?;
    // 2. If method is undefined, throw a TypeError.
    let Some(method) = method.as_callable() else {
        if method.is_null_or_undefined() {
            return Err(type_error(
                "The provided value cannot be converted to a sequence",
            ));
        }
        return Err(type_error("@@iterator is not callable"));
    };
    // 3. Return the result of creating a sequence from V and method.
    webidl::create_sequence_from_iterable(value, &method, ctx, |part, ctx| to_blob_part(&part, ctx))
}

/// [Process blob parts](https://w3c.github.io/FileAPI/#process-blob-parts)
fn process_blob_parts(parts: Vec<BlobPart>, endings: Endings) -> ByteSeq {
    // 1. Let bytes be an empty sequence of bytes.
    let mut bytes = ByteSeq::new();
    // 2. For each element in parts:
    for part in parts {
        match part {
            // 1. If element is a USVString: let s be element; if endings is "native", set s
            //    to the result of converting line endings to native of element; append the
            //    result of UTF-8 encoding s to bytes.
            BlobPart::String(s) => {
                let s = if endings == Endings::Native {
                    convert_line_endings_to_native(&s)
                } else {
                    s
                };
                bytes.push(::bytes::Bytes::from(s.into_bytes()));
            }
            // 2. If element is a BufferSource, get a copy of the bytes held by the buffer
            //    source, and append those bytes to bytes.
            BlobPart::Bytes(b) => bytes.push(b),
            // 3. If element is a Blob, append the bytes it represents to bytes.
            BlobPart::Blob(seq) => bytes.extend(&seq),
        }
    }
    // 3. Return bytes.
    bytes
}

fn this_blob(this: &JsValue) -> JsResult<JsObject<Blob>> {
    brand::<Blob>(this, "Blob")
}

fn blob_data<R>(blob: &JsObject<Blob>, f: impl FnOnce(&Blob) -> R) -> R {
    f(blob.borrow().data())
}

/// [Get stream](https://w3c.github.io/FileAPI/#blob-get-stream): a byte `ReadableStream` over
/// `bytes`.
// NOTE: the spec reads the blob "in parallel" and enqueues every chunk in its own task,
// ignoring backpressure; here the stream's pull algorithm runs "pull from bytes" with chunks
// of at most STREAM_CHUNK_SIZE bytes (or the BYOB request's size). The chunk sizes and the
// timing are implementation-defined (the spec leaves them open).
pub fn blob_stream(bytes: ByteSeq, ctx: &mut Context) -> JsResult<JsObject<ReadableStream>> {
    // 1. Let stream be a new ReadableStream created in blob's relevant Realm.
    // 2. Set up stream with byte reading support (high water mark 0), its pull algorithm
    //    "pull from bytes" in Rust (a native byte source: no JS function objects, no
    //    trampoline).
    let state = BlobStreamState {
        remaining: RefCell::new(bytes),
    };
    native_readable_byte_stream(state, ByteStreamOptions::default(), ctx)
}

/// The bytes a `Blob.stream()` has not handed out yet.
#[derive(Trace, Finalize)]
struct BlobStreamState {
    #[unsafe_ignore_trace]
    remaining: RefCell<ByteSeq>,
}

impl ByteSource for BlobStreamState {
    /// [Pull from bytes](https://streams.spec.whatwg.org/#readablestream-pull-from-bytes), or
    /// [close](https://streams.spec.whatwg.org/#readablestream-close) once every byte went.
    fn pull(&self, controller: &ByteController, ctx: &mut Context) -> Completion {
        // (No borrow of `remaining` lives across a controller call: those can run script.)
        if self.remaining.borrow().is_empty() {
            let closed = controller.close(ctx);
            return Completion::from_result(closed, ctx);
        }
        // 1-4. available; desiredSize is the current BYOB request view's byte length if
        //      there is one.
        let request = controller.byob_request();
        let desired = request.map_or(STREAM_CHUNK_SIZE, |r| r.remaining);
        // 5-7. pulled = the first min(available, desiredSize) bytes, removed from bytes.
        let pulled = self.remaining.borrow_mut().take_front(desired);
        let result = match request {
            // 8. Write pulled into the current BYOB request view, then respond.
            Some(_) => controller
                .fill(
                    |view| match view.get_mut(..pulled.len()) {
                        Some(to) => {
                            to.copy_from_slice(&pulled);
                            pulled.len()
                        }
                        None => 0,
                    },
                    ctx,
                )
                .map(drop),
            // 9. Otherwise enqueue a new Uint8Array of pulled.
            None => controller.enqueue(&pulled, ctx),
        };
        Completion::from_result(result, ctx)
    }

    fn cancel(&self, _reason: JsValue, _ctx: &mut Context) -> Completion {
        *self.remaining.borrow_mut() = ByteSeq::new();
        Completion::undefined()
    }
}

/// A promise-returning Blob method: `steps` gets the blob's bytes and type.
fn blob_promise_method(
    this: &JsValue,
    ctx: &mut Context,
    steps: fn(ByteSeq, &mut Context) -> JsResult<JsValue>,
) -> JsValue {
    let result = this_blob(this).map(|b| blob_data(&b, |d| d.bytes.clone()));
    let result = result.and_then(|bytes| steps(bytes, ctx));
    let result = result.map(|v| boa_webidl::promise::promise_resolved_with(v, ctx).into());
    webidl::promise_from_own_result(result, ctx)
}

/// UTF-8 decode (BOM stripped, replacement on errors).
pub fn utf8_decode(bytes: &[u8]) -> JsString {
    let (text, _) = encoding_rs::UTF_8.decode_with_bom_removal(bytes);
    JsString::from(&*text)
}

impl Class for Blob {
    const NAME: &'static str = "Blob";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "size",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let b = this_blob(this)?;
                // Return this's size.
                Ok(JsValue::from(blob_data(&b, |d| d.bytes.len()) as f64))
            }),
            None,
        );
        webidl::attribute(
            class,
            "type",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let b = this_blob(this)?;
                // Return this's type.
                Ok(JsString::from(blob_data(&b, |d| d.type_.clone()).as_str()).into())
            }),
            None,
        );
        webidl::operation(
            class,
            "slice",
            0,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let b = this_blob(this)?;
                // IDL: optional [Clamp] long long start, optional [Clamp] long long end,
                // optional DOMString contentType.
                let start = match arg(args, 0) {
                    v if v.is_undefined() => None,
                    v => Some(to_clamped_long_long(&v, ctx)?),
                };
                let end = match arg(args, 1) {
                    v if v.is_undefined() => None,
                    v => Some(to_clamped_long_long(&v, ctx)?),
                };
                let content_type = match arg(args, 2) {
                    v if v.is_undefined() => None,
                    v => Some(v.to_string(ctx)?),
                };
                // 1. Let sliceStart, sliceEnd and sliceContentType be start, end, contentType.
                // 2. Return the result of slice blob given this, start, end, contentType.
                let bytes = blob_data(&b, |d| d.bytes.clone());
                let seq = slice_blob(&bytes, start, end);
                let type_ = content_type.map_or_else(String::new, |t| normalize_type_js(&t));
                Ok(blob_object(seq, type_, None, ctx)?.into())
            }),
        );
        webidl::operation(
            class,
            "stream",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let b = this_blob(this)?;
                // Return the result of calling get stream on this.
                let bytes = blob_data(&b, |d| d.bytes.clone());
                Ok(blob_stream(bytes, ctx)?.upcast().into())
            }),
        );
        webidl::operation(
            class,
            "text",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                // 1-5. Read all bytes from the blob's stream, then UTF-8 decode them.
                // NOTE: the stream is internal and unobservable; the bytes are read directly.
                Ok(blob_promise_method(this, ctx, |bytes, _| {
                    Ok(utf8_decode(&bytes.to_vec()).into())
                }))
            }),
        );
        webidl::operation(
            class,
            "arrayBuffer",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                // Resolve with a new ArrayBuffer whose contents are the bytes.
                Ok(blob_promise_method(this, ctx, |bytes, ctx| {
                    Ok(JsValue::from(array_buffer_from(&bytes, ctx)?))
                }))
            }),
        );
        webidl::operation(
            class,
            "bytes",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                // Resolve with a new Uint8Array over a new ArrayBuffer of the bytes.
                Ok(blob_promise_method(this, ctx, |bytes, ctx| {
                    Ok(uint8_array_from(&bytes, ctx)?.into())
                }))
            }),
        );
        webidl::to_string_tag(class, "Blob");
        Ok(())
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // IDL: optional sequence<BlobPart> blobParts, optional BlobPropertyBag options = {}.
        let parts = match arg(args, 0) {
            v if v.is_undefined() => Vec::new(),
            v => to_blob_part_sequence(&v, ctx)?,
        };
        let options = convert_property_bag(&arg(args, 1), false, ctx)?;
        // 1. If invoked with zero parameters, return a new Blob of size 0 and type "".
        // 2. Let bytes be the result of processing blob parts given blobParts and options.
        let bytes = process_blob_parts(parts, options.endings);
        // 3. If the type member of options is not empty: t = type, emptied if it has a
        //    character outside U+0020–U+007E, else ASCII lowercased.
        // 4. Return a Blob referring to bytes, with size its length and type t.
        Ok(Self {
            bytes,
            type_: options.type_,
            file: None,
        })
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::construct_converted::<Self>(new_target, args, ctx)
    }
}

/// [Slice blob](https://w3c.github.io/FileAPI/#slice-blob)'s byte range steps.
fn slice_blob(bytes: &ByteSeq, start: Option<i64>, end: Option<i64>) -> ByteSeq {
    // 1. Let originalSize be blob's size.
    let size = i128::from(bytes.len());
    // 2. relativeStart: 0 if start is not given; max(originalSize + start, 0) if negative;
    //    else min(start, originalSize).
    let relative = |v: i64| {
        let v = i128::from(v);
        if v < 0 {
            (size + v).max(0)
        } else {
            v.min(size)
        }
    };
    let relative_start = start.map_or(0, relative);
    // 3. relativeEnd: originalSize if end is not given; likewise otherwise.
    let relative_end = end.map_or(size, relative);
    // 5. Let span be max((relativeEnd - relativeStart), 0).
    let span = (relative_end - relative_start).max(0);
    // 6. Return a new Blob of the span bytes from relativeStart.
    let from = u64::try_from(relative_start).unwrap_or(0);
    let to = u64::try_from(relative_start + span).unwrap_or(0);
    bytes.slice(from, to)
}

/// The `File` interface object (instances carry [`Blob`] data with file slots).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct FileInterface;

fn this_file(this: &JsValue) -> JsResult<JsObject<Blob>> {
    let b = brand::<Blob>(this, "File")?;
    if blob_data(&b, |d| d.file.is_none()) {
        return Err(type_error("'this' is not a File object"));
    }
    Ok(b)
}

impl Class for FileInterface {
    const NAME: &'static str = "File";
    const LENGTH: usize = 2;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "name",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let f = this_file(this)?;
                Ok(blob_data(&f, |d| d.file.as_ref().map(|i| i.name.clone()))
                    .unwrap_or_default()
                    .into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "lastModified",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let f = this_file(this)?;
                let ms = blob_data(&f, |d| d.file.as_ref().map_or(0, |i| i.last_modified));
                Ok(JsValue::from(ms as f64))
            }),
            None,
        );
        webidl::to_string_tag(class, "File");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::require_new(new_target, "File")?;
        if args.len() < 2 {
            return Err(JsNativeError::typ()
                .with_message(format!(
                    "Failed to construct 'File': 2 arguments required, but only {} present.",
                    args.len()
                ))
                .into());
        }
        // IDL: sequence<BlobPart> fileBits, USVString fileName, optional FilePropertyBag.
        let parts = webidl::limits_catchable(to_blob_part_sequence(&arg(args, 0), ctx))?;
        let name = webidl::limits_catchable(arg(args, 1).to_string(ctx))?;
        let name = JsString::from(name.to_std_string_lossy().as_str());
        let options = webidl::limits_catchable(convert_property_bag(&arg(args, 2), true, ctx))?;
        // 1. Let bytes be the result of processing blob parts given fileBits and options.
        let bytes = process_blob_parts(parts, options.endings);
        // 2. Let n be the fileName argument.
        // 3. Process FilePropertyBag: type t (as for Blob); d = lastModified if given, else
        //    the current date and time in milliseconds since the Unix Epoch.
        let last_modified = options
            .last_modified
            .unwrap_or_else(|| ctx.clock().system_time_millis());
        // 4. Return a new File object F referring to bytes, with size, name n, type t and
        //    lastModified d.
        let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;
        Ok(JsObject::from_proto_and_data(
            Some(proto),
            Blob {
                bytes,
                type_: options.type_,
                file: Some(FileInfo {
                    name,
                    last_modified,
                }),
            },
        ))
    }
}

/// The [`FileList`](https://w3c.github.io/FileAPI/#filelist-section) interface. Only file
/// inputs and drag-and-drop make instances, which no host here has; the interface object
/// exists (not constructible) for the script that tests for it.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct FileList {
    files: Vec<JsObject>,
}

impl Class for FileList {
    const NAME: &'static str = "FileList";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "length",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let list = brand::<FileList>(this, "FileList")?;
                let len = list.borrow().data().files.len();
                Ok(JsValue::from(len as f64))
            }),
            None,
        );
        webidl::operation(
            class,
            "item",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let list = brand::<FileList>(this, "FileList")?;
                if args.is_empty() {
                    return Err(type_error(
                        "Failed to execute 'item' on 'FileList': 1 argument required, but only 0 present.",
                    ));
                }
                // unsigned long index: ToNumber, then modulo 2^32.
                let n = arg(args, 0).to_number(ctx)?;
                let index = if n.is_finite() {
                    n.trunc().rem_euclid(4_294_967_296.0) as usize
                } else {
                    0
                };
                // Return the indexth File object in the list, or null.
                let file = list.borrow().data().files.get(index).cloned();
                Ok(file.map_or(JsValue::null(), Into::into))
            }),
        );
        webidl::to_string_tag(class, "FileList");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}
