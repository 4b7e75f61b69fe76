//! The request target and `Host` of a request the server received, checked before the
//! script sees the request: [`request_url`] gives `request.url`, or the reason for a 400.
//!
//! The rules (RFC 9110 §7.2 and RFC 9112 §3.2 and §3.3):
//! - A request carries at most one `Host` field line; an HTTP/1.1 request carries exactly
//!   one. Its value is `uri-host [ ":" port ]` (RFC 3986): a reg-name (unreserved
//!   characters, percent-encodings and sub-delims; not empty, as an `http` URI's host must
//!   not be), an IPv4 address (a reg-name by syntax) or `[IPv6]` (zone identifiers and
//!   IPvFuture, which the URL Standard does not take, are refused); a port is digits only.
//! - The target is origin-form (`/path?query`), absolute-form (`http://authority/...` or
//!   `https://...`, without userinfo; its authority is the request's, the `Host` field is
//!   still checked but ignored, RFC 9112 §3.2.2), or `*` for `OPTIONS` (asterisk-form).
//!   Anything else (authority-form, a relative path such as `x`, `*` for another method)
//!   is refused.
//! - `request.url` is made by the URL parser: the validated authority is parsed as an
//!   `http:` URL (the scheme of the connection: this server speaks plain HTTP, so an
//!   absolute-form `https://` target does not make the URL `https:`), then its path and
//!   query are set from the target's (so `//x/y` stays a path and cannot become an
//!   authority). A host the URL parser refuses (an IPv4-looking name out of range, a port
//!   beyond 65535) is a 400 too. For `OPTIONS *` the URL's path is `/*`, as Deno gives
//!   (Node gives the raw `*`, which is not a URL).
//! - An HTTP/1.0 request without `Host` takes the listener's address as its authority.

use std::net::SocketAddr;

/// Why a request is refused with a 400 (the text is for tests and debugging; the response
/// carries no body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BadTarget {
    /// No `Host` in an HTTP/1.1 request.
    MissingHost,
    /// More than one `Host` field line.
    DuplicateHost,
    /// A `Host` value that is not `uri-host [":" port]`.
    InvalidHost,
    /// A request target that is not origin-form, absolute-form nor `*` for `OPTIONS`.
    InvalidTarget,
}

/// Is `value` a valid `Host` field value (`uri-host [ ":" port ]`, host not empty)?
pub(crate) fn valid_host(value: &[u8]) -> bool {
    let (host, port) = split_port(value);
    port.is_none_or(|p| p.iter().all(u8::is_ascii_digit)) && valid_uri_host(host)
}

/// Split `host[:port]` at the port's colon (a colon inside `[...]` is the address's).
fn split_port(value: &[u8]) -> (&[u8], Option<&[u8]>) {
    let search_from = if value.first() == Some(&b'[') {
        match value.iter().position(|&b| b == b']') {
            Some(end) => end,
            None => return (value, None),
        }
    } else {
        0
    };
    match value
        .iter()
        .skip(search_from)
        .position(|&b| b == b':')
        .map(|i| i + search_from)
    {
        Some(colon) => (
            value.get(..colon).unwrap_or_default(),
            value.get(colon + 1..),
        ),
        None => (value, None),
    }
}

/// `uri-host` = IP-literal / IPv4address / reg-name, not empty.
fn valid_uri_host(host: &[u8]) -> bool {
    if let Some(inner) = host
        .strip_prefix(b"[")
        .and_then(|rest| rest.strip_suffix(b"]"))
    {
        // IPv6address only (no zone identifier, no IPvFuture).
        return std::str::from_utf8(inner)
            .ok()
            .is_some_and(|s| s.parse::<std::net::Ipv6Addr>().is_ok());
    }
    !host.is_empty() && valid_reg_name(host)
}

