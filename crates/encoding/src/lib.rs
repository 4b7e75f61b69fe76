//! # boa_encoding
//!
//! The [Encoding Standard](https://encoding.spec.whatwg.org/)'s interfaces: `TextDecoder`
//! (`text_decoder`), `TextEncoder` (`text_encoder`), and its streams
//! ([§ 7.3 and § 7.4](https://encoding.spec.whatwg.org/#interface-textdecoderstream)):
//! `TextDecoderStream` (`decoder_stream`) and `TextEncoderStream` (`encoder_stream`).
//! `TextDecoder` and `TextDecoderStream` share the `TextDecoderCommon` state and attributes
//! (`decoder`).
//!
//! Each stream owns a `TransformStream` [set up](https://streams.spec.whatwg.org/#transformstream-set-up)
//! from Rust ([`transform_stream_set_up`](boa_streams::spec::transform_stream_set_up)) whose
//! transform and flush algorithms are native functions running the "decode and enqueue a
//! chunk" / "flush and enqueue" and "encode and enqueue a chunk" / "encode and flush"
//! algorithms; both streams include the `GenericTransformStream` mixin of boa_streams. Labels
//! and decoders come from `encoding_rs`, which implements the Encoding Standard's encodings;
//! the encoder (UTF-8 only) is written here, with the pending leading surrogate carried
//! between chunks.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod decoder;
mod decoder_stream;
mod encoder_stream;
mod text_decoder;
mod text_encoder;
mod transform;

pub use decoder_stream::TextDecoderStream;
pub use encoder_stream::TextEncoderStream;
pub use text_decoder::TextDecoder;
pub use text_encoder::TextEncoder;

use boa_engine::{Context, JsResult};
use boa_webidl as webidl;

/// Register TextEncoder, TextDecoder, TextEncoderStream, TextDecoderStream on the context's current realm, after what they depend on (registered
/// first if it is not there yet). Registering twice does nothing the second time.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_streams::register(context)?;
    webidl::register_interface::<TextDecoder>(context)?;
    webidl::register_interface::<TextEncoder>(context)?;
    webidl::register_interface::<TextDecoderStream>(context)?;
    webidl::register_interface::<TextEncoderStream>(context)?;
    Ok(())
}

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the Encoding Standard (see [`register`]).
    EncodingExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
