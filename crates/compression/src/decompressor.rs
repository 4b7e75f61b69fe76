//! A decompression context: a streaming `flate2` inflater (ZLIB-wrapped for "deflate"), with
//! the GZIP header and trailer checked around the raw DEFLATE data for "gzip"; and
//! [`Decoder`], the same context for Rust callers.

use boa_engine::object::builtins::AlignedVec;
use flate2::{Crc, Decompress, FlushDecompress, Status};

use crate::format::CompressionFormat;
use crate::gzip::GzipHeaderParser;
use crate::pieces::PieceWriter;

/// Where a decompression context is in its input.
#[derive(Debug)]
pub(crate) enum Phase {
    /// GZIP: parsing the header.
    GzipHeader(GzipHeaderParser),
    /// Inflating the DEFLATE (or ZLIB) data.
    Body,
    /// GZIP: collecting the 8-byte trailer.
    GzipTrailer(Vec<u8>),
    /// The end of the compressed input has been reached.
    Done,
}

/// The error of input after the end of the compressed data.
pub(crate) const TRAILING_DATA: &str = "Unexpected input after the end of the compressed data";

/// A decompression context.
pub(crate) struct Decompressor {
    inflate: Decompress,
    pub(crate) phase: Phase,
    crc: Crc,
    gzip: bool,
    out: PieceWriter,
}

impl Decompressor {
    pub(crate) fn new(format: CompressionFormat) -> Self {
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
    pub(crate) fn decompress(&mut self, input: &[u8]) -> Result<Vec<u8>, String> {
        match self.decompress_chunk(input)? {
            (pieces, true) => Ok(pieces.iter().flat_map(|p| p.iter().copied()).collect()),
            (_, false) => Err(TRAILING_DATA.into()),
        }
    }

    /// Decompress `input`: the output, in pieces of at most [`OUTPUT_CHUNK_BOUND`](crate::pieces::OUTPUT_CHUNK_BOUND) bytes, and
    /// whether `input` was fully consumed (it is not when the end of the compressed data comes
    /// before its end); an error (and no output) for corrupt input.
    pub(crate) fn decompress_chunk(
        &mut self,
        input: &[u8],
    ) -> Result<(Vec<AlignedVec<u8>>, bool), String> {
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
    pub(crate) fn finish(&mut self) -> Result<(), String> {
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
