//! [`Request`](https://fetch.spec.whatwg.org/#request-class) as far as bodies go: `method`,
//! `url`, `headers`, the fixed defaults of the other attributes, the Body mixin and
//! `clone()`. URLs are parsed by the host's `URL` when there is one; without it an absolute
//! URL (one with a scheme) is taken as is.

use boa_engine::{
    class::{Class, ClassBuilder},
    js_string,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Gc, Trace};

use crate::body::{
    body_attribute_rows, body_operation_rows, clone_holder, extract, is_body_init_object,
    is_unusable, Body, BodyHolder, BodyMixin,
};
use crate::headers::{self, byte_string_value, is_token_byte, Guard};
use boa_streams::spec::readable_stream_pipe_to;
use boa_streams::spec::{
    transform_stream_default_controller_enqueue, transform_stream_set_up, RustTransformer,
    TransformStreamDefaultController,
};
use boa_webidl::{
    self as webidl, arg, brand, type_error, Dictionary, Member, INTERFACE_ATTRIBUTES,
};

use crate::options::{
    Referrer, ReferrerPolicy, RequestCache, RequestCredentials, RequestMode, RequestOptions,
    RequestPriority, RequestRedirect,
};

pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<RequestInterface>(context)
}

/// Reads one of a request's fields for its getter.
type OptionGetter<T> = fn(&RequestOptions) -> T;

/// The native data of a `Request`.
#[derive(Trace, Finalize, JsData)]
pub struct RequestInterface {
    pub(crate) holder: Gc<BodyHolder>,
    #[unsafe_ignore_trace]
    pub(crate) method: Vec<u8>,
    #[unsafe_ignore_trace]
    pub(crate) url: JsString,
    pub(crate) signal: JsObject,
    /// Mode, credentials, cache, redirect, referrer, ... (what `RequestInit` sets).
    #[unsafe_ignore_trace]
    pub(crate) options: RequestOptions,
}

impl std::fmt::Debug for RequestInterface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request").finish_non_exhaustive()
    }
}

fn this_request(this: &JsValue) -> JsResult<JsObject<RequestInterface>> {
    brand::<RequestInterface>(this, "Request")
}

