use ::bytes::Bytes;
use boa_engine::{js_string, JsValue};

use super::*;
use crate::test_support::{context, eval, run_async_out, string};

#[test]
fn constructor_parts_types_and_endings() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            r#"
            const b = new Blob(['a\r\nb\rc', new Uint8Array([0x41, 0x42]).subarray(1),
                                new Blob(['xy']), new ArrayBuffer(1)],
                               {type: 'Text/HTML', endings: 'native'});
            [b.size, b.type, new Blob([], {type: 'a\u00e9'}).type, new Blob(['\ud800']).size,
             Object.prototype.toString.call(b), new Blob().size].join()
            "#
        ),
        "9,text/html,,3,[object Blob],0"
    );
    assert_eq!(
        string(
            &mut ctx,
            "try { new Blob([], {endings: 'bad'}); 'no' } catch (e) { e.name }"
        ),
        "TypeError"
    );
    assert_eq!(
        string(&mut ctx, "try { Blob(); 'no' } catch (e) { e.name }"),
        "TypeError"
    );
}

#[test]
fn slicing_shares_the_backing_bytes() {
    let mut ctx = context();
    let backing = Bytes::from(b"0123456789".to_vec());
    let blob = create_blob([backing.clone()], "", &mut ctx).unwrap();
    ctx.global_object()
        .set(js_string!("blob"), blob, false, &mut ctx)
        .unwrap();
    let sliced = eval(&mut ctx, "new Blob([blob.slice(-7, -2)]).slice(1)");
    let seq = blob_bytes(&sliced).unwrap();
    assert_eq!(seq.to_vec(), b"4567");
    assert_eq!(seq.parts().len(), 1);
    // The same memory as the Bytes the blob was made from.
    assert_eq!(seq.parts()[0].as_ptr(), backing[4..].as_ptr());
    assert_eq!(
        string(
            &mut ctx,
            "[blob.slice(3, 1).size, blob.slice(-100, 100).size, blob.slice(8, 1e20).size, \
             blob.slice(0, 1, 'A/B').type, blob.slice(NaN, -Infinity).size].join()"
        ),
        "0,10,2,a/b,0"
    );
}

#[test]
fn text_array_buffer_bytes() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const b = new Blob(['\ufeffh\u00e9', new Uint8Array([0xff])]);
        out.push(await b.text());
        out.push(new Uint8Array(await b.arrayBuffer()).join(' '));
        const u = await b.bytes();
        out.push(u.constructor.name + ':' + u.length);
        out.push(await Blob.prototype.text.call({}).catch((e) => e.name));
        "#,
    );
    assert_eq!(
        out,
        "h\u{e9}\u{fffd}|239 187 191 104 195 169 255|Uint8Array:7|TypeError|done"
    );
}

#[test]
fn stream_reads_in_chunks_and_under_byob() {
    let mut ctx = context();
    let big = Bytes::from(vec![7u8; STREAM_CHUNK_SIZE * 2 + 5]);
    let blob = create_blob([big], "", &mut ctx).unwrap();
    ctx.global_object()
        .set(js_string!("big"), blob, false, &mut ctx)
        .unwrap();
    let out = run_async_out(
        &mut ctx,
        r#"
        const sizes = [];
        for await (const c of big.stream()) sizes.push(c.length);
        out.push(sizes.join(' '));
        const r = new Blob(['hello world']).stream().getReader({mode: 'byob'});
        let buf = new ArrayBuffer(4), got = '';
        for (;;) {
          const {value, done} = await r.read(new Uint8Array(buf));
          if (done) break;
          got += String.fromCharCode(...value) + '/';
          buf = value.buffer;
        }
        out.push(got);
        const s = new Blob(['abc']).stream();
        out.push(s.getReader({mode: 'byob'}) instanceof ReadableStreamBYOBReader);
        const empty = await new Blob([]).stream().getReader().read();
        out.push(empty.done);
        "#,
    );
    assert_eq!(out, "65536 65536 5|hell/o wo/rld/|true|true|done");
}

