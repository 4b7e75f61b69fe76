//! HTML [structured serialization with transfer](https://html.spec.whatwg.org/multipage/structured-data.html#safe-passing-of-structured-data)
//! and the global `structuredClone(value, { transfer })`.
//!
//! [`structured_serialize_with_transfer`] turns a JS value into a [`SerializedWithTransfer`]: a
//! plain Rust value that is `Send` (strings as UTF-16 code units, buffers as owned byte
//! blocks, transferred ports as shared channel handles), so it can cross threads (workers).
//! [`structured_deserialize_with_transfer`] builds the value again in the current realm.
//!
//! Serializable: primitives (not symbols), Boolean/Number/BigInt/String objects, Date,
//! RegExp, ArrayBuffer (fixed-length and resizable), every typed array kind and DataView
//! (byteOffset and length kept), Map, Set, the Error types (name, message and the stack
//! string), arrays, plain objects (with cycles and shared references), `DOMException`, and
//! `Blob`/`File` (bytes shared, not copied; type, and a File's name and lastModified), and the
//! platform objects crates above this one make serializable with [`add_serializable`]
//! (boa_crypto's `CryptoKey`). Transferable: ArrayBuffer (its data block moves: the source is detached and no byte is
//! copied), `MessagePort`, `ReadableStream`, `WritableStream`, `TransformStream`. Anything
//! else throws a "DataCloneError" `DOMException`.

use std::collections::HashMap;

use boa_engine::{
    builtins::{
        array_buffer::SharedArrayBuffer,
        error::{Error as ErrorData, ErrorKind},
        map::ordered_map::OrderedMap,
        object::OrdinaryObject,
        proxy::Proxy,
        set::ordered_set::OrderedSet,
        typed_array::TypedArrayKind,
    },
    js_string,
    object::builtins::{
        AlignedVec, JsArray, JsArrayBuffer, JsDataView, JsDate, JsMap, JsRegExp, JsSet,
        JsTypedArray,
    },
    property::{PropertyDescriptor, PropertyKey},
    Context, JsBigInt, JsError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};

use crate::transfer::{transfer_receiving_steps, transfer_steps_of, TransferSteps};
use boa_dom::{self as dom, DomException};
use boa_streams::spec::ViewConstructor;
use boa_webidl::sequence::sequence_of_objects;
use boa_webidl::{self as webidl, arg, Dictionary};

pub use crate::records::{
    ObjectRecord, PlatformRecord, Serialized, SerializedWithTransfer, TransferHolder,
};

/// A serializable interface's serialization steps: the record of `object` if it implements
/// the interface, else `None`.
pub type SerializationSteps = fn(object: &JsObject) -> Option<Box<dyn PlatformRecord>>;

/// The serialization steps installed on a context with [`add_serializable`].
#[derive(Clone, Default)]
struct SerializableInterfaces(Vec<SerializationSteps>);

/// Make the platform objects `steps` recognizes serializable in `ctx`: structured
/// serialization (structuredClone, postMessage) asks `steps` about each platform object it
/// does not know, and a record it returns is deserialized through
/// [`PlatformRecord::deserialize`]. A crate above this one calls it from its `register` (it
/// cannot be named here: the crate graph goes upward only).
///
/// ```
/// use boa_engine::{Context, JsObject, JsResult};
/// use boa_html::structured_clone::{add_serializable, PlatformRecord};
///
/// #[derive(Debug)]
/// struct Nothing;
/// impl PlatformRecord for Nothing {
///     fn deserialize(self: Box<Self>, ctx: &mut Context) -> JsResult<JsObject> {
///         Ok(JsObject::with_object_proto(ctx.intrinsics()))
///     }
/// }
/// let mut context = Context::default();
/// boa_html::register(&mut context).unwrap();
/// add_serializable(&mut context, |_object| None);
/// ```
pub fn add_serializable(ctx: &mut Context, steps: SerializationSteps) {
    let mut interfaces = ctx
        .get_data::<SerializableInterfaces>()
        .cloned()
        .unwrap_or_default();
    interfaces.0.push(steps);
    ctx.insert_data(interfaces);
}

/// The record of `object` from the installed serialization steps, if one recognizes it.
fn platform_record(object: &JsObject, ctx: &Context) -> Option<Box<dyn PlatformRecord>> {
    let interfaces = ctx.get_data::<SerializableInterfaces>()?;
    interfaces.0.iter().find_map(|steps| steps(object))
}

/// Throw a "DataCloneError" `DOMException`.
pub fn data_clone_error(message: &str, ctx: &mut Context) -> JsError {
    match dom::create_dom_exception(message, "DataCloneError", ctx) {
        Ok(e) => JsError::from_opaque(e),
        Err(e) => e,
    }
}

fn utf16(s: &JsString) -> Vec<u16> {
    s.iter().collect()
}

fn js_str(units: &[u16]) -> JsString {
    JsString::from(units)
}

