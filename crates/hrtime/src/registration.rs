//! Registering the interfaces on a realm: the realm's time origin and state, and the global
//! `performance` attribute.

use std::cell::Cell;

use boa_engine::{
    class::Class, object::builtins::JsArray, property::PropertyDescriptor, Context, JsNativeError,
    JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};
use boa_webidl::{self as webidl, arg, js_key, type_error};

use crate::entry::PerformanceEntryInterface;
use crate::observer::{
    PerformanceObserverEntryListInterface, PerformanceObserverInterface, SUPPORTED_ENTRY_TYPES,
};
use crate::performance::PerformanceInterface;
use crate::state::{HrRealm, PerformanceState};
use crate::user_timing::{PerformanceMarkInterface, PerformanceMeasureInterface};

/// The realm mark of [`register`].
#[derive(Debug, Default, Trace, Finalize, boa_engine::JsData)]
struct Registered;

fn inherit<C: Class, P: Class>(ctx: &Context) -> JsResult<()> {
    let child = ctx
        .get_global_class::<C>()
        .ok_or_else(|| type_error(format!("{} is not registered", C::NAME)))?;
    let parent = ctx
        .get_global_class::<P>()
        .ok_or_else(|| type_error(format!("{} is not registered", P::NAME)))?;
    child.prototype().set_prototype(Some(parent.prototype()));
    child
        .constructor()
        .set_prototype(Some(parent.constructor()));
    Ok(())
}

/// Register `Performance`, `PerformanceEntry`, `PerformanceMark`, `PerformanceMeasure` and
/// the global `performance` (a `[Replaceable]` accessor) on the context's current realm, after
/// what they depend on (boa_dom's `EventTarget`, boa_html's structured clone). The realm's
/// time origin is the context clock's time now. Registering twice does nothing the second
/// time.
///
/// ```
/// let mut context = boa_engine::Context::default();
/// boa_hrtime::register(&mut context).unwrap();
/// let v = context
///     .eval(boa_engine::Source::from_bytes("performance instanceof EventTarget"))
///     .unwrap();
/// assert_eq!(v.as_boolean(), Some(true));
/// ```
pub fn register(ctx: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(ctx) {
        return Ok(());
    }
    boa_dom::register(ctx)?;
    boa_html::register(ctx)?;
    webidl::register_interface::<PerformanceInterface>(ctx)?;
    webidl::register_interface::<PerformanceEntryInterface>(ctx)?;
    webidl::register_interface::<PerformanceMarkInterface>(ctx)?;
    webidl::register_interface::<PerformanceMeasureInterface>(ctx)?;
    webidl::register_interface::<PerformanceObserverInterface>(ctx)?;
    webidl::register_interface::<PerformanceObserverEntryListInterface>(ctx)?;
    let (target_proto, target_constructor) = boa_dom::event_target_class(ctx)
        .ok_or_else(|| JsNativeError::typ().with_message("EventTarget is not registered"))?;
    let performance_class = ctx
        .get_global_class::<PerformanceInterface>()
        .ok_or_else(|| type_error("Performance is not registered"))?;
    performance_class
        .prototype()
        .set_prototype(Some(target_proto));
    performance_class
        .constructor()
        .set_prototype(Some(target_constructor));
    inherit::<PerformanceMarkInterface, PerformanceEntryInterface>(ctx)?;
    inherit::<PerformanceMeasureInterface, PerformanceEntryInterface>(ctx)?;

    // The time origin: now, on the context's clock.
    let origin = ctx.clock().now();
    let origin_unix_ms = ctx.clock().system_time_millis() as f64;
    let state = JsObject::from_proto_and_data(
        None,
        PerformanceState {
            origin,
            origin_unix_ms,
            buffer: GcRefCell::new(Vec::new()),
            next_id: Cell::new(1),
            observers: GcRefCell::new(Vec::new()),
            observer_task_queued: Cell::new(false),
        },
    );
    // The frozen array of supported entry types, made once per global.
    let supported = JsArray::from_iter(
        SUPPORTED_ENTRY_TYPES
            .iter()
            .map(|t| JsValue::from(JsString::from(*t))),
        ctx,
    );
    let supported_entry_types: JsObject = supported.into();
    supported_entry_types.set_integrity_level(boa_engine::object::IntegrityLevel::Frozen, ctx)?;
    let performance = boa_dom::new_event_target_with(performance_class.prototype(), state.clone());
    ctx.realm().host_defined_mut().insert(HrRealm {
        performance: performance.clone(),
        state,
        supported_entry_types,
    });

    // partial interface mixin WindowOrWorkerGlobalScope {
    //   [Replaceable] readonly attribute Performance performance; };
    let getter = webidl::function(
        ctx,
        "get performance",
        0,
        NativeFunction::from_fn_ptr(|_, _, ctx| {
            Ok(ctx
                .realm()
                .host_defined()
                .get::<HrRealm>()
                .map(|r| JsValue::from(r.performance.clone()))
                .unwrap_or_default())
        }),
    );
    let setter = webidl::function(
        ctx,
        "set performance",
        1,
        NativeFunction::from_fn_ptr(|this, args, ctx| {
            // [Replaceable]: CreateDataPropertyOrThrow(this, "performance", V).
            let target = match this.as_object() {
                Some(o) => o.clone(),
                None => ctx.global_object(),
            };
            target.create_data_property_or_throw(js_key!("performance"), arg(args, 0), ctx)?;
            Ok(JsValue::undefined())
        }),
    );
    ctx.global_object().define_property_or_throw(
        js_key!("performance"),
        PropertyDescriptor::builder()
            .get(getter)
            .set(setter)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}
