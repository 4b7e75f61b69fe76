//! The [Compression Standard](https://compression.spec.whatwg.org/): `CompressionStream` and
//! `DecompressionStream`, each a [`TransformStream`] set up from Rust whose transform and flush
//! algorithms drive a streaming `flate2` (de)compressor kept in Rust-side state.
//!
//! "deflate" is the ZLIB format (RFC 1950), "deflate-raw" the DEFLATE format (RFC 1951) and
//! "gzip" the GZIP format (RFC 1952); the GZIP framing (header, CRC-32, ISIZE) is done here
//! around a raw DEFLATE stream.

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::{AlignedVec, JsArrayBuffer},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};
use flate2::{Compress, Compression, Crc, Decompress, FlushCompress, FlushDecompress, Status};

use crate::readable::{to_array_buffer_view, ViewConstructor};
use crate::transform::{
    transform_stream_default_controller_enqueue, transform_stream_set_up, RustTransformer,
    TransformStream, TransformStreamDefaultController,
};
use crate::webidl::{self, arg, brand, type_error, INTERFACE_ATTRIBUTES};

/// Register `CompressionStream` and `DecompressionStream`.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    context.register_global_class::<CompressionStream>()?;
    context.register_global_class::<DecompressionStream>()?;
    Ok(())
}

/// Output grows by at least this much per (de)compressor call.
const OUTPUT_STEP: usize = 64 * 1024;

/// The `CompressionFormat` enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CompressionFormat {
    Deflate,
    DeflateRaw,
    Gzip,
}

