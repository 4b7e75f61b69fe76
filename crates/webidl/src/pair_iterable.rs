//! WebIDL [pair iterators](https://webidl.spec.whatwg.org/#dfn-pair-iterator): the iteration
//! methods of an interface declared `iterable<K, V>` (`entries`, `keys`, `values`, `forEach`,
//! `@@iterator`) and its [iterator prototype
//! object](https://webidl.spec.whatwg.org/#dfn-iterator-prototype-object)
//! (`%<Interface>IteratorPrototype%` with `next` and `@@toStringTag "<Interface> Iterator"`).
//!
//! `Headers` and `URLSearchParams` use it: an interface implements [`PairIterable`] (its value
//! pairs to iterate over), calls [`define_iteration_methods`] in its `Class::init` (after its
//! regular operations, as "Define the iteration methods" comes after them), and
//! [`register_iterator_prototype`] after [`super::register_interface`].

use std::cell::Cell;

use boa_engine::{
    builtins::iterable::create_iter_result_object,
    class::ClassBuilder,
    js_string,
    object::builtins::JsArray,
    property::{Attribute, PropertyDescriptor},
    Context, JsData, JsObject, JsResult, JsString, JsSymbol, JsValue, NativeFunction, NativeObject,
};
use boa_gc::{Finalize, Trace};

use crate::convert::arg;
use crate::error::type_error;
use crate::interface::{brand, function, operation};

/// An interface with a [pair iterator](https://webidl.spec.whatwg.org/#dfn-pair-iterator).
pub trait PairIterable: NativeObject + Sized {
    /// The interface's identifier (`"Headers"`): brand checks, and the iterator's class string
    /// `"<INTERFACE> Iterator"`.
    const INTERFACE: &'static str;
    /// The class string of its default iterator objects, `"<INTERFACE> Iterator"`.
    const ITERATOR_TAG: &'static str;

    /// The pair at `index` of the [value pairs to
    /// iterate over](https://webidl.spec.whatwg.org/#dfn-value-pairs-to-iterate-over) of
    /// `object`, as JS values (key, value); `None` at or past the end. Computed afresh at each
    /// call: the list may change between steps. It must not call into JS.
    fn pair_at(object: &JsObject<Self>, index: usize) -> Option<(JsValue, JsValue)>;
}

/// A [default iterator object](https://webidl.spec.whatwg.org/#dfn-default-iterator-object)
/// kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Key,
    Value,
    KeyAndValue,
}

/// A [default iterator object](https://webidl.spec.whatwg.org/#dfn-default-iterator-object):
/// its target, kind and index. `interface` says which interface's iterator it is (a `next`
/// of another interface's prototype rejects it).
#[derive(Trace, Finalize, JsData)]
struct DefaultIterator {
    target: JsObject,
    #[unsafe_ignore_trace]
    interface: &'static str,
    #[unsafe_ignore_trace]
    kind: Kind,
    #[unsafe_ignore_trace]
    index: Cell<usize>,
}

impl std::fmt::Debug for DefaultIterator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DefaultIterator")
            .field("interface", &self.interface)
            .field("kind", &self.kind)
            .field("index", &self.index.get())
            .finish_non_exhaustive()
    }
}

/// The realm's iterator prototype objects, by interface, kept in the realm's host data.
#[derive(Trace, Finalize, JsData, Default)]
struct IteratorPrototypes {
    list: Vec<IteratorPrototype>,
}

#[derive(Trace, Finalize)]
struct IteratorPrototype {
    #[unsafe_ignore_trace]
    interface: &'static str,
    object: JsObject,
}

