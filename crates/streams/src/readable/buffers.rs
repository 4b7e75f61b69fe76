//! Binary-data helpers for readable byte streams: the WebIDL `ArrayBufferView` conversion,
//! [TransferArrayBuffer](https://streams.spec.whatwg.org/#transfer-array-buffer) with real
//! detachment, IsDetachedBuffer, CanTransferArrayBuffer, CloneAsUint8Array, CopyDataBlockBytes
//! and the construction of views of every typed array kind (and `DataView`).

use boa_engine::{
    builtins::{array_buffer::ArrayBuffer, dataview::DataView, typed_array::TypedArray},
    object::builtins::{
        js_typed_array_from_kind, AlignedVec, JsArrayBuffer, JsDataView, JsTypedArray,
    },
    Context, JsObject, JsResult, JsValue,
};

pub use boa_engine::builtins::typed_array::TypedArrayKind;

use boa_gc::{Finalize, Trace};

use boa_webidl::type_error;

/// A [pull-into descriptor](https://streams.spec.whatwg.org/#pull-into-descriptor)'s view
/// constructor: a typed array constructor from
/// [the typed array constructors table](https://tc39.es/ecma262/#table-the-typedarray-constructors)
/// or `%DataView%`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewConstructor {
    /// `%DataView%`.
    DataView,
    /// A typed array constructor.
    Typed(TypedArrayKind),
}

impl ViewConstructor {
    /// The element size from the typed array constructors table (1 for `DataView`).
    pub fn element_size(self) -> u64 {
        match self {
            Self::DataView => 1,
            Self::Typed(kind) => match kind {
                TypedArrayKind::Int8 | TypedArrayKind::Uint8 | TypedArrayKind::Uint8Clamped => 1,
                TypedArrayKind::Int16 | TypedArrayKind::Uint16 | TypedArrayKind::Float16 => 2,
                TypedArrayKind::Int32 | TypedArrayKind::Uint32 | TypedArrayKind::Float32 => 4,
                TypedArrayKind::BigInt64 | TypedArrayKind::BigUint64 | TypedArrayKind::Float64 => 8,
            },
        }
    }

    /// The intrinsic constructor object of the current realm (also structured clone's
    /// deserialization of views).
    pub fn constructor(self, ctx: &mut Context) -> JsObject {
        let c = ctx.intrinsics().constructors();
        let standard = match self {
            Self::DataView => c.data_view(),
            Self::Typed(kind) => match kind {
                TypedArrayKind::Int8 => c.typed_int8_array(),
                TypedArrayKind::Uint8 => c.typed_uint8_array(),
                TypedArrayKind::Uint8Clamped => c.typed_uint8clamped_array(),
                TypedArrayKind::Int16 => c.typed_int16_array(),
                TypedArrayKind::Uint16 => c.typed_uint16_array(),
                TypedArrayKind::Int32 => c.typed_int32_array(),
                TypedArrayKind::Uint32 => c.typed_uint32_array(),
                TypedArrayKind::BigInt64 => c.typed_bigint64_array(),
                TypedArrayKind::BigUint64 => c.typed_biguint64_array(),
                TypedArrayKind::Float16 => c.typed_float16_array(),
                TypedArrayKind::Float32 => c.typed_float32_array(),
                TypedArrayKind::Float64 => c.typed_float64_array(),
            },
        };
        standard.constructor()
    }

    /// `! Construct(ctor, « buffer, byteOffset, length »)`.
    pub fn construct(
        self,
        buffer: &JsArrayBuffer,
        byte_offset: u64,
        length: u64,
        ctx: &mut Context,
    ) -> JsResult<JsObject> {
        if self.covers(buffer, byte_offset, length) && is_fixed_length_array_buffer(buffer) {
            if let Some(view) = self.construct_whole(buffer, ctx)? {
                return Ok(view);
            }
        }
        self.construct_generic(buffer, byte_offset, length, ctx)
    }

    /// [`construct`](Self::construct) over a buffer the library made (TransferArrayBuffer,
    /// CloneArrayBuffer, `Construct(%ArrayBuffer%, « size »)`, a Rust byte block): those are
    /// fixed-length, so the check (which allocates an error in boa) is only asserted.
    pub(crate) fn construct_own(
        self,
        buffer: &JsArrayBuffer,
        byte_offset: u64,
        length: u64,
        ctx: &mut Context,
    ) -> JsResult<JsObject> {
        debug_assert!(is_fixed_length_array_buffer(buffer));
        if self.covers(buffer, byte_offset, length) {
            if let Some(view) = self.construct_whole(buffer, ctx)? {
                return Ok(view);
            }
        }
        self.construct_generic(buffer, byte_offset, length, ctx)
    }

