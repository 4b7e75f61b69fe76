use crate::test_support::{context, eval, run_async_out, string};

#[test]
fn headers_validate_normalise_sort_and_combine() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const h = new Headers({'B': ' 1 ', 'a': '2'});
        h.append('b', '3');
        h.append('Set-Cookie', 'x=1');
        h.append('set-cookie', 'y=2');
        out.push(h.get('b'), h.get('A'), h.has('c'), h.get('c'));
        out.push([...h].map(([k, v]) => k + '=' + v).join(';'));
        out.push(h.getSetCookie().join(';'));
        h.set('B', 'z');
        h.delete('a');
        out.push([...h.keys()].join(','), [...h.values()].join(','));
        for (const bad of [() => h.append('a b', 'x'), () => h.get(''), () => h.set('x', 'a\nb'),
                           () => h.append('x', '\u0100'), () => new Headers([['a']]),
                           () => new Headers(1)])
          try { bad(); out.push('no'); } catch (e) { out.push(e.name); }
        const it = new Headers([['x', '1']]).entries();
        out.push(Object.prototype.toString.call(it), Object.getPrototypeOf(Object.getPrototypeOf(it)) === Object.getPrototypeOf(Object.getPrototypeOf([].values())));
        const live = new Headers({a: '1'});
        const li = live[Symbol.iterator]();
        live.append('b', '2');
        out.push(JSON.stringify([...li]));
        new Headers({a: '1', b: '2'}).forEach(function (v, k, o) { out.push(k + v + (o instanceof Headers) + this.t); }, {t: '!'});
        "#,
    );
    assert_eq!(
        out,
        [
            "1, 3",
            "2",
            "false",
            "",
            "a=2;b=1, 3;set-cookie=x=1;set-cookie=y=2",
            "x=1;y=2",
            "b,set-cookie,set-cookie",
            "z,x=1,y=2",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "[object Headers Iterator]",
            "true",
            "[[\"a\",\"1\"],[\"b\",\"2\"]]",
            "a1true!",
            "b2true!",
            "done"
        ]
        .join("|")
    );
}

#[test]
fn response_bodies_are_consumed_once() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const r = new Response('h\u00e9llo');
        out.push(r.headers.get('content-type'), r.bodyUsed, r.body instanceof ReadableStream);
        out.push(await r.text(), r.bodyUsed);
        out.push(await r.text().catch((e) => e.name));
        out.push(await new Response(new Uint8Array([1, 2, 3])).arrayBuffer().then((b) => new Uint8Array(b).join()));
        out.push(await new Response('{"a":[1]}').json().then((j) => j.a[0]));
        out.push(await new Response('{').json().catch((e) => e.name));
        const blob = await new Response(new Blob(['xy'], {type: 'text/x'})).blob();
        out.push(blob.size + blob.type);
        out.push((await new Response(null).bytes()).length, String(new Response().body === null ? '' : 'x'));
        // A stream of Uint8Arrays collected; a locked or non-byte chunk stream rejects.
        const s = new ReadableStream({start(c) { c.enqueue(new Uint8Array([97, 98])); c.enqueue(new Uint8Array([99])); c.close(); }});
        out.push(await new Response(s).text());
        try { new Response(s); } catch (e) { out.push(e.name); }
        const bad = new ReadableStream({start(c) { c.enqueue('str'); c.close(); }});
        out.push(await new Response(bad).text().catch((e) => e.name));
        const locked = new ReadableStream();
        const resp = new Response(locked);
        locked.getReader();
        out.push(await resp.text().catch((e) => e.name));
        try { resp.clone(); } catch (e) { out.push('clone ' + e.name); }
        "#,
    );
    assert_eq!(
        out,
        [
            "text/plain;charset=UTF-8",
            "false",
            "true",
            "h\u{e9}llo",
            "true",
            "TypeError",
            "1,2,3",
            "1",
            "SyntaxError",
            "2text/x",
            "0",
            "",
            "abc",
            "TypeError",
            "TypeError",
            "TypeError",
            "clone TypeError",
            "done"
        ]
        .join("|")
    );
}

