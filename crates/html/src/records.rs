//! The records that cross realms and threads: a serialized value ([`Serialized`]), the
//! result of a serialization with transfer ([`SerializedWithTransfer`]) with its transfer
//! data holders, and the shared half of a `MessagePort` ([`PortCore`]), whose port message
//! queue holds such results: a transferred port travels inside the very messages its queue
//! holds, so the two are one family of types.
//!
//! Everything here is plain `Send` Rust data; the algorithms that make and read it live in
//! `structured_clone` (serialization), `message` (ports) and `transfer_streams` (streams).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use boa_engine::{
    builtins::typed_array::TypedArrayKind, object::builtins::AlignedVec, Context, JsObject,
    JsResult,
};

// ---------------------------------------------------------------------------------------
// Serialized values
// ---------------------------------------------------------------------------------------

/// A serialized value (HTML's "serialized" Record), as plain `Send` Rust data.
#[derive(Debug)]
pub enum Serialized {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Boolean(bool),
    /// A number.
    Number(f64),
    /// A BigInt, as its decimal digits.
    BigInt(String),
    /// A string, as UTF-16 code units (lone surrogates survive).
    String(Vec<u16>),
    /// An object serialized before in this value (the memory map): the index of its record
    /// in the order records were completed (cycles and shared references).
    Ref(usize),
    /// A transferred object: the index of its data holder.
    Transferred(usize),
    /// An object record.
    Object(Box<ObjectRecord>),
}

/// The record of one serialized object.
#[derive(Debug)]
pub enum ObjectRecord {
    /// A Boolean object.
    Boolean(bool),
    /// A Number object.
    Number(f64),
    /// A BigInt object (decimal digits).
    BigInt(String),
    /// A String object.
    String(Vec<u16>),
    /// A Date (its time value).
    Date(f64),
    /// A RegExp (source and flags).
    RegExp {
        /// The pattern source.
        source: Vec<u16>,
        /// The flags.
        flags: String,
    },
    /// An ArrayBuffer's bytes (copied), and its maximum length if resizable.
    ArrayBuffer {
        /// The copied bytes.
        data: AlignedVec<u8>,
        /// `Some(max)` for a resizable buffer.
        max_byte_length: Option<u64>,
    },
    /// A typed array or DataView over the buffer `buffer` (an ArrayBuffer record, a
    /// reference to one, or a transferred one).
    View {
        /// `None` for a DataView.
        kind: Option<TypedArrayKind>,
        /// The viewed buffer.
        buffer: Serialized,
        /// The view's byteOffset.
        byte_offset: u64,
        /// The element count (typed array) or byteLength (DataView).
        length: u64,
    },
    /// A Map's entries.
    Map(Vec<(Serialized, Serialized)>),
    /// A Set's values.
    Set(Vec<Serialized>),
    /// An Error object.
    Error {
        /// One of the seven native error names.
        name: &'static str,
        /// The `message` own data property, converted to a string.
        message: Option<Vec<u16>>,
        /// The stack string (HTML: "interesting accompanying data").
        stack: Option<Vec<u16>>,
    },
    /// A `DOMException` (a serializable platform object).
    DomException {
        /// Its name.
        name: Vec<u16>,
        /// Its message.
        message: Vec<u16>,
    },
    /// A `Blob` or `File` (serializable platform objects): the bytes are shared, not copied.
    Blob(boa_fileapi::SerializedBlob),
    /// A serializable platform object of a crate above this one (see `structured_clone::add_serializable`).
    Platform(Box<dyn PlatformRecord>),
    /// An Array: its length and its enumerable own string-keyed properties.
    Array {
        /// The `length`.
        length: u64,
        /// The properties, in order.
        properties: Vec<(Vec<u16>, Serialized)>,
    },
    /// An ordinary object's enumerable own string-keyed properties.
    Object(Vec<(Vec<u16>, Serialized)>),
}

