//! [`DOMException`](https://webidl.spec.whatwg.org/#idl-DOMException).

use boa_engine::{
    class::{Class, ClassBuilder},
    js_string,
    property::PropertyDescriptor,
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};

use crate::convert::to_dom_string;
use crate::interface::{brand, constant, define, function, register_interface, Member};

/// The [error names table](https://webidl.spec.whatwg.org/#dfn-error-names-table): the names
/// that have a legacy code.
const LEGACY_CODES: &[(&str, u16)] = &[
    ("IndexSizeError", 1),
    ("HierarchyRequestError", 3),
    ("WrongDocumentError", 4),
    ("InvalidCharacterError", 5),
    ("NoModificationAllowedError", 7),
    ("NotFoundError", 8),
    ("NotSupportedError", 9),
    ("InUseAttributeError", 10),
    ("InvalidStateError", 11),
    ("SyntaxError", 12),
    ("InvalidModificationError", 13),
    ("NamespaceError", 14),
    ("InvalidAccessError", 15),
    ("TypeMismatchError", 17),
    ("SecurityError", 18),
    ("NetworkError", 19),
    ("AbortError", 20),
    ("URLMismatchError", 21),
    ("QuotaExceededError", 22),
    ("TimeoutError", 23),
    ("InvalidNodeTypeError", 24),
    ("DataCloneError", 25),
];

/// The 25 legacy code constants, in value order (1 … 25).
const CONSTANTS: [&str; 25] = [
    "INDEX_SIZE_ERR",
    "DOMSTRING_SIZE_ERR",
    "HIERARCHY_REQUEST_ERR",
    "WRONG_DOCUMENT_ERR",
    "INVALID_CHARACTER_ERR",
    "NO_DATA_ALLOWED_ERR",
    "NO_MODIFICATION_ALLOWED_ERR",
    "NOT_FOUND_ERR",
    "NOT_SUPPORTED_ERR",
    "INUSE_ATTRIBUTE_ERR",
    "INVALID_STATE_ERR",
    "SYNTAX_ERR",
    "INVALID_MODIFICATION_ERR",
    "NAMESPACE_ERR",
    "INVALID_ACCESS_ERR",
    "VALIDATION_ERR",
    "TYPE_MISMATCH_ERR",
    "SECURITY_ERR",
    "NETWORK_ERR",
    "ABORT_ERR",
    "URL_MISMATCH_ERR",
    "QUOTA_EXCEEDED_ERR",
    "TIMEOUT_ERR",
    "INVALID_NODE_TYPE_ERR",
    "DATA_CLONE_ERR",
];

/// The legacy code of an error name (0 when it has none).
#[inline]
pub fn legacy_code(name: &JsString) -> u16 {
    let name = name.to_std_string_escaped();
    LEGACY_CODES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(0, |(_, code)| *code)
}

/// A `DOMException` object's internal slots: name and message (immutable after creation),
/// and for a [`QuotaExceededError`](https://webidl.spec.whatwg.org/#quotaexceedederror) its
/// quota and requested values.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct DomException {
    name: JsString,
    message: JsString,
    /// `Some` for a `QuotaExceededError` instance: (quota, requested).
    #[unsafe_ignore_trace]
    quota: Option<(Option<f64>, Option<f64>)>,
}

impl DomException {
    /// The exception's name.
    #[inline]
    pub fn name(&self) -> &JsString {
        &self.name
    }

    /// The exception's message.
    #[inline]
    pub fn message(&self) -> &JsString {
        &self.message
    }
}

/// [`DOMException.prototype.name`](https://webidl.spec.whatwg.org/#dom-domexception-name)
fn name(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = brand::<DomException>(this, "DOMException")?;
    let name = e.borrow().data().name.clone();
    Ok(name.into())
}

/// [`DOMException.prototype.message`](https://webidl.spec.whatwg.org/#dom-domexception-message)
fn message(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = brand::<DomException>(this, "DOMException")?;
    let message = e.borrow().data().message.clone();
    Ok(message.into())
}

/// [`DOMException.prototype.code`](https://webidl.spec.whatwg.org/#dom-domexception-code)
fn code(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let e = brand::<DomException>(this, "DOMException")?;
    let code = legacy_code(&e.borrow().data().name);
    Ok(JsValue::from(code))
}

/// The [legacy code constants](https://webidl.spec.whatwg.org/#idl-DOMException-error-names)
/// (`INDEX_SIZE_ERR = 1` ... `DATA_CLONE_ERR = 25`), in order.
fn define_constants(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    for (i, name) in CONSTANTS.iter().enumerate() {
        constant(class, name, JsValue::from(i as u32 + 1));
    }
    Ok(())
}

