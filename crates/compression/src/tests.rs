//! Compression unit tests: what WPT cannot see (large round trips in tiny and big chunks,
//! trailing data and truncation at every split, gzip header fields, no panic on corrupt
//! input, the codec state being collected).

use boa_engine::Context;

use std::io::Write;

use crate::compressor::Compressor;
use crate::decompressor::{Decompressor, Phase};
use crate::format::CompressionFormat;
use crate::gzip::GzipHeaderParser;
use crate::pieces::OUTPUT_CHUNK_BOUND;
use crate::test_support::{context, eval, run_jobs, string};

const FORMATS: [CompressionFormat; 3] = [
    CompressionFormat::Deflate,
    CompressionFormat::DeflateRaw,
    CompressionFormat::Gzip,
];

/// Compressible but not trivial bytes.
fn sample(len: usize) -> Vec<u8> {
    let mut x: u32 = 12345;
    (0..len)
        .map(|i| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            if i % 7 == 0 {
                (x >> 16) as u8
            } else {
                b"streams "[i % 8]
            }
        })
        .collect()
}

fn compress_all(format: CompressionFormat, data: &[u8], chunk: usize) -> Vec<u8> {
    let mut c = Compressor::new(format);
    let mut out = Vec::new();
    for piece in data.chunks(chunk) {
        for p in c.compress(piece, false).unwrap() {
            out.extend_from_slice(&p);
        }
    }
    for p in c.compress(&[], true).unwrap() {
        out.extend_from_slice(&p);
    }
    out
}

/// Parse a GZIP header from the start of `bytes` with a fresh parser.
fn parse_gzip_header(bytes: &[u8]) -> Result<Option<usize>, &'static str> {
    GzipHeaderParser::new().feed(bytes)
}

fn decompress_all(format: CompressionFormat, data: &[u8], chunk: usize) -> Result<Vec<u8>, String> {
    let mut d = Decompressor::new(format);
    let mut out = Vec::new();
    for piece in data.chunks(chunk) {
        out.extend(d.decompress(piece)?);
    }
    d.finish()?;
    Ok(out)
}

#[test]
fn codec_round_trips_in_tiny_and_large_chunks() {
    let data = sample(256 * 1024);
    for format in FORMATS {
        for chunk in [1, 7, 64 * 1024] {
            let compressed = compress_all(format, &data, chunk);
            assert!(compressed.len() < data.len() / 2, "{format:?} compresses");
            assert_eq!(decompress_all(format, &compressed, chunk).unwrap(), data);
        }
    }
}

#[test]
fn gzip_output_is_framed_per_rfc_1952() {
    let data = sample(1000);
    let out = compress_all(CompressionFormat::Gzip, &data, 100);
    assert_eq!(out.get(..4), Some(&[31, 139, 8, 0][..]));
    let len = out.len();
    let isize_bytes = out.get(len - 4..).unwrap();
    assert_eq!(u32::from_le_bytes(isize_bytes.try_into().unwrap()), 1000);
    let mut crc = flate2::Crc::new();
    crc.update(&data);
    let crc_bytes = out.get(len - 8..len - 4).unwrap();
    assert_eq!(u32::from_le_bytes(crc_bytes.try_into().unwrap()), crc.sum());
}

