use crate::test_support::{check, context, string};

#[test]
fn values_and_whitespace() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"JSON.stringify(JSON.parse(' \t\r\n{"a":[1,-0.5e1,true,false,null,"x"],"b":{}} ')) ===
           '{"a":[1,-5,true,false,null,"x"],"b":{}}'"#,
    );
    check(&mut ctx, "Object.is(JSON.parse('-0'), -0)");
    check(
        &mut ctx,
        "JSON.parse('[]').length === 0 && Array.isArray(JSON.parse('[[]]')[0])",
    );
    check(
        &mut ctx,
        "JSON.parse('\"\\\\/\\\\b\\\\f\\\\n\\\\r\\\\t\\\\u0041\"') === '/\\b\\f\\n\\r\\tA'",
    );
    // ToString of the argument.
    check(&mut ctx, "JSON.parse({ toString() { return '7'; } }) === 7");
    check(
        &mut ctx,
        "JSON.parse.name === 'parse' && JSON.parse.length === 2 && \
         !Object.getOwnPropertyDescriptor(JSON, 'parse').enumerable",
    );
}

#[test]
fn big_numbers() {
    let mut ctx = context();
    check(&mut ctx, "JSON.parse('1e400') === Infinity");
    check(&mut ctx, "JSON.parse('-1e400') === -Infinity");
    check(&mut ctx, "Object.is(JSON.parse('-1e-400'), -0)");
    check(
        &mut ctx,
        "JSON.parse('123456789012345678901234567890') === 1.2345678901234568e29",
    );
    check(
        &mut ctx,
        "JSON.parse('9007199254740993') === 9007199254740992",
    );
    check(
        &mut ctx,
        "JSON.parse('0.1') === 0.1 && JSON.parse('2.5E-3') === 0.0025",
    );
}

#[test]
fn lone_surrogates_kept() {
    let mut ctx = context();
    check(&mut ctx, r#"JSON.parse('"\\ud83c"') === '\ud83c'"#);
    check(&mut ctx, r#"JSON.parse('"\\udf06\\ud83c"').length === 2"#);
    check(&mut ctx, r#"JSON.parse('"\\ud83c\\udf06"') === '🌆'"#);
    // A lone surrogate in the text itself (not escaped) is kept too.
    check(&mut ctx, r#"JSON.parse('"\ud800"') === '\ud800'"#);
    check(&mut ctx, r#"JSON.parse('{"\\udc00":1}')['\udc00'] === 1"#);
}

#[test]
fn proto_is_a_data_key_and_duplicates_last_wins() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => { const o = JSON.parse('{"__proto__": {"x": 1}}');
           return Object.getPrototypeOf(o) === Object.prototype &&
             Object.getOwnPropertyNames(o).join() === '__proto__' && o.x === undefined; })()"#,
    );
    check(
        &mut ctx,
        r#"(() => { const o = JSON.parse('{"a": 1, "b": 2, "a": 3}');
           return Object.keys(o).join() === 'a,b' && o.a === 3; })()"#,
    );
    // Integer-like keys in property order (indices first).
    check(
        &mut ctx,
        r#"Object.keys(JSON.parse('{"b":1,"1":2,"0":3}')).join() === '0,1,b'"#,
    );
    // Setters on Object.prototype are not run (CreateDataProperty, not Set).
    check(
        &mut ctx,
        r#"(() => { let hit = false;
           Object.defineProperty(Object.prototype, 'q', { set() { hit = true; }, configurable: true });
           Object.defineProperty(Array.prototype, '0', { set() { hit = true; }, configurable: true });
           const o = JSON.parse('{"q": 1, "r": [5]}');
           delete Object.prototype.q; delete Array.prototype[0];
           return !hit && o.q === 1 && o.r[0] === 5; })()"#,
    );
}