/// What a transfer list entry is.
enum Transferable {
    ArrayBuffer(JsArrayBuffer),
    Platform(JsObject, TransferSteps),
}

fn transferable(object: &JsObject, ctx: &Context) -> Option<Transferable> {
    if let Ok(buffer) = JsArrayBuffer::from_object(object.clone()) {
        return Some(Transferable::ArrayBuffer(buffer));
    }
    transfer_steps_of(object, ctx).map(|steps| Transferable::Platform(object.clone(), steps))
}

/// State of one serialization: the memory map.
struct Serializer {
    /// Objects already serialized (or being serialized): their record index.
    memory: HashMap<JsObject, Slot>,
    next_index: usize,
}

#[derive(Clone, Copy)]
enum Slot {
    Record(usize),
    Transferred(usize),
}

/// [StructuredSerializeWithTransfer](https://html.spec.whatwg.org/multipage/structured-data.html#structuredserializewithtransfer)
pub fn structured_serialize_with_transfer(
    value: &JsValue,
    transfer_list: &[JsObject],
    ctx: &mut Context,
) -> JsResult<SerializedWithTransfer> {
    // 1. Let memory be an empty map.
    let mut s = Serializer {
        memory: HashMap::new(),
        next_index: 0,
    };
    let mut kinds = Vec::with_capacity(transfer_list.len());
    // 2. For each transferable of transferList:
    for (i, t) in transfer_list.iter().enumerate() {
        // 2.1. If transferable has neither an [[ArrayBufferData]] internal slot nor a
        //      [[Detached]] internal slot, then throw a "DataCloneError" DOMException.
        let Some(kind) = transferable(t, ctx) else {
            return Err(data_clone_error("Value is not transferable", ctx));
        };
        // 2.2. If transferable has an [[ArrayBufferData]] internal slot and
        //      IsSharedArrayBuffer(transferable) is true, then throw (SharedArrayBuffer is a
        //      different native type in Boa, so it never reaches here).
        // 2.3. If memory[transferable] exists, then throw a "DataCloneError" DOMException.
        if s.memory.contains_key(t) {
            return Err(data_clone_error(
                "Duplicate object in the transfer list",
                ctx,
            ));
        }
        // 2.4. Set memory[transferable] to { [[Type]]: an uninitialized value }.
        s.memory.insert(t.clone(), Slot::Transferred(i));
        kinds.push(kind);
    }
    // 3. Let serialized be ? StructuredSerializeInternal(value, false, memory).
    let serialized = s.serialize(value, ctx)?;
    // 4. Let transferDataHolders be a new empty List.
    let mut holders = Vec::with_capacity(kinds.len());
    // 5. For each transferable of transferList:
    for kind in kinds {
        match kind {
            Transferable::ArrayBuffer(buffer) => {
                // 5.1. If transferable has an [[ArrayBufferData]] internal slot and
                //      IsDetachedBuffer(transferable) is true, then throw.
                if buffer.data().is_none() {
                    return Err(data_clone_error(
                        "An ArrayBuffer is detached and could not be cloned",
                        ctx,
                    ));
                }
                let max_byte_length = max_byte_length(&buffer, ctx)?;
                // 5.4. Set dataHolder's fields to the buffer's data, then perform
                //      ? DetachArrayBuffer(transferable) (it throws for a buffer with a
                //      non-undefined detach key).
                let data = buffer.detach(&JsValue::undefined())?;
                holders.push(TransferHolder::ArrayBuffer {
                    data,
                    max_byte_length,
                });
            }
            Transferable::Platform(object, transfer_steps) => {
                // 5.2. If transferable has a [[Detached]] internal slot and
                //      transferable.[[Detached]] is true, then throw.
                // 5.5. Otherwise: perform the transfer steps of the interface; set
                //      transferable.[[Detached]] to true.
                let holder = transfer_steps(&object, ctx)?;
                holders.push(TransferHolder::Platform(holder));
            }
        }
    }
    // 6. Return { [[Serialized]]: serialized, [[TransferDataHolders]]: transferDataHolders }.
    Ok(SerializedWithTransfer {
        serialized,
        holders,
    })
}

/// [StructuredSerialize](https://html.spec.whatwg.org/multipage/structured-data.html#structuredserialize)
/// (no transfer list).
pub fn structured_serialize(value: &JsValue, ctx: &mut Context) -> JsResult<Serialized> {
    Ok(structured_serialize_with_transfer(value, &[], ctx)?.serialized)
}

/// The `maxByteLength` of a resizable buffer (through the getter captured at registration:
/// no script runs), `None` for a fixed-length one.
fn max_byte_length(buffer: &JsArrayBuffer, ctx: &mut Context) -> JsResult<Option<u64>> {
    let Some(getters) = ctx
        .realm()
        .host_defined()
        .get::<CloneRealm>()
        .map(|r| (r.resizable.clone(), r.max_byte_length.clone()))
    else {
        return Ok(None);
    };
    let this: JsValue =
        JsObject::<boa_engine::object::ErasedObjectData>::from(buffer.clone()).into();
    let resizable = match &getters.0 {
        Some(g) => g.call(&this, &[], ctx)?.to_boolean(),
        None => false,
    };
    if !resizable {
        return Ok(None);
    }
    let max = match &getters.1 {
        Some(g) => g.call(&this, &[], ctx)?.as_number().unwrap_or(0.0),
        None => return Ok(None),
    };
    Ok(Some(max as u64))
}

