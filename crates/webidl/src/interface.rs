//! Installing interfaces with WebIDL's property shapes: interface objects, operations,
//! attributes, constants, brand checks and constructors.

use crate::error::{limits_catchable, type_error};
use boa_engine::object::builtins::JsFunction;
use boa_engine::{
    class::ClassBuilder,
    object::{FunctionObjectBuilder, JsObject},
    property::{Attribute, PropertyDescriptor, PropertyKey},
    Context, JsError, JsNativeError, JsResult, JsString, JsSymbol, JsValue, NativeFunction,
    NativeObject,
};

/// Attributes of an interface's global binding: `{writable: true, enumerable: false,
/// configurable: true}`. Use as `Class::ATTRIBUTES`.
pub const INTERFACE_ATTRIBUTES: Attribute = Attribute::WRITABLE.union(Attribute::CONFIGURABLE);

/// Build a built-in function object with the given `name` and `length`, not a constructor.
///
/// An engine error (a runtime limit hit by user code the operation runs, which Boa makes
/// uncatchable) leaves the function as the catchable RangeError other engines throw: see
/// [`limits_catchable`].
pub fn function(ctx: &mut Context, name: &str, length: usize, f: NativeFunction) -> JsFunction {
    let f = NativeFunction::from_copy_closure_with_captures(
        |this, args, f: &NativeFunction, ctx| limits_catchable(f.call(this, args, ctx)),
        f,
    );
    FunctionObjectBuilder::new(ctx.realm(), f)
        .name(JsString::from(name))
        .length(length)
        .constructor(false)
        .build()
}

/// Install a regular operation `name` on the prototype (enumerable, writable, configurable).
pub fn operation(class: &mut ClassBuilder<'_>, name: &str, length: usize, f: NativeFunction) {
    let func = function(class.context(), name, length, f);
    class.property_descriptor(
        JsString::from(name),
        PropertyDescriptor::builder()
            .value(func)
            .writable(true)
            .enumerable(true)
            .configurable(true),
    );
}

/// Install a static operation `name` on the interface object.
pub fn static_operation(
    class: &mut ClassBuilder<'_>,
    name: &str,
    length: usize,
    f: NativeFunction,
) {
    let func = function(class.context(), name, length, f);
    class.static_property_descriptor(
        JsString::from(name),
        PropertyDescriptor::builder()
            .value(func)
            .writable(true)
            .enumerable(true)
            .configurable(true),
    );
}

/// Install a (regular) attribute: an enumerable, configurable accessor with getter
/// `get <name>` and, if given, setter `set <name>`.
pub fn attribute(
    class: &mut ClassBuilder<'_>,
    name: &str,
    getter: NativeFunction,
    setter: Option<NativeFunction>,
) {
    let get = function(class.context(), &format!("get {name}"), 0, getter);
    let set = setter.map(|s| function(class.context(), &format!("set {name}"), 1, s));
    class.accessor(
        JsString::from(name),
        Some(get),
        set,
        Attribute::ENUMERABLE | Attribute::CONFIGURABLE,
    );
}

/// Install a constant (`const unsigned short X = n;`) on both the interface object and the
/// prototype: `{writable: false, enumerable: true, configurable: false}`.
///
/// On the interface object it is installed configurable first, so that [`register_interface`]
/// can move it after `length`, `name` and `prototype`; it makes it non-configurable then.
#[inline]
pub fn constant(class: &mut ClassBuilder<'_>, name: &str, value: JsValue) {
    class.static_property(
        JsString::from(name),
        value.clone(),
        Attribute::ENUMERABLE | Attribute::CONFIGURABLE,
    );
    class.property(JsString::from(name), value, Attribute::ENUMERABLE);
}