    /// Whether a typed array of `length` elements at `byte_offset` is all of `buffer`, and
    /// the fast paths are on.
    fn covers(self, buffer: &JsArrayBuffer, byte_offset: u64, length: u64) -> bool {
        matches!(self, Self::Typed(_))
            && boa_webidl::fast_paths()
            && byte_offset == 0
            && length.checked_mul(self.element_size()) == Some(array_buffer_byte_length(buffer))
    }

    /// `Construct(ctor, « buffer »)` of a typed array constructor over a fixed-length buffer.
    // NOTE: that is the object Construct(ctor, « buffer, 0, byteLength ÷ elementSize ») makes
    // (same buffer, offset, byte length and length); boa's `from_array_buffer` runs the
    // constructor without the generic [[Construct]] machinery. Neither runs user code: the
    // intrinsic constructor's "prototype" is a non-writable, non-configurable data property.
    fn construct_whole(
        self,
        buffer: &JsArrayBuffer,
        ctx: &mut Context,
    ) -> JsResult<Option<JsObject>> {
        let Self::Typed(kind) = self else {
            return Ok(None);
        };
        let view = js_typed_array_from_kind(kind, buffer.clone(), ctx)?;
        Ok(view.as_object())
    }

    fn construct_generic(
        self,
        buffer: &JsArrayBuffer,
        byte_offset: u64,
        length: u64,
        ctx: &mut Context,
    ) -> JsResult<JsObject> {
        let ctor = self.constructor(ctx);
        let buffer: JsObject = buffer.clone().into();
        ctor.construct(
            &[buffer.into(), byte_offset.into(), length.into()],
            None,
            ctx,
        )
    }
}

/// An `ArrayBufferView` (a typed array or a `DataView`) after the WebIDL conversion, with the
/// internal slots the stream algorithms read.
#[derive(Debug, Clone)]
pub struct ViewRecord {
    /// `[[ViewedArrayBuffer]]` (never a SharedArrayBuffer: the conversion rejects those).
    pub buffer: JsArrayBuffer,
    /// `[[ByteOffset]]`.
    pub byte_offset: u64,
    /// `[[ByteLength]]` (0 when the buffer is detached).
    pub byte_length: u64,
    /// `[[TypedArrayName]]`'s constructor, or `%DataView%`.
    pub constructor: ViewConstructor,
    /// `[[ArrayLength]]` for typed arrays (0 when detached); the byte length for a `DataView`.
    pub array_length: u64,
}

/// Convert `value` to the WebIDL type `ArrayBufferView` (neither `[AllowShared]` nor
/// `[AllowResizable]`): a TypeError unless it is a typed array or a `DataView` whose buffer is a
/// (non-shared) ArrayBuffer.
pub fn to_array_buffer_view(
    value: &JsValue,
    what: &str,
    ctx: &mut Context,
) -> JsResult<ViewRecord> {
    let Some(object) = value.as_object() else {
        return Err(type_error(format!("{what} is not an ArrayBufferView")));
    };
    let object = object.clone();
    // The raw slots are read from the engine's data, not through the prototype getters, so
    // script cannot observe the conversion.
    let typed = object
        .downcast_ref::<TypedArray>()
        .map(|ta| (ta.kind(), ta.byte_offset(), ta.clone()));
    if let Some((kind, byte_offset, ta)) = typed {
        let js = JsTypedArray::from_object(object.clone())?;
        // NOTE: JsTypedArray::buffer calls the built-in getter directly (no property lookup).
        let buffer = js.buffer(ctx)?;
        let buffer = array_buffer_of(&buffer, what)?;
        let constructor = ViewConstructor::Typed(kind);
        // TypedArrayByteLength: 0 when detached or out of bounds.
        let byte_length = buffer.data().map_or(0, |data| ta.byte_length(data.len()));
        return Ok(ViewRecord {
            buffer,
            byte_offset,
            byte_length,
            constructor,
            array_length: byte_length / constructor.element_size(),
        });
    }
    if object.is::<DataView>() {
        let dv = JsDataView::from_object(object.clone())?;
        let buffer = array_buffer_of(&dv.buffer(ctx)?, what)?;
        // The getters throw for a detached (or out-of-bounds) view: those have no bytes.
        let byte_offset = dv.byte_offset(ctx).unwrap_or(0);
        let byte_length = dv.byte_length(ctx).unwrap_or(0);
        return Ok(ViewRecord {
            buffer,
            byte_offset,
            byte_length,
            constructor: ViewConstructor::DataView,
            array_length: byte_length,
        });
    }
    Err(type_error(format!("{what} is not an ArrayBufferView")))
}