#[test]
fn gzip_header_optional_fields_are_skipped_and_checked() {
    // FEXTRA (2 bytes), FNAME "a", FCOMMENT "b".
    let mut header = vec![
        31,
        139,
        8,
        4 | 8 | 16,
        0,
        0,
        0,
        0,
        0,
        3,
        2,
        0,
        9,
        9,
        b'a',
        0,
        b'b',
        0,
    ];
    assert_eq!(parse_gzip_header(&header), Ok(Some(header.len())));
    for cut in 0..header.len() {
        assert_eq!(parse_gzip_header(header.get(..cut).unwrap()), Ok(None));
        // Split in two anywhere: the second part completes it, with trailing bytes left.
        let mut parser = GzipHeaderParser::new();
        assert_eq!(parser.feed(header.get(..cut).unwrap()), Ok(None));
        let mut rest = header.get(cut..).unwrap().to_vec();
        rest.push(77);
        assert_eq!(parser.feed(&rest), Ok(Some(rest.len() - 1)));
    }
    // FHCRC: the low 16 bits of the CRC-32 of the header bytes before it.
    if let Some(flg) = header.get_mut(3) {
        *flg |= 2;
    }
    let mut crc = flate2::Crc::new();
    crc.update(&header);
    let good = (crc.sum() as u16).to_le_bytes();
    let mut with_crc = header.clone();
    with_crc.extend_from_slice(&good);
    assert_eq!(parse_gzip_header(&with_crc), Ok(Some(with_crc.len())));
    // Byte by byte.
    let mut parser = GzipHeaderParser::new();
    for (i, b) in with_crc.iter().enumerate() {
        let expected = if i + 1 == with_crc.len() {
            Some(1)
        } else {
            None
        };
        assert_eq!(parser.feed(&[*b]), Ok(expected), "byte {i}");
    }
    assert_eq!(parser.examined, with_crc.len() as u64);
    // An empty FEXTRA.
    assert_eq!(
        parse_gzip_header(&[31, 139, 8, 4, 0, 0, 0, 0, 0, 3, 0, 0, 1]),
        Ok(Some(12))
    );
    header.extend_from_slice(&[good[0] ^ 1, good[1]]);
    assert!(parse_gzip_header(&header).is_err());
    assert!(parse_gzip_header(&[31, 139, 8, 0x20]).is_err());
    assert!(parse_gzip_header(&[31, 138]).is_err());
}

#[test]
fn trailing_data_and_truncation_are_errors_at_every_split() {
    let data = sample(3000);
    for format in FORMATS {
        let compressed = compress_all(format, &data, 3000);
        // Trailing data after the end of the stream, in the same chunk or a later one.
        let mut extra = compressed.clone();
        extra.push(0);
        assert!(decompress_all(format, &extra, extra.len()).is_err());
        assert!(decompress_all(format, &extra, 5).is_err());
        // Truncated at every length: never a success, never a panic.
        for cut in 0..compressed.len() {
            let truncated = compressed.get(..cut).unwrap();
            assert!(
                decompress_all(format, truncated, 3).is_err(),
                "{format:?} truncated at {cut}"
            );
        }
    }
}

#[test]
fn corrupt_input_never_panics() {
    let data = sample(2000);
    for format in FORMATS {
        let compressed = compress_all(format, &data, 2000);
        for i in 0..compressed.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = compressed.clone();
                if let Some(b) = bad.get_mut(i) {
                    *b ^= flip;
                }
                // Whatever the result, it must be a value, not a panic. With a checksum, a
                // success (a flipped padding bit) must still give the original bytes.
                let result = decompress_all(format, &bad, 11);
                if let (Ok(out), false) = (&result, format == CompressionFormat::DeflateRaw) {
                    assert_eq!(out, &data, "{format:?} byte {i}");
                }
            }
        }
    }
}

/// Run `src` (which sets `globalThis.result`) to completion and return `result` as a string.
fn run(ctx: &mut Context, src: &str) -> String {
    eval(ctx, src);
    run_jobs(ctx);
    string(ctx, "String(globalThis.result)")
}

const ROUND_TRIP_JS: &str = r#"
    async function roundTrip(format, size, chunk) {
        const input = new Uint8Array(size);
        let x = 7;
        for (let i = 0; i < size; i++) {
            x = (x * 1103515245 + 12345) >>> 0;
            input[i] = i % 5 === 0 ? (x >>> 16) & 255 : 97 + (i % 3);
        }
        const cs = new CompressionStream(format);
        const ds = new DecompressionStream(format);
        const out = cs.readable.pipeThrough(ds);
        const writer = cs.writable.getWriter();
        const written = (async () => {
            for (let i = 0; i < size; i += chunk) {
                await writer.write(input.subarray(i, i + chunk));
            }
            await writer.close();
        })();
        const reader = out.getReader();
        let total = 0, ok = true, chunks = 0;
        for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            if (!(value instanceof Uint8Array) || value.length === 0) ok = false;
            for (let j = 0; j < value.length; j++) {
                if (value[j] !== input[total + j]) { ok = false; break; }
            }
            total += value.length;
            chunks++;
        }
        await written;
        return ok && total === size ? 'ok' : `mismatch ${total} ${chunks}`;
    }
"#;

