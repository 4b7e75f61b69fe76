//! HTML's [`ErrorEvent`](https://html.spec.whatwg.org/multipage/webappapis.html#errorevent):
//! an `Event` carrying an uncaught exception's `message`, `filename`, `lineno`, `colno` and
//! `error` (what "report an exception" fires at a global).

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};

use boa_dom::{self as dom, EventData};
use boa_webidl::{self as webidl, Member};

/// An `ErrorEvent`'s members (the event's `ext` state).
#[derive(Debug, Clone, Trace, Finalize, JsData)]
struct ErrorFields {
    message: JsString,
    filename: JsString,
    #[unsafe_ignore_trace]
    lineno: u32,
    #[unsafe_ignore_trace]
    colno: u32,
    error: JsValue,
}

/// The `ErrorEvent` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct ErrorEventInterface;

/// The `ext` state of `this` event as a `T`, or a TypeError naming the getter.
pub(crate) fn event_ext<T: boa_engine::object::NativeObject + Clone>(
    this: &JsValue,
    getter: &str,
    interface: &str,
) -> JsResult<T> {
    this.as_object()
        .and_then(|o| o.downcast::<EventData>().ok())
        .and_then(|e| e.borrow().data().ext().cloned())
        .and_then(|ext| ext.downcast_ref::<T>().map(|f| f.clone()))
        .ok_or_else(|| {
            webidl::type_error(format!(
                "'get {getter}' called on an object that is not {interface}"
            ))
        })
}

fn field(this: &JsValue, name: &str, f: fn(&ErrorFields) -> JsValue) -> JsResult<JsValue> {
    event_ext::<ErrorFields>(this, name, "an ErrorEvent").map(|fields| f(&fields))
}

/// [`message`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-message)
fn get_message(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "message", |f| f.message.clone().into())
}

/// [`filename`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-filename)
fn get_filename(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "filename", |f| f.filename.clone().into())
}

/// [`lineno`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-lineno)
fn get_lineno(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "lineno", |f| f.lineno.into())
}

/// [`colno`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-colno)
fn get_colno(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "colno", |f| f.colno.into())
}

/// [`error`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-errorevent-error)
fn get_error(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "error", |f| f.error.clone())
}

/// An `unsigned long` member: `Number(v)` (a BigInt converts) then ToUint32; absent is 0.
fn unsigned_long(value: Option<JsValue>, ctx: &mut Context) -> JsResult<u32> {
    let Some(value) = value else { return Ok(0) };
    let n = value.to_numeric_number(ctx)?;
    if !n.is_finite() {
        return Ok(0);
    }
    // ToUint32: the integer part modulo 2^32.
    Ok(n.trunc().rem_euclid(4_294_967_296.0) as u32)
}

/// A `DOMString` member as `String(v)` converts it (a Symbol gives its description); absent
/// is the empty string.
fn string(value: Option<JsValue>, ctx: &mut Context) -> JsResult<JsString> {
    match value {
        None => Ok(JsString::default()),
        Some(v) => match v.as_symbol() {
            Some(symbol) => Ok(symbol.descriptive_string()),
            None => v.to_string(ctx),
        },
    }
}

/// Throw the TypeError a constructor called without `new` throws.
pub(crate) fn require_new(new_target: &JsValue) -> JsResult<()> {
    if new_target.is_undefined() {
        return Err(webidl::type_error(
            "class constructor cannot be invoked without 'new'",
        ));
    }
    Ok(())
}

impl Class for ErrorEventInterface {
    const NAME: &'static str = "ErrorEvent";
    const LENGTH: usize = 2;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("message", get_message),
                Member::attribute("filename", get_filename),
                Member::attribute("lineno", get_lineno),
                Member::attribute("colno", get_colno),
                Member::attribute("error", get_error),
                Member::to_string_tag("ErrorEvent"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new ErrorEvent(type, eventInitDict)`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            require_new(new_target)?;
            if args.is_empty() {
                return Err(webidl::type_error(
                    "ErrorEvent constructor: 1 argument required, but only 0 present",
                ));
            }
            let (event_type, dict, (bubbles, cancelable, composed)) =
                dom::event_constructor_arguments(
                    new_target,
                    args,
                    "ErrorEvent",
                    // NOTE: converted as in Event's constructor (its errors name EventInit).
                    "EventInit",
                    ctx,
                )?;
            // ErrorEventInit's members, after EventInit's, in lexicographic order: all read,
            // then converted.
            let colno = dict.get(webidl::js_key!("colno"), ctx)?;
            let error = dict.get(webidl::js_key!("error"), ctx)?;
            let filename = dict.get(webidl::js_key!("filename"), ctx)?;
            let lineno = dict.get(webidl::js_key!("lineno"), ctx)?;
            let message = dict.get(webidl::js_key!("message"), ctx)?;
            let colno = unsigned_long(colno, ctx)?;
            let filename = string(filename, ctx)?;
            let lineno = unsigned_long(lineno, ctx)?;
            let message = string(message, ctx)?;
            let fields = ErrorFields {
                message,
                filename,
                lineno,
                colno,
                error: error.unwrap_or_default(),
            };
            let proto = dom::prototype_from_new_target::<ErrorEventInterface>(new_target, ctx)?;
            let mut event = EventData::new(event_type, bubbles, cancelable, composed);
            event.set_ext(JsObject::from_proto_and_data(None, fields));
            dom::create_event_object(proto, event, ctx)
        })())
    }
}

/// Make the interface `T` inherit from `Event`, and put `constructor` first among its
/// prototype's own keys (the order these interfaces have always had).
pub(crate) fn extend_event<T: Class>(ctx: &mut Context) -> JsResult<()> {
    let event = ctx
        .get_global_class::<EventData>()
        .ok_or_else(|| JsNativeError::typ().with_message("Event is not registered"))?;
    let class = ctx.get_global_class::<T>().ok_or_else(|| {
        JsNativeError::typ().with_message(format!("{} is not registered", T::NAME))
    })?;
    let proto = class.prototype();
    proto.set_prototype(Some(event.prototype()));
    class.constructor().set_prototype(Some(event.constructor()));
    let constructor = webidl::js_key!("constructor");
    for key in proto.own_property_keys(ctx)? {
        if key == constructor {
            continue;
        }
        // No script has seen the prototype yet: reading its property map runs no code.
        let Some(desc) = proto.borrow().properties().get(&key) else {
            continue;
        };
        proto.delete_property_or_throw(key.clone(), ctx)?;
        proto.define_property_or_throw(key, desc, ctx)?;
    }
    Ok(())
}

/// Register `ErrorEvent` (inheriting from `Event`).
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    webidl::register_interface::<ErrorEventInterface>(ctx)?;
    extend_event::<ErrorEventInterface>(ctx)
}
