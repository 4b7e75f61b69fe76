//! A compression context: a streaming `flate2` DEFLATE compressor (ZLIB-wrapped for
//! "deflate"), with the GZIP framing (header, CRC-32, ISIZE) written around the raw DEFLATE
//! stream for "gzip".

use boa_engine::object::builtins::AlignedVec;
use flate2::{Compress, Compression, Crc, FlushCompress, Status};

use crate::format::CompressionFormat;
use crate::pieces::PieceWriter;

/// A compression context.
pub(crate) struct Compressor {
    format: CompressionFormat,
    deflate: Compress,
    /// GZIP: whether the header has been written, and the running CRC-32 / size of the input.
    header_written: bool,
    crc: Crc,
    out: PieceWriter,
}

impl Compressor {
    pub(crate) fn new(format: CompressionFormat) -> Self {
        Self {
            format,
            deflate: Compress::new(Compression::default(), format == CompressionFormat::Deflate),
            header_written: false,
            crc: Crc::new(),
            out: PieceWriter::default(),
        }
    }

    /// Compress `input` (all of it), finishing the stream when `finish` is set: the output in
    /// pieces of at most [`OUTPUT_CHUNK_BOUND`](crate::pieces::OUTPUT_CHUNK_BOUND) bytes.
    pub(crate) fn compress(
        &mut self,
        input: &[u8],
        finish: bool,
    ) -> Result<Vec<AlignedVec<u8>>, String> {
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
