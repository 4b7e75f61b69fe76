//! TextDecoderStream / TextEncoderStream unit tests: what WPT cannot see (state across many
//! chunks, surrogate pairs split across encoder chunks, BOM only at the very start, fatal
//! flush, both promise paths).

use crate::test_support::{context, eval, run_jobs, string, with_fast_paths};

/// Run `body` (which sets `globalThis.out`), drain the jobs, return `out` as a string.
fn run(fast: bool, body: &str) -> String {
    with_fast_paths(fast, || {
        let mut ctx = context();
        eval(&mut ctx, "globalThis.out = 'not run';");
        eval(&mut ctx, body);
        run_jobs(&mut ctx);
        string(&mut ctx, "String(globalThis.out)")
    })
}

const HELPERS: &str = r#"
    // Write every chunk, close, and collect what the readable side gives (or its error).
    function pump(ts, chunks) {
        const writer = ts.writable.getWriter();
        for (const c of chunks) writer.write(c).catch(() => {});
        writer.close().catch(() => {});
        const reader = ts.readable.getReader();
        const got = [];
        const step = () => reader.read().then(r => {
            if (r.done) return got;
            got.push(r.value);
            return step();
        });
        return step();
    }
    const hex = u8 => Array.from(u8, b => b.toString(16).padStart(2, '0')).join('');
    const codes = s => Array.from(s, c => c.codePointAt(0).toString(16)).join(',');
"#;

fn both(body: &str) -> (String, String) {
    let src = format!("{HELPERS}\n{body}");
    (run(true, &src), run(false, &src))
}

#[test]
fn four_byte_character_split_across_four_chunks() {
    let (fast, slow) = both(
        r#"
        const bytes = [0xF0, 0x9F, 0x92, 0x99];
        pump(new TextDecoderStream(), bytes.map(b => new Uint8Array([b])))
            .then(got => { out = got.length + ':' + got.map(codes).join('|'); });
        "#,
    );
    // Nothing is emitted until the last byte arrives, then one chunk with the code point.
    assert_eq!(fast, "1:1f499");
    assert_eq!(slow, fast);
}

#[test]
fn incomplete_sequence_at_end_is_replaced_on_flush() {
    let (fast, slow) = both(
        r#"
        pump(new TextDecoderStream(), [new Uint8Array([0x41, 0xF0, 0x9F])])
            .then(got => { out = got.map(codes).join('|'); });
        "#,
    );
    assert_eq!(fast, "41|fffd");
    assert_eq!(slow, fast);
}

#[test]
fn fatal_incomplete_sequence_errors_the_stream_on_flush() {
    let (fast, slow) = both(
        r#"
        pump(new TextDecoderStream('utf-8', { fatal: true }), [new Uint8Array([0x41, 0xE2])])
            .then(got => { out = 'no error: ' + got; },
                  e => { out = e.constructor.name; });
        "#,
    );
    assert_eq!(fast, "TypeError");
    assert_eq!(slow, fast);
}

#[test]
fn fatal_invalid_byte_rejects_the_write_with_a_type_error() {
    let (fast, slow) = both(
        r#"
        const ts = new TextDecoderStream('utf-8', { fatal: true });
        // The readable side has high water mark 0: a read lets the write reach transform.
        ts.readable.getReader().read().catch(() => {});
        const writer = ts.writable.getWriter();
        writer.write(new Uint8Array([0x41, 0xFF])).then(
            () => { out = 'written'; },
            e => { out = e.constructor.name + ' ' + (e instanceof TypeError); });
        "#,
    );
    assert_eq!(fast, "TypeError true");
    assert_eq!(slow, fast);
}

#[test]
fn bom_is_stripped_only_at_the_start_even_when_split() {
    let (fast, slow) = both(
        r#"
        // The UTF-8 BOM split over two chunks, then text, then another BOM in the middle.
        pump(new TextDecoderStream(),
             [new Uint8Array([0xEF]), new Uint8Array([0xBB, 0xBF, 0x41]),
              new Uint8Array([0xEF, 0xBB, 0xBF, 0x42])])
            .then(got => { out = got.map(codes).join('|'); });
        "#,
    );
    assert_eq!(fast, "41|feff,42");
    assert_eq!(slow, fast);
}

#[test]
fn ignore_bom_keeps_it_and_utf16_bom_is_stripped() {
    let (fast, _) = both(
        r#"
        Promise.all([
            pump(new TextDecoderStream('utf-8', { ignoreBOM: true }),
                 [new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])]),
            pump(new TextDecoderStream('utf-16le'),
                 [new Uint8Array([0xFF]), new Uint8Array([0xFE, 0x41]), new Uint8Array([0x00])]),
        ]).then(([a, b]) => { out = a.map(codes).join('|') + ' / ' + b.map(codes).join('|'); });
        "#,
    );
    assert_eq!(fast, "feff,41 / 41");
}

#[test]
fn legacy_encoding_keeps_state_across_chunks() {
    let (fast, slow) = both(
        r#"
        // Shift_JIS: 0x82 0xA0 is HIRAGANA LETTER A (U+3042), split across chunks.
        const ts = new TextDecoderStream('shift_jis');
        pump(ts, [new Uint8Array([0x41, 0x82]), new Uint8Array([0xA0])])
            .then(got => { out = ts.encoding + ' ' + got.map(codes).join('|'); });
        "#,
    );
    assert_eq!(fast, "shift_jis 41|3042");
    assert_eq!(slow, fast);
}

