//! A file exposed to a script as a `ReadableStream`, piped by the script through
//! `CompressionStream('gzip')` into a native sink that writes a file; then the script reads the
//! gzip file back through `DecompressionStream('gzip')` and checks it against the input.
//!
//! ```sh
//! cargo run -p boa_streams_host --example gzip_file -- [INPUT [OUTPUT.gz]]
//! ```
//!
//! Without arguments the input is a generated 4 MiB text file in the temporary directory
//! (removed afterwards with its `.gz`).
//! The script sees two globals: `openFile(path)` (a `ReadableStream` of 64 KiB `Uint8Array`s,
//! `boa_streams_host::native_file::file_readable_stream`) and `createFile(path)` (a
//! `WritableStream` writing to a new file, `file_writable_stream`).

use std::path::PathBuf;

use boa_streams_host::boa_engine::{
    js_string, Context, JsNativeError, JsResult, JsValue, NativeFunction,
};
use boa_streams_host::native_file::{file_readable_stream, file_writable_stream};
use boa_streams_host::{run_with_large_stack, Host, HostOptions, LoopOutcome};

const SCRIPT: &str = r#"
(async () => {
  const t0 = performance.now();
  // The pipe: native file source -> CompressionStream('gzip') -> native file sink.
  await openFile(input)
    .pipeThrough(new CompressionStream("gzip"))
    .pipeTo(createFile(output));
  const t1 = performance.now();
  // Read both back: the gunzipped output must equal the input.
  const collect = async (rs) => {
    const parts = [];
    let length = 0;
    for await (const chunk of rs) { parts.push(chunk); length += chunk.byteLength; }
    const all = new Uint8Array(length);
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.byteLength; }
    return all;
  };
  const original = await collect(openFile(input));
  const compressed = await collect(openFile(output));
  const roundTrip = await collect(openFile(output).pipeThrough(new DecompressionStream("gzip")));
  if (roundTrip.length !== original.length || roundTrip.some((b, i) => b !== original[i])) {
    throw new Error("the gunzipped output differs from the input");
  }
  console.log(`${input}: ${original.length} bytes -> ${output}: ${compressed.length} bytes ` +
    `(gzip, ${(t1 - t0).toFixed(1)} ms), round trip ok`);
})().catch((e) => { console.log("error: " + e); throw e; });
"#;

fn default_input() -> std::io::Result<PathBuf> {
    let path = std::env::temp_dir().join(format!("gzip-file-example-{}.txt", std::process::id()));
    let mut text = String::new();
    let mut i = 0u64;
    while text.len() < 4 << 20 {
        text.push_str(&format!(
            "line {i}: the quick brown fox jumps over the lazy dog\n"
        ));
        i += 1;
    }
    std::fs::write(&path, text)?;
    Ok(path)
}

fn install(host: &mut Host, input: &str, output: &str) -> JsResult<()> {
    let ctx = host.context();
    ctx.register_global_callable(
        js_string!("openFile"),
        1,
        NativeFunction::from_fn_ptr(|_, args, ctx| {
            let path = path_arg(args, ctx)?;
            Ok(file_readable_stream(&path, 64 * 1024, ctx)?.upcast().into())
        }),
    )?;
    ctx.register_global_callable(
        js_string!("createFile"),
        1,
        NativeFunction::from_fn_ptr(|_, args, ctx| {
            let path = path_arg(args, ctx)?;
            Ok(file_writable_stream(&path, ctx)?.into())
        }),
    )?;
    let global = ctx.global_object();
    global.set(js_string!("input"), js_string!(input), false, ctx)?;
    global.set(js_string!("output"), js_string!(output), false, ctx)?;
    Ok(())
}

fn path_arg(args: &[JsValue], ctx: &mut Context) -> JsResult<PathBuf> {
    let path = args
        .first()
        .ok_or_else(|| JsNativeError::typ().with_message("a path is required"))?
        .to_string(ctx)?
        .to_std_string_escaped();
    Ok(PathBuf::from(path))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let input = match args.first() {
        Some(p) => PathBuf::from(p),
        None => default_input().unwrap_or_else(|e| {
            eprintln!("cannot write the input: {e}");
            std::process::exit(1)
        }),
    };
    let output = args
        .get(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| input.with_extension("gz"));
    let generated = args.is_empty().then(|| (input.clone(), output.clone()));
    let (input, output) = (input.display().to_string(), output.display().to_string());
    let result = run_with_large_stack(move || {
        let mut host = Host::new(HostOptions::default()).expect("host");
        if let Err(e) = install(&mut host, &input, &output) {
            host.report_exception(e);
        } else if let Err(e) = host.eval_source(SCRIPT, "gzip_file.js") {
            host.report_exception(e);
        }
        let outcome = host.run_event_loop(None);
        (outcome, host.take_errors())
    });
    if let Some((input, output)) = generated {
        let _ = std::fs::remove_file(input);
        let _ = std::fs::remove_file(output);
    }
    match result {
        Ok((LoopOutcome::Idle, errors)) if errors.is_empty() => {}
        Ok((_, errors)) => {
            eprintln!("failed: {errors:?}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("engine panic: {e}");
            std::process::exit(1);
        }
    }
}