#[test]
fn one_mebibyte_round_trips_through_the_streams_in_big_chunks() {
    let mut ctx = context();
    let src = ROUND_TRIP_JS.to_owned()
        + r#"
        globalThis.result = 'pending';
        Promise.all(['deflate', 'deflate-raw', 'gzip'].map(f => roundTrip(f, 1 << 20, 65536)))
            .then(r => { globalThis.result = r.join(','); },
                  e => { globalThis.result = 'error ' + e; });
        "#;
    assert_eq!(run(&mut ctx, &src), "ok,ok,ok");
}

#[test]
fn one_mebibyte_round_trips_through_the_streams_in_one_byte_chunks() {
    let mut ctx = context();
    let src = ROUND_TRIP_JS.to_owned()
        + r#"
        globalThis.result = 'pending';
        roundTrip('gzip', 1 << 20, 1)
            .then(r => { globalThis.result = r; }, e => { globalThis.result = 'error ' + e; });
        "#;
    assert_eq!(run(&mut ctx, &src), "ok");
}

#[test]
fn corrupt_input_errors_both_sides_with_a_type_error() {
    let mut ctx = context();
    let src = r#"
        globalThis.result = 'pending';
        (async () => {
            const ds = new DecompressionStream('deflate');
            const writer = ds.writable.getWriter();
            const reader = ds.readable.getReader();
            const w = writer.write(new Uint8Array([120, 156, 255, 255, 255, 0, 1]));
            const r = reader.read();
            const results = await Promise.allSettled([w, r, writer.closed, reader.closed]);
            return results.map(x => x.status + ':' + (x.reason && x.reason.constructor.name))
                .join(',');
        })().then(r => { globalThis.result = r; }, e => { globalThis.result = 'error ' + e; });
    "#;
    assert_eq!(
        run(&mut ctx, src),
        "rejected:TypeError,rejected:TypeError,rejected:TypeError,rejected:TypeError"
    );
}

#[test]
fn trailing_data_in_a_later_chunk_errors_the_stream() {
    let mut ctx = context();
    let src = r#"
        globalThis.result = 'pending';
        (async () => {
            const ds = new DecompressionStream('deflate-raw');
            const writer = ds.writable.getWriter();
            const reader = ds.readable.getReader();
            // An empty final stored block, then one more byte.
            const first = reader.read();
            await writer.write(new Uint8Array([1, 0, 0, 255, 255]));
            const w = writer.write(new Uint8Array([0]));
            const settled = await Promise.allSettled([w, first]);
            return settled.map(x => x.status + ':' + (x.reason && x.reason.constructor.name))
                .join(',');
        })().then(r => { globalThis.result = r; }, e => { globalThis.result = 'error ' + e; });
    "#;
    assert_eq!(run(&mut ctx, src), "rejected:TypeError,rejected:TypeError");
}

#[test]
fn interface_shapes() {
    let mut ctx = context();
    let src = r#"
        const r = [];
        for (const I of [CompressionStream, DecompressionStream]) {
            try { I('gzip'); r.push('called'); } catch (e) { r.push(e.constructor.name); }
            try { new I('zip'); r.push('zip'); } catch (e) { r.push(e.constructor.name); }
            try { new I(); r.push('none'); } catch (e) { r.push(e.constructor.name); }
            const s = new I({ toString() { return 'deflate-raw'; } });
            r.push(Object.prototype.toString.call(s), I.length);
            const g = Object.getOwnPropertyDescriptor(I.prototype, 'readable').get;
            try { g.call(new TransformStream()); r.push('no brand'); }
            catch (e) { r.push(e.constructor.name); }
            r.push(s.readable instanceof ReadableStream, s.writable instanceof WritableStream);
        }
        r.join(',')
    "#;
    assert_eq!(
        string(&mut ctx, src),
        "TypeError,TypeError,TypeError,[object CompressionStream],1,TypeError,true,true,\
         TypeError,TypeError,TypeError,[object DecompressionStream],1,TypeError,true,true"
    );
}