#[test]
fn file_name_and_last_modified() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            r#"
            const f = new File(['ab', new Blob(['c'])], 'n\ud800.txt', {type: 'X', lastModified: 42});
            [f.name === 'n\ufffd.txt', f.lastModified, f.size, f.type, f instanceof Blob,
             Object.prototype.toString.call(f), File.length,
             typeof new File([], 'x').lastModified].join()
            "#
        ),
        "true,42,3,x,true,[object File],2,number"
    );
    // lastModified is a long long: negative values stay (ConvertToInt, 64 bits, signed).
    assert_eq!(
        string(
            &mut ctx,
            "[-42, -42.7, -0, 2 ** 53, -(2 ** 63), 2 ** 63, -1e20, NaN]
                .map(lastModified => new File([], 'x', { lastModified }).lastModified).join()"
        ),
        "-42,-42,0,9007199254740992,-9223372036854776000,-9223372036854776000,-7766279631452242000,0"
    );
    assert_eq!(
        string(&mut ctx, "try { new File([]); 'no' } catch (e) { e.name }"),
        "TypeError"
    );
    assert_eq!(
        string(
            &mut ctx,
            "try { Object.getOwnPropertyDescriptor(File.prototype, 'name').get.call(new Blob()); 'no' } catch (e) { e.name }"
        ),
        "TypeError"
    );
}

#[test]
fn file_reader_events_and_results() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const read = (method, blob, ...args) => new Promise((resolve) => {
          const fr = new FileReader();
          const log = [];
          for (const t of ['loadstart', 'progress', 'load', 'error', 'abort', 'loadend'])
            fr.addEventListener(t, (e) => log.push(t + fr.readyState));
          fr.onloadend = () => resolve(log.join(',') + '=' + (fr.result instanceof ArrayBuffer
              ? new Uint8Array(fr.result).join(' ') : fr.result));
          fr[method](blob, ...args);
          log.push('sync' + fr.readyState);
        });
        out.push(await read('readAsText', new Blob(['h\u00e9'])));
        out.push(await read('readAsText', new Blob([new Uint8Array([0xe9])]), 'latin1'));
        out.push(await read('readAsText', new Blob([new Uint8Array([0xe9])], {type: 'text/plain;charset=windows-1252'})));
        out.push(await read('readAsArrayBuffer', new Blob(['ab'])));
        out.push(await read('readAsDataURL', new Blob(['hello'], {type: 'text/plain'})));
        out.push(await read('readAsDataURL', new Blob([])));
        out.push(await read('readAsBinaryString', new Blob([new Uint8Array([0xff, 0x41])])));
        "#,
    );
    assert_eq!(
        out,
        [
            "sync1,loadstart1,progress1,load2,loadend2=h\u{e9}",
            "sync1,loadstart1,progress1,load2,loadend2=\u{e9}",
            "sync1,loadstart1,progress1,load2,loadend2=\u{e9}",
            "sync1,loadstart1,progress1,load2,loadend2=97 98",
            "sync1,loadstart1,progress1,load2,loadend2=data:text/plain;base64,aGVsbG8=",
            "sync1,loadstart1,load2,loadend2=data:application/octet-stream;base64,",
            "sync1,loadstart1,progress1,load2,loadend2=\u{ff}A",
            "done"
        ]
        .join("|")
    );
}

#[test]
fn file_reader_abort_and_busy() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const fr = new FileReader();
        const log = [];
        for (const t of ['loadstart', 'progress', 'load', 'abort', 'loadend'])
          fr.addEventListener(t, () => log.push(t));
        fr.readAsText(new Blob(['x']));
        try { fr.readAsText(new Blob(['y'])); } catch (e) { log.push(e.name); }
        fr.abort();
        log.push(fr.readyState + ':' + fr.result);
        globalThis.abortLog = log;
        out.push([FileReader.EMPTY, FileReader.LOADING, FileReader.DONE, new FileReader().readyState].join());
        out.push(new FileReader() instanceof EventTarget);
        try { FileReader.prototype.readAsText.call(new EventTarget(), new Blob()); } catch (e) { out.push(e.name); }
        try { new FileReader().readAsText('x'); } catch (e) { out.push(e.name); }
        "#,
    );
    assert_eq!(out, "0,1,2,0|true|TypeError|TypeError|done");
    // The queued tasks of the aborted read do nothing.
    assert_eq!(
        string(&mut ctx, "abortLog.join()"),
        "InvalidStateError,abort,loadend,2:null"
    );
}

#[test]
fn file_list_is_an_interface_without_constructor() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            "try { new FileList(); 'no' } catch (e) { e.name + typeof FileList.prototype.item + FileList.prototype.item.length }"
        ),
        "TypeErrorfunction1"
    );
}

