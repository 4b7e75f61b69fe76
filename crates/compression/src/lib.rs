//! # boa_compression
//!
//! The [Compression Standard](https://compression.spec.whatwg.org/): `CompressionStream` and
//! `DecompressionStream`, each a [`TransformStream`] set up from Rust whose transform and flush
//! algorithms drive a streaming `flate2` (de)compressor kept in Rust-side state.
//!
//! "deflate" is the ZLIB format (RFC 1950), "deflate-raw" the DEFLATE format (RFC 1951) and
//! "gzip" the GZIP format (RFC 1952); the GZIP framing (header, CRC-32, ISIZE) is done here
//! around a raw DEFLATE stream.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::{AlignedVec, JsArrayBuffer},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};
use flate2::{Compress, Compression, Crc, Decompress, FlushCompress, FlushDecompress, Status};

use boa_streams::spec::Chunk;
use boa_streams::spec::{to_array_buffer_view, ViewConstructor};
use boa_streams::spec::{
    transform_stream_default_controller_enqueue, transform_stream_default_controller_enqueue_chunk,
    transform_stream_set_up, RustTransformer, TransformStream, TransformStreamDefaultController,
};
use boa_webidl::{self as webidl, arg, brand, type_error, INTERFACE_ATTRIBUTES};

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

/// The largest chunk a `CompressionStream` or `DecompressionStream` enqueues, and the largest
/// single allocation its output needs: 64 KiB. However much one input chunk expands (a
/// decompression bomb), its output is cut into pieces of at most this size, each its own
/// allocation, so no buffer ever grows to the whole output.
pub(crate) const OUTPUT_CHUNK_BOUND: usize = 64 * 1024;

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

/// Codec output cut into pieces of at most [`OUTPUT_CHUNK_BOUND`] bytes as it is produced: the
/// codec writes into [`PieceWriter::spare`], and a full piece is moved out as its own block.
#[derive(Debug, Default)]
struct PieceWriter {
    /// The piece being filled: empty until the first output, then exactly
    /// `OUTPUT_CHUNK_BOUND` bytes, of which `filled` are output.
    current: Vec<u8>,
    filled: usize,
    /// The completed pieces, each non-empty and at most `OUTPUT_CHUNK_BOUND` bytes.
    pieces: Vec<AlignedVec<u8>>,
}

impl PieceWriter {
    /// The unfilled part of the current piece; never empty (a full piece is cut first).
    fn spare(&mut self) -> &mut [u8] {
        if self.filled >= OUTPUT_CHUNK_BOUND {
            self.cut();
        }
        if self.current.len() != OUTPUT_CHUNK_BOUND {
            self.current = vec![0; OUTPUT_CHUNK_BOUND];
        }
        self.current.get_mut(self.filled..).unwrap_or_default()
    }

    /// Mark `n` more bytes of [`Self::spare`] as output and return them.
    fn advance(&mut self, n: usize) -> &[u8] {
        let start = self.filled;
        self.filled = start.saturating_add(n).min(self.current.len());
        self.current.get(start..self.filled).unwrap_or_default()
    }

    /// Append `bytes` (small framing bytes) to the output.
    fn write(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let spare = self.spare();
            let n = spare.len().min(bytes.len());
            for (dst, src) in spare.iter_mut().zip(bytes) {
                *dst = *src;
            }
            self.advance(n);
            bytes = bytes.get(n..).unwrap_or_default();
        }
    }

    /// Move the current piece, if it holds any output, to the completed pieces.
    fn cut(&mut self) {
        if self.filled > 0 {
            let bytes = self.current.get(..self.filled).unwrap_or_default();
            self.pieces.push(AlignedVec::from_slice(64, bytes));
            self.filled = 0;
        }
    }

    /// All output so far, as pieces; the writer is left empty. Its scratch block is kept for
    /// the next call unless `last` (the codec will produce no more output).
    fn take(&mut self, last: bool) -> Vec<AlignedVec<u8>> {
        self.cut();
        if last {
            self.current = Vec::new();
        }
        std::mem::take(&mut self.pieces)
    }
}

/// Enqueue each of `pieces` (the non-empty pieces a codec cut its output `buffer` into) as a
/// `Uint8Array` (nothing when there are none).
fn enqueue_pieces(
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
        // Uint8Array only when it reaches script (see crate::chunk); a pipe into a native
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
    out: PieceWriter,
}

