//! HTML [channel messaging](https://html.spec.whatwg.org/multipage/web-messaging.html#channel-messaging):
//! `MessageChannel`, `MessagePort`, `MessageEvent`, and the transfer hooks of the platform
//! objects structured serialization can transfer (ports and streams).
//!
//! A port's shared half ([`PortCore`]) is `Send + Sync`: its port message queue holds
//! [`SerializedWithTransfer`] messages, so an entangled pair can span two threads. A message
//! is serialized when posted and deserialized when its task runs. Delivery is one task per
//! message: on the port's own thread a `GenericJob` of the host's event loop; when the port
//! lives on another thread, that thread's [`PortNotifier`] (installed by the host that runs
//! it, see [`set_port_notifier`]) is called with the port id and the host calls
//! [`deliver_message`] as a task.
//!
//! A port whose queue is not enabled (no `start()`, no `onmessage`) keeps its messages.
//! The ports of this context are held (for delivery) until they are closed or transferred
//! away.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use boa_engine::{
    class::{Class, ClassBuilder},
    job::{GenericJob, Job},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use crate::structured_clone::{
    data_clone_error, structured_deserialize_with_transfer, structured_serialize_with_transfer,
    SerializedWithTransfer,
};
use boa_dom::{self as dom, EventData, EventTargetData, Target};
use boa_webidl::sequence::sequence_of_objects;
use boa_webidl::{self as webidl, arg, Dictionary};

// ---------------------------------------------------------------------------------------
// The shared (thread-safe) half of a port
// ---------------------------------------------------------------------------------------

/// Called (on any thread) with a port id when a message arrives for a port that lives on
/// the notifier's thread; the host then runs [`deliver_message`] for it as a task.
pub type PortNotifier = Arc<dyn Fn(u64) + Send + Sync>;

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

struct PortShared {
    /// The port message queue.
    queue: VecDeque<SerializedWithTransfer>,
    /// Whether the port message queue is enabled.
    enabled: bool,
    /// The entangled port (a strong cycle, broken when either side closes).
    entangled: Option<Arc<PortCore>>,
    /// The thread where the port's object lives (`None` while in transit).
    owner: Option<ThreadId>,
    /// The entangled port was closed: a `close` event is due at this port.
    close_pending: bool,
}

