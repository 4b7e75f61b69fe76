//! The URL Standard's [`URLSearchParams`](https://url.spec.whatwg.org/#interface-urlsearchparams):
//! a [list](https://url.spec.whatwg.org/#concept-urlsearchparams-list) of name-value pairs
//! (a [`boa_webidl::entry_list::EntryList`], the shape `FormData` shares) parsed from and
//! serialized to `application/x-www-form-urlencoded` (through the `form_urlencoded` crate),
//! optionally linked to a URL object whose query it updates.

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsSymbol, JsValue,
};
use boa_gc::{Finalize, Trace};

use boa_webidl::{
    self as webidl, arg, brand, entry_list::EntryList, pair_iterable::PairIterable, type_error,
    Member, INTERFACE_ATTRIBUTES,
};

/// A name-value pair of a `URLSearchParams` list (scalar value strings).
pub type Pair = (String, String);

/// The host's steps that set a URL object's query (`None`: null) when its `URLSearchParams`
/// changed: the URL Standard's [update steps](https://url.spec.whatwg.org/#concept-urlsearchparams-update)
/// 4-5 ("set query's URL object's URL's query to serializedQuery"; "potentially strip
/// trailing spaces from an opaque path").
pub type QueryUpdate = fn(url: &JsObject, query: Option<&str>, ctx: &mut Context) -> JsResult<()>;

/// The URL object a `URLSearchParams` belongs to, and how to update its query.
#[derive(Trace, Finalize)]
struct UrlObject {
    object: JsObject,
    #[unsafe_ignore_trace]
    update: QueryUpdate,
}

/// The native data of a `URLSearchParams` object.
#[derive(Trace, Finalize, JsData)]
pub struct UrlSearchParams {
    /// The [list](https://url.spec.whatwg.org/#concept-urlsearchparams-list).
    #[unsafe_ignore_trace]
    list: RefCell<EntryList<String>>,
    /// The [URL object](https://url.spec.whatwg.org/#concept-urlsearchparams-url-object), or
    /// null.
    url: Option<UrlObject>,
}

impl std::fmt::Debug for UrlSearchParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UrlSearchParams")
            .field("list", &self.list.borrow())
            .finish_non_exhaustive()
    }
}

impl UrlSearchParams {
    fn with_list(list: Vec<Pair>) -> Self {
        Self {
            list: RefCell::new(EntryList::from(list)),
            url: None,
        }
    }

    /// The list (a copy).
    pub fn list(&self) -> Vec<Pair> {
        self.list.borrow().as_slice().to_vec()
    }

    /// The [application/x-www-form-urlencoded serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer)
    /// applied to the list (UTF-8).
    pub fn serialize(&self) -> String {
        serialize(self.list.borrow().as_slice())
    }
}

/// The [application/x-www-form-urlencoded parser](https://url.spec.whatwg.org/#concept-urlencoded-parser).
pub fn parse(input: &[u8]) -> Vec<Pair> {
    // Split on "&", skip empty sequences, split at the first "=", replace "+" by 0x20,
    // percent-decode, UTF-8 decode without BOM or fail (lossy).
    form_urlencoded::parse(input).into_owned().collect()
}

