//! Queue-with-sizes ([spec §8.1](https://streams.spec.whatwg.org/#queue-with-sizes)).
//!
//! `[[queue]]` and `[[queueTotalSize]]` as one Rust value: O(1) enqueue and dequeue on a ring
//! buffer, and the spec's floating-point bookkeeping (the total can drift below zero through
//! rounding and is clamped back to 0 on dequeue).

use std::collections::VecDeque;

use boa_engine::JsResult;
use boa_gc::{Finalize, Trace};

use crate::chunk::Chunk;
use boa_webidl::range_error;

/// A value with its size, the queue's element.
#[derive(Debug, Clone, Trace, Finalize)]
pub struct ValueWithSize {
    pub value: Chunk,
    #[unsafe_ignore_trace]
    pub size: f64,
}

/// `[[queue]]` + `[[queueTotalSize]]`.
#[derive(Debug, Default, Trace, Finalize)]
pub struct QueueWithSizes {
    queue: VecDeque<ValueWithSize>,
    #[unsafe_ignore_trace]
    total_size: f64,
}

impl QueueWithSizes {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// `[[queueTotalSize]]`.
    pub fn total_size(&self) -> f64 {
        self.total_size
    }

    /// Whether the queue is empty.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// [DequeueValue](https://streams.spec.whatwg.org/#dequeue-value)
    pub fn dequeue_value(&mut self) -> Option<Chunk> {
        // 1. Assert: container has [[queue]] and [[queueTotalSize]] internal slots.
        // 2. Assert: container.[[queue]] is not empty.
        // 3. Let valueWithSize be container.[[queue]][0].
        // 4. Remove valueWithSize from container.[[queue]].
        let vws = self.queue.pop_front()?;
        // 5. Set container.[[queueTotalSize]] to container.[[queueTotalSize]] − valueWithSize's size.
        self.total_size -= vws.size;
        // 6. If container.[[queueTotalSize]] < 0, set container.[[queueTotalSize]] to 0. (This
        //    can occur due to rounding errors.)
        if self.total_size < 0.0 {
            self.total_size = 0.0;
        }
        // 7. Return valueWithSize's value.
        Some(vws.value.clone())
    }

    /// [EnqueueValueWithSize](https://streams.spec.whatwg.org/#enqueue-value-with-size)
    pub fn enqueue_value_with_size(&mut self, value: impl Into<Chunk>, size: f64) -> JsResult<()> {
        // 1. Assert: container has [[queue]] and [[queueTotalSize]] internal slots.
        // 2. If ! IsNonNegativeNumber(size) is false, throw a RangeError exception.
        // 3. If size is +∞, throw a RangeError exception.
        if size.is_nan() || size < 0.0 || size == f64::INFINITY {
            return Err(range_error(
                "The size of a chunk must be a finite, non-negative number",
            ));
        }
        // 4. Append a new value-with-size with value value and size size to container.[[queue]].
        self.queue.push_back(ValueWithSize {
            value: value.into(),
            size,
        });
        // 5. Set container.[[queueTotalSize]] to container.[[queueTotalSize]] + size.
        self.total_size += size;
        Ok(())
    }

    /// [PeekQueueValue](https://streams.spec.whatwg.org/#peek-queue-value)
    pub fn peek_queue_value(&self) -> Option<&Chunk> {
        // 1. Assert: container has [[queue]] and [[queueTotalSize]] internal slots.
        // 2. Assert: container.[[queue]] is not empty.
        // 3. Let valueWithSize be container.[[queue]][0].
        // 4. Return valueWithSize's value.
        self.queue.front().map(|v| &v.value)
    }

    /// ResetQueue, handing back the values it drops (in queue order).
    pub fn take_values(&mut self) -> Vec<Chunk> {
        let values = std::mem::take(&mut self.queue)
            .into_iter()
            .map(|v| v.value.clone())
            .collect();
        self.reset_queue();
        values
    }

    /// [ResetQueue](https://streams.spec.whatwg.org/#reset-queue)
    pub fn reset_queue(&mut self) {
        // 1. Assert: container has [[queue]] and [[queueTotalSize]] internal slots.
        // 2. Set container.[[queue]] to a new empty list.
        self.queue = VecDeque::new();
        // 3. Set container.[[queueTotalSize]] to 0.
        self.total_size = 0.0;
    }
}

#[cfg(test)]
mod tests;
