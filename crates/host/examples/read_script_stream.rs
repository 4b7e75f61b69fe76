//! Example (c): Rust reads a stream a script made.
//!
//! The script builds a `ReadableStream` of encoded text fed by timers; Rust takes it from the
//! global object, reads it chunk by chunk through the `futures::Stream` view
//! (`StreamReader::into_stream`), while the host's event loop runs the script's timers.
//!
//! `cargo run --example read_script_stream -p boa_streams_host`

use boa_engine::js_string;
use boa_streams_host::{run_with_large_stack, Host, HostOptions};
use boa_web::boa_streams::native::StreamReader;
use futures::StreamExt;

const SCRIPT: &str = r#"
let n = 0;
globalThis.ticks = new ReadableStream({
  pull(controller) {
    return new Promise((resolve) => setTimeout(() => {
      n += 1;
      if (n > 3) controller.close();
      else controller.enqueue(`tick ${n}\n`);
      resolve();
    }, 5));
  },
}).pipeThrough(new TextEncoderStream());
"#;

/// Run the script and collect what Rust read, one line per chunk.
pub fn run() -> Vec<String> {
    run_with_large_stack(|| {
        let mut host = Host::new(HostOptions::default()).expect("host");
        host.eval_source(SCRIPT, "ticks.js").expect("script");
        let context = host.context();
        let stream = context
            .global_object()
            .get(js_string!("ticks"), context)
            .expect("ticks");
        let reader = StreamReader::from_value(&stream, context).expect("a ReadableStream");
        let mut chunks = reader.into_stream(context);
        let mut lines = Vec::new();
        // Each `next()` runs the event loop (timers included) until the chunk arrives.
        while let Some(chunk) = host.run_until(chunks.next(), None).expect("not idle") {
            let chunk = chunk.expect("a byte chunk");
            lines.push(String::from_utf8_lossy(&chunk).trim_end().to_owned());
        }
        lines
    })
    .expect("no engine panic")
}

#[allow(dead_code)]
fn main() {
    for line in run() {
        println!("rust got: {line}");
    }
}
