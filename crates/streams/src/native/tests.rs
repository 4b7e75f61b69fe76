use super::*;
use crate::test_support::{context, eval, set_global, string};

#[test]
fn a_native_byte_stream_reads_back_in_js() {
    let mut ctx = context();
    let chunks = vec![
        Bytes::from_static(b"hello, "),
        Bytes::from_static(b""),
        Bytes::from(vec![0xe2, 0x9c, 0x93]),
    ];
    let stream = native_byte_stream(chunks.into_iter(), &mut ctx).unwrap();
    set_global(&mut ctx, "nativeStream", stream.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        (async () => {
          let last;
          for await (const c of nativeStream) {
            out.push(c.constructor.name + ':' + c.length);
            last = c;
          }
          out.push(Array.from(last, (b) => b.toString(16)).join(''));
        })();
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        string(&mut ctx, "out.join()"),
        "Uint8Array:7,Uint8Array:0,Uint8Array:3,e29c93"
    );
}

#[test]
fn cancel_drops_the_iterator() {
    let mut ctx = context();
    let stream = native_byte_stream(
        std::iter::repeat_n(Bytes::from_static(b"x"), 1_000_000),
        &mut ctx,
    )
    .unwrap();
    set_global(&mut ctx, "s", stream.upcast());
    eval(
        &mut ctx,
        r#"
        globalThis.n = 0;
        (async () => { for await (const c of s) { if (++n === 3) break; } })();
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(string(&mut ctx, "n + ':' + s.locked"), "3:false");
}
