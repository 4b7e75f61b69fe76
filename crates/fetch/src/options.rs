//! The fields of a Fetch [request](https://fetch.spec.whatwg.org/#concept-request) that a
//! `Request` reflects and `RequestInit` sets (mode, credentials mode, cache mode, redirect
//! mode, referrer, referrer policy, integrity metadata, keepalive, priority, the navigation
//! flags), the WebIDL enums among them, and their conversion from `RequestInit` members.

use boa_engine::{Context, JsResult, JsValue};
use boa_webidl::type_error;

/// Define a WebIDL enumeration: the Rust enum, its values as strings, and the conversion
/// from a JS value (ToString, then a TypeError naming the member for an unknown value).
macro_rules! webidl_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($idl:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// The IDL value (the string script sees).
            #[must_use]
            #[allow(dead_code)]
            $vis fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $value, )+
                }
            }

            /// The value whose IDL string is `value`, if any.
            #[must_use]
            #[allow(dead_code)]
            $vis fn from_idl(value: &str) -> Option<Self> {
                match value {
                    $( $value => Some(Self::$variant), )+
                    _ => None,
                }
            }

            /// Convert `value` to this enumeration (WebIDL: ToString, then an unknown
            /// value is a TypeError); `member` names the dictionary member in the message.
            #[allow(dead_code)]
            pub(crate) fn convert(value: &JsValue, member: &str, ctx: &mut Context) -> JsResult<Self> {
                let s = value.to_string(ctx)?.to_std_string_lossy();
                Self::from_idl(&s).ok_or_else(|| {
                    type_error(format!(
                        "RequestInit's {member}: \"{s}\" is not a valid {} value (one of {})",
                        $idl,
                        [$( concat!("\"", $value, "\"") ),+].join(", ")
                    ))
                })
            }
        }
    };
}

webidl_enum! {
    /// A request's [mode](https://fetch.spec.whatwg.org/#concept-request-mode) (`RequestMode`).
    /// A server runtime does no CORS: the mode is reflected and validated (`"navigate"` cannot
    /// be set by script, a `"no-cors"` request's method must be `GET`, `HEAD` or `POST`) but
    /// changes nothing on the wire.
    ///
    /// ```
    /// use boa_fetch::RequestMode;
    /// assert_eq!(RequestMode::from_idl("same-origin"), Some(RequestMode::SameOrigin));
    /// assert_eq!(RequestMode::NoCors.as_str(), "no-cors");
    /// assert_eq!(RequestMode::from_idl("sideways"), None);
    /// ```
    pub enum RequestMode ("RequestMode") {
        /// "navigate"
        Navigate = "navigate",
        /// "same-origin"
        SameOrigin = "same-origin",
        /// "no-cors"
        NoCors = "no-cors",
        /// "cors" (what `new Request(url)` gets)
        Cors = "cors",
    }
}

webidl_enum! {
    /// A request's [credentials mode](https://fetch.spec.whatwg.org/#concept-request-credentials-mode)
    /// (`RequestCredentials`). There is no cookie store here: it is reflected only.
    ///
    /// ```
    /// use boa_fetch::RequestCredentials;
    /// assert_eq!(RequestCredentials::from_idl("omit"), Some(RequestCredentials::Omit));
    /// assert_eq!(RequestCredentials::Include.as_str(), "include");
    /// ```
    pub enum RequestCredentials ("RequestCredentials") {
        /// "omit"
        Omit = "omit",
        /// "same-origin" (the default)
        SameOrigin = "same-origin",
        /// "include"
        Include = "include",
    }
}

webidl_enum! {
    /// A request's [cache mode](https://fetch.spec.whatwg.org/#concept-request-cache-mode)
    /// (`RequestCache`). There is no HTTP cache here: `"no-store"`, `"reload"` and
    /// `"no-cache"` add the request headers the standard's HTTP-network-or-cache fetch adds,
    /// and `"only-if-cached"` is a network error.
    ///
    /// ```
    /// use boa_fetch::RequestCache;
    /// assert_eq!(RequestCache::from_idl("no-store"), Some(RequestCache::NoStore));
    /// assert_eq!(RequestCache::OnlyIfCached.as_str(), "only-if-cached");
    /// ```
    pub enum RequestCache ("RequestCache") {
        /// "default"
        Default = "default",
        /// "no-store"
        NoStore = "no-store",
        /// "reload"
        Reload = "reload",
        /// "no-cache"
        NoCache = "no-cache",
        /// "force-cache"
        ForceCache = "force-cache",
        /// "only-if-cached"
        OnlyIfCached = "only-if-cached",
    }
}

