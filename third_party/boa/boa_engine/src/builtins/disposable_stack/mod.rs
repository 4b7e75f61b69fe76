//! The `DisposableStack` and `AsyncDisposableStack` objects (explicit resource management).
//!
//! Both hold a dispose capability, the same as a scope with `using` declarations, and dispose
//! of its resources in reverse order when `dispose()` / `disposeAsync()` is called.
//!
//! More information:
//!  - [ECMAScript reference][spec]
//!
//! [spec]: https://tc39.es/proposal-explicit-resource-management/#sec-disposablestack-objects

use boa_gc::{Finalize, Trace};

use crate::{
    Context, JsArgs, JsData, JsNativeError, JsResult, JsString, JsValue,
    builtins::{
        BuiltInBuilder, BuiltInConstructor, BuiltInObject, IntrinsicObject, Promise,
        promise::PromiseCapability,
    },
    context::intrinsics::{Intrinsics, StandardConstructor, StandardConstructors},
    js_string,
    native_function::NativeFunction,
    object::{
        FunctionObjectBuilder, JsFunction, JsObject,
        internal_methods::get_prototype_from_constructor,
    },
    property::Attribute,
    realm::Realm,
    symbol::JsSymbol,
    vm::opcode::{add_callback, add_resource, dispose_step, new_capability, record_error},
};

/// The state of a `DisposableStack` or `AsyncDisposableStack` object: its
/// `[[DisposeCapability]]`, or `None` once it is disposed (`[[DisposableState]]`).
#[derive(Debug, Trace, Finalize, JsData)]
pub(crate) struct DisposableStackData {
    capability: Option<JsObject>,
    async_hint: bool,
}

impl DisposableStackData {
    fn new(async_hint: bool) -> Self {
        Self {
            capability: Some(new_capability()),
            async_hint,
        }
    }
}

/// The name of the stack's constructor, for messages.
const fn stack_name(async_hint: bool) -> &'static str {
    if async_hint {
        "AsyncDisposableStack"
    } else {
        "DisposableStack"
    }
}

/// `RequireInternalSlot(this, [[DisposableState]])` (or `[[AsyncDisposableState]]`): the
/// stack object.
fn this_stack(this: &JsValue, async_hint: bool, method: &str) -> JsResult<JsObject> {
    this.as_object()
        .filter(|o| {
            o.downcast_ref::<DisposableStackData>()
                .is_some_and(|d| d.async_hint == async_hint)
        })
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message(format!(
                    "{}.prototype.{method}: `this` is not a {}",
                    stack_name(async_hint),
                    stack_name(async_hint)
                ))
                .into()
        })
}

/// The dispose capability of a pending stack: a `ReferenceError` if it is disposed.
fn pending_capability(stack: &JsObject, async_hint: bool, method: &str) -> JsResult<JsObject> {
    stack
        .downcast_ref::<DisposableStackData>()
        .and_then(|d| d.capability.clone())
        .ok_or_else(|| {
            JsNativeError::reference()
                .with_message(format!(
                    "{}.prototype.{method}: the stack is already disposed",
                    stack_name(async_hint)
                ))
                .into()
        })
}

/// The callable `onDispose` argument of `adopt` and `defer`.
fn on_dispose(value: &JsValue, async_hint: bool, method: &str) -> JsResult<JsObject> {
    value.as_callable().ok_or_else(|| {
        JsNativeError::typ()
            .with_message(format!(
                "{}.prototype.{method}: onDispose is not callable",
                stack_name(async_hint)
            ))
            .into()
    })
}

/// Shared steps of the two constructors: `OrdinaryCreateFromConstructor(NewTarget, ...)`.
fn construct(
    new_target: &JsValue,
    async_hint: bool,
    standard: fn(&StandardConstructors) -> &StandardConstructor,
    context: &mut Context,
) -> JsResult<JsValue> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(JsNativeError::typ()
            .with_message(format!(
                "{}: cannot call constructor without `new`",
                stack_name(async_hint)
            ))
            .into());
    }
    // 2. Let disposableStack be ? OrdinaryCreateFromConstructor(NewTarget, ...).
    let prototype = get_prototype_from_constructor(new_target, standard, context)?;
    // 3. Set disposableStack.[[DisposableState]] to pending.
    // 4. Set disposableStack.[[DisposeCapability]] to NewDisposeCapability().
    let stack = JsObject::from_proto_and_data_with_shared_shape(
        context.root_shape(),
        prototype,
        DisposableStackData::new(async_hint),
    );
    Ok(stack.upcast().into())
}