fn array_buffer_of(buffer: &JsValue, what: &str) -> JsResult<JsArrayBuffer> {
    let buffer = buffer
        .as_object()
        .and_then(|o| JsArrayBuffer::from_object(o.clone()).ok())
        .ok_or_else(|| type_error(format!("{what} must not be a view on a SharedArrayBuffer")))?;
    // WebIDL: without [AllowResizable], a view on a resizable buffer is a TypeError.
    if !is_fixed_length_array_buffer(&buffer) {
        return Err(type_error(format!(
            "{what} must not be a view on a resizable ArrayBuffer"
        )));
    }
    Ok(buffer)
}

/// [IsFixedLengthArrayBuffer](https://tc39.es/ecma262/#sec-isfixedlengtharraybuffer).
// NOTE: Boa keeps [[ArrayBufferMaxByteLength]] private; `ArrayBuffer::resize` to the current
// length fails only for a fixed-length buffer and changes nothing for a resizable one. A
// detached buffer reports fixed-length here; every caller rejects detached buffers anyway.
fn is_fixed_length_array_buffer(buffer: &JsArrayBuffer) -> bool {
    let object: JsObject = buffer.clone().into();
    let Some(mut data) = object.downcast_mut::<ArrayBuffer>() else {
        return true;
    };
    let Some(len) = data.data().map(<[u8]>::len) else {
        return true;
    };
    data.resize(len as u64).is_err()
}

/// [IsDetachedBuffer](https://tc39.es/ecma262/#sec-isdetachedbuffer)
pub fn is_detached_buffer(buffer: &JsArrayBuffer) -> bool {
    // 1. If arrayBuffer.[[ArrayBufferData]] is null, return true.
    // 2. Return false.
    buffer.data().is_none()
}

/// `[[ArrayBufferByteLength]]` (0 when detached).
pub fn array_buffer_byte_length(buffer: &JsArrayBuffer) -> u64 {
    buffer.data().map_or(0, |d| d.len() as u64)
}

/// [TransferArrayBuffer](https://streams.spec.whatwg.org/#transfer-array-buffer): `buffer`
/// becomes detached and the returned buffer owns its data block (no copy).
pub fn transfer_array_buffer(buffer: &JsArrayBuffer, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    // 1. Assert: ! IsDetachedBuffer(O) is false.
    // 2. Let arrayBufferData be O.[[ArrayBufferData]].
    // 3. Let arrayBufferByteLength be O.[[ArrayBufferByteLength]].
    // 4. Perform ? DetachArrayBuffer(O).
    let block = buffer.detach(&JsValue::undefined())?;
    // 5. Return a new ArrayBuffer object, created in the current Realm, whose
    //    [[ArrayBufferData]] internal slot value is arrayBufferData and whose
    //    [[ArrayBufferByteLength]] internal slot value is arrayBufferByteLength.
    boa_webidl::gc_pressure::adopt_array_buffer(block, ctx)
}

/// [CloneArrayBuffer](https://tc39.es/ecma262/#sec-clonearraybuffer)`(srcBuffer, srcByteOffset,
/// srcLength, %ArrayBuffer%)`.
pub fn clone_array_buffer(
    src: &JsArrayBuffer,
    src_byte_offset: u64,
    src_length: u64,
    ctx: &mut Context,
) -> JsResult<JsArrayBuffer> {
    let block = {
        let data = src.data();
        clone_block(data.as_deref(), src_byte_offset, src_length)?
    };
    boa_webidl::gc_pressure::new_array_buffer(block, ctx)
}

