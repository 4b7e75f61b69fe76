//! [`Response`](https://fetch.spec.whatwg.org/#response-class) as far as bodies go: the
//! constructor, `Response.error()`, `Response.json()`, `status`/`statusText`/`ok`/`type`/
//! `url`/`redirected`/`headers`, the Body mixin and `clone()`.

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Gc, Trace};

use crate::body::{
    body_attribute_rows, body_operation_rows, clone_holder, extract, is_body_init_object, Body,
    BodyHolder, BodyMixin,
};
use crate::headers::{self, byte_string_value, Guard};
use boa_webidl::{
    self as webidl, arg, brand, range_error, type_error, Dictionary, Member, INTERFACE_ATTRIBUTES,
};

pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<ResponseInterface>(context)
}

/// A response's [type](https://fetch.spec.whatwg.org/#concept-response-type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ResponseType {
    Basic,
    Default,
    Error,
    OpaqueRedirect,
}

/// The native data of a `Response`.
#[derive(Trace, Finalize, JsData)]
pub struct ResponseInterface {
    pub(crate) holder: Gc<BodyHolder>,
    #[unsafe_ignore_trace]
    pub(crate) type_: Cell<ResponseType>,
    #[unsafe_ignore_trace]
    pub(crate) status: Cell<u16>,
    #[unsafe_ignore_trace]
    pub(crate) status_text: Vec<u8>,
    /// The response's [URL list](https://fetch.spec.whatwg.org/#concept-response-url-list)
    /// (empty for a response made by script).
    #[unsafe_ignore_trace]
    pub(crate) url_list: Vec<JsString>,
}

impl std::fmt::Debug for ResponseInterface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status.get())
            .finish_non_exhaustive()
    }
}

fn this_response(this: &JsValue) -> JsResult<JsObject<ResponseInterface>> {
    brand::<ResponseInterface>(this, "Response")
}

/// A null body status: 101, 103, 204, 205 or 304.
pub(crate) fn is_null_body_status(status: u16) -> bool {
    matches!(status, 101 | 103 | 204 | 205 | 304)
}

/// Whether `text` matches the reason-phrase token production: HTAB, SP, VCHAR, obs-text.
fn is_reason_phrase(text: &[u8]) -> bool {
    text.iter()
        .all(|&b| b == b'\t' || b == b' ' || (0x21..=0x7e).contains(&b) || b >= 0x80)
}

/// A `ResponseInit` after conversion (members in lexicographic order: headers, status,
/// statusText).
struct ResponseInit {
    headers: Option<Vec<headers::Header>>,
    status: u16,
    status_text: Vec<u8>,
}

fn convert_response_init(value: &JsValue, ctx: &mut Context) -> JsResult<ResponseInit> {
    let dict = Dictionary::new(value, "init")?;
    let headers = match dict.get(webidl::js_key!("headers"), ctx)? {
        None => None,
        Some(v) => Some(headers::to_headers_init(&v, ctx)?),
    };
    // unsigned short status = 200.
    let status = match dict.get(webidl::js_key!("status"), ctx)? {
        None => 200,
        Some(v) => {
            let n = v.to_number(ctx)?;
            if n.is_finite() {
                (n.trunc().rem_euclid(65536.0)) as u16
            } else {
                0
            }
        }
    };
    let status_text = match dict.get(webidl::js_key!("statusText"), ctx)? {
        None => Vec::new(),
        Some(v) => headers::to_byte_string(&v, ctx)?,
    };
    Ok(ResponseInit {
        headers,
        status,
        status_text,
    })
}

/// [Initialize a response](https://fetch.spec.whatwg.org/#initialize-a-response) and make
/// the object.
fn initialize_response(
    proto: JsObject,
    init: ResponseInit,
    body: Option<(Body, Option<Vec<u8>>)>,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    // 1. If init["status"] is not in the range 200 to 599, inclusive, throw a RangeError.
    if !(200..=599).contains(&init.status) {
        return Err(range_error(format!(
            "The status provided ({}) is outside the range [200, 599]",
            init.status
        )));
    }
    // 2. If init["statusText"] does not match the reason-phrase token production, throw a
    //    TypeError.
    if !is_reason_phrase(&init.status_text) {
        return Err(type_error("Invalid statusText"));
    }
    // 3-4. Set response's status and status message.
    // 5. If init["headers"] exists, then fill response's headers with init["headers"].
    let headers_obj = headers::new_headers(Guard::Response, Vec::new(), ctx)?;
    if let Some(h) = init.headers {
        headers::fill(headers_obj.borrow().data(), h)?;
    }
    // 6. If body was given:
    let body = match body {
        None => None,
        Some((body, content_type)) => {
            // 1. If response's status is a null body status, then throw a TypeError.
            if is_null_body_status(init.status) {
                return Err(type_error(
                    "Response with null body status cannot have body",
                ));
            }
            // 2. Set response's body to body's body.
            // 3. If body's type is non-null and response's header list does not contain
            //    `Content-Type`, then append (`Content-Type`, body's type).
            if let Some(t) = content_type {
                let h = headers_obj.borrow();
                if !h.data().contains(b"content-type") {
                    h.data().list_append(b"Content-Type", &t);
                }
            }
            Some(body)
        }
    };
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        ResponseInterface {
            holder: Gc::new(BodyHolder::new(body, headers_obj)),
            type_: Cell::new(ResponseType::Default),
            status: Cell::new(init.status),
            status_text: init.status_text,
            url_list: Vec::new(),
        },
    ))
}

