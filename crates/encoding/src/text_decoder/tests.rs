//! TextDecoder unit tests: fatal and streaming decoding with every split of the input into
//! two or three chunks, BOM handling, state after a fatal error.

use crate::test_support::{context, string};

/// Evaluate `src` (an expression) in a fresh context and return it as a string.
fn run(src: &str) -> String {
    let mut ctx = context();
    string(&mut ctx, src)
}

const HELPERS: &str = r#"
    const codes = s => Array.from(s, c => c.codePointAt(0).toString(16)).join(',');
    // Decode `bytes` split at every pair of positions (three chunks, the first two with
    // {stream: true}); return the distinct results ("throw" for a TypeError).
    function splits(label, options, bytes) {
        const seen = new Set();
        for (let i = 0; i <= bytes.length; i++) {
            for (let j = i; j <= bytes.length; j++) {
                const d = new TextDecoder(label, options);
                let out;
                try {
                    out = d.decode(new Uint8Array(bytes.slice(0, i)), {stream: true});
                    out += d.decode(new Uint8Array(bytes.slice(i, j)), {stream: true});
                    out += d.decode(new Uint8Array(bytes.slice(j)));
                    out = codes(out);
                } catch (e) {
                    out = e instanceof TypeError ? 'throw' : 'other ' + e;
                }
                seen.add(out);
            }
        }
        return [...seen].join(' | ');
    }
"#;

fn with_helpers(body: &str) -> String {
    run(&format!("{HELPERS}\n{body}"))
}

#[test]
fn streaming_decode_is_split_independent() {
    // "a", U+00E9, U+20AC, U+1F499: every split gives the same string.
    assert_eq!(
        with_helpers(
            "splits('utf-8', {}, [0x61, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x92, 0x99])"
        ),
        "61,e9,20ac,1f499"
    );
    assert_eq!(
        with_helpers("splits('utf-16le', {}, [0x3D, 0xD8, 0x99, 0xDC, 0x41, 0x00])"),
        "1f499,41"
    );
    assert_eq!(
        with_helpers("splits('shift_jis', {}, [0x82, 0xA0, 0x41])"),
        "3042,41"
    );
}

#[test]
fn fatal_decode_throws_for_every_split() {
    // An invalid continuation byte (the issue's multipart case) and a truncated sequence.
    assert_eq!(
        with_helpers("splits('utf-8', {fatal: true}, [0x66, 0xC3, 0x28])"),
        "throw"
    );
    assert_eq!(
        with_helpers("splits('utf-8', {fatal: true}, [0x66, 0xF0, 0x9F, 0x92])"),
        "throw"
    );
    assert_eq!(
        with_helpers("splits('utf-16be', {fatal: true}, [0xD8, 0x3D, 0x00])"),
        "throw"
    );
    // Replacement mode: one U+FFFD for the bad sequence, the rest kept.
    assert_eq!(
        with_helpers("splits('utf-8', {}, [0x66, 0xC3, 0x28])"),
        "66,fffd,28"
    );
}

#[test]
fn fatal_error_leaves_the_rest_of_the_queue() {
    // After a fatal error in a streaming call, the bytes after the error are still queued:
    // the next streaming call decodes them (the restored 0x41 included).
    assert_eq!(
        run(
            "(() => { const d = new TextDecoder('utf-8', {fatal: true}); \
             let r = []; \
             try { d.decode(new Uint8Array([0xF0, 0x41, 0x42]), {stream: true}); } \
             catch (e) { r.push(e.name); } \
             r.push(d.decode(new Uint8Array([0x43]), {stream: true})); \
             r.push(d.decode()); \
             return r.join(); })()"
        ),
        "TypeError,ABC,"
    );
    // A non-streaming call starts over: nothing is left from before.
    assert_eq!(
        run(
            "(() => { const d = new TextDecoder('utf-8', {fatal: true}); \
             try { d.decode(new Uint8Array([0xFF, 0x41])); } catch (e) {} \
             return d.decode(new Uint8Array([0x42])); })()"
        ),
        "B"
    );
}

