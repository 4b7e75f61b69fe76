//! [Queuing strategies](https://streams.spec.whatwg.org/#qs): `ByteLengthQueuingStrategy`,
//! `CountQueuingStrategy`, the `QueuingStrategy` dictionary and the abstract operations
//! [`extract_high_water_mark`] and [`extract_size_algorithm`] the stream constructors use.
//!
//! Stream constructors convert their `strategy` argument once with
//! [`QueuingStrategy::from_value`] (reads `highWaterMark`, then `size`, each once), then call
//! `extract_high_water_mark(&strategy, default)?` and `extract_size_algorithm(&strategy, ctx)`.

use boa_engine::{
    class::{Class, ClassBuilder},
    js_string,
    object::builtins::JsFunction,
    property::Attribute,
    Context, JsData, JsNativeError, JsObject, JsResult, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};

use boa_webidl::{self as webidl, arg, Dictionary, Member};
use std::marker::PhantomData;

/// A [`QueuingStrategy`](https://streams.spec.whatwg.org/#dictdef-queuingstrategy) dictionary,
/// converted (members read in order: `highWaterMark`, then `size`).
#[derive(Debug, Clone, Default, Trace, Finalize)]
pub struct QueuingStrategy {
    /// `highWaterMark` (an `unrestricted double`), if present.
    #[unsafe_ignore_trace]
    pub high_water_mark: Option<f64>,
    /// `size` (a `QueuingStrategySize` callback), if present.
    pub size: Option<JsObject>,
}

impl QueuingStrategy {
    /// Convert a JS value to a `QueuingStrategy` dictionary (WebIDL dictionary conversion:
    /// `undefined`/`null` → empty, non-object → TypeError; `highWaterMark` is read and
    /// converted to `unrestricted double` first, then `size` is read and must be callable).
    pub fn from_value(value: &JsValue, context: &mut Context) -> JsResult<Self> {
        let dict = Dictionary::new(value, "QueuingStrategy")?;
        let high_water_mark =
            dict.get_unrestricted_double(webidl::js_key!("highWaterMark"), context)?;
        let size = dict.get_callback(webidl::js_key!("size"), context)?;
        Ok(Self {
            high_water_mark,
            size,
        })
    }
}

/// A stream's size algorithm: `ReturnOne` never calls into JS.
#[derive(Debug, Clone, Trace, Finalize)]
pub enum SizeAlgorithm {
    /// The algorithm that returns 1.
    ReturnOne,
    /// Invoke this `QueuingStrategySize` callback with `« chunk »`.
    JsFunction(JsObject),
}

impl SizeAlgorithm {
    /// Run the algorithm on `chunk`: invoke the callback (this = undefined) and convert the
    /// result to an `unrestricted double`. Can run user code: hold no borrow across it.
    pub fn call(&self, chunk: &JsValue, context: &mut Context) -> Result<f64, webidl::Caught> {
        match self {
            Self::ReturnOne => Ok(1.0),
            // Callers catch the exception (the controllers error the stream): the call and the
            // result's ToNumber (`valueOf`) run inside webidl::catching.
            Self::JsFunction(f) => webidl::catching(context, |context| {
                f.call(&JsValue::undefined(), std::slice::from_ref(chunk), context)?
                    .to_number(context)
            }),
        }
    }
}

/// [ExtractHighWaterMark](https://streams.spec.whatwg.org/#validate-and-normalize-high-water-mark)(strategy, defaultHWM)
pub fn extract_high_water_mark(strategy: &QueuingStrategy, default_hwm: f64) -> JsResult<f64> {
    // 1. If strategy["highWaterMark"] does not exist, return defaultHWM.
    let Some(high_water_mark) = strategy.high_water_mark else {
        return Ok(default_hwm);
    };
    // 2. Let highWaterMark be strategy["highWaterMark"].
    // 3. If highWaterMark is NaN or highWaterMark < 0, throw a RangeError exception.
    if high_water_mark.is_nan() || high_water_mark < 0.0 {
        return Err(webidl::range_error(
            "highWaterMark must be a non-negative number",
        ));
    }
    // 4. Return highWaterMark.
    Ok(high_water_mark)
}