/// The serialized record of a [serializable](https://html.spec.whatwg.org/multipage/structured-data.html#serializable-objects)
/// platform object whose interface a crate above this one defines (boa_crypto's `CryptoKey`):
/// plain `Send` data that builds the object again.
pub trait PlatformRecord: Send + std::fmt::Debug {
    /// The interface's deserialization steps: a new object in the current realm.
    fn deserialize(self: Box<Self>, ctx: &mut Context) -> JsResult<JsObject>;
}

// ---------------------------------------------------------------------------------------
// Transfer data holders
// ---------------------------------------------------------------------------------------

/// A transferred object's data holder.
#[derive(Debug)]
pub enum TransferHolder {
    /// An ArrayBuffer's data block (moved, not copied).
    ArrayBuffer {
        /// The block.
        data: AlignedVec<u8>,
        /// `Some(max)` for a resizable buffer.
        max_byte_length: Option<u64>,
    },
    /// A transferred `MessagePort`, `ReadableStream`, `WritableStream` or `TransformStream`.
    Platform(PlatformHolder),
}

/// The result of StructuredSerializeWithTransfer: `Send`, so it can cross threads.
#[derive(Debug)]
pub struct SerializedWithTransfer {
    /// `[[Serialized]]`.
    pub serialized: Serialized,
    /// `[[TransferDataHolders]]`.
    pub holders: Vec<TransferHolder>,
}

/// A transfer data holder of a platform object.
#[derive(Debug)]
pub enum PlatformHolder {
    /// A `MessagePort`.
    MessagePort(PortHandle),
    /// A `ReadableStream` (its cross-realm port).
    ReadableStream(PortHandle),
    /// A `WritableStream` (its cross-realm port).
    WritableStream(PortHandle),
    /// A `TransformStream` (the ports of its readable and writable sides).
    TransformStream {
        /// The readable side's port.
        readable: PortHandle,
        /// The writable side's port.
        writable: PortHandle,
    },
}

// ---------------------------------------------------------------------------------------
// The shared (thread-safe) half of a port
// ---------------------------------------------------------------------------------------

static NEXT_PORT_ID: AtomicU64 = AtomicU64::new(1);

/// One side of an entangled pair of ports.
pub struct PortCore {
    id: u64,
    state: Mutex<PortShared>,
}

impl std::fmt::Debug for PortCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortCore").field("id", &self.id).finish()
    }
}

pub(crate) struct PortShared {
    /// The port message queue.
    pub(crate) queue: VecDeque<SerializedWithTransfer>,
    /// Whether the port message queue is enabled.
    pub(crate) enabled: bool,
    /// The entangled port (a strong cycle, broken when either side closes).
    pub(crate) entangled: Option<Arc<PortCore>>,
    /// The thread where the port's object lives (`None` while in transit).
    pub(crate) owner: Option<ThreadId>,
    /// The entangled port was closed: a `close` event is due at this port.
    pub(crate) close_pending: bool,
}

impl PortCore {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            id: NEXT_PORT_ID.fetch_add(1, Ordering::Relaxed),
            state: Mutex::new(PortShared {
                queue: VecDeque::new(),
                enabled: false,
                entangled: None,
                owner: None,
                close_pending: false,
            }),
        })
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, PortShared> {
        // A panic while holding the lock cannot leave the queue half-updated (every update
        // is a single push/pop/assignment), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The port's id (what a [`PortNotifier`](crate::message::PortNotifier) receives).
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A port in transit (a transfer data holder): its shared half, with its queue.
#[derive(Debug, Clone)]
pub struct PortHandle(pub(crate) Arc<PortCore>);

/// [Entangle](https://html.spec.whatwg.org/multipage/web-messaging.html#entangle) two new
/// port cores.
pub(crate) fn entangled_pair() -> (Arc<PortCore>, Arc<PortCore>) {
    let a = PortCore::new();
    let b = PortCore::new();
    a.lock().entangled = Some(b.clone());
    b.lock().entangled = Some(a.clone());
    (a, b)
}