/// [CloneAsUint8Array](https://streams.spec.whatwg.org/#abstract-opdef-cloneasuint8array)
pub fn clone_as_uint8_array(view: &ViewRecord, ctx: &mut Context) -> JsResult<JsObject> {
    // 1. Assert: O is an Object.
    // 2. Assert: O has an [[ViewedArrayBuffer]] internal slot.
    // 3. Assert: ! IsDetachedBuffer(O.[[ViewedArrayBuffer]]) is false.
    // 4. Let buffer be ? CloneArrayBuffer(O.[[ViewedArrayBuffer]], O.[[ByteOffset]],
    //    O.[[ByteLength]], %ArrayBuffer%).
    let buffer = clone_array_buffer(&view.buffer, view.byte_offset, view.byte_length, ctx)?;
    // 5. Let array be ! Construct(%Uint8Array%, « buffer »).
    let len = view.byte_length;
    // 6. Return array.
    ViewConstructor::Typed(TypedArrayKind::Uint8).construct_own(&buffer, 0, len, ctx)
}

/// [CanCopyDataBlockBytes](https://streams.spec.whatwg.org/#abstract-opdef-cancopydatablockbytes)
pub fn can_copy_data_block_bytes(
    to_buffer: &JsArrayBuffer,
    to_index: u64,
    from_buffer: &JsArrayBuffer,
    from_index: u64,
    count: u64,
) -> bool {
    // 1-4. Assert: both are objects with [[ArrayBufferData]].
    // 5. If toBuffer is fromBuffer, return false.
    let to_obj: JsObject = to_buffer.clone().into();
    let from_obj: JsObject = from_buffer.clone().into();
    if JsObject::equals(&to_obj, &from_obj) {
        return false;
    }
    // 6. If ! IsDetachedBuffer(toBuffer) is true, return false.
    // 7. If ! IsDetachedBuffer(fromBuffer) is true, return false.
    if is_detached_buffer(to_buffer) || is_detached_buffer(from_buffer) {
        return false;
    }
    // 8. If toIndex + count > toBuffer.[[ArrayBufferByteLength]], return false.
    // 9. If fromIndex + count > fromBuffer.[[ArrayBufferByteLength]], return false.
    // 10. Return true.
    to_index.saturating_add(count) <= array_buffer_byte_length(to_buffer)
        && from_index.saturating_add(count) <= array_buffer_byte_length(from_buffer)
}

/// [CopyDataBlockBytes](https://tc39.es/ecma262/#sec-copydatablockbytes) after a successful
/// [`can_copy_data_block_bytes`] check (returns false, copying nothing, if that check fails).
pub fn copy_data_block_bytes(
    to_buffer: &JsArrayBuffer,
    to_index: u64,
    from_buffer: &JsArrayBuffer,
    from_index: u64,
    count: u64,
) -> bool {
    if !can_copy_data_block_bytes(to_buffer, to_index, from_buffer, from_index, count) {
        return false;
    }
    let Some(src) = from_buffer.data() else {
        return false;
    };
    let Some(mut dst) = to_buffer.data_mut() else {
        return false;
    };
    copy_bytes(&mut dst, to_index, &src, from_index, count)
}

/// Copy `count` bytes of `src` from `from_index` into `dst` at `to_index`; false, copying
/// nothing, when either range lies outside its block.
fn copy_bytes(dst: &mut [u8], to_index: u64, src: &[u8], from_index: u64, count: u64) -> bool {
    let (Ok(to), Ok(from), Ok(n)) = (
        usize::try_from(to_index),
        usize::try_from(from_index),
        usize::try_from(count),
    ) else {
        return false;
    };
    match (
        to.checked_add(n).and_then(|end| dst.get_mut(to..end)),
        from.checked_add(n).and_then(|end| src.get(from..end)),
    ) {
        (Some(d), Some(s)) => {
            d.copy_from_slice(s);
            true
        }
        _ => false,
    }
}

/// A [pull-into descriptor](https://streams.spec.whatwg.org/#pull-into-descriptor)'s buffer:
/// an `ArrayBuffer` object, or (fast paths) the data block a TransferArrayBuffer moved out of
/// one, held in Rust until script could see the buffer.
///
/// NOTE: every TransferArrayBuffer of the pull-into algorithms makes a new `ArrayBuffer`
/// object that only the descriptor references. Script reaches a descriptor's buffer only
/// through `byobRequest.view.buffer` (ReadableByteStreamControllerGetBYOBRequest) and through
/// the views made from it (ReadableByteStreamControllerConvertPullIntoDescriptor, the empty
/// view of ReadableByteStreamControllerPullInto's closed case); until one of those runs, the
/// object is unobservable: nothing can detach it, compare it or read its slots. With the fast
/// paths on, a transfer therefore keeps the block (and the `%ArrayBuffer.prototype%` of the
/// realm the spec would create the object in) and the object is made when one of those steps
/// needs it ([`PullIntoBuffer::Object`]): one `ArrayBuffer` object per BYOB read instead of one
/// per transfer, and the same bytes, realm and detached states as the literal steps.
#[derive(Trace, Finalize)]
#[boa_gc(unsafe_no_drop)]
pub enum PullIntoBuffer {
    /// An `ArrayBuffer` object (script may hold it).
    Object(JsArrayBuffer),
    /// A transferred data block no script can reach, and the `%ArrayBuffer.prototype%` of the
    /// realm its object belongs to.
    Block(#[unsafe_ignore_trace] AlignedVec<u8>, JsObject),
}

impl std::fmt::Debug for PullIntoBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Object(_) => f.write_str("PullIntoBuffer::Object"),
            Self::Block(data, _) => write!(f, "PullIntoBuffer::Block({} bytes)", data.len()),
        }
    }
}

