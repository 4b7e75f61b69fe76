use super::*;
use boa_engine::Context;

use crate::test_support::{context, gc_now};

/// Counted bytes since the last collection, as the next report would see them.
fn pending() -> usize {
    counted_since_collection()
}

/// A new counted buffer of `len` bytes, made and dropped from Rust (what every crate's
/// `ArrayBuffer`s go through).
fn dead_buffer(len: usize, ctx: &mut Context) {
    let buffer = new_array_buffer(AlignedVec::from_slice(64, &vec![7u8; len]), ctx).unwrap();
    drop(buffer);
}

#[test]
fn a_loop_of_dead_buffers_forces_collections_and_stays_within_the_budget() {
    let mut ctx = context();
    BUDGET.with(|b| b.set(MIN_BUDGET));
    let before = forced_collections();
    // 48 MiB of dead 1 MiB buffers in one synchronous loop (few GC boxes per buffer, so the
    // engine's own threshold alone would not collect).
    for _ in 0..48 {
        dead_buffer(1 << 20, &mut ctx);
    }
    let forced = forced_collections() - before;
    // Each collection came after more than the budget (at least 4 MiB) was counted, and
    // the counter never holds more than the budget plus one buffer.
    assert!(forced >= 1, "no collection was forced");
    assert!(forced <= 12, "{forced} collections for 48 MiB");
    assert!(pending() <= BUDGET.with(Cell::get) + (1 << 20));
}

#[test]
fn any_collection_resets_the_counter() {
    let mut ctx = context();
    dead_buffer(3, &mut ctx);
    assert!(pending() > 0);
    // The engine's own collection (here forced by the test) finalizes the sentinel.
    gc_now();
    assert_eq!(pending(), 0);
    dead_buffer(4, &mut ctx);
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
