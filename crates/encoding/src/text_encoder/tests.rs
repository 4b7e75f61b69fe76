//! TextEncoder unit tests: encode, and encodeInto stopping before what does not fit.

use crate::test_support::{context, string};

/// Evaluate `src` (an expression) in a fresh context and return it as a string.
fn run(src: &str) -> String {
    let mut ctx = context();
    string(&mut ctx, src)
}

#[test]
fn encode_and_encode_into() {
    assert_eq!(
        run("Array.from(new TextEncoder().encode('a\\u00e9\\u20ac\\ud83d\\udc99\\ud800x')).join()"),
        "97,195,169,226,130,172,240,159,146,153,239,191,189,120"
    );
    assert_eq!(
        run(
            "[new TextEncoder().encode().length, new TextEncoder().encode(undefined).length, \
              new TextEncoder().encode(null).length, new TextEncoder().encoding].join()"
        ),
        "0,0,4,utf-8"
    );
    // Stops before a scalar value that does not fit; a pair counts 2 code units.
    assert_eq!(
        run("(() => { const out = []; \
             for (const n of [0, 1, 2, 4, 5, 7]) { \
               const u8 = new Uint8Array(n); \
               const r = new TextEncoder().encodeInto('a\\ud83d\\udc99\\u00e9', u8); \
               out.push(r.read + '/' + r.written + ':' + Array.from(u8).join('.')); } \
             return out.join(' '); })()"),
        "0/0: 1/1:97 1/1:97.0 1/1:97.0.0.0 3/5:97.240.159.146.153 4/7:97.240.159.146.153.195.169"
    );
    // Lone surrogates count one code unit and write U+FFFD; views at an offset; SAB.
    assert_eq!(
        run(
            "(() => { const buf = new ArrayBuffer(6); const u8 = new Uint8Array(buf, 2, 3); \
             const r = new TextEncoder().encodeInto('\\udc00z', u8); \
             const sab = new Uint8Array(new SharedArrayBuffer(4)); \
             const r2 = new TextEncoder().encodeInto('hi', sab); \
             return [r.read, r.written, Array.from(new Uint8Array(buf)).join('.'), \
                     r2.read, r2.written, Array.from(sab).join('.'), \
                     Object.keys(r).join('+')].join(); })()"
        ),
        "1,3,0.0.239.191.189.0,2,2,104.105.0.0,read+written"
    );
    assert_eq!(
        run(
            "[() => new TextEncoder().encodeInto('a', new Uint16Array(2)), \
              () => new TextEncoder().encodeInto('a', new Uint8ClampedArray(2)), \
              () => new TextEncoder().encodeInto('a'), \
              () => new TextEncoder().encodeInto('a', new ArrayBuffer(2)), \
              () => TextEncoder.prototype.encode.call(new TextDecoder())] \
             .map(f => { try { f(); return 'ok'; } catch (e) { return e.name; } }).join()"
        ),
        "TypeError,TypeError,TypeError,TypeError,TypeError"
    );
}