impl CompressionFormat {
    /// The IDL enumeration conversion: ToString, then a TypeError unless it is one of the
    /// enumeration values.
    fn from_value(value: &JsValue, ctx: &mut Context) -> JsResult<Self> {
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

/// Convert a chunk to the WebIDL `BufferSource` type and copy its bytes (a TypeError unless it
/// is an ArrayBuffer or a view on one; SharedArrayBuffers and resizable buffers are rejected).
fn buffer_source_bytes(chunk: &JsValue, ctx: &mut Context) -> JsResult<Vec<u8>> {
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

/// Split `buffer` into non-empty pieces converted to `Uint8Array`s and enqueue each (nothing for
/// an empty buffer).
fn enqueue_bytes(
    buffer: Vec<u8>,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // If buffer is empty, return.
    if buffer.is_empty() {
        return Ok(());
    }
    // Let arrays be the result of splitting buffer into one or more non-empty pieces and
    // converting them into Uint8Arrays.
    // NOTE: one piece: the whole buffer.
    let len = buffer.len() as u64;
    let array_buffer = JsArrayBuffer::from_byte_block(AlignedVec::from_iter(0, buffer), ctx)?;
    let array = ViewConstructor::Typed(boa_engine::builtins::typed_array::TypedArrayKind::Uint8)
        .construct(&array_buffer, 0, len, ctx)?;
    // For each Uint8Array array of arrays, enqueue array in the stream's transform.
    transform_stream_default_controller_enqueue(controller, array.into(), ctx)
}

// ---------------------------------------------------------------------------------------
// Compression
// ---------------------------------------------------------------------------------------

/// A compression context.
struct Compressor {
    format: CompressionFormat,
    deflate: Compress,
    /// GZIP: whether the header has been written, and the running CRC-32 / size of the input.
    header_written: bool,
    crc: Crc,
}

impl Compressor {
    fn new(format: CompressionFormat) -> Self {
        Self {
            format,
            deflate: Compress::new(Compression::default(), format == CompressionFormat::Deflate),
            header_written: false,
            crc: Crc::new(),
        }
    }

    /// Compress `input` (all of it), finishing the stream when `finish` is set.
    fn compress(&mut self, input: &[u8], finish: bool) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        if self.format == CompressionFormat::Gzip {
            if !self.header_written {
                // ID1 ID2 CM FLG MTIME(4) XFL OS (255 = unknown).
                out.extend_from_slice(&[31, 139, 8, 0, 0, 0, 0, 0, 0, 255]);
                self.header_written = true;
            }
            self.crc.update(input);
        }
        let flush = if finish {
            FlushCompress::Finish
        } else {
            FlushCompress::None
        };
        let mut rest = input;
        loop {
            if out.capacity() - out.len() < OUTPUT_STEP {
                out.reserve(OUTPUT_STEP);
            }
            let before_in = self.deflate.total_in();
            let before_out = self.deflate.total_out();
            let status = self
                .deflate
                .compress_vec(rest, &mut out, flush)
                .map_err(|e| e.to_string())?;
            let consumed = usize::try_from(self.deflate.total_in() - before_in).unwrap_or(0);
            rest = rest.get(consumed..).unwrap_or_default();
            let produced = self.deflate.total_out() - before_out;
            let output_full = out.len() == out.capacity();
            match status {
                Status::StreamEnd => break,
                _ if finish => {}
                _ if rest.is_empty() && !output_full => break,
                _ => {}
            }
            if consumed == 0 && produced == 0 && !output_full && !finish {
                break;
            }
        }
        if finish && self.format == CompressionFormat::Gzip {
            out.extend_from_slice(&self.crc.sum().to_le_bytes());
            out.extend_from_slice(&self.crc.amount().to_le_bytes());
        }
        Ok(out)
    }
}

/// The Rust-side state of a `CompressionStream`'s transform.
#[derive(Trace, Finalize, JsData)]
struct CompressorState {
    #[unsafe_ignore_trace]
    context: RefCell<Compressor>,
}

fn with_compressor<R>(state: &JsValue, f: impl FnOnce(&mut Compressor) -> R) -> JsResult<R> {
    let object = state
        .as_object()
        .and_then(|o| o.clone().downcast::<CompressorState>().ok())
        .ok_or_else(|| type_error("Invalid compression state"))?;
    let data = object.borrow();
    let mut context = data
        .data()
        .context
        .try_borrow_mut()
        .map_err(|_| type_error("The compressor is busy"))?;
    Ok(f(&mut context))
}

/// [Compress and enqueue a chunk](https://compression.spec.whatwg.org/#compress-and-enqueue-a-chunk)
fn compress_and_enqueue_a_chunk(
    state: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If chunk is not a BufferSource type, then throw a TypeError.
    let input = buffer_source_bytes(&chunk, ctx)?;
    // 2. Let buffer be the result of compressing chunk with cs's format and context.
    let buffer = with_compressor(state, |c| c.compress(&input, false))?.map_err(type_error)?;
    // 3-5. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_bytes(buffer, controller, ctx)
}

/// [Compress flush and enqueue](https://compression.spec.whatwg.org/#compress-flush-and-enqueue)
fn compress_flush_and_enqueue(
    state: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let buffer be the result of compressing an empty input with cs's format and context,
    //    with the finish flag.
    let buffer = with_compressor(state, |c| c.compress(&[], true))?.map_err(type_error)?;
    // 2-4. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_bytes(buffer, controller, ctx)
}

/// A `CompressionStream` object's internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct CompressionStream {
    /// `[[transform]]` (GenericTransformStream).
    transform: JsObject<TransformStream>,
}

impl std::fmt::Debug for CompressionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompressionStream").finish_non_exhaustive()
    }
}

/// Install the `readable` / `writable` attributes of GenericTransformStream.
fn generic_transform_stream_attributes(
    class: &mut ClassBuilder<'_>,
    transform_of: fn(&JsValue) -> JsResult<JsObject<TransformStream>>,
) {
    webidl::attribute(
        class,
        "readable",
        NativeFunction::from_copy_closure(move |this, _, _| {
            // The readable getter steps are to return this's transform.[[readable]].
            let t = transform_of(this)?;
            let readable = t.borrow().data().readable();
            Ok(readable.map_or_else(JsValue::undefined, |r| r.upcast().into()))
        }),
        None,
    );
    webidl::attribute(
        class,
        "writable",
        NativeFunction::from_copy_closure(move |this, _, _| {
            // The writable getter steps are to return this's transform.[[writable]].
            let t = transform_of(this)?;
            let writable = t.borrow().data().writable();
            Ok(writable.map_or_else(JsValue::undefined, JsValue::from))
        }),
        None,
    );
}