/// The seven names HTML keeps for a serialized Error.
const ERROR_NAMES: [&str; 7] = [
    "Error",
    "EvalError",
    "RangeError",
    "ReferenceError",
    "SyntaxError",
    "TypeError",
    "URIError",
];

/// An own property's descriptor, read from the storage of an ordinary object or array (no
/// internal method that can run script: proxies are rejected before).
fn own_descriptor(object: &JsObject, key: &PropertyKey) -> Option<PropertyDescriptor> {
    object.borrow().properties().get(key)
}

impl Serializer {
    fn remember(&mut self, object: &JsObject) {
        self.memory
            .insert(object.clone(), Slot::Record(self.next_index));
        self.next_index += 1;
    }

    /// [StructuredSerializeInternal](https://html.spec.whatwg.org/multipage/structured-data.html#structuredserializeinternal)
    fn serialize(&mut self, value: &JsValue, ctx: &mut Context) -> JsResult<Serialized> {
        // 1-3. (forStorage is false; memory exists.)
        // 4. If Type(value) is Undefined, Null, Boolean, Number, BigInt, or String, then
        //    return { [[Type]]: "primitive", [[Value]]: value }.
        // 5. If Type(value) is Symbol, then throw a "DataCloneError" DOMException.
        let Some(object) = value.as_object() else {
            return serialize_primitive(value, ctx);
        };
        // 2. If memory[value] exists, then return memory[value].
        if let Some(slot) = self.memory.get(&object) {
            return Ok(match *slot {
                Slot::Record(i) => Serialized::Ref(i),
                Slot::Transferred(i) => Serialized::Transferred(i),
            });
        }
        // NOTE: a Proxy has exotic internal methods (the last DataCloneError step); it is
        // rejected first so no trap ever runs (IsArray sees through proxies).
        if object.is::<Proxy>() {
            return Err(data_clone_error("A Proxy could not be cloned", ctx));
        }
        // 6. Let deep be false.
        // 7-25: the object's kind.
        let record = if let Some(b) = object.downcast_ref::<bool>().map(|b| *b) {
            ObjectRecord::Boolean(b)
        } else if let Some(n) = object.downcast_ref::<f64>().map(|n| *n) {
            ObjectRecord::Number(n)
        } else if let Some(b) = object.downcast_ref::<JsBigInt>().map(|b| b.clone()) {
            ObjectRecord::BigInt(b.to_string_radix(10))
        } else if let Some(s) = object.downcast_ref::<JsString>().map(|s| s.clone()) {
            ObjectRecord::String(utf16(&s))
        } else if let Ok(date) = JsDate::from_object(object.clone()) {
            let t = date.get_time(ctx)?.as_number().unwrap_or(f64::NAN);
            ObjectRecord::Date(t)
        } else if let Ok(re) = JsRegExp::from_object(object.clone()) {
            regexp_record(&re, ctx)?
        } else if object.is::<SharedArrayBuffer>() {
            // The agent cluster is not cross-origin isolated.
            return Err(data_clone_error(
                "A SharedArrayBuffer could not be cloned",
                ctx,
            ));
        } else if let Ok(buffer) = JsArrayBuffer::from_object(object.clone()) {
            array_buffer_record(&buffer, ctx)?
        } else if let Ok(view) = JsTypedArray::from_object(object.clone()) {
            self.typed_array_record(&view, ctx)?
        } else if let Ok(view) = JsDataView::from_object(object.clone()) {
            self.data_view_record(&view, ctx)?
        } else if object.is::<OrderedMap<JsValue>>() {
            return self.serialize_map(&object, ctx);
        } else if object.is::<OrderedSet>() {
            return self.serialize_set(&object, ctx);
        } else if let Some(e) = object
            .downcast_ref::<DomException>()
            .map(|e| (utf16(e.name()), utf16(e.message())))
        {
            // 20. A serializable platform object: DOMException's serialization steps.
            ObjectRecord::DomException {
                name: e.0,
                message: e.1,
            }
        } else if let Some(blob) = boa_fileapi::blob_serialization_steps(&object) {
            // 20. A serializable platform object: Blob's (File's) serialization steps.
            ObjectRecord::Blob(blob)
        } else if let Some(record) = platform_record(&object, ctx) {
            // 20. A serializable platform object of a crate above this one.
            ObjectRecord::Platform(record)
        } else if object.is::<ErrorData>() {
            error_record(&object, ctx)?
        } else if object.is_array() {
            return self.serialize_array(&object, ctx);
        } else if object.is_callable() {
            // 21. IsCallable(value): throw.
            return Err(data_clone_error("A function could not be cloned", ctx));
        } else if object.is::<OrdinaryObject>() {
            // 23. Otherwise: an ordinary object (also %Object.prototype%): deep.
            self.remember(&object);
            let properties = self.properties(&object, ctx)?;
            return Ok(Serialized::Object(Box::new(ObjectRecord::Object(
                properties,
            ))));
        } else {
            // 20/22. A non-serializable platform object, or internal slots / exotic.
            return Err(data_clone_error("The object could not be cloned", ctx));
        };
        // 24. Set memory[value] to serialized.
        self.remember(&object);
        Ok(Serialized::Object(Box::new(record)))
    }

