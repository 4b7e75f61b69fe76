//! XHR's [`ProgressEvent`](https://xhr.spec.whatwg.org/#interface-progressevent) (what
//! `FileReader` fires): an `Event` with `lengthComputable`, `loaded` and `total`.

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};

use super::event::{create_event_object, event_constructor_arguments, EventData};
use super::event_target::{dispatch, EventTargetData, Target};
use boa_webidl::prototype_from_new_target;
use boa_webidl::{self as webidl, Dictionary, Member};

/// A `ProgressEvent`'s members (the event's `ext` state).
#[derive(Debug, Clone, Trace, Finalize, JsData)]
pub struct Progress {
    /// `lengthComputable`.
    pub length_computable: bool,
    /// `loaded`.
    pub loaded: f64,
    /// `total`.
    pub total: f64,
}

/// The `ProgressEvent` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct ProgressEventInterface;

fn progress_field(this: &JsValue, f: fn(&Progress) -> JsValue) -> JsResult<JsValue> {
    let progress = this
        .as_object()
        .and_then(|o| o.downcast::<EventData>().ok())
        .and_then(|e| e.borrow().data().ext().cloned())
        .and_then(|ext| ext.downcast_ref::<Progress>().map(|p| p.clone()))
        .ok_or_else(|| webidl::type_error("'this' is not a ProgressEvent object"))?;
    Ok(f(&progress))
}

/// WebIDL `double` (restricted): a non-finite value is a TypeError.
fn dictionary_double(
    dict: &Dictionary,
    key: boa_engine::property::PropertyKey,
    ctx: &mut Context,
) -> JsResult<f64> {
    let name = key.clone();
    match dict.get_unrestricted_double(key, ctx)? {
        None => Ok(0.0),
        Some(x) if x.is_finite() => Ok(x),
        Some(_) => Err(webidl::type_error(format!(
            "ProgressEventInit.{name} is not a finite number"
        ))),
    }
}

/// [`lengthComputable`](https://xhr.spec.whatwg.org/#dom-progressevent-lengthcomputable)
fn get_length_computable(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    progress_field(this, |p| p.length_computable.into())
}

/// [`loaded`](https://xhr.spec.whatwg.org/#dom-progressevent-loaded)
fn get_loaded(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    progress_field(this, |p| p.loaded.into())
}

/// [`total`](https://xhr.spec.whatwg.org/#dom-progressevent-total)
fn get_total(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    progress_field(this, |p| p.total.into())
}

impl Class for ProgressEventInterface {
    const NAME: &'static str = "ProgressEvent";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("lengthComputable", get_length_computable),
                Member::attribute("loaded", get_loaded),
                Member::attribute("total", get_total),
                Member::to_string_tag("ProgressEvent"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    /// `new ProgressEvent(type, eventInitDict)`.
    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::limits_catchable((|| -> JsResult<JsObject> {
            // EventInit's members, then ProgressEventInit's in lexicographic order.
            let (event_type, dict, (bubbles, cancelable, composed)) = event_constructor_arguments(
                new_target,
                args,
                "ProgressEvent",
                "ProgressEventInit",
                ctx,
            )?;
            let length_computable =
                dict.get_bool(webidl::js_key!("lengthComputable"), false, ctx)?;
            let loaded = dictionary_double(&dict, webidl::js_key!("loaded"), ctx)?;
            let total = dictionary_double(&dict, webidl::js_key!("total"), ctx)?;
            let proto = prototype_from_new_target::<ProgressEventInterface>(new_target, ctx)?;
            let mut event = EventData::new(event_type, bubbles, cancelable, composed);
            event.set_ext(JsObject::from_proto_and_data(
                None,
                Progress {
                    length_computable,
                    loaded,
                    total,
                },
            ));
            create_event_object(proto, event, ctx)
        })())
    }
}

/// [Fire a progress event](https://xhr.spec.whatwg.org/#concept-event-fire-progress) named
/// `event_type` at `target`: a trusted `ProgressEvent` (not bubbling, not cancelable) with
/// `loaded`, `total`, and `lengthComputable` = `total` ≠ 0.
pub fn fire_progress_event(
    target: &JsObject<EventTargetData>,
    event_type: &str,
    loaded: f64,
    total: f64,
    ctx: &mut Context,
) -> JsResult<()> {
    let proto = ctx
        .get_global_class::<ProgressEventInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("ProgressEvent is not registered"))?
        .prototype();
    let mut data = EventData::new(JsString::from(event_type), false, false, false);
    data.update(|f| f.is_trusted = true);
    data.set_ext(JsObject::from_proto_and_data(
        None,
        Progress {
            length_computable: total != 0.0,
            loaded,
            total,
        },
    ));
    let event = create_event_object(proto, data, ctx)?;
    let Ok(event) = event.downcast::<EventData>() else {
        return Ok(());
    };
    dispatch(&event, &Target::own(target.clone()), ctx)?;
    Ok(())
}

/// Register `ProgressEvent` (inheriting from `Event`).
pub fn register(ctx: &mut Context) -> JsResult<()> {
    webidl::register_interface::<ProgressEventInterface>(ctx)?;
    let event = ctx
        .get_global_class::<EventData>()
        .ok_or_else(|| JsNativeError::typ().with_message("Event is not registered"))?;
    let progress = ctx
        .get_global_class::<ProgressEventInterface>()
        .ok_or_else(|| JsNativeError::typ().with_message("ProgressEvent is not registered"))?;
    progress.prototype().set_prototype(Some(event.prototype()));
    progress
        .constructor()
        .set_prototype(Some(event.constructor()));
    Ok(())
}
