//! Crate-wide tests: what spans every interface of every crate (the WebIDL shape of every
//! interface, the generated hostile-input injection table).

mod injection;
mod webidl_shapes;
