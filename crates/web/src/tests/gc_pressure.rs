//! The ArrayBuffer funnel (`boa_webidl::gc_pressure`) seen from the streams of other crates.

use boa_webidl::gc_pressure::counted_since_collection;

use crate::test_support::{both_modes, check, context, eval, gc_now, run_jobs};

#[test]
fn stream_output_buffers_are_counted_in_both_modes() {
    // A DecompressionStream's and a TextEncoderStream's chunks become ArrayBuffers when they
    // reach script: with the fast paths on (Chunk::into_js) and off (at enqueue) alike.
    both_modes(|_| {
        let mut ctx = context();
        gc_now();
        let before = counted_since_collection();
        assert_eq!(before, 0);
        eval(
            &mut ctx,
            "globalThis.done = 0;
             (async () => {
               const data = new Uint8Array(300000).fill(7);
               const gz = await new Response(new Blob([data]).stream()
                 .pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
               let got = 0;
               const r = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))
                 .getReader();
               for (;;) { const { value, done } = await r.read(); if (done) break; got += value.byteLength; }
               const e = new TextEncoderStream();
               const w = e.writable.getWriter();
               w.write('x'.repeat(100000)); w.close();
               for await (const c of e.readable) got += c.byteLength;
               done = got;
             })();",
        );
        run_jobs(&mut ctx);
        check(&mut ctx, "done === 400000");
        // At least the decompressed and encoded bytes were counted (no collection ran: far
        // below the budget).
        let counted = counted_since_collection();
        assert!(counted >= 400_000, "counted {counted}");
        counted >= 400_000
    });
}
