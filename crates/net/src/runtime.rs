//! The process-wide tokio runtime every socket and file read runs on (see the crate docs,
//! "How the I/O runs"), and how its errors read. A leaf.

use std::sync::OnceLock;

use boa_engine::JsResult;
use boa_webidl::type_error;

/// The process-wide tokio runtime all sockets run on (started on first use).
pub(crate) fn runtime() -> JsResult<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("boa-net")
                .enable_io()
                .enable_time()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| type_error(format!("cannot start the network runtime: {e}")))
}

/// `error` and its sources, joined with ": " (hyper's errors carry the cause in their
/// sources: "client error (Connect): tcp connect error: Connection refused").
pub(crate) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    // Bounded: error chains are short, but a cyclic one must not hang.
    for _ in 0..16 {
        let Some(s) = source else { break };
        let text = s.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = s.source();
    }
    message
}
