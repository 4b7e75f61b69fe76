//! [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch) "blob": a response for the
//! Blob a `blob:` URL names in the blob URL store (boa_fileapi's), its body the Blob's bytes
//! streamed (`Blob.stream()`'s source: chunks shared with the Blob, never copied whole).

use boa_engine::{Context, JsObject};
use boa_fetch::headers::Header;
use boa_fetch::network::{NetworkResponse, ResponseKind};
use boa_streams::native::ReadableStream;

use super::{SchemeFetch, SchemeHandler};
use crate::error::NetworkErrorKind;
use crate::hop::{finish, network_error, respond};

/// A blob: response: status, status message, header list and body.
pub(crate) struct BlobResponse {
    pub(crate) status: u16,
    pub(crate) status_text: &'static [u8],
    pub(crate) headers: Vec<Header>,
    pub(crate) body: JsObject<ReadableStream>,
}

/// [Parse a single range header value](https://fetch.spec.whatwg.org/#simple-range-header-value)
/// with allowWhitespace true: `(start, end)`, either null but not both; `None` is failure.
fn parse_single_range(value: &[u8]) -> Option<(Option<u64>, Option<u64>)> {
    let ws = |c: &u8| *c == b' ' || *c == b'\t';
    let mut rest = value;
    let skip_ws = |r: &mut &[u8]| {
        while r.first().is_some_and(ws) {
            *r = r.get(1..).unwrap_or_default();
        }
    };
    let digits = |r: &mut &[u8]| -> Result<Option<u64>, ()> {
        let n = r.iter().take_while(|c| c.is_ascii_digit()).count();
        let (d, tail) = r.split_at(n);
        *r = tail;
        if d.is_empty() {
            return Ok(None);
        }
        // A number too large for u64 is past every blob's end: failure.
        std::str::from_utf8(d)
            .ok()
            .and_then(|s| s.parse().ok())
            .map(Some)
            .ok_or(())
    };
    // 3-4. Let rangeUnit be the code points up to HTTP tab or space or "="; it must be
    //    "bytes" (ASCII case-insensitive).
    let unit_len = rest.iter().take_while(|c| !ws(c) && **c != b'=').count();
    let (unit, tail) = rest.split_at(unit_len);
    if !unit.eq_ignore_ascii_case(b"bytes") {
        return None;
    }
    rest = tail;
    // 5-7. Optional whitespace, then "=".
    skip_ws(&mut rest);
    rest = rest.strip_prefix(b"=")?;
    // 8-10. Optional whitespace, rangeStart.
    skip_ws(&mut rest);
    let start = digits(&mut rest).ok()?;
    // 11-13. Optional whitespace, then "-".
    skip_ws(&mut rest);
    rest = rest.strip_prefix(b"-")?;
    // 14-16. Optional whitespace, rangeEnd.
    skip_ws(&mut rest);
    let end = digits(&mut rest).ok()?;
    // 17. If position is not past the end of data, then return failure.
    if !rest.is_empty() {
        return None;
    }
    match (start, end) {
        // 18. If rangeEndValue and rangeStartValue are null, then return failure.
        (None, None) => None,
        // 19. If rangeStartValue > rangeEndValue, then return failure.
        (Some(s), Some(e)) if s > e => None,
        // 20. Return (rangeStartValue, rangeEndValue).
        r => Some(r),
    }
}

