//! `formData()` of a body with a 256 MiB file part runs in flat memory: the File shares the
//! body's chunks, so the peak RSS grows by about the body once more (the chunks read), not
//! per chunk. Its own test binary: the peak RSS is the process's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use boa_engine::{js_string, Context, Source};

const SIZE: usize = 256 * 1024 * 1024;

/// A `/proc/self/status` field in KiB (`VmRSS`, `VmHWM`).
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_256_mib_file_part_is_parsed_in_flat_memory() {
    if status_kib("VmHWM:").is_none() {
        eprintln!("no /proc/self/status: skipped");
        return;
    }
    let mut ctx = Context::default();
    boa_fetch::register(&mut ctx).unwrap();
    let before = status_kib("VmRSS:").unwrap();
    // The file's bytes: made in Rust, held by a Blob (no copy).
    let data: Vec<u8> = (0..SIZE).map(|i| (i % 251) as u8).collect();
    let big = boa_fileapi::create_blob(vec![bytes::Bytes::from(data)], "", &mut ctx).unwrap();
    ctx.global_object()
        .set(js_string!("big"), big, false, &mut ctx)
        .unwrap();
    ctx.eval(Source::from_bytes(
        r#"
        globalThis.out = [];
        const head = '--XyZ\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\nContent-Type: application/x-big\r\n\r\n';
        const body = new Blob([head, big, '\r\n--XyZ\r\nContent-Disposition: form-data; name="t"\r\n\r\nok\r\n--XyZ--\r\n']);
        new Response(body, {headers: {'content-type': 'multipart/form-data; boundary=XyZ'}}).formData().then(async (fd) => {
          const f = fd.get('f');
          const tail = new Uint8Array(await f.slice(f.size - 3).arrayBuffer());
          out.push(f.name, f.type, f.size, fd.get('t'), tail.join(','));
        }, (e) => out.push('rejected ' + e));
        "#,
    ))
    .unwrap();
    ctx.run_jobs().unwrap();
    let out = ctx
        .eval(Source::from_bytes("out.join('|')"))
        .unwrap()
        .to_string(&mut ctx)
        .unwrap()
        .to_std_string_escaped();
    let last = (SIZE - 3..SIZE)
        .map(|i| (i % 251).to_string())
        .collect::<Vec<_>>()
        .join(",");
    assert_eq!(out, format!("big.bin|application/x-big|{SIZE}|ok|{last}"));
    let peak = status_kib("VmHWM:").unwrap();
    let grown_mib = (peak.saturating_sub(before)) as f64 / 1024.0;
    let body_mib = (SIZE / (1024 * 1024)) as f64;
    eprintln!(
        "peak RSS growth {grown_mib:.0} MiB for a {body_mib:.0} MiB body ({:.2}x)",
        grown_mib / body_mib
    );
    // The body's bytes plus the chunks read (which the File keeps): about 2x, never per chunk.
    assert!(
        grown_mib < 2.5 * body_mib,
        "peak RSS grew by {grown_mib:.0} MiB for a {body_mib:.0} MiB body"
    );
}
