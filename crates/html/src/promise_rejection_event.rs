//! HTML's
//! [`PromiseRejectionEvent`](https://html.spec.whatwg.org/multipage/webappapis.html#promiserejectionevent):
//! an `Event` carrying a rejected `promise` and its `reason` (what a global's
//! `unhandledrejection` and `rejectionhandled` events are).

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Trace};

use crate::error_event::{event_ext, extend_event, require_new};
use boa_dom::{self as dom, EventData};
use boa_webidl::{self as webidl, Member};

/// A `PromiseRejectionEvent`'s members (the event's `ext` state).
#[derive(Debug, Clone, Trace, Finalize, JsData)]
struct RejectionFields {
    promise: JsObject,
    reason: JsValue,
}

/// The `PromiseRejectionEvent` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct PromiseRejectionEventInterface;

fn field(this: &JsValue, name: &str, f: fn(&RejectionFields) -> JsValue) -> JsResult<JsValue> {
    event_ext::<RejectionFields>(this, name, "a PromiseRejectionEvent").map(|fields| f(&fields))
}

/// [`promise`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-promiserejectionevent-promise)
fn get_promise(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "promise", |f| f.promise.clone().into())
}

/// [`reason`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-promiserejectionevent-reason)
fn get_reason(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    field(this, "reason", |f| f.reason.clone())
}

impl Class for PromiseRejectionEventInterface {
    const NAME: &'static str = "PromiseRejectionEvent";
    const LENGTH: usize = 2;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("promise", get_promise),
                Member::attribute("reason", get_reason),
                Member::to_string_tag("PromiseRejectionEvent"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new PromiseRejectionEvent(type, eventInitDict)`: `eventInitDict` has the required
    /// member `object promise` and `any reason`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            require_new(new_target)?;
            if args.len() < 2 {
                return Err(webidl::type_error(format!(
                    "PromiseRejectionEvent constructor: 2 arguments required, but only {} present",
                    args.len()
                )));
            }
            let (event_type, dict, (bubbles, cancelable, composed)) =
                dom::event_constructor_arguments(
                    new_target,
                    args,
                    "PromiseRejectionEvent",
                    // NOTE: converted as in Event's constructor (its errors name EventInit).
                    "EventInit",
                    ctx,
                )?;
            // PromiseRejectionEventInit's members, after EventInit's, in lexicographic order.
            let promise = match dict.get(webidl::js_key!("promise"), ctx)? {
                None => return Err(webidl::type_error(
                    "PromiseRejectionEvent constructor: the required member 'promise' is missing",
                )),
                Some(v) => v.as_object().ok_or_else(|| {
                    webidl::type_error(
                        "PromiseRejectionEvent constructor: 'promise' is not an object",
                    )
                })?,
            };
            let reason = dict
                .get(webidl::js_key!("reason"), ctx)?
                .unwrap_or_default();
            let proto =
                dom::prototype_from_new_target::<PromiseRejectionEventInterface>(new_target, ctx)?;
            let mut event = EventData::new(event_type, bubbles, cancelable, composed);
            event.set_ext(JsObject::from_proto_and_data(
                None,
                RejectionFields { promise, reason },
            ));
            dom::create_event_object(proto, event, ctx)
        })())
    }
}

/// Register `PromiseRejectionEvent` (inheriting from `Event`).
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    webidl::register_interface::<PromiseRejectionEventInterface>(ctx)?;
    extend_event::<PromiseRejectionEventInterface>(ctx)
}