/// Register the interface `T` on the global object, with the own-key order of WebIDL's
/// algorithms.
///
/// [create an interface object](https://webidl.spec.whatwg.org/#create-an-interface-object):
/// `CreateBuiltinFunction(steps, length, id, ...)` (`length`, then `name`), then "Perform !
/// DefinePropertyOrThrow(F, "prototype", ...)", then "Define the constants", "Define the static
/// attributes", "Define the static operations" of the interface on F. Boa's class builder
/// defines the statics (in the order `init` installs them: constants, static attributes,
/// static operations) before `length`/`name`/`prototype`; this redefines each of them, in
/// that order, after those three.
///
/// The prototype's order is each `init`'s: [create an interface prototype
/// object](https://webidl.spec.whatwg.org/#create-an-interface-prototype-object) "Define the
/// regular attributes", "Define the regular operations", "Define the iteration methods",
/// "Define the asynchronous iteration methods", "Define the constants", then "Perform !
/// DefinePropertyOrThrow(interfaceProtoObj, "constructor", desc)", which the class builder
/// adds last. (`Symbol.toStringTag`, "at the time it is created", goes before any other
/// symbol.)
pub fn register_interface<T: boa_engine::class::Class>(context: &mut Context) -> JsResult<()> {
    context.register_global_class::<T>()?;
    let Some(class) = context.get_global_class::<T>() else {
        return Ok(());
    };
    let constructor = class.constructor();
    let keys = constructor.own_property_keys(context)?;
    for key in keys {
        let fixed = matches!(&key, PropertyKey::String(s)
            if s == &JsString::from("length")
                || s == &JsString::from("name")
                || s == &JsString::from("prototype"));
        if fixed {
            continue;
        }
        // The interface object is an ordinary built-in function that no script has seen yet:
        // reading its property map runs no code.
        let Some(desc) = constructor.borrow().properties().get(&key) else {
            continue;
        };
        constructor.delete_property_or_throw(key.clone(), context)?;
        // A constant is the only non-writable static data property: "Let desc be the
        // PropertyDescriptor{[[Writable]]: false, [[Enumerable]]: true, [[Configurable]]:
        // false, [[Value]]: value}" (WebIDL "define the constants").
        let desc = if desc.writable() == Some(false) {
            PropertyDescriptor::builder()
                .value(desc.value().cloned().unwrap_or_default())
                .writable(false)
                .enumerable(true)
                .configurable(false)
                .build()
        } else {
            desc
        };
        constructor.define_property_or_throw(key, desc, context)?;
    }
    Ok(())
}

/// Install `Symbol.toStringTag` = `name` on the prototype.
#[inline]
pub fn to_string_tag(class: &mut ClassBuilder<'_>, name: &str) {
    class.property(
        JsSymbol::to_string_tag(),
        JsString::from(name),
        Attribute::CONFIGURABLE,
    );
}

/// Brand check: `this` must be an object implementing `T`, else TypeError.
/// Returns a typed handle; borrow its data only briefly and never across a call into JS.
pub fn brand<T: NativeObject>(this: &JsValue, interface: &str) -> JsResult<JsObject<T>> {
    this.as_object()
        .and_then(|o| o.clone().downcast::<T>().ok())
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message(format!("'this' is not a {interface} object"))
                .into()
        })
}

/// An interface constructor called without `new` throws TypeError.
#[inline]
pub fn require_new(new_target: &JsValue, interface: &str) -> JsResult<()> {
    if new_target.is_undefined() {
        return Err(type_error(format!(
            "Failed to construct '{interface}': Please use the 'new' operator"
        )));
    }
    Ok(())
}

