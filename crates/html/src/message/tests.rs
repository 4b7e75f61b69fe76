use crate::test_support::{context, run_out, string};

#[test]
fn messages_arrive_in_order_after_start() {
    assert_eq!(
        run_out(r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            port1.postMessage('a'); port1.postMessage({ b: [1, 2] }); port1.postMessage(3n);
            port2.addEventListener('message', (e) => out.push(e.constructor.name + ':' + JSON.stringify(e.data, (k, v) => typeof v === 'bigint' ? v + 'n' : v) + ':' + e.isTrusted + ':' + e.ports.length));
            out.push('sync');
            Promise.resolve().then(() => out.push('microtask'));
            port2.start();
        "#),
        "sync,microtask,MessageEvent:\"a\":true:0,MessageEvent:{\"b\":[1,2]}:true:0,MessageEvent:\"3n\":true:0"
    );
}

#[test]
fn without_start_nothing_is_delivered_and_onmessage_starts() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const c1 = new MessageChannel();
            c1.port2.addEventListener('message', () => out.push('never'));
            c1.port1.postMessage(1);
            const c2 = new MessageChannel();
            c2.port1.postMessage('x');
            c2.port2.onmessage = (e) => out.push('got ' + e.data + ' ' + (c2.port2.onmessage !== null));
            c2.port2.postMessage('back');
            c2.port1.onmessage = (e) => out.push('port1 ' + e.data);
        "#
        ),
        "got x true,port1 back"
    );
}

#[test]
fn the_message_is_serialized_at_send_time() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            const o = { v: 1 };
            port2.onmessage = (e) => out.push(e.data.v, e.data === o);
            port1.postMessage(o);
            o.v = 2;
        "#
        ),
        "1,false"
    );
}

#[test]
fn ports_transfer_and_keep_working() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const a = new MessageChannel(), b = new MessageChannel();
            b.port2.onmessage = (e) => {
              const [p] = e.ports;
              out.push(e.ports.length, p instanceof MessagePort, Object.isFrozen(e.ports), e.data.port === p);
              p.postMessage('through the transferred port');
            };
            a.port2.onmessage = (e) => out.push(e.data);
            b.port1.postMessage({ port: a.port1 }, [a.port1]);
            try { a.port1.postMessage('x', [a.port1]); } catch (e) { out.push(e.name); }
            try { b.port1.postMessage(a.port1, [a.port1]); } catch (e) { out.push(e.name); }
        "#
        ),
        "DataCloneError,DataCloneError,1,true,true,true,through the transferred port"
    );
}

#[test]
fn structured_clone_transfers_a_port_with_its_queue() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            port1.postMessage('queued before the transfer');
            const copy = structuredClone(port2, { transfer: [port2] });
            copy.onmessage = (e) => out.push(e.data);
            port1.onmessage = (e) => out.push('echo ' + e.data);
            copy.postMessage('ohai');
        "#
        ),
        "queued before the transfer,echo ohai"
    );
}

#[test]
fn close_stops_delivery_and_errors_become_messageerror_free() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            port2.onmessage = (e) => out.push(e.data);
            port1.postMessage(1);
            port1.close();
            port1.postMessage(2);
            port2.postMessage(3);
            try { port1.postMessage(() => {}); } catch (e) { out.push(e.name); }
            try { structuredClone(port1, { transfer: [port1] }); } catch (e) { out.push(e.name); }
        "#
        ),
        "DataCloneError,DataCloneError,1"
    );
}

#[test]
fn message_event_constructor_and_shape() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            r#"const { port1 } = new MessageChannel();
               const e = new MessageEvent('message', { data: 5, origin: 'o', lastEventId: 'l', ports: [port1], source: port1 });
               const d = new MessageEvent('x');
               [e.type, e.data, e.origin, e.lastEventId, e.ports[0] === port1, e.source === port1,
                d.data, d.ports.length, d instanceof Event, e.isTrusted,
                Object.getPrototypeOf(MessagePort.prototype) === EventTarget.prototype,
                String(port1), typeof MessagePort, (() => { try { new MessagePort(); } catch (e) { return e.name; } })(),
                (() => { try { MessageChannel(); } catch (e) { return e.name; } })()].join()"#
        ),
        "message,5,o,l,true,true,,0,true,false,true,[object MessagePort],function,TypeError,TypeError"
    );
}

#[test]
fn post_message_overloads_read_the_iterator_once() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            const buf = new ArrayBuffer(2);
            const list = { get [Symbol.iterator]() { out.push('get'); return function* () { yield buf; }; } };
            port2.onmessage = (e) => out.push(typeof e.data === 'number' ? e.data : e.data.byteLength);
            port1.postMessage(buf, list);
            out.push(buf.byteLength);
            port1.postMessage(1, { transfer: [] });
            port1.postMessage(2, undefined);
        "#
        ),
        "get,0,2,1,2"
    );
}

#[test]
fn closing_a_port_fires_close_at_the_other_port_after_its_queued_messages() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            port2.onmessage = (e) => out.push('message ' + e.data);
            port2.addEventListener('close', (e) => out.push(
                'close ' + e.constructor.name + ' ' + e.isTrusted + ' ' + (e.target === port2)));
            port1.onclose = () => out.push('never: the closing port gets no event');
            port1.postMessage('a');
            port1.postMessage('b');
            port1.close();
            port1.close();
            out.push('sync');
            // A port whose queue is not enabled gets close at once; its messages wait.
            const c = new MessageChannel();
            c.port1.postMessage('waiting');
            c.port2.onclose = () => {
                out.push('close before start');
                c.port2.onmessage = (e) => out.push('then ' + e.data);
            };
            c.port1.close();
        "#
        ),
        "sync,message a,message b,close Event true true,close before start,then waiting"
    );
}

#[test]
fn a_port_closed_while_its_partner_is_in_transit_fires_close_on_arrival() {
    assert_eq!(
        run_out(
            r#"
            globalThis.out = [];
            const { port1, port2 } = new MessageChannel();
            const carrier = new MessageChannel();
            carrier.port2.onmessage = (e) => {
                const moved = e.ports[0];
                moved.onclose = () => out.push('close on the moved port');
            };
            carrier.port1.postMessage(null, [port2]);
            port1.close();
        "#
        ),
        "close on the moved port"
    );
}
