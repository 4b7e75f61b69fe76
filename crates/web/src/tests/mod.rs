//! Crate-wide tests: what spans the interfaces of several crates (the WebIDL shape of every
//! interface, the generated hostile-input injection table, the ArrayBuffer funnel's collection
//! budget, pair iterators shared by Headers and URLSearchParams, native byte chunks through
//! the Encoding and Compression streams, transform ticks with native transformers).

mod chunk;
mod form_data;
mod gc_pressure;
mod injection;
mod pair_iterable;
mod subset;
mod transform;
mod webidl_shapes;
