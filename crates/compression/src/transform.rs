//! What both streams' transform algorithms share: reading a chunk as a `BufferSource` and
//! enqueueing a codec's output pieces into the stream's transform.

use boa_engine::{
    object::builtins::{AlignedVec, JsArrayBuffer},
    Context, JsObject, JsResult, JsValue,
};

use boa_streams::spec::{
    to_array_buffer_view, transform_stream_default_controller_enqueue,
    transform_stream_default_controller_enqueue_chunk, Chunk, TransformStreamDefaultController,
    ViewConstructor,
};
use boa_webidl::type_error;

/// Convert a chunk to the WebIDL `BufferSource` type and copy its bytes (a TypeError unless it
/// is an ArrayBuffer or a view on one; SharedArrayBuffers and resizable buffers are rejected).
pub(crate) fn buffer_source_bytes(chunk: &JsValue, ctx: &mut Context) -> JsResult<Vec<u8>> {
    if let Some(buffer) = chunk
        .as_object()
        .and_then(|o| JsArrayBuffer::from_object(o.clone()).ok())
    {
        return Ok(buffer.data().map(|d| d.to_vec()).unwrap_or_default());
    }
    let view = to_array_buffer_view(chunk, "The chunk", ctx)
        .map_err(|_| type_error("The chunk is not a BufferSource"))?;
    let data = view.buffer.data();
    let start = usize::try_from(view.byte_offset).unwrap_or(usize::MAX);
    let end = start.saturating_add(usize::try_from(view.byte_length).unwrap_or(usize::MAX));
    Ok(data
        .as_ref()
        .and_then(|d| d.get(start..end))
        .map(<[u8]>::to_vec)
        .unwrap_or_default())
}

/// Enqueue each of `pieces` (the non-empty pieces a codec cut its output `buffer` into) as a
/// `Uint8Array` (nothing when there are none).
pub(crate) fn enqueue_pieces(
    pieces: Vec<AlignedVec<u8>>,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // If buffer is empty, return.
    // Let arrays be the result of splitting buffer into one or more non-empty pieces and
    // converting them into Uint8Arrays.
    // NOTE: the codec already split its output into non-empty pieces of at most
    // OUTPUT_CHUNK_BOUND bytes; each is converted just before it is enqueued, which nothing
    // can observe (the conversion runs no JS).
    // For each Uint8Array array of arrays, enqueue array in the stream's transform.
    for piece in pieces {
        if piece.is_empty() {
            continue;
        }
        // Fast paths: the piece stays Rust bytes in the readable side's queue and becomes its
        // Uint8Array only when it reaches script (see boa_streams::spec::Chunk); a pipe into a native
        // sink or a native transformer takes it without a JS object.
        if boa_webidl::fast_paths() {
            let chunk = Chunk::bytes(bytes::Bytes::copy_from_slice(&piece), ctx);
            transform_stream_default_controller_enqueue_chunk(controller, chunk, ctx)?;
            continue;
        }
        let len = piece.len() as u64;
        let array_buffer = boa_webidl::gc_pressure::new_array_buffer(piece, ctx)?;
        let array =
            ViewConstructor::Typed(boa_engine::builtins::typed_array::TypedArrayKind::Uint8)
                .construct(&array_buffer, 0, len, ctx)?;
        transform_stream_default_controller_enqueue(controller, array.into(), ctx)?;
    }
    Ok(())
}