    /// Step 14: a typed array's record, with its buffer's.
    fn typed_array_record(
        &mut self,
        view: &JsTypedArray,
        ctx: &mut Context,
    ) -> JsResult<ObjectRecord> {
        let buffer = view.buffer(ctx)?;
        // 14.1. If IsArrayBufferViewOutOfBounds(value) is true, then throw.
        if is_detached_buffer(&buffer) {
            return Err(data_clone_error(
                "A view on a detached ArrayBuffer could not be cloned",
                ctx,
            ));
        }
        let byte_offset = view.byte_offset(ctx)? as u64;
        let length = view.length(ctx)? as u64;
        // 14.2-3. Let bufferSerialized be ? StructuredSerializeInternal(buffer, ...).
        let buffer = self.serialize(&buffer, ctx)?;
        Ok(ObjectRecord::View {
            kind: view.kind(),
            buffer,
            byte_offset,
            length,
        })
    }

    /// Step 14: a DataView's record, with its buffer's.
    fn data_view_record(&mut self, view: &JsDataView, ctx: &mut Context) -> JsResult<ObjectRecord> {
        let buffer = view.buffer(ctx)?;
        // 14.1. If IsArrayBufferViewOutOfBounds(value) is true, then throw.
        if is_detached_buffer(&buffer) {
            return Err(data_clone_error(
                "A view on a detached ArrayBuffer could not be cloned",
                ctx,
            ));
        }
        let (Ok(byte_offset), Ok(length)) = (view.byte_offset(ctx), view.byte_length(ctx)) else {
            return Err(data_clone_error(
                "An out-of-bounds DataView could not be cloned",
                ctx,
            ));
        };
        // 14.2-3. Let bufferSerialized be ? StructuredSerializeInternal(buffer, ...).
        let buffer = self.serialize(&buffer, ctx)?;
        Ok(ObjectRecord::View {
            kind: None,
            buffer,
            byte_offset,
            length,
        })
    }

    /// Step 15 (a Map: deep), then its entries (step 26.1-2).
    fn serialize_map(&mut self, object: &JsObject, ctx: &mut Context) -> JsResult<Serialized> {
        self.remember(object);
        // 26.1. Let copiedList be a new empty List; append value.[[MapData]]'s entries that
        //       are not empty.
        let copied: Vec<(JsValue, JsValue)> = object
            .downcast_ref::<OrderedMap<JsValue>>()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        let mut entries = Vec::with_capacity(copied.len());
        // 26.2. For each entry: serialize the key, then the value.
        for (k, v) in copied {
            let k = self.serialize(&k, ctx)?;
            let v = self.serialize(&v, ctx)?;
            entries.push((k, v));
        }
        Ok(Serialized::Object(Box::new(ObjectRecord::Map(entries))))
    }

    /// Step 16 (a Set: deep), then its values (step 26.3).
    fn serialize_set(&mut self, object: &JsObject, ctx: &mut Context) -> JsResult<Serialized> {
        self.remember(object);
        let copied: Vec<JsValue> = object
            .downcast_ref::<OrderedSet>()
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        let mut values = Vec::with_capacity(copied.len());
        for v in copied {
            values.push(self.serialize(&v, ctx)?);
        }
        Ok(Serialized::Object(Box::new(ObjectRecord::Set(values))))
    }

    /// Step 18 (IsArray(value): deep), then its properties (step 26.4).
    fn serialize_array(&mut self, object: &JsObject, ctx: &mut Context) -> JsResult<Serialized> {
        self.remember(object);
        // 18.1. Let valueLenDescriptor be ? OrdinaryGetOwnProperty(value, "length").
        let length = own_descriptor(object, &js_string!("length").into())
            .and_then(|d| d.value().and_then(JsValue::as_number))
            .unwrap_or(0.0) as u64;
        let properties = self.properties(object, ctx)?;
        Ok(Serialized::Object(Box::new(ObjectRecord::Array {
            length,
            properties,
        })))
    }

