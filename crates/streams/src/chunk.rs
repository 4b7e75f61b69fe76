//! A chunk in a default controller's or a writable stream's queue: a JS value, or the bytes
//! of a native byte chunk not yet turned into a `Uint8Array` (issue 11 item 4, native-to-native
//! pipes).
//!
//! An embedder's source enqueues [`bytes::Bytes`] through `native::enqueue_bytes`;
//! with the fast paths on they stay Rust bytes in the queue. Every way a chunk reaches script
//! goes through [`Chunk::into_js`] (one `Uint8Array` per chunk, made once, when the chunk
//! leaves the Rust side): a read request's chunk steps (reader `read()`, async iterator, tee,
//! an embedder's read request), a JS size algorithm, a JS sink's `write()`, a JS
//! transformer's `transform()`, a native sink or native transformer that does not take bytes.
//! Only pipeTo's read request, a native sink's `native::NativeSink::write_bytes`, a
//! TransformStream's writable side, the identity transform and the native transformers that
//! take bytes (`CompressionStream`, `DecompressionStream`: `RustTransformer::transform_bytes`,
//! and their output is enqueued as bytes) take the bytes as they are, so a native source piped
//! into a native sink, through such transforms, moves its chunks without a JS object per chunk.
//!
//! NOTE: the `Uint8Array` is created later than the spec creates it (at enqueue), but creating
//! it runs no script and nothing can observe the object before it leaves the Rust side: the
//! queues are internal slots. With the fast paths off, `enqueue_bytes` makes the `Uint8Array`
//! at once.

use boa_engine::{realm::Realm, Context, JsValue};
use boa_gc::{Finalize, Trace};
use bytes::Bytes;

/// A queued chunk.
#[derive(Debug, Clone, PartialEq, Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum Chunk {
    /// A JS value.
    Js(JsValue),
    /// Bytes that become a new `Uint8Array` (a copy) of the realm they were enqueued in when
    /// they reach script.
    Bytes(#[unsafe_ignore_trace] Bytes, Realm),
}

impl Chunk {
    /// The chunk as script sees it: a JS value as it is, bytes as a new `Uint8Array` holding a
    /// copy of them.
    pub fn into_js(self, ctx: &mut Context) -> JsValue {
        match self {
            Self::Js(v) => v,
            // NOTE: making the buffer fails only when the allocation does (the engine's
            // length limit is far above any Bytes the embedder holds); the chunk is then
            // undefined rather than a panic.
            Self::Bytes(b, realm) => {
                let old = ctx.enter_realm(realm);
                let array = boa_webidl::buffer_source::new_uint8_array(&b, ctx);
                ctx.enter_realm(old);
                array.map(JsValue::from).unwrap_or_default()
            }
        }
    }

    /// Bytes enqueued now (in the current realm).
    pub fn bytes(bytes: Bytes, ctx: &Context) -> Self {
        Self::Bytes(bytes, ctx.realm().clone())
    }
}

impl From<JsValue> for Chunk {
    fn from(value: JsValue) -> Self {
        Self::Js(value)
    }
}