/// Parse `input` as a URL: through the host's `URL` if present, else accept an absolute URL.
pub(crate) fn parse_url(input: &JsString, ctx: &mut Context) -> JsResult<JsString> {
    let url_ctor = ctx.global_object().get(js_string!("URL"), ctx)?;
    if let Some(ctor) = url_ctor.as_object().filter(|c| c.is_constructor()) {
        // Parse with the API base URL (crate::settings::set_api_base_url) when there is one.
        let mut args = vec![input.clone().into()];
        if let Some(base) = crate::settings::api_base_url(ctx) {
            args.push(JsString::from(base.as_str()).into());
        }
        let parsed = ctor.construct(&args, None, ctx).map_err(|_| {
            type_error(format!(
                "Failed to parse URL from {}",
                input.to_std_string_escaped()
            ))
        })?;
        return parsed.get(js_string!("href"), ctx)?.to_string(ctx);
    }
    let s = input.to_std_string_lossy();
    // Without a `URL` class, the url crate's parser resolves against the API base URL.
    if let Some(base) = crate::settings::api_base_url(ctx) {
        return url::Url::parse(&base)
            .and_then(|base| base.join(&s))
            .map(|u| JsString::from(u.as_str()))
            .map_err(|_| type_error(format!("Failed to parse URL from {s}")));
    }
    // NOTE: without a URL parser or base only absolute URLs are accepted, unchanged.
    let has_scheme = s.split_once(':').is_some_and(|(scheme, _)| {
        scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if !has_scheme {
        return Err(type_error(format!("Failed to parse URL from {s}")));
    }
    Ok(JsString::from(s.as_str()))
}

/// A `RequestInit` after conversion: each member, `None` when absent (members in
/// lexicographic order, as WebIDL converts them: each is read and converted before the next
/// is read, so an invalid enum value throws before the later getters run).
#[derive(Default)]
struct RequestInit {
    body: Option<JsValue>,
    cache: Option<RequestCache>,
    credentials: Option<RequestCredentials>,
    duplex: Option<JsString>,
    headers: Option<Vec<headers::Header>>,
    integrity: Option<String>,
    keepalive: Option<bool>,
    method: Option<Vec<u8>>,
    mode: Option<RequestMode>,
    priority: Option<RequestPriority>,
    redirect: Option<RequestRedirect>,
    referrer: Option<String>,
    referrer_policy: Option<ReferrerPolicy>,
    signal: Option<JsValue>,
    window: Option<JsValue>,
}

impl RequestInit {
    /// Whether the dictionary [is empty](https://webidl.spec.whatwg.org/#dfn-dictionary)
    /// (no member present), as the constructor's "if init is not empty" asks.
    fn is_empty(&self) -> bool {
        self.body.is_none()
            && self.cache.is_none()
            && self.credentials.is_none()
            && self.duplex.is_none()
            && self.headers.is_none()
            && self.integrity.is_none()
            && self.keepalive.is_none()
            && self.method.is_none()
            && self.mode.is_none()
            && self.priority.is_none()
            && self.redirect.is_none()
            && self.referrer.is_none()
            && self.referrer_policy.is_none()
            && self.signal.is_none()
            && self.window.is_none()
    }
}

fn convert_request_init(value: &JsValue, ctx: &mut Context) -> JsResult<RequestInit> {
    let dict = Dictionary::new(value, "init")?;
    let body = match dict.get(webidl::js_key!("body"), ctx)? {
        Some(v) if !v.is_null() && !is_body_init_object(&v, ctx)? => {
            Some(JsValue::from(v.to_string(ctx)?))
        }
        other => other,
    };
    let mut init = RequestInit {
        body,
        ..RequestInit::default()
    };
    if let Some(v) = dict.get(webidl::js_key!("cache"), ctx)? {
        init.cache = Some(RequestCache::convert(&v, "cache", ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("credentials"), ctx)? {
        init.credentials = Some(RequestCredentials::convert(&v, "credentials", ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("duplex"), ctx)? {
        let s = v.to_string(ctx)?;
        if s != js_string!("half") {
            return Err(type_error(format!(
                "RequestInit's duplex: \"{}\" is not a valid RequestDuplex value (only \"half\")",
                s.to_std_string_lossy()
            )));
        }
        init.duplex = Some(s);
    }
    if let Some(v) = dict.get(webidl::js_key!("headers"), ctx)? {
        init.headers = Some(headers::to_headers_init(&v, ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("integrity"), ctx)? {
        init.integrity = Some(v.to_string(ctx)?.to_std_string_lossy());
    }
    if let Some(v) = dict.get(webidl::js_key!("keepalive"), ctx)? {
        init.keepalive = Some(v.to_boolean());
    }
    if let Some(v) = dict.get(webidl::js_key!("method"), ctx)? {
        init.method = Some(headers::to_byte_string(&v, ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("mode"), ctx)? {
        init.mode = Some(RequestMode::convert(&v, "mode", ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("priority"), ctx)? {
        init.priority = Some(RequestPriority::convert(&v, "priority", ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("redirect"), ctx)? {
        init.redirect = Some(RequestRedirect::convert(&v, "redirect", ctx)?);
    }
    if let Some(v) = dict.get(webidl::js_key!("referrer"), ctx)? {
        // USVString: lone surrogates become U+FFFD.
        init.referrer = Some(v.to_string(ctx)?.to_std_string_lossy());
    }
    if let Some(v) = dict.get(webidl::js_key!("referrerPolicy"), ctx)? {
        init.referrer_policy = Some(ReferrerPolicy::convert(&v, "referrerPolicy", ctx)?);
    }
    init.signal = dict.get(webidl::js_key!("signal"), ctx)?;
    if let Some(s) = &init.signal {
        if !s.is_null() && !boa_dom::is_abort_signal(s) {
            return Err(type_error("RequestInit's signal is not an AbortSignal"));
        }
    }
    // `any`: present unless undefined.
    init.window = dict.get(webidl::js_key!("window"), ctx)?;
    Ok(init)
}

/// Whether `href` (a serialized URL) [includes credentials](https://url.spec.whatwg.org/#include-credentials).
fn includes_credentials(href: &str) -> bool {
    url::Url::parse(href).is_ok_and(|u| !u.username().is_empty() || u.password().is_some())
}

/// The origin of the realm's API base URL when it is a tuple origin (an `http:` page, the
/// WPT runner's); `None` for no base URL or an opaque origin (a `file:` script), where a
/// server runtime has no origin to compare a referrer with (undici keeps the referrer then).
fn realm_origin(ctx: &mut Context) -> Option<url::Origin> {
    let base = crate::settings::api_base_url(ctx)?;
    let origin = url::Url::parse(&base).ok()?.origin();
    origin.is_tuple().then_some(origin)
}

impl BodyMixin for RequestInterface {
    fn holder_of(this: &JsValue) -> JsResult<Gc<BodyHolder>> {
        let r = this_request(this)?;
        let holder = r.borrow().data().holder.clone();
        Ok(holder)
    }
}

/// [`method`](https://fetch.spec.whatwg.org/#dom-request-method)
fn method(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_request(this)?;
    let v = byte_string_value(&r.borrow().data().method);
    Ok(v)
}

/// [`url`](https://fetch.spec.whatwg.org/#dom-request-url)
fn url(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_request(this)?;
    let v = r.borrow().data().url.clone();
    Ok(v.into())
}

/// [`headers`](https://fetch.spec.whatwg.org/#dom-request-headers)
fn headers_getter(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let holder = RequestInterface::holder_of(this)?;
    Ok(holder.headers.clone().upcast().into())
}

/// [`destination`](https://fetch.spec.whatwg.org/#dom-request-destination): "" for every
/// request script can make.
fn destination(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    this_request(this)?;
    Ok(js_string!("").into())
}

/// A string attribute reflecting one of the request's fields.
fn option_string(this: &JsValue, read: OptionGetter<String>) -> JsResult<JsValue> {
    let r = this_request(this)?;
    let v = read(&r.borrow().data().options);
    Ok(JsString::from(v.as_str()).into())
}

/// A boolean attribute reflecting one of the request's flags.
fn option_flag(this: &JsValue, read: OptionGetter<bool>) -> JsResult<JsValue> {
    let r = this_request(this)?;
    let v = read(&r.borrow().data().options);
    Ok(v.into())
}

/// [`referrer`](https://fetch.spec.whatwg.org/#dom-request-referrer)
fn referrer(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, RequestOptions::referrer_string)
}

/// [`referrerPolicy`](https://fetch.spec.whatwg.org/#dom-request-referrerpolicy)
fn referrer_policy(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, |o| o.referrer_policy.as_str().to_owned())
}

/// [`mode`](https://fetch.spec.whatwg.org/#dom-request-mode)
fn mode(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, |o| o.mode.as_str().to_owned())
}

/// [`credentials`](https://fetch.spec.whatwg.org/#dom-request-credentials)
fn credentials(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, |o| o.credentials.as_str().to_owned())
}

/// [`cache`](https://fetch.spec.whatwg.org/#dom-request-cache)
fn cache(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, |o| o.cache.as_str().to_owned())
}

/// [`redirect`](https://fetch.spec.whatwg.org/#dom-request-redirect)
fn redirect(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, |o| o.redirect.as_str().to_owned())
}

/// [`integrity`](https://fetch.spec.whatwg.org/#dom-request-integrity)
fn integrity(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_string(this, |o| o.integrity.clone())
}

/// [`keepalive`](https://fetch.spec.whatwg.org/#dom-request-keepalive)
fn keepalive(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_flag(this, |o| o.keepalive)
}

/// [`isReloadNavigation`](https://fetch.spec.whatwg.org/#dom-request-isreloadnavigation)
fn is_reload_navigation(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_flag(this, |o| o.reload_navigation)
}

/// [`isHistoryNavigation`](https://fetch.spec.whatwg.org/#dom-request-ishistorynavigation)
fn is_history_navigation(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    option_flag(this, |o| o.history_navigation)
}

/// [`signal`](https://fetch.spec.whatwg.org/#dom-request-signal)
fn signal(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_request(this)?;
    let v = r.borrow().data().signal.clone();
    Ok(v.into())
}

/// [`duplex`](https://fetch.spec.whatwg.org/#dom-request-duplex): always "half".
fn duplex(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    this_request(this)?;
    Ok(js_string!("half").into())
}

/// [`clone()`](https://fetch.spec.whatwg.org/#dom-request-clone)
fn clone(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = this_request(this)?;
    let (holder, method, url, options) = {
        let b = r.borrow();
        let d = b.data();
        (
            d.holder.clone(),
            d.method.clone(),
            d.url.clone(),
            d.options.clone(),
        )
    };
    // 1-2. If this is unusable, throw a TypeError; let clonedRequest be the result of
    //      cloning this's request.
    let holder = clone_holder(&holder, "request", ctx)?;
    // 3. Let clonedSignal be the result of creating a dependent abort signal from « this's
    //    signal ».
    let this_signal = r.borrow().data().signal.clone();
    let signal = boa_dom::create_dependent_abort_signal(&[this_signal], ctx)?;
    let proto = request_proto(ctx)?;
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        RequestInterface {
            holder,
            method,
            url,
            signal,
            options,
        },
    )
    .into())
}

impl Class for RequestInterface {
    const NAME: &'static str = "Request";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        let [body, body_used] = body_attribute_rows::<Self>();
        let [array_buffer, blob, bytes, form_data, json, text] = body_operation_rows::<Self>();
        webidl::define(
            class,
            &[
                Member::attribute("method", method),
                Member::attribute("url", url),
                Member::attribute("headers", headers_getter),
                Member::attribute("destination", destination),
                Member::attribute("referrer", referrer),
                Member::attribute("referrerPolicy", referrer_policy),
                Member::attribute("mode", mode),
                Member::attribute("credentials", credentials),
                Member::attribute("cache", cache),
                Member::attribute("redirect", redirect),
                Member::attribute("integrity", integrity),
                Member::attribute("keepalive", keepalive),
                Member::attribute("isReloadNavigation", is_reload_navigation),
                Member::attribute("isHistoryNavigation", is_history_navigation),
                Member::attribute("signal", signal),
                Member::attribute("duplex", duplex),
                // includes Body (its attributes after Request's own).
                body,
                body_used,
                Member::operation("clone", 0, clone),
                array_buffer,
                blob,
                bytes,
                form_data,
                json,
                text,
                Member::to_string_tag("Request"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::require_new(new_target, "Request")?;
        if args.is_empty() {
            return Err(type_error(
                "Failed to construct 'Request': 1 argument required, but only 0 present.",
            ));
        }
        // IDL: RequestInfo input (Request or USVString), optional RequestInit init = {}.
        let input = arg(args, 0);
        let input_request = input
            .as_object()
            .and_then(|o| o.clone().downcast::<RequestInterface>().ok());
        let input_url = match &input_request {
            Some(_) => None,
            None => Some(JsString::from(
                input.to_string(ctx)?.to_std_string_lossy().as_str(),
            )),
        };
        let init = convert_request_init(&arg(args, 1), ctx)?;
        let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;

        let mut request = request_from_input(input_request.as_ref(), input_url, ctx)?;
        apply_init_options(&init, &mut request.options, ctx)?;
        // 25. If init["method"] exists: not a method or forbidden → TypeError; normalize.
        if let Some(m) = &init.method {
            request.method = normalized_method(m)?;
        }
        // 26. If init["signal"] exists, then set signal to it (null included).
        if let Some(s) = &init.signal {
            request.signal = s.as_object();
        }
        // 27. If init["priority"] exists, set request's priority to it.
        if let Some(priority) = init.priority {
            request.options.priority = priority;
        }
        let InputRequest {
            url,
            method,
            header_list,
            input_body,
            signal,
            options,
        } = request;
        // 29-30. Let signals be « signal » if signal is non-null, otherwise « »; set this's
        //        signal to the result of creating a dependent abort signal from signals.
        let signals: Vec<JsObject> = signal.into_iter().collect();
        let signal = boa_dom::create_dependent_abort_signal(&signals, ctx)?;
        // 32. If this's request's mode is "no-cors": its method must be a CORS-safelisted
        //     method. (The "request-no-cors" guard filters nothing here: no CORS.)
        if options.mode == RequestMode::NoCors
            && !matches!(method.as_slice(), b"GET" | b"HEAD" | b"POST")
        {
            return Err(type_error(format!(
                "'{}' is not allowed with mode \"no-cors\" (only GET, HEAD and POST)",
                String::from_utf8_lossy(&method)
            )));
        }
        // 31, 33. This's headers (guard "request"), filled with init's headers if given,
        //         else a copy of input's.
        let header_list = match init.headers.clone() {
            Some(h) => {
                let headers_obj = headers::new_headers(Guard::Request, Vec::new(), ctx)?;
                headers::fill(headers_obj.borrow().data(), h)?;
                let list = headers_obj.borrow().data().list();
                list
            }
            None => header_list,
        };
        let headers_obj = headers::new_headers(Guard::Request, header_list, ctx)?;
        let final_body = final_body(
            &init,
            input_body.as_ref(),
            &method,
            &options,
            &headers_obj,
            ctx,
        )?;
        Ok(JsObject::from_proto_and_data(
            Some(proto),
            RequestInterface {
                holder: Gc::new(BodyHolder::new(final_body, headers_obj)),
                method,
                url,
                signal,
                options,
            },
        ))
    }
}

/// What the `Request` constructor starts from: the request input names (steps 5-6), changed
/// by init's members before the object is made.
struct InputRequest {
    url: JsString,
    method: Vec<u8>,
    header_list: Vec<headers::Header>,
    input_body: Option<Gc<BodyHolder>>,
    signal: Option<JsObject>,
    options: RequestOptions,
}

/// The `Request` constructor's steps 5-6: the request `input` names, with its signal.
fn request_from_input(
    input_request: Option<&JsObject<RequestInterface>>,
    input_url: Option<JsString>,
    ctx: &mut Context,
) -> JsResult<InputRequest> {
    match (input_request, input_url) {
        // 6. Otherwise request is input's request and signal is input's signal.
        (Some(r), _) => {
            let b = r.borrow();
            let d = b.data();
            let list = d.holder.headers.borrow().data().list();
            Ok(InputRequest {
                url: d.url.clone(),
                method: d.method.clone(),
                header_list: list,
                input_body: Some(d.holder.clone()),
                signal: Some(d.signal.clone()),
                options: d.options.clone(),
            })
        }
        // 5. If input is a string: parse it with baseURL (failure: TypeError); if it
        //    includes credentials, throw a TypeError; fallbackMode is "cors".
        (None, Some(s)) => {
            let url = parse_url(&s, ctx)?;
            if includes_credentials(&url.to_std_string_lossy()) {
                return Err(type_error(format!(
                    "Request cannot be constructed from a URL that includes credentials: {}",
                    s.to_std_string_lossy()
                )));
            }
            Ok(InputRequest {
                url,
                method: b"GET".to_vec(),
                header_list: Vec::new(),
                input_body: None,
                signal: None,
                options: RequestOptions::for_url(),
            })
        }
        (None, None) => Err(type_error("Invalid request input")),
    }
}

/// The `Request` constructor's steps 10 and 13-24: `init`'s window check and the request
/// fields it sets.
fn apply_init_options(
    init: &RequestInit,
    options: &mut RequestOptions,
    ctx: &mut Context,
) -> JsResult<()> {
    // 10. If init["window"] exists and is non-null, then throw a TypeError.
    if init.window.as_ref().is_some_and(|w| !w.is_null()) {
        return Err(type_error("RequestInit's window must be null"));
    }
    // 13. If init is not empty: mode "navigate" becomes "same-origin", the navigation flags
    //     are unset, referrer is "client" and referrer policy the empty string.
    if !init.is_empty() {
        if options.mode == RequestMode::Navigate {
            options.mode = RequestMode::SameOrigin;
        }
        options.reload_navigation = false;
        options.history_navigation = false;
        options.referrer = Referrer::Client;
        options.referrer_policy = ReferrerPolicy::Empty;
    }
    // 14. If init["referrer"] exists: "" is "no-referrer"; otherwise parse it with baseURL
    //     (failure: TypeError); about:client or another origin than this realm's is
    //     "client", else the parsed URL.
    if let Some(referrer) = &init.referrer {
        options.referrer = init_referrer(referrer, ctx)?;
    }
    // 15. If init["referrerPolicy"] exists, set request's referrer policy to it.
    if let Some(policy) = init.referrer_policy {
        options.referrer_policy = policy;
    }
    // 16-18. mode is init["mode"] (or fallbackMode); "navigate" is a TypeError.
    if let Some(mode) = init.mode {
        if mode == RequestMode::Navigate {
            return Err(type_error(
                "RequestInit's mode cannot be \"navigate\" (only a navigation has it)",
            ));
        }
        options.mode = mode;
    }
    // 19-20. credentials and cache.
    if let Some(credentials) = init.credentials {
        options.credentials = credentials;
    }
    if let Some(cache) = init.cache {
        options.cache = cache;
    }
    // 21. "only-if-cached" needs mode "same-origin".
    if options.cache == RequestCache::OnlyIfCached && options.mode != RequestMode::SameOrigin {
        return Err(type_error(
            "RequestInit's cache \"only-if-cached\" can be set only with mode \"same-origin\"",
        ));
    }
    // 22-24. redirect, integrity, keepalive.
    if let Some(redirect) = init.redirect {
        options.redirect = redirect;
    }
    if let Some(integrity) = init.integrity.clone() {
        options.integrity = integrity;
    }
    if let Some(keepalive) = init.keepalive {
        options.keepalive = keepalive;
    }
    Ok(())
}

/// The `Request` constructor's step 14 for a given `init["referrer"]`.
fn init_referrer(referrer: &str, ctx: &mut Context) -> JsResult<Referrer> {
    if referrer.is_empty() {
        return Ok(Referrer::NoReferrer);
    }
    let parsed = parse_url(&JsString::from(referrer), ctx)
        .map_err(|_| {
            type_error(format!(
                "RequestInit's referrer: \"{referrer}\" is not a valid URL"
            ))
        })?
        .to_std_string_lossy();
    let parsed_url = url::Url::parse(&parsed).ok();
    let about_client = parsed_url
        .as_ref()
        .is_some_and(|u| u.scheme() == "about" && u.path() == "client");
    let cross_origin = match (realm_origin(ctx), &parsed_url) {
        (Some(origin), Some(u)) => u.origin() != origin,
        (Some(_), None) => true,
        (None, _) => false,
    };
    Ok(if about_client || cross_origin {
        Referrer::Client
    } else {
        Referrer::Url(parsed)
    })
}

/// The `Request` constructor's step 25 for a given `init["method"]`: a TypeError when it is
/// not a method or is forbidden; otherwise the method, normalized.
fn normalized_method(m: &[u8]) -> JsResult<Vec<u8>> {
    if m.is_empty() || !m.iter().all(|&b| is_token_byte(b)) {
        return Err(type_error(format!(
            "'{}' is not a valid HTTP method",
            String::from_utf8_lossy(m)
        )));
    }
    let upper = m.to_ascii_uppercase();
    if matches!(upper.as_slice(), b"CONNECT" | b"TRACE" | b"TRACK") {
        return Err(type_error(format!(
            "'{}' HTTP method is unsupported",
            String::from_utf8_lossy(m)
        )));
    }
    Ok(
        if matches!(
            upper.as_slice(),
            b"DELETE" | b"GET" | b"HEAD" | b"OPTIONS" | b"POST" | b"PUT"
        ) {
            upper
        } else {
            m.to_vec()
        },
    )
}

/// The `Request` constructor's steps 34-41: the request's body, from `init["body"]` or a
/// proxy of the input's (`Content-Type` appended to `headers_obj` when extraction gives one).
fn final_body(
    init: &RequestInit,
    input_body: Option<&Gc<BodyHolder>>,
    method: &[u8],
    options: &RequestOptions,
    headers_obj: &JsObject<headers::Headers>,
    ctx: &mut Context,
) -> JsResult<Option<Body>> {
    // 34-35. If either init["body"] exists and is non-null or inputBody is non-null, and
    //        request's method is `GET` or `HEAD`, then throw a TypeError.
    let init_body = init.body.clone().filter(|b| !b.is_null());
    let input_has_body = input_body.is_some_and(|h| h.body().is_some());
    if (init_body.is_some() || (init.body.is_none() && input_has_body))
        && (method == b"GET" || method == b"HEAD")
    {
        return Err(type_error("Request with GET/HEAD method cannot have body."));
    }
    // 39.2. A body whose source is null (a stream) needs mode "same-origin" or "cors".
    let stream_mode_ok = matches!(options.mode, RequestMode::SameOrigin | RequestMode::Cors);
    let stream_mode_error = || {
        type_error(format!(
            "A request with a streaming body cannot have mode \"{}\"",
            options.mode.as_str()
        ))
    };
    // 37. If init["body"] exists and is non-null: extract it (with request's keepalive); if
    //     Content-Type is non-null and this's headers does not contain it, append it.
    if let Some(b) = &init_body {
        let (body, content_type) = extract(b, options.keepalive, ctx)?;
        if let Some(t) = content_type {
            let h = headers_obj.borrow();
            if !h.data().contains(b"content-type") {
                h.data().list_append(b"Content-Type", &t);
            }
        }
        // 39. If the body's source is null (a stream): init["duplex"] must exist.
        if body.source.is_none() {
            if init.duplex.is_none() {
                return Err(type_error(
                    "The duplex member must be specified for a request with a streaming body",
                ));
            }
            if !stream_mode_ok {
                return Err(stream_mode_error());
            }
        }
        return Ok(Some(body));
    }
    if init.body.is_some() {
        return Ok(None);
    }
    // 41. If initBody is null and inputBody is non-null: if input is unusable, throw a
    //     TypeError; finalBody is a proxy for inputBody.
    let Some(holder) = input_body else {
        return Ok(None);
    };
    let Some(body) = holder.body() else {
        return Ok(None);
    };
    if body.source.is_none() && !stream_mode_ok {
        return Err(stream_mode_error());
    }
    if is_unusable(holder) {
        return Err(type_error("The input request's body is already used"));
    }
    Ok(Some(proxy_body(&body, ctx)?))
}

/// The `Request` constructor's proxy of an input body (Fetch, `new Request(input, init)`
/// step 41: "set finalBody to the result of creating a proxy for inputBody"): a new
/// identity `TransformStream`, input's stream piped to its writable side (which disturbs
/// and locks the input's stream), and a body whose stream is its readable side.
fn proxy_body(body: &Body, ctx: &mut Context) -> JsResult<Body> {
    // Let transformStream be a new TransformStream; set it up with an identity
    // transformAlgorithm (enqueue the chunk).
    let transform = transform_stream_set_up(
        JsValue::undefined(),
        RustTransformer {
            transform: identity_transform,
            transform_bytes: None,
            flush: identity_flush,
        },
        ctx,
    )?;
    let (readable, writable) = {
        let t = transform.borrow();
        (t.data().readable(), t.data().writable_slots())
    };
    let (Some(readable), Some(writable)) = (readable, writable) else {
        return Err(type_error("The proxy TransformStream is not set up"));
    };
    // Let promise be ! ReadableStreamPipeTo(body's stream, transformStream.[[writable]],
    // false, false, false); set promise.[[PromiseIsHandled]] to true.
    let promise = readable_stream_pipe_to(&body.stream, &writable, false, false, false, None, ctx)?;
    boa_webidl::promise::mark_as_handled(&promise, ctx);
    // A body whose stream is transformStream.[[readable]] and source is body's source.
    Ok(Body {
        stream: readable,
        source: body.source.clone(),
    })
}

/// The proxy's transformAlgorithm: enqueue the chunk unchanged.
fn identity_transform(
    _: &JsValue,
    chunk: JsValue,
    controller: &JsObject<TransformStreamDefaultController>,
    ctx: &mut Context,
) -> JsResult<()> {
    transform_stream_default_controller_enqueue(controller, chunk, ctx)
}

/// The proxy's flushAlgorithm: nothing to flush.
fn identity_flush(
    _: &JsValue,
    _: &JsObject<TransformStreamDefaultController>,
    _: &mut Context,
) -> JsResult<()> {
    Ok(())
}

pub(crate) fn request_proto(ctx: &mut Context) -> JsResult<JsObject> {
    Ok(ctx
        .get_global_class::<RequestInterface>()
        .ok_or_else(|| type_error("Request is not registered"))?
        .prototype())
}
