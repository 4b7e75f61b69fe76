//! [`Headers`](https://fetch.spec.whatwg.org/#headers-class): a header list with a guard,
//! name/value validation and normalisation, and the "sort and combine" iteration.

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsSymbol, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_webidl::{
    self as webidl, arg, brand, pair_iterable::PairIterable, type_error, Member,
    INTERFACE_ATTRIBUTES,
};

/// A [header](https://fetch.spec.whatwg.org/#concept-header): name (case kept) and value.
pub type Header = (Vec<u8>, Vec<u8>);

/// A [headers guard](https://fetch.spec.whatwg.org/#concept-headers-guard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// "none"
    None,
    /// "immutable"
    Immutable,
    /// "request"
    Request,
    /// "request-no-cors" is never used here (no `mode: "no-cors"` requests).
    /// "response"
    Response,
}

/// The native data of a `Headers` object.
#[derive(Trace, Finalize, JsData)]
pub struct Headers {
    #[unsafe_ignore_trace]
    list: GcRefCell<Vec<Header>>,
    #[unsafe_ignore_trace]
    guard: Cell<Guard>,
    /// Whether the "request" and "response" guards filter forbidden headers (the realm's
    /// [`HeadersPolicy`](crate::settings::HeadersPolicy) when the object was made).
    #[unsafe_ignore_trace]
    browser_guards: bool,
}

impl std::fmt::Debug for Headers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Headers").finish_non_exhaustive()
    }
}

impl Headers {
    fn new(guard: Guard, browser_guards: bool) -> Self {
        Self {
            list: GcRefCell::new(Vec::new()),
            guard: Cell::new(guard),
            browser_guards,
        }
    }

    /// The header list (a copy).
    pub fn list(&self) -> Vec<Header> {
        self.list.borrow().clone()
    }

    /// [Get](https://fetch.spec.whatwg.org/#concept-header-list-get) `name` from the list:
    /// the values joined with ", ", or `None`.
    pub fn get(&self, name: &[u8]) -> Option<Vec<u8>> {
        list_get(&self.list.borrow(), name)
    }

