//! [`Event`](https://dom.spec.whatwg.org/#interface-event) and
//! [`CustomEvent`](https://dom.spec.whatwg.org/#interface-customevent).
//!
//! Both interfaces share one native data type, [`EventData`]: a `CustomEvent` is an event
//! whose `custom` flag is set (Boa gives every object exactly one native data type).

use std::cell::{Cell, OnceCell};
use std::time::Instant;

use boa_engine::{
    class::{Class, ClassBuilder},
    js_string,
    object::builtins::{JsArray, JsFunction},
    property::{Attribute, PropertyDescriptor},
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_webidl::{self as webidl, arg, Dictionary, Member};

/// Event phases (`Event.NONE` …).
pub const NONE: u16 = 0;
/// `Event.AT_TARGET`.
pub const AT_TARGET: u16 = 2;

/// The per-realm record of the events (in the realm's `host_defined`).
#[derive(Trace, Finalize, JsData)]
struct EventRealm {
    /// The `[LegacyUnforgeable]` `isTrusted` getter shared by the realm's events.
    is_trusted_getter: JsFunction,
}

/// The flags and plain fields of an event.
#[derive(Debug, Clone, Copy, Default)]
pub struct EventFlags {
    pub stop_propagation: bool,
    pub stop_immediate_propagation: bool,
    pub canceled: bool,
    pub in_passive_listener: bool,
    pub composed: bool,
    pub initialized: bool,
    pub dispatch: bool,
    pub bubbles: bool,
    pub cancelable: bool,
    pub is_trusted: bool,
    pub phase: u16,
    /// Whether the event's path is non-empty (only while it is being dispatched).
    pub has_path: bool,
}

/// An `Event` (or `CustomEvent`) object's internal state.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct EventData {
    event_type: GcRefCell<JsString>,
    target: GcRefCell<Option<JsObject>>,
    current_target: GcRefCell<Option<JsObject>>,
    detail: GcRefCell<JsValue>,
    /// The state of an event interface defined outside this module (a `MessageEvent`'s
    /// members), as a native object script never sees.
    ext: Option<JsObject>,
    #[unsafe_ignore_trace]
    flags: Cell<EventFlags>,
    #[unsafe_ignore_trace]
    time_stamp: f64,
    #[unsafe_ignore_trace]
    custom: bool,
}

thread_local! {
    static TIME_ORIGIN: OnceCell<Instant> = const { OnceCell::new() };
}

/// Start this thread's time origin (the first call wins).
pub fn init_time_origin() {
    TIME_ORIGIN.with(|o| {
        o.get_or_init(Instant::now);
    });
}

/// The current high resolution time relative to the time origin, in milliseconds.
fn now_ms() -> f64 {
    TIME_ORIGIN.with(|o| o.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0)
}

impl EventData {
    /// A new, initialized event of `event_type` (the "create an event" steps, with the
    /// flags of the init dictionary).
    pub fn new(event_type: JsString, bubbles: bool, cancelable: bool, composed: bool) -> Self {
        Self {
            event_type: GcRefCell::new(event_type),
            target: GcRefCell::new(None),
            current_target: GcRefCell::new(None),
            detail: GcRefCell::new(JsValue::null()),
            ext: None,
            flags: Cell::new(EventFlags {
                initialized: true,
                bubbles,
                cancelable,
                composed,
                ..EventFlags::default()
            }),
            time_stamp: now_ms(),
            custom: false,
        }
    }

    /// Give the event the state object of another event interface (see `ext`).
    pub fn set_ext(&mut self, ext: JsObject) {
        self.ext = Some(ext);
    }

    /// The state object given to [`Self::set_ext`].
    pub fn ext(&self) -> Option<&JsObject> {
        self.ext.as_ref()
    }

    /// The event's flags (stop propagation, canceled, dispatch, ...).
    pub fn flags(&self) -> EventFlags {
        self.flags.get()
    }

    /// Change the event's flags with `f`.
    pub fn update(&self, f: impl FnOnce(&mut EventFlags)) {
        let mut flags = self.flags.get();
        f(&mut flags);
        self.flags.set(flags);
    }

    /// The event's `type`.
    pub fn event_type(&self) -> JsString {
        self.event_type.borrow().clone()
    }

    /// Set the event's target.
    pub fn set_target(&self, target: Option<JsObject>) {
        *self.target.borrow_mut() = target;
    }

    /// Set the event's `currentTarget`.
    pub fn set_current_target(&self, target: Option<JsObject>) {
        *self.current_target.borrow_mut() = target;
    }