#[test]
fn file_reader_fires_progress_events_with_loaded_and_total() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const describe = (e) => [e.type, e.constructor.name, e.lengthComputable, e.loaded, e.total,
                                 e.bubbles, e.cancelable, e.isTrusted].join(':');
        const read = (blob) => new Promise((resolve) => {
          const fr = new FileReader();
          const log = [];
          for (const t of ['loadstart', 'progress', 'load', 'loadend'])
            fr.addEventListener(t, (e) => { log.push(describe(e)); if (t === 'loadend') resolve(log.join(' ')); });
          fr.readAsArrayBuffer(blob);
        });
        out.push(await read(new Blob(['abcd'])));
        out.push(await read(new Blob([])));
        // abort: the bytes read so far (none before the progress task, all after it).
        const fr = new FileReader();
        const log = [];
        fr.onabort = (e) => log.push(describe(e));
        fr.onloadend = (e) => log.push(describe(e));
        fr.readAsText(new Blob(['xyz']));
        fr.abort();
        const fr2 = new FileReader();
        fr2.onprogress = () => fr2.abort();
        await new Promise((r) => {
          fr2.onabort = (e) => { log.push(describe(e)); r(); };
          fr2.readAsText(new Blob(['xyz']));
        });
        out.push(log.join(' '));
        "#,
    );
    assert_eq!(
        out,
        "loadstart:ProgressEvent:true:0:4:false:false:true \
         progress:ProgressEvent:true:4:4:false:false:true \
         load:ProgressEvent:true:4:4:false:false:true \
         loadend:ProgressEvent:true:4:4:false:false:true|\
         loadstart:ProgressEvent:false:0:0:false:false:true \
         load:ProgressEvent:false:0:0:false:false:true \
         loadend:ProgressEvent:false:0:0:false:false:true|\
         abort:ProgressEvent:true:0:3:false:false:true \
         loadend:ProgressEvent:true:0:3:false:false:true \
         abort:ProgressEvent:true:3:3:false:false:true|done"
    );
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(
        &mut ctx,
        &["webidl", "dom", "streams", "fileapi", "url"],
    );
}

#[test]
fn blob_url_store_create_resolve_and_revoke() {
    let mut ctx = context();
    let out = string(
        &mut ctx,
        r#"
        const out = [];
        globalThis.blob = new Blob(['abc'], { type: 'text/x' });
        globalThis.u1 = URL.createObjectURL(blob);
        globalThis.u2 = URL.createObjectURL(new File(['x'], 'f.txt'));
        out.push(/^blob:null\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u1), u1 !== u2);
        for (const bad of [() => URL.createObjectURL(), () => URL.createObjectURL('x'),
                           () => URL.createObjectURL(new Uint8Array(1)), () => URL.revokeObjectURL()])
          try { bad(); out.push('no'); } catch (e) { out.push(e.name); }
        // Revoking anything else, or with a fragment (not an exact match), does nothing.
        URL.revokeObjectURL('not a url'); URL.revokeObjectURL('https://a/'); URL.revokeObjectURL(u2 + '#f');
        for (const n of ['createObjectURL', 'revokeObjectURL']) {
          const d = Object.getOwnPropertyDescriptor(URL, n);
          out.push(n + d.value.length + d.writable + d.enumerable + d.configurable);
        }
        out.join('|');
        "#,
    );
    assert_eq!(
        out,
        "true|true|TypeError|TypeError|TypeError|TypeError|createObjectURL1truetruetrue|revokeObjectURL1truetruetrue"
    );
    let u1 = string(&mut ctx, "u1");
    let u2 = string(&mut ctx, "u2");
    let blob = eval(&mut ctx, "blob");
    // Resolving ignores the fragment.
    let entry = blob_url::resolve_blob_url(&format!("{u1}#frag"), &ctx).unwrap();
    assert_eq!(JsValue::from(entry), blob);
    assert!(blob_url::resolve_blob_url(&u2, &ctx).is_some());
    eval(&mut ctx, "URL.revokeObjectURL(u1)");
    assert!(blob_url::resolve_blob_url(&u1, &ctx).is_none());
    assert!(blob_url::resolve_blob_url("https://a/", &ctx).is_none());
    blob_url::clear(&ctx);
    assert!(blob_url::resolve_blob_url(&u2, &ctx).is_none());
}