    /// Step 26.4: the enumerable own string-keyed properties, read with [[Get]].
    fn properties(
        &mut self,
        object: &JsObject,
        ctx: &mut Context,
    ) -> JsResult<Vec<(Vec<u16>, Serialized)>> {
        // 26.4.1. Let properties be ? EnumerableOwnProperties(value, key).
        let keys = object.own_property_keys(ctx)?;
        let mut enumerable = Vec::new();
        for key in keys {
            if matches!(key, PropertyKey::Symbol(_)) {
                continue;
            }
            if own_descriptor(object, &key).is_some_and(|d| d.expect_enumerable()) {
                enumerable.push(key);
            }
        }
        let mut out = Vec::with_capacity(enumerable.len());
        // 26.4.2. For each key in properties:
        for key in enumerable {
            // 26.4.2.1. If ! HasOwnProperty(value, key) is true, then
            if own_descriptor(object, &key).is_none() {
                continue;
            }
            // 26.4.2.1.1. Let inputValue be ? value.[[Get]](key, value).
            let input = object.get(key.clone(), ctx)?;
            // 26.4.2.1.2. Let outputValue be ? StructuredSerializeInternal(inputValue, ...).
            let output = self.serialize(&input, ctx)?;
            let name = match &key {
                PropertyKey::String(s) => utf16(s),
                PropertyKey::Index(i) => i.get().to_string().encode_utf16().collect(),
                PropertyKey::Symbol(_) => continue,
            };
            out.push((name, output));
        }
        Ok(out)
    }
}

/// Steps 4-5: a primitive value (a symbol throws a "DataCloneError" DOMException).
fn serialize_primitive(value: &JsValue, ctx: &mut Context) -> JsResult<Serialized> {
    Ok(if value.is_undefined() {
        Serialized::Undefined
    } else if value.is_null() {
        Serialized::Null
    } else if let Some(b) = value.as_boolean() {
        Serialized::Boolean(b)
    } else if let Some(n) = value.as_number() {
        Serialized::Number(n)
    } else if let Some(s) = value.as_string() {
        Serialized::String(utf16(&s))
    } else if let Some(b) = value.as_bigint() {
        Serialized::BigInt(b.to_string_radix(10))
    } else {
        return Err(data_clone_error("A symbol could not be cloned", ctx));
    })
}

/// Step 13: an ArrayBuffer's record (its bytes copied).
fn array_buffer_record(buffer: &JsArrayBuffer, ctx: &mut Context) -> JsResult<ObjectRecord> {
    // 13.2. If IsDetachedBuffer(value) is true, then throw.
    let Some(data) = buffer.data().map(|d| AlignedVec::from_slice(64, &d)) else {
        return Err(data_clone_error(
            "An ArrayBuffer is detached and could not be cloned",
            ctx,
        ));
    };
    let max_byte_length = max_byte_length(buffer, ctx)?;
    Ok(ObjectRecord::ArrayBuffer {
        data,
        max_byte_length,
    })
}

/// Whether `buffer` (a view's) is a detached ArrayBuffer.
fn is_detached_buffer(buffer: &JsValue) -> bool {
    buffer
        .as_object()
        .and_then(|b| JsArrayBuffer::from_object(b).ok())
        .is_some_and(|b| b.data().is_none())
}

/// Step 11: a RegExp's record (source and flags).
fn regexp_record(re: &JsRegExp, ctx: &mut Context) -> JsResult<ObjectRecord> {
    // [[OriginalSource]] is not public: the intrinsic `source` getter returns
    // EscapeRegExpPattern of it, which in Boa puts a backslash before every "/" (also an
    // already escaped one) and escapes line terminators. Dropping the backslash before each
    // "/" gives a pattern that parses to the same regular expression.
    // NOTE: line terminators stay escaped (`\n` for a literal newline): the same matcher and
    // the same `source`.
    let escaped: Vec<u16> = re.source(ctx)?.encode_utf16().collect();
    let mut source = Vec::with_capacity(escaped.len());
    for (i, unit) in escaped.iter().enumerate() {
        if *unit == u16::from(b'\\') && escaped.get(i + 1) == Some(&u16::from(b'/')) {
            continue;
        }
        source.push(*unit);
    }
    // The flags from the intrinsic per-flag getters (they read [[OriginalFlags]]; the
    // `flags` getter would read properties script can shadow).
    let mut flags = String::new();
    if re.has_indices(ctx)? {
        flags.push('d');
    }
    if re.global(ctx)? {
        flags.push('g');
    }
    if re.ignore_case(ctx)? {
        flags.push('i');
    }
    if re.multiline(ctx)? {
        flags.push('m');
    }
    if re.dot_all(ctx)? {
        flags.push('s');
    }
    if re.unicode(ctx)? {
        flags.push('u');
    }
    let unicode_sets = ctx
        .realm()
        .host_defined()
        .get::<CloneRealm>()
        .and_then(|r| r.unicode_sets.clone());
    if let Some(getter) = unicode_sets {
        let this: JsValue =
            JsObject::<boa_engine::object::ErasedObjectData>::from(re.clone()).into();
        if getter.call(&this, &[], ctx)?.to_boolean() {
            flags.push('v');
        }
    }
    if re.sticky(ctx)? {
        flags.push('y');
    }
    Ok(ObjectRecord::RegExp { source, flags })
}

