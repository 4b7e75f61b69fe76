//! # boa_compression
//!
//! The [Compression Standard](https://compression.spec.whatwg.org/): `CompressionStream` and
//! `DecompressionStream`, each a [`TransformStream`](boa_streams::spec::TransformStream) set up
//! from Rust whose transform and flush algorithms drive a streaming `flate2` (de)compressor
//! kept in Rust-side state.
//!
//! The modules: `format` (the `CompressionFormat` enumeration), `compressor` and
//! `decompressor` (the compression contexts, with `gzip`'s header parser, writing their output
//! as bounded `pieces`), `transform` (chunks in, pieces out), and the two interfaces,
//! `compression_stream` and `decompression_stream`. [`Decoder`] is the decompression context
//! for Rust callers.
//!
//! "deflate" is the ZLIB format (RFC 1950), "deflate-raw" the DEFLATE format (RFC 1951) and
//! "gzip" the GZIP format (RFC 1952); the GZIP framing (header, CRC-32, ISIZE) is done here
//! around a raw DEFLATE stream.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod compression_stream;
mod compressor;
mod decompression_stream;
mod decompressor;
mod format;
mod gzip;
mod pieces;
mod transform;

pub use compression_stream::CompressionStream;
pub use decompression_stream::DecompressionStream;
pub use decompressor::Decoder;

use boa_engine::{Context, JsResult};
use boa_webidl as webidl;

/// Register CompressionStream, DecompressionStream on the context's current realm, after what they depend on (registered
/// first if it is not there yet). Registering twice does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_streams::register(context)?;
    webidl::register_interface::<CompressionStream>(context)?;
    webidl::register_interface::<DecompressionStream>(context)?;
    Ok(())
}

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the Compression Standard (see [`register`]).
    CompressionExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