impl PortCore {
    fn new() -> Arc<Self> {
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

    fn lock(&self) -> MutexGuard<'_, PortShared> {
        // A panic while holding the lock cannot leave the queue half-updated (every update
        // is a single push/pop/assignment), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The port's id (what a [`PortNotifier`] receives).
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A port in transit (a transfer data holder): its shared half, with its queue.
#[derive(Debug, Clone)]
pub struct PortHandle(Arc<PortCore>);

/// [Entangle](https://html.spec.whatwg.org/multipage/web-messaging.html#entangle) two new
/// port cores.
fn entangled_pair() -> (Arc<PortCore>, Arc<PortCore>) {
    let a = PortCore::new();
    let b = PortCore::new();
    a.lock().entangled = Some(b.clone());
    b.lock().entangled = Some(a.clone());
    (a, b)
}

/// [Disentangle](https://html.spec.whatwg.org/multipage/web-messaging.html#disentangle)
/// initiatorPort (`core`).
fn disentangle(core: &Arc<PortCore>, ctx: &mut Context) {
    // 1. Let otherPort be the MessagePort which initiatorPort was entangled with.
    // 2. Assert: otherPort exists. (Here: return if it does not.)
    let Some(other) = core.lock().entangled.take() else {
        return;
    };
    // 3. Disentangle the two ports.
    {
        let mut s = other.lock();
        s.entangled = None;
        s.close_pending = true;
    }
    // 4. Fire an event named close at otherPort.
    // NOTE: otherPort may live on another thread (or be in transit): the event is fired by
    // a task on its owner's event loop, after the message tasks already queued for it
    // (see `deliver_message`).
    schedule_delivery(&other, ctx);
}

// ---------------------------------------------------------------------------------------
// Per-context state
// ---------------------------------------------------------------------------------------

/// The ports living in this context, by id (for delivery).
#[derive(Default, Trace, Finalize, JsData)]
struct PortRegistry {
    ports: GcRefCell<HashMap<u64, JsObject>>,
}

/// The notifiers of the threads that run a host event loop reachable from other threads.
static NOTIFIERS: Mutex<Option<HashMap<ThreadId, PortNotifier>>> = Mutex::new(None);

fn notifiers() -> MutexGuard<'static, Option<HashMap<ThreadId, PortNotifier>>> {
    NOTIFIERS.lock().unwrap_or_else(|e| e.into_inner())
}

fn registry(ctx: &mut Context) -> &PortRegistry {
    if ctx.get_data::<PortRegistry>().is_none() {
        ctx.insert_data(PortRegistry::default());
    }
    // Inserted just above.
    #[allow(clippy::expect_used)]
    ctx.get_data::<PortRegistry>()
        .expect("the port registry was just inserted")
}

/// Install the notifier that lets other threads wake this thread's event loop for a message
/// to one of its ports (the host's worker machinery). One per thread.
pub fn set_port_notifier(notifier: PortNotifier) {
    notifiers()
        .get_or_insert_with(HashMap::new)
        .insert(std::thread::current().id(), notifier);
}

/// Remove this thread's notifier (its event loop is gone).
pub fn clear_port_notifier() {
    if let Some(map) = notifiers().as_mut() {
        map.remove(&std::thread::current().id());
    }
}

/// How many ports this context holds for delivery (tests: closed ports are released).
#[cfg(test)]
pub(crate) fn registered_port_count(ctx: &mut Context) -> usize {
    registry(ctx).ports.borrow().len()
}

/// Whether this context holds an entangled port whose queue is enabled (a host keeps a
/// worker alive while one exists).
pub fn has_active_ports(ctx: &mut Context) -> bool {
    let ports: Vec<JsObject> = registry(ctx).ports.borrow().values().cloned().collect();
    ports.iter().any(|p| {
        port_core(p).is_some_and(|c| {
            let s = c.lock();
            s.enabled && s.entangled.is_some()
        })
    })
}

// ---------------------------------------------------------------------------------------
// MessagePort objects
// ---------------------------------------------------------------------------------------

/// A `MessagePort`'s own state (the `ext` object of its `EventTargetData`).
#[derive(Trace, Finalize, JsData)]
struct PortData {
    #[unsafe_ignore_trace]
    core: std::cell::RefCell<Option<Arc<PortCore>>>,
    /// `[[Detached]]`.
    #[unsafe_ignore_trace]
    detached: std::cell::Cell<bool>,
}

/// The `MessagePort` interface object (instances are `EventTargetData` with a port).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct MessagePortInterface;

fn port_data(object: &JsObject) -> Option<JsObject> {
    let target = object.downcast_ref::<EventTargetData>()?;
    let ext = target.ext()?.clone();
    drop(target);
    ext.is::<PortData>().then_some(ext)
}

fn with_port<R>(object: &JsObject, f: impl FnOnce(&PortData) -> R) -> Option<R> {
    let ext = port_data(object)?;
    let data = ext.downcast_ref::<PortData>()?;
    Some(f(&data))
}

fn port_core(object: &JsObject) -> Option<Arc<PortCore>> {
    with_port(object, |p| p.core.borrow().clone()).flatten()
}

/// Whether `value` is a `MessagePort`.
pub fn is_message_port(value: &JsValue) -> bool {
    value.as_object().is_some_and(|o| port_data(&o).is_some())
}

fn this_port(this: &JsValue) -> JsResult<JsObject> {
    this.as_object()
        .filter(|o| port_data(o).is_some())
        .ok_or_else(|| webidl::type_error("'this' is not a MessagePort object"))
}

/// A new `MessagePort` object in the current realm for `core`, living on this thread.
fn new_port_object(core: Arc<PortCore>, ctx: &mut Context) -> JsResult<JsObject> {
    let proto = ctx
        .get_global_class::<MessagePortInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("MessagePort is not registered"))?
        .prototype();
    let ext = JsObject::from_proto_and_data(
        None,
        PortData {
            core: std::cell::RefCell::new(Some(core.clone())),
            detached: std::cell::Cell::new(false),
        },
    );
    let object = JsObject::from_proto_and_data(Some(proto), EventTargetData::with_ext(ext));
    {
        let mut s = core.lock();
        s.owner = Some(std::thread::current().id());
        // A transferred port's queue starts disabled in its new home.
        s.enabled = false;
    }
    // A close event that came due while the port was in transit.
    if core.lock().close_pending {
        schedule_delivery(&core, ctx);
    }
    registry(ctx)
        .ports
        .borrow_mut()
        .insert(core.id, object.clone());
    Ok(object)
}

