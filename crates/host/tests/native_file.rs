//! `native_file`'s file streams under the host's event loop: a file piped to a file in
//! chunks of the asked size, and a sink refusing a chunk that is not a buffer source.

use boa_engine::{js_string, NativeFunction};
use boa_streams_host::native_file::{file_readable_stream, file_writable_stream};
use boa_streams_host::{Host, HostOptions, LoopOutcome};

fn install(host: &mut Host) {
    let ctx = host.context();
    ctx.register_global_callable(
        js_string!("openFile"),
        2,
        NativeFunction::from_fn_ptr(|_, args, ctx| {
            let p = args.first().cloned().unwrap_or_default().to_string(ctx)?;
            let size = args.get(1).cloned().unwrap_or_default().to_u32(ctx)? as usize;
            let path = std::path::PathBuf::from(p.to_std_string_escaped());
            Ok(file_readable_stream(&path, size, ctx)?.upcast().into())
        }),
    )
    .unwrap();
    ctx.register_global_callable(
        js_string!("createFile"),
        1,
        NativeFunction::from_fn_ptr(|_, args, ctx| {
            let p = args.first().cloned().unwrap_or_default().to_string(ctx)?;
            let path = std::path::PathBuf::from(p.to_std_string_escaped());
            Ok(file_writable_stream(&path, ctx)?.into())
        }),
    )
    .unwrap();
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("native-file-{}-{name}", std::process::id()))
}

#[test]
fn file_to_file_pipe_copies_the_bytes_in_chunks() {
    let input = temp("in.bin");
    let output = temp("out.bin");
    let data: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&input, &data).unwrap();
    let mut host = Host::new(HostOptions::default()).unwrap();
    install(&mut host);
    let script = format!(
        "globalThis.sizes = [];
         const [a, b] = openFile({:?}, 4096).tee();
         (async () => {{ for await (const c of b) sizes.push(c.byteLength); }})();
         a.pipeTo(createFile({:?})).then(() => {{ globalThis.done = true; }});",
        input.display().to_string(),
        output.display().to_string()
    );
    host.eval_source(&script, "t.js").unwrap();
    assert_eq!(host.run_event_loop(None), LoopOutcome::Idle);
    assert!(host.take_errors().is_empty());
    let sizes = host
        .eval_source("String(sizes) + ' ' + done", "r.js")
        .unwrap();
    assert_eq!(
        sizes.as_string().unwrap().to_std_string_escaped(),
        "4096,4096,1808 true"
    );
    assert_eq!(std::fs::read(&output).unwrap(), data);
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
}

#[test]
fn a_chunk_that_is_not_a_buffer_source_errors_the_sink() {
    let output = temp("bad.bin");
    let mut host = Host::new(HostOptions::default()).unwrap();
    install(&mut host);
    let script = format!(
        "const w = createFile({:?}).getWriter();
         w.write('text').catch((e) => {{ globalThis.error = e.name; }});",
        output.display().to_string()
    );
    host.eval_source(&script, "t.js").unwrap();
    host.run_event_loop(None);
    let error = host.eval_source("error", "r.js").unwrap();
    assert_eq!(
        error.as_string().unwrap().to_std_string_escaped(),
        "TypeError"
    );
    let _ = std::fs::remove_file(&output);
}