impl Class for DomException {
    const NAME: &'static str = "DOMException";
    const LENGTH: usize = 0;
    const ATTRIBUTES: boa_engine::property::Attribute = crate::interface::INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        define(
            class,
            &[
                Member::attribute("name", name),
                Member::attribute("message", message),
                Member::attribute("code", code),
                Member::install(define_constants),
                Member::to_string_tag("DOMException"),
            ],
        )
    }

    /// `new DOMException(message = "", name = "Error")`.
    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        context: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        crate::error::limits_catchable((|| -> JsResult<Self> {
            let message = match args.first() {
                None => js_string!(),
                Some(v) if v.is_undefined() => js_string!(),
                Some(v) => to_dom_string(v, context)?,
            };
            let name = match args.get(1) {
                None => js_string!("Error"),
                Some(v) if v.is_undefined() => js_string!("Error"),
                Some(v) => to_dom_string(v, context)?,
            };
            Ok(Self {
                name,
                message,
                quota: None,
            })
        })())
    }

    fn object_constructor(
        instance: &JsObject<Self>,
        _args: &[JsValue],
        context: &mut Context,
    ) -> JsResult<()> {
        define_stack(&instance.clone().upcast(), context)
    }
}

/// Give `object` an own `stack` data property like the ones native errors carry (a
/// `DOMException` is not an ECMAScript error object, so `Error.prototype.stack` returns
/// `undefined` for it).
// NOTE: the stack is taken from a throwaway `Error` created by the engine at this point; its
// text is implementation-defined, like every `stack`. It is read with the engine's own
// `Error.prototype.stack` getter saved at registration (see `ExceptionRealm`), never through a
// property lookup: creating a DOMException runs no script (it is created inside algorithms
// such as "signal abort", where script running would re-enter them).
fn define_stack(object: &JsObject, context: &mut Context) -> JsResult<()> {
    let Some(getter) = error_stack_getter(context) else {
        return Ok(());
    };
    let error_ctor = context.intrinsics().constructors().error().constructor();
    let error = error_ctor.construct(&[], None, context)?;
    let stack = getter.call(&error.into(), &[], context)?;
    if stack.is_string() {
        object.define_property_or_throw(
            js_string!("stack"),
            PropertyDescriptor::builder()
                .value(stack)
                .writable(true)
                .enumerable(false)
                .configurable(true),
            context,
        )?;
    }
    Ok(())
}

/// Per-realm state of `DOMException` (in the realm's `host_defined`).
#[derive(Trace, Finalize, boa_engine::JsData)]
struct ExceptionRealm {
    /// `%Error.prototype%`'s own `stack` getter as it was when WebIDL was registered (the
    /// engine's native getter), so a DOMException's `stack` is read without running script
    /// that patched `Error.prototype.stack` later.
    error_stack_getter: Option<JsObject>,
}

/// The engine's own `%Error.prototype%.stack` getter of the current realm, as saved when
/// [`register`](crate::register) ran (`None` if it was not a native getter then, or WebIDL is
/// not registered): calling it runs no script.
pub fn error_stack_getter(context: &Context) -> Option<JsObject> {
    context
        .realm()
        .host_defined()
        .get::<ExceptionRealm>()
        .and_then(|r| r.error_stack_getter.clone())
}

/// The current `%Error.prototype%.stack` getter, if it is the engine's native one (checked
/// when WebIDL is registered, before script can have replaced it).
fn intrinsic_stack_getter(context: &mut Context) -> Option<JsObject> {
    let error_proto = context.intrinsics().constructors().error().prototype();
    // A direct read of the ordinary object's property storage: no script runs.
    let desc = error_proto
        .borrow()
        .properties()
        .get(&js_string!("stack").into())?;
    desc.get()
        .and_then(JsValue::as_object)
        .filter(|f| f.is::<boa_engine::native_function::NativeFunctionObject>())
}

/// Register `DOMException`, its prototype chained to `%Error.prototype%`.
pub fn register(context: &mut Context) -> JsResult<()> {
    let error_stack_getter = intrinsic_stack_getter(context);
    context
        .realm()
        .host_defined_mut()
        .insert(ExceptionRealm { error_stack_getter });
    register_interface::<DomException>(context)?;
    let class = context
        .get_global_class::<DomException>()
        .ok_or_else(|| JsNativeError::typ().with_message("DOMException is not registered"))?;
    let error_proto = context.intrinsics().constructors().error().prototype();
    class.prototype().set_prototype(Some(error_proto));
    register_quota_exceeded_error(class.constructor(), class.prototype(), context)
}