/// `Class::construct` in WebIDL order for interfaces whose `data_constructor` converts the
/// arguments: require `new`, convert the arguments (and run the constructor steps), then
/// GetPrototypeFromConstructor(newTarget).
pub fn construct_converted<T: boa_engine::class::Class>(
    new_target: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsObject> {
    require_new(new_target, T::NAME)?;
    let data = limits_catchable(T::data_constructor(new_target, args, ctx))?;
    let proto = crate::prototype_from_new_target::<T>(new_target, ctx)?;
    Ok(JsObject::from_proto_and_data(Some(proto), data))
}

/// The TypeError a non-constructible interface throws when called or constructed.
#[inline]
pub fn illegal_constructor() -> JsError {
    JsNativeError::typ()
        .with_message("Illegal constructor")
        .into()
}

/// The steps of an interface member: `this`, the arguments, the context; what
/// [`NativeFunction::from_fn_ptr`] takes. Members are named `fn`s with their spec link.
pub type Steps = fn(&JsValue, &[JsValue], &mut Context) -> JsResult<JsValue>;

/// Rows that install themselves: for members WebIDL defines by a rule of their own (the
/// iteration methods of [`crate::pair_iterable`], an `@@asyncIterator` alias).
pub type Install = fn(&mut ClassBuilder<'_>) -> JsResult<()>;

/// One row of an interface's description: what [`define`] installs on the interface object
/// or its prototype, with WebIDL's property shapes. An interface's `Class::init` is a table of
/// these; an [interface mixin](https://webidl.spec.whatwg.org/#idl-interface-mixins) is a
/// function returning rows, which the including interface adds to its table.
///
/// ```
/// use boa_engine::{class::{Class, ClassBuilder}, Context, JsResult, JsValue, Source};
/// use boa_gc::{Finalize, Trace};
/// use boa_webidl::Member;
///
/// #[derive(Trace, Finalize, boa_engine::JsData)]
/// struct Counter(u32);
///
/// /// `readonly attribute unsigned long value;`
/// fn value(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
///     let counter = boa_webidl::brand::<Counter>(this, "Counter")?;
///     let value = counter.borrow().data().0;
///     Ok(value.into())
/// }
///
/// /// `static Counter zero();` (here: a number)
/// fn zero(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
///     Ok(0.into())
/// }
///
/// impl Class for Counter {
///     const NAME: &'static str = "Counter";
///     fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
///         boa_webidl::define(
///             class,
///             &[
///                 Member::to_string_tag("Counter"),
///                 Member::constant("MAX", 10),
///                 Member::attribute("value", value),
///                 Member::static_operation("zero", 0, zero),
///             ],
///         )
///     }
///     fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
///         Ok(Counter(7))
///     }
/// }
///
/// let mut context = Context::default();
/// boa_webidl::register_interface::<Counter>(&mut context).unwrap();
/// let result = context
///     .eval(Source::from_bytes(
///         "new Counter().value + Counter.MAX + Counter.zero() + String(new Counter())",
///     ))
///     .unwrap();
/// assert_eq!(result.to_string(&mut context).unwrap(), "17[object Counter]");
/// ```
#[derive(Clone, Copy)]
pub enum Member {
    /// A regular [attribute](https://webidl.spec.whatwg.org/#define-the-attributes): an
    /// enumerable, configurable accessor on the prototype, getter `get <name>`, and a setter
    /// `set <name>` unless read-only.
    Attribute {
        /// The identifier.
        name: &'static str,
        /// The getter steps.
        get: Steps,
        /// The setter steps; `None` for a `readonly` attribute.
        set: Option<Steps>,
    },
    /// A regular [operation](https://webidl.spec.whatwg.org/#define-the-operations) on the
    /// prototype: an enumerable, writable, configurable function.
    Operation {
        /// The identifier.
        name: &'static str,
        /// The function's `length`: the number of required arguments.
        length: usize,
        /// The operation's steps.
        steps: Steps,
    },
    /// A static operation, on the interface object.
    StaticOperation {
        /// The identifier.
        name: &'static str,
        /// The function's `length`.
        length: usize,
        /// The operation's steps.
        steps: Steps,
    },
    /// A [constant](https://webidl.spec.whatwg.org/#define-the-constants), on both the
    /// interface object and the prototype.
    Constant {
        /// The identifier.
        name: &'static str,
        /// The value (every constant of the standards here is an `unsigned short`).
        value: u16,
    },
    /// `@@toStringTag` on the prototype ("the class string").
    ToStringTag(&'static str),
    /// Rows installed by a rule of their own.
    Install(Install),
}

impl std::fmt::Debug for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Attribute { name, set, .. } => f
                .debug_struct("Attribute")
                .field("name", name)
                .field("readonly", &set.is_none())
                .finish(),
            Self::Operation { name, length, .. } => f
                .debug_struct("Operation")
                .field("name", name)
                .field("length", length)
                .finish(),
            Self::StaticOperation { name, length, .. } => f
                .debug_struct("StaticOperation")
                .field("name", name)
                .field("length", length)
                .finish(),
            Self::Constant { name, value } => f
                .debug_struct("Constant")
                .field("name", name)
                .field("value", value)
                .finish(),
            Self::ToStringTag(tag) => f.debug_tuple("ToStringTag").field(tag).finish(),
            Self::Install(_) => f.write_str("Install"),
        }
    }
}

impl Member {
    /// A `readonly attribute`.
    ///
    /// ```
    /// # use boa_engine::{Context, JsResult, JsValue};
    /// fn size(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> { Ok(0.into()) }
    /// let row = boa_webidl::Member::attribute("size", size);
    /// assert!(matches!(row, boa_webidl::Member::Attribute { set: None, .. }));
    /// ```
    #[must_use]
    pub const fn attribute(name: &'static str, get: Steps) -> Self {
        Self::Attribute {
            name,
            get,
            set: None,
        }
    }

    /// A writable `attribute`, with its setter steps.
    ///
    /// ```
    /// # use boa_engine::{Context, JsResult, JsValue};
    /// fn get(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> { Ok(0.into()) }
    /// fn set(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    ///     Ok(JsValue::undefined())
    /// }
    /// let row = boa_webidl::Member::writable_attribute("href", get, set);
    /// assert!(matches!(row, boa_webidl::Member::Attribute { set: Some(_), .. }));
    /// ```
    #[must_use]
    pub const fn writable_attribute(name: &'static str, get: Steps, set: Steps) -> Self {
        Self::Attribute {
            name,
            get,
            set: Some(set),
        }
    }