#[test]
fn decoder_accepts_data_views_subarrays_and_shared_buffers() {
    let (fast, _) = both(
        r#"
        const ab = new Uint8Array([0x30, 0x41, 0x42, 0x43, 0x30]).buffer;
        const sab = new SharedArrayBuffer(2);
        new Uint8Array(sab).set([0x44, 0x45]);
        pump(new TextDecoderStream(),
             [new DataView(ab, 1, 1), new Uint8Array(ab, 2, 2), new Uint16Array(sab)])
            .then(got => { out = got.join('|'); });
        "#,
    );
    assert_eq!(fast, "A|BC|DE");
}

#[test]
fn decoder_rejects_resizable_buffers_and_non_buffers() {
    let (fast, _) = both(
        r#"
        const results = [];
        const attempt = chunk => {
            const ts = new TextDecoderStream();
            ts.readable.getReader().read().catch(() => {});
            return ts.writable.getWriter().write(chunk)
                .then(() => 'ok', e => e.constructor.name);
        };
        Promise.all([
            attempt(new ArrayBuffer(2, { maxByteLength: 4 })),
            attempt('AB'),
            attempt(new ArrayBuffer(0)),
        ]).then(r => { out = r.join(','); });
        "#,
    );
    assert_eq!(fast, "TypeError,TypeError,ok");
}

#[test]
fn surrogate_pair_split_across_encoder_chunks() {
    let (fast, slow) = both(
        r#"
        // U+1F499 = D83D DC99, the leading surrogate in one chunk, the trailing in the next.
        pump(new TextEncoderStream(), ['a\uD83D', '\uDC99b'])
            .then(got => { out = got.map(hex).join('|'); });
        "#,
    );
    // The first chunk emits only 'a'; the pair is emitted with the second chunk.
    assert_eq!(fast, "61|f09f929962");
    assert_eq!(slow, fast);
}

#[test]
fn encoder_lone_surrogates_become_replacement_characters() {
    let (fast, slow) = both(
        r#"
        pump(new TextEncoderStream(),
             ['\uD83D', '', 'x\uDC99', '\uD800\uD83D', '\uDE00', '\uD800'])
            .then(got => { out = got.map(hex).join('|'); });
        "#,
    );
    // 1: pending leading surrogate, nothing out. 2: empty string, nothing out.
    // 3: lone leading then 'x' -> FFFD x, then lone trailing -> FFFD.
    // 4: D800 pending, D83D replaces it (FFFD) and becomes pending.
    // 5: D83D + DE00 = U+1F600. 6: pending at the end -> FFFD from flush.
    assert_eq!(fast, "efbfbd78efbfbd|efbfbd|f09f9880|efbfbd");
    assert_eq!(slow, fast);
}

#[test]
fn encoder_outputs_uint8_arrays_and_skips_empty_chunks() {
    let (fast, _) = both(
        r#"
        pump(new TextEncoderStream(), ['', 'h\u00e9', ''])
            .then(got => {
                out = got.length + ' ' + got.every(c => c instanceof Uint8Array) + ' ' +
                      got.map(hex).join('|');
            });
        "#,
    );
    assert_eq!(fast, "1 true 68c3a9");
}

#[test]
fn attributes_and_brand_checks() {
    let mut ctx = context();
    let v = eval(
        &mut ctx,
        r#"
        const d = new TextDecoderStream(' UTF-16 ', { fatal: 1, ignoreBOM: '' });
        const e = new TextEncoderStream();
        const getter = (C, n) => Object.getOwnPropertyDescriptor(C.prototype, n).get;
        let brand = 'no throw';
        try { getter(TextDecoderStream, 'readable').call(e); } catch (x) { brand = x.constructor.name; }
        let replacement = 'no throw';
        try { new TextDecoderStream('iso-2022-kr'); } catch (x) { replacement = x.constructor.name; }
        [d.encoding, d.fatal, d.ignoreBOM, e.encoding,
         d.readable instanceof ReadableStream, e.writable instanceof WritableStream,
         d.readable === d.readable, Object.prototype.toString.call(e),
         brand, replacement, TextDecoderStream.length, TextEncoderStream.length].join(',')
        "#,
    );
    assert_eq!(
        v.to_string(&mut ctx).unwrap().to_std_string_escaped(),
        "utf-16le,true,false,utf-8,true,true,true,[object TextEncoderStream],TypeError,RangeError,0,0"
    );
}

#[test]
fn streams_are_collected_despite_the_algorithm_cycle() {
    // this -> transform stream -> controller -> native algorithm -> this: a cycle the GC must
    // still collect once script drops every reference.
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.refs = (() => {
            const d = new TextDecoderStream();
            const e = new TextEncoderStream();
            d.writable.getWriter().write(new Uint8Array([0x41]));
            d.readable.getReader().read();
            e.writable.getWriter().write('a');
            e.readable.getReader().read();
            return [new WeakRef(d), new WeakRef(d.readable), new WeakRef(e), new WeakRef(e.writable)];
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    let v = eval(&mut ctx, "refs.map(r => String(r.deref())).join()");
    assert_eq!(
        v.to_string(&mut ctx).unwrap().to_std_string_escaped(),
        "undefined,undefined,undefined,undefined"
    );
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(
        &mut ctx,
        &["webidl", "dom", "streams", "encoding"],
    );
}