fn get_disposed(this: &JsValue, async_hint: bool) -> JsResult<JsValue> {
    let stack = this_stack(this, async_hint, "disposed")?;
    Ok(stack
        .downcast_ref::<DisposableStackData>()
        .is_some_and(|d| d.capability.is_none())
        .into())
}

fn use_value(
    this: &JsValue,
    args: &[JsValue],
    async_hint: bool,
    context: &mut Context,
) -> JsResult<JsValue> {
    let stack = this_stack(this, async_hint, "use")?;
    let capability = pending_capability(&stack, async_hint, "use")?;
    let value = args.get_or_undefined(0).clone();
    let what = if async_hint {
        "AsyncDisposableStack.prototype.use's argument"
    } else {
        "DisposableStack.prototype.use's argument"
    };
    add_resource(&capability, value.clone(), async_hint, what, context)?;
    Ok(value)
}

fn adopt(
    this: &JsValue,
    args: &[JsValue],
    async_hint: bool,
    context: &mut Context,
) -> JsResult<JsValue> {
    let stack = this_stack(this, async_hint, "adopt")?;
    let capability = pending_capability(&stack, async_hint, "adopt")?;
    let value = args.get_or_undefined(0).clone();
    let callback = on_dispose(args.get_or_undefined(1), async_hint, "adopt")?;
    // 5. Let closure be a new Abstract Closure that calls onDispose with value.
    let closure = FunctionObjectBuilder::new(
        context.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, _, (callback, value), context| {
                callback.call(&JsValue::undefined(), std::slice::from_ref(value), context)
            },
            (callback, value.clone()),
        ),
    )
    .name(js_string!())
    .length(0)
    .build();
    add_callback(&capability, JsObject::from(closure), async_hint);
    Ok(value)
}

fn defer(this: &JsValue, args: &[JsValue], async_hint: bool) -> JsResult<JsValue> {
    let stack = this_stack(this, async_hint, "defer")?;
    let capability = pending_capability(&stack, async_hint, "defer")?;
    let callback = on_dispose(args.get_or_undefined(0), async_hint, "defer")?;
    add_callback(&capability, callback, async_hint);
    Ok(JsValue::undefined())
}

fn move_stack(
    this: &JsValue,
    async_hint: bool,
    standard: fn(&StandardConstructors) -> &StandardConstructor,
    context: &mut Context,
) -> JsResult<JsValue> {
    let stack = this_stack(this, async_hint, "move")?;
    // 3. If disposableStack.[[DisposableState]] is disposed, throw a ReferenceError exception.
    pending_capability(&stack, async_hint, "move")?;
    // 4. Let newDisposableStack be ? OrdinaryCreateFromConstructor(%DisposableStack%, ...).
    let prototype = standard(context.intrinsics().constructors()).prototype();
    // 5.-8. The new stack takes the capability; this one is disposed.
    let capability = stack
        .downcast_mut::<DisposableStackData>()
        .and_then(|mut d| d.capability.take());
    let moved = JsObject::from_proto_and_data_with_shared_shape(
        context.root_shape(),
        prototype,
        DisposableStackData {
            capability: Some(capability.unwrap_or_else(new_capability)),
            async_hint,
        },
    );
    Ok(moved.upcast().into())
}

/// Marks the stack disposed: its capability, `None` if it was already disposed.
fn take_capability(stack: &JsObject) -> Option<JsObject> {
    stack
        .downcast_mut::<DisposableStackData>()
        .and_then(|mut d| d.capability.take())
}

/// `DisposableStack` objects.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DisposableStack;

impl IntrinsicObject for DisposableStack {
    fn init(realm: &Realm) {
        let get_disposed = BuiltInBuilder::callable(realm, |this, _, _| get_disposed(this, false))
            .name(js_string!("get disposed"))
            .build();
        let dispose = BuiltInBuilder::callable(realm, Self::dispose)
            .name(js_string!("dispose"))
            .build();
        BuiltInBuilder::from_standard_constructor::<Self>(realm)
            .method(
                |this, args, context| adopt(this, args, false, context),
                js_string!("adopt"),
                2,
            )
            .method(
                |this, args, _| defer(this, args, false),
                js_string!("defer"),
                1,
            )
            .property(
                js_string!("dispose"),
                dispose.clone(),
                Attribute::WRITABLE | Attribute::NON_ENUMERABLE | Attribute::CONFIGURABLE,
            )
            .method(
                |this, _, context| {
                    move_stack(this, false, StandardConstructors::disposable_stack, context)
                },
                js_string!("move"),
                0,
            )
            .method(
                |this, args, context| use_value(this, args, false, context),
                js_string!("use"),
                1,
            )
            .accessor(
                js_string!("disposed"),
                Some(get_disposed),
                None,
                Attribute::CONFIGURABLE,
            )
            .property(
                JsSymbol::dispose(),
                dispose,
                Attribute::WRITABLE | Attribute::NON_ENUMERABLE | Attribute::CONFIGURABLE,
            )
            .property(
                JsSymbol::to_string_tag(),
                Self::NAME,
                Attribute::READONLY | Attribute::NON_ENUMERABLE | Attribute::CONFIGURABLE,
            )
            .build();
    }

