use crate::test_support::{context, eval, run_out, string};

#[test]
fn a_transferred_readable_stream_delivers_chunks_and_close() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const rs = new ReadableStream({
              start(c) { c.enqueue('a'); c.enqueue({ n: 1 }); c.enqueue(new Uint8Array([1, 2, 3]).subarray(1)); c.close(); }
            });
            const t = structuredClone(rs, { transfer: [rs] });
            out.push(rs.locked, t instanceof ReadableStream, t.locked);
            (async () => {
              for await (const chunk of t) out.push(chunk instanceof Uint8Array ? 'u8:' + chunk.byteOffset + ':' + chunk.length : JSON.stringify(chunk));
              out.push('done');
            })();
        "#
        ),
        "true,true,false,\"a\",{\"n\":1},u8:1:2,done"
    );
}

#[test]
fn a_transferred_readable_stream_propagates_errors_and_cancel() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const rs = new ReadableStream({ start(c) { c.error(new TypeError('bad')); } });
            const t = structuredClone(rs, { transfer: [rs] });
            t.getReader().read().catch((e) => out.push('read: ' + e.name + ' ' + e.message));
            const rs2 = new ReadableStream({ cancel(r) { out.push('cancelled with ' + r); } });
            const t2 = structuredClone(rs2, { transfer: [rs2] });
            t2.cancel('why').then(() => out.push('cancel resolved'));
        "#
        ),
        "cancel resolved,cancelled with why,read: TypeError bad"
    );
}

#[test]
fn a_transferred_writable_stream_writes_and_closes() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const ws = new WritableStream({ write(c) { out.push('w:' + c); }, close() { out.push('closed'); } });
            const t = structuredClone(ws, { transfer: [ws] });
            const w = t.getWriter();
            w.write(1); w.write(2); w.close().then(() => out.push('close resolved'));
        "#
        ),
        "w:1,w:2,close resolved,closed"
    );
}

#[test]
fn a_transferred_transform_stream_round_trips() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const ts = new TransformStream({ transform(c, ctl) { ctl.enqueue(c * 2); } });
            const t = structuredClone(ts, { transfer: [ts] });
            out.push(t instanceof TransformStream, ts.readable.locked, ts.writable.locked);
            const w = t.writable.getWriter();
            w.write(1); w.write(21); w.close();
            (async () => { for await (const c of t.readable) out.push(c); out.push('end'); })();
        "#
        ),
        "true,true,true,2,42,end"
    );
}

#[test]
fn transferring_locked_streams_or_a_stream_twice_throws() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const name = (f) => { try { f(); return 'ok'; } catch (e) { return e.name; } };
            const combos = [(t) => [t, t.readable], (t) => [t.readable, t], (t) => [t, t.writable], (t) => [t.writable, t]];
            for (const c of combos) { const l = c(new TransformStream()); out.push(name(() => structuredClone(l, { transfer: l }))); }
            const rs = new ReadableStream(); rs.getReader();
            out.push(name(() => structuredClone(rs, { transfer: [rs] })));
            const rs2 = new ReadableStream();
            out.push(name(() => structuredClone(rs2)));
        "#
        ),
        "DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError"
    );
}

#[test]
fn a_non_cloneable_chunk_errors_both_sides() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const rs = new ReadableStream({ start(c) { c.enqueue(() => {}); }, cancel(r) { out.push('source cancelled: ' + r.name); } });
            const t = structuredClone(rs, { transfer: [rs] });
            t.getReader().read().then((r) => out.push('read ' + r.done), (e) => out.push('read rejected: ' + e.name));
        "#
        ),
        "read rejected: DataCloneError,source cancelled: DataCloneError"
    );
}

#[test]
fn the_ports_of_a_transferred_stream_are_released_after_close_and_collected() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        globalThis.weak = [];
        (() => {
          const rs = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
          const t = structuredClone(rs, { transfer: [rs] });
          weak.push(new WeakRef(t));
          t.getReader().read().then((r) => out.push(r.value));
        })();
        "#,
    );
    assert_eq!(crate::message::registered_port_count(&mut ctx), 2);
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "out.join()"), "1");
    // Both cross-realm ports were disentangled (close on the readable side, the writable's
    // close algorithm on the other): the context no longer holds them.
    assert_eq!(crate::message::registered_port_count(&mut ctx), 0);
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(string(&mut ctx, "String(weak[0].deref())"), "undefined");
}