fn current_array_buffer_prototype(ctx: &mut Context) -> JsObject {
    ctx.intrinsics().constructors().array_buffer().prototype()
}

impl PullIntoBuffer {
    /// `! TransferArrayBuffer(buffer)` of a buffer the caller just received from script (a
    /// `read(view)` view's, a `respondWithNewView` view's): a block with the fast paths on,
    /// the literal new object otherwise.
    pub fn transferred_from(buffer: &JsArrayBuffer, ctx: &mut Context) -> JsResult<Self> {
        if boa_webidl::fast_paths() {
            // TransferArrayBuffer steps 1-4: the data block, the source detached.
            let block = buffer.detach(&JsValue::undefined())?;
            // Step 5's object is made lazily (see the type's NOTE).
            Ok(Self::Block(block, current_array_buffer_prototype(ctx)))
        } else {
            Ok(Self::Object(transfer_array_buffer(buffer, ctx)?))
        }
    }

    /// The buffer's object if it has one already.
    pub fn as_object(&self) -> Option<&JsArrayBuffer> {
        match self {
            Self::Object(b) => Some(b),
            Self::Block(..) => None,
        }
    }

    /// IsDetachedBuffer (a block is never detached: no script can reach it).
    pub fn is_detached(&self) -> bool {
        match self {
            Self::Object(b) => is_detached_buffer(b),
            Self::Block(..) => false,
        }
    }

    /// `[[ArrayBufferByteLength]]` (0 when detached).
    pub fn byte_length(&self) -> u64 {
        match self {
            Self::Object(b) => array_buffer_byte_length(b),
            Self::Block(data, _) => data.len() as u64,
        }
    }

    /// Run `f` on the bytes (`None` when detached).
    pub fn with_bytes<R>(&self, f: impl FnOnce(Option<&[u8]>) -> R) -> R {
        match self {
            Self::Object(b) => {
                let data = b.data();
                f(data.as_deref())
            }
            Self::Block(data, _) => f(Some(data)),
        }
    }

    /// Run `f` on the bytes, mutably (`None` when detached). `f` must only run Rust.
    pub fn with_bytes_mut<R>(&mut self, f: impl FnOnce(Option<&mut [u8]>) -> R) -> R {
        match self {
            Self::Object(b) => {
                let mut data = b.data_mut();
                f(data.as_deref_mut())
            }
            Self::Block(data, _) => f(Some(data)),
        }
    }
}

/// A pull-into buffer shared with the descriptor that owns it (the descriptor's cell).
pub trait PullIntoBufferCell {
    /// Run `f` with the buffer borrowed mutably. `f` must not allocate GC objects or run JS.
    fn with_buffer<R>(&self, f: impl FnOnce(&mut PullIntoBuffer) -> R) -> R;
}

/// Set the buffer to `! TransferArrayBuffer(buffer)`.
pub fn transfer_pull_into_buffer(
    cell: &impl PullIntoBufferCell,
    ctx: &mut Context,
) -> JsResult<()> {
    let object = cell.with_buffer(|b| b.as_object().cloned());
    match object {
        // A block stays a block; only the realm of the object it stands for is now the
        // current one.
        None => {
            let proto = current_array_buffer_prototype(ctx);
            cell.with_buffer(|b| {
                if let PullIntoBuffer::Block(_, p) = b {
                    *p = proto;
                }
            });
        }
        Some(object) => {
            let transferred = PullIntoBuffer::transferred_from(&object, ctx)?;
            cell.with_buffer(|b| *b = transferred);
        }
    }
    Ok(())
}