/// The `QuotaExceededError` interface object and prototype of a realm (in its
/// `host_defined`).
#[derive(Trace, Finalize, boa_engine::JsData)]
struct QuotaRealm {
    prototype: JsObject,
}

/// The `DomException` of a `QuotaExceededError` instance.
fn this_quota(this: &JsValue) -> JsResult<(Option<f64>, Option<f64>)> {
    this.as_object()
        .and_then(|o| o.downcast_ref::<DomException>().and_then(|d| d.quota))
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message("'this' is not a QuotaExceededError")
                .into()
        })
}

/// Register [`QuotaExceededError`](https://webidl.spec.whatwg.org/#quotaexceedederror), the
/// `DOMException` subclass with `quota` and `requested`:
/// `[Exposed=*, Serializable] interface QuotaExceededError : DOMException {
/// constructor(optional DOMString message = "", optional QuotaExceededErrorOptions options = {});
/// readonly attribute double? quota; readonly attribute double? requested; };`
fn register_quota_exceeded_error(
    dom_exception: JsObject,
    dom_exception_prototype: JsObject,
    context: &mut Context,
) -> JsResult<()> {
    use boa_engine::object::FunctionObjectBuilder;
    use boa_engine::property::Attribute;
    let prototype = JsObject::with_null_proto();
    prototype.set_prototype(Some(dom_exception_prototype));
    let constructor = FunctionObjectBuilder::new(
        context.realm(),
        NativeFunction::from_fn_ptr(construct_quota_exceeded_error),
    )
    .name(js_string!("QuotaExceededError"))
    .length(0)
    .constructor(true)
    .build();
    // The interface object's [[Prototype]] is the parent interface's (DOMException).
    constructor.set_prototype(Some(dom_exception));
    constructor.define_property_or_throw(
        js_string!("prototype"),
        PropertyDescriptor::builder()
            .value(prototype.clone())
            .writable(false)
            .enumerable(false)
            .configurable(false),
        context,
    )?;
    for (name, index) in [("quota", 0), ("requested", 1)] {
        let getter = NativeFunction::from_copy_closure(move |this, _, _| {
            let (quota, requested) = this_quota(this)?;
            let value = if index == 0 { quota } else { requested };
            Ok(value.map_or(JsValue::null(), JsValue::from))
        });
        let getter = function(context, &format!("get {name}"), 0, getter);
        prototype.define_property_or_throw(
            JsString::from(name),
            PropertyDescriptor::builder()
                .get(getter)
                .enumerable(true)
                .configurable(true),
            context,
        )?;
    }
    // The attributes, then the constructor and @@toStringTag (the interfaces' key order).
    prototype.define_property_or_throw(
        js_string!("constructor"),
        PropertyDescriptor::builder()
            .value(constructor.clone())
            .writable(true)
            .enumerable(false)
            .configurable(true),
        context,
    )?;
    prototype.define_property_or_throw(
        boa_engine::JsSymbol::to_string_tag(),
        PropertyDescriptor::builder()
            .value(js_string!("QuotaExceededError"))
            .writable(false)
            .enumerable(false)
            .configurable(true),
        context,
    )?;
    context.register_global_property(
        js_string!("QuotaExceededError"),
        constructor,
        Attribute::WRITABLE | Attribute::CONFIGURABLE,
    )?;
    context
        .realm()
        .host_defined_mut()
        .insert(QuotaRealm { prototype });
    Ok(())
}

/// Read a `double` member of `QuotaExceededErrorOptions` (absent when undefined); a
/// non-finite value is a TypeError (a WebIDL `double`).
fn quota_option(options: &JsValue, name: &str, context: &mut Context) -> JsResult<Option<f64>> {
    let Some(object) = options.as_object() else {
        return Ok(None);
    };
    let value = object.get(JsString::from(name), context)?;
    if value.is_undefined() {
        return Ok(None);
    }
    let n = value.to_number(context)?;
    if !n.is_finite() {
        return Err(JsNativeError::typ()
            .with_message(format!(
                "QuotaExceededErrorOptions.{name} is not a finite number"
            ))
            .into());
    }
    Ok(Some(n))
}

