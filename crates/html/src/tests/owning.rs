//! The experimental `type: "owning"` (whatwg/streams#1271): enqueue with a transfer list,
//! tee cloning for branch 2, disposal of queued chunks on cancel and error. The reference
//! implementation has no owning type, so the differential test cannot cover it.

use crate::test_support::{both_modes, context, eval, run_jobs, run_log, string};

#[test]
fn enqueue_with_transfer_detaches_the_source_buffer() {
    let out = both_modes(|_| {
        run_log(
            r#"
            const u8 = new Uint8Array([1, 2, 3, 4]);
            const buffer = u8.buffer;
            buffer.tag = 'x';
            let queued;
            const rs = new ReadableStream({
                type: 'owning',
                start(c) {
                    c.enqueue(buffer, { transfer: [buffer] });
                    log.push('src ' + buffer.byteLength + ' ' + u8.length + ' ' + buffer.tag);
                },
            });
            rs.getReader().read().then(({ value }) => {
                log.push('read ' + (value === buffer) + ' ' + (value instanceof ArrayBuffer) + ' '
                    + value.byteLength + ' ' + new Uint8Array(value).join('') + ' ' + value.tag);
            });
            "#,
            "log.join('|')",
        )
    });
    assert_eq!(out, "src 0 0 x|read false true 4 1234 undefined");
}

#[test]
fn enqueue_to_a_waiting_reader_transfers_too() {
    let out = run_log(
        r#"
        let controller;
        const rs = new ReadableStream({ type: 'owning', start(c) { controller = c; } });
        const reader = rs.getReader();
        reader.read().then(({ value }) => log.push('read ' + value.a.byteLength + ' ' + value.b));
        Promise.resolve().then(() => {
            const buffer = new ArrayBuffer(3);
            const chunk = { a: buffer, b: 'kept' };
            controller.enqueue(chunk, { transfer: [buffer] });
            log.push('src ' + buffer.byteLength + ' ' + chunk.a.byteLength);
        });
        "#,
        "log.join('|')",
    );
    assert_eq!(out, "src 0 0|read 3 kept");
}

#[test]
fn owning_chunks_are_copies_even_without_a_transfer_list() {
    let out = run_log(
        r#"
        const chunk = { n: 1, list: [1, 2] };
        const rs = new ReadableStream({
            type: 'owning',
            start(c) { c.enqueue(chunk); chunk.n = 2; chunk.list.push(3); },
        });
        rs.getReader().read().then(({ value }) => {
            log.push((value === chunk) + ' ' + value.n + ' ' + value.list.join(''));
        });
        "#,
        "log.join('|')",
    );
    assert_eq!(out, "false 1 12");
}

#[test]
fn default_streams_keep_chunk_identity_and_reject_a_transfer_list() {
    let out = run_log(
        r#"
        const buffer = new ArrayBuffer(2);
        const chunk = {};
        new ReadableStream({
            start(c) {
                try { c.enqueue(buffer, { transfer: [buffer] }); }
                catch (e) { log.push(e.constructor.name + ' ' + buffer.byteLength); }
                c.enqueue(chunk, { transfer: [] });
                c.enqueue(chunk, undefined);
                try { c.enqueue(chunk, 5); } catch (e) { log.push('options ' + e.constructor.name); }
                try { c.enqueue(chunk, { transfer: 5 }); } catch (e) { log.push('list ' + e.constructor.name); }
            },
        }).getReader().read().then(({ value }) => log.push('same ' + (value === chunk)));
        "#,
        "log.join('|')",
    );
    assert_eq!(
        out,
        "TypeError 2|options TypeError|list TypeError|same true"
    );
}

