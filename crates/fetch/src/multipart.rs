//! `multipart/form-data`: HTML's [multipart/form-data encoding
//! algorithm](https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#multipart/form-data-encoding-algorithm)
//! (a [`ByteSeq`] that shares the files' bytes) and the parser `formData()` runs
//! ([RFC 7578](https://www.rfc-editor.org/rfc/rfc7578) on RFC 2046's multipart syntax), a
//! push parser fed one chunk at a time whose file parts share the chunks' memory.

use bytes::Bytes;

use boa_fileapi::ByteSeq;

/// The longest boundary accepted (RFC 2046 allows 70 characters; peers allow some more).
const MAX_BOUNDARY: usize = 256;
/// The largest header block of one part.
const MAX_HEADER_BYTES: u64 = 16 * 1024;
/// The most transport padding (spaces and tabs) accepted after a delimiter.
const MAX_PADDING: u64 = 1024;

/// One entry to encode: its name and a string or file value.
pub(crate) struct EncodeEntry {
    pub(crate) name: String,
    pub(crate) value: EncodeValue,
}

/// An entry's value: a scalar value string, or a file's bytes, name and type.
pub(crate) enum EncodeValue {
    Text(String),
    File {
        bytes: ByteSeq,
        filename: String,
        content_type: String,
    },
}

/// A fresh [multipart/form-data boundary
/// string](https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#multipart/form-data-boundary-string):
/// 32 random alphanumeric characters after a fixed prefix (the UA chooses it; it only has to
/// be unlikely to occur in the data).
pub(crate) fn new_boundary() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut random = [0u8; 32];
    // NOTE: without an OS random source the boundary is still unique per body (a counter and
    // the clock); only its unpredictability is lost.
    if getrandom::fill(&mut random).is_err() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        for (i, b) in random.iter_mut().enumerate() {
            *b = (n.rotate_left(i as u32) ^ t.rotate_right(i as u32)) as u8;
        }
    }
    let mut s = String::from("----BoaFormBoundary");
    for b in random {
        let i = usize::from(b) % ALPHABET.len();
        s.push(char::from(*ALPHABET.get(i).unwrap_or(&b'0')));
    }
    s
}

/// Replace every CR not followed by LF, and every LF not preceded by CR, by CRLF.
fn normalize_newlines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\r\n");
            }
            '\n' => out.push_str("\r\n"),
            c => out.push(c),
        }
    }
    out
}

/// The escaping of field names and filenames: LF as `%0A`, CR as `%0D`, `"` as `%22`, and
/// no other escape.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("%0A"),
            '\r' => out.push_str("%0D"),
            '"' => out.push_str("%22"),
            c => out.push(c),
        }
    }
    out
}

/// The [multipart/form-data encoding
/// algorithm](https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#multipart/form-data-encoding-algorithm)
/// with UTF-8, given `boundary`: the body's bytes, the files' bytes shared (not copied).
pub(crate) fn encode(entries: Vec<EncodeEntry>, boundary: &str) -> ByteSeq {
    let mut out = ByteSeq::new();
    let text = |out: &mut ByteSeq, s: String| out.push(Bytes::from(s.into_bytes()));
    // 1. For each entry of entry list:
    for entry in entries {
        // 1. Replace every CR not followed by LF and every LF not preceded by CR in entry's
        //    name by CRLF.
        let name = escape(&normalize_newlines(&entry.name));
        match entry.value {
            EncodeValue::Text(value) => {
                // 2. If entry's value is not a File object, normalize its newlines likewise.
                // (RFC 7578) A part per field, its Content-Disposition naming the field; no
                // Content-Type header on a non-file field.
                text(
                    &mut out,
                    format!(
                        "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{}\r\n",
                        normalize_newlines(&value)
                    ),
                );
            }
            EncodeValue::File {
                bytes,
                filename,
                content_type,
            } => {
                // A file field's part has a filename parameter (the file's name, escaped) and
                // the file's type, or application/octet-stream.
                let content_type = if content_type.is_empty() {
                    "application/octet-stream".to_string()
                } else {
                    content_type
                };
                text(
                    &mut out,
                    format!(
                        "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{}\"\r\nContent-Type: {content_type}\r\n\r\n",
                        escape(&filename)
                    ),
                );
                out.extend(&bytes);
                out.push(Bytes::from_static(b"\r\n"));
            }
        }
    }
    // 2. (RFC 2046) The close delimiter.
    text(&mut out, format!("--{boundary}--\r\n"));
    out
}

/// A parsed entry: its name and value.
#[derive(Debug)]
pub(crate) struct ParsedEntry {
    pub(crate) name: String,
    pub(crate) value: ParsedValue,
}

