use futures::StreamExt;

use super::*;
use crate::native::{block_on, readable_stream_from_stream, run_until_idle};
use crate::test_support::{context, eval, joined_out, set_global, string};

#[test]
fn read_all_of_a_byte_stream_and_a_js_stream() {
    let mut ctx = context();
    // A byte stream as a Response body is one (the Fetch crate's own tests read real bodies).
    let body = eval(
        &mut ctx,
        "new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([120])); c.close(); } })",
    );
    let reader = StreamReader::from_value(&body, &mut ctx).unwrap();
    let all = reader.read_all(&mut ctx);
    assert_eq!(&block_on(&mut ctx, all).unwrap().unwrap()[..], b"x");

    let js = eval(
        &mut ctx,
        r#"
        let n = 0;
        new ReadableStream({
          pull(c) {
            n++;
            if (n > 3) c.close();
            else return Promise.resolve().then(() => c.enqueue(Uint8Array.from('p' + n, (ch) => ch.charCodeAt(0))));
          },
        })
        "#,
    );
    let reader = StreamReader::from_value(&js, &mut ctx).unwrap();
    let all = reader.read_all(&mut ctx);
    assert_eq!(&block_on(&mut ctx, all).unwrap().unwrap()[..], b"p1p2p3");
    // Still locked by the reader until it is released.
    set_global(&mut ctx, "js", js.clone());
    assert_eq!(string(&mut ctx, "js.locked"), "true");
    reader.release(&mut ctx);
    assert_eq!(string(&mut ctx, "js.locked"), "false");
}

#[test]
fn read_all_of_a_non_byte_chunk_cancels_with_a_type_error() {
    let mut ctx = context();
    let js = eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        new ReadableStream({
          start(c) { c.enqueue(new Uint8Array([1])); c.enqueue('text'); },
          cancel(reason) { out.push('cancel ' + reason.name); },
        })
        "#,
    );
    let reader = StreamReader::from_value(&js, &mut ctx).unwrap();
    let all = reader.read_all(&mut ctx);
    let err = block_on(&mut ctx, all).unwrap().unwrap_err();
    assert!(err.to_string().contains("TypeError"), "{err}");
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(joined_out(&mut ctx), "cancel TypeError");
}

#[test]
fn reads_report_errors_and_close() {
    let mut ctx = context();
    let js = eval(
        &mut ctx,
        "globalThis.ctl = null;
         new ReadableStream({ start(c) { ctl = c; c.enqueue('a'); } })",
    );
    let reader = StreamReader::from_value(&js, &mut ctx).unwrap();
    // A second reader of a locked stream is a TypeError.
    assert!(StreamReader::from_value(&js, &mut ctx).is_err());
    assert!(StreamReader::from_value(&JsValue::from(1), &mut ctx).is_err());
    let first = reader.read(&mut ctx);
    let chunk = block_on(&mut ctx, first).unwrap().unwrap().unwrap();
    assert_eq!(chunk.as_string().unwrap().to_std_string_escaped(), "a");
    let second = reader.read(&mut ctx);
    eval(&mut ctx, "ctl.error(new RangeError('broken'))");
    let err = block_on(&mut ctx, second).unwrap().unwrap_err();
    assert!(err.to_string().starts_with("RangeError: broken"), "{err}");

    let js = eval(&mut ctx, "new ReadableStream({ start(c) { c.close(); } })");
    let reader = StreamReader::from_value(&js, &mut ctx).unwrap();
    let read = reader.read_bytes(&mut ctx);
    assert!(block_on(&mut ctx, read).unwrap().unwrap().is_none());
    // The callback form.
    let got = std::rc::Rc::new(std::cell::Cell::new(false));
    let flag = got.clone();
    reader.read_with(&mut ctx, move |r, _| flag.set(matches!(r, Ok(None))));
    run_until_idle(&mut ctx).unwrap();
    assert!(got.get());
    reader.release(&mut ctx);
    let read = reader.read(&mut ctx);
    assert!(
        block_on(&mut ctx, read).unwrap().is_err(),
        "a released reader fails"
    );
}