#[test]
fn response_clone_tees_and_statics() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const r = new Response('abc', {status: 201, statusText: 'Made', headers: [['X', '1']]});
        const c = r.clone();
        out.push(await r.text(), await c.text(), c.status, c.statusText, c.headers.get('x'), c.ok);
        const e = Response.error();
        out.push(e.type, e.status, e.ok);
        try { e.headers.set('a', 'b'); } catch (err) { out.push(err.name); }
        const j = Response.json({k: 1}, {status: 202});
        out.push(j.headers.get('content-type'), j.status, await j.text());
        for (const bad of [() => new Response('', {status: 99}), () => new Response('x', {status: 204}),
                           () => new Response('', {statusText: 'a\nb'}), () => Response.json(undefined),
                           () => Response()])
          try { bad(); out.push('no'); } catch (err) { out.push(err.name); }
        const withCookie = new Response('', {headers: {'Set-Cookie': 'a'}});
        out.push(withCookie.headers.has('set-cookie'));
        "#,
    );
    assert_eq!(
        out,
        "abc|abc|201|Made|1|true|error|0|false|TypeError|application/json|202|{\"k\":1}|RangeError|TypeError|TypeError|TypeError|TypeError|true|done"
    );
}

#[test]
fn request_basics() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const r = new Request('https://example.com/x', {method: 'post', body: 'hi', headers: {Host: 'h', A: 'b'}});
        out.push(r.method, r.url, r.headers.has('host'), r.headers.get('a'), r.bodyUsed);
        const c = r.clone();
        out.push(await c.text(), await r.text(), r.bodyUsed);
        const copy = new Request(new Request('https://e.org', {method: 'PUT', body: 'zz'}));
        out.push(copy.method, await copy.text());
        for (const bad of [() => new Request('https://e.org', {method: 'GET', body: 'x'}),
                           () => new Request('https://e.org', {method: 'TRACE'}),
                           () => new Request('relative'),
                           () => new Request('https://e.org', {method: 'POST', body: new ReadableStream()}),
                           () => new Request(r)])
          try { bad(); out.push('no'); } catch (err) { out.push(err.name); }
        const s = new Request('https://e.org', {method: 'POST', body: new ReadableStream({start(c) { c.close(); }}), duplex: 'half'});
        out.push(JSON.stringify(await s.text()), new Request('https://e.org').signal.aborted);
        "#,
    );
    assert_eq!(
        out,
        "POST|https://example.com/x|true|b|false|hi|hi|true|PUT|zz|TypeError|TypeError|TypeError|TypeError|TypeError|\"\"|false|done"
    );
}

#[test]
fn response_redirect_and_form_data() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const r = Response.redirect('https://e.org/a', 301);
        out.push(r.status, r.headers.get('location'), r.body === null);
        try { Response.redirect('https://e.org/a', 200); } catch (e) { out.push(e.name); }
        out.push(await new Response('x').formData().catch((e) => e.name));
        out.push(await Response.prototype.text.call({}).catch((e) => e.name));
        "#,
    );
    assert_eq!(
        out,
        "301|https://e.org/a|true|RangeError|TypeError|TypeError|done"
    );
}

#[test]
fn request_signal_follows_init_or_input_signal() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const c = new AbortController();
        const r = new Request('http://a/', {signal: c.signal});
        out.push(r.signal !== c.signal, r.signal.aborted);
        c.abort('why');
        out.push(r.signal.aborted, r.signal.reason);
        // Already aborted: the new signal starts aborted with the reason.
        const r2 = new Request(r);
        out.push(r2.signal.aborted, r2.signal.reason);
        const c2 = new AbortController();
        const r3 = new Request('http://a/', {signal: c2.signal});
        const r4 = new Request(r3);
        const r5 = r3.clone();
        const r6 = new Request(r3, {signal: null});
        const r7 = new Request('http://a/');
        c2.abort();
        out.push(r4.signal.aborted, r5.signal.aborted, r6.signal.aborted, r7.signal.aborted,
                 r4.signal.reason.name);
        "#,
    );
    assert_eq!(
        out,
        "true|false|true|why|true|why|true|true|false|false|AbortError|done"
    );
}

#[test]
fn request_from_request_pipes_the_body_through_a_transform() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const src = new Request('http://a/', {method: 'POST', body: 'hello'});
        const p = new Request(src);
        out.push(src.bodyUsed, src.body.locked, p.bodyUsed, p.body === src.body);
        try { new Request(src); } catch (e) { out.push(e.name); }
        out.push(await p.text(), p.bodyUsed);
        // A stream body goes through chunk by chunk; an error of the source reaches the proxy.
        const rs = new ReadableStream({start(c) { c.enqueue(new Uint8Array([104, 105])); c.close(); }});
        const s = new Request('http://a/', {method: 'POST', body: rs, duplex: 'half'});
        out.push(await new Request(s).text());
        const bad = new ReadableStream({pull(c) { c.error(new RangeError('boom')); }});
        const b = new Request('http://a/', {method: 'POST', body: bad, duplex: 'half'});
        out.push(await new Request(b).text().catch((e) => e.name));
        // A new body in init replaces the input's; the input stays unused.
        const keep = new Request('http://a/', {method: 'POST', body: 'x'});
        const other = new Request(keep, {body: 'y'});
        out.push(keep.bodyUsed, await other.text());
        "#,
    );
    assert_eq!(
        out,
        "true|true|false|false|TypeError|hello|true|hi|RangeError|false|y|done"
    );
}