/// A parsed entry's value: the UTF-8 decoding of a part without a filename, or a file.
#[derive(Debug)]
pub(crate) enum ParsedValue {
    Text(String),
    File {
        filename: String,
        content_type: String,
        bytes: ByteSeq,
    },
}

/// Where the parser is in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the first delimiter (the preamble is skipped).
    Preamble,
    /// Right after a delimiter: `--` (the close delimiter) or padding and CRLF.
    AfterDelimiter,
    /// A part's header block, up to the empty line.
    Headers,
    /// A part's content, up to the next delimiter.
    Content,
    /// After the close delimiter (the epilogue is skipped).
    Done,
}

/// A part's headers.
struct PartHead {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
}

/// A push parser of a `multipart/form-data` body with a given boundary: [`Self::feed`] each
/// chunk, then [`Self::finish`]. Memory: the entries (file contents are slices of the
/// chunks, not copies) and less than one delimiter of look-behind; an error stops the
/// parsing and the rest of the input is dropped.
pub(crate) struct MultipartParser {
    /// `CRLF--boundary`.
    delimiter: Vec<u8>,
    /// Input not consumed yet.
    pending: ByteSeq,
    state: State,
    /// Headers: how far `pending` was searched for the empty line.
    searched: u64,
    head: Option<PartHead>,
    content: ByteSeq,
    entries: Vec<ParsedEntry>,
    error: Option<String>,
}

impl std::fmt::Debug for MultipartParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultipartParser")
            .field("state", &self.state)
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

/// Where `needle` first occurs in `seq` at or after `from`, across piece borders.
fn find(seq: &ByteSeq, needle: &[u8], from: u64) -> Option<u64> {
    let (&first, _) = needle.split_first()?;
    let parts = seq.parts();
    let mut offset = 0u64;
    for (index, part) in parts.iter().enumerate() {
        let part_len = part.len() as u64;
        if offset + part_len <= from {
            offset += part_len;
            continue;
        }
        let mut i = usize::try_from(from.saturating_sub(offset)).unwrap_or(0);
        while let Some(rel) = part
            .get(i..)
            .and_then(|s| s.iter().position(|&b| b == first))
        {
            let at = i + rel;
            if matches_at(parts, index, at, needle) {
                return Some(offset + at as u64);
            }
            i = at + 1;
        }
        offset += part_len;
    }
    None
}

/// Whether `needle` occurs at byte `at` of piece `index`, continuing into the next pieces.
fn matches_at(parts: &[Bytes], mut index: usize, mut at: usize, needle: &[u8]) -> bool {
    let mut rest = needle;
    while !rest.is_empty() {
        let Some(part) = parts.get(index) else {
            return false;
        };
        let avail = part.get(at..).unwrap_or_default();
        let n = avail.len().min(rest.len());
        if avail.get(..n) != rest.get(..n) {
            return false;
        }
        rest = rest.get(n..).unwrap_or_default();
        index += 1;
        at = 0;
    }
    true
}

/// The byte at `index` of `seq`.
fn byte_at(seq: &ByteSeq, index: u64) -> Option<u8> {
    let mut offset = 0u64;
    for part in seq.parts() {
        let len = part.len() as u64;
        if index < offset + len {
            return part.get(usize::try_from(index - offset).ok()?).copied();
        }
        offset += len;
    }
    None
}

impl MultipartParser {
    /// A parser for `boundary` (the Content-Type's `boundary` parameter); an error if it is
    /// empty or too long.
    pub(crate) fn new(boundary: &str) -> Result<Self, String> {
        if boundary.is_empty() || boundary.len() > MAX_BOUNDARY {
            return Err(format!(
                "The multipart/form-data boundary must have 1 to {MAX_BOUNDARY} bytes"
            ));
        }
        let mut delimiter = b"\r\n--".to_vec();
        delimiter.extend_from_slice(boundary.as_bytes());
        Ok(Self {
            delimiter,
            // The first delimiter may open the body: a CRLF before it makes every
            // delimiter `CRLF--boundary`.
            pending: ByteSeq::from_bytes(Bytes::from_static(b"\r\n")),
            state: State::Preamble,
            searched: 0,
            head: None,
            content: ByteSeq::new(),
            entries: Vec::new(),
            error: None,
        })
    }

    /// Parse `chunk` (kept, not copied, where it holds file contents).
    pub(crate) fn feed(&mut self, chunk: Bytes) {
        if self.error.is_some() || self.state == State::Done {
            return;
        }
        self.pending.push(chunk);
        if let Err(e) = self.run() {
            self.error = Some(e);
            self.pending = ByteSeq::new();
            self.content = ByteSeq::new();
            self.entries = Vec::new();
        }
    }

