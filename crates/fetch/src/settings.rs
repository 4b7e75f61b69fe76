//! Per-realm settings an embedder chooses when it registers the Fetch Standard: the
//! [headers policy](HeadersPolicy) (browser guards or none) and the
//! [API base URL](https://html.spec.whatwg.org/multipage/webappapis.html#api-base-url)
//! relative URLs (`new Request("data.json")`, `fetch("./x")`, `Response.redirect("/")`)
//! are parsed against.

use boa_engine::Context;
use boa_gc::{Finalize, Trace};

/// Which [forbidden header](https://fetch.spec.whatwg.org/#forbidden-request-header) rules
/// the `Headers` guards apply.
///
/// A server runtime (WinterTC's Minimum Common API; Node, Deno, Bun and workerd do the same)
/// applies none: `Cookie`, `Origin`, `Host`, `Content-Length` are ordinary request headers
/// and `Set-Cookie` an ordinary response header (`getSetCookie()` returns them). A browser
/// drops forbidden request-headers from a `Request`'s headers and `Set-Cookie` from a
/// `Response`'s. The "immutable" guard (the headers of a received response) applies in both.
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_fetch::register(&mut context).unwrap();
/// let cookie = "new Request('http://a.test/', { headers: { cookie: 'a=1' } }).headers.get('cookie')";
/// let v = context.eval(Source::from_bytes(cookie)).unwrap();
/// assert_eq!(v.as_string().unwrap().to_std_string_escaped(), "a=1");
///
/// boa_fetch::set_headers_policy(&mut context, boa_fetch::HeadersPolicy::Browser);
/// assert!(context.eval(Source::from_bytes(cookie)).unwrap().is_null());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeadersPolicy {
    /// No forbidden-header filtering (the default).
    #[default]
    ServerRuntime,
    /// The browser guards: the Fetch Standard's "request" and "response" guards drop
    /// forbidden request-headers and forbidden response-header names.
    Browser,
}

/// The realm's settings (host-defined data of the realm).
#[derive(Debug, Default, Trace, Finalize, boa_engine::JsData)]
struct Settings {
    #[unsafe_ignore_trace]
    headers_policy: HeadersPolicy,
    #[unsafe_ignore_trace]
    api_base_url: Option<String>,
}

fn with_settings<R>(context: &mut Context, f: impl FnOnce(&mut Settings) -> R) -> R {
    let realm = context.realm().clone();
    let mut host_defined = realm.host_defined_mut();
    if host_defined.get::<Settings>().is_none() {
        host_defined.insert(Settings::default());
    }
    match host_defined.get_mut::<Settings>() {
        Some(settings) => f(settings),
        None => f(&mut Settings::default()),
    }
}

/// Choose the headers policy of the context's current realm (at registration, before scripts
/// make `Headers`: objects already made keep the policy they were made with). The default
/// is [`HeadersPolicy::ServerRuntime`]. See [`HeadersPolicy`] for an example.
pub fn set_headers_policy(context: &mut Context, policy: HeadersPolicy) {
    with_settings(context, |s| s.headers_policy = policy);
}

/// The headers policy of the context's current realm.
///
/// ```
/// let mut context = boa_engine::Context::default();
/// assert_eq!(boa_fetch::headers_policy(&mut context), boa_fetch::HeadersPolicy::ServerRuntime);
/// ```
pub fn headers_policy(context: &mut Context) -> HeadersPolicy {
    with_settings(context, |s| s.headers_policy)
}

/// Set the API base URL of the context's current realm: relative URLs given to `Request`,
/// `fetch()` and `Response.redirect()` are parsed against it (a host sets the URL of its main
/// script or module, e.g. `file:///home/me/app/main.js`; a URL that does not parse is
/// ignored when used). `None` (the default) accepts absolute URLs only.
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut context = Context::default();
/// boa_fetch::register(&mut context).unwrap();
/// boa_fetch::set_api_base_url(&mut context, Some("http://example.test/app/main.js"));
/// let url = context.eval(Source::from_bytes("new Request('data.json').url")).unwrap();
/// assert_eq!(
///     url.as_string().unwrap().to_std_string_escaped(),
///     "http://example.test/app/data.json"
/// );
/// assert_eq!(
///     boa_fetch::api_base_url(&mut context).as_deref(),
///     Some("http://example.test/app/main.js")
/// );
/// ```
pub fn set_api_base_url(context: &mut Context, url: Option<&str>) {
    let url = url.map(str::to_owned);
    with_settings(context, |s| s.api_base_url = url);
}

/// The API base URL of the context's current realm, if one was set with
/// [`set_api_base_url`].
///
/// ```
/// let mut context = boa_engine::Context::default();
/// assert_eq!(boa_fetch::api_base_url(&mut context), None);
/// ```
pub fn api_base_url(context: &mut Context) -> Option<String> {
    with_settings(context, |s| s.api_base_url.clone())
}