#[test]
fn bom_is_stripped_once_at_the_start() {
    assert_eq!(
        run("codes = s => Array.from(s, c => c.codePointAt(0).toString(16)).join(','); \
             [new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])), \
              new TextDecoder('utf-8', {ignoreBOM: true}).decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])), \
              new TextDecoder('utf-16le').decode(new Uint8Array([0xFF, 0xFE, 0x41, 0x00])), \
              new TextDecoder('utf-16be').decode(new Uint8Array([0xFE, 0xFF, 0x00, 0x41])), \
              new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]))] \
             .map(codes).join(' ')"),
        "41 feff,41 41 41 feff"
    );
    // Split BOM across streaming calls, and a BOM in a second (streaming) call is kept.
    assert_eq!(
        run("(() => { const d = new TextDecoder(); \
             let s = d.decode(new Uint8Array([0xEF]), {stream: true}); \
             s += d.decode(new Uint8Array([0xBB]), {stream: true}); \
             s += d.decode(new Uint8Array([0xBF, 0x41]), {stream: true}); \
             s += d.decode(new Uint8Array([0xEF, 0xBB, 0xBF])); \
             const again = d.decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x42])); \
             return [s.length, s.charCodeAt(1).toString(16), again].join(); })()"),
        "2,feff,B"
    );
    // The BOM of another encoding is not stripped (no BOM sniffing).
    assert_eq!(
        run("new TextDecoder('utf-8').decode(new Uint8Array([0xFF, 0xFE, 0x41])).length"),
        "3"
    );
}

#[test]
fn labels_attributes_and_errors() {
    assert_eq!(
        run(
            "[new TextDecoder('latin1').encoding, new TextDecoder(' UTF8\\n').encoding, \
              new TextDecoder('sjis').encoding, new TextDecoder('x-user-defined').encoding, \
              new TextDecoder('utf-16').encoding, new TextDecoder().fatal, \
              new TextDecoder('utf-8', {fatal: 1, ignoreBOM: 'y'}).fatal, \
              new TextDecoder('utf-8', {ignoreBOM: 1}).ignoreBOM].join()"
        ),
        "windows-1252,utf-8,shift_jis,x-user-defined,utf-16le,false,true,true"
    );
    assert_eq!(
        run(
            "[() => new TextDecoder('replacement'), () => new TextDecoder('iso-2022-kr'), \
              () => new TextDecoder('bogus'), () => new TextDecoder('utf-8', 1), \
              () => new TextDecoder().decode(null), () => new TextDecoder().decode([1]), \
              () => TextDecoder.prototype.decode.call({}), () => TextDecoder()] \
             .map(f => { try { f(); return 'ok'; } catch (e) { return e.name; } }).join()"
        ),
        "RangeError,RangeError,RangeError,TypeError,TypeError,TypeError,TypeError,TypeError"
    );
    // The issue's case: invalid UTF-8 with {fatal: true}.
    assert_eq!(
        run("try { new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array([0x66, 0xc3, 0x28])); 'no' } \
             catch (e) { e.constructor === TypeError }"),
        "true"
    );
}

#[test]
fn decode_reads_views_and_buffers() {
    assert_eq!(
        run(
            "(() => { const b = new Uint8Array([0x41, 0x42, 0x43, 0x44]).buffer; \
             const sab = new SharedArrayBuffer(2); new Uint8Array(sab).set([0x45, 0x46]); \
             return [new TextDecoder().decode(b), \
                     new TextDecoder().decode(new Uint8Array(b, 1, 2)), \
                     new TextDecoder().decode(new DataView(b, 2)), \
                     new TextDecoder('utf-16le').decode(new Uint16Array([0x47, 0x48])), \
                     new TextDecoder().decode(sab), \
                     new TextDecoder().decode(new Uint8Array(sab, 1)), \
                     new TextDecoder().decode(undefined, undefined)].join(); })()"
        ),
        "ABCD,BC,CD,GH,EF,F,"
    );
    // The options getter runs before the bytes are copied.
    assert_eq!(
        run("(() => { const u8 = new Uint8Array([0x41, 0x42]); \
             const s = new TextDecoder().decode(u8, { get stream() { u8[0] = 0x5A; return false; } }); \
             return s; })()"),
        "ZB"
    );
}