/// Step 17: an object with an [[ErrorData]] slot.
fn error_record(object: &JsObject, ctx: &mut Context) -> JsResult<ObjectRecord> {
    // 17.1. Let name be ? Get(value, "name").
    let name_value = object.get(js_string!("name"), ctx)?;
    // 17.2. If name is not one of the seven names, then set name to "Error".
    let name = name_value
        .as_string()
        .and_then(|s| {
            let s = s.to_std_string_escaped();
            ERROR_NAMES.iter().find(|n| **n == s).copied()
        })
        .unwrap_or("Error");
    // 17.3. Let valueMessageDesc be ? value.[[GetOwnProperty]]("message").
    // 17.4. Let message be undefined if IsDataDescriptor(valueMessageDesc) is false, and
    //       ? ToString(valueMessageDesc.[[Value]]) otherwise.
    let desc = own_descriptor(object, &js_string!("message").into());
    let message = match desc.filter(PropertyDescriptor::is_data_descriptor) {
        Some(d) => Some(utf16(
            &d.value().cloned().unwrap_or_default().to_string(ctx)?,
        )),
        None => None,
    };
    // User agents should attach a serialized representation of any interesting
    // accompanying data: the stack, from an own data property or the engine's getter.
    let stack = match own_descriptor(object, &js_string!("stack").into()) {
        Some(d) if d.is_data_descriptor() => d.value().and_then(JsValue::as_string),
        _ => {
            let getter = boa_webidl::exception::error_stack_getter(ctx);
            match getter {
                Some(g) => g
                    .call(&object.clone().into(), &[], ctx)
                    .ok()
                    .and_then(|v| v.as_string()),
                None => None,
            }
        }
    };
    Ok(ObjectRecord::Error {
        name,
        message,
        stack: stack.map(|s| utf16(&s)),
    })
}

/// [StructuredDeserializeWithTransfer](https://html.spec.whatwg.org/multipage/structured-data.html#structureddeserializewithtransfer):
/// the deserialized value and the transferred objects, in the current realm.
pub fn structured_deserialize_with_transfer(
    input: SerializedWithTransfer,
    ctx: &mut Context,
) -> JsResult<(JsValue, Vec<JsObject>)> {
    // 1. Let memory be an empty map.
    // 2. Let transferredValues be a new empty List.
    let mut transferred = Vec::with_capacity(input.holders.len());
    // 3. For each transferDataHolder of serializeWithTransferResult.[[TransferDataHolders]]:
    for holder in input.holders {
        let value = match holder {
            TransferHolder::ArrayBuffer {
                data,
                max_byte_length,
            } => {
                // 3.2. A new ArrayBuffer whose [[ArrayBufferData]] is the holder's (no copy;
                // counted: the block may come from another thread's heap).
                let buffer = boa_webidl::gc_pressure::new_array_buffer(data, ctx)?;
                let buffer = match max_byte_length {
                    Some(max) => buffer.with_max_byte_length(max),
                    None => buffer,
                };
                JsObject::from(buffer)
            }
            // 3.3. A new instance of the interface; its transfer-receiving steps.
            TransferHolder::Platform(p) => transfer_receiving_steps(p, ctx)?,
        };
        // 3.4-5. Set memory[transferDataHolder] to value; append value to transferredValues.
        transferred.push(value);
    }
    // 4. Let deserialized be ? StructuredDeserialize(serialized, targetRealm, memory).
    let mut d = Deserializer {
        objects: Vec::new(),
        transferred: &transferred,
    };
    let value = d.deserialize(input.serialized, ctx)?;
    // 5. Return { [[Deserialized]]: deserialized, [[TransferredValues]]: transferredValues }.
    Ok((value, transferred))
}

/// [StructuredDeserialize](https://html.spec.whatwg.org/multipage/structured-data.html#structureddeserialize)
/// (no transferred objects).
pub fn structured_deserialize(serialized: Serialized, ctx: &mut Context) -> JsResult<JsValue> {
    Ok(structured_deserialize_with_transfer(
        SerializedWithTransfer {
            serialized,
            holders: Vec::new(),
        },
        ctx,
    )?
    .0)
}

struct Deserializer<'a> {
    /// The deserialized object records, by index (memory).
    objects: Vec<JsObject>,
    transferred: &'a [JsObject],
}

