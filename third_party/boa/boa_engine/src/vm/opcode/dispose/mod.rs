//! Opcodes of `using` and `await using` declarations (explicit resource management).
//!
//! A scope that declares resources holds a [`DisposeCapability`] in a register: each
//! declaration adds its resource with [`AddDisposableResource`], and every exit of the scope
//! runs through a `finally`-like epilogue that disposes of the resources in reverse order
//! ([`DisposeResources`]), recording the errors along the way ([`DisposeError`]).
//!
//! More information:
//!  - [ECMAScript reference][spec]
//!
//! [spec]: https://tc39.es/proposal-explicit-resource-management/#sec-disposeresources

use crate::{
    Context, JsData, JsError, JsNativeError, JsObject, JsResult, JsSymbol, JsValue,
    builtins::{error::SuppressedError, promise::Promise},
    vm::opcode::{IndexOperand, Operation, RegisterOperand},
};
use boa_gc::{Finalize, Trace};

/// A resource added by a `using` (`async_hint` false) or an `await using` declaration.
#[derive(Debug, Trace, Finalize)]
struct DisposableResource {
    value: JsValue,
    /// `None` only for a `null` or `undefined` value of an `await using` declaration.
    method: Option<JsObject>,
    /// The method is `[Symbol.dispose]`, taken by an `await using` declaration: its result
    /// is not awaited, and a throw becomes a rejected promise.
    from_sync: bool,
    async_hint: bool,
}

/// The `[[DisposeCapability]]` of a scope, with the state of `DisposeResources` while it runs.
#[derive(Debug, Default, Trace, Finalize, JsData)]
pub(crate) struct DisposeCapability {
    stack: Vec<DisposableResource>,
    /// The completion so far, when it is a throw completion.
    error: Option<JsValue>,
    needs_await: bool,
    has_awaited: bool,
}

/// Records a throw completion: the first error as is, a later one wrapped with the one
/// before in a `SuppressedError` (`DisposeResources`, 3.e.iii).
pub(crate) fn record_error(capability: &JsObject, error: JsValue, context: &mut Context) {
    let previous = capability
        .downcast_mut::<DisposeCapability>()
        .and_then(|mut c| c.error.take());
    let error = match previous {
        Some(suppressed) => SuppressedError::create(error, suppressed, context).into(),
        None => error,
    };
    if let Some(mut capability) = capability.downcast_mut::<DisposeCapability>() {
        capability.error = Some(error);
    }
}

/// A new, empty dispose capability (`NewDisposeCapability`).
pub(crate) fn new_capability() -> JsObject {
    JsObject::from_proto_and_data(None, DisposeCapability::default())
}

/// `AddDisposableResource(capability, value, hint)` without a method: `null` and
/// `undefined` are skipped (recorded for `await`), another non-object or an object without
/// a dispose method is a `TypeError` naming `what` took the value.
pub(crate) fn add_resource(
    capability: &JsObject,
    value: JsValue,
    async_hint: bool,
    what: &str,
    context: &mut Context,
) -> JsResult<()> {
    let resource = if value.is_null_or_undefined() {
        // 1.a. If V is either null or undefined and hint is sync-dispose, return unused.
        if !async_hint {
            return Ok(());
        }
        // CreateDisposableResource: V and method are undefined.
        DisposableResource {
            value: JsValue::undefined(),
            method: None,
            from_sync: false,
            async_hint,
        }
    } else {
        // CreateDisposableResource, 1.b.i: If V is not an Object, throw a TypeError exception.
        let Some(object) = value.as_object() else {
            return Err(JsNativeError::typ()
                .with_message(format!(
                    "the value of {what} must be an object, null or undefined"
                ))
                .into());
        };
        // GetDisposeMethod(V, hint).
        let mut from_sync = false;
        let mut method = if async_hint {
            object.get_method(JsSymbol::async_dispose(), context)?
        } else {
            None
        };
        if method.is_none() {
            method = object.get_method(JsSymbol::dispose(), context)?;
            from_sync = async_hint && method.is_some();
        }
        // 1.b.iii. If method is undefined, throw a TypeError exception.
        let Some(method) = method else {
            return Err(JsNativeError::typ()
                .with_message(if async_hint {
                    format!(
                        "the value of {what} has neither a [Symbol.asyncDispose] nor a \
                         [Symbol.dispose] method"
                    )
                } else {
                    format!("the value of {what} has no [Symbol.dispose] method")
                })
                .into());
        };
        DisposableResource {
            value,
            method: Some(method),
            from_sync,
            async_hint,
        }
    };
    if let Some(mut capability) = capability.downcast_mut::<DisposeCapability>() {
        capability.stack.push(resource);
    }
    Ok(())
}