#[test]
fn options_are_converted_before_the_state_check() {
    // The transfer getter runs (and its exception propagates) even on a closed stream, as
    // the WebIDL conversion precedes the method steps.
    let out = run_log(
        r#"
        new ReadableStream({
            type: 'owning',
            start(c) {
                c.close();
                try { c.enqueue(1, { get transfer() { throw new RangeError('getter'); } }); }
                catch (e) { log.push(e.constructor.name + ' ' + e.message); }
                try { c.enqueue(1, { transfer: [] }); } catch (e) { log.push(e.constructor.name); }
            },
        });
        "#,
        "log.join('|')",
    );
    assert_eq!(out, "RangeError getter|TypeError");
}

#[test]
fn a_chunk_that_cannot_be_cloned_errors_the_stream() {
    let out = both_modes(|_| {
        run_log(
            r#"
            const buffer = new ArrayBuffer(1);
            const rs = new ReadableStream({
                type: 'owning',
                start(c) {
                    try { c.enqueue(() => 1); }
                    catch (e) { log.push('throw ' + e.name); }
                    try { c.enqueue(2); } catch (e) { log.push('then ' + e.constructor.name); }
                },
            });
            rs.getReader().read().catch(e => log.push('read ' + e.name));
            // A non-transferable entry in the transfer list: DataCloneError, nothing detached.
            const rs2 = new ReadableStream({
                type: 'owning',
                start(c) {
                    try { c.enqueue(buffer, { transfer: [buffer, {}] }); }
                    catch (e) { log.push('list ' + e.name + ' ' + buffer.byteLength); }
                },
            });
            rs2.getReader().closed.catch(e => log.push('closed ' + e.name));
            "#,
            "log.join('|')",
        )
    });
    assert_eq!(
        out,
        "throw DataCloneError|then TypeError|list DataCloneError 1|read DataCloneError|closed DataCloneError"
    );
}

#[test]
fn size_sees_the_original_chunk_and_a_bad_size_transfers_nothing() {
    let out = run_log(
        r#"
        const buffer = new ArrayBuffer(4);
        const rs = new ReadableStream({
            type: 'owning',
            start(c) {
                try { c.enqueue(buffer, { transfer: [buffer] }); }
                catch (e) { log.push(e.constructor.name + ' ' + buffer.byteLength); }
            },
        }, { size(chunk) { log.push('size ' + (chunk === buffer) + ' ' + chunk.byteLength); return -1; } });
        "#,
        "log.join('|')",
    );
    assert_eq!(out, "size true 4|RangeError 4");
}

#[test]
fn tee_clones_the_chunk_for_branch2() {
    let out = both_modes(|_| {
        run_log(
            r#"
            const rs = new ReadableStream({
                type: 'owning',
                start(c) { c.enqueue({ n: 1, bytes: new Uint8Array([7]) }); c.close(); },
            });
            const [b1, b2] = rs.tee();
            Promise.all([b1.getReader().read(), b2.getReader().read()]).then(([r1, r2]) => {
                r1.value.n = 5;
                r1.value.bytes[0] = 9;
                log.push((r1.value === r2.value) + ' ' + r2.value.n + ' ' + r2.value.bytes[0]
                    + ' ' + (r1.value.bytes.buffer === r2.value.bytes.buffer));
            });
            // A default stream still tees without cloning.
            const chunk = {};
            const [d1, d2] = new ReadableStream({ start(c) { c.enqueue(chunk); } }).tee();
            Promise.all([d1.getReader().read(), d2.getReader().read()])
                .then(([r1, r2]) => log.push('default ' + (r1.value === chunk && r2.value === chunk)));
            "#,
            "log.join('|')",
        )
    });
    assert_eq!(out, "false 1 7 false|default true");
}

#[test]
fn tee_of_a_transfer_only_value_errors_both_branches_and_cancels() {
    let out = both_modes(|_| {
        run_log(
            r#"
            const { port1 } = new MessageChannel();
            const rs = new ReadableStream({
                type: 'owning',
                start(c) { c.enqueue({ port1 }, { transfer: [port1] }); },
                cancel(reason) { log.push('cancel ' + reason.name); },
            });
            const [b1, b2] = rs.tee();
            b1.getReader().read().catch(e => log.push('b1 ' + e.name));
            b2.getReader().read().catch(e => log.push('b2 ' + e.name));
            "#,
            "log.join('|')",
        )
    });
    assert_eq!(
        out,
        "cancel DataCloneError|b1 DataCloneError|b2 DataCloneError"
    );
}

