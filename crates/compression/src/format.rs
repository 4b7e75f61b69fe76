//! The [`CompressionFormat`](https://compression.spec.whatwg.org/#enumdef-compressionformat)
//! enumeration.

use boa_engine::{Context, JsResult, JsValue};
use boa_webidl::type_error;

/// The `CompressionFormat` enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompressionFormat {
    Deflate,
    DeflateRaw,
    Gzip,
}

impl CompressionFormat {
    /// The IDL enumeration conversion: ToString, then a TypeError unless it is one of the
    /// enumeration values.
    pub(crate) fn from_value(value: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let s = value.to_string(ctx)?.to_std_string_escaped();
        match s.as_str() {
            "deflate" => Ok(Self::Deflate),
            "deflate-raw" => Ok(Self::DeflateRaw),
            "gzip" => Ok(Self::Gzip),
            _ => Err(type_error(format!(
                "'{s}' is not a valid value for enumeration CompressionFormat"
            ))),
        }
    }
}