    /// The event's `currentTarget`.
    pub fn current_target(&self) -> Option<JsObject> {
        self.current_target.borrow().clone()
    }

    /// [set the canceled flag](https://dom.spec.whatwg.org/#set-the-canceled-flag)
    pub fn set_canceled_flag(&self) {
        // 1. If event's cancelable attribute value is true and event's in passive listener
        //    flag is unset, then set event's canceled flag.
        self.update(|f| {
            if f.cancelable && !f.in_passive_listener {
                f.canceled = true;
            }
        });
    }

    /// [initialize](https://dom.spec.whatwg.org/#concept-event-initialize) an event.
    fn initialize(&self, event_type: JsString, bubbles: bool, cancelable: bool) {
        // 1. Set event's initialized flag.
        // 2. Unset event's stop propagation flag, stop immediate propagation flag, and
        //    canceled flag.
        // 3. Set event's isTrusted attribute to false.
        // 6. Set event's bubbles attribute to bubbles.
        // 7. Set event's cancelable attribute to cancelable.
        self.update(|f| {
            f.initialized = true;
            f.stop_propagation = false;
            f.stop_immediate_propagation = false;
            f.canceled = false;
            f.is_trusted = false;
            f.bubbles = bubbles;
            f.cancelable = cancelable;
        });
        // 4. Set event's target to null.
        self.set_target(None);
        // 5. Set event's type attribute to type.
        *self.event_type.borrow_mut() = event_type;
    }
}

/// Create the JS object for `data` with `proto`, giving it its own `[LegacyUnforgeable]`
/// `isTrusted` accessor.
pub fn create_event_object(
    proto: JsObject,
    data: EventData,
    context: &mut Context,
) -> JsResult<JsObject> {
    let getter = context
        .realm()
        .host_defined()
        .get::<EventRealm>()
        .map(|r| r.is_trusted_getter.clone())
        .ok_or_else(|| JsNativeError::typ().with_message("Event is not registered"))?;
    let object = JsObject::from_proto_and_data(Some(proto), data);
    object.define_property_or_throw(
        js_string!("isTrusted"),
        PropertyDescriptor::builder()
            .get(getter)
            .enumerable(true)
            .configurable(false),
        context,
    )?;
    Ok(object)
}

/// Create a trusted event named `event_type` in the current realm (for "fire an event").
pub fn create_trusted_event(event_type: &str, context: &mut Context) -> JsResult<JsObject> {
    let proto = context
        .get_global_class::<EventData>()
        .ok_or_else(|| JsNativeError::typ().with_message("Event is not registered"))?
        .prototype();
    let data = EventData::new(JsString::from(event_type), false, false, false);
    data.update(|f| f.is_trusted = true);
    create_event_object(proto, data, context)
}

/// The conversions an event interface's constructor `new I(type, eventInitDict)` starts
/// with: require `new`, check that `type` is given, convert it to a `DOMString`, take
/// `eventInitDict` as the dictionary `dictionary` (an `EventInit` descendant) and convert its
/// `EventInit` members (which come first: the least derived dictionary's members are converted
/// first). Returns the type, the dictionary (for the derived members) and `(bubbles,
/// cancelable, composed)`.
///
/// ```
/// use boa_dom::event_constructor_arguments;
/// use boa_engine::{js_string, Context, JsObject, JsValue};
///
/// let mut context = Context::default();
/// let new_target = JsValue::from(JsObject::with_null_proto());
/// let args = [JsValue::from(js_string!("x"))];
/// let (event_type, _dict, (bubbles, _, _)) =
///     event_constructor_arguments(&new_target, &args, "Event", "EventInit", &mut context)
///         .unwrap();
/// assert_eq!(event_type.to_std_string_escaped(), "x");
/// assert!(!bubbles);
/// let Err(error) =
///     event_constructor_arguments(&new_target, &[], "Event", "EventInit", &mut context)
/// else {
///     panic!("a missing type is a TypeError");
/// };
/// assert!(error.to_string().contains("Failed to construct 'Event': 1 argument required"));
/// ```
pub fn event_constructor_arguments(
    new_target: &JsValue,
    args: &[JsValue],
    interface: &str,
    dictionary: &'static str,
    context: &mut Context,
) -> JsResult<(JsString, Dictionary, (bool, bool, bool))> {
    webidl::require_new(new_target, interface)?;
    if args.is_empty() {
        return Err(webidl::type_error(format!(
            "Failed to construct '{interface}': 1 argument required, but only 0 present"
        )));
    }
    let event_type = webidl::to_dom_string(&arg(args, 0), context)?;
    let dict = Dictionary::new(&arg(args, 1), dictionary)?;
    let init = event_init(&dict, context)?;
    Ok((event_type, dict, init))
}

