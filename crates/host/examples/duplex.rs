//! Example (b): Rust and a script talk both ways over an in-memory tokio duplex pipe.
//!
//! The script gets the pipe's one end as a `ReadableStream` (`input`) and a `WritableStream`
//! (`output`) and runs an upper-casing echo service on it with stream pipes. A Rust thread
//! holds the other end: it writes lines, shuts its side down, and reads the answer. The
//! host's event loop stays alive while the native reads and writes wait, and wakes when the
//! other thread makes progress.
//!
//! `cargo run --example duplex -p boa_streams_host`

use boa_engine::js_string;
use boa_streams_host::{run_with_large_stack, Host, HostOptions, LoopOutcome};
use boa_web::boa_streams::native::tokio::{
    readable_stream_from_async_read, writable_stream_from_async_write,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SCRIPT: &str = r#"
globalThis.seen = 0;
input
  .pipeThrough(new TextDecoderStream())
  .pipeThrough(new TransformStream({
    transform(text, controller) {
      seen += text.length;
      controller.enqueue(text.toUpperCase());
    },
  }))
  .pipeThrough(new TextEncoderStream())
  .pipeTo(output)
  .then(() => console.log(`script: echoed ${seen} characters`));
"#;

/// Run the exchange; returns what the Rust side read back.
pub fn run() -> String {
    let (rust_end, js_end) = tokio::io::duplex(16);
    // The Rust client, on its own thread (any executor works: the duplex needs no runtime).
    let client = std::thread::spawn(move || {
        futures::executor::block_on(async move {
            let (mut from_js, mut to_js) = tokio::io::split(rust_end);
            for line in ["hello from rust\n", "streams both ways\n"] {
                to_js.write_all(line.as_bytes()).await.expect("write");
            }
            to_js.shutdown().await.expect("shutdown");
            let mut answer = String::new();
            from_js.read_to_string(&mut answer).await.expect("read");
            answer
        })
    });

    run_with_large_stack(move || {
        let mut host = Host::new(HostOptions::default()).expect("host");
        let (read_half, write_half) = tokio::io::split(js_end);
        let context = host.context();
        let input = readable_stream_from_async_read(read_half, 8, context).expect("input");
        let output = writable_stream_from_async_write(write_half, context).expect("output");
        let global = context.global_object();
        global
            .set(js_string!("input"), input.upcast(), false, context)
            .expect("global");
        global
            .set(js_string!("output"), output, false, context)
            .expect("global");
        host.eval_source(SCRIPT, "duplex.js").expect("script");
        // Stays alive while the native reads and writes wait for the other thread.
        assert_eq!(host.run_event_loop(None), LoopOutcome::Idle);
        assert!(host.take_errors().is_empty());
    })
    .expect("no engine panic");
    client.join().expect("client thread")
}

#[allow(dead_code)]
fn main() {
    print!("rust read back:\n{}", run());
}