/// `AddDisposableResource(capability, undefined, hint, method)`: a callback called with
/// `this` undefined (`DisposableStack.prototype.defer` and `adopt`).
pub(crate) fn add_callback(capability: &JsObject, method: JsObject, async_hint: bool) {
    if let Some(mut capability) = capability.downcast_mut::<DisposeCapability>() {
        capability.stack.push(DisposableResource {
            value: JsValue::undefined(),
            method: Some(method),
            from_sync: false,
            async_hint,
        });
    }
}

fn capability(register: RegisterOperand, context: &Context) -> JsResult<JsObject> {
    context
        .vm
        .get_register(register.into())
        .as_object()
        .filter(|o| o.is::<DisposeCapability>())
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message("internal error: no dispose capability in the register")
                .into()
        })
}

/// `NewDisposeCapability` implements the Opcode Operation for `Opcode::NewDisposeCapability`
///
/// Operation:
///  - Stores a new, empty dispose capability in `dst`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewDisposeCapability;

impl NewDisposeCapability {
    #[inline(always)]
    pub(crate) fn operation(dst: RegisterOperand, context: &mut Context) {
        context.vm.set_register(dst.into(), new_capability().into());
    }
}

impl Operation for NewDisposeCapability {
    const NAME: &'static str = "NewDisposeCapability";
    const INSTRUCTION: &'static str = "INST - NewDisposeCapability";
    const COST: u8 = 2;
}

/// `AddDisposableResource` implements the Opcode Operation for `Opcode::AddDisposableResource`
///
/// Operation:
///  - `AddDisposableResource(capability, value, hint)`: `hint` is `0` for `using`, `1` for
///    `await using`. Throws a `TypeError` if the value is neither an object nor `null` or
///    `undefined`, or has no dispose method.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AddDisposableResource;

impl AddDisposableResource {
    #[inline(always)]
    pub(crate) fn operation(
        (capability_register, value, hint): (RegisterOperand, RegisterOperand, IndexOperand),
        context: &mut Context,
    ) -> JsResult<()> {
        let capability_object = capability(capability_register, context)?;
        let value = context.vm.get_register(value.into()).clone();
        let async_hint = u32::from(hint) != 0;
        let what = if async_hint {
            "an `await using` declaration"
        } else {
            "a `using` declaration"
        };
        add_resource(&capability_object, value, async_hint, what, context)
    }
}

impl Operation for AddDisposableResource {
    const NAME: &'static str = "AddDisposableResource";
    const INSTRUCTION: &'static str = "INST - AddDisposableResource";
    const COST: u8 = 4;
}

/// `DisposeError` implements the Opcode Operation for `Opcode::DisposeError`
///
/// Operation:
///  - Records a throw completion in the dispose capability: the error the scope was left
///    with, or one thrown while disposing (then wrapped with the earlier error in a
///    `SuppressedError`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DisposeError;

impl DisposeError {
    #[inline(always)]
    pub(crate) fn operation(
        (capability_register, error): (RegisterOperand, RegisterOperand),
        context: &mut Context,
    ) -> JsResult<()> {
        let capability_object = capability(capability_register, context)?;
        let error = context.vm.get_register(error.into()).clone();
        record_error(&capability_object, error, context);
        Ok(())
    }
}

impl Operation for DisposeError {
    const NAME: &'static str = "DisposeError";
    const INSTRUCTION: &'static str = "INST - DisposeError";
    const COST: u8 = 2;
}

/// What `DisposeResources` does next.
enum Step {
    /// Call the method of this resource.
    Call(DisposableResource),
    /// `Await(undefined)` (an `await using` of `null` or `undefined`).
    AwaitUndefined,
    /// All resources are disposed of.
    Done,
}