pub(crate) fn response_proto(ctx: &mut Context) -> JsResult<JsObject> {
    Ok(ctx
        .get_global_class::<ResponseInterface>()
        .ok_or_else(|| type_error("Response is not registered"))?
        .prototype())
}

impl BodyMixin for ResponseInterface {
    fn holder_of(this: &JsValue) -> JsResult<Gc<BodyHolder>> {
        let r = this_response(this)?;
        let holder = r.borrow().data().holder.clone();
        Ok(holder)
    }
}

/// A new `Response` object in the current realm with `headers_obj` and an empty URL list.
fn new_response(
    body: Option<Body>,
    headers_obj: JsObject<headers::Headers>,
    type_: ResponseType,
    status: u16,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let proto = response_proto(ctx)?;
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        ResponseInterface {
            holder: Gc::new(BodyHolder::new(body, headers_obj)),
            type_: Cell::new(type_),
            status: Cell::new(status),
            status_text: Vec::new(),
            url_list: Vec::new(),
        },
    )
    .into())
}

/// [`type`](https://fetch.spec.whatwg.org/#dom-response-type)
fn type_getter(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    let t = match r.borrow().data().type_.get() {
        ResponseType::Basic => "basic",
        ResponseType::Default => "default",
        ResponseType::Error => "error",
        ResponseType::OpaqueRedirect => "opaqueredirect",
    };
    Ok(JsString::from(t).into())
}

/// [`url`](https://fetch.spec.whatwg.org/#dom-response-url)
fn url(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    // The empty string if this's response's URL is null; otherwise this's response's URL
    // (the last of its URL list), serialized with exclude fragment set to true.
    let url = r.borrow().data().url_list.last().cloned();
    let url = url.map_or_else(JsString::default, |u| {
        let s = u.to_std_string_lossy();
        match s.split_once('#') {
            Some((before, _)) => JsString::from(before),
            None => u,
        }
    });
    Ok(url.into())
}

/// [`redirected`](https://fetch.spec.whatwg.org/#dom-response-redirected)
fn redirected(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    // True if this's response's URL list's size is greater than 1.
    let redirected = r.borrow().data().url_list.len() > 1;
    Ok(redirected.into())
}

/// [`status`](https://fetch.spec.whatwg.org/#dom-response-status)
fn status(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    let status = r.borrow().data().status.get();
    Ok(JsValue::from(status))
}

/// [`ok`](https://fetch.spec.whatwg.org/#dom-response-ok)
fn ok(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    // True if status is an ok status (200 to 299).
    let status = r.borrow().data().status.get();
    Ok((200..=299).contains(&status).into())
}

/// [`statusText`](https://fetch.spec.whatwg.org/#dom-response-statustext)
fn status_text(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    let text = r.borrow().data().status_text.clone();
    Ok(byte_string_value(&text))
}

/// [`headers`](https://fetch.spec.whatwg.org/#dom-response-headers)
fn headers_getter(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let holder = ResponseInterface::holder_of(this)?;
    Ok(holder.headers.clone().upcast().into())
}

/// [`clone()`](https://fetch.spec.whatwg.org/#dom-response-clone)
fn clone(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let r = this_response(this)?;
    let (holder, type_, status, status_text, url_list) = {
        let b = r.borrow();
        let d = b.data();
        (
            d.holder.clone(),
            d.type_.get(),
            d.status.get(),
            d.status_text.clone(),
            d.url_list.clone(),
        )
    };
    // 1-2. If this is unusable, throw a TypeError; let clonedResponse be the result of
    //      cloning this's response.
    let holder = clone_holder(&holder, "response", ctx)?;
    // 3. Return the result of creating a Response object, given clonedResponse, this's
    //    headers's guard, and this's relevant realm.
    let proto = response_proto(ctx)?;
    Ok(JsObject::from_proto_and_data(
        Some(proto),
        ResponseInterface {
            holder,
            type_: Cell::new(type_),
            status: Cell::new(status),
            status_text,
            url_list,
        },
    )
    .into())
}

/// [`Response.error()`](https://fetch.spec.whatwg.org/#dom-response-error)
fn error(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // Return the result of creating a Response object, given a new network error,
    // "immutable", and the current realm.
    let headers_obj = headers::new_headers(Guard::Immutable, Vec::new(), ctx)?;
    new_response(None, headers_obj, ResponseType::Error, 0, ctx)
}

