//! The native data of a `Blob` (and of a `File`, which must pass `Blob`'s brand checks, so
//! carries the same data with its file slots), and the normalisation of a Blob's type.

use boa_engine::{JsData, JsObject, JsResult, JsString, JsValue};
use boa_gc::{Finalize, Trace};
use boa_webidl::brand;

use crate::bytes::ByteSeq;

/// A `File`'s extra slots.
#[derive(Clone, Debug)]
pub(crate) struct FileInfo {
    /// [name](https://w3c.github.io/FileAPI/#dfn-name).
    pub(crate) name: JsString,
    /// [lastModified](https://w3c.github.io/FileAPI/#dfn-lastModified).
    pub(crate) last_modified: i64,
}

/// The native data of a `Blob` (and of a `File`).
#[derive(Trace, Finalize, JsData)]
pub struct Blob {
    /// The blob's byte sequence ("snapshot state" is always readable here).
    #[unsafe_ignore_trace]
    pub(crate) bytes: ByteSeq,
    /// [type](https://w3c.github.io/FileAPI/#dfn-type): ASCII-lowercased, or empty.
    #[unsafe_ignore_trace]
    pub(crate) type_: String,
    /// The `File` slots, if this is a `File`.
    #[unsafe_ignore_trace]
    pub(crate) file: Option<FileInfo>,
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

pub(crate) fn this_blob(this: &JsValue) -> JsResult<JsObject<Blob>> {
    brand::<Blob>(this, "Blob")
}

pub(crate) fn blob_data<R>(blob: &JsObject<Blob>, f: impl FnOnce(&Blob) -> R) -> R {
    f(blob.borrow().data())
}

/// A Blob `type`: empty if it holds a character outside U+0020–U+007E, else ASCII
/// lowercased (constructor step 3, `slice()` step 4).
pub(crate) fn normalize_type(t: &str) -> String {
    if t.chars().any(|c| !('\u{20}'..='\u{7e}').contains(&c)) {
        return String::new();
    }
    t.to_ascii_lowercase()
}

/// The same for a `DOMString` (whose lone surrogates are outside the range too).
pub(crate) fn normalize_type_js(t: &JsString) -> String {
    match t.to_std_string() {
        Ok(s) => normalize_type(&s),
        Err(_) => String::new(),
    }
}
