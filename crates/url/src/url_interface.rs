//! The [`URL` interface](https://url.spec.whatwg.org/#url-class) on ada (`ada-url`): its parser
//! is the URL Standard's basic URL parser and its setters are the standard's attribute setters,
//! the implementation Node uses. (The `url` crate 2.5 deviates from the current standard in
//! file: and non-special paths: it drops a host before a Windows drive letter, collapses
//! leading empty path segments and has no "/." path prefix.)

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_webidl::{self as webidl, arg, brand, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::url_search_params::{new_linked, set_list_from_query, to_usv_string};

/// The native data of a `URL` object.
#[derive(Trace, Finalize, JsData)]
pub struct Url {
    /// The object's [URL](https://url.spec.whatwg.org/#concept-url-url).
    #[unsafe_ignore_trace]
    url: RefCell<ada_url::Url>,
    /// The [query object](https://url.spec.whatwg.org/#concept-url-query-object), a
    /// `URLSearchParams` (set right after the object is made).
    query: GcRefCell<Option<JsObject>>,
}

impl std::fmt::Debug for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Url")
            .field("href", &self.url.borrow().href())
            .finish_non_exhaustive()
    }
}

impl Url {
    fn new(url: ada_url::Url) -> Self {
        Self {
            url: RefCell::new(url),
            query: GcRefCell::new(None),
        }
    }

    /// The URL record (a copy).
    ///
    /// ```
    /// let mut ctx = boa_engine::Context::default();
    /// boa_url::register(&mut ctx).unwrap();
    /// let v = ctx
    ///     .eval(boa_engine::Source::from_bytes("new URL('/a?b#c', 'https://example.com')"))
    ///     .unwrap();
    /// let object = v.as_object().unwrap();
    /// let url = object.downcast_ref::<boa_url::Url>().unwrap().url();
    /// assert_eq!(url.href(), "https://example.com/a?b#c");
    /// assert_eq!(url.hostname(), "example.com");
    /// ```
    pub fn url(&self) -> ada_url::Url {
        self.url.borrow().clone()
    }

    /// The URL's [serialization](https://url.spec.whatwg.org/#concept-url-serializer) (`href`).
    ///
    /// ```
    /// let mut ctx = boa_engine::Context::default();
    /// boa_url::register(&mut ctx).unwrap();
    /// let v = ctx
    ///     .eval(boa_engine::Source::from_bytes("new URL('file://host/C:/x')"))
    ///     .unwrap();
    /// let object = v.as_object().unwrap();
    /// let href = object.downcast_ref::<boa_url::Url>().unwrap().href();
    /// assert_eq!(href, "file://host/C:/x");
    /// ```
    pub fn href(&self) -> String {
        self.url.borrow().href().to_owned()
    }
}

/// The [API URL parser](https://url.spec.whatwg.org/#api-url-parser): parse `base` (if given)
/// with the basic URL parser, then `url` against it. `None` is failure.
///
/// This is the parser behind the `URL` interface (ada, the URL Standard's parser that Node
/// uses too), for Rust code that must agree with `new URL(url, base)` in JS.
///
/// ```
/// let u = boa_url::api_url_parse("//h/C:/x", Some("file:///y")).unwrap();
/// assert_eq!(u.href(), "file://h/C:/x");
/// assert_eq!(u.pathname(), "/C:/x");
/// assert!(boa_url::api_url_parse("http://[", None).is_none());
/// assert!(boa_url::api_url_parse("a", Some("not a base")).is_none());
/// ```
pub fn api_url_parse(url: &str, base: Option<&str>) -> Option<ada_url::Url> {
    // 1. Let parsedBase be null.
    // 2. If base is non-null: set parsedBase to the result of running the basic URL parser
    //    on base; if parsedBase is failure, then return failure.
    // 3. Return the result of running the basic URL parser on url with parsedBase.
    // (ada's parse with a base does both.)
    ada_url::Url::parse(url, base).ok()
}

/// The URL's [query](https://url.spec.whatwg.org/#concept-url-query) (`None` for null or, as
/// ada does not tell them apart, for the empty query: both give an empty query object list).
fn query_of(url: &ada_url::Url) -> Option<String> {
    url.search().strip_prefix('?').map(str::to_owned)
}

