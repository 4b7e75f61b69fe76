//! [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch) "data": the
//! [data: URL processor](https://fetch.spec.whatwg.org/#data-url-processor), through the
//! `data-url` crate (which implements that algorithm and the MIME type parser).

use boa_engine::{Context, JsValue};
use boa_fetch::network::{NetworkResponse, ResponseKind};
use boa_streams::native::native_byte_stream;
use bytes::Bytes;

use super::{SchemeFetch, SchemeHandler};
use crate::error::NetworkErrorKind;
use crate::hop::{cancel_stream, finish, network_error, respond};

/// A processed `data:` URL: its MIME type (serialized) and body.
struct DataUrlResult {
    mime_type: String,
    body: Bytes,
}

/// Run the data: URL processor on `url` (a serialized URL); `Err` is the failure's message.
fn process(url: &str) -> Result<DataUrlResult, String> {
    // 1-11 (strip the scheme, split at the first comma, percent-decode, base64 when the
    // MIME type ends in ";base64", parse the MIME type, default text/plain;charset=US-ASCII)
    // are the crate's `process` and `decode_to_vec`.
    let data = data_url::DataUrl::process(url).map_err(|e| format!("invalid data: URL ({e})"))?;
    let (body, _fragment) = data
        .decode_to_vec()
        .map_err(|_| "invalid base64 in the data: URL".to_string())?;
    Ok(DataUrlResult {
        mime_type: data.mime_type().to_string(),
        body: Bytes::from(body),
    })
}

/// The `data:` scheme: the data: URL processor; a 200 response with the MIME type as
/// `Content-Type`.
pub struct DataScheme;

impl SchemeHandler for DataScheme {
    fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context) {
        let state = fetch.state();
        let url = fetch.url();
        // 1. Let dataURLStruct be the result of running the data: URL processor on request's
        //    current URL.
        // 2. If dataURLStruct is failure, then return a network error.
        let data = match process(&url) {
            Ok(d) => d,
            Err(message) => {
                return network_error(state, NetworkErrorKind::InvalidRequest, message, ctx)
            }
        };
        // The request body (if any) is not read: cancel it.
        let unsent = state.body_stream.borrow_mut().take();
        if let Some(stream) = unsent {
            cancel_stream(&stream, JsValue::undefined(), ctx);
        }
        // 3-4. Return a new response whose status message is `OK`, header list is
        //    « (`Content-Type`, mimeType) », and body is dataURLStruct's body as a body.
        let body = match native_byte_stream(std::iter::once(data.body), ctx) {
            Ok(b) => b,
            Err(e) => return network_error(state, NetworkErrorKind::Internal, e.to_string(), ctx),
        };
        let url_list = state.url_list.borrow().clone();
        finish(state);
        respond(
            state,
            NetworkResponse {
                status: 200,
                status_text: b"OK".to_vec(),
                headers: vec![(b"Content-Type".to_vec(), data.mime_type.into_bytes())],
                body: Some(body),
                url_list,
                kind: ResponseKind::Basic,
            },
            ctx,
        );
    }
}