/// HeadersInit conversion: a sequence's items are converted while it is iterated (each inner
/// pair's ByteStrings before the next outer step); a record's enumerable Symbol key throws,
/// a non-enumerable one is skipped.
#[test]
fn headers_init_conversion_order_and_symbol_keys() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const log = [];
        const str = (s) => ({ toString() { log.push(s); return s; } });
        function* outer() {
          log.push('outer 1'); yield [str('a'), str('1')];
          log.push('outer 2'); yield [str('b'), str('2')];
        }
        const h = new Headers(outer());
        out.push(log.join(' '), [...h].join(';'));
        try { new Headers({[Symbol('x')]: '1'}); out.push('no'); } catch (e) { out.push(e.name); }
        const o = {a: '1'};
        Object.defineProperty(o, Symbol('y'), { value: '2', enumerable: false });
        out.push([...new Headers(o)].join(';'));
        "#,
    );
    assert_eq!(out, "outer 1 a 1 outer 2 b 2|a,1;b,2|TypeError|a,1|done");
}

#[test]
fn bodies_from_url_search_params() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.out = []; (async () => { \
           const p = new URLSearchParams([['a', 'b c'], ['d', '\\u00e9']]); \
           const r = new Response(p); \
           out.push(r.headers.get('content-type'), await r.text()); \
           const q = new Request('http://example.com/', {method: 'POST', body: p}); \
           out.push(q.headers.get('content-type'), await q.text()); \
           const keep = new Response(p, {headers: {'content-type': 'text/x'}}); \
           out.push(keep.headers.get('content-type')); \
         })().then(() => out.push('done'), e => out.push('threw ' + e));",
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        string(&mut ctx, "out.join('|')"),
        "application/x-www-form-urlencoded;charset=UTF-8|a=b+c&d=%C3%A9|\
         application/x-www-form-urlencoded;charset=UTF-8|a=b+c&d=%C3%A9|text/x|done"
    );
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(
        &mut ctx,
        &["webidl", "dom", "streams", "fileapi", "url", "fetch"],
    );
}

#[test]
fn json_accepts_what_boa_json_parse_rejects() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        out.push(await new Response('"\\ud83c"').json().then((s) => s === '\ud83c'));
        out.push(await new Response('1e400').json());
        const deep = await new Response('['.repeat(1000) + ']'.repeat(1000)).json();
        out.push(Array.isArray(deep[0][0]));
        out.push(await new Response('{"__proto__": 1}').json().then((o) => Object.keys(o).join()));
        "#,
    );
    assert_eq!(out, "true|Infinity|true|__proto__|done");
}

#[test]
fn form_data_entry_list_operations() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const fd = new FormData();
        fd.append('a', 1);
        fd.append('b', new Blob(['xy'], {type: 'Text/X'}));
        const f = new File(['z'], 'z.txt', {lastModified: 5});
        fd.append('c', f);
        fd.append('d', f, 'renamed');
        fd.append('a', '\ud800');
        const b = fd.get('b');
        out.push(fd.get('a'), b instanceof File, b.name, b.type, b.size, fd.get('c') === f);
        out.push(fd.get('d').name, fd.get('d').lastModified, fd.get('d') !== f);
        out.push(JSON.stringify(fd.getAll('a')), fd.getAll('a')[1] === '\ufffd', fd.has('b'), fd.has('x'), String(fd.get('x')));
        fd.set('a', 'one');
        out.push([...fd.keys()].join(','));
        fd.set('e', new Blob([]), 'e.bin');
        fd.delete('b');
        out.push([...fd].map(([k, v]) => k + '=' + (typeof v === 'string' ? v : v.name)).join(';'));
        fd.forEach(function (v, k, o) { if (k === 'a') out.push(v + (o === fd) + this.t); }, {t: '!'});
        out.push(Object.prototype.toString.call(fd), Object.prototype.toString.call(fd.entries()));
        for (const bad of [() => fd.append('x'), () => fd.append('x', 'y', 'z'), () => fd.set('x', {}, undefined),
                           () => new FormData(null), () => new FormData({}), () => FormData(), () => fd.get(),
                           () => FormData.prototype.get.call({}, 'a')])
          try { bad(); out.push('no'); } catch (e) { out.push(e.name); }
        fd.append('u', new Blob(['q']), undefined);
        out.push(fd.get('u').name, new FormData(undefined).has('a'), FormData.length);
        const p = new URLSearchParams(fd);
        out.push(p.toString());
        "#,
    );
    assert_eq!(
        out,
        [
            "1",
            "true",
            "blob",
            "text/x",
            "2",
            "true",
            "renamed",
            "5",
            "true",
            "[\"1\",\"\u{fffd}\"]",
            "true",
            "true",
            "false",
            "null",
            "a,b,c,d",
            "a=one;c=z.txt;d=renamed;e=e.bin",
            "onetrue!",
            "[object FormData]",
            "[object FormData Iterator]",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "blob",
            "false",
            "0",
            "a=one&c=%5Bobject+File%5D&d=%5Bobject+File%5D&e=%5Bobject+File%5D&u=%5Bobject+File%5D",
            "done",
        ]
        .join("|")
    );
}

