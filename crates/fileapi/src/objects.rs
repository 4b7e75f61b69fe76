//! `Blob` and `File` objects made and read from Rust: by other crates (fetch, html's
//! structured clone, the host) and by the interfaces' own steps.

use boa_engine::{Context, JsObject, JsResult, JsString, JsValue};
use boa_webidl::type_error;

use crate::blob_data::{normalize_type, Blob, FileInfo};
use crate::bytes::ByteSeq;
use crate::file::FileInterface;

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
pub(crate) fn blob_object(
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
