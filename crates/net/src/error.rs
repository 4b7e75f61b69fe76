//! Why a fetch failed: a [`NetworkError`], the Fetch Standard's
//! [network error](https://fetch.spec.whatwg.org/#concept-network-error) with what went
//! wrong kept as data. `fetch()` rejects with the `TypeError` the standard asks for, made in
//! one place ([`NetworkError::to_type_error`]). A leaf: every scheme handler speaks it.

use boa_engine::JsError;
use boa_webidl::capabilities::Denied;

/// What kind of failure a [`NetworkError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetworkErrorKind {
    /// The context's capabilities deny the fetch (nothing was sent or read).
    Denied,
    /// The URL's scheme, or the request's method or cache mode for it, is not supported.
    Unsupported,
    /// The request cannot be made: a malformed `data:` URL, a `blob:` URL with no Blob, a
    /// `file:` URL that is no local path, a bad header.
    InvalidRequest,
    /// The connection, the peer or the file failed (DNS, connect, TLS, a read).
    Transport,
    /// The response cannot be used (an undecodable body, a status a handler may not give).
    InvalidResponse,
    /// A redirect that may not be followed (mode "error", a bad `Location`, too many).
    Redirect,
    /// The response body does not match the request's integrity metadata.
    Integrity,
    /// Something on this side failed (the network runtime, a stream, the TLS set-up).
    Internal,
}

/// A network error: its kind, the URL of the hop that failed, and the message `fetch()`'s
/// `TypeError` carries.
///
/// ```
/// use boa_net::{NetworkError, NetworkErrorKind};
///
/// let error = NetworkError::new(
///     NetworkErrorKind::Transport,
///     "http://127.0.0.1:9/",
///     "http://127.0.0.1:9/: connection refused",
/// );
/// assert_eq!(error.to_string(), "fetch failed: http://127.0.0.1:9/: connection refused");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkError {
    /// What kind of failure it is.
    pub kind: NetworkErrorKind,
    /// The URL of the hop that failed (the request's current URL).
    pub url: String,
    /// What went wrong, as the `TypeError`'s message words it (after `fetch failed: `, or,
    /// for [`NetworkErrorKind::Denied`], after `fetch of <url> denied: `).
    pub message: String,
}

impl NetworkError {
    /// A network error of `kind` for the hop to `url`.
    pub fn new(kind: NetworkErrorKind, url: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind,
            url: url.into(),
            message: message.into(),
        }
    }

    /// The fetch of `url` that the context's capabilities deny.
    pub(crate) fn denied(url: &str, denied: &Denied) -> Self {
        Self::new(NetworkErrorKind::Denied, url, denied.reason())
    }

    /// The `TypeError` `fetch()` rejects with (and cancels the request body with).
    ///
    /// ```
    /// use boa_net::{NetworkError, NetworkErrorKind};
    ///
    /// let error = NetworkError::new(NetworkErrorKind::Unsupported, "about:blank", "no");
    /// let mut context = boa_engine::Context::default();
    /// let native = error.to_type_error().try_native(&mut context).unwrap();
    /// assert_eq!(native.message().to_string(), "fetch failed: no");
    /// ```
    pub fn to_type_error(&self) -> JsError {
        boa_webidl::type_error(self.to_string())
    }
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            NetworkErrorKind::Denied => write!(f, "fetch of {} denied: {}", self.url, self.message),
            _ => write!(f, "fetch failed: {}", self.message),
        }
    }
}

impl std::error::Error for NetworkError {}