#[test]
fn form_data_body_round_trips() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const bin = new Uint8Array(300);
        for (let i = 0; i < bin.length; i++) bin[i] = (i * 7) & 255;
        bin.set([13, 10, 45, 45], 100);
        const fd = new FormData();
        fd.append('text\n"q"', 'line1\nline2\rline3\r\n\u00e9');
        fd.append('file', new File([bin], 'we"ird\r\nname \u00fc\u{1F600}.bin', {type: 'application/x-bin'}));
        fd.append('empty', new Blob([]));
        const res = new Response(fd);
        const ct = res.headers.get('content-type');
        const boundary = ct.split('boundary=')[1];
        out.push(ct.startsWith('multipart/form-data; boundary=----BoaFormBoundary'), boundary.length);
        const text = await res.clone().text();
        out.push(text.includes('name="text%0D%0A%22q%22"'), text.includes('filename="we%22ird%0D%0Aname \u00fc\u{1F600}.bin"'));
        out.push(text.includes('line1\r\nline2\r\nline3\r\n\u00e9'), text.includes('name="empty"; filename="blob"\r\nContent-Type: application/octet-stream'));
        out.push(text.endsWith('--' + boundary + '--\r\n'));
        const back = await res.formData();
        out.push([...back.keys()].map(JSON.stringify).join(','));
        out.push(JSON.stringify(back.get('text\r\n"q"')));
        const file = back.get('file');
        out.push(file instanceof File, JSON.stringify(file.name), file.type, file.size);
        const got = new Uint8Array(await file.arrayBuffer());
        out.push(got.every((b, i) => b === bin[i]));
        out.push(back.get('empty').size, back.get('empty').type);
        // A Request body too, and a URL-encoded one.
        const req = new Request('http://x/', {method: 'POST', body: fd});
        out.push(req.headers.get('content-type') !== ct, (await req.formData()).get('file').size);
        const u = await new Response('a=1&b=%C3%A9+x&a=2', {headers: {'content-type': 'application/x-www-form-urlencoded'}}).formData();
        out.push(JSON.stringify([...u]));
        // Other content types, bad bodies: TypeError.
        for (const [body, type] of [['a=1', 'text/plain'], ['a=1', null], ['--b\r\n', 'multipart/form-data; boundary=b'],
                                    ['x', 'multipart/form-data'], ['', 'multipart/form-data; boundary=b']]) {
          const r = new Response(body, type ? {headers: {'content-type': type}} : {});
          if (!type) r.headers.delete('content-type');
          try { await r.formData(); out.push('no'); } catch (e) { out.push(e.name); }
        }
        const empty = await new Response(null, {headers: {'content-type': 'application/x-www-form-urlencoded'}}).formData();
        out.push([...empty].length);
        out.push(fd instanceof FormData, typeof structuredClone);
        "#,
    );
    assert_eq!(
        out,
        [
            "true",
            "51",
            "true",
            "true",
            "true",
            "true",
            "true",
            "\"text\\r\\n\\\"q\\\"\",\"file\",\"empty\"",
            "\"line1\\r\\nline2\\r\\nline3\\r\\né\"",
            "true",
            "\"we\\\"ird\\r\\nname ü😀.bin\"",
            "application/x-bin",
            "300",
            "true",
            "0",
            "application/octet-stream",
            "true",
            "300",
            "[[\"a\",\"1\"],[\"b\",\"é x\"],[\"a\",\"2\"]]",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "0",
            "true",
            "undefined",
            "done",
        ]
        .join("|")
    );
}