/// Scheme fetch "blob" for `url` with `method` and the request's `headers`; `Err` is the
/// network error's message.
// NOTE: the Fetch Standard resolves the blob URL entry when the URL is parsed (a `Request`
// made before `URL.revokeObjectURL` still fetches); here it is resolved when the fetch
// starts.
fn blob_fetch(
    url: &str,
    method: &[u8],
    headers: &[Header],
    ctx: &mut Context,
) -> Result<BlobResponse, String> {
    // 1. Let blobURLEntry be request's current URL's blob URL entry.
    let entry = boa_fileapi::blob_url::resolve_blob_url(url, ctx);
    // 2. If request's method is not `GET` or blobURLEntry is null, then return a network
    //    error.
    if method != b"GET" {
        return Err(format!(
            "{url}: a blob: URL can only be fetched with GET, not {}",
            String::from_utf8_lossy(method)
        ));
    }
    let Some(entry) = entry else {
        return Err(format!("{url}: no Blob for this blob: URL (revoked?)"));
    };
    // 3-8. Let blob be the result of obtaining a blob object (the store is per context: the
    //    environment checks pass); if it is not a Blob, return a network error.
    let Some((bytes, content_type)) = boa_fileapi::blob_parts(&entry.into()) else {
        return Err(format!("{url}: the blob: URL's entry is not a Blob"));
    };
    // 10. Let fullLength be blob's size. 12. Let type be blob's type.
    let full_length = bytes.len();
    let range = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(b"range"))
        .map(|(_, value)| value.clone());
    let Some(range) = range else {
        // 13. If request's header list does not contain `Range`: the body is blob's
        //     (safely extracted), status message `OK`, header list « (`Content-Length`,
        //     serializedFullLength), (`Content-Type`, type) ».
        let body = boa_fileapi::blob_stream(bytes, ctx).map_err(|e| e.to_string())?;
        return Ok(BlobResponse {
            status: 200,
            status_text: b"OK",
            headers: vec![
                (
                    b"Content-Length".to_vec(),
                    full_length.to_string().into_bytes(),
                ),
                (b"Content-Type".to_vec(), content_type.into_bytes()),
            ],
            body,
        });
    };
    // 14. Otherwise:
    //   3-4. Let rangeValue be the result of parsing a single range header value given
    //        rangeHeader and true; if it is failure, then return a network error.
    let Some((start, end)) = parse_single_range(&range) else {
        return Err(format!(
            "{url}: invalid Range header {:?}",
            String::from_utf8_lossy(&range)
        ));
    };
    let (start, end) = match (start, end) {
        //   6. If rangeStart is null: set rangeStart to fullLength − rangeEnd and rangeEnd
        //      to rangeStart + rangeEnd − 1 (a suffix longer than the blob is all of it).
        (None, Some(suffix)) => {
            let start = full_length.saturating_sub(suffix);
            (start, full_length.saturating_sub(1).max(start))
        }
        //   7. Otherwise: if rangeStart ≥ fullLength, return a network error; if rangeEnd
        //      is null or ≥ fullLength, set it to fullLength − 1.
        (Some(start), end) => {
            if start >= full_length {
                return Err(format!("{url}: the Range starts past the Blob's end"));
            }
            let last = full_length.saturating_sub(1);
            (start, end.map_or(last, |e| e.min(last)))
        }
        (None, None) => return Err(format!("{url}: invalid Range header")),
    };
    //   8-10. Let slicedBlob be slice blob given rangeStart, rangeEnd + 1 and type; the
    //        body is slicedBlob's.
    let sliced = if start > end || full_length == 0 {
        bytes.slice(0, 0)
    } else {
        bytes.slice(start, end.saturating_add(1))
    };
    let sliced_length = sliced.len();
    let body = boa_fileapi::blob_stream(sliced, ctx).map_err(|e| e.to_string())?;
    //   12. Let contentRange be the result of building a content range given rangeStart,
    //       rangeEnd and fullLength.
    let content_range = format!("bytes {start}-{end}/{full_length}");
    //   13-15. Status 206 `Partial Content`, header list « (`Content-Length`,
    //          serializedSlicedLength), (`Content-Type`, type), (`Content-Range`,
    //          contentRange) ».
    Ok(BlobResponse {
        status: 206,
        status_text: b"Partial Content",
        headers: vec![
            (
                b"Content-Length".to_vec(),
                sliced_length.to_string().into_bytes(),
            ),
            (b"Content-Type".to_vec(), content_type.into_bytes()),
            (b"Content-Range".to_vec(), content_range.into_bytes()),
        ],
        body,
    })
}

/// The `blob:` scheme: the Blob the blob URL store has for the URL.
pub struct BlobScheme;

impl SchemeHandler for BlobScheme {
    fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context) {
        let state = fetch.state();
        let url = fetch.url();
        let method = state.method.borrow().clone();
        let headers = state.headers.borrow().clone();
        let response = match blob_fetch(&url, &method, &headers, ctx) {
            Ok(r) => r,
            Err(message) => {
                return network_error(state, NetworkErrorKind::InvalidRequest, message, ctx)
            }
        };
        let url_list = state.url_list.borrow().clone();
        finish(state);
        respond(
            state,
            NetworkResponse {
                status: response.status,
                status_text: response.status_text.to_vec(),
                headers: response.headers,
                body: Some(response.body),
                url_list,
                kind: ResponseKind::Basic,
            },
            ctx,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::parse_single_range;

    #[test]
    fn single_range_header_values() {
        assert_eq!(parse_single_range(b"bytes=0-9"), Some((Some(0), Some(9))));
        assert_eq!(parse_single_range(b"BYTES = 5 - "), Some((Some(5), None)));
        assert_eq!(parse_single_range(b"bytes=-3"), Some((None, Some(3))));
        for bad in [
            &b"bytes=-"[..],
            b"bytes=3-2",
            b"items=0-1",
            b"bytes=0-1,3-4",
            b"bytes 0-1",
            b"bytes=99999999999999999999999-",
        ] {
            assert_eq!(parse_single_range(bad), None, "{bad:?}");
        }
    }
}
