use super::*;
use crate::chunk::Chunk;
use boa_engine::JsValue;

#[test]
fn total_size_never_negative_after_rounding() {
    let mut q = QueueWithSizes::new();
    q.enqueue_value_with_size(JsValue::from(1), 0.1).unwrap();
    q.enqueue_value_with_size(JsValue::from(2), 0.2).unwrap();
    q.dequeue_value().unwrap();
    q.dequeue_value().unwrap();
    assert!(q.total_size() >= 0.0);
    assert!(q.is_empty());
}

#[test]
fn rejects_bad_sizes() {
    let mut q = QueueWithSizes::new();
    assert!(q
        .enqueue_value_with_size(JsValue::undefined(), -1.0)
        .is_err());
    assert!(q
        .enqueue_value_with_size(JsValue::undefined(), f64::NAN)
        .is_err());
    assert!(q
        .enqueue_value_with_size(JsValue::undefined(), f64::INFINITY)
        .is_err());
    assert!(q.is_empty());
    assert_eq!(q.total_size(), 0.0);
}

#[test]
fn fifo_order_with_sizes() {
    let mut q = QueueWithSizes::new();
    for i in 0..100 {
        q.enqueue_value_with_size(JsValue::from(i), 2.0).unwrap();
    }
    assert_eq!(q.total_size(), 200.0);
    assert_eq!(q.peek_queue_value(), Some(&Chunk::Js(JsValue::from(0))));
    for i in 0..100 {
        assert_eq!(q.dequeue_value(), Some(Chunk::Js(JsValue::from(i))));
    }
    assert_eq!(q.dequeue_value(), None);
}