impl Class for CompressionStream {
    const NAME: &'static str = "CompressionStream";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        generic_transform_stream_attributes(class, |this| {
            let s = brand::<CompressionStream>(this, "CompressionStream")?;
            let t = s.borrow().data().transform.clone();
            Ok(t)
        });
        webidl::to_string_tag(class, "CompressionStream");
        Ok(())
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        crate::webidl::limits_catchable((|| -> JsResult<Self> {
            if args.is_empty() {
                return Err(type_error(
                    "Failed to construct 'CompressionStream': 1 argument required",
                ));
            }
            // 1. If format is unsupported in CompressionStream, then throw a TypeError.
            // 2. Set this's format to format.
            let format = CompressionFormat::from_value(&arg(args, 0), ctx)?;
            let state = JsObject::from_proto_and_data(
                None,
                CompressorState {
                    context: RefCell::new(Compressor::new(format)),
                },
            );
            // 3. Let transformAlgorithm be an algorithm which takes a chunk argument and runs the
            //    compress and enqueue a chunk algorithm with this and chunk.
            // 4. Let flushAlgorithm be an algorithm which takes no argument and runs the compress
            //    flush and enqueue algorithm with this.
            // 5. Set this's transform to a new TransformStream.
            // 6. Set up this's transform with transformAlgorithm set to transformAlgorithm and
            //    flushAlgorithm set to flushAlgorithm.
            let transform = transform_stream_set_up(
                state.upcast().into(),
                RustTransformer {
                    transform: compress_and_enqueue_a_chunk,
                    flush: compress_flush_and_enqueue,
                },
                ctx,
            )?;
            Ok(Self { transform })
        })())
    }
}

// ---------------------------------------------------------------------------------------
// Decompression
// ---------------------------------------------------------------------------------------

/// Where a decompression context is in its input.
#[derive(Debug)]
enum Phase {
    /// GZIP: collecting the header bytes.
    GzipHeader(Vec<u8>),
    /// Inflating the DEFLATE (or ZLIB) data.
    Body,
    /// GZIP: collecting the 8-byte trailer.
    GzipTrailer(Vec<u8>),
    /// The end of the compressed input has been reached.
    Done,
}

const TRAILING_DATA: &str = "Unexpected input after the end of the compressed data";

/// A decompression context.
struct Decompressor {
    inflate: Decompress,
    phase: Phase,
    crc: Crc,
    gzip: bool,
}

/// Parse a GZIP header (RFC 1952 §2.3.1) from the start of `bytes`: `Ok(Some(len))` when
/// complete, `Ok(None)` when more bytes are needed.
fn parse_gzip_header(bytes: &[u8]) -> Result<Option<usize>, &'static str> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    let byte = |i: usize| bytes.get(i).copied();
    // ID1, ID2 and CM are checked as soon as they arrive.
    for (i, expected) in [(0, 31), (1, 139), (2, 8)] {
        match byte(i) {
            None => return Ok(None),
            Some(b) if b != expected => return Err("Invalid gzip header"),
            Some(_) => {}
        }
    }
    let Some(flg) = byte(3) else {
        return Ok(None);
    };
    if flg & 0xE0 != 0 {
        return Err("Reserved gzip header flags set");
    }
    let mut pos = 10;
    if bytes.len() < pos {
        return Ok(None);
    }
    if flg & FEXTRA != 0 {
        let (Some(lo), Some(hi)) = (byte(pos), byte(pos + 1)) else {
            return Ok(None);
        };
        pos += 2 + usize::from(u16::from_le_bytes([lo, hi]));
        if bytes.len() < pos {
            return Ok(None);
        }
    }
    for flag in [FNAME, FCOMMENT] {
        if flg & flag != 0 {
            let Some(nul) = bytes
                .get(pos..)
                .and_then(|r| r.iter().position(|&b| b == 0))
            else {
                return Ok(None);
            };
            pos += nul + 1;
        }
    }
    if flg & FHCRC != 0 {
        let (Some(lo), Some(hi)) = (byte(pos), byte(pos + 1)) else {
            return Ok(None);
        };
        let mut crc = Crc::new();
        crc.update(bytes.get(..pos).unwrap_or_default());
        if crc.sum() & 0xFFFF != u32::from(u16::from_le_bytes([lo, hi])) {
            return Err("gzip header CRC mismatch");
        }
        pos += 2;
    }
    Ok(Some(pos))
}

