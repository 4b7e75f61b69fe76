use crate::test_support::{context, eval, string};

fn check(src: &str, expected: &str) {
    let mut ctx = context();
    assert_eq!(string(&mut ctx, src), expected, "{src}");
}

#[test]
fn primitives_round_trip() {
    check(
        r#"[undefined, null, true, 0.5, -0, NaN, 12345678901234567890n, '\uD800x']
            .map((v) => { const c = structuredClone(v); return Object.is(c, v) ? 'ok' : 'bad:' + String(c); }).join()"#,
        "ok,ok,ok,ok,ok,ok,ok,ok",
    );
}

#[test]
fn wrappers_dates_regexps() {
    check(
        r#"const c = structuredClone([new Boolean(false), new Number(-0), new String('ab'), Object(5n),
              new Date(86400000), /a\/b/gimsuy, /x/dv]);
           [typeof c[0], c[0].valueOf(), Object.is(c[1].valueOf(), -0), c[2].length, c[2][1], typeof c[3], c[3].valueOf(),
            c[4].getTime(), c[4] instanceof Date, c[5].lastIndex, c[5].source === /a\/b/.source, c[5].test('a/b'), c[5].flags, c[6].flags].join()"#,
        "object,false,true,2,b,object,5,86400000,true,0,true,true,gimsuy,dv",
    );
}

#[test]
fn objects_arrays_cycles_and_shared_references() {
    check(
        r#"const shared = { s: 1 };
           const o = { a: shared, b: shared, arr: [1, , 3] };
           o.self = o; o.arr.push(o.arr); o.arr.extra = 'x';
           const c = structuredClone(o);
           [c !== o, c.self === c, c.a === c.b, c.a !== shared, c.arr.length, 1 in c.arr,
            c.arr[3] === c.arr, c.arr.extra, Array.isArray(c.arr), Object.keys(c).join('|')].join()"#,
        "true,true,true,true,4,false,true,x,true,a|b|arr|self",
    );
}

#[test]
fn getters_run_in_order_and_deleted_properties_are_skipped() {
    check(
        r#"const log = [];
           const o = { get a() { log.push('a'); delete this.b; return 1; }, b: 2, get c() { log.push('c'); return 3; } };
           Object.defineProperty(o, 'hidden', { value: 4, enumerable: false });
           o[Symbol('s')] = 5;
           const c = structuredClone(o);
           log.join() + ';' + JSON.stringify(c) + ';' + Object.getOwnPropertyDescriptor(c, 'a').writable"#,
        r#"a,c;{"a":1,"c":3};true"#,
    );
}

#[test]
fn maps_sets_errors() {
    check(
        r#"const k = {};
           const m = new Map([[k, 'v'], ['k2', k]]);
           const s = new Set([k, 1]);
           const [cm, cs] = structuredClone([m, s]);
           const ck = [...cm.keys()][0];
           const e = structuredClone(new RangeError('boom'));
           const custom = new TypeError('t'); custom.name = 'Custom';
           const ce = structuredClone(custom);
           const noMsg = structuredClone(new Error());
           [cm.get(ck), cm.get('k2') === ck, cs.has(ck), cs.has(1), cs.size,
            e instanceof RangeError, e.name, e.message, typeof e.stack, Object.keys(e).length,
            ce.constructor.name, ce.name, ce.message, 'message' in noMsg && Object.hasOwn(noMsg, 'message')].join()"#,
        "v,true,true,true,2,true,RangeError,boom,string,0,Error,Error,t,false",
    );
}

#[test]
fn buffers_and_views_keep_offset_and_length() {
    check(
        r#"const buf = new ArrayBuffer(16);
           new Uint8Array(buf).forEach((_, i, a) => a[i] = i);
           const u = new Uint8Array(buf, 2, 3), d = new DataView(buf, 4, 8), f = new Float64Array(buf, 8, 1);
           const [cu, cd, cf, cb] = structuredClone([u, d, f, buf]);
           [cu.byteOffset, cu.length, cu[0], cd.byteOffset, cd.byteLength, cd.getUint8(0), cf.byteOffset, cf.length,
            cu.buffer === cd.buffer, cu.buffer === cb, cb.byteLength, buf.byteLength, cd instanceof DataView].join()"#,
        "2,3,2,4,8,4,8,1,true,true,16,16,true",
    );
}

#[test]
fn resizable_buffers_stay_resizable() {
    check(
        r#"const b = new ArrayBuffer(4, { maxByteLength: 16 });
           const c = structuredClone(b);
           [c.resizable, c.maxByteLength, c.byteLength].join()"#,
        "true,16,4",
    );
}

#[test]
fn transfer_detaches_and_moves_the_data() {
    check(
        r#"const buf = new Uint8Array([1, 2, 3, 4]).buffer;
           const view = new Uint8Array(buf, 1, 2);
           const c = structuredClone({ view, buf }, { transfer: [buf] });
           [buf.byteLength, buf.detached, view.length, c.buf.byteLength, c.view.buffer === c.buf,
            c.view.byteOffset, Array.from(c.view).join('')].join()"#,
        "0,true,0,4,true,1,23",
    );
}