/// reg-name = *( unreserved / pct-encoded / sub-delims ).
fn valid_reg_name(name: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = name.get(i) {
        if b == b'%' {
            let hex = |j: usize| name.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        let ok = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
            );
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

/// The `request.url` of a request with this head received on a listener at `local`, or why
/// it gets a 400.
pub(crate) fn request_url(
    method: &http::Method,
    uri: &http::Uri,
    version: http::Version,
    headers: &http::HeaderMap,
    local: SocketAddr,
) -> Result<String, BadTarget> {
    let mut hosts = headers.get_all(http::header::HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(_), Some(_)) => return Err(BadTarget::DuplicateHost),
        (Some(h), None) if !valid_host(h.as_bytes()) => return Err(BadTarget::InvalidHost),
        (Some(h), None) => Some(h),
        (None, _) if version >= http::Version::HTTP_11 => return Err(BadTarget::MissingHost),
        (None, _) => None,
    };
    let (authority, path, query) = match (uri.scheme_str(), uri.authority()) {
        // absolute-form: its authority wins.
        (Some(scheme), Some(authority)) => {
            let scheme_ok =
                scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
            if !scheme_ok || !valid_host(authority.as_str().as_bytes()) {
                return Err(BadTarget::InvalidTarget);
            }
            let path = match uri.path() {
                "" => "/",
                p => p,
            };
            (authority.as_str().to_owned(), path, uri.query())
        }
        (None, None) => {
            let path = uri.path();
            let path = if path.starts_with('/') {
                path
            } else if path == "*" && uri.query().is_none() && method == http::Method::OPTIONS {
                "/*"
            } else {
                return Err(BadTarget::InvalidTarget);
            };
            let authority = match host {
                Some(h) => h.to_str().map_err(|_| BadTarget::InvalidHost)?.to_owned(),
                None => local.to_string(),
            };
            (authority, path, uri.query())
        }
        _ => return Err(BadTarget::InvalidTarget),
    };
    // The authority is validated (no '/', '?', '#', '@', whitespace): it can only be parsed
    // as one. Path and query go through the parser's setters.
    let mut url =
        url::Url::parse(&format!("http://{authority}/")).map_err(|_| BadTarget::InvalidHost)?;
    if url.host_str().is_none_or(str::is_empty) {
        return Err(BadTarget::InvalidHost);
    }
    url.set_path(path);
    url.set_query(query);
    Ok(url.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_syntax() {
        for good in [
            "x",
            "example.com",
            "example.com:8080",
            "127.0.0.1",
            "127.0.0.1:80",
            "[::1]",
            "[::1]:8000",
            "[2001:db8::7]",
            "a-b_c~d.e",
            "xn--nxasmq6b",
            "%41bc",
            "a!$&'()*+,;=b",
            "x:",
        ] {
            assert!(valid_host(good.as_bytes()), "{good} should be valid");
        }
        for bad in [
            "",
            ":80",
            "x/admin#",
            "x/admin",
            "a b",
            "a\tb",
            "x?y",
            "x#y",
            "user@x",
            "x:8o",
            "x:80:80",
            "[::1",
            "[::1]x",
            "[fe80::1%25eth0]",
            "[v1.x]",
            "[]",
            "::1",
            "%4",
            "%zz",
            "a\\b",
            "é.com",
            "a<b",
            "[::1]:x",
        ] {
            assert!(!valid_host(bad.as_bytes()), "{bad:?} should be invalid");
        }
    }

    fn url_of(
        method: &str,
        target: &str,
        version: http::Version,
        hosts: &[&str],
    ) -> Result<String, BadTarget> {
        let mut headers = http::HeaderMap::new();
        for h in hosts {
            headers.append(http::header::HOST, http::HeaderValue::from_str(h).unwrap());
        }
        let method = http::Method::from_bytes(method.as_bytes()).unwrap();
        let uri: http::Uri = target.parse().unwrap();
        request_url(
            &method,
            &uri,
            version,
            &headers,
            "127.0.0.1:8000".parse().unwrap(),
        )
    }

    #[test]
    fn targets_and_urls() {
        use http::Version as V;
        let ok = |m, t, v, h: &[&str]| url_of(m, t, v, h).unwrap();
        assert_eq!(
            ok("GET", "/a/b?c=d", V::HTTP_11, &["x:81"]),
            "http://x:81/a/b?c=d"
        );
        assert_eq!(
            ok("GET", "//evil/x", V::HTTP_11, &["x"]),
            "http://x//evil/x"
        );
        assert_eq!(ok("GET", "/a/../b", V::HTTP_11, &["x"]), "http://x/b");
        assert_eq!(ok("GET", "/", V::HTTP_11, &["[::1]:8"]), "http://[::1]:8/");
        assert_eq!(
            ok("GET", "/", V::HTTP_11, &["X.Example:80"]),
            "http://x.example/"
        );
        // absolute-form: the target's authority wins; the scheme is the connection's.
        assert_eq!(
            ok("GET", "http://y:82/p?q", V::HTTP_11, &["x"]),
            "http://y:82/p?q"
        );
        assert_eq!(ok("GET", "https://y", V::HTTP_11, &["x"]), "http://y/");
        assert_eq!(ok("OPTIONS", "*", V::HTTP_11, &["x"]), "http://x/*");
        // HTTP/1.0 may omit Host: the listener's address.
        assert_eq!(ok("GET", "/p", V::HTTP_10, &[]), "http://127.0.0.1:8000/p");

        let bad = |m, t, v, h: &[&str]| url_of(m, t, v, h).unwrap_err();
        assert_eq!(
            bad("GET", "/public", V::HTTP_11, &["x/admin#"]),
            BadTarget::InvalidHost
        );
        assert_eq!(
            bad("GET", "/", V::HTTP_11, &["a b"]),
            BadTarget::InvalidHost
        );
        assert_eq!(
            bad("GET", "/", V::HTTP_11, &["x", "y"]),
            BadTarget::DuplicateHost
        );
        assert_eq!(
            bad("GET", "/", V::HTTP_11, &["x", "x"]),
            BadTarget::DuplicateHost
        );
        assert_eq!(
            bad("GET", "/", V::HTTP_10, &["x", "y"]),
            BadTarget::DuplicateHost
        );
        assert_eq!(bad("GET", "/", V::HTTP_11, &[]), BadTarget::MissingHost);
        assert_eq!(
            bad("GET", "x", V::HTTP_11, &["x"]),
            BadTarget::InvalidTarget
        );
        assert_eq!(
            bad("GET", "x:80", V::HTTP_11, &["x"]),
            BadTarget::InvalidTarget
        );
        assert_eq!(
            bad("GET", "*", V::HTTP_11, &["x"]),
            BadTarget::InvalidTarget
        );
        // `*?a` is no URI to the http crate: hyper answers 400 before we see it.
        assert!("*?a".parse::<http::Uri>().is_err());
        assert_eq!(
            bad("GET", "ftp://y/", V::HTTP_11, &["x"]),
            BadTarget::InvalidTarget
        );
        assert_eq!(
            bad("GET", "http://u@y/", V::HTTP_11, &["x"]),
            BadTarget::InvalidTarget
        );
        // absolute-form does not excuse a bad Host.
        assert_eq!(
            bad("GET", "http://y/", V::HTTP_11, &["a b"]),
            BadTarget::InvalidHost
        );
        // Valid by RFC 3986 syntax, refused by the URL parser.
        assert_eq!(
            bad("GET", "/", V::HTTP_11, &["x:99999"]),
            BadTarget::InvalidHost
        );
        assert_eq!(
            bad("GET", "/", V::HTTP_11, &["1.2.3.999"]),
            BadTarget::InvalidHost
        );
    }
}