impl Deserializer<'_> {
    fn remember(&mut self, object: &JsObject) {
        self.objects.push(object.clone());
    }

    fn deserialize(&mut self, serialized: Serialized, ctx: &mut Context) -> JsResult<JsValue> {
        let record = match serialized {
            Serialized::Undefined => return Ok(JsValue::undefined()),
            Serialized::Null => return Ok(JsValue::null()),
            Serialized::Boolean(b) => return Ok(b.into()),
            Serialized::Number(n) => return Ok(n.into()),
            Serialized::BigInt(digits) => return Ok(bigint(&digits).into()),
            Serialized::String(units) => return Ok(js_str(&units).into()),
            // 2. If memory[serialized] exists, then return memory[serialized].
            Serialized::Ref(i) => {
                return self
                    .objects
                    .get(i)
                    .cloned()
                    .map(Into::into)
                    .ok_or_else(|| data_clone_error("Malformed serialization", ctx));
            }
            Serialized::Transferred(i) => {
                return self
                    .transferred
                    .get(i)
                    .cloned()
                    .map(Into::into)
                    .ok_or_else(|| data_clone_error("Malformed serialization", ctx));
            }
            Serialized::Object(record) => *record,
        };
        self.deserialize_record(record, ctx)
    }

    /// An object record: a new object in the current realm, remembered in memory.
    fn deserialize_record(&mut self, record: ObjectRecord, ctx: &mut Context) -> JsResult<JsValue> {
        let object: JsObject = match record {
            ObjectRecord::Boolean(b) => JsValue::from(b).to_object(ctx)?,
            ObjectRecord::Number(n) => JsValue::from(n).to_object(ctx)?,
            ObjectRecord::BigInt(digits) => JsValue::from(bigint(&digits)).to_object(ctx)?,
            ObjectRecord::String(units) => JsValue::from(js_str(&units)).to_object(ctx)?,
            ObjectRecord::Date(t) => ctx
                .intrinsics()
                .constructors()
                .date()
                .constructor()
                .construct(&[t.into()], None, ctx)?,
            ObjectRecord::RegExp { source, flags } => {
                JsRegExp::new(js_str(&source), JsString::from(flags.as_str()), ctx)?.into()
            }
            ObjectRecord::ArrayBuffer {
                data,
                max_byte_length,
            } => {
                let buffer = boa_webidl::gc_pressure::new_array_buffer(data, ctx)?;
                match max_byte_length {
                    Some(max) => buffer.with_max_byte_length(max).into(),
                    None => buffer.into(),
                }
            }
            ObjectRecord::View {
                kind,
                buffer,
                byte_offset,
                length,
            } => self.view_object(kind, buffer, byte_offset, length, ctx)?,
            ObjectRecord::Map(entries) => return self.map_object(entries, ctx),
            ObjectRecord::Set(values) => return self.set_object(values, ctx),
            ObjectRecord::Error {
                name,
                message,
                stack,
            } => error_object(name, message, stack, ctx)?,
            ObjectRecord::DomException { name, message } => {
                let e = dom::create_dom_exception(
                    &String::from_utf16_lossy(&message),
                    &String::from_utf16_lossy(&name),
                    ctx,
                )?;
                e.as_object()
                    .ok_or_else(|| data_clone_error("Malformed serialization", ctx))?
            }
            ObjectRecord::Blob(blob) => boa_fileapi::blob_deserialization_steps(blob, ctx)?,
            ObjectRecord::Platform(record) => record.deserialize(ctx)?,
            ObjectRecord::Array { length, properties } => {
                let array: JsObject = JsArray::new(ctx)?.into();
                array.set(js_string!("length"), length as f64, true, ctx)?;
                self.remember(&array);
                self.define_properties(&array, properties, ctx)?;
                return Ok(array.into());
            }
            ObjectRecord::Object(properties) => {
                let object = JsObject::with_object_proto(ctx.intrinsics());
                self.remember(&object);
                self.define_properties(&object, properties, ctx)?;
                return Ok(object.into());
            }
        };
        // Set memory[serialized] to value.
        self.remember(&object);
        Ok(object.into())
    }

    /// A typed array or DataView record: the view over its deserialized buffer.
    fn view_object(
        &mut self,
        kind: Option<TypedArrayKind>,
        buffer: Serialized,
        byte_offset: u64,
        length: u64,
        ctx: &mut Context,
    ) -> JsResult<JsObject> {
        // Let deserializedArrayBuffer be ? StructuredDeserialize(
        //   serialized.[[ArrayBufferSerialized]], targetRealm, memory).
        let buffer = self.deserialize(buffer, ctx)?;
        let constructor = kind
            .map_or(ViewConstructor::DataView, ViewConstructor::Typed)
            .constructor(ctx);
        constructor.construct(
            &[buffer, (byte_offset as f64).into(), (length as f64).into()],
            None,
            ctx,
        )
    }

    /// A Map record: a new Map (remembered first), then its entries in order.
    fn map_object(
        &mut self,
        entries: Vec<(Serialized, Serialized)>,
        ctx: &mut Context,
    ) -> JsResult<JsValue> {
        let map = JsMap::new(ctx);
        let object: JsObject = map.clone().into();
        self.remember(&object);
        for (k, v) in entries {
            let k = self.deserialize(k, ctx)?;
            let v = self.deserialize(v, ctx)?;
            map.set(k, v, ctx)?;
        }
        Ok(object.into())
    }

    /// A Set record: a new Set (remembered first), then its values in order.
    fn set_object(&mut self, values: Vec<Serialized>, ctx: &mut Context) -> JsResult<JsValue> {
        let set = JsSet::new(ctx);
        let object: JsObject = set.clone().into();
        self.remember(&object);
        for v in values {
            let v = self.deserialize(v, ctx)?;
            set.add(v, ctx)?;
        }
        Ok(object.into())
    }

    fn define_properties(
        &mut self,
        object: &JsObject,
        properties: Vec<(Vec<u16>, Serialized)>,
        ctx: &mut Context,
    ) -> JsResult<()> {
        for (key, value) in properties {
            // Let deserializedValue be ? StructuredDeserialize(entry.[[Value]], ...).
            let value = self.deserialize(value, ctx)?;
            // Let result be ! CreateDataProperty(value, entry.[[Key]], deserializedValue).
            object.create_data_property(js_str(&key), value, ctx)?;
        }
        Ok(())
    }
}

