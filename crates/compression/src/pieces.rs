//! Codec output in bounded pieces: no buffer ever grows to the whole output of a chunk.

use boa_engine::object::builtins::AlignedVec;

/// The largest chunk a `CompressionStream` or `DecompressionStream` enqueues, and the largest
/// single allocation its output needs: 64 KiB. However much one input chunk expands (a
/// decompression bomb), its output is cut into pieces of at most this size, each its own
/// allocation, so no buffer ever grows to the whole output.
pub(crate) const OUTPUT_CHUNK_BOUND: usize = 64 * 1024;

/// Codec output cut into pieces of at most [`OUTPUT_CHUNK_BOUND`] bytes as it is produced: the
/// codec writes into [`PieceWriter::spare`], and a full piece is moved out as its own block.
#[derive(Debug, Default)]
pub(crate) struct PieceWriter {
    /// The piece being filled: empty until the first output, then exactly
    /// `OUTPUT_CHUNK_BOUND` bytes, of which `filled` are output.
    current: Vec<u8>,
    filled: usize,
    /// The completed pieces, each non-empty and at most `OUTPUT_CHUNK_BOUND` bytes.
    pieces: Vec<AlignedVec<u8>>,
}

impl PieceWriter {
    /// The unfilled part of the current piece; never empty (a full piece is cut first).
    pub(crate) fn spare(&mut self) -> &mut [u8] {
        if self.filled >= OUTPUT_CHUNK_BOUND {
            self.cut();
        }
        if self.current.len() != OUTPUT_CHUNK_BOUND {
            self.current = vec![0; OUTPUT_CHUNK_BOUND];
        }
        self.current.get_mut(self.filled..).unwrap_or_default()
    }

    /// Mark `n` more bytes of [`Self::spare`] as output and return them.
    pub(crate) fn advance(&mut self, n: usize) -> &[u8] {
        let start = self.filled;
        self.filled = start.saturating_add(n).min(self.current.len());
        self.current.get(start..self.filled).unwrap_or_default()
    }

    /// Append `bytes` (small framing bytes) to the output.
    pub(crate) fn write(&mut self, mut bytes: &[u8]) {
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
    pub(crate) fn take(&mut self, last: bool) -> Vec<AlignedVec<u8>> {
        self.cut();
        if last {
            self.current = Vec::new();
        }
        std::mem::take(&mut self.pieces)
    }
}