/// `DisposeResources` implements the Opcode Operation for `Opcode::DisposeResources`
///
/// Operation:
///  - Runs `DisposeResources` until it must await: then stores the value to await in
///    `value` and `true` in `awaiting` (the bytecode awaits it, records a rejection with
///    `DisposeError`, and runs this opcode again). When every resource is disposed of,
///    stores `false` in `awaiting`, and throws the recorded error if there is one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DisposeResources;

impl DisposeResources {
    fn next_step(capability: &JsObject) -> Step {
        let Some(mut capability) = capability.downcast_mut::<DisposeCapability>() else {
            return Step::Done;
        };
        loop {
            let Some(resource) = capability.stack.pop() else {
                // 4. If needsAwait is true and hasAwaited is false, then Perform ! Await(undefined).
                if capability.needs_await && !capability.has_awaited {
                    capability.needs_await = false;
                    return Step::AwaitUndefined;
                }
                return Step::Done;
            };
            // 3.d. If hint is sync-dispose and needsAwait is true and hasAwaited is false, then
            if !resource.async_hint && capability.needs_await && !capability.has_awaited {
                // i. Perform ! Await(undefined). ii. Set needsAwait to false.
                capability.needs_await = false;
                capability.stack.push(resource);
                return Step::AwaitUndefined;
            }
            if resource.method.is_some() {
                return Step::Call(resource);
            }
            // 3.f. Else, (an `await using` of null or undefined) set needsAwait to true.
            capability.needs_await = true;
        }
    }

    #[inline(always)]
    pub(crate) fn operation(
        (capability_register, value, awaiting): (RegisterOperand, RegisterOperand, RegisterOperand),
        context: &mut Context,
    ) -> JsResult<()> {
        let capability_object = capability(capability_register, context)?;
        let to_await = dispose_step(&capability_object, context)?;
        context
            .vm
            .set_register(awaiting.into(), to_await.is_some().into());
        if let Some(to_await) = to_await {
            context.vm.set_register(value.into(), to_await);
        }
        Ok(())
    }
}

/// Runs `DisposeResources` of the capability until it must await: `Some(value to await)`
/// (the caller awaits it, records a rejection with [`record_error`], and calls this again).
/// `None` when every resource is disposed of; then the recorded error, if any, is thrown.
pub(crate) fn dispose_step(
    capability_object: &JsObject,
    context: &mut Context,
) -> JsResult<Option<JsValue>> {
    loop {
        let resource = match DisposeResources::next_step(capability_object) {
            Step::Done => break,
            Step::AwaitUndefined => return Ok(Some(JsValue::undefined())),
            Step::Call(resource) => resource,
        };
        let Some(method) = &resource.method else {
            continue;
        };

        let old_return_value = context.vm.get_return_value();
        let result = method.call(&resource.value, &[], context);
        context.vm.set_return_value(old_return_value);

        if resource.async_hint {
            let to_await: JsValue = match (result, resource.from_sync) {
                (Ok(result), false) => result,
                // The closure of GetDisposeMethod: a promise resolved with undefined, or
                // rejected with what `[Symbol.dispose]` threw.
                (Ok(_), true) => {
                    let promise = context.intrinsics().constructors().promise().constructor();
                    Promise::promise_resolve(&promise, JsValue::undefined(), context)?.into()
                }
                (Err(error), false) => {
                    let error = error.into_opaque(context)?;
                    record_error(capability_object, error, context);
                    continue;
                }
                (Err(error), true) => {
                    let promise = context.intrinsics().constructors().promise().constructor();
                    Promise::promise_reject(&promise, error, context)?.into()
                }
            };
            // 3.e.ii.2. Set hasAwaited to true (before the await: nothing reads it between).
            if let Some(mut capability) = capability_object.downcast_mut::<DisposeCapability>() {
                capability.has_awaited = true;
            }
            return Ok(Some(to_await));
        }

        if let Err(error) = result {
            let error = error.into_opaque(context)?;
            record_error(capability_object, error, context);
        }
    }

    let error = capability_object
        .downcast_mut::<DisposeCapability>()
        .and_then(|mut c| c.error.take());
    match error {
        Some(error) => Err(JsError::from_opaque(error)),
        None => Ok(None),
    }
}

impl Operation for DisposeResources {
    const NAME: &'static str = "DisposeResources";
    const INSTRUCTION: &'static str = "INST - DisposeResources";
    const COST: u8 = 8;
}