#[test]
fn form_data_with_ten_thousand_fields() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const fd = new FormData();
        for (let i = 0; i < 10000; i++) fd.append('f' + i, i % 2 ? 'v' + i : new Blob(['b' + i]));
        const back = await new Response(fd).formData();
        const keys = [...back.keys()];
        out.push(keys.length, keys[9999], back.get('f9999'), back.get('f9998').name, await back.get('f9998').text());
        "#,
    );
    assert_eq!(out, "10000|f9999|v9999|blob|b9998|done");
}

#[test]
fn form_data_body_bytes_are_exact_and_share_the_files() {
    let mut ctx = context();
    // The file's bytes, made in Rust: the extracted body holds the same memory.
    let data = bytes::Bytes::from(vec![0xAB; 100_000]);
    let blob = boa_fileapi::create_blob(vec![data.clone()], "", &mut ctx).unwrap();
    crate::test_support::set_global(&mut ctx, "data", blob);
    let fd = eval(
        &mut ctx,
        "globalThis.fd = new FormData(); fd.append('k', 'v\\n'); fd.append('f', data, 'a\\u00e9'); fd",
    );
    let (body, content_type) = crate::body::extract(&fd, false, &mut ctx).unwrap();
    let content_type = String::from_utf8(content_type.unwrap()).unwrap();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap()
        .to_string();
    let source = body.source.clone().unwrap();
    assert!(source.parts().iter().any(|p| p.as_ptr() == data.as_ptr()));
    let mut expected = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\u{e9}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    expected.extend_from_slice(&data);
    expected.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    assert_eq!(source.to_vec(), expected);
    // What script reads from `new Response(fd)` is exactly those bytes.
    let out = run_async_out(
        &mut ctx,
        r#"
        const res = new Response(fd);
        const boundary = res.headers.get('content-type').split('boundary=')[1];
        const got = new Uint8Array(await res.arrayBuffer());
        const head = `--${boundary}\r\nContent-Disposition: form-data; name="k"\r\n\r\nv\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a\u00e9"\r\nContent-Type: application/octet-stream\r\n\r\n`;
        const headBytes = new Uint8Array(await new Blob([head]).arrayBuffer());
        const tail = `\r\n--${boundary}--\r\n`;
        out.push(got.length === headBytes.length + 100000 + tail.length);
        out.push(headBytes.every((b, i) => got[i] === b));
        out.push(got.subarray(headBytes.length, headBytes.length + 100000).every((b) => b === 0xAB));
        out.push(String.fromCharCode(...got.subarray(headBytes.length + 100000)) === tail);
        "#,
    );
    assert_eq!(out, "true|true|true|true|done");
}

#[test]
fn form_data_parses_a_script_stream_of_tiny_chunks() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const fd = new FormData();
        fd.append('x', 'y');
        fd.append('f', new Blob(['\r\n--\r\n-']), 'n');
        const res = new Response(fd);
        const bytes = new Uint8Array(await res.clone().arrayBuffer());
        let i = 0;
        const stream = new ReadableStream({
          pull(c) { if (i < bytes.length) c.enqueue(bytes.slice(i, ++i)); else c.close(); },
        });
        const back = await new Response(stream, {headers: res.headers}).formData();
        out.push(back.get('x'), JSON.stringify(await back.get('f').text()));
        // A chunk that is not a Uint8Array rejects with a TypeError.
        const bad = new ReadableStream({ start(c) { c.enqueue('text'); c.close(); } });
        out.push(await new Response(bad, {headers: res.headers}).formData().catch((e) => e.name));
        "#,
    );
    assert_eq!(out, "y|\"\\r\\n--\\r\\n-\"|TypeError|done");
}

#[test]
fn headers_policy_server_runtime_by_default_browser_guards_on_request() {
    let script = r#"
        const req = new Request('http://a.test/', {method: 'POST', body: 'x', headers: {
          Cookie: 'a=1', Origin: 'http://o.test', 'Content-Length': '1', Host: 'h', 'Sec-X': '1'}});
        out.push([...req.headers].map(([k, v]) => k + '=' + v).join(';'));
        const res = new Response('', {headers: [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]});
        out.push(res.headers.getSetCookie().join(','));
        const h = new Headers();
        h.append('cookie', 'c');
        out.push(h.get('cookie'));
        "#;
    let mut ctx = context();
    assert_eq!(
        crate::headers_policy(&mut ctx),
        crate::HeadersPolicy::ServerRuntime
    );
    let out = run_async_out(&mut ctx, script);
    assert_eq!(
        out,
        "content-length=1;content-type=text/plain;charset=UTF-8;cookie=a=1;host=h;origin=http://o.test;sec-x=1|a=1,b=2|c|done"
    );
    let mut ctx = context();
    crate::set_headers_policy(&mut ctx, crate::HeadersPolicy::Browser);
    let out = run_async_out(&mut ctx, script);
    // A Headers object made by its constructor has the "none" guard: nothing is filtered.
    assert_eq!(out, "content-type=text/plain;charset=UTF-8||c|done");
}