/// The buffer as an `ArrayBuffer` object: a block becomes the object the spec's transfer
/// made (same bytes, same realm), which from then on is the buffer.
pub fn pull_into_buffer_object(
    cell: &impl PullIntoBufferCell,
    ctx: &mut Context,
) -> JsResult<JsArrayBuffer> {
    let object = materialize(cell, ctx)?;
    cell.with_buffer(|b| *b = PullIntoBuffer::Object(object.clone()));
    Ok(object)
}

/// `! TransferArrayBuffer(buffer)` returned as an object (the buffer is left detached).
pub fn transfer_pull_into_buffer_to_object(
    cell: &impl PullIntoBufferCell,
    ctx: &mut Context,
) -> JsResult<JsArrayBuffer> {
    match cell.with_buffer(|b| b.as_object().cloned()) {
        Some(object) => transfer_array_buffer(&object, ctx),
        // The block moves into the new object; the cell keeps an empty block, which nothing
        // reads (the descriptor is out of [[pendingPullIntos]] when it is converted).
        None => materialize(cell, ctx),
    }
}

/// A new `ArrayBuffer` object owning the cell's block (the cell keeps an empty block), or the
/// cell's object.
fn materialize(cell: &impl PullIntoBufferCell, ctx: &mut Context) -> JsResult<JsArrayBuffer> {
    // The block is moved out before the allocation: no GcRefCell borrow is held while the
    // collector may run.
    let taken = cell.with_buffer(|b| match b {
        PullIntoBuffer::Object(o) => Err(o.clone()),
        PullIntoBuffer::Block(data, proto) => {
            Ok((std::mem::replace(data, AlignedVec::new(64)), proto.clone()))
        }
    });
    let (block, proto) = match taken {
        Err(object) => return Ok(object),
        Ok(t) => t,
    };
    let object = boa_webidl::gc_pressure::adopt_array_buffer(block, ctx)?;
    let inner: JsObject = object.clone().into();
    if !inner
        .prototype()
        .is_some_and(|p| JsObject::equals(&p, &proto))
    {
        inner.set_prototype(Some(proto));
    }
    Ok(object)
}

/// The bytes of [CloneArrayBuffer](https://tc39.es/ecma262/#sec-clonearraybuffer)`(srcBuffer,
/// srcByteOffset, srcLength, %ArrayBuffer%)` given srcBuffer's bytes (`None`: detached): the
/// new data block (the caller makes the object, after any borrow of the source is released).
pub fn clone_block(
    src: Option<&[u8]>,
    src_byte_offset: u64,
    src_length: u64,
) -> JsResult<AlignedVec<u8>> {
    let Some(data) = src else {
        return Err(type_error("Cannot clone a detached ArrayBuffer"));
    };
    let start = usize::try_from(src_byte_offset).unwrap_or(usize::MAX);
    let end = start.saturating_add(usize::try_from(src_length).unwrap_or(usize::MAX));
    let Some(bytes) = data.get(start..end) else {
        return Err(type_error("The view lies outside its ArrayBuffer"));
    };
    Ok(AlignedVec::from_slice(64, bytes))
}

/// [CopyDataBlockBytes](https://tc39.es/ecma262/#sec-copydatablockbytes) into a pull-into
/// descriptor's buffer after the
/// [CanCopyDataBlockBytes](https://streams.spec.whatwg.org/#abstract-opdef-cancopydatablockbytes)
/// check (returns false, copying nothing, if that check fails).
pub fn copy_into_pull_into_buffer(
    to_buffer: &mut PullIntoBuffer,
    to_index: u64,
    from_buffer: &JsArrayBuffer,
    from_index: u64,
    count: u64,
) -> bool {
    if let Some(to) = to_buffer.as_object() {
        return copy_data_block_bytes(to, to_index, from_buffer, from_index, count);
    }
    // CanCopyDataBlockBytes for a block: it is not fromBuffer (step 5) and not detached (step
    // 6); steps 7-9 as for objects.
    if is_detached_buffer(from_buffer)
        || to_index.saturating_add(count) > to_buffer.byte_length()
        || from_index.saturating_add(count) > array_buffer_byte_length(from_buffer)
    {
        return false;
    }
    let Some(src) = from_buffer.data() else {
        return false;
    };
    to_buffer
        .with_bytes_mut(|dst| dst.is_some_and(|d| copy_bytes(d, to_index, &src, from_index, count)))
}
