use boa_engine::{js_string, Context, JsObject, JsResult};

use crate::test_support::{check, context, eval, set_global, string};

fn s(ctx: &mut Context, src: &str) -> String {
    string(ctx, src)
}

#[test]
fn constructor_from_string_sequence_record() {
    let mut ctx = context();
    // String: a leading "?" is removed; "+" and percent-escapes decode; empty pieces skipped.
    assert_eq!(
        s(
            &mut ctx,
            "[...new URLSearchParams('?a=1&&b=x+y%20z&c&=v&a=%zz')].join(';')"
        ),
        "a,1;b,x y z;c,;,v;a,%zz"
    );
    // Only one "?" is stripped; a non-string is converted with ToString.
    assert_eq!(
        s(&mut ctx, "new URLSearchParams('??a=b').toString()"),
        "%3Fa=b"
    );
    assert_eq!(s(&mut ctx, "new URLSearchParams(null).toString()"), "null=");
    assert_eq!(s(&mut ctx, "new URLSearchParams(undefined).size"), "0");
    assert_eq!(s(&mut ctx, "new URLSearchParams().toString()"), "");
    // Invalid UTF-8 after percent-decoding becomes U+FFFD.
    assert_eq!(
        s(&mut ctx, "new URLSearchParams('a=%FF').get('a')"),
        "\u{FFFD}"
    );
    // Sequence of pairs, including another URLSearchParams (iterable) and a Map.
    assert_eq!(
        s(
            &mut ctx,
            "new URLSearchParams([['a', 1], ['b', '2'], ['a', '3']]).toString()"
        ),
        "a=1&b=2&a=3"
    );
    assert_eq!(
        s(
            &mut ctx,
            "new URLSearchParams(new URLSearchParams('x=1&y=2')).toString()"
        ),
        "x=1&y=2"
    );
    assert_eq!(
        s(
            &mut ctx,
            "new URLSearchParams(new Map([['k', 'v']])).toString()"
        ),
        "k=v"
    );
    // A pair that is not of size 2, or not a sequence, is a TypeError.
    for bad in ["[['a']]", "[['a', 'b', 'c']]", "[1]", "[{}]"] {
        check(
            &mut ctx,
            &format!("(() => {{ try {{ new URLSearchParams({bad}); return false; }} catch (e) {{ return e instanceof TypeError; }} }})()"),
        );
    }
    // Record: own enumerable string keys in property order; values converted.
    assert_eq!(
        s(
            &mut ctx,
            "new URLSearchParams({b: 1, a: 'x y', 2: 'two'}).toString()"
        ),
        "2=two&b=1&a=x+y"
    );
    check(
        &mut ctx,
        "(() => { const o = Object.create({inherited: 1}, {hidden: {value: 1, enumerable: false}}); \
         o.own = 2; return new URLSearchParams(o).toString() === 'own=2'; })()",
    );
    // A symbol key of a record throws (USVString conversion of a Symbol).
    check(
        &mut ctx,
        "(() => { try { new URLSearchParams({[Symbol('s')]: 1}); return false; } \
         catch (e) { return e instanceof TypeError; } })()",
    );
    // A function without @@iterator converts as a record; lone surrogates become U+FFFD.
    assert_eq!(
        s(
            &mut ctx,
            "new URLSearchParams({'\\uD800': '\\uDC00x'}).toString()"
        ),
        "%EF%BF%BD=%EF%BF%BDx"
    );
    // Must be called with new.
    check(
        &mut ctx,
        "(() => { try { URLSearchParams(''); return false; } catch (e) { return e instanceof TypeError; } })()",
    );
}

