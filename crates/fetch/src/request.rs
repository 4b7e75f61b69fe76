//! [`Request`](https://fetch.spec.whatwg.org/#request-class) as far as bodies go: `method`,
//! `url`, `headers`, the fixed defaults of the other attributes, the Body mixin and
//! `clone()`. URLs are parsed by the host's `URL` when there is one; without it an absolute
//! URL (one with a scheme) is taken as is.

use boa_engine::{
    class::{Class, ClassBuilder},
    js_string,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Gc, Trace};

use super::headers::{self, byte_string_value, is_token_byte, Guard};
use super::{
    body_mixin_attributes, body_mixin_operations, clone_body, extract, is_unusable, Body,
    BodyHolder,
};
use boa_streams::spec::readable_stream_pipe_to;
use boa_streams::spec::{
    transform_stream_default_controller_enqueue, transform_stream_set_up, RustTransformer,
    TransformStreamDefaultController,
};
use boa_webidl::{self as webidl, arg, brand, type_error, Dictionary, INTERFACE_ATTRIBUTES};

pub(crate) fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<RequestInterface>(context)
}

/// The native data of a `Request`.
#[derive(Trace, Finalize, JsData)]
pub struct RequestInterface {
    pub(crate) holder: Gc<BodyHolder>,
    #[unsafe_ignore_trace]
    pub(crate) method: Vec<u8>,
    #[unsafe_ignore_trace]
    pub(crate) url: JsString,
    pub(crate) signal: JsObject,
}

impl std::fmt::Debug for RequestInterface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request").finish_non_exhaustive()
    }
}

fn this_request(this: &JsValue) -> JsResult<JsObject<RequestInterface>> {
    brand::<RequestInterface>(this, "Request")
}

fn with_holder<R>(this: &JsValue, f: impl FnOnce(&Gc<BodyHolder>) -> JsResult<R>) -> JsResult<R> {
    let r = this_request(this)?;
    let holder = r.borrow().data().holder.clone();
    f(&holder)
}

