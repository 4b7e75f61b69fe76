//! TransformStream unit tests.
