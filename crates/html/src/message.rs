//! HTML [channel messaging](https://html.spec.whatwg.org/multipage/web-messaging.html#channel-messaging):
//! `MessageChannel`, `MessagePort`, `MessageEvent`, and MessagePort's transfer steps.
//!
//! A port's shared half ([`PortCore`]) is `Send + Sync`: its port message queue holds
//! [`SerializedWithTransfer`](crate::structured_clone::SerializedWithTransfer) messages, so
//! an entangled pair can span two threads. A message is serialized when posted and
//! deserialized when its task runs. Delivery is one task per
//! message: on the port's own thread a `GenericJob` of the host's event loop; when the port
//! lives on another thread, that thread's [`PortNotifier`] (installed by the host that runs
//! it, see [`set_port_notifier`]) is called with the port id and the host calls
//! [`deliver_message`] as a task.
//!
//! A port whose queue is not enabled (no `start()`, no `onmessage`) keeps its messages.
//! The ports of this context are held (for delivery) until they are closed or transferred
//! away.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use boa_engine::{
    class::{Class, ClassBuilder},
    job::{GenericJob, Job},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

pub use crate::records::{PlatformHolder, PortCore, PortHandle};

use crate::records::entangled_pair;
use crate::structured_clone::{
    data_clone_error, structured_deserialize_with_transfer, structured_serialize_with_transfer,
};
use crate::transfer::TransferSteps;
use boa_dom::{self as dom, EventData, EventTargetData, Target};
use boa_webidl::sequence::sequence_of_objects;
use boa_webidl::{self as webidl, arg, Dictionary, Member};

// ---------------------------------------------------------------------------------------
// Ports across threads
// ---------------------------------------------------------------------------------------

/// Called (on any thread) with a port id when a message arrives for a port that lives on
/// the notifier's thread; the host then runs [`deliver_message`] for it as a task.
pub type PortNotifier = Arc<dyn Fn(u64) + Send + Sync>;

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
        .insert(core.id(), object.clone());
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
        let id = core.id();
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
            notify(core.id());
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
        registry(ctx).ports.borrow_mut().remove(&core.id());
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

/// The getter of the event handler IDL attribute of `event_type` on `this` port.
fn port_event_handler(this: &JsValue, event_type: &str) -> JsResult<JsValue> {
    let port = this_port(this)?;
    let target = port
        .downcast::<EventTargetData>()
        .map_err(|_| webidl::type_error("'this' is not a MessagePort object"))?;
    Ok(dom::get_event_handler(&target, event_type))
}

/// The setter of the event handler IDL attribute of `event_type` on `this` port; setting
/// `onmessage` (`implicit_start`) enables the port message queue.
fn set_port_event_handler(
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
    event_type: &str,
    implicit_start: bool,
) -> JsResult<JsValue> {
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
}

/// [`onclose`](https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageport-onclose) (getter)
fn get_onclose(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    port_event_handler(this, "close")
}

/// [`onclose`](https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageport-onclose) (setter)
fn set_onclose(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    set_port_event_handler(this, args, ctx, "close", false)
}

/// [`onmessage`](https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageeventtarget-onmessage) (getter)
fn get_onmessage(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    port_event_handler(this, "message")
}

/// [`onmessage`](https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageeventtarget-onmessage) (setter)
fn set_onmessage(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    set_port_event_handler(this, args, ctx, "message", true)
}

/// [`onmessageerror`](https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageeventtarget-onmessageerror) (getter)
fn get_onmessageerror(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    port_event_handler(this, "messageerror")
}

/// [`onmessageerror`](https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageeventtarget-onmessageerror) (setter)
fn set_onmessageerror(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    set_port_event_handler(this, args, ctx, "messageerror", false)
}

/// [`postMessage(message, transfer)`](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-postmessage)
fn post_message(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let port = this_port(this)?;
    if args.is_empty() {
        return Err(webidl::type_error(
            "postMessage: 1 argument required, but only 0 present",
        ));
    }
    let transfer = post_message_transfer(&arg(args, 1), ctx)?;
    message_port_post_message(&port, &arg(args, 0), &transfer, ctx)?;
    Ok(JsValue::undefined())
}

/// [`start()`](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-start)
fn start(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let port = this_port(this)?;
    message_port_start(&port, ctx);
    Ok(JsValue::undefined())
}

/// [`close()`](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-close)
fn close(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let port = this_port(this)?;
    message_port_close(&port, ctx);
    Ok(JsValue::undefined())
}