/// [ExtractSizeAlgorithm](https://streams.spec.whatwg.org/#make-size-algorithm-from-size-function)(strategy)
pub fn extract_size_algorithm(strategy: &QueuingStrategy, context: &Context) -> SizeAlgorithm {
    // 1. If strategy["size"] does not exist, return an algorithm that returns 1.
    let Some(size) = &strategy.size else {
        return SizeAlgorithm::ReturnOne;
    };
    // NOTE: the current realm's count queuing strategy size function always returns 1
    // without side effects; not calling it is unobservable.
    if boa_webidl::fast_paths() {
        let is_count = context
            .realm()
            .host_defined()
            .get::<StrategyRealm>()
            .is_some_and(|r| JsObject::equals(&r.count_size, size));
        if is_count {
            return SizeAlgorithm::ReturnOne;
        }
    }
    // 2. Return an algorithm that invokes strategy["size"] with « chunk ».
    SizeAlgorithm::JsFunction(size.clone())
}

/// The per-realm (per-global) size functions.
#[derive(Trace, Finalize, JsData)]
pub struct StrategyRealm {
    /// The [byte length queuing strategy size function](https://streams.spec.whatwg.org/#byte-length-queuing-strategy-size-function).
    byte_length_size: JsFunction,
    /// The [count queuing strategy size function](https://streams.spec.whatwg.org/#count-queuing-strategy-size-function).
    count_size: JsFunction,
}

impl StrategyRealm {
    fn new(context: &mut Context) -> Self {
        // 1. Let steps be: return ? GetV(chunk, "byteLength").
        // 2. Let F be ! CreateBuiltinFunction(steps, 1, "size", « », globalObject's relevant
        //    Realm).
        let byte_length_size = webidl::function(
            context,
            "size",
            1,
            NativeFunction::from_fn_ptr(|_, args, context| {
                // NOTE: GetV is not public in Boa: ToObject + Get. The receiver of a getter on
                // a primitive's prototype is then the wrapper object, not the primitive; only
                // observable by a strict-mode `byteLength` getter on a primitive prototype.
                let chunk = arg(args, 0);
                let object = chunk.to_object(context)?;
                object.get(js_string!("byteLength"), context)
            }),
        );
        // 1. Let steps be: return 1.
        // 2. Let F be ! CreateBuiltinFunction(steps, 0, "size", « », globalObject's relevant
        //    Realm).
        let count_size = webidl::function(
            context,
            "size",
            0,
            NativeFunction::from_fn_ptr(|_, _, _| Ok(JsValue::from(1))),
        );
        Self {
            byte_length_size,
            count_size,
        }
    }
}

fn realm_sizes<R>(context: &Context, f: impl FnOnce(&StrategyRealm) -> R) -> JsResult<R> {
    let realm = context.realm().clone();
    let data = realm.host_defined();
    data.get::<StrategyRealm>().map(f).ok_or_else(|| {
        JsNativeError::typ()
            .with_message("queuing strategies are not registered in this realm")
            .into()
    })
}

/// Convert the constructors' `QueuingStrategyInit init` argument: the required
/// `highWaterMark` member, as an `unrestricted double`.
fn queuing_strategy_init(
    args: &[JsValue],
    interface: &str,
    context: &mut Context,
) -> JsResult<f64> {
    if args.is_empty() {
        return Err(webidl::type_error(format!(
            "Failed to construct '{interface}': 1 argument required, but only 0 present"
        )));
    }
    let dict = Dictionary::new(&arg(args, 0), "QueuingStrategyInit")?;
    dict.get_unrestricted_double(webidl::js_key!("highWaterMark"), context)?
        .ok_or_else(|| {
            webidl::type_error(format!(
                "Failed to construct '{interface}': required member highWaterMark is undefined"
            ))
        })
}

/// What tells the two built-in queuing strategies apart: the interface and which of the
/// realm's size functions its `size` attribute returns. The rest of their shape is one:
/// [`BuiltinQueuingStrategy`].
pub trait StrategyKind: std::fmt::Debug + 'static {
    /// The interface's identifier.
    const NAME: &'static str;
    /// The relevant global object's size function for this strategy.
    fn size_function(sizes: &StrategyRealm) -> &JsFunction;
}

/// [`ByteLengthQueuingStrategy`](https://streams.spec.whatwg.org/#blqs-class)'s kind.
#[derive(Debug)]
pub struct ByteLength;