/// The `url` and optional `base` arguments of the constructor and the statics, converted.
fn url_and_base(
    args: &[JsValue],
    what: &str,
    ctx: &mut Context,
) -> JsResult<(String, Option<String>)> {
    if args.is_empty() {
        return Err(type_error(format!(
            "Failed to execute '{what}' on 'URL': 1 argument required, but only 0 present."
        )));
    }
    let url = to_usv_string(&arg(args, 0), ctx)?;
    let base = match args.get(1) {
        None => None,
        Some(v) if v.is_undefined() => None,
        Some(v) => Some(to_usv_string(v, ctx)?),
    };
    Ok((url, base))
}

/// A new `URL` object with prototype `proto` for `record`, with its query object
/// ([initialize](https://url.spec.whatwg.org/#url-initialize) steps 3-5).
fn new_url_object(record: ada_url::Url, proto: JsObject, ctx: &mut Context) -> JsResult<JsObject> {
    let query = query_of(&record);
    let object = JsObject::from_proto_and_data(Some(proto), Url::new(record));
    link_query_object(&object, query.as_deref(), ctx)?;
    Ok(object.upcast())
}

/// Initialize steps 3-5: "Set url's query object to a new URLSearchParams object", "initialize
/// url's query object with query", "set url's query object's URL object to url".
fn link_query_object(object: &JsObject, query: Option<&str>, ctx: &mut Context) -> JsResult<()> {
    let params = new_linked(object.clone(), query, update_url_query, ctx)?;
    if let Some(url) = object.downcast_ref::<Url>() {
        *url.query.borrow_mut() = Some(params);
    }
    Ok(())
}

/// The query object's [update steps](https://url.spec.whatwg.org/#concept-urlsearchparams-update)
/// 4-5: set the URL's query to `query`; when null, potentially strip trailing spaces from an
/// opaque path (ada's `search` setter with the empty string does both).
fn update_url_query(url: &JsObject, query: Option<&str>, _ctx: &mut Context) -> JsResult<()> {
    if let Some(url) = url.downcast_ref::<Url>() {
        // NOTE: ada sets a query through the `search` setter, which percent-encodes with the
        // query percent-encode set; a serialized list holds only ASCII alphanumerics,
        // "*-._+" and "%XX", none in that set, so the query is serializedQuery unchanged. The
        // "?" keeps a leading "?" of the value from being taken as the delimiter.
        let value = query.map(|q| format!("?{q}"));
        url.url
            .borrow_mut()
            .set_search(Some(value.as_deref().unwrap_or("")));
    }
    Ok(())
}

/// After the URL's query changed (`href` and `search` setters): set the query object's list
/// to the result of parsing the URL's query (empty when null).
fn reparse_query_object(url: &JsObject<Url>) {
    let (params, query) = {
        let u = url.borrow();
        let data = u.data();
        let params = data.query.borrow().clone();
        let query = query_of(&data.url.borrow());
        (params, query)
    };
    if let Some(params) = params {
        set_list_from_query(&params, query.as_deref());
    }
}

fn this_url(this: &JsValue) -> JsResult<JsObject<Url>> {
    brand::<Url>(this, "URL")
}

fn string_value(s: &str) -> JsValue {
    JsString::from(s).into()
}

