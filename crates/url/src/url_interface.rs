//! The [`URL` interface](https://url.spec.whatwg.org/#url-class) on the `url` crate (its
//! parser is the URL Standard's basic URL parser; `url::quirks` has the attribute setters).

use std::cell::RefCell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, GcRefCell, Trace};
use url::quirks;

use boa_webidl::{self as webidl, arg, brand, type_error, INTERFACE_ATTRIBUTES};

use crate::{new_linked, set_list_from_query, to_usv_string};

/// The native data of a `URL` object.
#[derive(Trace, Finalize, JsData)]
pub struct Url {
    /// The object's [URL](https://url.spec.whatwg.org/#concept-url-url).
    #[unsafe_ignore_trace]
    url: RefCell<url::Url>,
    /// The [query object](https://url.spec.whatwg.org/#concept-url-query-object), a
    /// `URLSearchParams` (set right after the object is made).
    query: GcRefCell<Option<JsObject>>,
}

impl std::fmt::Debug for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Url")
            .field("href", &self.url.borrow().as_str())
            .finish_non_exhaustive()
    }
}

impl Url {
    fn new(url: url::Url) -> Self {
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
    /// assert_eq!(url.as_str(), "https://example.com/a?b#c");
    /// ```
    pub fn url(&self) -> url::Url {
        self.url.borrow().clone()
    }

    /// The URL's [serialization](https://url.spec.whatwg.org/#concept-url-serializer) (`href`).
    pub fn href(&self) -> String {
        self.url.borrow().as_str().to_owned()
    }
}

/// The [API URL parser](https://url.spec.whatwg.org/#api-url-parser): parse `base` (if given)
/// with the basic URL parser, then `url` against it. `None` is failure.
pub fn api_url_parse(url: &str, base: Option<&str>) -> Option<url::Url> {
    // 1. Let parsedBase be null.
    // 2. If base is non-null: set parsedBase to the result of running the basic URL parser
    //    on base; if parsedBase is failure, then return failure.
    let parsed_base = match base {
        Some(base) => Some(url::Url::parse(base).ok()?),
        None => None,
    };
    // 3. Return the result of running the basic URL parser on url with parsedBase.
    let parsed = url::Url::options()
        .base_url(parsed_base.as_ref())
        .parse(url);
    match parsed {
        Ok(parsed) => Some(parsed),
        Err(_) => parsed_base.and_then(|base| reparse_ignoring_slashes(url, &base)),
    }
}

/// The `url` crate (2.5.8) fails "///host" against a special base (an empty host), where the
/// basic URL parser goes relative slash state → special authority ignore slashes state, which
/// skips every "/" and "\\": the result is the one of "//host". Retry that way; it applies only
/// where the crate failed and gives what the standard's state machine gives by construction.
fn reparse_ignoring_slashes(url: &str, base: &url::Url) -> Option<url::Url> {
    // A special base other than file: (file: has its own slash states).
    if !matches!(base.scheme(), "http" | "https" | "ws" | "wss" | "ftp") {
        return None;
    }
    // The parser's input preprocessing: strip leading and trailing C0 control or space,
    // remove ASCII tab or newline.
    let cleaned: String = url
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let slashes = cleaned
        .chars()
        .take_while(|c| matches!(c, '/' | '\\'))
        .count();
    if slashes < 3 {
        return None;
    }
    let rest = cleaned.get(slashes..)?;
    url::Url::options()
        .base_url(Some(base))
        .parse(&format!("//{rest}"))
        .ok()
}

/// The serialization of `url`'s [origin](https://url.spec.whatwg.org/#concept-url-origin).
fn origin(url: &url::Url) -> String {
    if url.scheme() == "blob" {
        // "blob": 2. Let pathURL be the result of parsing the result of URL path
        // serializing url. 3. If pathURL is failure, return a new opaque origin. 4. If
        // pathURL's scheme is "http" or "https", return pathURL's origin. 5. Return a new
        // opaque origin. (The `url` crate also gives ws:, wss:, ftp: and nested blob: URLs
        // a tuple origin.)
        return match url::Url::parse(url.path()) {
            Ok(path) if matches!(path.scheme(), "http" | "https") => quirks::origin(&path),
            _ => "null".to_owned(),
        };
    }
    quirks::origin(url)
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
fn new_url_object(record: url::Url, proto: JsObject, ctx: &mut Context) -> JsResult<JsObject> {
    let query = record.query().map(str::to_owned);
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
/// opaque path (the `url` crate's `set_query(None)` does).
fn update_url_query(url: &JsObject, query: Option<&str>, _ctx: &mut Context) -> JsResult<()> {
    if let Some(url) = url.downcast_ref::<Url>() {
        url.url.borrow_mut().set_query(query);
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
        let query = data.url.borrow().query().map(str::to_owned);
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

/// A getter returning `f` of this's URL.
macro_rules! getter {
    ($f:expr) => {
        NativeFunction::from_fn_ptr(|this, _, _| {
            let u = this_url(this)?;
            let u = u.borrow();
            let url = u.data().url.borrow();
            Ok(string_value(&$f(&*url)))
        })
    };
}

/// A setter converting its value to a USVString and running `f` on this's URL (whose
/// failures are ignored, as the URL Standard's setters return on failure).
macro_rules! setter {
    ($f:expr) => {
        Some(NativeFunction::from_fn_ptr(|this, args, ctx| {
            let u = this_url(this)?;
            let value = to_usv_string(&arg(args, 0), ctx)?;
            {
                let u = u.borrow();
                let mut url = u.data().url.borrow_mut();
                #[allow(clippy::redundant_closure_call)]
                $f(&mut *url, value.as_str());
            }
            Ok(JsValue::undefined())
        }))
    };
}

impl Class for Url {
    const NAME: &'static str = "URL";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::to_string_tag(class, "URL");
        // static URL? parse(USVString url, optional USVString base);
        webidl::static_operation(
            class,
            "parse",
            1,
            NativeFunction::from_fn_ptr(|_, args, ctx| {
                let (url, base) = url_and_base(args, "parse", ctx)?;
                // 1. Let parsedURL be the result of running the API URL parser on url with
                //    base, if given.
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
            }),
        );
        // static boolean canParse(USVString url, optional USVString base);
        webidl::static_operation(
            class,
            "canParse",
            1,
            NativeFunction::from_fn_ptr(|_, args, ctx| {
                let (url, base) = url_and_base(args, "canParse", ctx)?;
                // 1. Let parsedURL be the result of running the API URL parser on url with
                //    base, if given.
                // 2. If parsedURL is failure, then return false.
                // 3. Return true.
                Ok(api_url_parse(&url, base.as_deref()).is_some().into())
            }),
        );
        // stringifier attribute USVString href;
        webidl::attribute(
            class,
            "href",
            getter!(quirks::href),
            Some(NativeFunction::from_fn_ptr(|this, args, ctx| {
                let u = this_url(this)?;
                let value = to_usv_string(&arg(args, 0), ctx)?;
                // 1. Let parsedURL be the result of running the basic URL parser on the
                //    given value.
                // 2. If parsedURL is failure, then throw a TypeError.
                let parsed = url::Url::parse(&value)
                    .map_err(|e| type_error(format!("Invalid URL '{value}': {e}")))?;
                // 3. Set this's URL to parsedURL.
                *u.borrow().data().url.borrow_mut() = parsed;
                // 4. Empty this's query object's list.
                // 5. Let query be this's URL's query.
                // 6. If query is non-null, then set this's query object's list to the result
                //    of parsing query.
                reparse_query_object(&u);
                Ok(JsValue::undefined())
            })),
        );
        // readonly attribute USVString origin;
        webidl::attribute(class, "origin", getter!(origin), None);
        // attribute USVString protocol;
        webidl::attribute(
            class,
            "protocol",
            getter!(quirks::protocol),
            setter!(|url: &mut url::Url, v: &str| {
                // Failure: return (the URL is unchanged).
                let _ = quirks::set_protocol(url, v);
            }),
        );
        // attribute USVString username;
        webidl::attribute(
            class,
            "username",
            getter!(quirks::username),
            setter!(|url: &mut url::Url, v: &str| {
                // Failure: return (the URL is unchanged).
                let _ = quirks::set_username(url, v);
            }),
        );
        // attribute USVString password;
        webidl::attribute(
            class,
            "password",
            getter!(quirks::password),
            setter!(|url: &mut url::Url, v: &str| {
                // Failure: return (the URL is unchanged).
                let _ = quirks::set_password(url, v);
            }),
        );
        // attribute USVString host;
        webidl::attribute(
            class,
            "host",
            getter!(quirks::host),
            setter!(|url: &mut url::Url, v: &str| {
                // Failure: return (the URL is unchanged).
                let _ = quirks::set_host(url, v);
            }),
        );
        // attribute USVString hostname;
        webidl::attribute(
            class,
            "hostname",
            getter!(quirks::hostname),
            setter!(|url: &mut url::Url, v: &str| {
                // Failure: return (the URL is unchanged).
                let _ = quirks::set_hostname(url, v);
            }),
        );
        // attribute USVString port;
        webidl::attribute(
            class,
            "port",
            getter!(quirks::port),
            setter!(|url: &mut url::Url, v: &str| {
                // Failure: return (the URL is unchanged).
                let _ = quirks::set_port(url, v);
            }),
        );
        // attribute USVString pathname;
        webidl::attribute(
            class,
            "pathname",
            getter!(quirks::pathname),
            setter!(quirks::set_pathname),
        );
        // attribute USVString search;
        webidl::attribute(
            class,
            "search",
            getter!(quirks::search),
            Some(NativeFunction::from_fn_ptr(|this, args, ctx| {
                let u = this_url(this)?;
                let value = to_usv_string(&arg(args, 0), ctx)?;
                // 1-3. Empty value: set the query to null, empty the query object's list,
                //    potentially strip trailing spaces from an opaque path.
                // 4-6. Otherwise: remove a leading "?", set the query to the empty string,
                //    basic URL parse the input into the URL with the query state.
                quirks::set_search(&mut u.borrow().data().url.borrow_mut(), &value);
                // 7. Set this's query object's list to the result of parsing input.
                reparse_query_object(&u);
                Ok(JsValue::undefined())
            })),
        );
        // [SameObject] readonly attribute URLSearchParams searchParams;
        webidl::attribute(
            class,
            "searchParams",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let u = this_url(this)?;
                // Return this's query object.
                let params = u.borrow().data().query.borrow().clone();
                Ok(params.map(JsValue::from).unwrap_or_default())
            }),
            None,
        );
        // attribute USVString hash;
        webidl::attribute(
            class,
            "hash",
            getter!(quirks::hash),
            setter!(quirks::set_hash),
        );
        // USVString toJSON();
        webidl::operation(
            class,
            "toJSON",
            0,
            NativeFunction::from_fn_ptr(|this, _, _| {
                // Return the serialization of this's URL.
                let u = this_url(this)?;
                let href = u.borrow().data().href();
                Ok(string_value(&href))
            }),
        );
        // The stringifier (of href): a regular operation `toString`.
        webidl::operation(
            class,
            "toString",
            0,
            NativeFunction::from_fn_ptr(|this, _, _| {
                let u = this_url(this)?;
                let href = u.borrow().data().href();
                Ok(string_value(&href))
            }),
        );
        Ok(())
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
            .and_then(|u| u.url.borrow().query().map(str::to_owned));
        link_query_object(&object, query.as_deref(), ctx)?;
        Ok(object)
    }
}