webidl_enum! {
    /// A request's [redirect mode](https://fetch.spec.whatwg.org/#concept-request-redirect-mode)
    /// (`RequestRedirect`).
    ///
    /// ```
    /// use boa_fetch::RequestRedirect;
    /// assert_eq!(RequestRedirect::from_idl("manual"), Some(RequestRedirect::Manual));
    /// assert_eq!(RequestRedirect::Follow.as_str(), "follow");
    /// ```
    pub enum RequestRedirect ("RequestRedirect") {
        /// "follow" (the default): follow up to 20 redirects.
        Follow = "follow",
        /// "error": a redirect is a network error.
        Error = "error",
        /// "manual": the redirect response is the answer (its kind depends on the
        /// [`HeadersPolicy`](crate::HeadersPolicy)).
        Manual = "manual",
    }
}

webidl_enum! {
    /// A [referrer policy](https://w3c.github.io/webappsec-referrer-policy/#enumdef-referrerpolicy).
    pub(crate) enum ReferrerPolicy ("ReferrerPolicy") {
        /// ""
        Empty = "",
        /// "no-referrer"
        NoReferrer = "no-referrer",
        /// "no-referrer-when-downgrade"
        NoReferrerWhenDowngrade = "no-referrer-when-downgrade",
        /// "same-origin"
        SameOrigin = "same-origin",
        /// "origin"
        Origin = "origin",
        /// "strict-origin"
        StrictOrigin = "strict-origin",
        /// "origin-when-cross-origin"
        OriginWhenCrossOrigin = "origin-when-cross-origin",
        /// "strict-origin-when-cross-origin"
        StrictOriginWhenCrossOrigin = "strict-origin-when-cross-origin",
        /// "unsafe-url"
        UnsafeUrl = "unsafe-url",
    }
}

webidl_enum! {
    /// A request's [priority](https://fetch.spec.whatwg.org/#request-priority)
    /// (`RequestPriority`): validated, kept, not reflected (the IDL has no getter).
    pub(crate) enum RequestPriority ("RequestPriority") {
        /// "high"
        High = "high",
        /// "low"
        Low = "low",
        /// "auto" (the default)
        Auto = "auto",
    }
}

/// A request's [referrer](https://fetch.spec.whatwg.org/#concept-request-referrer).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // the standard's names
pub(crate) enum Referrer {
    /// "no-referrer" (the getter returns "").
    NoReferrer,
    /// "client" (the getter returns "about:client").
    Client,
    /// A URL (serialized).
    Url(String),
}

/// The request fields `Request` carries besides its method, URL, headers, body and signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RequestOptions {
    pub(crate) mode: RequestMode,
    pub(crate) credentials: RequestCredentials,
    pub(crate) cache: RequestCache,
    pub(crate) redirect: RequestRedirect,
    pub(crate) referrer: Referrer,
    pub(crate) referrer_policy: ReferrerPolicy,
    pub(crate) integrity: String,
    pub(crate) keepalive: bool,
    pub(crate) priority: RequestPriority,
    pub(crate) reload_navigation: bool,
    pub(crate) history_navigation: bool,
}

impl Default for RequestOptions {
    /// A new request's fields (mode "no-cors", as the standard's request starts; the
    /// `Request` constructor sets "cors" for a URL input).
    fn default() -> Self {
        Self {
            mode: RequestMode::NoCors,
            credentials: RequestCredentials::SameOrigin,
            cache: RequestCache::Default,
            redirect: RequestRedirect::Follow,
            referrer: Referrer::Client,
            referrer_policy: ReferrerPolicy::Empty,
            integrity: String::new(),
            keepalive: false,
            priority: RequestPriority::Auto,
            reload_navigation: false,
            history_navigation: false,
        }
    }
}

impl RequestOptions {
    /// The fields of a request made from a URL by `new Request(url)` (mode "cors").
    pub(crate) fn for_url() -> Self {
        Self {
            mode: RequestMode::Cors,
            ..Self::default()
        }
    }

    /// The `referrer` getter's value.
    pub(crate) fn referrer_string(&self) -> String {
        match &self.referrer {
            Referrer::NoReferrer => String::new(),
            Referrer::Client => "about:client".to_owned(),
            Referrer::Url(u) => u.clone(),
        }
    }
}