#[test]
fn methods_follow_the_url_standard() {
    let mut ctx = context();
    eval(
        &mut ctx,
        "globalThis.p = new URLSearchParams('a=1&b=2&a=3&c=4');",
    );
    assert_eq!(s(&mut ctx, "p.size"), "4");
    assert_eq!(s(&mut ctx, "p.get('a')"), "1");
    assert_eq!(s(&mut ctx, "String(p.get('z'))"), "null");
    assert_eq!(
        s(&mut ctx, "JSON.stringify(p.getAll('a'))"),
        "[\"1\",\"3\"]"
    );
    assert_eq!(s(&mut ctx, "JSON.stringify(p.getAll('z'))"), "[]");
    check(
        &mut ctx,
        "p.has('a') && p.has('a', '3') && !p.has('a', '2') && !p.has('z')",
    );
    // `undefined` for the optional value is "not given".
    check(&mut ctx, "p.has('a', undefined)");
    eval(&mut ctx, "p.delete('a', '1');");
    assert_eq!(s(&mut ctx, "p.toString()"), "b=2&a=3&c=4");
    eval(&mut ctx, "p.append('a', '5'); p.delete('a');");
    assert_eq!(s(&mut ctx, "p.toString()"), "b=2&c=4");
    eval(
        &mut ctx,
        "p.append('b', '9'); p.append('d', '1'); p.set('b', 'new');",
    );
    assert_eq!(s(&mut ctx, "p.toString()"), "b=new&c=4&d=1");
    eval(&mut ctx, "p.set('e', 'x y&=');");
    assert_eq!(s(&mut ctx, "p.toString()"), "b=new&c=4&d=1&e=x+y%26%3D");
    // Serialization: the urlencoded set keeps *-._ and alphanumerics, space is "+".
    assert_eq!(
        s(
            &mut ctx,
            "new URLSearchParams([['a b', '*-._~!\\u00e9']]).toString()"
        ),
        "a+b=*-._%7E%21%C3%A9"
    );
    // Argument counts, and ToString of each argument.
    for call in [
        "p.append('a')",
        "p.get()",
        "p.getAll()",
        "p.has()",
        "p.set('a')",
        "p.delete()",
    ] {
        check(
            &mut ctx,
            &format!("(() => {{ try {{ {call}; return false; }} catch (e) {{ return e instanceof TypeError; }} }})()"),
        );
    }
    eval(&mut ctx, "p.append(1, {toString() { return 'obj'; }});");
    assert_eq!(s(&mut ctx, "p.get('1')"), "obj");
    // Brand checks.
    check(
        &mut ctx,
        "(() => { try { URLSearchParams.prototype.get.call({}, 'a'); return false; } \
         catch (e) { return e instanceof TypeError; } })()",
    );
    check(
        &mut ctx,
        "(() => { try { Object.getOwnPropertyDescriptor(URLSearchParams.prototype, 'size').get.call({}); \
         return false; } catch (e) { return e instanceof TypeError; } })()",
    );
}

#[test]
fn sort_is_stable_by_utf16_code_units() {
    let mut ctx = context();
    // U+FFFD (one unit 0xFFFD) sorts after U+1F600 (surrogates 0xD83D 0xDE00) by code units,
    // though by code points it would come first; equal names keep their order.
    assert_eq!(
        s(
            &mut ctx,
            "(() => { const p = new URLSearchParams([['\\uFFFD', 'x'], ['\\u{1F600}', 'y'], \
             ['b', '1'], ['a', '2'], ['b', '0'], ['a', '1']]); p.sort(); \
             return [...p.keys()].map(k => k.codePointAt(0).toString(16)).join() + '|' + \
             [...p.values()].join(); })()"
        ),
        "61,61,62,62,1f600,fffd|2,1,1,0,y,x"
    );
}

