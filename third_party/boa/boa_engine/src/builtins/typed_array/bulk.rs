//! Bulk operations of `%TypedArray%.prototype` on the contiguous bytes of a view.
//!
//! `fill`, `set`, `slice`, `copyWithin`, `indexOf`, `lastIndexOf` and `includes` are specified
//! element by element through `Get`/`Set`, but once their arguments are converted no user code
//! can run, so the remaining steps are plain loops over the elements' bytes. The callers do every
//! observable step (conversions, bounds checks after them) before calling these helpers, which
//! only read and write bytes the caller has checked. Each helper checks the context's interrupt
//! flag every [`CHUNK_BYTES`] bytes of work, so an embedder can still stop a huge operation.

use std::{cmp::min, sync::atomic::Ordering};

use num_traits::ToPrimitive;

use super::{ClampedU8, ContentType, Element, TypedArrayElement, TypedArrayKind};
use crate::{
    Context, JsResult, JsValue,
    builtins::{
        array_buffer::utils::{BytesConstPtr, BytesMutPtr, SliceRef, SliceRefMut, memcpy, memmove},
        number::{f64_to_int32, f64_to_uint32},
    },
};

/// Bytes of work between two checks of the interrupt flag.
pub(super) const CHUNK_BYTES: usize = 64 * 1024;

/// Converts the Number `value` to an element of the Number type `kind` as `ToInt8`,
/// `ToUint8Clamp`, …, `ToFloat32` do; `None` if `kind` holds BigInts.
pub(super) fn number_to_element(kind: TypedArrayKind, value: f64) -> Option<TypedArrayElement> {
    // ToInt8, ToUint8, ToInt16 and ToUint16 take the integer modulo 2^8 or 2^16, which equals
    // the low bits of ToInt32's result (itself the integer modulo 2^32).
    Some(match kind {
        TypedArrayKind::Int8 => TypedArrayElement::Int8(f64_to_int32(value) as i8),
        TypedArrayKind::Uint8 => TypedArrayElement::Uint8(f64_to_int32(value) as u8),
        TypedArrayKind::Uint8Clamped => {
            TypedArrayElement::Uint8Clamped(ClampedU8(to_uint8_clamp(value)))
        }
        TypedArrayKind::Int16 => TypedArrayElement::Int16(f64_to_int32(value) as i16),
        TypedArrayKind::Uint16 => TypedArrayElement::Uint16(f64_to_int32(value) as u16),
        TypedArrayKind::Int32 => TypedArrayElement::Int32(f64_to_int32(value)),
        TypedArrayKind::Uint32 => TypedArrayElement::Uint32(f64_to_uint32(value)),
        #[cfg(feature = "float16")]
        TypedArrayKind::Float16 => {
            TypedArrayElement::Float16(super::Float16(float16::f16::from_f64(value)))
        }
        TypedArrayKind::Float32 => TypedArrayElement::Float32(value as f32),
        TypedArrayKind::Float64 => TypedArrayElement::Float64(value),
        TypedArrayKind::BigInt64 | TypedArrayKind::BigUint64 => return None,
    })
}

/// `ToUint8Clamp` of a Number: NaN and values ≤ 0 give 0, values ≥ 255 give 255, others round
/// to the nearest integer, ties to even.
fn to_uint8_clamp(value: f64) -> u8 {
    if value.is_nan() || value <= 0.0 {
        0
    } else if value >= 255.0 {
        255
    } else {
        value.round_ties_even() as u8
    }
}

/// Converts an element read from one typed array to the type `kind` of another with the same
/// content type, as `SetValueInBuffer(target, …, ToNumber/ToBigInt(element))` would.
fn convert_element(element: TypedArrayElement, kind: TypedArrayKind) -> Option<TypedArrayElement> {
    match element {
        TypedArrayElement::BigInt64(v) => bigint_to_element(kind, i128::from(v)),
        TypedArrayElement::BigUint64(v) => bigint_to_element(kind, i128::from(v)),
        number => number_to_element(kind, number.as_f64()),
    }
}

/// `ToBigInt64`/`ToBigUint64` of a value that fits in an `i128`; `None` for Number kinds.
fn bigint_to_element(kind: TypedArrayKind, value: i128) -> Option<TypedArrayElement> {
    // Both conversions keep the value modulo 2^64: its low 64 bits.
    match kind {
        TypedArrayKind::BigInt64 => Some(TypedArrayElement::BigInt64(value as i64)),
        TypedArrayKind::BigUint64 => Some(TypedArrayElement::BigUint64(value as u64)),
        _ => None,
    }
}