    /// The end of the input: the entries, or what was wrong.
    pub(crate) fn finish(self) -> Result<Vec<ParsedEntry>, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.state != State::Done {
            return Err("The multipart/form-data body ends before its close delimiter".into());
        }
        Ok(self.entries)
    }

    /// Drop the first `n` pending bytes.
    fn consume(&mut self, n: u64) {
        self.pending = self.pending.slice(n, self.pending.len());
    }

    fn run(&mut self) -> Result<(), String> {
        let keep = self.delimiter.len() as u64 - 1;
        loop {
            match self.state {
                State::Preamble => match find(&self.pending, &self.delimiter, 0) {
                    Some(at) => {
                        self.consume(at + self.delimiter.len() as u64);
                        self.state = State::AfterDelimiter;
                    }
                    None => {
                        // Keep what could be the start of a delimiter.
                        let len = self.pending.len();
                        self.consume(len.saturating_sub(keep));
                        return Ok(());
                    }
                },
                State::AfterDelimiter => {
                    let (Some(a), Some(b)) = (byte_at(&self.pending, 0), byte_at(&self.pending, 1))
                    else {
                        return Ok(());
                    };
                    if (a, b) == (b'-', b'-') {
                        // The close delimiter: the epilogue is ignored.
                        self.state = State::Done;
                        self.pending = ByteSeq::new();
                        return Ok(());
                    }
                    // Transport padding (LWSP), then CRLF.
                    let mut i = 0u64;
                    loop {
                        match byte_at(&self.pending, i) {
                            None if i > MAX_PADDING => {
                                return Err("Too much padding after a multipart delimiter".into())
                            }
                            None => return Ok(()),
                            Some(b' ' | b'\t') => i += 1,
                            Some(b'\r') => match byte_at(&self.pending, i + 1) {
                                None => return Ok(()),
                                Some(b'\n') => break,
                                Some(_) => {
                                    return Err(
                                        "A multipart delimiter is not followed by CRLF".into()
                                    )
                                }
                            },
                            Some(_) => {
                                return Err("A multipart delimiter is not followed by CRLF".into())
                            }
                        }
                    }
                    self.consume(i + 2);
                    self.state = State::Headers;
                    self.searched = 0;
                }
                State::Headers => {
                    // An empty header block is just the CRLF of the empty line.
                    let end = match (byte_at(&self.pending, 0), byte_at(&self.pending, 1)) {
                        (Some(b'\r'), Some(b'\n')) => Some((0, 2)),
                        (Some(_), None) | (None, _) => return Ok(()),
                        _ => find(&self.pending, b"\r\n\r\n", self.searched.saturating_sub(3))
                            .map(|at| (at, at + 4)),
                    };
                    let Some((at, next)) = end else {
                        if self.pending.len() > MAX_HEADER_BYTES {
                            return Err(format!(
                                "A multipart part's headers are longer than {MAX_HEADER_BYTES} bytes"
                            ));
                        }
                        self.searched = self.pending.len();
                        return Ok(());
                    };
                    if at > MAX_HEADER_BYTES {
                        return Err(format!(
                            "A multipart part's headers are longer than {MAX_HEADER_BYTES} bytes"
                        ));
                    }
                    let block = self.pending.slice(0, at).to_vec();
                    self.head = Some(parse_part_headers(&block)?);
                    self.consume(next);
                    self.content = ByteSeq::new();
                    self.state = State::Content;
                }
                State::Content => match find(&self.pending, &self.delimiter, 0) {
                    Some(at) => {
                        self.content.extend(&self.pending.slice(0, at));
                        self.consume(at + self.delimiter.len() as u64);
                        self.finish_part()?;
                        self.state = State::AfterDelimiter;
                    }
                    None => {
                        let len = self.pending.len();
                        let safe = len.saturating_sub(keep);
                        if safe > 0 {
                            self.content.extend(&self.pending.slice(0, safe));
                            self.consume(safe);
                        }
                        return Ok(());
                    }
                },
                State::Done => {
                    self.pending = ByteSeq::new();
                    return Ok(());
                }
            }
        }
    }

    /// The part just read becomes an entry.
    fn finish_part(&mut self) -> Result<(), String> {
        let Some(head) = self.head.take() else {
            return Err("A multipart part has no headers".into());
        };
        let content = std::mem::take(&mut self.content);
        let value = match head.filename {
            // A part whose Content-Disposition has a filename parameter: a File whose
            // contents are the part's, named by the filename, typed by the part's
            // Content-Type or text/plain.
            Some(filename) => ParsedValue::File {
                filename,
                content_type: head.content_type.unwrap_or_else(|| "text/plain".into()),
                bytes: content,
            },
            // Otherwise the UTF-8 decoding without BOM of the content, whatever the
            // Content-Type or charset.
            None => ParsedValue::Text(String::from_utf8_lossy(&content.to_vec()).into_owned()),
        };
        self.entries.push(ParsedEntry {
            name: head.name,
            value,
        });
        Ok(())
    }
}

