//! Byte sequences shared by `Blob`, `File`, `FileReader` and the Fetch bodies: a list of
//! [`Bytes`] pieces (so slices and copies of a `Blob` share their backing memory), and the
//! WebIDL `BufferSource` conversion.

use boa_engine::{
    object::builtins::{AlignedVec, JsArrayBuffer},
    Context, JsObject, JsResult, JsValue,
};
use bytes::Bytes;

use boa_streams::spec::to_array_buffer_view;

/// An immutable byte sequence held as shared pieces: cloning and slicing never copy bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteSeq {
    parts: Vec<Bytes>,
    len: u64,
}

impl ByteSeq {
    /// The empty sequence.
    pub fn new() -> Self {
        Self::default()
    }

    /// A sequence of one piece.
    pub fn from_bytes(bytes: Bytes) -> Self {
        let mut seq = Self::new();
        seq.push(bytes);
        seq
    }

    /// Append a piece (empty pieces are dropped).
    pub fn push(&mut self, bytes: Bytes) {
        if !bytes.is_empty() {
            self.len += bytes.len() as u64;
            self.parts.push(bytes);
        }
    }

    /// Append every piece of `other` (no copy).
    pub fn extend(&mut self, other: &ByteSeq) {
        for part in &other.parts {
            self.push(part.clone());
        }
    }

    /// The length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the sequence is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pieces, in order (none is empty).
    pub fn parts(&self) -> &[Bytes] {
        &self.parts
    }

    /// The bytes in `[start, end)` (clamped to the length), sharing the pieces' memory.
    pub fn slice(&self, start: u64, end: u64) -> ByteSeq {
        let end = end.min(self.len);
        let mut out = ByteSeq::new();
        if start >= end {
            return out;
        }
        let mut offset = 0u64;
        for part in &self.parts {
            let part_len = part.len() as u64;
            let part_start = offset;
            let part_end = offset + part_len;
            offset = part_end;
            if part_end <= start {
                continue;
            }
            if part_start >= end {
                break;
            }
            // Both bounds lie within the piece: usize conversions cannot truncate.
            let from = start.saturating_sub(part_start) as usize;
            let to = (end.min(part_end) - part_start) as usize;
            out.push(part.slice(from..to));
        }
        out
    }

    /// All bytes as one `Bytes` (no copy when there is at most one piece).
    pub fn to_bytes(&self) -> Bytes {
        match self.parts.as_slice() {
            [] => Bytes::new(),
            [one] => one.clone(),
            parts => {
                let mut v = Vec::with_capacity(usize::try_from(self.len).unwrap_or(0));
                for p in parts {
                    v.extend_from_slice(p);
                }
                Bytes::from(v)
            }
        }
    }

    /// All bytes copied into one vector.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(usize::try_from(self.len).unwrap_or(0));
        for p in &self.parts {
            v.extend_from_slice(p);
        }
        v
    }

    /// Remove and return at most `max` bytes from the front (no copy).
    pub fn take_front(&mut self, max: usize) -> Bytes {
        let Some(first) = self.parts.first_mut() else {
            return Bytes::new();
        };
        let chunk = if first.len() <= max {
            let chunk = first.clone();
            self.parts.remove(0);
            chunk
        } else {
            first.split_to(max)
        };
        self.len -= chunk.len() as u64;
        chunk
    }
}

/// A new `ArrayBuffer` holding a copy of `seq` (the engine's buffers own aligned blocks).
pub fn array_buffer_from(seq: &ByteSeq, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    let mut block = AlignedVec::with_capacity(64, usize::try_from(seq.len()).unwrap_or(0));
    for part in seq.parts() {
        block.extend_from_slice(part);
    }
    boa_webidl::gc_pressure::new_array_buffer(block, ctx)
}

/// A new `Uint8Array` over a copy of `seq`.
pub fn uint8_array_from(seq: &ByteSeq, ctx: &mut Context) -> JsResult<JsObject> {
    let buffer = array_buffer_from(seq, ctx)?;
    Ok(boa_engine::object::builtins::JsUint8Array::from_array_buffer(buffer, ctx)?.into())
}

/// If `value` is a [`BufferSource`](https://webidl.spec.whatwg.org/#BufferSource) (an
/// `ArrayBuffer` or a view on one), [get a copy of the bytes held by the buffer
/// source](https://webidl.spec.whatwg.org/#dfn-get-buffer-source-copy); `None` otherwise.
/// Reads the engine's slots, never the prototype getters, so script cannot observe it.
// NOTE: a resizable ArrayBuffer is accepted (Boa keeps the flag private; the bytes it holds
// now are copied).
pub fn buffer_source_copy(value: &JsValue, ctx: &mut Context) -> Option<Bytes> {
    let object = value.as_object()?;
    if let Ok(buffer) = JsArrayBuffer::from_object(object.clone()) {
        // A detached buffer holds no bytes.
        let bytes = buffer.data().map(|d| d.to_vec()).unwrap_or_default();
        return Some(Bytes::from(bytes));
    }
    let view = to_array_buffer_view(value, "the value", ctx).ok()?;
    let data = view.buffer.data();
    let bytes = data.as_deref().and_then(|d| {
        let start = usize::try_from(view.byte_offset).ok()?;
        let end = start.checked_add(usize::try_from(view.byte_length).ok()?)?;
        d.get(start..end).map(<[u8]>::to_vec)
    });
    Some(Bytes::from(bytes.unwrap_or_default()))
}

/// Whether `value` is a `BufferSource` (an `ArrayBuffer` or a view on one), without copying.
pub fn is_buffer_source(value: &JsValue, ctx: &mut Context) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    JsArrayBuffer::from_object(object.clone()).is_ok()
        || to_array_buffer_view(value, "the value", ctx).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_share_the_backing_memory() {
        let a = Bytes::from_static(b"hello ");
        let b = Bytes::from(b"world".to_vec());
        let mut seq = ByteSeq::new();
        seq.push(a.clone());
        seq.push(b.clone());
        let s = seq.slice(4, 8);
        assert_eq!(s.to_vec(), b"o wo");
        assert_eq!(s.parts().len(), 2);
        assert_eq!(s.parts()[0].as_ptr(), a[4..].as_ptr());
        assert_eq!(s.parts()[1].as_ptr(), b.as_ptr());
        assert_eq!(seq.slice(7, 100).to_vec(), b"orld");
        assert!(seq.slice(8, 3).is_empty());
    }

    #[test]
    fn take_front_splits_pieces() {
        let mut seq = ByteSeq::from_bytes(Bytes::from_static(b"abcdef"));
        seq.push(Bytes::from_static(b"gh"));
        assert_eq!(&seq.take_front(4)[..], b"abcd");
        assert_eq!(&seq.take_front(4)[..], b"ef");
        assert_eq!(&seq.take_front(4)[..], b"gh");
        assert!(seq.take_front(4).is_empty());
        assert_eq!(seq.len(), 0);
    }
}