fn bigint(digits: &str) -> JsBigInt {
    JsBigInt::from_string(digits).unwrap_or_else(JsBigInt::zero)
}

/// Deserialize an Error record: an object with [[ErrorData]] and the prototype of `name`.
fn error_object(
    name: &str,
    message: Option<Vec<u16>>,
    stack: Option<Vec<u16>>,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let c = ctx.intrinsics().constructors();
    let (proto, kind) = match name {
        "EvalError" => (c.eval_error().prototype(), ErrorKind::Eval),
        "RangeError" => (c.range_error().prototype(), ErrorKind::Range),
        "ReferenceError" => (c.reference_error().prototype(), ErrorKind::Reference),
        "SyntaxError" => (c.syntax_error().prototype(), ErrorKind::Syntax),
        "TypeError" => (c.type_error().prototype(), ErrorKind::Type),
        "URIError" => (c.uri_error().prototype(), ErrorKind::Uri),
        _ => (c.error().prototype(), ErrorKind::Error),
    };
    let object = JsObject::from_proto_and_data(Some(proto), ErrorData::new(kind));
    let hidden = |v: JsValue| {
        PropertyDescriptor::builder()
            .value(v)
            .writable(true)
            .enumerable(false)
            .configurable(true)
    };
    if let Some(message) = message {
        object.define_property_or_throw(
            js_string!("message"),
            hidden(js_str(&message).into()),
            ctx,
        )?;
    }
    if let Some(stack) = stack {
        object.define_property_or_throw(js_string!("stack"), hidden(js_str(&stack).into()), ctx)?;
    }
    Ok(object)
}

/// Intrinsic getters captured at registration, so serialization runs no script.
#[derive(boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
pub(crate) struct CloneRealm {
    resizable: Option<JsObject>,
    max_byte_length: Option<JsObject>,
    unicode_sets: Option<JsObject>,
}

fn intrinsic_getter(proto: &JsObject, name: &str) -> Option<JsObject> {
    proto
        .borrow()
        .properties()
        .get(&JsString::from(name).into())
        .and_then(|d| d.get().and_then(JsValue::as_object))
}

/// `structuredClone(value, { transfer })`.
fn structured_clone(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(webidl::type_error(
            "structuredClone: 1 argument required, but only 0 present",
        ));
    }
    let value = arg(args, 0);
    // StructuredSerializeOptions: sequence<object> transfer = [].
    let options = Dictionary::new(&arg(args, 1), "StructuredSerializeOptions")?;
    let transfer = match options.get(webidl::js_key!("transfer"), ctx)? {
        Some(list) => sequence_of_objects(&list, ctx)?,
        None => Vec::new(),
    };
    structured_transfer_or_clone(&value, &transfer, ctx)
}

/// The `structuredClone()` steps on a value and its transfer list (the Streams Standard's
/// StructuredTransferOrClone for an owning stream's chunks, StructuredClone with an empty
/// list): serialize with transfer, then deserialize in the current realm.
pub(crate) fn structured_transfer_or_clone(
    value: &JsValue,
    transfer_list: &[JsObject],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    // 1. Let serialized be ? StructuredSerializeWithTransfer(value, transferList).
    let serialized = structured_serialize_with_transfer(value, transfer_list, ctx)?;
    // 2. Let deserializeRecord be ? StructuredDeserializeWithTransfer(serialized, the current
    //    realm).
    // 3. Return deserializeRecord.[[Deserialized]].
    Ok(structured_deserialize_with_transfer(serialized, ctx)?.0)
}

/// Register `structuredClone` (replacing boa_runtime's) and capture the intrinsic getters.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    let ab_proto = context
        .intrinsics()
        .constructors()
        .array_buffer()
        .prototype();
    let re_proto = context.intrinsics().constructors().regexp().prototype();
    let realm = CloneRealm {
        resizable: intrinsic_getter(&ab_proto, "resizable"),
        max_byte_length: intrinsic_getter(&ab_proto, "maxByteLength"),
        unicode_sets: intrinsic_getter(&re_proto, "unicodeSets"),
    };
    context.realm().host_defined_mut().insert(realm);
    context.register_global_callable(
        js_string!("structuredClone"),
        1,
        NativeFunction::from_fn_ptr(structured_clone),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