#[test]
fn streams_are_collected_with_their_codec_state() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.refs = (() => {
            const cs = new CompressionStream('gzip');
            const ds = new DecompressionStream('deflate');
            cs.writable.getWriter().write(new Uint8Array(1000));
            cs.readable.getReader().read();
            ds.writable.getWriter().write(new Uint8Array([120, 156]));
            return [new WeakRef(cs), new WeakRef(cs.readable), new WeakRef(cs.writable),
                    new WeakRef(ds), new WeakRef(ds.readable)];
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    ctx.clear_kept_objects();
    crate::test_support::gc_now();
    assert_eq!(
        string(&mut ctx, "refs.map(r => String(r.deref())).join()"),
        "undefined,undefined,undefined,undefined,undefined"
    );
}

#[test]
fn output_before_trailing_data_is_enqueued_before_the_error() {
    let mut ctx = context();
    let src = r#"
        globalThis.result = 'pending';
        (async () => {
            const ds = new DecompressionStream('deflate-raw');
            const writer = ds.writable.getWriter();
            const reader = ds.readable.getReader();
            const first = reader.read();
            // A final stored block holding "hi", then one byte too many.
            const w = writer.write(new Uint8Array([1, 2, 0, 253, 255, 104, 105, 0]));
            const { value } = await first;
            const rest = await Promise.allSettled([w, reader.read()]);
            return [String.fromCharCode(...value)].concat(
                rest.map(x => x.status + ':' + (x.reason && x.reason.constructor.name))).join(',');
        })().then(r => { globalThis.result = r; }, e => { globalThis.result = 'error ' + e; });
    "#;
    assert_eq!(
        run(&mut ctx, src),
        "hi,rejected:TypeError,rejected:TypeError"
    );
}

/// A GZIP header with FNAME (and FHCRC) whose name has no NUL in the first 1,600 chunks of
/// 64 KiB: each byte is examined once (the header is parsed incrementally, never re-scanned),
/// and the stream still decodes once the name ends.
#[test]
fn gzip_header_with_a_huge_name_is_parsed_in_linear_time() {
    const CHUNKS: usize = 1600;
    let header = [31u8, 139, 8, 8 | 2, 0, 0, 0, 0, 0, 3];
    let name_chunk = vec![b'a'; 64 * 1024];
    let mut header_crc = flate2::Crc::new();
    header_crc.update(&header);
    let mut d = Decompressor::new(CompressionFormat::Gzip);
    assert_eq!(d.decompress(&header), Ok(Vec::new()));
    for _ in 0..CHUNKS {
        assert_eq!(d.decompress(&name_chunk), Ok(Vec::new()));
        header_crc.update(&name_chunk);
    }
    let fed = (header.len() + CHUNKS * name_chunk.len()) as u64;
    let Phase::GzipHeader(parser) = &d.phase else {
        panic!("still in the header");
    };
    assert_eq!(parser.examined, fed, "every byte examined exactly once");
    // The NUL, the header CRC, then a deflate body and the trailer.
    header_crc.update(&[0]);
    let mut rest = vec![0u8];
    rest.extend_from_slice(&(header_crc.sum() as u16).to_le_bytes());
    let data = sample(1000);
    let member = compress_all(CompressionFormat::Gzip, &data, 1000);
    rest.extend_from_slice(member.get(10..).unwrap());
    assert_eq!(d.decompress(&rest), Ok(data));
    assert!(d.finish().is_ok());
}

/// Write `len` zero bytes to `writer`.
fn write_zeros<W: Write>(mut writer: W, len: usize) -> W {
    let zeros = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(zeros.len());
        writer.write_all(zeros.get(..n).unwrap()).unwrap();
        left -= n;
    }
    writer
}

/// A decompression bomb: `len` zero bytes compressed by flate2 directly (not by the code
/// under test).
fn bomb(format: CompressionFormat, len: usize) -> Vec<u8> {
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
    let level = flate2::Compression::best();
    match format {
        CompressionFormat::Deflate => write_zeros(ZlibEncoder::new(Vec::new(), level), len)
            .finish()
            .unwrap(),
        CompressionFormat::DeflateRaw => write_zeros(DeflateEncoder::new(Vec::new(), level), len)
            .finish()
            .unwrap(),
        CompressionFormat::Gzip => write_zeros(GzEncoder::new(Vec::new(), level), len)
            .finish()
            .unwrap(),
    }
}

/// One small input chunk that inflates to 32 MiB comes out as 512 pieces of exactly
/// OUTPUT_CHUNK_BOUND bytes, never as one buffer of the whole output.
#[test]
fn a_decompression_bomb_comes_out_in_bounded_pieces() {
    const LEN: usize = 32 << 20;
    for format in FORMATS {
        let input = bomb(format, LEN);
        assert!(input.len() < 64 * 1024, "{format:?}: {} bytes", input.len());
        let mut d = Decompressor::new(format);
        let (pieces, fully_consumed) = d.decompress_chunk(&input).unwrap();
        assert!(fully_consumed);
        assert!(d.finish().is_ok());
        assert_eq!(pieces.len(), LEN / OUTPUT_CHUNK_BOUND, "{format:?}");
        assert!(pieces.iter().all(|p| p.len() == OUTPUT_CHUNK_BOUND));
        assert!(pieces.iter().all(|p| p.iter().all(|&b| b == 0)));
    }
}