#[test]
fn iteration_for_each_and_live_updates() {
    let mut ctx = context();
    eval(&mut ctx, "globalThis.p = new URLSearchParams('a=1&b=2');");
    assert_eq!(
        s(&mut ctx, "JSON.stringify([...p.entries()])"),
        "[[\"a\",\"1\"],[\"b\",\"2\"]]"
    );
    assert_eq!(
        s(
            &mut ctx,
            "[...p.keys()].join() + '|' + [...p.values()].join()"
        ),
        "a,b|1,2"
    );
    check(
        &mut ctx,
        "URLSearchParams.prototype[Symbol.iterator] === URLSearchParams.prototype.entries",
    );
    // The iterator sees changes made during iteration.
    assert_eq!(
        s(&mut ctx, "(() => { const seen = []; for (const [k] of p) { seen.push(k); if (k === 'a') p.append('c', '3'); } return seen.join(); })()"),
        "a,b,c"
    );
    // forEach: (value, key, params), thisArg; pairs re-read after each call.
    assert_eq!(
        s(
            &mut ctx,
            "(() => { const out = []; const t = {}; p.forEach(function (v, k, o) { \
             out.push(k + '=' + v + (o === p) + (this === t)); if (k === 'a') p.delete('b'); }, t); \
             return out.join(); })()"
        ),
        "a=1truetrue,c=3truetrue"
    );
    check(
        &mut ctx,
        "(() => { try { p.forEach(1); return false; } catch (e) { return e instanceof TypeError; } })()",
    );
    // %URLSearchParamsIteratorPrototype%.
    check(
        &mut ctx,
        "(() => { const it = p.keys(); const proto = Object.getPrototypeOf(it); \
         return Object.prototype.toString.call(it) === '[object URLSearchParams Iterator]' \
         && Object.getPrototypeOf(proto) === Object.getPrototypeOf(Object.getPrototypeOf([].values())) \
         && Reflect.ownKeys(proto).map(String).join() === 'next,Symbol(Symbol.toStringTag)' \
         && proto === Object.getPrototypeOf(new URLSearchParams().entries()); })()",
    );
    check(
        &mut ctx,
        "(() => { try { Object.getPrototypeOf(p.keys()).next.call({}); return false; } \
         catch (e) { return e instanceof TypeError; } })()",
    );
    // An exception from forEach's callback propagates.
    check(
        &mut ctx,
        "(() => { try { p.forEach(() => { throw 7; }); return false; } catch (e) { return e === 7; } })()",
    );
}

#[test]
fn webidl_shape() {
    let mut ctx = context();
    check(
        &mut ctx,
        "(() => { const d = Object.getOwnPropertyDescriptor(globalThis, 'URLSearchParams'); \
         return d.writable && !d.enumerable && d.configurable && URLSearchParams.length === 0; })()",
    );
    assert_eq!(
        s(
            &mut ctx,
            "['append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'toString', 'entries', \
             'keys', 'values', 'forEach'].map(n => { const d = Object.getOwnPropertyDescriptor( \
             URLSearchParams.prototype, n); return n + d.value.length + d.enumerable + d.writable; }).join()"
        ),
        "append2truetrue,delete1truetrue,get1truetrue,getAll1truetrue,has1truetrue,set2truetrue,\
         sort0truetrue,toString0truetrue,entries0truetrue,keys0truetrue,values0truetrue,\
         forEach1truetrue"
    );
}

/// The last query an update hook was given (a global string, "null" for None).
fn record_update(url: &JsObject, query: Option<&str>, ctx: &mut Context) -> JsResult<()> {
    let q = query.map_or_else(|| "null".to_owned(), |q| format!("?{q}"));
    url.set(js_string!("query"), js_string!(q.as_str()), true, ctx)?;
    Ok(())
}

#[test]
fn linked_params_run_the_update_steps() {
    let mut ctx = context();
    let url = JsObject::with_object_proto(ctx.intrinsics());
    let params = super::new_linked(url.clone(), Some("a=1&b=2"), record_update, &mut ctx).unwrap();
    set_global(&mut ctx, "u", url);
    set_global(&mut ctx, "p", params.clone());
    assert_eq!(s(&mut ctx, "p.toString()"), "a=1&b=2");
    // Creating it does not update; every mutation does, sort included.
    assert_eq!(s(&mut ctx, "String(u.query)"), "undefined");
    eval(&mut ctx, "p.append('c', 'x y');");
    assert_eq!(s(&mut ctx, "u.query"), "?a=1&b=2&c=x+y");
    eval(&mut ctx, "p.sort(); p.set('a', '0');");
    assert_eq!(s(&mut ctx, "u.query"), "?a=0&b=2&c=x+y");
    // An empty list sets the query to null.
    eval(&mut ctx, "p.delete('a'); p.delete('b'); p.delete('c');");
    assert_eq!(s(&mut ctx, "u.query"), "null");
    // The URL side replaces the list.
    super::set_list_from_query(&params, Some("z=%41"));
    assert_eq!(s(&mut ctx, "p.get('z') + p.size"), "A1");
    super::set_list_from_query(&params, None);
    assert_eq!(s(&mut ctx, "p.size"), "0");
    // Not linked: no update.
    eval(
        &mut ctx,
        "u.query = 'same'; new URLSearchParams('a=1').append('b', 2);",
    );
    assert_eq!(s(&mut ctx, "u.query"), "same");
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(&mut ctx, &["webidl", "url"]);
}