/// A new entangled pair of `MessagePort` objects (what `new MessageChannel()` makes).
pub fn create_entangled_ports(ctx: &mut Context) -> JsResult<(JsObject, JsObject)> {
    let (a, b) = entangled_pair();
    Ok((new_port_object(a, ctx)?, new_port_object(b, ctx)?))
}

/// Queue a task on `core`'s owner to deliver one message.
fn schedule_delivery(core: &Arc<PortCore>, ctx: &mut Context) {
    let owner = core.lock().owner;
    let Some(thread) = owner else {
        // In transit: the receiving side schedules on start().
        return;
    };
    if thread == std::thread::current().id() {
        let id = core.id;
        let realm = ctx.realm().clone();
        ctx.enqueue_job(Job::GenericJob(GenericJob::new(
            move |ctx| {
                deliver_message(id, ctx);
                Ok(JsValue::undefined())
            },
            realm,
        )));
    } else {
        let notify = notifiers().as_ref().and_then(|m| m.get(&thread).cloned());
        if let Some(notify) = notify {
            notify(core.id);
        }
    }
}

/// Run one message task for the port `id` of this context: take the first message of its
/// queue (if the queue is enabled) and fire `message` (or `messageerror`) at the port.
pub fn deliver_message(id: u64, ctx: &mut Context) {
    let Some(port) = registry(ctx).ports.borrow().get(&id).cloned() else {
        return;
    };
    let Some(core) = port_core(&port) else {
        return;
    };
    // The close event (see `disentangle`): once the messages queued before it are
    // delivered (or at once while the port message queue is disabled).
    let close = {
        let mut s = core.lock();
        let due = s.close_pending && (s.queue.is_empty() || !s.enabled);
        if due {
            s.close_pending = false;
        }
        due
    };
    if close {
        if let Ok(target) = port.clone().downcast::<EventTargetData>() {
            let _ = dom::fire_event(&target, "close", ctx);
        }
        return;
    }
    let message = {
        let mut s = core.lock();
        if !s.enabled {
            return;
        }
        s.queue.pop_front()
    };
    let Some(message) = message else {
        return;
    };
    // A closed port is kept only until its queue is drained.
    let drained_and_closed =
        with_port(&port, |p| p.detached.get()).unwrap_or(false) && core.lock().queue.is_empty();
    if drained_and_closed {
        registry(ctx).ports.borrow_mut().remove(&id);
    }
    // Let deserializeRecord be StructuredDeserializeWithTransfer(serializeWithTransferResult,
    // targetRealm). (Deserialization runs no user code.)
    match structured_deserialize_with_transfer(message, ctx) {
        Ok((data, transferred)) => {
            // Let newPorts be a new frozen array of the MessagePorts in
            // deserializeRecord.[[TransferredValues]].
            let ports: Vec<JsValue> = transferred
                .into_iter()
                .filter(|o| port_data(o).is_some())
                .map(Into::into)
                .collect();
            let _ = fire_message_event(&port, "message", data, ports, ctx);
        }
        Err(_) => {
            let _ = fire_message_event(&port, "messageerror", JsValue::null(), Vec::new(), ctx);
        }
    }
}

fn fire_message_event(
    port: &JsObject,
    event_type: &str,
    data: JsValue,
    ports: Vec<JsValue>,
    ctx: &mut Context,
) -> JsResult<()> {
    let event = create_message_event(
        event_type,
        MessageEventFields {
            data,
            origin: JsString::default(),
            last_event_id: JsString::default(),
            source: JsValue::null(),
            ports: frozen_array(ports, ctx)?,
        },
        ctx,
    )?;
    event.borrow().data().update(|f| f.is_trusted = true);
    let Ok(target) = port.clone().downcast::<EventTargetData>() else {
        return Ok(());
    };
    dom::dispatch(&event, &Target::own(target), ctx)?;
    Ok(())
}