/// Convert the members of an `EventInit` dictionary (bubbles, cancelable, composed: in that
/// order).
pub fn event_init(dict: &Dictionary, context: &mut Context) -> JsResult<(bool, bool, bool)> {
    let bubbles = dict.get_bool(webidl::js_key!("bubbles"), false, context)?;
    let cancelable = dict.get_bool(webidl::js_key!("cancelable"), false, context)?;
    let composed = dict.get_bool(webidl::js_key!("composed"), false, context)?;
    Ok((bubbles, cancelable, composed))
}

fn this_event(this: &JsValue) -> JsResult<JsObject<EventData>> {
    webidl::brand::<EventData>(this, "Event")
}

/// Read a member of `this` event with `f` (brand check: `Event`).
fn read(this: &JsValue, f: fn(&EventData) -> JsValue) -> JsResult<JsValue> {
    let e = this_event(this)?;
    let v = f(e.borrow().data());
    Ok(v)
}

/// [`type`](https://dom.spec.whatwg.org/#dom-event-type)
fn get_type(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| e.event_type().into())
}

/// [`target`](https://dom.spec.whatwg.org/#dom-event-target)
fn get_target(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| {
        e.target
            .borrow()
            .clone()
            .map_or(JsValue::null(), Into::into)
    })
}

/// [`srcElement`](https://dom.spec.whatwg.org/#dom-event-srcelement)
fn get_src_element(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| {
        e.target
            .borrow()
            .clone()
            .map_or(JsValue::null(), Into::into)
    })
}

/// [`currentTarget`](https://dom.spec.whatwg.org/#dom-event-currenttarget)
fn get_current_target(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| {
        e.current_target().map_or(JsValue::null(), Into::into)
    })
}

/// [`eventPhase`](https://dom.spec.whatwg.org/#dom-event-eventphase)
fn get_event_phase(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| JsValue::from(e.flags().phase))
}

/// [`cancelBubble`](https://dom.spec.whatwg.org/#dom-event-cancelbubble) (getter)
fn get_cancel_bubble(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| e.flags().stop_propagation.into())
}

/// [`cancelBubble`](https://dom.spec.whatwg.org/#dom-event-cancelbubble) (setter)
fn set_cancel_bubble(this: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    if args.is_empty() {
        return Err(webidl::type_error("cancelBubble setter needs a value"));
    }
    // The cancelBubble setter steps are to set this's stop propagation flag if the given
    // value is true; otherwise do nothing.
    if arg(args, 0).to_boolean() {
        e.borrow().data().update(|f| f.stop_propagation = true);
    }
    Ok(JsValue::undefined())
}

/// [`bubbles`](https://dom.spec.whatwg.org/#dom-event-bubbles)
fn get_bubbles(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| e.flags().bubbles.into())
}

/// [`cancelable`](https://dom.spec.whatwg.org/#dom-event-cancelable)
fn get_cancelable(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| e.flags().cancelable.into())
}

/// [`returnValue`](https://dom.spec.whatwg.org/#dom-event-returnvalue) (getter)
fn get_return_value(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| (!e.flags().canceled).into())
}

/// [`returnValue`](https://dom.spec.whatwg.org/#dom-event-returnvalue) (setter)
fn set_return_value(this: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    if args.is_empty() {
        return Err(webidl::type_error("returnValue setter needs a value"));
    }
    // The returnValue setter steps are to set the canceled flag with this if the given value
    // is false; otherwise do nothing.
    if !arg(args, 0).to_boolean() {
        e.borrow().data().set_canceled_flag();
    }
    Ok(JsValue::undefined())
}

/// [`defaultPrevented`](https://dom.spec.whatwg.org/#dom-event-defaultprevented)
fn get_default_prevented(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| e.flags().canceled.into())
}

/// [`composed`](https://dom.spec.whatwg.org/#dom-event-composed)
fn get_composed(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| e.flags().composed.into())
}

/// [`timeStamp`](https://dom.spec.whatwg.org/#dom-event-timestamp)
fn get_time_stamp(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    read(this, |e| JsValue::from(e.time_stamp))
}

