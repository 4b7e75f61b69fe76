//! [`fetch(input, init)`](https://fetch.spec.whatwg.org/#dom-global-fetch) as a server
//! runtime does it (no CORS, no cookie store, no cache): the request is made, then each hop
//! goes to its scheme's handler (`scheme`: `data:` URLs through the data: URL processor,
//! `http:` through hyper's pooled HTTP/1.1 client, ...), redirects followed by the fetch
//! itself (`hop`: each hop is visible: URL list, method changes, the 20-redirect limit).
//! Aborting (the request's signal) ends whatever phase the fetch is in.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use boa_engine::{object::FunctionObjectBuilder, Context, JsResult, JsValue, NativeFunction};
use boa_fetch::network::{construct_request, request_parts};
use boa_gc::{Finalize, Trace};
use boa_webidl::promise::PromiseCapability;
use boa_webidl::{arg, own_error_value, type_error};

use crate::body::abort_incoming;
use crate::hop::{cancel_stream, finish, FetchState, Phase};

/// The captures of the abort algorithm.
#[derive(Trace, Finalize)]
struct AbortCapture(#[unsafe_ignore_trace] Rc<FetchState>);

/// The `fetch(input, init)` method.
pub(crate) fn fetch_method(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    // 1. Let p be a new promise.
    let capability = PromiseCapability::new(ctx);
    if let Err(e) = start(&arg(args, 0), &arg(args, 1), &capability, ctx) {
        let reason = own_error_value(e, ctx);
        capability.reject(reason, ctx);
    }
    Ok(capability.value())
}

/// Steps 2-12 of fetch(): make the request, then fetch it.
fn start(
    input: &JsValue,
    init: &JsValue,
    capability: &PromiseCapability,
    ctx: &mut Context,
) -> JsResult<()> {
    // 2. Let requestObject be the result of invoking the initial value of Request as
    //    constructor with input and init as arguments. If this throws, reject p.
    let request = construct_request(input, init, ctx)?;
    // 3. Let request be requestObject's request.
    let parts = request_parts(&request).ok_or_else(|| type_error("not a Request"))?;
    let streamed = parts.body.is_some() && parts.body_bytes.is_none();
    let state = Rc::new(FetchState {
        capability: capability.clone(),
        signal: RefCell::new(None),
        redirect: parts.redirect,
        cache: parts.cache,
        policy: boa_fetch::headers_policy(ctx),
        method: RefCell::new(parts.method),
        headers: RefCell::new(parts.headers),
        url_list: RefCell::new(vec![parts.url.clone()]),
        body_bytes: RefCell::new(parts.body_bytes),
        body_stream: RefCell::new(if streamed { parts.body.clone() } else { None }),
        streamed_body: Cell::new(streamed),
        integrity: parts.integrity,
        pump: RefCell::new(None),
        phase: RefCell::new(Phase::Done),
        settled: Cell::new(false),
    });
    // 4. If requestObject's signal is aborted, then abort the fetch() call with p, request,
    //    null, and requestObject's signal's abort reason, and return p.
    if boa_dom::is_aborted(&parts.signal) {
        let reason = boa_dom::abort_reason(&parts.signal);
        if let Some(body) = &parts.body {
            cancel_stream(body, reason.clone(), ctx);
        }
        capability.reject(reason, ctx);
        return Ok(());
    }
    // 11. Add the following abort steps to requestObject's signal: abort the fetch() call.
    let algorithm = FunctionObjectBuilder::new(
        ctx.realm(),
        NativeFunction::from_copy_closure_with_captures(
            |_, _, capture: &AbortCapture, ctx| {
                let state = capture.0.clone();
                let reason = state
                    .signal
                    .borrow()
                    .as_ref()
                    .map(|(s, _)| boa_dom::abort_reason(s))
                    .unwrap_or_default();
                abort_fetch(&state, reason, ctx);
                Ok(JsValue::undefined())
            },
            AbortCapture(state.clone()),
        ),
    )
    .build();
    let id = boa_dom::add_abort_algorithm(&parts.signal, algorithm);
    *state.signal.borrow_mut() = Some((parts.signal.clone(), id));
    // 12. Set controller to the result of calling fetch given request.
    crate::scheme::scheme_fetch(&state, ctx);
    Ok(())
}

/// [Abort the fetch() call](https://fetch.spec.whatwg.org/#abort-fetch) with `reason`.
fn abort_fetch(state: &Rc<FetchState>, reason: JsValue, ctx: &mut Context) {
    let phase = std::mem::replace(&mut *state.phase.borrow_mut(), Phase::Done);
    // 1. Reject promise with error (no-op once settled).
    if !state.settled.replace(true) {
        state.capability.reject(reason.clone(), ctx);
    }
    match phase {
        // Drop the in-flight request: hyper closes its connection.
        Phase::Requesting { abort, task } => {
            abort.abort();
            if let Some(task) = task {
                task.abort();
            }
        }
        // 3. If responseObject is null, return. 5-6. If response's body is non-null and
        //    is readable, then error response's body with error.
        Phase::Body {
            stream,
            state: body,
        } => abort_incoming(&stream, &body, reason.clone(), ctx),
        Phase::Done => {}
    }
    // 2. If request's body is non-null and is readable, then cancel request's body with
    //    error.
    let pump = state.pump.borrow_mut().take();
    if let Some((task, reader)) = pump {
        task.abort();
        drop(reader.cancel(reason.clone(), ctx));
    }
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        cancel_stream(&stream, reason, ctx);
    }
    finish(state);
}
