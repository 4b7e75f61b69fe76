use super::*;
use crate::test_support::{both_modes, check, context, eval, gc_now, run_jobs};

/// Counted bytes since the last collection, as the next report would see them.
fn pending() -> usize {
    if COLLECTED.with(Cell::get) {
        0
    } else {
        SINCE_COLLECTION.with(Cell::get)
    }
}

#[test]
fn a_loop_of_dead_buffers_forces_collections_and_stays_within_the_budget() {
    let mut ctx = context();
    BUDGET.with(|b| b.set(MIN_BUDGET));
    let before = forced_collections();
    // 48 MiB of dead 1 MiB buffers from TextEncoder.encode, in one synchronous loop (few GC
    // boxes per buffer, so the engine's own threshold alone would not collect).
    check(
        &mut ctx,
        "const s = 'a'.repeat(1 << 20);
         let total = 0;
         for (let i = 0; i < 48; i++) total += new TextEncoder().encode(s).byteLength;
         total === 48 << 20",
    );
    let forced = forced_collections() - before;
    // Each collection came after more than the budget (at least 4 MiB) was counted, and
    // the counter never holds more than the budget plus one buffer.
    assert!(forced >= 1, "no collection was forced");
    assert!(forced <= 12, "{forced} collections for 48 MiB");
    assert!(pending() <= BUDGET.with(Cell::get) + (1 << 20));
}

#[test]
fn stream_output_buffers_are_counted_in_both_modes() {
    // A DecompressionStream's and a TextEncoderStream's chunks become ArrayBuffers when they
    // reach script: with the fast paths on (Chunk::into_js) and off (at enqueue) alike.
    both_modes(|_| {
        let mut ctx = context();
        gc_now();
        let before = pending();
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
        let counted = pending();
        assert!(counted >= 400_000, "counted {counted}");
        counted >= 400_000
    });
}

#[test]
fn any_collection_resets_the_counter() {
    let mut ctx = context();
    check(&mut ctx, "new TextEncoder().encode('abc').byteLength === 3");
    assert!(pending() > 0);
    // The engine's own collection (here forced by the test) finalizes the sentinel.
    gc_now();
    assert_eq!(pending(), 0);
    check(
        &mut ctx,
        "new TextEncoder().encode('abcd').byteLength === 4",
    );
    assert_eq!(pending(), 4);
}

#[test]
fn the_budget_grows_with_the_collection_time_and_is_bounded() {
    assert_eq!(budget_after(Duration::ZERO), MIN_BUDGET);
    assert_eq!(budget_after(Duration::from_millis(4)), 16_000_000);
    assert_eq!(budget_after(Duration::from_secs(60)), MAX_BUDGET);
}

#[test]
fn the_collection_time_is_smoothed_upwards_only() {
    COLLECTION_NS.with(|c| c.set(0));
    assert_eq!(
        smoothed(Duration::from_nanos(1000)),
        Duration::from_nanos(1000)
    );
    // A slow outlier moves it by a quarter of the difference.
    assert_eq!(
        smoothed(Duration::from_nanos(5000)),
        Duration::from_nanos(2000)
    );
    // A faster collection lowers it at once.
    assert_eq!(
        smoothed(Duration::from_nanos(500)),
        Duration::from_nanos(500)
    );
}
