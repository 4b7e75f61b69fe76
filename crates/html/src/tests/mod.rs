//! Crate-wide tests: what HTML's structured clone and ports do inside other crates' objects
//! (the owning streams' chunks).

mod owning;