/// Named getter steps returning `$f` of this's URL.
macro_rules! getter {
    ($(#[$doc:meta])* $name:ident, $f:expr) => {
        $(#[$doc])*
        fn $name(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
            let u = this_url(this)?;
            let u = u.borrow();
            let url = u.data().url.borrow();
            Ok(string_value(&$f(&*url)))
        }
    };
}

/// Named setter steps converting the value to a USVString and running `$f` on this's URL
/// (whose failures are ignored, as the URL Standard's setters return on failure).
macro_rules! setter {
    ($(#[$doc:meta])* $name:ident, $f:expr) => {
        $(#[$doc])*
        fn $name(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
            let u = this_url(this)?;
            let value = to_usv_string(&arg(args, 0), ctx)?;
            {
                let u = u.borrow();
                let mut url = u.data().url.borrow_mut();
                #[allow(clippy::redundant_closure_call)]
                $f(&mut *url, value.as_str());
            }
            Ok(JsValue::undefined())
        }
    };
}

/// [`URL.parse(url, base)`](https://url.spec.whatwg.org/#dom-url-parse):
/// `static URL? parse(USVString url, optional USVString base);`
fn parse(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (url, base) = url_and_base(args, "parse", ctx)?;
    // 1. Let parsedURL be the result of running the API URL parser on url with base, if
    //    given.
    // 2. If parsedURL is failure, then return null.
    let Some(record) = api_url_parse(&url, base.as_deref()) else {
        return Ok(JsValue::null());
    };
    // 3. Let url be a new URL object.
    // 4. Initialize url with parsedURL.
    // 5. Return url.
    let proto = ctx
        .get_global_class::<Url>()
        .ok_or_else(|| type_error("URL is not registered"))?
        .prototype();
    Ok(new_url_object(record, proto, ctx)?.into())
}

/// [`URL.canParse(url, base)`](https://url.spec.whatwg.org/#dom-url-canparse):
/// `static boolean canParse(USVString url, optional USVString base);`
fn can_parse(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (url, base) = url_and_base(args, "canParse", ctx)?;
    // 1. Let parsedURL be the result of running the API URL parser on url with base, if
    //    given.
    // 2. If parsedURL is failure, then return false.
    // 3. Return true.
    Ok(api_url_parse(&url, base.as_deref()).is_some().into())
}

getter!(
    /// [`href`](https://url.spec.whatwg.org/#dom-url-href) getter: `stringifier attribute
    /// USVString href;`
    get_href,
    ada_url::Url::href
);

/// [`href`](https://url.spec.whatwg.org/#dom-url-href) setter.
fn set_href(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let u = this_url(this)?;
    let value = to_usv_string(&arg(args, 0), ctx)?;
    // 1. Let parsedURL be the result of running the basic URL parser on the given value.
    // 2. If parsedURL is failure, then throw a TypeError.
    let parsed = ada_url::Url::parse(value.as_str(), None)
        .map_err(|_| type_error(format!("Invalid URL '{value}'")))?;
    // 3. Set this's URL to parsedURL.
    *u.borrow().data().url.borrow_mut() = parsed;
    // 4. Empty this's query object's list.
    // 5. Let query be this's URL's query.
    // 6. If query is non-null, then set this's query object's list to the result of parsing
    //    query.
    reparse_query_object(&u);
    Ok(JsValue::undefined())
}

getter!(
    /// [`origin`](https://url.spec.whatwg.org/#dom-url-origin): `readonly attribute
    /// USVString origin;`
    get_origin,
    ada_url::Url::origin
);
getter!(
    /// [`protocol`](https://url.spec.whatwg.org/#dom-url-protocol) getter.
    get_protocol,
    ada_url::Url::protocol
);
setter!(
    /// [`protocol`](https://url.spec.whatwg.org/#dom-url-protocol) setter.
    set_protocol,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_protocol(v);
    }
);
getter!(
    /// [`username`](https://url.spec.whatwg.org/#dom-url-username) getter.
    get_username,
    ada_url::Url::username
);
setter!(
    /// [`username`](https://url.spec.whatwg.org/#dom-url-username) setter.
    set_username,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_username(Some(v));
    }
);
getter!(
    /// [`password`](https://url.spec.whatwg.org/#dom-url-password) getter.
    get_password,
    ada_url::Url::password
);
setter!(
    /// [`password`](https://url.spec.whatwg.org/#dom-url-password) setter.
    set_password,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_password(Some(v));
    }
);
getter!(
    /// [`host`](https://url.spec.whatwg.org/#dom-url-host) getter.
    get_host,
    ada_url::Url::host
);
setter!(
    /// [`host`](https://url.spec.whatwg.org/#dom-url-host) setter.
    set_host,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_host(Some(v));
    }
);
getter!(
    /// [`hostname`](https://url.spec.whatwg.org/#dom-url-hostname) getter.
    get_hostname,
    ada_url::Url::hostname
);
setter!(
    /// [`hostname`](https://url.spec.whatwg.org/#dom-url-hostname) setter.
    set_hostname,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_hostname(Some(v));
    }
);
getter!(
    /// [`port`](https://url.spec.whatwg.org/#dom-url-port) getter.
    get_port,
    ada_url::Url::port
);
setter!(
    /// [`port`](https://url.spec.whatwg.org/#dom-url-port) setter.
    set_port,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_port(Some(v));
    }
);
getter!(
    /// [`pathname`](https://url.spec.whatwg.org/#dom-url-pathname) getter.
    get_pathname,
    ada_url::Url::pathname
);
setter!(
    /// [`pathname`](https://url.spec.whatwg.org/#dom-url-pathname) setter.
    set_pathname,
    |url: &mut ada_url::Url, v: &str| {
        // Failure: return (the URL is unchanged).
        let _ = url.set_pathname(Some(v));
    }
);
getter!(
    /// [`search`](https://url.spec.whatwg.org/#dom-url-search) getter.
    get_search,
    ada_url::Url::search
);

