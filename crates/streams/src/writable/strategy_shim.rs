//! TEMPORARY: a private minimal QueuingStrategy extraction, to be replaced by
//! `crate::strategies::{extract_high_water_mark, extract_size_algorithm, SizeAlgorithm}` when
//! strategies.rs lands on main.

use boa_engine::{Context, JsObject, JsResult, JsValue};
use boa_gc::{Finalize, Trace};

use crate::webidl::{range_error, Dictionary};

/// A `QueuingStrategy` dictionary, converted (members read in order: highWaterMark, size).
#[derive(Debug, Default)]
pub(crate) struct QueuingStrategy {
    pub high_water_mark: Option<f64>,
    pub size: Option<JsObject>,
}

impl QueuingStrategy {
    /// Convert `value` to a `QueuingStrategy` dictionary.
    pub(crate) fn from_value(value: &JsValue, ctx: &mut Context) -> JsResult<Self> {
        let dict = Dictionary::new(value, "QueuingStrategy")?;
        let high_water_mark = dict.get_unrestricted_double("highWaterMark", ctx)?;
        let size = dict.get_callback("size", ctx)?;
        Ok(Self {
            high_water_mark,
            size,
        })
    }
}

/// A strategy's size algorithm.
#[derive(Debug, Clone, Trace, Finalize)]
pub enum SizeAlgorithm {
    /// An algorithm that returns 1.
    One,
    /// Invoke `size` with « chunk », converting the result to `unrestricted double`.
    Js(JsObject),
}

impl SizeAlgorithm {
    /// Perform the algorithm (may run user code).
    pub(crate) fn call(&self, chunk: &JsValue, ctx: &mut Context) -> JsResult<f64> {
        match self {
            Self::One => Ok(1.0),
            Self::Js(f) => f
                .call(&JsValue::undefined(), std::slice::from_ref(chunk), ctx)?
                .to_number(ctx),
        }
    }
}

/// [ExtractHighWaterMark](https://streams.spec.whatwg.org/#validate-and-normalize-high-water-mark)
pub(crate) fn extract_high_water_mark(strategy: &QueuingStrategy, default: f64) -> JsResult<f64> {
    // 1. If strategy["highWaterMark"] does not exist, return defaultHWM.
    let Some(hwm) = strategy.high_water_mark else {
        return Ok(default);
    };
    // 2. Let highWaterMark be strategy["highWaterMark"].
    // 3. If highWaterMark is NaN or highWaterMark < 0, throw a RangeError exception.
    if hwm.is_nan() || hwm < 0.0 {
        return Err(range_error("highWaterMark must be a non-negative number"));
    }
    // 4. Return highWaterMark.
    Ok(hwm)
}

/// [ExtractSizeAlgorithm](https://streams.spec.whatwg.org/#make-size-algorithm-from-size-function)
pub(crate) fn extract_size_algorithm(strategy: &QueuingStrategy) -> SizeAlgorithm {
    // 1. If strategy["size"] does not exist, return an algorithm that returns 1.
    // 2. Return an algorithm that performs the following steps, taking a chunk argument:
    //    1. Return the result of invoking strategy["size"] with argument list « chunk ».
    match &strategy.size {
        None => SizeAlgorithm::One,
        Some(f) => SizeAlgorithm::Js(f.clone()),
    }
}