fn frozen_array(values: Vec<JsValue>, ctx: &mut Context) -> JsResult<JsObject> {
    let array: JsObject = JsArray::from_iter(values, ctx).into();
    array.set_integrity_level(boa_engine::object::IntegrityLevel::Frozen, ctx)?;
    Ok(array)
}

/// [Message port post message steps](https://html.spec.whatwg.org/multipage/web-messaging.html#message-port-post-message-steps)
pub fn message_port_post_message(
    source: &JsObject,
    message: &JsValue,
    transfer: &[JsObject],
    ctx: &mut Context,
) -> JsResult<()> {
    let core = port_core(source);
    // 1. Let targetPort be the port with which sourcePort is entangled, if any.
    let target = core.as_ref().and_then(|c| c.lock().entangled.clone());
    // 2. If transfer contains sourcePort, then throw a "DataCloneError" DOMException.
    if transfer.iter().any(|t| JsObject::equals(t, source)) {
        return Err(data_clone_error(
            "The source port is in the transfer list",
            ctx,
        ));
    }
    // 3-4. Let doomed be true if transfer contains targetPort.
    let doomed = target.as_ref().is_some_and(|t| {
        transfer
            .iter()
            .any(|o| port_core(o).is_some_and(|c| Arc::ptr_eq(&c, t)))
    });
    // 5. Let serializeWithTransferResult be ? StructuredSerializeWithTransfer(message,
    //    transfer).
    let serialized = structured_serialize_with_transfer(message, transfer, ctx)?;
    // 6. If targetPort is null, or if doomed is true, then return.
    let Some(target) = target.filter(|_| !doomed) else {
        return Ok(());
    };
    // 7. Add a task to targetPort's port message queue.
    let enabled = {
        let mut s = target.lock();
        s.queue.push_back(serialized);
        s.enabled
    };
    if enabled {
        schedule_delivery(&target, ctx);
    }
    Ok(())
}

/// The [start()](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-start)
/// steps: enable the port message queue (and queue a task per waiting message).
pub fn message_port_start(port: &JsObject, ctx: &mut Context) {
    let Some(core) = port_core(port) else {
        return;
    };
    let waiting = {
        let mut s = core.lock();
        if s.enabled {
            0
        } else {
            s.enabled = true;
            s.queue.len()
        }
    };
    for _ in 0..waiting {
        schedule_delivery(&core, ctx);
    }
}

/// The [close()](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-close)
/// steps: set \[\[Detached\]\], disentangle.
pub fn message_port_close(port: &JsObject, ctx: &mut Context) {
    let Some(core) = port_core(port) else {
        return;
    };
    // 1. Set this's [[Detached]] to true.
    with_port(port, |p| p.detached.set(true));
    // 2. If this is entangled, disentangle it.
    disentangle(&core, ctx);
    // The context no longer needs to reach this port once its queue is empty.
    if core.lock().queue.is_empty() {
        registry(ctx).ports.borrow_mut().remove(&core.id);
    }
}

/// Close every port of this context (a terminated worker's ports are disentangled: their
/// partners get a `close` event).
pub fn close_all_ports(ctx: &mut Context) {
    let ports: Vec<JsObject> = registry(ctx).ports.borrow().values().cloned().collect();
    for port in ports {
        message_port_close(&port, ctx);
    }
}

/// Set the port's `message` event listener as an internal algorithm (the cross-realm
/// transforms' "add a handler for port's message event"): `handler` is called with the
/// event's data. Enables the queue.
pub(crate) fn add_internal_listener(
    port: &JsObject,
    event_type: &str,
    handler: JsObject,
    ctx: &mut Context,
) -> JsResult<()> {
    let Ok(target) = port.clone().downcast::<EventTargetData>() else {
        return Err(webidl::type_error("not a MessagePort"));
    };
    dom::add_internal_listener(&target, event_type, handler);
    let _ = ctx;
    Ok(())
}

