//! WebIDL [sequence](https://webidl.spec.whatwg.org/#idl-sequence) conversions.

use boa_engine::{js_string, Context, JsObject, JsResult, JsValue};

use crate::error::type_error;

/// WebIDL `sequence<object>` conversion (iterates `value` with its @@iterator).
pub fn sequence_of_objects(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<JsObject>> {
    let Some(object) = value.as_object() else {
        return Err(type_error("The transfer list is not a sequence"));
    };
    // 1. Let method be ? GetMethod(V, %Symbol.iterator%); 2. if undefined, throw.
    let Some(method) = get_iterator_method(&object, ctx)? else {
        return Err(type_error("The transfer list is not iterable"));
    };
    sequence_of_objects_from_method(value, &method, ctx)
}

/// [Create a sequence](https://webidl.spec.whatwg.org/#create-sequence-from-iterable) of
/// objects from `value` and its @@iterator `method` (already looked up, as by overload
/// resolution).
pub fn sequence_of_objects_from_method(
    value: &JsValue,
    method: &JsObject,
    ctx: &mut Context,
) -> JsResult<Vec<JsObject>> {
    // 3. Create a sequence from V and method: GetIteratorFromMethod, then IteratorStepValue
    //    until done.
    let iterator = method.call(value, &[], ctx)?;
    let Some(iterator) = iterator.as_object() else {
        return Err(type_error("The iterator is not an object"));
    };
    let next = iterator.get(js_string!("next"), ctx)?;
    let mut out = Vec::new();
    loop {
        let Some(next) = next.as_callable() else {
            return Err(type_error("The iterator's next is not callable"));
        };
        let result = next.call(&iterator.clone().into(), &[], ctx)?;
        let Some(result) = result.as_object() else {
            return Err(type_error("The iterator result is not an object"));
        };
        if result.get(js_string!("done"), ctx)?.to_boolean() {
            break;
        }
        let item = result.get(js_string!("value"), ctx)?;
        match item.as_object() {
            Some(o) => out.push(o),
            None => return Err(type_error("A transfer list entry is not an object")),
        }
    }
    Ok(out)
}

/// GetMethod(object, %Symbol.iterator%).
pub fn get_iterator_method(object: &JsObject, ctx: &mut Context) -> JsResult<Option<JsObject>> {
    let method = object.get(boa_engine::JsSymbol::iterator(), ctx)?;
    if method.is_null_or_undefined() {
        return Ok(None);
    }
    match method.as_callable() {
        Some(m) => Ok(Some(m.clone())),
        None => Err(type_error("Symbol.iterator is not a function")),
    }
}