impl StrategyKind for ByteLength {
    const NAME: &'static str = "ByteLengthQueuingStrategy";
    /// The relevant global object's byte length queuing strategy size function.
    fn size_function(sizes: &StrategyRealm) -> &JsFunction {
        &sizes.byte_length_size
    }
}

/// [`CountQueuingStrategy`](https://streams.spec.whatwg.org/#cqs-class)'s kind.
#[derive(Debug)]
pub struct Count;

impl StrategyKind for Count {
    const NAME: &'static str = "CountQueuingStrategy";
    /// The relevant global object's count queuing strategy size function.
    fn size_function(sizes: &StrategyRealm) -> &JsFunction {
        &sizes.count_size
    }
}

/// A built-in queuing strategy object: a
/// [`ByteLengthQueuingStrategy`](https://streams.spec.whatwg.org/#blqs-class) or a
/// [`CountQueuingStrategy`](https://streams.spec.whatwg.org/#cqs-class), the same interface
/// shape with its own size function.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct BuiltinQueuingStrategy<K: StrategyKind> {
    /// [[highWaterMark]]
    #[unsafe_ignore_trace]
    high_water_mark: f64,
    /// Which strategy this is.
    #[unsafe_ignore_trace]
    kind: PhantomData<K>,
}

/// A [`ByteLengthQueuingStrategy`](https://streams.spec.whatwg.org/#blqs-class).
pub type ByteLengthQueuingStrategy = BuiltinQueuingStrategy<ByteLength>;

/// A [`CountQueuingStrategy`](https://streams.spec.whatwg.org/#cqs-class).
pub type CountQueuingStrategy = BuiltinQueuingStrategy<Count>;

/// [highWaterMark](https://streams.spec.whatwg.org/#blqs-high-water-mark)
/// ([CountQueuingStrategy's](https://streams.spec.whatwg.org/#cqs-high-water-mark))
fn high_water_mark<K: StrategyKind>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    let s = webidl::brand::<BuiltinQueuingStrategy<K>>(this, K::NAME)?;
    // 1. Return this.[[highWaterMark]].
    let hwm = s.borrow().data().high_water_mark;
    Ok(JsValue::from(hwm))
}

/// [size](https://streams.spec.whatwg.org/#blqs-size)
/// ([CountQueuingStrategy's](https://streams.spec.whatwg.org/#cqs-size))
fn size<K: StrategyKind>(
    this: &JsValue,
    _: &[JsValue],
    context: &mut Context,
) -> JsResult<JsValue> {
    webidl::brand::<BuiltinQueuingStrategy<K>>(this, K::NAME)?;
    // 1. Return this's relevant global object's byte length queuing strategy size function
    //    (count queuing strategy size function).
    let f = realm_sizes(context, |r| K::size_function(r).clone())?;
    Ok(f.into())
}

impl<K: StrategyKind> Class for BuiltinQueuingStrategy<K> {
    const NAME: &'static str = K::NAME;
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = webidl::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("highWaterMark", high_water_mark::<K>),
                Member::attribute("size", size::<K>),
                Member::to_string_tag(K::NAME),
            ],
        )
    }

    /// [new ByteLengthQueuingStrategy(init)](https://streams.spec.whatwg.org/#blqs-constructor)
    /// ([new CountQueuingStrategy(init)](https://streams.spec.whatwg.org/#cqs-constructor))
    fn data_constructor(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<Self> {
        let high_water_mark = queuing_strategy_init(args, K::NAME, context)?;
        // 1. Set this.[[highWaterMark]] to init["highWaterMark"].
        Ok(Self {
            high_water_mark,
            kind: PhantomData,
        })
    }

    /// WebIDL order: convert the arguments, then GetPrototypeFromConstructor(newTarget).
    fn construct(
        new_target: &JsValue,
        args: &[JsValue],
        context: &mut Context,
    ) -> JsResult<JsObject> {
        webidl::construct_converted::<Self>(new_target, args, context)
    }
}

/// Register `ByteLengthQueuingStrategy` and `CountQueuingStrategy`, and create the realm's
/// size functions.
pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    let sizes = StrategyRealm::new(context);
    context.realm().host_defined_mut().insert(sizes);
    webidl::register_interface::<ByteLengthQueuingStrategy>(context)?;
    webidl::register_interface::<CountQueuingStrategy>(context)?;
    Ok(())
}

#[cfg(test)]
mod tests;
