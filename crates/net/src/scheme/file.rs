//! [Scheme fetch](https://fetch.spec.whatwg.org/#scheme-fetch) "file" (as Deno allows): a
//! local file the context's capabilities let the script read, streamed from the network
//! runtime.

use std::rc::Rc;

use boa_engine::{Context, JsValue};
use boa_streams::native::spawn_future;
use boa_webidl::capabilities::Capabilities;

use super::{SchemeFetch, SchemeHandler};
use crate::error::NetworkErrorKind;
use crate::hop::{cancel_stream, denied, network_error, respond_with_body, FetchState, Phase};

/// The `file:` scheme: GET and HEAD of a file under the fs-read capability.
pub struct FileScheme;

impl SchemeHandler for FileScheme {
    fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context) {
        file_fetch(fetch.state(), &fetch.url(), ctx);
    }
}

/// The most bytes of a file read ahead of its response body stream.
const FILE_CHUNK: usize = 64 * 1024;

/// "file": a local file (as Deno allows), read on the runtime in chunks of 64 KiB through a
/// one-chunk channel, so the file is read only as fast as the body stream is.
fn file_fetch(state: &Rc<FetchState>, url: &str, ctx: &mut Context) {
    let method = state.method.borrow().clone();
    if !matches!(method.as_slice(), b"GET" | b"HEAD") {
        let message = format!(
            "{url}: the method {} is not allowed for a file: URL (only GET and HEAD)",
            String::from_utf8_lossy(&method)
        );
        return network_error(state, NetworkErrorKind::Unsupported, message, ctx);
    }
    let path = match url::Url::parse(url)
        .ok()
        .and_then(|u| u.to_file_path().ok())
    {
        Some(p) => p,
        None => {
            return network_error(
                state,
                NetworkErrorKind::InvalidRequest,
                format!("{url}: not a local file path"),
                ctx,
            );
        }
    };
    // Open the canonical path the check admitted (not a name that could be swapped).
    let path = match Capabilities::of(ctx).check_read(&path) {
        Ok(p) => p,
        Err(d) => return denied(state, url, &d, ctx),
    };
    let unsent = state.body_stream.borrow_mut().take();
    if let Some(stream) = unsent {
        cancel_stream(&stream, JsValue::undefined(), ctx);
    }
    let runtime = match crate::runtime::runtime() {
        Ok(r) => r,
        Err(e) => return network_error(state, NetworkErrorKind::Internal, e.to_string(), ctx),
    };
    let join = runtime.spawn(async move {
        use tokio::io::AsyncReadExt;
        let mut file = tokio::fs::File::open(&path).await?;
        let metadata = file.metadata().await?;
        if metadata.is_dir() {
            return Err(std::io::Error::other("is a directory"));
        }
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        tokio::spawn(async move {
            // Bounded by the file's length: each turn reads at least one byte or ends.
            loop {
                let mut buffer = bytes::BytesMut::with_capacity(FILE_CHUNK);
                match file.read_buf(&mut buffer).await {
                    Ok(0) => break,
                    Ok(_) => {
                        if tx.send(Ok(buffer.freeze())).await.is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e)).await;
                        break;
                    }
                }
            }
        });
        Ok((metadata.len(), rx))
    });
    let abort = join.abort_handle();
    *state.phase.borrow_mut() = Phase::Requesting { abort, task: None };
    let weak = Rc::downgrade(state);
    let url = url.to_owned();
    let task = spawn_future(
        join,
        move |result, ctx| {
            let Some(state) = weak.upgrade() else { return };
            if !matches!(*state.phase.borrow(), Phase::Requesting { .. }) {
                return;
            }
            *state.phase.borrow_mut() = Phase::Done;
            match result {
                Err(e) => network_error(
                    &state,
                    NetworkErrorKind::Internal,
                    format!("{url}: {e}"),
                    ctx,
                ),
                Ok(Err(e)) => network_error(
                    &state,
                    NetworkErrorKind::Transport,
                    format!("{url}: {e}"),
                    ctx,
                ),
                Ok(Ok((length, rx))) => {
                    let headers =
                        vec![(b"content-length".to_vec(), length.to_string().into_bytes())];
                    let body = crate::body::ChannelBody(rx);
                    respond_with_body(&state, 200, b"OK".to_vec(), headers, body, ctx);
                }
            }
        },
        ctx,
    );
    if let Phase::Requesting { task: slot, .. } = &mut *state.phase.borrow_mut() {
        if slot.is_none() && !task.is_finished() {
            *slot = Some(task);
        }
    }
}
