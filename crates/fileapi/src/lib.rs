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

mod blob;
mod blob_data;
pub mod blob_url;
mod bytes;
mod file;
mod file_list;
mod objects;
mod parts;
mod reader;

pub use self::bytes::{
    array_buffer_from, buffer_source_copy, is_buffer_source, uint8_array_from, ByteSeq,
};
pub use blob::{blob_stream, utf8_decode, STREAM_CHUNK_SIZE};
pub use blob_data::Blob;
pub use file::FileInterface;
pub use file_list::FileList;
pub use objects::{
    blob_bytes, blob_deserialization_steps, blob_parts, blob_serialization_steps, create_blob,
    create_file, file_info, file_name, SerializedBlob,
};
pub use reader::FileReaderState;

use boa_engine::{Context, JsResult};
use boa_webidl::{self as webidl, type_error};

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
