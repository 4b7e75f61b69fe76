//! The [data: URL processor](https://fetch.spec.whatwg.org/#data-url-processor), through the
//! `data-url` crate (which implements that algorithm and the MIME type parser).

use bytes::Bytes;

/// A processed `data:` URL: its MIME type (serialized) and body.
pub(crate) struct DataUrlResult {
    pub(crate) mime_type: String,
    pub(crate) body: Bytes,
}

/// Run the data: URL processor on `url` (a serialized URL); `Err` is the failure's message.
pub(crate) fn process(url: &str) -> Result<DataUrlResult, String> {
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