/// [`composedPath()`](https://dom.spec.whatwg.org/#dom-event-composedpath): with no tree,
/// the path holds only the target while dispatching.
fn composed_path(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    let (has_path, current) = {
        let b = e.borrow();
        (b.data().flags().has_path, b.data().current_target())
    };
    // 1. Let composedPath be an empty list.
    // 2-3. If path is empty, return composedPath.
    // 4-6. Append currentTarget (the only item of the path here).
    let items: Vec<JsValue> = match (has_path, current) {
        (true, Some(t)) => vec![t.into()],
        _ => Vec::new(),
    };
    Ok(JsArray::from_iter(items, context).into())
}

/// [`stopPropagation()`](https://dom.spec.whatwg.org/#dom-event-stoppropagation)
fn stop_propagation(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    // The stopPropagation() method steps are to set this's stop propagation flag.
    e.borrow().data().update(|f| f.stop_propagation = true);
    Ok(JsValue::undefined())
}

/// [`stopImmediatePropagation()`](https://dom.spec.whatwg.org/#dom-event-stopimmediatepropagation)
fn stop_immediate_propagation(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    // Set this's stop propagation flag and this's stop immediate propagation flag.
    e.borrow().data().update(|f| {
        f.stop_propagation = true;
        f.stop_immediate_propagation = true;
    });
    Ok(JsValue::undefined())
}

/// [`preventDefault()`](https://dom.spec.whatwg.org/#dom-event-preventdefault)
fn prevent_default(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    // The preventDefault() method steps are to set the canceled flag with this.
    e.borrow().data().set_canceled_flag();
    Ok(JsValue::undefined())
}

/// [`initEvent(type, bubbles, cancelable)`](https://dom.spec.whatwg.org/#dom-event-initevent)
fn init_event(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    if args.is_empty() {
        return Err(webidl::type_error(
            "initEvent: 1 argument required, but only 0 present",
        ));
    }
    let event_type = webidl::to_dom_string(&arg(args, 0), context)?;
    let bubbles = arg(args, 1).to_boolean();
    let cancelable = arg(args, 2).to_boolean();
    let data = e.borrow();
    // 1. If this's dispatch flag is set, then return.
    if data.data().flags().dispatch {
        return Ok(JsValue::undefined());
    }
    // 2. Initialize this with type, bubbles, and cancelable.
    data.data().initialize(event_type, bubbles, cancelable);
    Ok(JsValue::undefined())
}

/// The members of [`Event`](https://dom.spec.whatwg.org/#interface-event), in IDL order
/// (`isTrusted` is `[LegacyUnforgeable]`: an own property of each event).
const EVENT_MEMBERS: &[Member] = &[
    Member::attribute("type", get_type),
    Member::attribute("target", get_target),
    Member::attribute("srcElement", get_src_element),
    Member::attribute("currentTarget", get_current_target),
    Member::attribute("eventPhase", get_event_phase),
    Member::writable_attribute("cancelBubble", get_cancel_bubble, set_cancel_bubble),
    Member::attribute("bubbles", get_bubbles),
    Member::attribute("cancelable", get_cancelable),
    Member::writable_attribute("returnValue", get_return_value, set_return_value),
    Member::attribute("defaultPrevented", get_default_prevented),
    Member::attribute("composed", get_composed),
    Member::attribute("timeStamp", get_time_stamp),
    Member::operation("composedPath", 0, composed_path),
    Member::operation("stopPropagation", 0, stop_propagation),
    Member::operation("stopImmediatePropagation", 0, stop_immediate_propagation),
    Member::operation("preventDefault", 0, prevent_default),
    Member::operation("initEvent", 1, init_event),
    Member::constant("NONE", NONE),
    Member::constant("CAPTURING_PHASE", 1),
    Member::constant("AT_TARGET", AT_TARGET),
    Member::constant("BUBBLING_PHASE", 3),
    Member::to_string_tag("Event"),
];

impl Class for EventData {
    const NAME: &'static str = "Event";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(class, EVENT_MEMBERS)
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        // NOTE: unused: `construct` is overridden.
        Err(webidl::illegal_constructor())
    }

    /// `new Event(type, eventInitDict)`.
    fn construct(
        new_target: &JsValue,
        args: &[JsValue],
        context: &mut Context,
    ) -> JsResult<JsObject> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<JsObject> {
            let (event_type, _, (bubbles, cancelable, composed)) =
                event_constructor_arguments(new_target, args, "Event", "EventInit", context)?;
            let proto = boa_webidl::prototype_from_new_target::<EventData>(new_target, context)?;
            // The "inner event creation steps": initialized flag set, timeStamp now, members of
            // the dictionary.
            let data = EventData::new(event_type, bubbles, cancelable, composed);
            create_event_object(proto, data, context)
        })())
    }
}