/// The row of an interface table ([`crate::Member`]) that defines `T`'s iteration methods
/// ([`define_iteration_methods`]); it goes after the regular operations.
///
/// ```
/// # use boa_engine::JsObject;
/// # #[derive(boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
/// # struct Pairs;
/// # impl boa_webidl::pair_iterable::PairIterable for Pairs {
/// #     const INTERFACE: &'static str = "Pairs";
/// #     const ITERATOR_TAG: &'static str = "Pairs Iterator";
/// #     fn pair_at(_: &JsObject<Self>, _: usize) -> Option<(boa_engine::JsValue, boa_engine::JsValue)> { None }
/// # }
/// let row = boa_webidl::pair_iterable::iteration_methods::<Pairs>();
/// assert!(matches!(row, boa_webidl::Member::Install(_)));
/// ```
#[must_use]
pub const fn iteration_methods<T: PairIterable>() -> crate::interface::Member {
    crate::interface::Member::install(install_iteration_methods::<T>)
}

fn install_iteration_methods<T: PairIterable>(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    define_iteration_methods::<T>(class);
    Ok(())
}

/// Define the iteration methods of `T` on its interface prototype object (WebIDL
/// [§3.7.9.1-3](https://webidl.spec.whatwg.org/#es-iterable), pair iterator): `entries`,
/// `keys`, `values`, `forEach` as regular operations, and `@@iterator` the same function
/// object as `entries`, `{writable, configurable}`, not enumerable.
pub fn define_iteration_methods<T: PairIterable>(class: &mut ClassBuilder<'_>) {
    let entries = function(
        class.context(),
        "entries",
        0,
        NativeFunction::from_fn_ptr(|this, _, ctx| {
            create_iterator::<T>(this, Kind::KeyAndValue, ctx)
        }),
    );
    class.property_descriptor(
        js_string!("entries"),
        PropertyDescriptor::builder()
            .value(entries.clone())
            .writable(true)
            .enumerable(true)
            .configurable(true),
    );
    operation(
        class,
        "keys",
        0,
        NativeFunction::from_fn_ptr(|this, _, ctx| create_iterator::<T>(this, Kind::Key, ctx)),
    );
    operation(
        class,
        "values",
        0,
        NativeFunction::from_fn_ptr(|this, _, ctx| create_iterator::<T>(this, Kind::Value, ctx)),
    );
    operation(
        class,
        "forEach",
        1,
        NativeFunction::from_fn_ptr(for_each::<T>),
    );
    class.property(
        JsSymbol::iterator(),
        entries,
        Attribute::WRITABLE | Attribute::CONFIGURABLE,
    );
}

/// [forEach](https://webidl.spec.whatwg.org/#es-forEach).
fn for_each<T: PairIterable>(
    this: &JsValue,
    args: &[JsValue],
    ctx: &mut Context,
) -> JsResult<JsValue> {
    // 1-2. Let object be this; if it is not a T, throw a TypeError.
    let object = brand::<T>(this, T::INTERFACE)?;
    // 3. Let idlCallback be the first argument converted to a Function (not callable:
    //    TypeError).
    let Some(callback) = arg(args, 0).as_callable() else {
        return Err(type_error("forEach: the callback is not a function"));
    };
    // 4. Let thisArg be the second argument.
    let this_arg = arg(args, 1);
    // 5. Let pairs be idlObject's list of value pairs to iterate over.
    // 6. Let i be 0.
    let mut i = 0;
    // 7. While i < pairs's size (pairs recomputed after each call, as the callback may change
    //    the list):
    while let Some((key, value)) = T::pair_at(&object, i) {
        // 7.1-2. Let pair be pairs[i]; invoke idlCallback with « pair's value, pair's key,
        //        idlObject » and thisArg.
        callback.call(&this_arg, &[value, key, this.clone()], ctx)?;
        // 7.3-4. Set pairs to idlObject's current list of value pairs; i to i + 1.
        i += 1;
    }
    Ok(JsValue::undefined())
}

/// The iteration methods' steps: [create a new default iterator
/// object](https://webidl.spec.whatwg.org/#create-a-default-iterator-object) for `this` with
/// `kind` and index 0, its prototype the realm's iterator prototype object of `T`.
fn create_iterator<T: PairIterable>(
    this: &JsValue,
    kind: Kind,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let target = brand::<T>(this, T::INTERFACE)?;
    let prototype = ctx
        .realm()
        .host_defined()
        .get::<IteratorPrototypes>()
        .and_then(|p| p.list.iter().find(|p| p.interface == T::INTERFACE))
        .map(|p| p.object.clone())
        .ok_or_else(|| type_error(format!("{} is not registered", T::INTERFACE)))?;
    Ok(JsObject::from_proto_and_data(
        Some(prototype),
        DefaultIterator {
            target: target.upcast(),
            interface: T::INTERFACE,
            kind,
            index: Cell::new(0),
        },
    )
    .into())
}