#[test]
fn request_init_members_are_reflected_and_copied() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const show = (r) => [r.mode, r.credentials, r.cache, r.redirect, r.referrer,
          r.referrerPolicy, r.integrity, r.keepalive, r.isReloadNavigation,
          r.isHistoryNavigation, r.destination, r.duplex].join();
        out.push(show(new Request('http://a.test/')));
        const init = { mode: 'same-origin', credentials: 'include', cache: 'only-if-cached',
          redirect: 'manual', referrer: 'http://r.test/page', referrerPolicy: 'unsafe-url',
          integrity: 'sha256-abc', keepalive: true, priority: 'high', window: null };
        const r = new Request('http://a.test/', init);
        out.push(show(r));
        // Copied by new Request(request) and clone(); an empty init changes nothing.
        out.push(show(new Request(r)) === show(r), show(r.clone()) === show(r),
                 show(new Request(r, {})) === show(r), show(new Request(r, { window: undefined })) === show(r));
        // A non-empty init resets referrer and referrer policy, keeps the rest.
        out.push(show(new Request(r, { method: 'GET' })));
        out.push(new Request(r, { redirect: 'error', cache: 'no-store', mode: 'cors' }).redirect);
        // referrer: "" is no-referrer; about:client is client; relative needs a base.
        out.push(JSON.stringify(new Request('http://a.test/', { referrer: '' }).referrer));
        out.push(new Request('http://a.test/', { referrer: 'about:client' }).referrer);
        out.push(new Request('http://a.test/', { keepalive: 0 }).keepalive);
        "#,
    );
    assert_eq!(
        out,
        [
            "cors,same-origin,default,follow,about:client,,,false,false,false,,half",
            "same-origin,include,only-if-cached,manual,http://r.test/page,unsafe-url,sha256-abc,true,false,false,,half",
            "true",
            "true",
            "true",
            "true",
            "same-origin,include,only-if-cached,manual,about:client,,sha256-abc,true,false,false,,half",
            "error",
            "\"\"",
            "about:client",
            "false",
            "done",
        ]
        .join("|")
    );
}

#[test]
fn request_referrer_is_resolved_against_the_base_url_and_compared_with_its_origin() {
    let mut ctx = context();
    crate::set_api_base_url(&mut ctx, Some("http://a.test/app/main.js"));
    let out = run_async_out(
        &mut ctx,
        r#"
        const ref = (referrer) => new Request('x', { referrer }).referrer;
        out.push(ref('page'), ref('http://a.test:80/p?q#f'), ref('http://b.test/'), ref('about:client'));
        try { ref('http://:bad'); out.push('no'); } catch (e) { out.push(e.name, /referrer/.test(e.message)); }
        "#,
    );
    assert_eq!(
        out,
        "http://a.test/app/page|http://a.test/p?q#f|about:client|about:client|TypeError|true|done"
    );
}