impl Class for MessagePortInterface {
    const NAME: &'static str = "MessagePort";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // `onclose` (MessagePort's own), then MessageEventTarget's `onmessage`,
        // `onmessageerror` (the mixin's members follow the interface's).
        for (name, implicit_start) in [
            ("onclose", false),
            ("onmessage", true),
            ("onmessageerror", false),
        ] {
            let event_type = &name[2..];
            webidl::attribute(
                class,
                name,
                NativeFunction::from_copy_closure(move |this, _, _| {
                    let port = this_port(this)?;
                    let target = port
                        .downcast::<EventTargetData>()
                        .map_err(|_| webidl::type_error("'this' is not a MessagePort object"))?;
                    Ok(dom::get_event_handler(&target, event_type))
                }),
                Some(NativeFunction::from_copy_closure(move |this, args, ctx| {
                    let port = this_port(this)?;
                    let target = port
                        .clone()
                        .downcast::<EventTargetData>()
                        .map_err(|_| webidl::type_error("'this' is not a MessagePort object"))?;
                    dom::set_event_handler(&target, event_type, &arg(args, 0));
                    // The first time onmessage is set, the port message queue is enabled.
                    if implicit_start {
                        message_port_start(&port, ctx);
                    }
                    Ok(JsValue::undefined())
                })),
            );
        }
        webidl::operation(
            class,
            "postMessage",
            1,
            NativeFunction::from_fn_ptr(|this, args, ctx| {
                let port = this_port(this)?;
                if args.is_empty() {
                    return Err(webidl::type_error(
                        "postMessage: 1 argument required, but only 0 present",
                    ));
                }
                let transfer = post_message_transfer(&arg(args, 1), ctx)?;
                message_port_post_message(&port, &arg(args, 0), &transfer, ctx)?;
                Ok(JsValue::undefined())
            }),
        );
        webidl::operation(
            class,
            "start",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let port = this_port(this)?;
                message_port_start(&port, ctx);
                Ok(JsValue::undefined())
            }),
        );
        webidl::operation(
            class,
            "close",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let port = this_port(this)?;
                message_port_close(&port, ctx);
                Ok(JsValue::undefined())
            }),
        );
        webidl::to_string_tag(class, "MessagePort");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}

/// The second argument of `postMessage`: the overloads `(message, sequence<object>
/// transfer)` and `(message, optional StructuredSerializeOptions options = {})`.
fn post_message_transfer(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<JsObject>> {
    if let Some(object) = value.as_object() {
        // Overload resolution: an object with a @@iterator method is the sequence.
        let method = boa_webidl::sequence::get_iterator_method(&object, ctx)?;
        if let Some(method) = method {
            return boa_webidl::sequence::sequence_of_objects_from_method(value, &method, ctx);
        }
    }
    let options = Dictionary::new(value, "StructuredSerializeOptions")?;
    match options.get(webidl::js_key!("transfer"), ctx)? {
        Some(list) => sequence_of_objects(&list, ctx),
        None => Ok(Vec::new()),
    }
}

// ---------------------------------------------------------------------------------------
// MessageChannel
// ---------------------------------------------------------------------------------------

/// A `MessageChannel`: its two ports.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct MessageChannel {
    port1: JsObject,
    port2: JsObject,
}

impl Class for MessageChannel {
    const NAME: &'static str = "MessageChannel";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "port1",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let c = webidl::brand::<MessageChannel>(this, "MessageChannel")?;
                let p = c.borrow().data().port1.clone();
                Ok(p.into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "port2",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let c = webidl::brand::<MessageChannel>(this, "MessageChannel")?;
                let p = c.borrow().data().port2.clone();
                Ok(p.into())
            }),
            None,
        );
        webidl::to_string_tag(class, "MessageChannel");
        Ok(())
    }

    fn data_constructor(new_target: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<Self> {
        webidl::require_new(new_target, "MessageChannel")?;
        // 1-3. Set this's port 1 and port 2 to new MessagePorts; entangle them.
        let (port1, port2) = create_entangled_ports(ctx)?;
        Ok(Self { port1, port2 })
    }
}

// ---------------------------------------------------------------------------------------
// MessageEvent
// ---------------------------------------------------------------------------------------

/// A `MessageEvent`'s members (the `ext` object of its `EventData`).
#[derive(Trace, Finalize, JsData)]
struct MessageEventFields {
    data: JsValue,
    origin: JsString,
    last_event_id: JsString,
    source: JsValue,
    ports: JsObject,
}

/// The `MessageEvent` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct MessageEventInterface;