    /// A regular operation with `length` required arguments.
    ///
    /// ```
    /// # use boa_engine::{Context, JsResult, JsValue};
    /// fn close(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    ///     Ok(JsValue::undefined())
    /// }
    /// let row = boa_webidl::Member::operation("close", 0, close);
    /// assert!(matches!(row, boa_webidl::Member::Operation { length: 0, .. }));
    /// ```
    #[must_use]
    pub const fn operation(name: &'static str, length: usize, steps: Steps) -> Self {
        Self::Operation {
            name,
            length,
            steps,
        }
    }

    /// A static operation with `length` required arguments.
    ///
    /// ```
    /// # use boa_engine::{Context, JsResult, JsValue};
    /// fn error(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    ///     Ok(JsValue::undefined())
    /// }
    /// let row = boa_webidl::Member::static_operation("error", 0, error);
    /// assert!(matches!(row, boa_webidl::Member::StaticOperation { .. }));
    /// ```
    #[must_use]
    pub const fn static_operation(name: &'static str, length: usize, steps: Steps) -> Self {
        Self::StaticOperation {
            name,
            length,
            steps,
        }
    }

    /// A `const unsigned short`.
    ///
    /// ```
    /// let row = boa_webidl::Member::constant("DONE", 2);
    /// assert!(matches!(row, boa_webidl::Member::Constant { value: 2, .. }));
    /// ```
    #[must_use]
    pub const fn constant(name: &'static str, value: u16) -> Self {
        Self::Constant { name, value }
    }

    /// The prototype's `@@toStringTag`.
    ///
    /// ```
    /// let row = boa_webidl::Member::to_string_tag("Blob");
    /// assert!(matches!(row, boa_webidl::Member::ToStringTag("Blob")));
    /// ```
    #[must_use]
    pub const fn to_string_tag(name: &'static str) -> Self {
        Self::ToStringTag(name)
    }

    /// Rows installed by `install` (iteration methods, symbol-keyed aliases).
    ///
    /// ```
    /// # use boa_engine::{class::ClassBuilder, JsResult};
    /// fn nothing(_: &mut ClassBuilder<'_>) -> JsResult<()> { Ok(()) }
    /// let row = boa_webidl::Member::install(nothing);
    /// assert!(matches!(row, boa_webidl::Member::Install(_)));
    /// ```
    #[must_use]
    pub const fn install(install: Install) -> Self {
        Self::Install(install)
    }
}

/// Install `members` on the class being built, in the table's order (which is the order of
/// the interface's own keys: WebIDL's "define the attributes", "define the operations", ...,
/// so a table lists attributes before operations, as the IDL fragment does). A mixin's rows
/// go where the interface includes them. See [`Member`] for an example.
pub fn define(class: &mut ClassBuilder<'_>, members: &[Member]) -> JsResult<()> {
    for member in members {
        match *member {
            Member::Attribute { name, get, set } => attribute(
                class,
                name,
                NativeFunction::from_fn_ptr(get),
                set.map(NativeFunction::from_fn_ptr),
            ),
            Member::Operation {
                name,
                length,
                steps,
            } => operation(class, name, length, NativeFunction::from_fn_ptr(steps)),
            Member::StaticOperation {
                name,
                length,
                steps,
            } => static_operation(class, name, length, NativeFunction::from_fn_ptr(steps)),
            Member::Constant { name, value } => constant(class, name, JsValue::from(value)),
            Member::ToStringTag(name) => to_string_tag(class, name),
            Member::Install(install) => install(class)?,
        }
    }
    Ok(())
}

/// GetPrototypeFromConstructor(newTarget, the interface `C`'s prototype).
pub fn prototype_from_new_target<C: boa_engine::class::Class>(
    new_target: &JsValue,
    context: &mut Context,
) -> JsResult<JsObject> {
    let Some(constructor) = new_target.as_object() else {
        return Err(JsNativeError::typ()
            .with_message(format!("Failed to construct '{}': use 'new'", C::NAME))
            .into());
    };
    if let Some(proto) = constructor
        .get(boa_engine::js_string!("prototype"), context)?
        .as_object()
    {
        return Ok(proto);
    }
    // NOTE: GetFunctionRealm(newTarget) is not public in Boa; the current realm is used.
    // Only observable with a cross-realm newTarget whose `prototype` is not an object.
    context
        .realm()
        .get_class::<C>()
        .map(|c| c.prototype())
        .ok_or_else(|| {
            JsNativeError::typ()
                .with_message(format!("{} is not registered", C::NAME))
                .into()
        })
}