    fn get(intrinsics: &Intrinsics) -> JsObject {
        Self::STANDARD_CONSTRUCTOR(intrinsics.constructors()).constructor()
    }
}

impl BuiltInObject for DisposableStack {
    const NAME: JsString = js_string!("DisposableStack");
}

impl BuiltInConstructor for DisposableStack {
    const CONSTRUCTOR_ARGUMENTS: usize = 0;
    const PROTOTYPE_STORAGE_SLOTS: usize = 10;
    const CONSTRUCTOR_STORAGE_SLOTS: usize = 0;

    const STANDARD_CONSTRUCTOR: fn(&StandardConstructors) -> &StandardConstructor =
        StandardConstructors::disposable_stack;

    /// `DisposableStack ( )`
    fn constructor(
        new_target: &JsValue,
        _: &[JsValue],
        context: &mut Context,
    ) -> JsResult<JsValue> {
        construct(
            new_target,
            false,
            StandardConstructors::disposable_stack,
            context,
        )
    }
}

impl DisposableStack {
    /// `DisposableStack.prototype.dispose ( )`: disposes of the resources in reverse order
    /// (a no-op when already disposed).
    fn dispose(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
        let stack = this_stack(this, false, "dispose")?;
        // 3. If disposableStack.[[DisposableState]] is disposed, return undefined.
        // 4. Set disposableStack.[[DisposableState]] to disposed.
        let Some(capability) = take_capability(&stack) else {
            return Ok(JsValue::undefined());
        };
        // 5. Return ? DisposeResources(disposableStack.[[DisposeCapability]], NormalCompletion(undefined)).
        // Only sync resources: no step awaits.
        while dispose_step(&capability, context)?.is_some() {}
        Ok(JsValue::undefined())
    }
}

/// `AsyncDisposableStack` objects.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AsyncDisposableStack;

impl IntrinsicObject for AsyncDisposableStack {
    fn init(realm: &Realm) {
        let get_disposed = BuiltInBuilder::callable(realm, |this, _, _| get_disposed(this, true))
            .name(js_string!("get disposed"))
            .build();
        let dispose_async = BuiltInBuilder::callable(realm, Self::dispose_async)
            .name(js_string!("disposeAsync"))
            .build();
        BuiltInBuilder::from_standard_constructor::<Self>(realm)
            .method(
                |this, args, context| adopt(this, args, true, context),
                js_string!("adopt"),
                2,
            )
            .method(
                |this, args, _| defer(this, args, true),
                js_string!("defer"),
                1,
            )
            .property(
                js_string!("disposeAsync"),
                dispose_async.clone(),
                Attribute::WRITABLE | Attribute::NON_ENUMERABLE | Attribute::CONFIGURABLE,
            )
            .method(
                |this, _, context| {
                    move_stack(
                        this,
                        true,
                        StandardConstructors::async_disposable_stack,
                        context,
                    )
                },
                js_string!("move"),
                0,
            )
            .method(
                |this, args, context| use_value(this, args, true, context),
                js_string!("use"),
                1,
            )
            .accessor(
                js_string!("disposed"),
                Some(get_disposed),
                None,
                Attribute::CONFIGURABLE,
            )
            .property(
                JsSymbol::async_dispose(),
                dispose_async,
                Attribute::WRITABLE | Attribute::NON_ENUMERABLE | Attribute::CONFIGURABLE,
            )
            .property(
                JsSymbol::to_string_tag(),
                Self::NAME,
                Attribute::READONLY | Attribute::NON_ENUMERABLE | Attribute::CONFIGURABLE,
            )
            .build();
    }

    fn get(intrinsics: &Intrinsics) -> JsObject {
        Self::STANDARD_CONSTRUCTOR(intrinsics.constructors()).constructor()
    }
}

impl BuiltInObject for AsyncDisposableStack {
    const NAME: JsString = js_string!("AsyncDisposableStack");
}

impl BuiltInConstructor for AsyncDisposableStack {
    const CONSTRUCTOR_ARGUMENTS: usize = 0;
    const PROTOTYPE_STORAGE_SLOTS: usize = 10;
    const CONSTRUCTOR_STORAGE_SLOTS: usize = 0;