#[test]
fn deep_nesting() {
    let mut ctx = context();
    check(
        &mut ctx,
        r#"(() => { const n = 100000;
           let v = JSON.parse('['.repeat(n) + ']'.repeat(n));
           let depth = 0;
           while (Array.isArray(v)) { depth++; v = v[0]; }
           return depth === n; })()"#,
    );
    check(
        &mut ctx,
        r#"(() => { const n = 100000;
           let v = JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n));
           let depth = 0;
           while (typeof v === 'object') { depth++; v = v.a; }
           return depth === n && v === 1; })()"#,
    );
    // The reviver walk does not recurse either.
    check(
        &mut ctx,
        r#"(() => { const n = 100000; let calls = 0;
           JSON.parse('['.repeat(n) + ']'.repeat(n), (k, v) => { calls++; return v; });
           return calls === n + 0; })()"#,
    );
}

#[test]
fn reviver_order_and_effects() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            r#"(() => { const log = [];
               const r = JSON.parse('{"a":[1,{"b":2}],"c":3}', function (k, v) {
                 log.push(JSON.stringify(k) + ':' + (typeof v === 'object' ? JSON.stringify(v) : v) +
                   (this && typeof this === 'object' ? '' : '!'));
                 return k === 'c' ? undefined : v; });
               log.push(JSON.stringify(r));
               return log.join(' '); })()"#,
        ),
        r#""0":1 "b":2 "1":{"b":2} "a":[1,{"b":2}] "c":3 "":{"a":[1,{"b":2}]} {"a":[1,{"b":2}]}"#
    );
    // The holder is `this`; the root holder has the unfiltered value under "".
    check(
        &mut ctx,
        r#"(() => { let root;
           JSON.parse('5', function (k, v) { root = this; return v; });
           return Object.getPrototypeOf(root) === Object.prototype && root[''] === 5; })()"#,
    );
    // Returned values replace; the reviver may add properties that are then not walked,
    // and deleting a property already listed makes it undefined.
    assert_eq!(
        string(
            &mut ctx,
            r#"(() => { const seen = [];
               const r = JSON.parse('{"a":1,"b":2}', function (k, v) {
                 seen.push(k);
                 if (k === 'a') { delete this.b; this.z = 9; }
                 return typeof v === 'number' ? v * 10 : v; });
               return seen.join() + ' ' + JSON.stringify(r); })()"#,
        ),
        r#"a,b, {"a":10,"z":9}"#
    );
    // A non-configurable property: [[Delete]] returns false, no error.
    check(
        &mut ctx,
        r#"(() => { const r = JSON.parse('[1,2]', function (k, v) {
             if (k === '0') Object.defineProperty(this, '1', { value: 7, configurable: false });
             return k === '1' ? undefined : v; });
           return r[1] === 7; })()"#,
    );
    // Exceptions from the reviver propagate.
    check(
        &mut ctx,
        r#"(() => { try { JSON.parse('[1]', () => { throw 42; }); } catch (e) { return e === 42; } })()"#,
    );
}

#[test]
fn errors_are_syntax_errors_with_position() {
    let mut ctx = context();
    for (text, pos) in [
        ("", 0),
        ("[1,]", 3),
        ("{\"a\" 1}", 5),
        ("01", 1),
        ("1.", 2),
        ("-", 1),
        ("\"\\x\"", 2),
        ("\"\\u12g4\"", 5),
        ("\"a\nb\"", 2),
        ("[1] x", 4),
        ("{'a':1}", 1),
        ("tru", 3),
        ("NaN", 0),
        ("[1", 2),
        ("\u{a0}1", 0),
    ] {
        let src = format!(
            "(() => {{ try {{ JSON.parse({}); return 'no error'; }} catch (e) {{ return e.constructor.name + ' ' + e.message; }} }})()",
            serde_json_quote(text)
        );
        let message = string(&mut ctx, &src);
        assert!(message.starts_with("SyntaxError"), "{text:?}: {message}");
        assert!(
            message.contains(&format!("at position {pos},")),
            "{text:?}: {message}"
        );
    }
}

/// `text` as a JS string literal.
fn serde_json_quote(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[test]
fn parse_function_without_register() {
    let mut ctx = boa_engine::Context::default();
    let text = boa_engine::JsString::from(&[0x22u16, 0xD83C, 0x22][..]);
    let value = crate::parse(&text, &mut ctx).unwrap();
    assert_eq!(value.as_string().unwrap().to_vec(), vec![0xD83C]);
    let err = crate::parse(&boa_engine::js_string!("[1,"), &mut ctx).unwrap_err();
    assert!(err.to_string().contains("position 3"), "{err}");
}