#[test]
fn request_init_values_are_validated_with_type_errors() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const stream = () => new ReadableStream({ start(c) { c.close(); } });
        const bad = [
          ['http://user:pass@a.test/', {}],
          ['http://user@a.test/', {}],
          ['http://a.test/', { mode: 'navigate' }],
          ['http://a.test/', { mode: 'sideways' }],
          ['http://a.test/', { credentials: 'always' }],
          ['http://a.test/', { cache: 'sometimes' }],
          ['http://a.test/', { cache: 'only-if-cached' }],
          ['http://a.test/', { cache: 'only-if-cached', mode: 'cors' }],
          ['http://a.test/', { redirect: 'sideways' }],
          ['http://a.test/', { referrerPolicy: 'never' }],
          ['http://a.test/', { priority: 'urgent' }],
          ['http://a.test/', { duplex: 'full' }],
          ['http://a.test/', { window: {} }],
          ['http://a.test/', { window: 'http://a.test/' }],
          ['http://a.test/', { mode: 'no-cors', method: 'PUT' }],
          ['http://a.test/', { referrer: 'http://:bad' }],
          ['http://a.test/', { signal: {} }],
          ['http://a.test/', { method: 'POST', keepalive: true, body: stream(), duplex: 'half' }],
          ['http://a.test/', { method: 'POST', mode: 'no-cors', body: stream(), duplex: 'half' }],
          ['http://a.test/', { method: 'POST', mode: 'same-origin', body: stream() }],
        ];
        for (const [url, init] of bad) {
          try { new Request(url, init); out.push('accepted ' + JSON.stringify(init)); }
          catch (e) { out.push(e.constructor.name); }
        }
        // The same through fetch(): a rejected promise, no throw (no fetch here: the
        // Request constructor is its first step, checked through Request).
        // Accepted: the valid values of every enum.
        const ok = [{ mode: 'same-origin' }, { mode: 'no-cors' }, { mode: 'cors' },
          { credentials: 'omit' }, { credentials: 'same-origin' }, { credentials: 'include' },
          { cache: 'default' }, { cache: 'no-store' }, { cache: 'reload' }, { cache: 'no-cache' },
          { cache: 'force-cache' }, { cache: 'only-if-cached', mode: 'same-origin' },
          { redirect: 'follow' }, { redirect: 'error' }, { redirect: 'manual' },
          { referrerPolicy: '' }, { referrerPolicy: 'no-referrer' }, { referrerPolicy: 'strict-origin-when-cross-origin' },
          { priority: 'low' }, { priority: 'auto' }, { window: null }, { integrity: '' },
          { mode: 'no-cors', method: 'post' },
          { method: 'POST', mode: 'same-origin', body: stream(), duplex: 'half' }];
        let accepted = 0;
        for (const init of ok) {
          try { new Request('http://a.test/', init); accepted++; } catch (e) { out.push(JSON.stringify(init) + ' ' + e); }
        }
        out.push(accepted === ok.length);
        // A "no-cors" Request with a stream body from an input Request is refused too.
        const streamed = new Request('http://a.test/', { method: 'POST', body: stream(), duplex: 'half' });
        try { new Request(streamed, { mode: 'no-cors' }); out.push('accepted'); } catch (e) { out.push(e.name); }
        "#,
    );
    let mut expected = vec!["TypeError"; 20];
    expected.extend(["true", "TypeError", "done"]);
    assert_eq!(out, expected.join("|"));
}

#[test]
fn request_init_members_are_read_and_checked_in_the_standards_order() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const names = ['body', 'cache', 'credentials', 'duplex', 'headers', 'integrity',
          'keepalive', 'method', 'mode', 'priority', 'redirect', 'referrer', 'referrerPolicy',
          'signal', 'window'];
        // An init whose getters log; `values` gives some members a value.
        const logging = (values, seen) => {
          const init = {};
          for (const name of names.slice().reverse())
            Object.defineProperty(init, name, { get() { seen.push(name); return values[name]; }, enumerable: true });
          return init;
        };
        let seen = [];
        new Request('http://a.test/', logging({}, seen));
        out.push(seen.join());
        // An invalid enum value throws as it is converted: later members are not read.
        for (const [name, value] of [['cache', 'x'], ['mode', 'x'], ['duplex', 'x'], ['redirect', 'x']]) {
          seen = [];
          try { new Request('http://a.test/', logging({ [name]: value }, seen)); out.push('no'); }
          catch (e) { out.push(e.name + ':' + seen[seen.length - 1]); }
        }
        // Checks after the conversion run in the standard's order: window (step 10) before
        // referrer (14) before mode "navigate" (17) before "only-if-cached" (21) before the
        // method (25) before no-cors (32).
        const message = (init) => { try { new Request('http://a.test/', init); return 'no'; } catch (e) { return e.message; } };
        out.push(/window/.test(message({ window: 1, referrer: 'http://:bad', mode: 'navigate' })));
        out.push(/referrer/.test(message({ referrer: 'http://:bad', mode: 'navigate' })));
        out.push(/navigate/.test(message({ mode: 'navigate', cache: 'only-if-cached' })));
        out.push(/only-if-cached/.test(message({ cache: 'only-if-cached', method: 'TRACE' })));
        out.push(/unsupported/.test(message({ mode: 'no-cors', method: 'TRACE' })));
        out.push(/no-cors/.test(message({ mode: 'no-cors', method: 'PUT', headers: [['a b', 'c']] })));
        // The input URL is checked before init's members: credentials first.
        try { new Request('http://u:p@a.test/', { window: 1 }); out.push('no'); }
        catch (e) { out.push(/credentials/.test(e.message)); }
        "#,
    );
    assert_eq!(
        out,
        [
            "body,cache,credentials,duplex,headers,integrity,keepalive,method,mode,priority,redirect,referrer,referrerPolicy,signal,window",
            "TypeError:cache",
            "TypeError:mode",
            "TypeError:duplex",
            "TypeError:redirect",
            "true",
            "true",
            "true",
            "true",
            "true",
            "true",
            "true",
            "done",
        ]
        .join("|")
    );
}