/// The element of `kind` a conversion-free value (a Number for a Number array, a BigInt for a
/// BigInt array) becomes when stored; `None` for any other value (storing it would run
/// `ToNumber`/`ToBigInt` on it, which can call user code or throw).
pub(super) fn primitive_to_element(
    kind: TypedArrayKind,
    value: &JsValue,
) -> Option<TypedArrayElement> {
    match kind.content_type() {
        ContentType::Number => number_to_element(kind, value.as_number()?),
        ContentType::BigInt => {
            let value = value.as_bigint()?;
            let value = value.as_inner();
            // The low 64 bits in two's complement are the value modulo 2^64.
            let low = match value.to_i64() {
                Some(v) => i128::from(v),
                None => {
                    let (sign, digits) = value.to_u64_digits();
                    let low = digits.first().copied().unwrap_or(0);
                    if sign == num_bigint::Sign::Minus {
                        i128::from(low.wrapping_neg())
                    } else {
                        i128::from(low)
                    }
                }
            };
            bigint_to_element(kind, low)
        }
    }
}

/// What `indexOf`, `lastIndexOf` and `includes` look for among the elements.
#[derive(Debug, Clone, Copy)]
pub(super) enum Needle {
    /// An element equal to this one (`+0` and `-0` are equal).
    Element(TypedArrayElement),
    /// A NaN element (`includes` of NaN in a float array).
    NaN,
    /// Nothing: no element can equal the search value.
    Nothing,
}

impl Needle {
    /// The needle for `searchElement` in an array of `kind`: `IsStrictlyEqual` when
    /// `same_value_zero` is false (`indexOf`, `lastIndexOf`), `SameValueZero` otherwise
    /// (`includes`). An element equals the search value only if converting the value to the
    /// element type and back gives the value itself.
    pub(super) fn new(kind: TypedArrayKind, search: &JsValue, same_value_zero: bool) -> Self {
        match kind.content_type() {
            ContentType::Number => {
                let Some(number) = search.as_number() else {
                    return Self::Nothing;
                };
                if number.is_nan() {
                    return if same_value_zero {
                        Self::NaN
                    } else {
                        Self::Nothing
                    };
                }
                match number_to_element(kind, number) {
                    Some(element) if element.as_f64() == number => Self::Element(element),
                    _ => Self::Nothing,
                }
            }
            ContentType::BigInt => {
                let Some(bigint) = search.as_bigint() else {
                    return Self::Nothing;
                };
                let bigint = bigint.as_inner();
                let element = match kind {
                    TypedArrayKind::BigInt64 => bigint.to_i64().map(TypedArrayElement::BigInt64),
                    TypedArrayKind::BigUint64 => bigint.to_u64().map(TypedArrayElement::BigUint64),
                    _ => None,
                };
                element.map_or(Self::Nothing, Self::Element)
            }
        }
    }
}

/// The index, in elements from the start of `bytes`, of the first element of `bytes` (of type
/// `kind`) that matches `needle`, or of the last one if `reverse`.
pub(super) fn position(
    bytes: SliceRef<'_>,
    kind: TypedArrayKind,
    needle: Needle,
    reverse: bool,
    context: &Context,
) -> JsResult<Option<usize>> {
    macro_rules! find {
        ($ty:ty, $pred:expr) => {
            find_element::<$ty>(bytes, $pred, reverse, context)
        };
    }
    match needle {
        Needle::Nothing => Ok(None),
        Needle::NaN => match kind {
            TypedArrayKind::Float32 => find!(f32, |x: f32| x.is_nan()),
            TypedArrayKind::Float64 => find!(f64, |x: f64| x.is_nan()),
            #[cfg(feature = "float16")]
            TypedArrayKind::Float16 => find!(super::Float16, |x: super::Float16| x.0.is_nan()),
            _ => Ok(None),
        },
        Needle::Element(element) => match element {
            TypedArrayElement::Int8(v) => find!(i8, |x: i8| x == v),
            TypedArrayElement::Uint8(v) => find!(u8, |x: u8| x == v),
            TypedArrayElement::Uint8Clamped(v) => find!(ClampedU8, |x: ClampedU8| x == v),
            TypedArrayElement::Int16(v) => find!(i16, |x: i16| x == v),
            TypedArrayElement::Uint16(v) => find!(u16, |x: u16| x == v),
            TypedArrayElement::Int32(v) => find!(i32, |x: i32| x == v),
            TypedArrayElement::Uint32(v) => find!(u32, |x: u32| x == v),
            TypedArrayElement::BigInt64(v) => find!(i64, |x: i64| x == v),
            TypedArrayElement::BigUint64(v) => find!(u64, |x: u64| x == v),
            #[cfg(feature = "float16")]
            TypedArrayElement::Float16(v) => {
                find!(super::Float16, |x: super::Float16| x.0 == v.0)
            }
            // IEEE equality: NaN equals nothing, +0 equals -0.
            TypedArrayElement::Float32(v) => find!(f32, |x: f32| x == v),
            TypedArrayElement::Float64(v) => find!(f64, |x: f64| x == v),
        },
    }
}