#[test]
fn data_clone_errors() {
    check(
        r#"const cases = [
             () => structuredClone(() => 1),
             () => structuredClone(Symbol('s')),
             () => structuredClone({ f() {} }),
             () => structuredClone(new WeakMap()),
             () => structuredClone(new Proxy({}, {})),
             () => structuredClone(Promise.resolve()),
             () => { const b = new ArrayBuffer(1); structuredClone(b, { transfer: [b] }); structuredClone(b); },
             () => { const b = new ArrayBuffer(1); structuredClone(b, { transfer: [b] }); structuredClone(0, { transfer: [b] }); },
             () => { const b = new ArrayBuffer(1); structuredClone(0, { transfer: [b, b] }); },
             () => structuredClone(0, { transfer: [{}] }),
             () => structuredClone(new SharedArrayBuffer(1)),
           ];
           cases.map((f) => { try { f(); return 'no throw'; } catch (e) { return e instanceof DOMException ? e.name : String(e); } }).join()"#,
        "DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError,DataCloneError",
    );
}

#[test]
fn getter_exceptions_propagate_and_bad_transfer_lists_are_type_errors() {
    check(
        r#"const r = [];
           try { structuredClone({ get x() { throw new Error('mine'); } }); } catch (e) { r.push(e.message); }
           try { structuredClone(0, { transfer: 5 }); } catch (e) { r.push(e.name); }
           try { structuredClone(0, { transfer: [1] }); } catch (e) { r.push(e.name); }
           try { structuredClone(); } catch (e) { r.push(e.name); }
           r.join()"#,
        "mine,TypeError,TypeError,TypeError",
    );
}

#[test]
fn dom_exceptions_and_object_prototype() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.c = structuredClone(new DOMException('m', 'AbortError')); globalThis.p = structuredClone(Object.prototype);",
    );
    assert_eq!(
        string(
            &mut ctx,
            "[c instanceof DOMException, c.name, c.message, c.code, Object.getPrototypeOf(p) === Object.prototype, (Object.setPrototypeOf(p, {q: 1}), p.q)].join()"
        ),
        "true,AbortError,m,20,true,1"
    );
}

/// The script that reads back a cloned Blob and File into `globalThis.out`.
const DESCRIBE_BLOBS: &str = r#"
    globalThis.describe = async ([b, f, again]) => [
        b instanceof Blob, b instanceof File, b.size, b.type, await b.text(),
        f instanceof File, f.size, f.type, f.name, f.lastModified,
        Array.from(new Uint8Array(await f.arrayBuffer())).join(' '), again === b,
    ].join();
    globalThis.blob = new Blob(['h\u00e9', new Uint8Array([0, 255])], { type: 'Text/Plain' });
    globalThis.file = new File(['ab', new Uint8Array([1, 2])], 'na\uD800me.bin', { type: 'application/x-Y', lastModified: 1234567 });
"#;

const BLOBS_EXPECTED: &str =
    "true,false,5,text/plain,h\u{e9}\0\u{fffd},true,4,application/x-y,na\u{fffd}me.bin,1234567,97 98 1 2,true";

#[test]
fn blob_and_file_round_trip_through_structured_clone() {
    let mut ctx = context();
    eval(&mut ctx, DESCRIBE_BLOBS);
    eval(
        &mut ctx,
        r#"const c = structuredClone([blob, file, blob]);
           globalThis.distinct = c[0] !== blob && c[1] !== file;
           describe(c).then((d) => { globalThis.out = d; });"#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "String(distinct)"), "true");
    assert_eq!(string(&mut ctx, "out"), BLOBS_EXPECTED);
}

#[test]
fn blob_and_file_round_trip_through_a_message_channel() {
    let mut ctx = context();
    eval(&mut ctx, DESCRIBE_BLOBS);
    eval(
        &mut ctx,
        r#"const { port1, port2 } = new MessageChannel();
           port2.onmessage = (e) => describe(e.data).then((d) => { globalThis.out = d; });
           port1.postMessage([blob, file, blob]);"#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "out"), BLOBS_EXPECTED);
}

#[test]
fn blob_serialization_shares_the_bytes_and_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let mut ctx = context();
    let piece = bytes::Bytes::from(vec![7u8; 64]);
    let blob = boa_fileapi::create_blob([piece.clone()], "x/y", &mut ctx).unwrap();
    let serialized = super::structured_serialize(&blob, &mut ctx).unwrap();
    assert_send(&serialized);
    let super::Serialized::Object(record) = &serialized else {
        panic!("not an object record: {serialized:?}");
    };
    let super::ObjectRecord::Blob(b) = record.as_ref() else {
        panic!("not a Blob record: {record:?}");
    };
    assert_eq!(b.type_, "x/y");
    assert_eq!(b.file, None);
    assert_eq!(b.bytes.parts().len(), 1);
    assert_eq!(b.bytes.parts()[0].as_ptr(), piece.as_ptr());
    let back = super::structured_deserialize(serialized, &mut ctx).unwrap();
    let again = boa_fileapi::blob_bytes(&back).unwrap();
    assert_eq!(again.parts()[0].as_ptr(), piece.as_ptr());
    assert_eq!(again.len(), 64);
}
