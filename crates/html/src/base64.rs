//! HTML's [`atob()` and `btoa()`](https://html.spec.whatwg.org/multipage/webappapis.html#atob)
//! with the Infra Standard's forgiving-base64 encode and decode. (boa_runtime 0.22's
//! versions skip the `DOMString` conversion of their argument and throw a plain `Error`
//! instead of an "InvalidCharacterError" `DOMException`; [`register`](crate::register)
//! installs these in their place.)

use boa_engine::property::Attribute;
use boa_engine::{Context, JsError, JsNativeError, JsResult, JsString, JsValue};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn invalid_character(message: &str, context: &mut Context) -> JsError {
    match boa_dom::create_dom_exception(message, "InvalidCharacterError", context) {
        Ok(value) => JsError::from_opaque(value),
        Err(e) => e,
    }
}

/// The `DOMString` argument, or a TypeError when it is missing.
fn string_argument(args: &[JsValue], name: &str, context: &mut Context) -> JsResult<JsString> {
    match args.first() {
        Some(v) => v.to_string(context),
        None => Err(JsNativeError::typ()
            .with_message(format!("{name}: 1 argument required, but only 0 present"))
            .into()),
    }
}

/// [Forgiving-base64 encode](https://infra.spec.whatwg.org/#forgiving-base64-encode).
pub(crate) fn forgiving_base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let index = ((n >> (18 - 6 * i)) & 0x3F) as usize;
                out.push(char::from(ALPHABET.get(index).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// [Forgiving-base64 decode](https://infra.spec.whatwg.org/#forgiving-base64-decode):
/// `None` is failure.
pub(crate) fn forgiving_base64_decode(data: &JsString) -> Option<Vec<u8>> {
    // 1. Remove all ASCII whitespace from data.
    let mut units: Vec<u16> = data
        .iter()
        .filter(|&u| !matches!(u, 0x09 | 0x0A | 0x0C | 0x0D | 0x20))
        .collect();
    // 2. If data's code point length divides by 4 leaving no remainder, then: if data ends
    //    with one or two U+003D (=) code points, then remove them from data.
    // NOTE: a non-ASCII code unit fails step 4 anyway, so code units count as code points.
    if units.len().is_multiple_of(4) {
        for _ in 0..2 {
            if units.last() == Some(&u16::from(b'=')) {
                units.pop();
            }
        }
    }
    // 3. If data's code point length divides by 4 leaving a remainder of 1, return failure.
    if units.len() % 4 == 1 {
        return None;
    }
    // 4. If data contains a code point that is not one of U+002B (+), U+002F (/), ASCII
    //    alphanumeric, then return failure.
    // 5-8. Let output be an empty byte sequence, buffer an empty buffer that can have bits
    //    appended to it; for each code point: find its index n in the alphabet, append the
    //    six bits of n to buffer, and when buffer has 24 bits, append three bytes.
    let mut output = Vec::with_capacity(units.len() / 4 * 3 + 2);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for unit in units {
        let n = u8::try_from(unit)
            .ok()
            .and_then(|b| ALPHABET.iter().position(|&a| a == b))?;
        buffer = (buffer << 6) | n as u32;
        bits += 6;
        if bits == 24 {
            output.extend_from_slice(&[(buffer >> 16) as u8, (buffer >> 8) as u8, buffer as u8]);
            buffer = 0;
            bits = 0;
        }
    }
    // 9. If buffer is not empty (12 or 18 bits): discard the last 4 (2) bits and append one
    //    (two) bytes.
    match bits {
        12 => output.push((buffer >> 4) as u8),
        18 => output.extend_from_slice(&[(buffer >> 10) as u8, (buffer >> 2) as u8]),
        _ => {}
    }
    Some(output)
}

/// [`btoa(data)`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-btoa)
fn btoa(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let data = string_argument(args, "btoa", context)?;
    // 1. If data contains any code point whose value is greater than U+00FF, then throw an
    //    "InvalidCharacterError" DOMException.
    let mut bytes = Vec::with_capacity(data.len());
    for unit in data.iter() {
        match u8::try_from(unit) {
            Ok(b) => bytes.push(b),
            Err(_) => {
                return Err(invalid_character(
                    "btoa: the string contains characters outside of the Latin1 range",
                    context,
                ))
            }
        }
    }
    // 2. Let byteSequence be an isomorphic encoded data.
    // 3. Return the result of running forgiving-base64 encode on byteSequence.
    Ok(JsString::from(forgiving_base64_encode(&bytes).as_str()).into())
}

/// [`atob(data)`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-atob)
fn atob(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let data = string_argument(args, "atob", context)?;
    // 1. Let decodedData be the result of running forgiving-base64 decode on data.
    // 2. If decodedData is failure, then throw an "InvalidCharacterError" DOMException.
    let Some(decoded) = forgiving_base64_decode(&data) else {
        return Err(invalid_character(
            "atob: the string to be decoded is not correctly encoded",
            context,
        ));
    };
    // 3. Return decodedData (isomorphic decoded: each byte one code unit).
    let units: Vec<u16> = decoded.into_iter().map(u16::from).collect();
    Ok(JsString::from(units.as_slice()).into())
}

/// Install `atob` and `btoa` on the global object (WebIDL operations: writable, enumerable,
/// configurable, length 1), replacing any there. [`register`](crate::register) does; a host
/// that wants them among its own first globals calls this before it (installing them again
/// keeps their place among the global's properties).
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_html::base64::register(&mut context).unwrap();
/// let text = context.eval(Source::from_bytes("atob(btoa('hi'))")).unwrap();
/// assert_eq!(text.as_string().unwrap().to_std_string_escaped(), "hi");
/// ```
pub fn register(context: &mut Context) -> JsResult<()> {
    for (name, f) in [
        (
            "atob",
            atob as boa_engine::native_function::NativeFunctionPointer,
        ),
        ("btoa", btoa),
    ] {
        let function = boa_engine::object::FunctionObjectBuilder::new(
            context.realm(),
            boa_engine::NativeFunction::from_fn_ptr(f),
        )
        .name(JsString::from(name))
        .length(1)
        .build();
        context.register_global_property(JsString::from(name), function, Attribute::all())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_padding() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"\xff\xfe\x00", "//4A"),
        ] {
            assert_eq!(forgiving_base64_encode(bytes), text);
            assert_eq!(
                forgiving_base64_decode(&JsString::from(text)).as_deref(),
                Some(bytes)
            );
        }
        // Whitespace anywhere, padding optional, non-zero padding bits accepted.
        assert_eq!(
            forgiving_base64_decode(&JsString::from(" Z m\n8 ")).as_deref(),
            Some(&b"fo"[..])
        );
        assert_eq!(
            forgiving_base64_decode(&JsString::from("Zh")).as_deref(),
            Some(&b"f"[..])
        );
        for bad in ["a", "ab=", "a===", "==", "ab==c", "Zm9v!", "\u{10000}"] {
            assert_eq!(forgiving_base64_decode(&JsString::from(bad)), None, "{bad}");
        }
    }
}