/// `new QuotaExceededError(message = "", options = {})`.
fn construct_quota_exceeded_error(
    new_target: &JsValue,
    args: &[JsValue],
    context: &mut Context,
) -> JsResult<JsValue> {
    let Some(new_target) = new_target.as_object() else {
        return Err(JsNativeError::typ()
            .with_message("Constructor QuotaExceededError requires 'new'")
            .into());
    };
    let message = match args.first() {
        None => js_string!(),
        Some(v) if v.is_undefined() => js_string!(),
        Some(v) => to_dom_string(v, context)?,
    };
    let options = args.get(1).cloned().unwrap_or_default();
    if !options.is_null_or_undefined() && !options.is_object() {
        return Err(JsNativeError::typ()
            .with_message("QuotaExceededErrorOptions is not an object")
            .into());
    }
    // Dictionary members in lexicographic order.
    let quota = quota_option(&options, "quota", context)?;
    let requested = quota_option(&options, "requested", context)?;
    // If quota is present and negative, or requested is, or requested is less than quota:
    // a RangeError.
    if quota.is_some_and(|q| q < 0.0) || requested.is_some_and(|r| r < 0.0) {
        return Err(JsNativeError::range()
            .with_message("QuotaExceededError quota and requested must not be negative")
            .into());
    }
    if let (Some(q), Some(r)) = (quota, requested) {
        if r < q {
            return Err(JsNativeError::range()
                .with_message("QuotaExceededError requested must not be less than quota")
                .into());
        }
    }
    // The prototype from newTarget (a subclass), else this realm's.
    let fallback = context
        .realm()
        .host_defined()
        .get::<QuotaRealm>()
        .map(|r| r.prototype.clone());
    let proto = match new_target
        .get(js_string!("prototype"), context)?
        .as_object()
    {
        Some(p) => Some(p.clone()),
        None => fallback,
    };
    let object = JsObject::from_proto_and_data(
        proto,
        DomException {
            name: js_string!("QuotaExceededError"),
            message,
            quota: Some((quota, requested)),
        },
    );
    define_stack(&object, context)?;
    Ok(object.into())
}

/// Create a [`QuotaExceededError`](https://webidl.spec.whatwg.org/#quotaexceedederror) (a
/// `DOMException` named "QuotaExceededError" with `quota` and `requested`) in the current
/// realm.
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_webidl::register(&mut context).unwrap();
/// let e = boa_webidl::exception::create_quota_exceeded_error("too big", Some(8.0), Some(9.0), &mut context)
///     .unwrap();
/// context.global_object().set(boa_engine::js_string!("e"), e, false, &mut context).unwrap();
/// let ok = context
///     .eval(Source::from_bytes(
///         "e instanceof QuotaExceededError && e instanceof DOMException && e.code === 22 \
///          && e.quota === 8 && e.requested === 9 && e.name === 'QuotaExceededError'",
///     ))
///     .unwrap();
/// assert_eq!(ok.as_boolean(), Some(true));
/// ```
pub fn create_quota_exceeded_error(
    message: &str,
    quota: Option<f64>,
    requested: Option<f64>,
    context: &mut Context,
) -> JsResult<JsValue> {
    let proto = context
        .realm()
        .host_defined()
        .get::<QuotaRealm>()
        .map(|r| r.prototype.clone())
        .ok_or_else(|| JsNativeError::typ().with_message("QuotaExceededError is not registered"))?;
    let object = JsObject::from_proto_and_data(
        Some(proto),
        DomException {
            name: js_string!("QuotaExceededError"),
            message: JsString::from(message),
            quota: Some((quota, requested)),
        },
    );
    define_stack(&object, context)?;
    Ok(object.into())
}

/// Create a `DOMException` object with `message` and `name` (e.g. "AbortError") in the
/// current realm.
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// boa_webidl::register(&mut context).unwrap();
/// let e = boa_webidl::create_dom_exception("gone", "AbortError", &mut context).unwrap();
/// let e = e.as_object().unwrap().downcast_ref::<boa_webidl::DomException>().map(|d| d.name().clone());
/// assert_eq!(e.unwrap().to_std_string_escaped(), "AbortError");
/// ```
pub fn create_dom_exception(message: &str, name: &str, context: &mut Context) -> JsResult<JsValue> {
    Ok(create(message, name, context)?.into())
}

/// Create a `DOMException` with `message` and `name` in the current realm.
pub fn create(message: &str, name: &str, context: &mut Context) -> JsResult<JsObject> {
    let class = context
        .get_global_class::<DomException>()
        .ok_or_else(|| JsNativeError::typ().with_message("DOMException is not registered"))?;
    let object = JsObject::from_proto_and_data(
        Some(class.prototype()),
        DomException {
            name: JsString::from(name),
            message: JsString::from(message),
            quota: None,
        },
    );
    define_stack(&object, context)?;
    Ok(object)
}