/// The [application/x-www-form-urlencoded serializer](https://url.spec.whatwg.org/#concept-urlencoded-serializer)
/// with UTF-8.
pub fn serialize(list: &[Pair]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(list.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        .finish()
}

/// The [update steps](https://url.spec.whatwg.org/#concept-urlsearchparams-update) of `query`.
fn update(query: &JsObject<UrlSearchParams>, ctx: &mut Context) -> JsResult<()> {
    let (url, update, serialized) = {
        let q = query.borrow();
        let data = q.data();
        // 1. If query's URL object is null, then return.
        let Some(url) = &data.url else {
            return Ok(());
        };
        // 2. Let serializedQuery be the serialization of query's list.
        (url.object.clone(), url.update, data.serialize())
    };
    // 3. If serializedQuery is the empty string, then set serializedQuery to null.
    let serialized = (!serialized.is_empty()).then_some(serialized);
    // 4. Set query's URL object's URL's query to serializedQuery.
    // 5. If serializedQuery is null, then potentially strip trailing spaces from an opaque
    //    path with query's URL object. (Both are the host's.)
    update(&url, serialized.as_deref(), ctx)
}

/// A new `URLSearchParams` in the current realm whose URL object is `url`, initialized with
/// `query` (the URL's query, or `None` when null), as the `URL` constructor's "set this's
/// query object to a new URLSearchParams object" and "initialize this's query object with
/// query" do. Changes to it call `update` with the new serialized query.
pub fn new_linked(
    url: JsObject,
    query: Option<&str>,
    update: QueryUpdate,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let proto = ctx
        .get_global_class::<UrlSearchParams>()
        .ok_or_else(|| type_error("URLSearchParams is not registered"))?
        .prototype();
    let data = UrlSearchParams {
        list: RefCell::new(EntryList::from(
            query.map(|q| parse(q.as_bytes())).unwrap_or_default(),
        )),
        url: Some(UrlObject {
            object: url,
            update,
        }),
    };
    Ok(JsObject::from_proto_and_data(Some(proto), data))
}

/// Set the list of `params` (a `URLSearchParams` object) to the result of parsing `query`
/// (empty when `None`): what the `URL` `href` and `search` setters do to the URL's query
/// object. Does nothing for another object.
pub fn set_list_from_query(params: &JsObject, query: Option<&str>) {
    if let Some(params) = params.downcast_ref::<UrlSearchParams>() {
        *params.list.borrow_mut() =
            EntryList::from(query.map(|q| parse(q.as_bytes())).unwrap_or_default());
    }
}

/// If `value` is a `URLSearchParams`, its serialization.
pub fn serialization_of(value: &JsValue) -> Option<String> {
    let object = value.as_object()?;
    let params = object.downcast_ref::<UrlSearchParams>()?;
    Some(params.serialize())
}

/// WebIDL `USVString`: ToString, then each lone surrogate replaced by U+FFFD.
pub(crate) fn to_usv_string(value: &JsValue, ctx: &mut Context) -> JsResult<String> {
    Ok(value.to_string(ctx)?.to_std_string_lossy())
}

fn usv_value(s: &str) -> JsValue {
    JsString::from(s).into()
}

fn this_params(this: &JsValue) -> JsResult<JsObject<UrlSearchParams>> {
    brand::<UrlSearchParams>(this, "URLSearchParams")
}

/// An optional argument: absent when missing or `undefined` (WebIDL overload resolution
/// treats a trailing `undefined` for an optional argument as missing).
fn optional_usv(args: &[JsValue], index: usize, ctx: &mut Context) -> JsResult<Option<String>> {
    match args.get(index) {
        None => Ok(None),
        Some(v) if v.is_undefined() => Ok(None),
        Some(v) => to_usv_string(v, ctx).map(Some),
    }
}

/// The constructor's `init` converted to the union
/// `(sequence<sequence<USVString>> or record<USVString, USVString> or USVString)`.
enum Init {
    Sequence(Vec<Vec<String>>),
    Record(Vec<Pair>),
    String(String),
}

/// Convert `value` to the constructor's union type (WebIDL's union conversion: an object with
/// an `@@iterator` method is a sequence, any other object a record, anything else a string).
fn to_init(value: &JsValue, ctx: &mut Context) -> JsResult<Init> {
    let Some(object) = value.as_object() else {
        return Ok(Init::String(to_usv_string(value, ctx)?));
    };
    // Let method be ? GetMethod(V, %Symbol.iterator%).
    let method = object.get(JsSymbol::iterator(), ctx)?;
    if !method.is_null_or_undefined() {
        let Some(method) = method.as_callable() else {
            return Err(type_error("@@iterator is not callable"));
        };
        // sequence<sequence<USVString>>: each item converted as it is iterated.
        let mut out = Vec::new();
        for item in webidl::create_sequence_from_iterable(value, &method, ctx, |item, ctx| {
            let Some(inner) = item.as_object() else {
                return Err(type_error("A URLSearchParams init pair is not a sequence"));
            };
            let inner_method = inner.get(JsSymbol::iterator(), ctx)?;
            let Some(inner_method) = inner_method.as_callable() else {
                return Err(type_error("A URLSearchParams init pair is not a sequence"));
            };
            webidl::create_sequence_from_iterable(&item, &inner_method, ctx, |v, ctx| {
                to_usv_string(&v, ctx)
            })
        })? {
            out.push(item);
        }
        return Ok(Init::Sequence(out));
    }
    // record<USVString, USVString>: two distinct property keys can convert to the same
    // USVString (lone surrogates become U+FFFD): "set result[typedKey] to typedValue"
    // then replaces the earlier entry's value, keeping its place.
    let entries = webidl::create_record(&object, ctx, to_usv_string, to_usv_string)?;
    let mut record: Vec<Pair> = Vec::with_capacity(entries.len());
    let mut index = std::collections::HashMap::with_capacity(entries.len());
    for (key, value) in entries {
        match index.get(&key) {
            Some(&i) => {
                if let Some(entry) = record.get_mut(i) {
                    let entry: &mut Pair = entry;
                    entry.1 = value;
                }
            }
            None => {
                index.insert(key.clone(), record.len());
                record.push((key, value));
            }
        }
    }
    Ok(Init::Record(record))
}

/// The prologue of the operations taking a name: the brand check, the count of the
/// `required` arguments and the name converted to a `USVString`.
fn params_and_name(
    this: &JsValue,
    args: &[JsValue],
    required: usize,
    method: &str,
    ctx: &mut Context,
) -> JsResult<(JsObject<UrlSearchParams>, String)> {
    webidl::entry_list::name_argument(
        this,
        args,
        required,
        "URLSearchParams",
        method,
        to_usv_string,
        ctx,
    )
}

/// [`size`](https://url.spec.whatwg.org/#dom-urlsearchparams-size):
/// `readonly attribute unsigned long size;`
fn size(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let p = this_params(this)?;
    // The size getter steps are to return this's list's size.
    let size = p.borrow().data().list.borrow().len();
    Ok(JsValue::from(u32::try_from(size).unwrap_or(u32::MAX)))
}

/// [`append(name, value)`](https://url.spec.whatwg.org/#dom-urlsearchparams-append)
fn append(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (p, name) = params_and_name(this, args, 2, "append", ctx)?;
    let value = to_usv_string(&arg(args, 1), ctx)?;
    // 1. Append (name, value) to this's list.
    p.borrow().data().list.borrow_mut().append(name, value);
    // 2. Run this's update steps.
    update(&p, ctx)?;
    Ok(JsValue::undefined())
}

/// [`delete(name, value)`](https://url.spec.whatwg.org/#dom-urlsearchparams-delete)
fn delete(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (p, name) = params_and_name(this, args, 1, "delete", ctx)?;
    let value = optional_usv(args, 1, ctx)?;
    {
        let p = p.borrow();
        let mut list = p.data().list.borrow_mut();
        match value {
            // 1. If value is given, remove all tuples whose name is name and value is value
            //    from this's list.
            Some(value) => list.delete_entry(&name, &value),
            // 2. Otherwise, remove all tuples whose name is name.
            None => list.delete(&name),
        }
    }
    // 3. Run this's update steps.
    update(&p, ctx)?;
    Ok(JsValue::undefined())
}

/// [`get(name)`](https://url.spec.whatwg.org/#dom-urlsearchparams-get)
fn get(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (p, name) = params_and_name(this, args, 1, "get", ctx)?;
    // The value of the first tuple whose name is name, if there is such a tuple; otherwise
    // null.
    let p = p.borrow();
    let list = p.data().list.borrow();
    Ok(list.first(&name).map_or(JsValue::null(), |v| usv_value(v)))
}

/// [`getAll(name)`](https://url.spec.whatwg.org/#dom-urlsearchparams-getall)
fn get_all(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (p, name) = params_and_name(this, args, 1, "getAll", ctx)?;
    // The values of all name-value pairs whose name is name, in list order.
    let values: Vec<JsValue> = p
        .borrow()
        .data()
        .list
        .borrow()
        .all(&name)
        .map(|v| usv_value(v))
        .collect();
    Ok(JsArray::from_iter(values, ctx).into())
}

/// [`has(name, value)`](https://url.spec.whatwg.org/#dom-urlsearchparams-has)
fn has(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (p, name) = params_and_name(this, args, 1, "has", ctx)?;
    let value = optional_usv(args, 1, ctx)?;
    let p = p.borrow();
    let list = p.data().list.borrow();
    let found = match value {
        // 1. If value is given and there is a tuple whose name is name and value is value in
        //    this's list, then return true.
        Some(value) => list.has_entry(&name, &value),
        // 2. If value is not given and there is a tuple whose name is name in this's list,
        //    then return true.
        None => list.has(&name),
    };
    // 3. Return false.
    Ok(found.into())
}

/// [`set(name, value)`](https://url.spec.whatwg.org/#dom-urlsearchparams-set)
fn set(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (p, name) = params_and_name(this, args, 2, "set", ctx)?;
    let value = to_usv_string(&arg(args, 1), ctx)?;
    // 1. If this's list contains any tuples whose name is name, then set the value of the
    //    first such tuple to value and remove the others.
    // 2. Otherwise, append (name, value) to this's list.
    p.borrow().data().list.borrow_mut().set(name, value);
    // 3. Run this's update steps.
    update(&p, ctx)?;
    Ok(JsValue::undefined())
}

/// [`sort()`](https://url.spec.whatwg.org/#dom-urlsearchparams-sort)
fn sort(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let p = this_params(this)?;
    // 1. Sort all tuples in this's list, if any, by their names. Sorting must be done by
    //    comparison of code units. The relative order between tuples with equal names must
    //    be preserved.
    p.borrow().data().list.borrow_mut().sort_by_name();
    // 2. Run this's update steps.
    update(&p, ctx)?;
    Ok(JsValue::undefined())
}

/// The [stringifier](https://url.spec.whatwg.org/#urlsearchparams-stringification-behavior):
/// a regular operation `toString`.
fn to_string(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let p = this_params(this)?;
    // Return the serialization of this's list.
    let s = p.borrow().data().serialize();
    Ok(usv_value(&s))
}

/// `iterable<USVString, USVString>`: entries, keys, values, forEach, @@iterator.
fn iteration_methods(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    webidl::pair_iterable::define_iteration_methods::<UrlSearchParams>(class);
    Ok(())
}

impl Class for UrlSearchParams {
    const NAME: &'static str = "URLSearchParams";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("URLSearchParams"),
                Member::attribute("size", size),
                Member::operation("append", 2, append),
                Member::operation("delete", 1, delete),
                Member::operation("get", 1, get),
                Member::operation("getAll", 1, get_all),
                Member::operation("has", 1, has),
                Member::operation("set", 2, set),
                Member::operation("sort", 0, sort),
                Member::operation("toString", 0, to_string),
                Member::install(iteration_methods),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // optional (...) init = "".
        let init = match arg(args, 0) {
            v if v.is_undefined() => Init::String(String::new()),
            v => to_init(&v, ctx)?,
        };
        let list = match init {
            Init::String(s) => {
                // 1. If init is a string and starts with U+003F (?), then remove the first
                //    code point from init.
                let s = s.strip_prefix('?').unwrap_or(&s);
                // 2. Initialize this with init: parse it.
                parse(s.as_bytes())
            }
            Init::Sequence(pairs) => {
                // For each innerSequence of init: if its size is not 2, throw a TypeError;
                // append (innerSequence[0], innerSequence[1]) to query's list.
                let mut list = Vec::with_capacity(pairs.len());
                for pair in pairs {
                    let [name, value]: [String; 2] = pair.try_into().map_err(|_| {
                        type_error("A URLSearchParams init pair must have exactly two items")
                    })?;
                    list.push((name, value));
                }
                list
            }
            // For each name → value of init, append (name, value) to query's list.
            Init::Record(list) => list,
        };
        Ok(Self::with_list(list))
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::construct_converted::<Self>(new_target, args, ctx)
    }
}

impl PairIterable for UrlSearchParams {
    const INTERFACE: &'static str = "URLSearchParams";
    const ITERATOR_TAG: &'static str = "URLSearchParams Iterator";

    /// The [value pairs to iterate over](https://url.spec.whatwg.org/#interface-urlsearchparams):
    /// this's list's name-value pairs.
    fn pair_at(object: &JsObject<Self>, index: usize) -> Option<(JsValue, JsValue)> {
        let pair = object.borrow().data().list.borrow().get(index).cloned();
        pair.map(|(name, value)| (usv_value(&name), usv_value(&value)))
    }
}