/// [`position`] for one element type.
fn find_element<E: Element>(
    bytes: SliceRef<'_>,
    pred: impl Fn(E) -> bool,
    reverse: bool,
    context: &Context,
) -> JsResult<Option<usize>> {
    let size = size_of::<E>();
    let per_chunk = CHUNK_BYTES / size;
    if let SliceRef::Slice(plain) = bytes
        && let Ok(elements) = bytemuck::try_cast_slice::<u8, E>(plain)
    {
        // Each chunk is first tested without early exit (a loop the compiler vectorizes), then
        // searched in the chunk that has a match.
        let hit = |chunk: &[E]| chunk.iter().fold(false, |found, x| found | pred(*x));
        if reverse {
            let mut end = elements.len();
            while end > 0 {
                context.check_interrupt()?;
                let start = end.saturating_sub(per_chunk);
                if let Some(chunk) = elements.get(start..end)
                    && hit(chunk)
                {
                    return Ok(chunk.iter().rposition(|x| pred(*x)).map(|i| start + i));
                }
                end = start;
            }
        } else {
            for (n, chunk) in elements.chunks(per_chunk).enumerate() {
                context.check_interrupt()?;
                if hit(chunk) {
                    return Ok(chunk
                        .iter()
                        .position(|x| pred(*x))
                        .map(|i| n * per_chunk + i));
                }
            }
        }
        return Ok(None);
    }

    // A shared buffer: one relaxed atomic load per element.
    let count = bytes.len() / size;
    let read = |i: usize| {
        // SAFETY: `i < count`, so the element's bytes are in `bytes`, which is aligned to the
        // element size like the view it comes from.
        unsafe { E::read(bytes.subslice(i * size..)).load(Ordering::Relaxed) }
    };
    for step in 0..count {
        if step % per_chunk == 0 {
            context.check_interrupt()?;
        }
        let i = if reverse { count - 1 - step } else { step };
        if pred(read(i)) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// The bytes of `element` in the platform's byte order, and how many there are.
fn element_bytes(element: TypedArrayElement) -> ([u8; 8], usize) {
    fn widen<const N: usize>(bytes: [u8; N]) -> ([u8; 8], usize) {
        let mut out = [0; 8];
        for (to, from) in out.iter_mut().zip(bytes) {
            *to = from;
        }
        (out, N)
    }
    match element {
        TypedArrayElement::Int8(v) => widen(v.to_ne_bytes()),
        TypedArrayElement::Uint8(v) => widen([v]),
        TypedArrayElement::Uint8Clamped(v) => widen([v.0]),
        TypedArrayElement::Int16(v) => widen(v.to_ne_bytes()),
        TypedArrayElement::Uint16(v) => widen(v.to_ne_bytes()),
        TypedArrayElement::Int32(v) => widen(v.to_ne_bytes()),
        TypedArrayElement::Uint32(v) => widen(v.to_ne_bytes()),
        TypedArrayElement::BigInt64(v) => widen(v.to_ne_bytes()),
        TypedArrayElement::BigUint64(v) => widen(v.to_ne_bytes()),
        #[cfg(feature = "float16")]
        TypedArrayElement::Float16(v) => widen(v.0.to_bits().to_ne_bytes()),
        TypedArrayElement::Float32(v) => widen(v.to_bits().to_ne_bytes()),
        TypedArrayElement::Float64(v) => widen(v.to_bits().to_ne_bytes()),
    }
}

/// Stores `element` into every element of `bytes`, a whole number of elements of its type.
pub(super) fn fill(
    mut bytes: SliceRefMut<'_>,
    element: TypedArrayElement,
    context: &Context,
) -> JsResult<()> {
    let (pattern, size) = element_bytes(element);
    let pattern = pattern.get(..size).unwrap_or(&pattern[..]);
    if let SliceRefMut::Slice(plain) = &mut bytes {
        // Fill the first chunk, then copy it over the next ones.
        let head = min(plain.len(), CHUNK_BYTES);
        let (first, rest) = plain.split_at_mut(head);
        match pattern {
            [byte, others @ ..] if others.iter().all(|b| b == byte) => first.fill(*byte),
            _ => {
                for slot in first.chunks_exact_mut(size) {
                    slot.copy_from_slice(pattern);
                }
            }
        }
        for chunk in rest.chunks_mut(CHUNK_BYTES) {
            context.check_interrupt()?;
            if let Some(source) = first.get(..chunk.len()) {
                chunk.copy_from_slice(source);
            }
        }
        return Ok(());
    }

    // A shared buffer: one relaxed atomic store per element, so no element tears.
    let per_chunk = CHUNK_BYTES / size;
    for i in 0..bytes.len() / size {
        if i % per_chunk == 0 {
            context.check_interrupt()?;
        }
        // SAFETY: the element's bytes are in `bytes`, which is aligned to the element size like
        // the view it comes from.
        unsafe {
            bytes
                .subslice_mut(i * size..)
                .set_value(element, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// Reads `count` elements of `src_kind` from `src` and stores each, converted, as an element of
/// `dst_kind` into `dst`, in order. The kinds have the same content type; `src` and `dst` are
/// distinct memory.
pub(super) fn convert(
    src: SliceRef<'_>,
    src_kind: TypedArrayKind,
    mut dst: SliceRefMut<'_>,
    dst_kind: TypedArrayKind,
    count: usize,
    context: &Context,
) -> JsResult<()> {
    let src_size = src_kind.element_size() as usize;
    let dst_size = dst_kind.element_size() as usize;
    let mut start = 0;
    if let (SliceRef::Slice(src), SliceRefMut::Slice(dst)) = (src, &mut dst) {
        start = convert_plain(src, src_kind, dst, dst_kind, count, context)?;
    }
    let per_chunk = CHUNK_BYTES / dst_size;
    for i in start..count {
        if i % per_chunk == 0 {
            context.check_interrupt()?;
        }
        // SAFETY: the caller checked that `count` elements are in `src` and `dst`, both aligned
        // to their element size.
        let value = unsafe {
            src.subslice(i * src_size..)
                .get_value(src_kind, Ordering::Relaxed)
        };
        let Some(value) = convert_element(value, dst_kind) else {
            continue;
        };
        // SAFETY: as above.
        unsafe {
            dst.subslice_mut(i * dst_size..)
                .set_value(value, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// [`convert`] between plain (not shared) buffers: a typed loop per element type through a
/// small buffer of Numbers, chunk by chunk. Returns how many elements it converted: all of
/// them, or 0 if a slice is not aligned to its element type (never for a typed array's bytes;
/// the caller then goes element by element).
fn convert_plain(
    src: &[u8],
    src_kind: TypedArrayKind,
    dst: &mut [u8],
    dst_kind: TypedArrayKind,
    count: usize,
    context: &Context,
) -> JsResult<usize> {
    const BATCH: usize = 1024;
    let src_size = src_kind.element_size() as usize;
    let dst_size = dst_kind.element_size() as usize;
    let (Some(src), Some(dst)) = (src.get(..count * src_size), dst.get_mut(..count * dst_size))
    else {
        return Ok(0);
    };
    if src_kind.content_type() == ContentType::BigInt {
        // BigInt64 <-> BigUint64: the conversion modulo 2^64 keeps the bits.
        dst.copy_from_slice(src);
        return Ok(count);
    }
    let mut numbers = [0.0; BATCH];
    for (src, dst) in src
        .chunks(BATCH * src_size)
        .zip(dst.chunks_mut(BATCH * dst_size))
    {
        context.check_interrupt()?;
        let n = src.len() / src_size;
        let Some(numbers) = numbers.get_mut(..n) else {
            return Ok(0);
        };
        if read_numbers(src_kind, src, numbers).is_none()
            || write_numbers(dst_kind, numbers, dst).is_none()
        {
            return Ok(0);
        }
    }
    Ok(count)
}

/// Reads the elements of the Number type `kind` in `bytes` as Numbers into `out`; `None` if
/// `bytes` is not aligned to the type or `kind` holds BigInts.
fn read_numbers(kind: TypedArrayKind, bytes: &[u8], out: &mut [f64]) -> Option<()> {
    macro_rules! read {
        ($ty:ty, $to_number:expr) => {{
            let elements: &[$ty] = bytemuck::try_cast_slice(bytes).ok()?;
            for (out, element) in out.iter_mut().zip(elements) {
                *out = $to_number(*element);
            }
        }};
    }
    match kind {
        TypedArrayKind::Int8 => read!(i8, f64::from),
        TypedArrayKind::Uint8 => read!(u8, f64::from),
        TypedArrayKind::Uint8Clamped => read!(ClampedU8, |e: ClampedU8| f64::from(e.0)),
        TypedArrayKind::Int16 => read!(i16, f64::from),
        TypedArrayKind::Uint16 => read!(u16, f64::from),
        TypedArrayKind::Int32 => read!(i32, f64::from),
        TypedArrayKind::Uint32 => read!(u32, f64::from),
        #[cfg(feature = "float16")]
        TypedArrayKind::Float16 => read!(super::Float16, |e: super::Float16| e.0.to_f64()),
        TypedArrayKind::Float32 => read!(f32, f64::from),
        TypedArrayKind::Float64 => read!(f64, |e: f64| e),
        TypedArrayKind::BigInt64 | TypedArrayKind::BigUint64 => return None,
    }
    Some(())
}

/// Stores `numbers` as elements of the Number type `kind` into `bytes`, converted as
/// [`number_to_element`] does; `None` if `bytes` is not aligned to the type or `kind` holds
/// BigInts.
fn write_numbers(kind: TypedArrayKind, numbers: &[f64], bytes: &mut [u8]) -> Option<()> {
    macro_rules! write {
        ($ty:ty, $from_number:expr) => {{
            let elements: &mut [$ty] = bytemuck::try_cast_slice_mut(bytes).ok()?;
            for (element, number) in elements.iter_mut().zip(numbers) {
                *element = $from_number(*number);
            }
        }};
    }
    match kind {
        TypedArrayKind::Int8 => write!(i8, |n: f64| f64_to_int32(n) as i8),
        TypedArrayKind::Uint8 => write!(u8, |n: f64| f64_to_int32(n) as u8),
        TypedArrayKind::Uint8Clamped => write!(ClampedU8, |n: f64| ClampedU8(to_uint8_clamp(n))),
        TypedArrayKind::Int16 => write!(i16, |n: f64| f64_to_int32(n) as i16),
        TypedArrayKind::Uint16 => write!(u16, |n: f64| f64_to_int32(n) as u16),
        TypedArrayKind::Int32 => write!(i32, f64_to_int32),
        TypedArrayKind::Uint32 => write!(u32, f64_to_uint32),
        #[cfg(feature = "float16")]
        TypedArrayKind::Float16 => write!(super::Float16, |n: f64| super::Float16(
            float16::f16::from_f64(n)
        )),
        TypedArrayKind::Float32 => write!(f32, |n: f64| n as f32),
        TypedArrayKind::Float64 => write!(f64, |n: f64| n),
        TypedArrayKind::BigInt64 | TypedArrayKind::BigUint64 => return None,
    }
    Some(())
}

/// `memcpy` of `count` bytes in pieces of [`CHUNK_BYTES`], checking the interrupt flag before
/// each.
///
/// # Safety
///
/// As [`memcpy`]: `src` readable and `dst` writable for `count` bytes, not overlapping.
pub(super) unsafe fn copy(
    src: BytesConstPtr,
    dst: BytesMutPtr,
    count: usize,
    context: &Context,
) -> JsResult<()> {
    let mut done = 0;
    while done < count {
        context.check_interrupt()?;
        let n = min(CHUNK_BYTES, count - done);
        // SAFETY: `done + n <= count`; the rest is the caller's contract.
        unsafe { memcpy(src.add(done), dst.add(done), n) };
        done += n;
    }
    Ok(())
}

/// `memmove` of `count` bytes from offset `from` to offset `to` of `ptr` in pieces of
/// [`CHUNK_BYTES`], checking the interrupt flag before each; overlapping ranges copy as if
/// through a temporary buffer.
///
/// # Safety
///
/// As [`memmove`]: `ptr + from` readable and `ptr + to` writable for `count` bytes.
pub(super) unsafe fn copy_within(
    ptr: BytesMutPtr,
    from: usize,
    to: usize,
    count: usize,
    context: &Context,
) -> JsResult<()> {
    if from < to {
        // Back to front, so the bytes still to be read are never overwritten.
        let mut left = count;
        while left > 0 {
            context.check_interrupt()?;
            let n = min(CHUNK_BYTES, left);
            left -= n;
            // SAFETY: `left + n <= count`; the rest is the caller's contract.
            unsafe { memmove(ptr, from + left, to + left, n) };
        }
    } else {
        let mut done = 0;
        while done < count {
            context.check_interrupt()?;
            let n = min(CHUNK_BYTES, count - done);
            // SAFETY: `done + n <= count`; the rest is the caller's contract.
            unsafe { memmove(ptr, from + done, to + done, n) };
            done += n;
        }
    }
    Ok(())
}