impl Decompressor {
    fn new(format: CompressionFormat) -> Self {
        let gzip = format == CompressionFormat::Gzip;
        Self {
            inflate: Decompress::new(format == CompressionFormat::Deflate),
            phase: if gzip {
                Phase::GzipHeader(Vec::new())
            } else {
                Phase::Body
            },
            crc: Crc::new(),
            gzip,
        }
    }

    /// Decompress `input`; an error for corrupt input or for input after the end of the
    /// compressed data.
    #[cfg(test)]
    fn decompress(&mut self, input: &[u8]) -> Result<Vec<u8>, String> {
        match self.decompress_chunk(input)? {
            (out, true) => Ok(out),
            (_, false) => Err(TRAILING_DATA.into()),
        }
    }

    /// Decompress `input`: the output and whether `input` was fully consumed (it is not when
    /// the end of the compressed data comes before its end); an error for corrupt input.
    fn decompress_chunk(&mut self, mut input: &[u8]) -> Result<(Vec<u8>, bool), String> {
        let mut out = Vec::new();
        while !input.is_empty() {
            match &mut self.phase {
                Phase::GzipHeader(header) => {
                    let old = header.len();
                    header.extend_from_slice(input);
                    match parse_gzip_header(header)? {
                        None => input = &[],
                        Some(len) => {
                            input = input.get(len.saturating_sub(old)..).unwrap_or_default();
                            self.phase = Phase::Body;
                        }
                    }
                }
                Phase::Body => {
                    let start = out.len();
                    let (consumed, ended) = self.inflate_into(input, &mut out)?;
                    if self.gzip {
                        self.crc.update(out.get(start..).unwrap_or_default());
                    }
                    input = input.get(consumed..).unwrap_or_default();
                    if ended {
                        self.phase = if self.gzip {
                            Phase::GzipTrailer(Vec::new())
                        } else {
                            Phase::Done
                        };
                    } else if consumed == 0 {
                        return Err("The compressed data could not be decoded".into());
                    }
                }
                Phase::GzipTrailer(trailer) => {
                    let take = (8 - trailer.len()).min(input.len());
                    trailer.extend_from_slice(input.get(..take).unwrap_or_default());
                    input = input.get(take..).unwrap_or_default();
                    if trailer.len() == 8 {
                        let word = |r: std::ops::Range<usize>| {
                            trailer
                                .get(r)
                                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                                .map(u32::from_le_bytes)
                        };
                        if word(0..4) != Some(self.crc.sum()) {
                            return Err("gzip CRC-32 mismatch".into());
                        }
                        if word(4..8) != Some(self.crc.amount()) {
                            return Err("gzip ISIZE mismatch".into());
                        }
                        self.phase = Phase::Done;
                    }
                }
                Phase::Done => return Ok((out, false)),
            }
        }
        Ok((out, true))
    }