/// A 1 MiB incompressible chunk compresses to pieces of at most OUTPUT_CHUNK_BOUND bytes
/// (more than one), which decompress to the input.
#[test]
fn compression_output_comes_out_in_bounded_pieces() {
    let mut x: u32 = 99;
    let data: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    for format in FORMATS {
        let mut c = Compressor::new(format);
        let mut pieces = c.compress(&data, false).unwrap();
        pieces.extend(c.compress(&[], true).unwrap());
        assert!(pieces.len() > data.len() / OUTPUT_CHUNK_BOUND, "{format:?}");
        assert!(pieces
            .iter()
            .all(|p| !p.is_empty() && p.len() <= OUTPUT_CHUNK_BOUND));
        let compressed: Vec<u8> = pieces.iter().flat_map(|p| p.iter().copied()).collect();
        assert_eq!(decompress_all(format, &compressed, 4096).unwrap(), data);
    }
}

/// Through the streams: the readable side of a DecompressionStream fed a bomb in one write
/// receives many chunks, none larger than OUTPUT_CHUNK_BOUND, adding up to the whole output.
#[test]
fn a_decompression_bomb_reaches_the_readable_side_in_bounded_chunks() {
    const LEN: usize = 8 << 20;
    let input = bomb(CompressionFormat::DeflateRaw, LEN);
    let literal: Vec<String> = input.iter().map(u8::to_string).collect();
    let mut ctx = context();
    let src = format!(
        r#"
        globalThis.result = 'pending';
        (async () => {{
            const ds = new DecompressionStream('deflate-raw');
            const writer = ds.writable.getWriter();
            writer.write(new Uint8Array([{}]));
            writer.close();
            const reader = ds.readable.getReader();
            let chunks = 0, total = 0, max = 0, zeros = true;
            for (;;) {{
                const {{ value, done }} = await reader.read();
                if (done) break;
                chunks++;
                total += value.length;
                max = Math.max(max, value.length);
                if (value[0] !== 0 || value[value.length - 1] !== 0) zeros = false;
            }}
            return [chunks, total, max, zeros].join();
        }})().then(r => {{ globalThis.result = r; }}, e => {{ globalThis.result = 'error ' + e; }});
        "#,
        literal.join(",")
    );
    assert_eq!(
        run(&mut ctx, &src),
        format!(
            "{},{LEN},{OUTPUT_CHUNK_BOUND},true",
            LEN / OUTPUT_CHUNK_BOUND
        )
    );
}

/// Corrupt data at the end of a chunk whose start inflates to many pieces: per the spec's
/// order (decompress the whole chunk, throw on error, only then enqueue), nothing of that
/// chunk is enqueued, so a pending read rejects rather than receiving a piece.
#[test]
fn a_chunk_with_a_bad_checksum_enqueues_none_of_its_output() {
    let mut input = bomb(CompressionFormat::Deflate, 1 << 20);
    if let Some(last) = input.last_mut() {
        *last ^= 1;
    }
    let mut d = Decompressor::new(CompressionFormat::Deflate);
    assert!(d.decompress_chunk(&input).is_err());
    let literal: Vec<String> = input.iter().map(u8::to_string).collect();
    let mut ctx = context();
    let src = format!(
        r#"
        globalThis.result = 'pending';
        (async () => {{
            const ds = new DecompressionStream('deflate');
            const writer = ds.writable.getWriter();
            const reader = ds.readable.getReader();
            const first = reader.read();
            const w = writer.write(new Uint8Array([{}]));
            const settled = await Promise.allSettled([first, w]);
            return settled.map(x => x.status + ':' + (x.reason && x.reason.constructor.name))
                .join(',');
        }})().then(r => {{ globalThis.result = r; }}, e => {{ globalThis.result = 'error ' + e; }});
        "#,
        literal.join(",")
    );
    assert_eq!(run(&mut ctx, &src), "rejected:TypeError,rejected:TypeError");
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(
        &mut ctx,
        &["webidl", "dom", "streams", "compression"],
    );
}
