//! Example (d): a raw TCP server (no HTTP) whose connections a script serves with streams.
//!
//! Rust owns the sockets: a tokio `TcpListener` accepts connections, and each socket's two
//! halves become a `ReadableStream` and a `WritableStream` through boa_streams' tokio
//! adapters. A JS function gets the two streams and pipes one into the other through a
//! `TransformStream` (here: upper-casing text). The tokio runtime is entered on the script's
//! thread, so the sockets register with its I/O driver, whose threads wake the host's event
//! loop when bytes arrive or the peer can take more.
//!
//! `cargo run --example tcp_server -p boa_streams_host -- 2` serves two connections on
//! 127.0.0.1 (the port is printed; try `echo hello | nc -N 127.0.0.1 PORT`) and exits.

use std::net::SocketAddr;
use std::rc::Rc;

use boa_engine::{js_string, Context, JsResult, JsValue};
use boa_streams_host::{run_with_large_stack, Host, HostError, HostOptions};
use boa_web::boa_streams::native::tokio::{
    readable_stream_from_async_read, writable_stream_from_async_write_with_flush,
};
use boa_web::boa_streams::native::{spawn_future, FlushPolicy};

/// The script: `serveConnection(input, output, id)` is called by Rust for every connection.
const SCRIPT: &str = r#"
globalThis.serveConnection = (input, output, id) =>
  input
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new TransformStream({
      transform(text, controller) { controller.enqueue(text.toUpperCase()); },
    }))
    .pipeThrough(new TextEncoderStream())
    .pipeTo(output)
    .then(() => console.log(`connection ${id} served`));
"#;

/// When the socket writer is flushed: `OnClose` lets a `BufWriter` gather many small chunks
/// into few writes (the answer reaches the client when the connection closes);
/// `EachWrite` sends every chunk at once, as an interactive protocol needs.
const FLUSH: FlushPolicy = FlushPolicy::OnClose;

/// Serve `connections` connections on 127.0.0.1 (any free port; `on_listening` gets the
/// address once it listens), then return the errors the host reported.
///
/// # Errors
/// If the runtime, the listener or the host cannot be set up, or the engine panicked.
pub fn serve(
    connections: usize,
    on_listening: impl FnOnce(SocketAddr) + Send + 'static,
) -> Result<Vec<HostError>, String> {
    // A small runtime: its I/O driver thread watches the sockets.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_io()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    run_with_large_stack(move || {
        // Enter the runtime on the script's thread: tokio sockets made here register with it.
        let _entered = runtime.enter();
        let mut host = Host::new(HostOptions::default()).map_err(|e| e.to_string())?;
        host.eval_source(SCRIPT, "tcp_server.js")
            .map_err(|e| e.to_string())?;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
        on_listening(listener.local_addr().map_err(|e| e.to_string())?);
        accept(Rc::new(listener), 0, connections, host.context());
        // Runs until every connection is served: a pending accept or socket read or write
        // keeps the loop alive, and tokio's wakers wake it.
        host.run_event_loop(None);
        Ok(host.take_errors())
    })?
}

/// Accept the next connection (the `id`th of `total`) on the context's driver, hand it to
/// the script, and accept the one after.
fn accept(listener: Rc<tokio::net::TcpListener>, id: usize, total: usize, ctx: &mut Context) {
    if id >= total {
        return;
    }
    let accepting = listener.clone();
    spawn_future(
        async move { accepting.accept().await },
        move |accepted, ctx| {
            match accepted {
                Ok((socket, _)) => {
                    if let Err(e) = serve_connection(socket, id, ctx) {
                        eprintln!("connection {id}: {e}");
                    }
                }
                Err(e) => eprintln!("accept: {e}"),
            }
            accept(listener, id + 1, total, ctx);
        },
        ctx,
    );
}

/// The socket's halves as streams, given to the script's `serveConnection`.
fn serve_connection(socket: tokio::net::TcpStream, id: usize, ctx: &mut Context) -> JsResult<()> {
    let (read_half, write_half) = socket.into_split();
    let input = readable_stream_from_async_read(read_half, 16 * 1024, ctx)?;
    let output = writable_stream_from_async_write_with_flush(
        tokio::io::BufWriter::new(write_half),
        FLUSH,
        ctx,
    )?;
    let serve = ctx
        .global_object()
        .get(js_string!("serveConnection"), ctx)?;
    let Some(serve) = serve.as_callable() else {
        return Err(boa_engine::JsNativeError::typ()
            .with_message("serveConnection is not a function")
            .into());
    };
    serve.call(
        &JsValue::undefined(),
        &[
            input.upcast().into(),
            output.into(),
            u32::try_from(id).unwrap_or(u32::MAX).into(),
        ],
        ctx,
    )?;
    Ok(())
}

#[allow(dead_code)]
fn main() {
    let connections = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let errors = serve(connections, |addr| println!("listening on {addr}"));
    match errors {
        Ok(errors) if errors.is_empty() => {}
        Ok(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