#[test]
fn a_transferred_port_chunk_keeps_working() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        const { port1, port2 } = new MessageChannel();
        const rs = new ReadableStream({
            type: 'owning',
            start(c) { c.enqueue(port1, { transfer: [port1] }); },
        });
        port2.onmessage = e => log.push('port2 ' + e.data);
        rs.getReader().read().then(({ value }) => {
            log.push('same ' + (value === port1));
            value.onmessage = e => log.push('chunk ' + e.data);
            value.postMessage('to2');
            port2.postMessage('to1');
        });
        "#,
    );
    run_jobs(&mut ctx);
    let out = string(&mut ctx, "log.join('|')");
    assert!(out.starts_with("same false"), "{out}");
    assert!(
        out.contains("port2 to2") && out.contains("chunk to1"),
        "{out}"
    );
}

/// Cancel (and error) dispose of the chunks still queued: a queued `MessagePort` is closed
/// (its context releases it, its partner gets a `close` event); closing the stream does not,
/// the chunks stay readable.
#[test]
fn cancel_and_error_dispose_of_queued_ports_close_does_not() {
    for (how, disposed) in [("cancel", true), ("error", true), ("close", false)] {
        let mut ctx = context();
        eval(
            &mut ctx,
            r#"
            globalThis.log = [];
            globalThis.channels = [new MessageChannel(), new MessageChannel()];
            channels.forEach((ch, i) => { ch.port2.onclose = () => log.push('close' + i); });
            globalThis.rs = new ReadableStream({
                type: 'owning',
                start(c) {
                    globalThis.controller = c;
                    for (const ch of channels) c.enqueue(ch.port1, { transfer: [ch.port1] });
                },
            });
            "#,
        );
        run_jobs(&mut ctx);
        // Four ports: two port2s and the stream's two copies of the port1s (the originals
        // were transferred away, their context released them).
        let before = crate::message::registered_port_count(&mut ctx);
        assert_eq!(before, 4, "{how}");
        let script = match how {
            "cancel" => "rs.cancel('why');",
            "error" => "controller.error(new Error('boom'));",
            _ => "controller.close();",
        };
        eval(&mut ctx, script);
        run_jobs(&mut ctx);
        let after = crate::message::registered_port_count(&mut ctx);
        assert_eq!(after, if disposed { 2 } else { 4 }, "{how}");
        // The other ends see their partners closed.
        let closes = if disposed { "close0|close1" } else { "" };
        assert_eq!(string(&mut ctx, "log.join('|')"), closes, "{how}");
        if !disposed {
            eval(
                &mut ctx,
                r#"
                const reader = rs.getReader();
                reader.read().then(({ value }) => {
                    value.onmessage = e => log.push('got ' + e.data);
                    channels[0].port2.postMessage('still entangled');
                });
                "#,
            );
            run_jobs(&mut ctx);
            assert_eq!(string(&mut ctx, "log.join('|')"), "got still entangled");
        }
    }
}

#[test]
fn an_invalid_type_is_still_rejected() {
    let out = run_log(
        r#"
        for (const type of ['Owning', 'owning ', 'transfer']) {
            try { new ReadableStream({ type }); log.push('no'); }
            catch (e) { log.push(e.constructor.name); }
        }
        const rs = new ReadableStream({ type: 'owning', start(c) {
            log.push(c.constructor.name);
        } });
        "#,
        "log.join('|')",
    );
    assert_eq!(
        out,
        "TypeError|TypeError|TypeError|ReadableStreamDefaultController"
    );
}