/// Parse `input` as a URL: through the host's `URL` if present, else accept an absolute URL.
pub(crate) fn parse_url(input: &JsString, ctx: &mut Context) -> JsResult<JsString> {
    let url_ctor = ctx.global_object().get(js_string!("URL"), ctx)?;
    if let Some(ctor) = url_ctor.as_object().filter(|c| c.is_constructor()) {
        // Parse with the API base URL (crate::set_api_base_url) when there is one.
        let mut args = vec![input.clone().into()];
        if let Some(base) = crate::api_base_url(ctx) {
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
    if let Some(base) = crate::api_base_url(ctx) {
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

/// A `RequestInit` after conversion (only the members used here, in lexicographic order).
struct RequestInit {
    body: Option<JsValue>,
    duplex: Option<JsString>,
    headers: Option<Vec<headers::Header>>,
    method: Option<Vec<u8>>,
    signal: Option<JsValue>,
}

fn convert_request_init(value: &JsValue, ctx: &mut Context) -> JsResult<RequestInit> {
    let dict = Dictionary::new(value, "init")?;
    let body = dict.get(webidl::js_key!("body"), ctx)?;
    let body = match body {
        Some(v) if !v.is_null() && !super::is_body_init_object(&v, ctx)? => {
            Some(JsValue::from(v.to_string(ctx)?))
        }
        other => other,
    };
    let duplex = match dict.get(webidl::js_key!("duplex"), ctx)? {
        None => None,
        Some(v) => {
            let s = v.to_string(ctx)?;
            if s != js_string!("half") {
                return Err(type_error("'duplex' must be \"half\""));
            }
            Some(s)
        }
    };
    let headers = match dict.get(webidl::js_key!("headers"), ctx)? {
        None => None,
        Some(v) => Some(headers::to_headers_init(&v, ctx)?),
    };
    let method = match dict.get(webidl::js_key!("method"), ctx)? {
        None => None,
        Some(v) => Some(headers::to_byte_string(&v, ctx)?),
    };
    let signal = dict.get(webidl::js_key!("signal"), ctx)?;
    if let Some(s) = &signal {
        if !s.is_null() && !boa_dom::is_abort_signal(s) {
            return Err(type_error("'signal' is not an AbortSignal"));
        }
    }
    Ok(RequestInit {
        body,
        duplex,
        headers,
        method,
        signal,
    })
}

impl Class for RequestInterface {
    const NAME: &'static str = "Request";
    const LENGTH: usize = 1;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::attribute(
            class,
            "method",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let r = this_request(this)?;
                let v = byte_string_value(&r.borrow().data().method);
                Ok(v)
            }),
            None,
        );
        webidl::attribute(
            class,
            "url",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let r = this_request(this)?;
                let v = r.borrow().data().url.clone();
                Ok(v.into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "headers",
            NativeFunction::from_fn_ptr(|this, _, _| {
                with_holder(this, |h| Ok(h.headers.clone().upcast().into()))
            }),
            None,
        );
        // The attributes whose values are fixed without fetch's other machinery.
        for (name, value) in [
            ("destination", ""),
            ("referrer", "about:client"),
            ("referrerPolicy", ""),
            ("mode", "cors"),
            ("credentials", "same-origin"),
            ("cache", "default"),
            ("redirect", "follow"),
            ("integrity", ""),
        ] {
            let getter = NativeFunction::from_copy_closure(move |this, _, _| {
                this_request(this)?;
                Ok(JsString::from(value).into())
            });
            webidl::attribute(class, name, getter, None);
        }
        for name in ["keepalive", "isReloadNavigation", "isHistoryNavigation"] {
            webidl::attribute(
                class,
                name,
                NativeFunction::from_fn_ptr(|this, _, _| {
                    this_request(this)?;
                    Ok(false.into())
                }),
                None,
            );
        }
        webidl::attribute(
            class,
            "signal",
            NativeFunction::from_fn_ptr(|this, _, _| {
                let r = this_request(this)?;
                let v = r.borrow().data().signal.clone();
                Ok(v.into())
            }),
            None,
        );
        webidl::attribute(
            class,
            "duplex",
            NativeFunction::from_fn_ptr(|this, _, _| {
                this_request(this)?;
                Ok(js_string!("half").into())
            }),
            None,
        );
        body_mixin_attributes!(class, with_holder);
        webidl::operation(
            class,
            "clone",
            0,
            NativeFunction::from_fn_ptr(|this, _, ctx| {
                let r = this_request(this)?;
                let (holder, method, url) = {
                    let b = r.borrow();
                    let d = b.data();
                    (d.holder.clone(), d.method.clone(), d.url.clone())
                };
                // 1. If this is unusable, then throw a TypeError.
                if is_unusable(&holder) {
                    return Err(type_error("The request body is already used"));
                }
                // 2. Let clonedRequest be the result of cloning this's request.
                let body = clone_body(&holder, ctx)?;
                let (list, guard) = {
                    let h = holder.headers.borrow();
                    (h.data().list(), h.data().guard())
                };
                let headers_obj = headers::new_headers(guard, list, ctx)?;
                // 3. Let clonedSignal be the result of creating a dependent abort signal from
                //    « this's signal ».
                let this_signal = r.borrow().data().signal.clone();
                let signal = boa_dom::create_dependent_abort_signal(&[this_signal], ctx)?;
                let proto = request_proto(ctx)?;
                Ok(JsObject::from_proto_and_data(
                    Some(proto),
                    RequestInterface {
                        holder: Gc::new(BodyHolder::new(body, headers_obj)),
                        method,
                        url,
                        signal,
                    },
                )
                .into())
            }),
        );
        body_mixin_operations!(class, with_holder);
        webidl::to_string_tag(class, "Request");
        Ok(())
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

        // 5-6. If input is a string: parse it (failure → TypeError). Otherwise request is
        // input's request.
        // 12-13. Let signal be null; if input is a Request, set signal to input's signal.
        let (url, mut method, mut header_list, input_body, mut signal) =
            match (&input_request, input_url) {
                (Some(r), _) => {
                    let b = r.borrow();
                    let d = b.data();
                    let list = d.holder.headers.borrow().data().list();
                    (
                        d.url.clone(),
                        d.method.clone(),
                        list,
                        Some(d.holder.clone()),
                        Some(d.signal.clone()),
                    )
                }
                (None, Some(s)) => (parse_url(&s, ctx)?, b"GET".to_vec(), Vec::new(), None, None),
                (None, None) => return Err(type_error("Invalid request input")),
            };
        // 25. If init["method"] exists: not a method or forbidden → TypeError; normalize.
        if let Some(m) = init.method {
            if m.is_empty() || !m.iter().all(|&b| is_token_byte(b)) {
                return Err(type_error(format!(
                    "'{}' is not a valid HTTP method",
                    String::from_utf8_lossy(&m)
                )));
            }
            let upper = m.to_ascii_uppercase();
            if matches!(upper.as_slice(), b"CONNECT" | b"TRACE" | b"TRACK") {
                return Err(type_error(format!(
                    "'{}' HTTP method is unsupported",
                    String::from_utf8_lossy(&m)
                )));
            }
            method = if matches!(
                upper.as_slice(),
                b"DELETE" | b"GET" | b"HEAD" | b"OPTIONS" | b"POST" | b"PUT"
            ) {
                upper
            } else {
                m
            };
        }
        // 27. If init["signal"] exists, then set signal to it (null included).
        if let Some(s) = &init.signal {
            signal = s.as_object();
        }
        // 29-30. Let signals be « signal » if signal is non-null, otherwise « »; set this's
        //        signal to the result of creating a dependent abort signal from signals.
        let signals: Vec<JsObject> = signal.into_iter().collect();
        let signal = boa_dom::create_dependent_abort_signal(&signals, ctx)?;
        // 30-32. This's headers (guard "request"), filled with init's headers if given,
        // else a copy of input's.
        if let Some(h) = init.headers {
            header_list = Vec::new();
            let headers_obj = headers::new_headers(Guard::Request, Vec::new(), ctx)?;
            headers::fill(headers_obj.borrow().data(), h)?;
            header_list.extend(headers_obj.borrow().data().list());
        }
        let headers_obj = headers::new_headers(Guard::Request, header_list, ctx)?;
        // 34. If either init["body"] exists and is non-null or inputBody is non-null, and
        //     request's method is `GET` or `HEAD`, then throw a TypeError.
        let init_body = init.body.clone().filter(|b| !b.is_null());
        let input_has_body = input_body.as_ref().is_some_and(|h| h.body().is_some());
        if (init_body.is_some() || (init.body.is_none() && input_has_body))
            && (method == b"GET" || method == b"HEAD")
        {
            return Err(type_error("Request with GET/HEAD method cannot have body."));
        }
        // 36. If init["body"] exists and is non-null: extract it; if Content-Type non-null
        //     and this's headers does not contain it, append it.
        let mut final_body: Option<Body> = None;
        if let Some(b) = &init_body {
            let (body, content_type) = extract(b, false, ctx)?;
            if let Some(t) = content_type {
                let h = headers_obj.borrow();
                if !h.data().contains(b"content-type") {
                    h.data().list_append(b"Content-Type", &t);
                }
            }
            // 39. If the body's source is null (a stream): init["duplex"] must exist.
            if body.source.is_none() && init.duplex.is_none() {
                return Err(type_error(
                    "The duplex member must be specified for a request with a streaming body",
                ));
            }
            final_body = Some(body);
        } else if init.body.is_none() {
            // 41. If initBody is null and inputBody is non-null: if input is unusable,
            //     throw a TypeError; finalBody is a proxy for inputBody.
            if let Some(holder) = &input_body {
                if let Some(body) = holder.body() {
                    if is_unusable(holder) {
                        return Err(type_error("The input request's body is already used"));
                    }
                    final_body = Some(proxy_body(&body, ctx)?);
                }
            }
        }
        Ok(JsObject::from_proto_and_data(
            Some(proto),
            RequestInterface {
                holder: Gc::new(BodyHolder::new(final_body, headers_obj)),
                method,
                url,
                signal,
            },
        ))
    }
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