/// Reverse the escapes of the encoding algorithm (`%0A`, `%0D`, `%22`; no other).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(rest.get(..i).unwrap_or_default());
        let code = rest.get(i + 1..i + 3).map(str::to_ascii_uppercase);
        let c = match code.as_deref() {
            Some("0A") => Some('\n'),
            Some("0D") => Some('\r'),
            Some("22") => Some('"'),
            _ => None,
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = rest.get(i + 3..).unwrap_or_default();
            }
            None => {
                out.push('%');
                rest = rest.get(i + 1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

/// Parse a part's header block (its lines, CRLF-separated): the Content-Disposition's
/// `form-data` name and filename and the Content-Type. Header bytes are UTF-8 (what browsers
/// send), decoded lossily.
fn parse_part_headers(block: &[u8]) -> Result<PartHead, String> {
    let text = String::from_utf8_lossy(block);
    let mut disposition = None;
    let mut content_type = None;
    for line in text.split("\r\n") {
        let Some((name, value)) = line.split_once(':') else {
            if line.trim().is_empty() {
                continue;
            }
            return Err("A multipart part has a malformed header line".into());
        };
        let value = value.trim_matches([' ', '\t']);
        if name.eq_ignore_ascii_case("content-disposition") {
            disposition = Some(value.to_string());
        } else if name.eq_ignore_ascii_case("content-type") {
            content_type = Some(value.to_string());
        }
    }
    let Some(disposition) = disposition else {
        return Err("A multipart part has no Content-Disposition header".into());
    };
    let (kind, params) = parse_disposition(&disposition);
    if !kind.eq_ignore_ascii_case("form-data") {
        return Err("A multipart part's Content-Disposition is not form-data".into());
    }
    let param = |key: &str| {
        params
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| unescape(v))
    };
    let Some(name) = param("name") else {
        return Err("A multipart part's Content-Disposition has no name".into());
    };
    Ok(PartHead {
        name,
        filename: param("filename"),
        content_type,
    })
}

/// Split a Content-Disposition value into its type and `key=value` parameters; a quoted
/// value runs to the next `"` (browsers escape quotes as `%22`, never with backslashes).
fn parse_disposition(value: &str) -> (String, Vec<(String, String)>) {
    let (kind, mut rest) = match value.split_once(';') {
        Some((k, r)) => (k.trim().to_string(), r),
        None => (value.trim().to_string(), ""),
    };
    let mut params = Vec::new();
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';']);
        if rest.is_empty() {
            break;
        }
        let key_end = rest.find(['=', ';']).unwrap_or(rest.len());
        let key = rest.get(..key_end).unwrap_or_default().trim().to_string();
        rest = rest.get(key_end..).unwrap_or_default();
        let Some(after) = rest.strip_prefix('=') else {
            continue;
        };
        let after = after.trim_start_matches([' ', '\t']);
        let value;
        if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            value = quoted.get(..end).unwrap_or_default().to_string();
            rest = quoted.get(end + 1..).unwrap_or_default();
            // Anything up to the next ";" is dropped.
            rest = rest
                .find(';')
                .map_or("", |i| rest.get(i..).unwrap_or_default());
        } else {
            let end = after.find(';').unwrap_or(after.len());
            value = after.get(..end).unwrap_or_default().trim().to_string();
            rest = after.get(end..).unwrap_or_default();
        }
        params.push((key, value));
    }
    (kind, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_in_chunks(
        body: &[u8],
        boundary: &str,
        size: usize,
    ) -> Result<Vec<ParsedEntry>, String> {
        let mut p = MultipartParser::new(boundary)?;
        for chunk in body.chunks(size.max(1)) {
            p.feed(Bytes::copy_from_slice(chunk));
        }
        p.finish()
    }

    fn describe(entries: &[ParsedEntry]) -> String {
        entries
            .iter()
            .map(|e| match &e.value {
                ParsedValue::Text(t) => format!("{}={t}", e.name),
                ParsedValue::File {
                    filename,
                    content_type,
                    bytes,
                } => format!(
                    "{}=<{filename}|{content_type}|{}>",
                    e.name,
                    String::from_utf8_lossy(&bytes.to_vec())
                ),
            })
            .collect::<Vec<_>>()
            .join(";")
    }

    #[test]
    fn round_trip_at_every_chunk_size() {
        let entries = vec![
            EncodeEntry {
                name: "a\"b\nc".into(),
                value: EncodeValue::Text("x\ry\nz\r\n".into()),
            },
            EncodeEntry {
                name: "f".into(),
                value: EncodeValue::File {
                    bytes: ByteSeq::from_bytes(Bytes::from_static(b"\r\n--B\r\n--BOUND")),
                    filename: "q\"\r\n\u{e9}.txt".into(),
                    content_type: String::new(),
                },
            },
        ];
        let body = encode(entries, "BOUNDARY").to_vec();
        let expected = "a\"b\r\nc=x\r\ny\r\nz\r\n;f=<q\"\r\n\u{e9}.txt|application/octet-stream|\r\n--B\r\n--BOUND>";
        for size in 1..body.len() + 1 {
            let parsed = parse_in_chunks(&body, "BOUNDARY", size).unwrap();
            assert_eq!(describe(&parsed), expected, "chunk size {size}");
        }
    }

    #[test]
    fn preamble_epilogue_padding_and_errors() {
        let body = b"preamble\r\n--b  \r\nContent-Disposition: form-data; name=x\r\n\r\n1\r\n--b\r\ncontent-disposition: Form-Data; filename=\"f\"; name=\"y\"\r\n\r\n2\r\n--b--\r\nepilogue";
        let parsed = parse_in_chunks(body, "b", 3).unwrap();
        assert_eq!(describe(&parsed), "x=1;y=<f|text/plain|2>");
        let bad: &[&[u8]] = &[
            b"",
            b"--b\r\n\r\nx\r\n--b--",
            b"--b\r\nContent-Disposition: attachment; name=x\r\n\r\nx\r\n--b--",
            b"--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--",
            b"--b\r\nContent-Disposition: form-data; name=x\r\n\r\nx",
            b"--bx\r\nContent-Disposition: form-data; name=x\r\n\r\nx\r\n--b--",
            b"--b\r\nbroken\r\n\r\nx\r\n--b--",
        ];
        for body in bad {
            assert!(parse_in_chunks(body, "b", 2).is_err(), "{body:?}");
        }
        let long = [b"--b\r\nX: ".as_slice(), &[b'a'; 20000]].concat();
        assert!(parse_in_chunks(&long, "b", 100).is_err());
        assert!(MultipartParser::new("").is_err());
    }

    /// Corrupted and truncated bodies at many chunk sizes: an entry list or an error, never a
    /// panic.
    #[test]
    fn corrupted_bodies_never_panic() {
        let entries = vec![
            EncodeEntry {
                name: "n".into(),
                value: EncodeValue::Text("v".into()),
            },
            EncodeEntry {
                name: "f".into(),
                value: EncodeValue::File {
                    bytes: ByteSeq::from_bytes(Bytes::from_static(b"\r\n--x--\r\n")),
                    filename: "f".into(),
                    content_type: "a/b".into(),
                },
            },
        ];
        let body = encode(entries, "x").to_vec();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut ok = 0;
        for round in 0..2000 {
            let mut b = body.clone();
            for _ in 0..(next() % 4) {
                let i = (next() % b.len() as u64) as usize;
                b[i] = b"\r\n-x\"=;:a"[(next() % 9) as usize];
            }
            if round % 3 == 0 {
                b.truncate((next() % b.len() as u64) as usize);
            }
            if parse_in_chunks(&b, "x", 1 + (next() % 7) as usize).is_ok() {
                ok += 1;
            }
        }
        assert!(ok > 0 && ok < 2000, "{ok}");
    }

    #[test]
    fn file_contents_share_the_chunks() {
        let head = b"--b\r\nContent-Disposition: form-data; name=f; filename=a\r\n\r\n";
        let big = Bytes::from(vec![7u8; 100_000]);
        let mut p = MultipartParser::new("b").unwrap();
        p.feed(Bytes::copy_from_slice(head));
        p.feed(big.clone());
        p.feed(Bytes::from_static(b"\r\n--b--\r\n"));
        let entries = p.finish().unwrap();
        let Some(ParsedEntry {
            value: ParsedValue::File { bytes, .. },
            ..
        }) = entries.first()
        else {
            panic!("no file");
        };
        assert_eq!(bytes.len(), 100_000);
        assert_eq!(bytes.parts()[0].as_ptr(), big.as_ptr());
    }
}
