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