/// [`Response.redirect(url, status)`](https://fetch.spec.whatwg.org/#dom-response-redirect)
fn redirect(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'redirect' on 'Response': 1 argument required, but only 0 present.",
        ));
    }
    // IDL: USVString url, optional unsigned short status = 302.
    let url = arg(args, 0).to_string(ctx)?;
    let url = JsString::from(url.to_std_string_lossy().as_str());
    let status = match arg(args, 1) {
        v if v.is_undefined() => 302,
        v => {
            let n = v.to_number(ctx)?;
            if n.is_finite() {
                n.trunc().rem_euclid(65536.0) as u16
            } else {
                0
            }
        }
    };
    // 1-2. Let parsedURL be the result of parsing url; failure → TypeError.
    let parsed = crate::request::parse_url(&url, ctx)?;
    // 3. If status is not a redirect status, then throw a RangeError.
    if !matches!(status, 301 | 302 | 303 | 307 | 308) {
        return Err(range_error(format!("Invalid status code {status}")));
    }
    // 4. Let responseObject be the result of creating a Response object, given a new
    //    response, "immutable", and the current realm.
    // 5. Set responseObject's response's status to status.
    // 6-7. Append (`Location`, parsedURL serialized and isomorphic encoded).
    let location: Vec<u8> = parsed
        .iter()
        .map(|u| u8::try_from(u).unwrap_or(b'?'))
        .collect();
    let headers_obj = headers::new_headers(
        Guard::Immutable,
        vec![(b"Location".to_vec(), location)],
        ctx,
    )?;
    new_response(None, headers_obj, ResponseType::Default, status, ctx)
}

/// [`Response.json(data, init)`](https://fetch.spec.whatwg.org/#dom-response-json)
fn json(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'json' on 'Response': 1 argument required, but only 0 present.",
        ));
    }
    let data = arg(args, 0);
    let init = convert_response_init(&arg(args, 1), ctx)?;
    // 1. Let bytes the result of running serialize a JavaScript value to JSON bytes on data.
    let json = ctx.intrinsics().objects().json();
    let stringify = json.get(webidl::js_key!("stringify"), ctx)?;
    let Some(stringify) = stringify.as_callable() else {
        return Err(type_error("JSON.stringify is not callable"));
    };
    let s = stringify.call(&json.clone().into(), &[data], ctx)?;
    if s.is_undefined() {
        return Err(type_error("The data is not JSON-serializable"));
    }
    let s = s.to_string(ctx)?;
    // 2. Let body be the result of extracting bytes.
    let (body, _) = extract(&s.into(), false, ctx)?;
    // 3. Let responseObject be a new Response, initialized with init and (body,
    //    "application/json").
    let proto = response_proto(ctx)?;
    Ok(initialize_response(
        proto,
        init,
        Some((body, Some(b"application/json".to_vec()))),
        ctx,
    )?
    .into())
}

impl Class for ResponseInterface {
    const NAME: &'static str = "Response";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        let [body, body_used] = body_attribute_rows::<Self>();
        let [array_buffer, blob, bytes, form_data, json_body, text] = body_operation_rows::<Self>();
        webidl::define(
            class,
            &[
                Member::attribute("type", type_getter),
                Member::attribute("url", url),
                Member::attribute("redirected", redirected),
                Member::attribute("status", status),
                Member::attribute("ok", ok),
                Member::attribute("statusText", status_text),
                Member::attribute("headers", headers_getter),
                // includes Body (its attributes after Response's own).
                body,
                body_used,
                Member::operation("clone", 0, clone),
                array_buffer,
                blob,
                bytes,
                form_data,
                json_body,
                text,
                Member::static_operation("error", 0, error),
                Member::static_operation("redirect", 1, redirect),
                Member::static_operation("json", 1, json),
                Member::to_string_tag("Response"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::require_new(new_target, "Response")?;
        // IDL: optional BodyInit? body = null, optional ResponseInit init = {}.
        let body = arg(args, 0);
        // The BodyInit union is converted first; extraction below (it creates the stream).
        let body_init = if body.is_null_or_undefined() {
            None
        } else {
            Some(body)
        };
        // The union conversion turns anything but its object types into a string, before
        // init is converted.
        let body_init = match body_init {
            Some(v) if !is_body_init_object(&v, ctx)? => Some(JsValue::from(v.to_string(ctx)?)),
            other => other,
        };
        let init = convert_response_init(&arg(args, 1), ctx)?;
        let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;
        // 1-3. Set this's response and headers (guard "response").
        // 4. Let bodyWithType be null.
        // 5. If body is non-null, set bodyWithType to the result of extracting body.
        let body = match body_init {
            None => None,
            Some(v) => Some(extract(&v, false, ctx)?),
        };
        // 6. Perform initialize a response given this, init, and bodyWithType.
        initialize_response(proto, init, body, ctx)
    }
}