impl Compressor {
    fn new(format: CompressionFormat) -> Self {
        Self {
            format,
            deflate: Compress::new(Compression::default(), format == CompressionFormat::Deflate),
            header_written: false,
            crc: Crc::new(),
            out: PieceWriter::default(),
        }
    }

    /// Compress `input` (all of it), finishing the stream when `finish` is set: the output in
    /// pieces of at most [`OUTPUT_CHUNK_BOUND`] bytes.
    fn compress(&mut self, input: &[u8], finish: bool) -> Result<Vec<AlignedVec<u8>>, String> {
        let result = self.compress_into_pieces(input, finish);
        let pieces = self.out.take(finish || result.is_err());
        result.map(|()| pieces)
    }

    fn compress_into_pieces(&mut self, input: &[u8], finish: bool) -> Result<(), String> {
        if self.format == CompressionFormat::Gzip {
            if !self.header_written {
                // ID1 ID2 CM FLG MTIME(4) XFL OS (255 = unknown).
                self.out.write(&[31, 139, 8, 0, 0, 0, 0, 0, 0, 255]);
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
            let spare = self.out.spare();
            let room = spare.len();
            let before_in = self.deflate.total_in();
            let before_out = self.deflate.total_out();
            let status = self
                .deflate
                .compress(rest, spare, flush)
                .map_err(|e| e.to_string())?;
            let consumed = usize::try_from(self.deflate.total_in() - before_in).unwrap_or(0);
            rest = rest.get(consumed..).unwrap_or_default();
            let produced = usize::try_from(self.deflate.total_out() - before_out).unwrap_or(0);
            self.out.advance(produced);
            let output_full = produced >= room;
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
            self.out.write(&self.crc.sum().to_le_bytes());
            self.out.write(&self.crc.amount().to_le_bytes());
        }
        Ok(())
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
    compress_and_enqueue_bytes(state, &input, controller, ctx)
}

/// [Compress and enqueue a chunk](https://compression.spec.whatwg.org/#compress-and-enqueue-a-chunk)
/// of Rust bytes (a `Uint8Array` chunk not yet made, see [`crate::chunk`]): a BufferSource.
fn compress_and_enqueue_a_bytes_chunk(
    state: &JsValue,
    chunk: bytes::Bytes,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. (chunk is a Uint8Array's bytes: a BufferSource.)
    compress_and_enqueue_bytes(state, &chunk, controller, ctx)
}

/// Steps 2-5 of [compress and enqueue a chunk](https://compression.spec.whatwg.org/#compress-and-enqueue-a-chunk).
fn compress_and_enqueue_bytes(
    state: &JsValue,
    input: &[u8],
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 2. Let buffer be the result of compressing chunk with cs's format and context.
    let buffer = with_compressor(state, |c| c.compress(input, false))?.map_err(type_error)?;
    // 3-5. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_pieces(buffer, controller, ctx)
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
    enqueue_pieces(buffer, controller, ctx)
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
        boa_webidl::limits_catchable((|| -> JsResult<Self> {
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
                    transform_bytes: Some(compress_and_enqueue_a_bytes_chunk),
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
    /// GZIP: parsing the header.
    GzipHeader(GzipHeaderParser),
    /// Inflating the DEFLATE (or ZLIB) data.
    Body,
    /// GZIP: collecting the 8-byte trailer.
    GzipTrailer(Vec<u8>),
    /// The end of the compressed input has been reached.
    Done,
}

const TRAILING_DATA: &str = "Unexpected input after the end of the compressed data";

/// GZIP header flags (RFC 1952 §2.3.1).
const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;

/// The part of a GZIP header a [`GzipHeaderParser`] expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeaderField {
    /// ID1 ID2 CM FLG MTIME(4) XFL OS: the index of the next of these 10 bytes.
    Fixed(u8),
    /// FEXTRA's XLEN: the low byte once read.
    ExtraLength(Option<u8>),
    /// FEXTRA's data: the bytes still to skip.
    ExtraData(u16),
    /// FNAME: skipping up to and including its NUL.
    Name,
    /// FCOMMENT: skipping up to and including its NUL.
    Comment,
    /// FHCRC: the low byte once read.
    HeaderCrc(Option<u8>),
    /// The header is complete.
    Done,
}

/// An incremental GZIP header parser (RFC 1952 §2.3.1). Each input byte is examined once, in
/// whatever chunks it arrives; nothing of the header is kept but FLG, the field in progress
/// and the running CRC-32 FHCRC checks, so an unbounded FNAME, FCOMMENT or FEXTRA costs time
/// linear in its length and constant memory.
#[derive(Debug)]
struct GzipHeaderParser {
    field: HeaderField,
    flags: u8,
    /// The CRC-32 of the header bytes so far (maintained only while FHCRC may be set).
    crc: Crc,
    /// The number of input bytes examined so far (never more than were fed).
    examined: u64,
}

impl GzipHeaderParser {
    fn new() -> Self {
        Self {
            field: HeaderField::Fixed(0),
            flags: 0,
            crc: Crc::new(),
            examined: 0,
        }
    }

    /// The optional field that follows `after` according to FLG (FEXTRA, FNAME, FCOMMENT,
    /// FHCRC in that order), or [`HeaderField::Done`].
    fn next_field(&self, after: HeaderField) -> HeaderField {
        let order = [
            (FEXTRA, HeaderField::ExtraLength(None)),
            (FNAME, HeaderField::Name),
            (FCOMMENT, HeaderField::Comment),
            (FHCRC, HeaderField::HeaderCrc(None)),
        ];
        let start = match after {
            HeaderField::Fixed(_) => 0,
            HeaderField::ExtraLength(_) | HeaderField::ExtraData(_) => 1,
            HeaderField::Name => 2,
            HeaderField::Comment => 3,
            HeaderField::HeaderCrc(_) | HeaderField::Done => 4,
        };
        order
            .iter()
            .skip(start)
            .find(|(flag, _)| self.flags & flag != 0)
            .map_or(HeaderField::Done, |&(_, field)| field)
    }

    /// Consume header bytes from the start of `input`: `Ok(Some(n))` when the header ends
    /// after its first `n` bytes, `Ok(None)` when all of `input` belongs to the header and
    /// more is needed.
    fn feed(&mut self, input: &[u8]) -> Result<Option<usize>, &'static str> {
        let mut pos = 0usize;
        while self.field != HeaderField::Done {
            let Some(rest) = input.get(pos..).filter(|r| !r.is_empty()) else {
                return Ok(None);
            };
            // How many bytes of `rest` this step examines and consumes.
            let taken = match self.field {
                HeaderField::Fixed(index) => {
                    let b = rest.first().copied().unwrap_or(0);
                    match (index, b) {
                        (0, 31) | (1, 139) | (2, 8) => {}
                        (0..=2, _) => return Err("Invalid gzip header"),
                        (3, _) if b & 0xE0 != 0 => return Err("Reserved gzip header flags set"),
                        (3, _) => self.flags = b,
                        _ => {}
                    }
                    self.crc.update(&[b]);
                    self.field = if index >= 9 {
                        self.next_field(self.field)
                    } else {
                        HeaderField::Fixed(index + 1)
                    };
                    1
                }
                HeaderField::ExtraLength(low) => {
                    let b = rest.first().copied().unwrap_or(0);
                    self.field = match low {
                        None => HeaderField::ExtraLength(Some(b)),
                        Some(lo) => match u16::from_le_bytes([lo, b]) {
                            0 => self.next_field(HeaderField::ExtraData(0)),
                            len => HeaderField::ExtraData(len),
                        },
                    };
                    self.checked_bytes(rest.get(..1));
                    1
                }
                HeaderField::ExtraData(left) => {
                    let n = rest.len().min(usize::from(left));
                    self.checked_bytes(rest.get(..n));
                    let left = left.saturating_sub(u16::try_from(n).unwrap_or(u16::MAX));
                    self.field = if left == 0 {
                        self.next_field(HeaderField::ExtraData(0))
                    } else {
                        HeaderField::ExtraData(left)
                    };
                    n
                }
                HeaderField::Name | HeaderField::Comment => {
                    let n = match rest.iter().position(|&b| b == 0) {
                        Some(nul) => {
                            self.field = self.next_field(self.field);
                            nul + 1
                        }
                        None => rest.len(),
                    };
                    self.checked_bytes(rest.get(..n));
                    n
                }
                HeaderField::HeaderCrc(low) => {
                    let b = rest.first().copied().unwrap_or(0);
                    match low {
                        None => self.field = HeaderField::HeaderCrc(Some(b)),
                        Some(lo) => {
                            if self.crc.sum() & 0xFFFF != u32::from(u16::from_le_bytes([lo, b])) {
                                return Err("gzip header CRC mismatch");
                            }
                            self.field = HeaderField::Done;
                        }
                    }
                    1
                }
                HeaderField::Done => 0,
            };
            self.examined += taken as u64;
            pos += taken;
        }
        Ok(Some(pos))
    }

    /// Feed header bytes before FHCRC to its CRC (only when FHCRC is set).
    fn checked_bytes(&mut self, bytes: Option<&[u8]>) {
        if self.flags & FHCRC != 0 {
            self.crc.update(bytes.unwrap_or_default());
        }
    }
}

/// A decompression context.
struct Decompressor {
    inflate: Decompress,
    phase: Phase,
    crc: Crc,
    gzip: bool,
    out: PieceWriter,
}

impl Decompressor {
    fn new(format: CompressionFormat) -> Self {
        let gzip = format == CompressionFormat::Gzip;
        Self {
            inflate: Decompress::new(format == CompressionFormat::Deflate),
            phase: if gzip {
                Phase::GzipHeader(GzipHeaderParser::new())
            } else {
                Phase::Body
            },
            crc: Crc::new(),
            gzip,
            out: PieceWriter::default(),
        }
    }

    /// Decompress `input`; an error for corrupt input or for input after the end of the
    /// compressed data.
    #[cfg(test)]
    fn decompress(&mut self, input: &[u8]) -> Result<Vec<u8>, String> {
        match self.decompress_chunk(input)? {
            (pieces, true) => Ok(pieces.iter().flat_map(|p| p.iter().copied()).collect()),
            (_, false) => Err(TRAILING_DATA.into()),
        }
    }

    /// Decompress `input`: the output, in pieces of at most [`OUTPUT_CHUNK_BOUND`] bytes, and
    /// whether `input` was fully consumed (it is not when the end of the compressed data comes
    /// before its end); an error (and no output) for corrupt input.
    fn decompress_chunk(&mut self, input: &[u8]) -> Result<(Vec<AlignedVec<u8>>, bool), String> {
        let result = self.decompress_into_pieces(input);
        let last = !matches!((&result, &self.phase), (Ok(_), Phase::Body));
        let pieces = self.out.take(last);
        result.map(|fully_consumed| (pieces, fully_consumed))
    }

    fn decompress_into_pieces(&mut self, mut input: &[u8]) -> Result<bool, String> {
        while !input.is_empty() {
            match &mut self.phase {
                Phase::GzipHeader(parser) => match parser.feed(input)? {
                    None => input = &[],
                    Some(len) => {
                        input = input.get(len..).unwrap_or_default();
                        self.phase = Phase::Body;
                    }
                },
                Phase::Body => {
                    let (consumed, ended) = self.inflate_into_pieces(input)?;
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
                Phase::Done => return Ok(false),
            }
        }
        Ok(true)
    }

    /// Inflate as much of `input` as possible into the output pieces: (bytes consumed, stream
    /// ended).
    fn inflate_into_pieces(&mut self, input: &[u8]) -> Result<(usize, bool), String> {
        let mut consumed = 0usize;
        loop {
            let spare = self.out.spare();
            let room = spare.len();
            let rest = input.get(consumed..).unwrap_or_default();
            let before_in = self.inflate.total_in();
            let before_out = self.inflate.total_out();
            let status = self
                .inflate
                .decompress(rest, spare, FlushDecompress::None)
                .map_err(|e| format!("The compressed data could not be decoded: {e}"))?;
            let step_in = usize::try_from(self.inflate.total_in() - before_in).unwrap_or(0);
            consumed += step_in;
            let produced = usize::try_from(self.inflate.total_out() - before_out).unwrap_or(0);
            let output = self.out.advance(produced);
            if self.gzip {
                self.crc.update(output);
            }
            if status == Status::StreamEnd {
                return Ok((consumed, true));
            }
            let output_full = produced >= room;
            if (consumed >= input.len() && !output_full) || (step_in == 0 && produced == 0) {
                return Ok((consumed, false));
            }
        }
    }

    /// The end of the input: an error unless the end of the compressed data was reached. All
    /// output has already been produced by [`Self::decompress_chunk`].
    fn finish(&mut self) -> Result<(), String> {
        match self.phase {
            Phase::Done => Ok(()),
            _ => Err("The compressed data ended unexpectedly".into()),
        }
    }
}

/// The decompressor a `DecompressionStream` runs, for Rust callers (boa_net decodes a
/// response's `Content-Encoding` with it): the formats, checks (gzip CRC-32 and length, no
/// data after the end) and error messages are the stream's.
///
/// ```
/// let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
/// std::io::Write::write_all(&mut encoder, b"hello, hello").unwrap();
/// let gzipped = encoder.finish().unwrap();
///
/// let mut decoder = boa_compression::Decoder::new("gzip").unwrap();
/// let mut out = Vec::new();
/// for half in gzipped.chunks(gzipped.len() / 2 + 1) {
///     for piece in decoder.decode(half).unwrap() {
///         out.extend_from_slice(&piece);
///     }
/// }
/// decoder.finish().unwrap();
/// assert_eq!(out, b"hello, hello");
/// assert!(boa_compression::Decoder::new("br").is_none());
/// assert!(boa_compression::Decoder::new("deflate").unwrap().decode(b"not zlib").is_err());
/// ```
pub struct Decoder(Decompressor);

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder").finish_non_exhaustive()
    }
}

impl Decoder {
    /// A decoder for a `CompressionFormat` value: `"gzip"`, `"deflate"` (ZLIB) or
    /// `"deflate-raw"`; `None` for another.
    pub fn new(format: &str) -> Option<Self> {
        let format = match format {
            "gzip" => CompressionFormat::Gzip,
            "deflate" => CompressionFormat::Deflate,
            "deflate-raw" => CompressionFormat::DeflateRaw,
            _ => return None,
        };
        Some(Self(Decompressor::new(format)))
    }

    /// Decompress the next `input` bytes: the output in pieces of at most 64 KiB. An error
    /// for corrupt input or for input after the end of the compressed data.
    pub fn decode(&mut self, input: &[u8]) -> Result<Vec<Vec<u8>>, String> {
        match self.0.decompress_chunk(input)? {
            (pieces, true) => Ok(pieces.into_iter().map(|p| p.to_vec()).collect()),
            (_, false) => Err(TRAILING_DATA.into()),
        }
    }

    /// The end of the input: an error unless the compressed data ended.
    pub fn finish(&mut self) -> Result<(), String> {
        self.0.finish()
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
    decompress_and_enqueue_bytes(state, &input, controller, ctx)
}

/// [Decompress and enqueue a chunk](https://compression.spec.whatwg.org/#decompress-and-enqueue-a-chunk)
/// of Rust bytes (a `Uint8Array` chunk not yet made, see [`crate::chunk`]): a BufferSource.
fn decompress_and_enqueue_a_bytes_chunk(
    state: &JsValue,
    chunk: bytes::Bytes,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 1. (chunk is a Uint8Array's bytes: a BufferSource.)
    decompress_and_enqueue_bytes(state, &chunk, controller, ctx)
}

/// Steps 2-5 of [decompress and enqueue a chunk](https://compression.spec.whatwg.org/#decompress-and-enqueue-a-chunk).
fn decompress_and_enqueue_bytes(
    state: &JsValue,
    input: &[u8],
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    // 2. Let buffer be the result of decompressing chunk with ds's format and context. If this
    //    results in an error, then throw a TypeError.
    // NOTE: the output of the whole chunk is produced (as bounded pieces) before any of it is
    // enqueued, so corrupt data anywhere in the chunk enqueues nothing, as the spec's order
    // requires (a pending read would otherwise observe the pieces before the error).
    let (buffer, fully_consumed) =
        with_decompressor(state, |d| d.decompress_chunk(input))?.map_err(type_error)?;
    // 3-4. Split buffer into non-empty Uint8Arrays and enqueue them.
    enqueue_pieces(buffer, controller, ctx)?;
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
    _controller: &JsObject<TransformStreamDefaultController>,
    _ctx: &mut Context,
) -> JsResult<()> {
    // 1. Let buffer be the result of decompressing an empty input with ds's format and
    //    context, with the finish flag.
    // 2. If the end of the compressed input has not been reached, then throw a TypeError.
    with_decompressor(state, Decompressor::finish)?.map_err(type_error)?;
    // 3-5. Split buffer into non-empty Uint8Arrays and enqueue them.
    // NOTE: buffer is always empty: every byte the input decodes to was produced and
    // enqueued by the transform algorithm (inflating consumes all input it is given).
    Ok(())
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
        boa_webidl::limits_catchable((|| -> JsResult<Self> {
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
                    transform_bytes: Some(decompress_and_enqueue_a_bytes_chunk),
                    flush: decompress_flush_and_enqueue,
                },
                ctx,
            )?;
            Ok(Self { transform })
        })())
    }
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
