//! The constructors' arguments: `sequence<BlobPart>`, the `BlobPropertyBag` and
//! `FilePropertyBag` dictionaries, and [process blob parts](https://w3c.github.io/FileAPI/#process-blob-parts).

use boa_engine::{js_string, Context, JsResult, JsSymbol, JsValue};
use boa_webidl::{self as webidl, type_error, Dictionary};

use crate::blob_data::{normalize_type_js, Blob};
use crate::bytes::{buffer_source_copy, ByteSeq};

/// The `endings` member of `BlobPropertyBag`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Endings {
    Transparent,
    Native,
}

/// `BlobPropertyBag` (and `FilePropertyBag`'s `lastModified`), members in lexicographic order.
pub(crate) struct PropertyBag {
    pub(crate) endings: Endings,
    pub(crate) last_modified: Option<i64>,
    pub(crate) type_: String,
}

pub(crate) fn convert_property_bag(
    value: &JsValue,
    file: bool,
    ctx: &mut Context,
) -> JsResult<PropertyBag> {
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
pub(crate) fn to_clamped_long_long(value: &JsValue, ctx: &mut Context) -> JsResult<i64> {
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
pub(crate) enum BlobPart {
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
pub(crate) fn to_blob_part_sequence(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<BlobPart>> {
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
pub(crate) fn process_blob_parts(parts: Vec<BlobPart>, endings: Endings) -> ByteSeq {
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