#[test]
fn blob_type_is_the_serialized_mime_type() {
    let mut ctx = context();
    let out = run_async_out(
        &mut ctx,
        r#"
        const type = async (ct) => (await new Response('x', ct === undefined ? {} : { headers: { 'Content-Type': ct } }).blob()).type;
        out.push(await type('text/plain; charset=utf-8'));
        out.push(await type('Text/HTML ; Charset="UTF-8" ; x'));
        out.push(JSON.stringify(await type('nonsense')));
        out.push(JSON.stringify(await type('')));
        out.push(await type(undefined));
        const two = new Response('', { headers: [['Content-Type', 'text/plain;charset=gbk'], ['Content-Type', 'text/html']] });
        out.push((await two.blob()).type);
        const req = new Request('http://a.test/', { method: 'POST', body: 'x', headers: { 'content-type': 'application/json ;charset=utf-8' } });
        out.push((await req.blob()).type);
        out.push((await new Request('http://a.test/', { method: 'POST', body: new Blob(['x'], { type: 'A/B' }) }).blob()).type);
        "#,
    );
    assert_eq!(
        out,
        "text/plain;charset=utf-8|text/html;charset=utf-8|\"\"|\"\"|text/plain;charset=utf-8|text/html|application/json;charset=utf-8|a/b|done"
    );
}

/// The interfaces' shapes (own keys in order, each function's name and length, accessor
/// names) stay what WebIDL's install order gives: the `Member` tables list them as `init` did.
#[test]
fn interface_shapes() {
    let mut ctx = context();
    let shape = |ctx: &mut boa_engine::Context, name: &str| {
        let src = format!(
            r#"(() => {{
            const describe = (o) => Reflect.ownKeys(o).map((k) => {{
              const d = Object.getOwnPropertyDescriptor(o, k);
              const f = d.value ?? d.get;
              const fn = typeof f === 'function' ? `${{f.name}}/${{f.length}}` : '';
              const set = d.set ? `+${{d.set.name}}` : '';
              return `${{String(k)}}:${{fn}}${{set}}`;
            }}).join(' ');
            return describe({name}) + ' | ' + describe({name}.prototype);
          }})()"#
        );
        string(ctx, &src)
    };
    for (name, expected) in [
        (
            "Headers",
            "length: name: prototype: | append:append/2 delete:delete/1 get:get/1 getSetCookie:getSetCookie/0 has:has/1 set:set/2 entries:entries/0 keys:keys/0 values:values/0 forEach:forEach/1 constructor:Headers/0 Symbol(Symbol.toStringTag): Symbol(Symbol.iterator):entries/0",
        ),
        (
            "FormData",
            "length: name: prototype: | append:append/2 delete:delete/1 get:get/1 getAll:getAll/1 has:has/1 set:set/2 entries:entries/0 keys:keys/0 values:values/0 forEach:forEach/1 constructor:FormData/0 Symbol(Symbol.toStringTag): Symbol(Symbol.iterator):entries/0",
        ),
        (
            "Request",
            "length: name: prototype: | method:get method/0 url:get url/0 headers:get headers/0 destination:get destination/0 referrer:get referrer/0 referrerPolicy:get referrerPolicy/0 mode:get mode/0 credentials:get credentials/0 cache:get cache/0 redirect:get redirect/0 integrity:get integrity/0 keepalive:get keepalive/0 isReloadNavigation:get isReloadNavigation/0 isHistoryNavigation:get isHistoryNavigation/0 signal:get signal/0 duplex:get duplex/0 body:get body/0 bodyUsed:get bodyUsed/0 clone:clone/0 arrayBuffer:arrayBuffer/0 blob:blob/0 bytes:bytes/0 formData:formData/0 json:json/0 text:text/0 constructor:Request/1 Symbol(Symbol.toStringTag):",
        ),
        (
            "Response",
            "length: name: prototype: error:error/0 redirect:redirect/1 json:json/1 | type:get type/0 url:get url/0 redirected:get redirected/0 status:get status/0 ok:get ok/0 statusText:get statusText/0 headers:get headers/0 body:get body/0 bodyUsed:get bodyUsed/0 clone:clone/0 arrayBuffer:arrayBuffer/0 blob:blob/0 bytes:bytes/0 formData:formData/0 json:json/0 text:text/0 constructor:Response/0 Symbol(Symbol.toStringTag):",
        ),
    ] {
        assert_eq!(shape(&mut ctx, name), expected, "{name}");
    }
}