    /// Whether the list [contains](https://fetch.spec.whatwg.org/#header-list-contains) `name`.
    pub fn contains(&self, name: &[u8]) -> bool {
        self.list
            .borrow()
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// [Append](https://fetch.spec.whatwg.org/#concept-header-list-append) to the list, no
    /// checks (the caller validated).
    pub(crate) fn list_append(&self, name: &[u8], value: &[u8]) {
        let mut list = self.list.borrow_mut();
        // If list contains name, set name to the first such header's name (its casing).
        let name = list
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or_else(|| name.to_vec(), |(n, _)| n.clone());
        list.push((name, value.to_vec()));
    }

    /// The guard.
    pub(crate) fn guard(&self) -> Guard {
        self.guard.get()
    }
}

fn list_get(list: &[Header], name: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    for (n, v) in list {
        if n.eq_ignore_ascii_case(name) {
            match &mut out {
                None => out = Some(v.clone()),
                Some(o) => {
                    o.extend_from_slice(b", ");
                    o.extend_from_slice(v);
                }
            }
        }
    }
    out
}

/// [Sort and combine](https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine).
pub fn sort_and_combine(list: &[Header]) -> Vec<Header> {
    // 1. Let headers be a list of name-value pairs.
    let mut headers = Vec::new();
    // 2. Let names be the result of converting header names to a sorted-lowercase set.
    let mut names: Vec<Vec<u8>> = list.iter().map(|(n, _)| n.to_ascii_lowercase()).collect();
    names.sort();
    names.dedup();
    // 3. For each name of names:
    for name in names {
        if name == b"set-cookie" {
            // 1. If name is `set-cookie`: each value of a header named set-cookie, in order.
            for (n, v) in list {
                if n.eq_ignore_ascii_case(&name) {
                    headers.push((name.clone(), v.clone()));
                }
            }
        } else if let Some(value) = list_get(list, &name) {
            // 2. Otherwise: (name, the combined value).
            headers.push((name, value));
        }
    }
    // 4. Return headers.
    headers
}

/// Whether `name` is a [header name](https://fetch.spec.whatwg.org/#header-name) (a token).
pub fn is_header_name(name: &[u8]) -> bool {
    !name.is_empty() && name.iter().all(|&b| is_token_byte(b))
}

/// An RFC 9110 `tchar`.
pub(crate) fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Whether `value` is a [header value](https://fetch.spec.whatwg.org/#header-value):
/// no leading/trailing HTTP tab or space, no NUL, CR or LF.
pub fn is_header_value(value: &[u8]) -> bool {
    let ws = |b: &u8| *b == b'\t' || *b == b' ';
    if value.first().is_some_and(ws) || value.last().is_some_and(ws) {
        return false;
    }
    !value.iter().any(|&b| b == 0 || b == b'\r' || b == b'\n')
}

/// [Normalize](https://fetch.spec.whatwg.org/#concept-header-value-normalize) a byte
/// sequence: strip leading and trailing HTTP whitespace bytes.
pub fn normalize_value(value: &[u8]) -> Vec<u8> {
    let ws = |b: &u8| matches!(*b, b'\t' | b'\n' | b'\r' | b' ');
    let start = value.iter().position(|b| !ws(b)).unwrap_or(value.len());
    let end = value.iter().rposition(|b| !ws(b)).map_or(start, |e| e + 1);
    value
        .get(start..end)
        .map(<[u8]>::to_vec)
        .unwrap_or_default()
}

/// WebIDL `ByteString` conversion.
pub(crate) fn to_byte_string(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<u8>> {
    let s = value.to_string(ctx)?;
    s.iter()
        .map(|u| {
            u8::try_from(u).map_err(|_| {
                type_error("Cannot convert to a ByteString: a character is above U+00FF")
            })
        })
        .collect()
}

/// A `ByteString` as a JS string (each byte one code unit).
pub(crate) fn byte_string_value(bytes: &[u8]) -> JsValue {
    let units: Vec<u16> = bytes.iter().map(|&b| u16::from(b)).collect();
    JsString::from(units.as_slice()).into()
}

/// Whether `name` is a [forbidden request-header](https://fetch.spec.whatwg.org/#forbidden-request-header)
/// (by name; the `x-http-method*` value checks included).
fn is_forbidden_request_header(name: &[u8], value: &[u8]) -> bool {
    const FORBIDDEN: &[&[u8]] = &[
        b"accept-charset",
        b"accept-encoding",
        b"access-control-request-headers",
        b"access-control-request-method",
        b"connection",
        b"content-length",
        b"cookie",
        b"cookie2",
        b"date",
        b"dnt",
        b"expect",
        b"host",
        b"keep-alive",
        b"origin",
        b"referer",
        b"set-cookie",
        b"te",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
        b"via",
    ];
    let lower = name.to_ascii_lowercase();
    if FORBIDDEN.contains(&lower.as_slice())
        || lower.starts_with(b"proxy-")
        || lower.starts_with(b"sec-")
    {
        return true;
    }
    if matches!(
        lower.as_slice(),
        b"x-http-method" | b"x-http-method-override" | b"x-method-override"
    ) {
        // Parse the value as a comma-separated list; any forbidden method forbids it.
        return value.split(|&b| b == b',').any(|m| {
            let m = normalize_value(m).to_ascii_uppercase();
            matches!(m.as_slice(), b"CONNECT" | b"TRACE" | b"TRACK")
        });
    }
    false
}

/// Whether `name` is a [forbidden response-header name](https://fetch.spec.whatwg.org/#forbidden-response-header-name).
fn is_forbidden_response_header_name(name: &[u8]) -> bool {
    name.eq_ignore_ascii_case(b"set-cookie") || name.eq_ignore_ascii_case(b"set-cookie2")
}

/// [Validate](https://fetch.spec.whatwg.org/#headers-validate) a header for `headers`:
/// `Ok(false)` when the guard says to ignore it.
fn validate(headers: &Headers, name: &[u8], value: &[u8]) -> JsResult<bool> {
    // 1. If name is not a header name or value is not a header value, throw a TypeError.
    if !is_header_name(name) {
        return Err(type_error(format!(
            "'{}' is not a valid HTTP header name",
            String::from_utf8_lossy(name)
        )));
    }
    if !is_header_value(value) {
        return Err(type_error("Invalid HTTP header value"));
    }
    match headers.guard.get() {
        // 2. If headers's guard is "immutable", throw a TypeError.
        Guard::Immutable => Err(type_error("The headers are immutable")),
        // 3. If headers's guard is "request" and (name, value) is a forbidden request-header,
        //    return false.
        //    NOTE: only under the browser policy (crate::settings::HeadersPolicy): a server runtime
        //    has no forbidden headers (WinterTC), so the step is skipped.
        Guard::Request if headers.browser_guards && is_forbidden_request_header(name, value) => {
            Ok(false)
        }
        // 4. If headers's guard is "response" and name is a forbidden response-header name,
        //    return false.
        //    (Likewise only under the browser policy.)
        Guard::Response if headers.browser_guards && is_forbidden_response_header_name(name) => {
            Ok(false)
        }
        // 5. Return true.
        _ => Ok(true),
    }
}

/// [Append](https://fetch.spec.whatwg.org/#concept-headers-append) (name, value) to
/// `headers`.
pub(crate) fn append(headers: &Headers, name: &[u8], value: &[u8]) -> JsResult<()> {
    // 1. Normalize value.
    let value = normalize_value(value);
    // 2. If validating (name, value) for headers returns false, then return.
    if !validate(headers, name, &value)? {
        return Ok(());
    }
    // 3-4. (request-no-cors guard: not used.)
    // 5. Append (name, value) to headers's header list.
    headers.list_append(name, &value);
    Ok(())
}

/// [Fill](https://fetch.spec.whatwg.org/#concept-headers-fill) `headers` with a converted
/// `HeadersInit`.
pub(crate) fn fill(headers: &Headers, init: Vec<Header>) -> JsResult<()> {
    for (name, value) in init {
        append(headers, &name, &value)?;
    }
    Ok(())
}

/// Convert `value` to `HeadersInit` (`sequence<sequence<ByteString>>` or
/// `record<ByteString, ByteString>`), checking that each inner sequence has two items.
pub(crate) fn to_headers_init(value: &JsValue, ctx: &mut Context) -> JsResult<Vec<Header>> {
    let Some(object) = value.as_object() else {
        return Err(type_error("The headers init is not an object"));
    };
    // A Headers object converts through its @@iterator like any other.
    let method = object.get(JsSymbol::iterator(), ctx)?;
    if !method.is_null_or_undefined() {
        let Some(method) = method.as_callable() else {
            return Err(type_error("@@iterator is not callable"));
        };
        // sequence<sequence<ByteString>>: each item converted as it is iterated.
        return webidl::create_sequence_from_iterable(value, &method, ctx, |item, ctx| {
            let Some(inner) = item.as_object() else {
                return Err(type_error("A header init pair is not a sequence"));
            };
            let inner_method = inner.get(JsSymbol::iterator(), ctx)?;
            let Some(inner_method) = inner_method.as_callable() else {
                return Err(type_error("A header init pair is not a sequence"));
            };
            let pair =
                webidl::create_sequence_from_iterable(&item, &inner_method, ctx, |v, ctx| {
                    to_byte_string(&v, ctx)
                })?;
            // If header's size is not 2, throw a TypeError.
            let [name, value]: [Vec<u8>; 2] = pair
                .try_into()
                .map_err(|_| type_error("A header init pair must have exactly two items"))?;
            Ok((name, value))
        });
    }
    // record<ByteString, ByteString> (an enumerable Symbol key throws in its ByteString
    // conversion).
    webidl::create_record(&object, ctx, to_byte_string, to_byte_string)
}

fn this_headers(this: &JsValue) -> JsResult<JsObject<Headers>> {
    brand::<Headers>(this, "Headers")
}

fn invalid_name(name: &[u8]) -> boa_engine::JsError {
    type_error(format!(
        "'{}' is not a valid HTTP header name",
        String::from_utf8_lossy(name)
    ))
}

/// A new `Headers` object in the current realm with `guard` and `list`.
pub(crate) fn new_headers(
    guard: Guard,
    list: Vec<Header>,
    ctx: &mut Context,
) -> JsResult<JsObject<Headers>> {
    let proto = ctx
        .get_global_class::<Headers>()
        .ok_or_else(|| type_error("Headers is not registered"))?
        .prototype();
    let browser = crate::settings::headers_policy(ctx) == crate::settings::HeadersPolicy::Browser;
    let data = Headers::new(guard, browser);
    *data.list.borrow_mut() = list;
    Ok(JsObject::new(ctx.root_shape(), proto, data))
}

/// The prologue of the operations taking a name: the brand check, the count of the
/// `required` arguments and the name converted to a `ByteString`.
fn headers_and_name(
    this: &JsValue,
    args: &[JsValue],
    required: usize,
    method: &str,
    ctx: &mut Context,
) -> JsResult<(JsObject<Headers>, Vec<u8>)> {
    webidl::entry_list::name_argument(this, args, required, "Headers", method, to_byte_string, ctx)
}

/// [`append(name, value)`](https://fetch.spec.whatwg.org/#dom-headers-append)
fn append_operation(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (h, name) = headers_and_name(this, args, 2, "append", ctx)?;
    let value = to_byte_string(&arg(args, 1), ctx)?;
    // Append (name, value) to this.
    append(h.borrow().data(), &name, &value)?;
    Ok(JsValue::undefined())
}

/// [`delete(name)`](https://fetch.spec.whatwg.org/#dom-headers-delete)
fn delete(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (h, name) = headers_and_name(this, args, 1, "delete", ctx)?;
    let h = h.borrow();
    let h = h.data();
    // 1. If validating (name, ``) for this returns false, then return.
    // (An invalid name throws.)
    if !validate(h, &name, b"")? {
        return Ok(JsValue::undefined());
    }
    // 2-3. (request-no-cors: not used.) 4. If this's header list does not contain name,
    // then return.
    // 5. Delete name from this's header list.
    h.list
        .borrow_mut()
        .retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
    Ok(JsValue::undefined())
}

/// [`get(name)`](https://fetch.spec.whatwg.org/#dom-headers-get)
fn get(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (h, name) = headers_and_name(this, args, 1, "get", ctx)?;
    // 1. If name is not a header name, then throw a TypeError.
    if !is_header_name(&name) {
        return Err(invalid_name(&name));
    }
    // 2. Return the result of getting name from this's header list.
    let value = h.borrow().data().get(&name);
    Ok(value.map_or(JsValue::null(), |v| byte_string_value(&v)))
}

/// [`getSetCookie()`](https://fetch.spec.whatwg.org/#dom-headers-getsetcookie)
fn get_set_cookie(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let h = this_headers(this)?;
    // 1. If this's header list does not contain `Set-Cookie`, return « ».
    // 2. Return the values of all headers whose name is `Set-Cookie`, in order.
    let values: Vec<JsValue> = h
        .borrow()
        .data()
        .list
        .borrow()
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(b"set-cookie"))
        .map(|(_, v)| byte_string_value(v))
        .collect();
    Ok(JsArray::from_iter(values, ctx).into())
}

/// [`has(name)`](https://fetch.spec.whatwg.org/#dom-headers-has)
fn has(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (h, name) = headers_and_name(this, args, 1, "has", ctx)?;
    // 1. If name is not a header name, then throw a TypeError.
    if !is_header_name(&name) {
        return Err(invalid_name(&name));
    }
    // 2. Return true if this's header list contains name; otherwise false.
    let found = h.borrow().data().contains(&name);
    Ok(found.into())
}

/// [`set(name, value)`](https://fetch.spec.whatwg.org/#dom-headers-set)
fn set(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (h, name) = headers_and_name(this, args, 2, "set", ctx)?;
    let value = to_byte_string(&arg(args, 1), ctx)?;
    let h = h.borrow();
    let h = h.data();
    // 1. Normalize value.
    let value = normalize_value(&value);
    // 2. If validating (name, value) for this returns false, then return.
    if !validate(h, &name, &value)? {
        return Ok(JsValue::undefined());
    }
    // 4. Set (name, value) in this's header list: replace the first header named name
    //    (keeping its name) and remove the others, or append.
    let mut list = h.list.borrow_mut();
    if let Some(first) = list.iter().position(|(n, _)| n.eq_ignore_ascii_case(&name)) {
        if let Some(entry) = list.get_mut(first) {
            entry.1 = value;
        }
        let mut i = 0;
        list.retain(|(n, _)| {
            let keep = i <= first || !n.eq_ignore_ascii_case(&name);
            i += 1;
            keep
        });
    } else {
        list.push((name, value));
    }
    Ok(JsValue::undefined())
}

/// `iterable<ByteString, ByteString>`: entries, keys, values, forEach, @@iterator.
fn iteration_methods(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    webidl::pair_iterable::define_iteration_methods::<Headers>(class);
    Ok(())
}

impl Class for Headers {
    const NAME: &'static str = "Headers";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                // The class string exists "at the time it is created": before @@iterator.
                Member::to_string_tag("Headers"),
                Member::operation("append", 2, append_operation),
                Member::operation("delete", 1, delete),
                Member::operation("get", 1, get),
                Member::operation("getSetCookie", 0, get_set_cookie),
                Member::operation("has", 1, has),
                Member::operation("set", 2, set),
                Member::install(iteration_methods),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // IDL: optional HeadersInit init.
        let init = match arg(args, 0) {
            v if v.is_undefined() => None,
            v => Some(to_headers_init(&v, ctx)?),
        };
        // 1. Set this's guard to "none".
        let headers = Self::new(Guard::None, false);
        // 2. If init is given, then fill this with init.
        if let Some(init) = init {
            fill(&headers, init)?;
        }
        Ok(headers)
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::construct_converted::<Self>(new_target, args, ctx)
    }
}

impl PairIterable for Headers {
    const INTERFACE: &'static str = "Headers";
    const ITERATOR_TAG: &'static str = "Headers Iterator";

    /// The [value pairs to iterate over](https://fetch.spec.whatwg.org/#concept-headers):
    /// the result of running sort and combine with this's header list.
    fn pair_at(object: &JsObject<Self>, index: usize) -> Option<(JsValue, JsValue)> {
        let list = object.borrow().data().list();
        sort_and_combine(&list)
            .into_iter()
            .nth(index)
            .map(|(name, value)| (byte_string_value(&name), byte_string_value(&value)))
    }
}

/// Register `Headers` and its iterator prototype.
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    webidl::register_interface::<Headers>(ctx)?;
    webidl::pair_iterable::register_iterator_prototype::<Headers>(ctx)
}