#[test]
fn cancel_from_rust_reaches_the_source() {
    let mut ctx = context();
    let js = eval(
        &mut ctx,
        "globalThis.out = [];
         new ReadableStream({ cancel(r) { out.push('cancel ' + r); } })",
    );
    let reader = StreamReader::from_value(&js, &mut ctx).unwrap();
    let cancelled = reader.cancel(JsValue::from(boa_engine::js_string!("bye")), &mut ctx);
    block_on(&mut ctx, cancelled).unwrap().unwrap();
    assert_eq!(joined_out(&mut ctx), "cancel bye");
}

#[test]
fn the_stream_view_reads_on_demand_and_ends_with_errors() {
    let mut ctx = context();
    let js = eval(
        &mut ctx,
        r#"
        globalThis.pulls = 0;
        new ReadableStream({
          pull(c) {
            pulls++;
            if (pulls > 2) c.error(new TypeError('no more'));
            else c.enqueue(Uint8Array.from('c' + pulls, (ch) => ch.charCodeAt(0)));
          },
        }, { highWaterMark: 0 })
        "#,
    );
    let reader = StreamReader::from_value(&js, &mut ctx).unwrap();
    let mut chunks = reader.into_stream(&mut ctx);
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(
        string(&mut ctx, "pulls"),
        "0",
        "nothing is read before a poll"
    );
    let first = block_on(&mut ctx, chunks.next()).unwrap().unwrap().unwrap();
    assert_eq!(&first[..], b"c1");
    let second = block_on(&mut ctx, chunks.next()).unwrap().unwrap().unwrap();
    assert_eq!(&second[..], b"c2");
    let third = block_on(&mut ctx, chunks.next()).unwrap().unwrap();
    assert!(third
        .unwrap_err()
        .to_string()
        .starts_with("TypeError: no more"));
    assert!(block_on(&mut ctx, chunks.next()).unwrap().is_none());
    // Dropping the view releases the reader.
    set_global(&mut ctx, "js", js);
    drop(chunks);
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(string(&mut ctx, "js.locked"), "false");
}

#[test]
fn a_rust_stream_through_a_js_transform_back_to_rust() {
    let mut ctx = context();
    let words = futures::stream::iter(
        ["rust ", "to ", "js ", "to ", "rust"].map(|w| Ok::<_, std::io::Error>(Bytes::from(w))),
    );
    let rs = readable_stream_from_stream(words, &mut ctx).unwrap();
    set_global(&mut ctx, "input", rs.upcast());
    let upper = eval(
        &mut ctx,
        r#"
        input.pipeThrough(new TransformStream({
          transform(u8, c) { c.enqueue(u8.map((b) => (b >= 97 && b <= 122 ? b - 32 : b))); },
        }))
        "#,
    );
    let reader = StreamReader::from_value(&upper, &mut ctx).unwrap();
    let all = reader.read_all(&mut ctx);
    assert_eq!(
        &block_on(&mut ctx, all).unwrap().unwrap()[..],
        b"RUST TO JS TO RUST"
    );
}

#[test]
fn a_rust_writer_waits_for_backpressure_and_sees_errors() {
    let mut ctx = context();
    let ws = eval(
        &mut ctx,
        r#"
        globalThis.got = [];
        globalThis.release = null;
        new WritableStream({
          write(chunk) {
            got.push(String.fromCharCode(...chunk));
            return new Promise((r) => { release = r; });
          },
          abort(reason) { got.push('abort ' + reason); },
        }, { highWaterMark: 1 })
        "#,
    );
    let writer = StreamWriter::from_value(&ws, &mut ctx).unwrap();
    assert!(StreamWriter::from_value(&ws, &mut ctx).is_err(), "locked");
    assert_eq!(writer.desired_size(), Some(1.0));
    let w1 = writer.write_bytes(&Bytes::from_static(b"a"), &mut ctx);
    run_until_idle(&mut ctx).unwrap();
    assert_eq!(writer.desired_size(), Some(0.0));
    let ready = writer.ready(&mut ctx);
    eval(&mut ctx, "release()");
    block_on(&mut ctx, w1).unwrap().unwrap();
    block_on(&mut ctx, ready).unwrap().unwrap();
    let aborted = writer.abort(JsValue::from(boa_engine::js_string!("stop")), &mut ctx);
    block_on(&mut ctx, aborted).unwrap().unwrap();
    assert_eq!(string(&mut ctx, "got.join()"), "a,abort stop");
    let late = writer.write(JsValue::from(1), &mut ctx);
    assert!(block_on(&mut ctx, late).unwrap().is_err());
    writer.release(&mut ctx);
}