/// [`search`](https://url.spec.whatwg.org/#dom-url-search) setter.
fn set_search(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let u = this_url(this)?;
    let value = to_usv_string(&arg(args, 0), ctx)?;
    // 1-3. Empty value: set the query to null, empty the query object's list, potentially
    //    strip trailing spaces from an opaque path.
    // 4-6. Otherwise: remove a leading "?", set the query to the empty string, basic URL
    //    parse the input into the URL with the query state.
    u.borrow().data().url.borrow_mut().set_search(Some(&value));
    // 7. Set this's query object's list to the result of parsing input.
    reparse_query_object(&u);
    Ok(JsValue::undefined())
}

/// [`searchParams`](https://url.spec.whatwg.org/#dom-url-searchparams):
/// `[SameObject] readonly attribute URLSearchParams searchParams;`
fn search_params(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let u = this_url(this)?;
    // Return this's query object.
    let params = u.borrow().data().query.borrow().clone();
    Ok(params.map(JsValue::from).unwrap_or_default())
}

getter!(
    /// [`hash`](https://url.spec.whatwg.org/#dom-url-hash) getter.
    get_hash,
    ada_url::Url::hash
);
setter!(
    /// [`hash`](https://url.spec.whatwg.org/#dom-url-hash) setter.
    set_hash,
    |url: &mut ada_url::Url, v: &str| {
        url.set_hash(Some(v));
    }
);

/// [`toJSON()`](https://url.spec.whatwg.org/#dom-url-tojson): `USVString toJSON();`
fn to_json(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    // Return the serialization of this's URL.
    let u = this_url(this)?;
    let href = u.borrow().data().href();
    Ok(string_value(&href))
}

/// The [stringifier](https://url.spec.whatwg.org/#URL-stringification-behavior) (of `href`):
/// a regular operation `toString`.
fn to_string(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let u = this_url(this)?;
    let href = u.borrow().data().href();
    Ok(string_value(&href))
}

impl Class for Url {
    const NAME: &'static str = "URL";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("URL"),
                Member::static_operation("parse", 1, parse),
                Member::static_operation("canParse", 1, can_parse),
                Member::writable_attribute("href", get_href, set_href),
                Member::attribute("origin", get_origin),
                Member::writable_attribute("protocol", get_protocol, set_protocol),
                Member::writable_attribute("username", get_username, set_username),
                Member::writable_attribute("password", get_password, set_password),
                Member::writable_attribute("host", get_host, set_host),
                Member::writable_attribute("hostname", get_hostname, set_hostname),
                Member::writable_attribute("port", get_port, set_port),
                Member::writable_attribute("pathname", get_pathname, set_pathname),
                Member::writable_attribute("search", get_search, set_search),
                Member::attribute("searchParams", search_params),
                Member::writable_attribute("hash", get_hash, set_hash),
                Member::operation("toJSON", 0, to_json),
                Member::operation("toString", 0, to_string),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // constructor(USVString url, optional USVString base);
        let (url, base) = url_and_base(args, "constructor", ctx)?;
        // 1. Let parsedURL be the result of running the API URL parser on url with base, if
        //    given.
        // 2. If parsedURL is failure, then throw a TypeError.
        let record = api_url_parse(&url, base.as_deref()).ok_or_else(|| {
            type_error(match &base {
                Some(base) => format!("Invalid URL '{url}' (base '{base}')"),
                None => format!("Invalid URL '{url}'"),
            })
        })?;
        // 3. Initialize this with parsedURL (step 2 here: set this's URL).
        Ok(Self::new(record))
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        let object = webidl::construct_converted::<Self>(new_target, args, ctx)?;
        // Initialize steps 3-5: the query object.
        let query = object
            .downcast_ref::<Url>()
            .and_then(|u| query_of(&u.url.borrow()));
        link_query_object(&object, query.as_deref(), ctx)?;
        Ok(object)
    }
}
