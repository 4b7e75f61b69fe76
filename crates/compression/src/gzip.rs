//! The GZIP header (RFC 1952 §2.3.1), parsed incrementally as a decompression context's input
//! arrives.

use flate2::Crc;

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
pub(crate) struct GzipHeaderParser {
    field: HeaderField,
    flags: u8,
    /// The CRC-32 of the header bytes so far (maintained only while FHCRC may be set).
    crc: Crc,
    /// The number of input bytes examined so far (never more than were fed).
    pub(crate) examined: u64,
}

impl GzipHeaderParser {
    pub(crate) fn new() -> Self {
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
    pub(crate) fn feed(&mut self, input: &[u8]) -> Result<Option<usize>, &'static str> {
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