/// The `CustomEvent` interface object (instances are [`EventData`] with the custom flag).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct CustomEventInterface;

fn this_custom_event(this: &JsValue) -> JsResult<JsObject<EventData>> {
    let e =
        this_event(this).map_err(|_| webidl::type_error("'this' is not a CustomEvent object"))?;
    if !e.borrow().data().custom {
        return Err(webidl::type_error("'this' is not a CustomEvent object"));
    }
    Ok(e)
}

/// [`detail`](https://dom.spec.whatwg.org/#dom-customevent-detail)
fn get_detail(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_custom_event(this)?;
    let detail = e.borrow().data().detail.borrow().clone();
    Ok(detail)
}

/// [`initCustomEvent(type, bubbles, cancelable, detail)`](https://dom.spec.whatwg.org/#dom-customevent-initcustomevent)
fn init_custom_event(this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let e = this_custom_event(this)?;
    if args.is_empty() {
        return Err(webidl::type_error(
            "initCustomEvent: 1 argument required, but only 0 present",
        ));
    }
    let event_type = webidl::to_dom_string(&arg(args, 0), context)?;
    let bubbles = arg(args, 1).to_boolean();
    let cancelable = arg(args, 2).to_boolean();
    let detail = match args.get(3) {
        None => JsValue::null(),
        Some(v) if v.is_undefined() => JsValue::null(),
        Some(v) => v.clone(),
    };
    let data = e.borrow();
    // 1. If this's dispatch flag is set, then return.
    if data.data().flags().dispatch {
        return Ok(JsValue::undefined());
    }
    // 2. Initialize this with type, bubbles, and cancelable.
    data.data().initialize(event_type, bubbles, cancelable);
    // 3. Set this's detail attribute to detail.
    *data.data().detail.borrow_mut() = detail;
    Ok(JsValue::undefined())
}

impl Class for CustomEventInterface {
    const NAME: &'static str = "CustomEvent";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("detail", get_detail),
                Member::operation("initCustomEvent", 1, init_custom_event),
                Member::to_string_tag("CustomEvent"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new CustomEvent(type, eventInitDict)`.
    fn construct(
        new_target: &JsValue,
        args: &[JsValue],
        context: &mut Context,
    ) -> JsResult<JsObject> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<JsObject> {
            let (event_type, dict, (bubbles, cancelable, composed)) = event_constructor_arguments(
                new_target,
                args,
                "CustomEvent",
                "CustomEventInit",
                context,
            )?;
            let detail = dict
                .get(webidl::js_key!("detail"), context)?
                .unwrap_or(JsValue::null());
            let proto =
                boa_webidl::prototype_from_new_target::<CustomEventInterface>(new_target, context)?;
            let mut data = EventData::new(event_type, bubbles, cancelable, composed);
            data.custom = true;
            *data.detail.borrow_mut() = detail;
            create_event_object(proto, data, context)
        })())
    }
}

/// Register `Event` and `CustomEvent`, and the realm's `isTrusted` getter.
pub fn register(context: &mut Context) -> JsResult<()> {
    init_time_origin();
    let is_trusted_getter = is_trusted_getter(context);
    context
        .realm()
        .host_defined_mut()
        .insert(EventRealm { is_trusted_getter });
    webidl::register_interface::<EventData>(context)?;
    webidl::register_interface::<CustomEventInterface>(context)?;
    let event = context
        .get_global_class::<EventData>()
        .ok_or_else(|| JsNativeError::typ().with_message("Event is not registered"))?;
    let custom = context
        .get_global_class::<CustomEventInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("CustomEvent is not registered"))?;
    // interface CustomEvent : Event
    custom.prototype().set_prototype(Some(event.prototype()));
    custom
        .constructor()
        .set_prototype(Some(event.constructor()));
    Ok(())
}

/// [`isTrusted`](https://dom.spec.whatwg.org/#dom-event-istrusted)
fn get_is_trusted(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = this_event(this)?;
    let trusted = e.borrow().data().flags().is_trusted;
    Ok(trusted.into())
}

/// The `isTrusted` getter shared by every event of a realm.
fn is_trusted_getter(context: &mut Context) -> JsFunction {
    webidl::function(
        context,
        "get isTrusted",
        0,
        NativeFunction::from_fn_ptr(get_is_trusted),
    )
}

/// Whether `value` is an `Event` (brand check).
pub fn as_event(value: &JsValue) -> Option<JsObject<EventData>> {
    value
        .as_object()
        .and_then(|o| o.downcast::<EventData>().ok())
}