    /// Inflate as much of `input` as possible into `out`: (bytes consumed, stream ended).
    fn inflate_into(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(usize, bool), String> {
        let mut consumed = 0usize;
        loop {
            if out.capacity() - out.len() < OUTPUT_STEP {
                out.reserve(OUTPUT_STEP);
            }
            let rest = input.get(consumed..).unwrap_or_default();
            let before_in = self.inflate.total_in();
            let before_out = self.inflate.total_out();
            let status = self
                .inflate
                .decompress_vec(rest, out, FlushDecompress::None)
                .map_err(|e| format!("The compressed data could not be decoded: {e}"))?;
            let step_in = usize::try_from(self.inflate.total_in() - before_in).unwrap_or(0);
            consumed += step_in;
            let produced = self.inflate.total_out() - before_out;
            if status == Status::StreamEnd {
                return Ok((consumed, true));
            }
            let output_full = out.len() == out.capacity();
            if (consumed >= input.len() && !output_full) || (step_in == 0 && produced == 0) {
                return Ok((consumed, false));
            }
        }
    }

    /// The end of the input: an error unless the end of the compressed data was reached.
    fn finish(&mut self) -> Result<Vec<u8>, String> {
        match self.phase {
            Phase::Done => Ok(Vec::new()),
            _ => Err("The compressed data ended unexpectedly".into()),
        }
    }
}

/// The Rust-side state of a `DecompressionStream`'s transform.
#[derive(Trace, Finalize, JsData)]
struct DecompressorState {
    #[unsafe_ignore_trace]
    context: RefCell<Decompressor>,
}

fn with_decompressor<R>(state: &JsValue, f: impl FnOnce(&mut Decompressor) -> R) -> JsResult<R> {
    let object = state
        .as_object()
        .and_then(|o| o.clone().downcast::<DecompressorState>().ok())
        .ok_or_else(|| type_error("Invalid decompression state"))?;
    let data = object.borrow();
    let mut context = data
        .data()
        .context
        .try_borrow_mut()
        .map_err(|_| type_error("The decompressor is busy"))?;
    Ok(f(&mut context))
}

/// [Decompress and enqueue a chunk](https://compression.spec.whatwg.org/#decompress-and-enqueue-a-chunk)
fn decompress_and_enqueue_a_chunk(
    state: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. If chunk is not a BufferSource type, then throw a TypeError.
    let input = buffer_source_bytes(&chunk, ctx)?;
    // 2. Let buffer be the result of decompressing chunk with ds's format and context. If this
    //    results in an error, then throw a TypeError.
    let (buffer, fully_consumed) =
        with_decompressor(state, |d| d.decompress_chunk(&input))?.map_err(type_error)?;
    // 3-4. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_bytes(buffer, controller, ctx)?;
    // 5. If the end of the compressed input has been reached, and ds's context has not fully
    //    consumed chunk, then throw a TypeError.
    if !fully_consumed {
        return Err(type_error(TRAILING_DATA));
    }
    Ok(())
}

/// [Decompress flush and enqueue](https://compression.spec.whatwg.org/#decompress-flush-and-enqueue)
fn decompress_flush_and_enqueue(
    state: &JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let buffer be the result of decompressing an empty input with ds's format and
    //    context, with the finish flag.
    // 2. If the end of the compressed input has not been reached, then throw a TypeError.
    let buffer = with_decompressor(state, Decompressor::finish)?.map_err(type_error)?;
    // 3-5. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_bytes(buffer, controller, ctx)
}

/// A `DecompressionStream` object's internal slots.
#[derive(Trace, Finalize, JsData)]
pub struct DecompressionStream {
    /// `[[transform]]` (GenericTransformStream).
    transform: JsObject<TransformStream>,
}

impl std::fmt::Debug for DecompressionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecompressionStream")
            .finish_non_exhaustive()
    }
}

impl Class for DecompressionStream {
    const NAME: &'static str = "DecompressionStream";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        generic_transform_stream_attributes(class, |this| {
            let s = brand::<DecompressionStream>(this, "DecompressionStream")?;
            let t = s.borrow().data().transform.clone();
            Ok(t)
        });
        webidl::to_string_tag(class, "DecompressionStream");
        Ok(())
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        crate::webidl::limits_catchable((|| -> JsResult<Self> {
            if args.is_empty() {
                return Err(type_error(
                    "Failed to construct 'DecompressionStream': 1 argument required",
                ));
            }
            // 1. If format is unsupported in DecompressionStream, then throw a TypeError.
            // 2. Set this's format to format.
            let format = CompressionFormat::from_value(&arg(args, 0), ctx)?;
            let state = JsObject::from_proto_and_data(
                None,
                DecompressorState {
                    context: RefCell::new(Decompressor::new(format)),
                },
            );
            // 3. Let transformAlgorithm be an algorithm which takes a chunk argument and runs the
            //    decompress and enqueue a chunk algorithm with this and chunk.
            // 4. Let flushAlgorithm be an algorithm which takes no argument and runs the
            //    decompress flush and enqueue algorithm with this.
            // 5. Set this's transform to a new TransformStream.
            // 6. Set up this's transform with transformAlgorithm set to transformAlgorithm and
            //    flushAlgorithm set to flushAlgorithm.
            let transform = transform_stream_set_up(
                state.upcast().into(),
                RustTransformer {
                    transform: decompress_and_enqueue_a_chunk,
                    flush: decompress_flush_and_enqueue,
                },
                ctx,
            )?;
            Ok(Self { transform })
        })())
    }
}

#[cfg(test)]
mod tests;