fn create_message_event(
    event_type: &str,
    fields: MessageEventFields,
    ctx: &mut Context,
) -> JsResult<JsObject<EventData>> {
    let proto = ctx
        .get_global_class::<MessageEventInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("MessageEvent is not registered"))?
        .prototype();
    let mut data = EventData::new(JsString::from(event_type), false, false, false);
    data.set_ext(JsObject::from_proto_and_data(None, fields));
    let object = dom::create_event_object(proto, data, ctx)?;
    object
        .downcast::<EventData>()
        .map_err(|_| webidl::type_error("not an event"))
}

fn message_event_field(
    this: &JsValue,
    f: impl FnOnce(&MessageEventFields) -> JsValue,
) -> JsResult<JsValue> {
    let ext = this
        .as_object()
        .and_then(|o| o.downcast::<EventData>().ok())
        .and_then(|e| e.borrow().data().ext().cloned())
        .ok_or_else(|| webidl::type_error("'this' is not a MessageEvent object"))?;
    let fields = ext
        .downcast_ref::<MessageEventFields>()
        .ok_or_else(|| webidl::type_error("'this' is not a MessageEvent object"))?;
    Ok(f(&fields))
}

impl Class for MessageEventInterface {
    const NAME: &'static str = "MessageEvent";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "data",
            NativeFunction::from_fn_ptr(|this, _, _| message_event_field(this, |f| f.data.clone())),
            None,
        );
        webidl::attribute(
            class,
            "origin",
            NativeFunction::from_fn_ptr(|this, _, _| {
                message_event_field(this, |f| f.origin.clone().into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "lastEventId",
            NativeFunction::from_fn_ptr(|this, _, _| {
                message_event_field(this, |f| f.last_event_id.clone().into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "source",
            NativeFunction::from_fn_ptr(|this, _, _| {
                message_event_field(this, |f| f.source.clone())
            }),
            None,
        );
        webidl::attribute(
            class,
            "ports",
            NativeFunction::from_fn_ptr(|this, _, _| {
                message_event_field(this, |f| f.ports.clone().into())
            }),
            None,
        );
        webidl::to_string_tag(class, "MessageEvent");
        Ok(())
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new MessageEvent(type, eventInitDict)`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            webidl::require_new(new_target, "MessageEvent")?;
            if args.is_empty() {
                return Err(webidl::type_error(
                    "Failed to construct 'MessageEvent': 1 argument required, but only 0 present",
                ));
            }
            let event_type = webidl::to_dom_string(&arg(args, 0), ctx)?;
            let dict = Dictionary::new(&arg(args, 1), "MessageEventInit")?;
            let (bubbles, cancelable, composed) = dom::event_init(&dict, ctx)?;
            let data = dict
                .get(webidl::js_key!("data"), ctx)?
                .unwrap_or(JsValue::null());
            let last_event_id = match dict.get(webidl::js_key!("lastEventId"), ctx)? {
                Some(v) => webidl::to_dom_string(&v, ctx)?,
                None => JsString::default(),
            };
            let origin = match dict.get(webidl::js_key!("origin"), ctx)? {
                Some(v) => webidl::to_dom_string(&v, ctx)?,
                None => JsString::default(),
            };
            let ports = match dict.get(webidl::js_key!("ports"), ctx)? {
                Some(v) => {
                    let list = sequence_of_objects(&v, ctx)?;
                    if !list.iter().all(|p| port_data(p).is_some()) {
                        return Err(webidl::type_error(
                            "MessageEventInit.ports: an element is not a MessagePort",
                        ));
                    }
                    list.into_iter().map(Into::into).collect()
                }
                None => Vec::new(),
            };
            let source = match dict.get(webidl::js_key!("source"), ctx)? {
                Some(v) if v.is_null() || is_message_port(&v) => v,
                None => JsValue::null(),
                Some(_) => {
                    return Err(webidl::type_error(
                        "MessageEventInit.source: not a MessagePort",
                    ))
                }
            };
            let proto = dom::prototype_from_new_target::<MessageEventInterface>(new_target, ctx)?;
            let mut event = EventData::new(event_type, bubbles, cancelable, composed);
            let fields = MessageEventFields {
                data,
                origin,
                last_event_id,
                source,
                ports: frozen_array(ports, ctx)?,
            };
            event.set_ext(JsObject::from_proto_and_data(None, fields));
            dom::create_event_object(proto, event, ctx)
        })())
    }
}

// ---------------------------------------------------------------------------------------
// Transfer hooks for platform objects
// ---------------------------------------------------------------------------------------

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

/// A platform object in a transfer list.
pub enum PlatformTransferable {
    /// A `MessagePort`.
    MessagePort(JsObject),
    /// A stream (handled by `transfer_streams`).
    Stream(crate::transfer_streams::StreamTransferable),
}

/// Is `object` a transferable platform object?
pub(crate) fn platform_transferable(object: &JsObject) -> Option<PlatformTransferable> {
    if port_data(object).is_some() {
        return Some(PlatformTransferable::MessagePort(object.clone()));
    }
    crate::transfer_streams::stream_transferable(object).map(PlatformTransferable::Stream)
}

/// The transfer steps of the object's interface (and set its [[Detached]]).
pub(crate) fn transfer_steps(
    transferable: PlatformTransferable,
    ctx: &mut Context,
) -> JsResult<PlatformHolder> {
    match transferable {
        PlatformTransferable::MessagePort(port) => {
            // If transferable.[[Detached]] is true, then throw a "DataCloneError".
            if with_port(&port, |p| p.detached.get()).unwrap_or(true) {
                return Err(data_clone_error(
                    "A MessagePort is detached and could not be transferred",
                    ctx,
                ));
            }
            let core = with_port(&port, |p| p.core.borrow_mut().take())
                .flatten()
                .ok_or_else(|| data_clone_error("A MessagePort is detached", ctx))?;
            with_port(&port, |p| p.detached.set(true));
            // MessagePort's transfer steps: the holder takes the port (and its queue).
            registry(ctx).ports.borrow_mut().remove(&core.id);
            core.lock().owner = None;
            Ok(PlatformHolder::MessagePort(PortHandle(core)))
        }
        PlatformTransferable::Stream(s) => crate::transfer_streams::transfer_steps(s, ctx),
    }
}

/// The transfer-receiving steps: a new object of the holder's interface.
pub(crate) fn transfer_receiving_steps(
    holder: PlatformHolder,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    match holder {
        PlatformHolder::MessagePort(PortHandle(core)) => new_port_object(core, ctx),
        other => crate::transfer_streams::transfer_receiving_steps(other, ctx),
    }
}

/// A new `MessagePort` object on this thread for a port in transit (a transferred stream's
/// holder, a worker's port).
pub fn receive_port(handle: PortHandle, ctx: &mut Context) -> JsResult<JsObject> {
    new_port_object(handle.0, ctx)
}

/// Take the core out of a (new, internal) port object to put it in a transfer holder.
pub fn ship_port(port: &JsObject, ctx: &mut Context) -> JsResult<PortHandle> {
    match transfer_steps(PlatformTransferable::MessagePort(port.clone()), ctx)? {
        PlatformHolder::MessagePort(h) => Ok(h),
        _ => Err(JsError::from(
            JsNativeError::typ().with_message("not a port"),
        )),
    }
}

/// Register `MessagePort`, `MessageChannel` and `MessageEvent`.
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    webidl::register_interface::<MessagePortInterface>(ctx)?;
    webidl::register_interface::<MessageChannel>(ctx)?;
    webidl::register_interface::<MessageEventInterface>(ctx)?;
    let target = ctx
        .get_global_class::<EventTargetData>()
        .ok_or_else(|| JsNativeError::typ().with_message("EventTarget is not registered"))?;
    let port = ctx
        .get_global_class::<MessagePortInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("MessagePort is not registered"))?;
    port.prototype().set_prototype(Some(target.prototype()));
    port.constructor().set_prototype(Some(target.constructor()));
    let event = ctx
        .get_global_class::<EventData>()
        .ok_or_else(|| JsNativeError::typ().with_message("Event is not registered"))?;
    let message_event = ctx
        .get_global_class::<MessageEventInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("MessageEvent is not registered"))?;
    message_event
        .prototype()
        .set_prototype(Some(event.prototype()));
    message_event
        .constructor()
        .set_prototype(Some(event.constructor()));
    Ok(())
}

#[cfg(test)]
mod tests;