/// [%Interface%IteratorPrototype%.next](https://webidl.spec.whatwg.org/#es-iterator-prototype-object).
fn next<T: PairIterable>(this: &JsValue, ctx: &mut Context) -> JsResult<JsValue> {
    // 1-5. Let object be this; if it is not a default iterator object for the interface,
    //      throw a TypeError.
    let iterator = brand::<DefaultIterator>(this, T::ITERATOR_TAG)?;
    let (target, kind, index) = {
        let b = iterator.borrow();
        let d = b.data();
        if d.interface != T::INTERFACE {
            return Err(type_error(format!(
                "'this' is not a {} object",
                T::ITERATOR_TAG
            )));
        }
        (d.target.clone(), d.kind, d.index.get())
    };
    let Ok(target) = target.downcast::<T>() else {
        return Err(type_error(format!(
            "'this' is not a {} object",
            T::ITERATOR_TAG
        )));
    };
    // 6-9. Let values be object's target's value pairs to iterate over; if index is at or
    //      past its size, return CreateIterResultObject(undefined, true).
    let Some((key, value)) = T::pair_at(&target, index) else {
        return Ok(create_iter_result_object(JsValue::undefined(), true, ctx));
    };
    // 10-11. Let pair be values[index]; set object's index to index + 1.
    iterator.borrow().data().index.set(index + 1);
    // 12. Return the iterator result for pair and kind.
    let result = match kind {
        Kind::Key => key,
        Kind::Value => value,
        Kind::KeyAndValue => JsArray::from_iter([key, value], ctx).into(),
    };
    Ok(create_iter_result_object(result, false, ctx))
}

/// Create `T`'s [iterator prototype
/// object](https://webidl.spec.whatwg.org/#dfn-iterator-prototype-object) in the current realm:
/// \[\[Prototype\]\] %Iterator.prototype%, `next` (an operation: writable, enumerable,
/// configurable) and `@@toStringTag` `"<Interface> Iterator"` (not writable, not enumerable,
/// configurable); keep it in the realm's host data for the iteration methods.
pub fn register_iterator_prototype<T: PairIterable>(ctx: &mut Context) -> JsResult<()> {
    // %Iterator.prototype% (Boa 0.22 exposes it only as %ArrayIteratorPrototype%'s
    // [[Prototype]]).
    let iterator_prototype = ctx
        .intrinsics()
        .objects()
        .iterator_prototypes()
        .array()
        .prototype();
    let prototype = JsObject::with_null_proto();
    prototype.set_prototype(iterator_prototype);
    let next = function(
        ctx,
        "next",
        0,
        NativeFunction::from_fn_ptr(|this, _, ctx| next::<T>(this, ctx)),
    );
    prototype.define_property_or_throw(
        js_string!("next"),
        PropertyDescriptor::builder()
            .value(next)
            .writable(true)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    prototype.define_property_or_throw(
        JsSymbol::to_string_tag(),
        PropertyDescriptor::builder()
            .value(JsString::from(T::ITERATOR_TAG))
            .writable(false)
            .enumerable(false)
            .configurable(true),
        ctx,
    )?;
    let mut host_defined = ctx.realm().host_defined_mut();
    if host_defined.get::<IteratorPrototypes>().is_none() {
        host_defined.insert(IteratorPrototypes::default());
    }
    if let Some(prototypes) = host_defined.get_mut::<IteratorPrototypes>() {
        prototypes.list.retain(|p| p.interface != T::INTERFACE);
        prototypes.list.push(IteratorPrototype {
            interface: T::INTERFACE,
            object: prototype,
        });
    }
    Ok(())
}