    const STANDARD_CONSTRUCTOR: fn(&StandardConstructors) -> &StandardConstructor =
        StandardConstructors::async_disposable_stack;

    /// `AsyncDisposableStack ( )`
    fn constructor(
        new_target: &JsValue,
        _: &[JsValue],
        context: &mut Context,
    ) -> JsResult<JsValue> {
        construct(
            new_target,
            true,
            StandardConstructors::async_disposable_stack,
            context,
        )
    }
}

/// What the continuation of an `AsyncDisposableStack`'s disposal holds across an await.
#[derive(Debug, Clone, Trace, Finalize)]
struct Disposal {
    capability: JsObject,
    promise: PromiseCapability,
}

impl AsyncDisposableStack {
    /// `AsyncDisposableStack.prototype.disposeAsync ( )`: a promise for the disposal of the
    /// resources in reverse order, each awaited.
    fn dispose_async(this: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
        // 2. Let promiseCapability be ! NewPromiseCapability(%Promise%).
        let promise_constructor = context.intrinsics().constructors().promise().constructor();
        let promise = PromiseCapability::new(&promise_constructor, context)?;
        // 3. If asyncDisposableStack does not have an [[AsyncDisposableState]] internal
        //    slot, reject with a TypeError.
        let stack = match this_stack(this, true, "disposeAsync") {
            Ok(stack) => stack,
            Err(error) => {
                let error = error.into_opaque(context)?;
                promise
                    .reject()
                    .call(&JsValue::undefined(), &[error], context)?;
                return Ok(promise.promise().clone().into());
            }
        };
        // 4. If asyncDisposableStack.[[AsyncDisposableState]] is disposed, resolve with
        //    undefined.
        // 5. Set asyncDisposableStack.[[AsyncDisposableState]] to disposed.
        let Some(capability) = take_capability(&stack) else {
            promise
                .resolve()
                .call(&JsValue::undefined(), &[JsValue::undefined()], context)?;
            return Ok(promise.promise().clone().into());
        };
        // 6.-8. DisposeResources, then resolve or reject.
        let result = promise.promise().clone();
        Self::continue_disposal(
            Disposal {
                capability,
                promise,
            },
            context,
        )?;
        Ok(result.into())
    }

    /// Runs the disposal until it awaits (then resumes from a reaction) or ends (then
    /// settles the promise).
    fn continue_disposal(disposal: Disposal, context: &mut Context) -> JsResult<()> {
        let promise_constructor = context.intrinsics().constructors().promise().constructor();
        loop {
            let to_await = match dispose_step(&disposal.capability, context) {
                Ok(Some(value)) => value,
                Ok(None) => {
                    disposal.promise.resolve().call(
                        &JsValue::undefined(),
                        &[JsValue::undefined()],
                        context,
                    )?;
                    return Ok(());
                }
                Err(error) => {
                    let error = error.into_opaque(context)?;
                    disposal
                        .promise
                        .reject()
                        .call(&JsValue::undefined(), &[error], context)?;
                    return Ok(());
                }
            };
            // Await(value): PromiseResolve(%Promise%, value), then resume.
            let awaited = match Promise::promise_resolve(&promise_constructor, to_await, context)
                .map(JsObject::downcast::<Promise>)
            {
                Ok(Ok(awaited)) => awaited,
                Ok(Err(_)) => {
                    return Err(JsNativeError::typ()
                        .with_message("%Promise% did not make a promise")
                        .into());
                }
                Err(error) => {
                    let error = error.into_opaque(context)?;
                    record_error(&disposal.capability, error, context);
                    continue;
                }
            };
            let on_fulfilled = Self::reaction(disposal.clone(), false, context);
            let on_rejected = Self::reaction(disposal, true, context);
            Promise::perform_promise_then(
                &awaited,
                Some(on_fulfilled),
                Some(on_rejected),
                None,
                context,
            );
            return Ok(());
        }
    }

    /// The reaction that resumes the disposal after an await (`rejected`: recording the
    /// reason as a throw completion first).
    fn reaction(disposal: Disposal, rejected: bool, context: &mut Context) -> JsFunction {
        FunctionObjectBuilder::new(
            context.realm(),
            NativeFunction::from_copy_closure_with_captures(
                move |_, args, disposal, context| {
                    if rejected {
                        record_error(
                            &disposal.capability,
                            args.get_or_undefined(0).clone(),
                            context,
                        );
                    }
                    Self::continue_disposal(disposal.clone(), context)?;
                    Ok(JsValue::undefined())
                },
                disposal,
            ),
        )
        .length(1)
        .build()
    }
}