/// [MessageEventTarget](https://html.spec.whatwg.org/multipage/web-messaging.html#messageeventtarget)'s
/// members (an interface mixin).
const fn message_event_target_rows() -> [Member; 2] {
    [
        Member::writable_attribute("onmessage", get_onmessage, set_onmessage),
        Member::writable_attribute("onmessageerror", get_onmessageerror, set_onmessageerror),
    ]
}

impl Class for MessagePortInterface {
    const NAME: &'static str = "MessagePort";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // `onclose` (MessagePort's own), then MessageEventTarget's `onmessage`,
        // `onmessageerror` (the mixin's members follow the interface's).
        let [onmessage, onmessageerror] = message_event_target_rows();
        webidl::define(
            class,
            &[
                Member::writable_attribute("onclose", get_onclose, set_onclose),
                onmessage,
                onmessageerror,
                Member::operation("postMessage", 1, post_message),
                Member::operation("start", 0, start),
                Member::operation("close", 0, close),
                Member::to_string_tag("MessagePort"),
            ],
        )
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

/// [`port1`](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messagechannel-port1)
fn get_port1(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let c = webidl::brand::<MessageChannel>(this, "MessageChannel")?;
    let p = c.borrow().data().port1.clone();
    Ok(p.into())
}

/// [`port2`](https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messagechannel-port2)
fn get_port2(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let c = webidl::brand::<MessageChannel>(this, "MessageChannel")?;
    let p = c.borrow().data().port2.clone();
    Ok(p.into())
}

impl Class for MessageChannel {
    const NAME: &'static str = "MessageChannel";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("port1", get_port1),
                Member::attribute("port2", get_port2),
                Member::to_string_tag("MessageChannel"),
            ],
        )
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

/// [`data`](https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-data)
fn get_data(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    message_event_field(this, |f| f.data.clone())
}

/// [`origin`](https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-origin)
fn get_origin(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    message_event_field(this, |f| f.origin.clone().into())
}

/// [`lastEventId`](https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-lasteventid)
fn get_last_event_id(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    message_event_field(this, |f| f.last_event_id.clone().into())
}

/// [`source`](https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-source)
fn get_source(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    message_event_field(this, |f| f.source.clone())
}

/// [`ports`](https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-ports)
fn get_ports(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    message_event_field(this, |f| f.ports.clone().into())
}

impl Class for MessageEventInterface {
    const NAME: &'static str = "MessageEvent";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("data", get_data),
                Member::attribute("origin", get_origin),
                Member::attribute("lastEventId", get_last_event_id),
                Member::attribute("source", get_source),
                Member::attribute("ports", get_ports),
                Member::to_string_tag("MessageEvent"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new MessageEvent(type, eventInitDict)`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            let (event_type, dict, (bubbles, cancelable, composed)) =
                dom::event_constructor_arguments(
                    new_target,
                    args,
                    "MessageEvent",
                    "MessageEventInit",
                    ctx,
                )?;
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
// MessagePort's transfer steps
// ---------------------------------------------------------------------------------------

/// MessagePort's transfer steps, if `object` is a `MessagePort`.
pub(crate) fn port_transfer_steps_of(object: &JsObject) -> Option<TransferSteps> {
    let steps: TransferSteps = port_transfer_steps;
    port_data(object).is_some().then_some(steps)
}

/// The transfer steps of a `MessagePort`: the holder takes the port (and its queue).
fn port_transfer_steps(port: &JsObject, ctx: &mut Context) -> JsResult<PlatformHolder> {
    Ok(PlatformHolder::MessagePort(ship_port(port, ctx)?))
}

/// A new `MessagePort` object on this thread for a port in transit (a transferred stream's
/// holder, a worker's port): MessagePort's transfer-receiving steps.
pub fn receive_port(handle: PortHandle, ctx: &mut Context) -> JsResult<JsObject> {
    new_port_object(handle.0, ctx)
}

/// Take the core out of a port object to put it in a transfer holder (MessagePort's
/// transfer steps; also for a new, internal port).
pub fn ship_port(port: &JsObject, ctx: &mut Context) -> JsResult<PortHandle> {
    // If transferable.[[Detached]] is true, then throw a "DataCloneError".
    if with_port(port, |p| p.detached.get()).unwrap_or(true) {
        return Err(data_clone_error(
            "A MessagePort is detached and could not be transferred",
            ctx,
        ));
    }
    let core = with_port(port, |p| p.core.borrow_mut().take())
        .flatten()
        .ok_or_else(|| data_clone_error("A MessagePort is detached", ctx))?;
    with_port(port, |p| p.detached.set(true));
    // MessagePort's transfer steps: the holder takes the port (and its queue).
    registry(ctx).ports.borrow_mut().remove(&core.id());
    core.lock().owner = None;
    Ok(PortHandle(core))
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
