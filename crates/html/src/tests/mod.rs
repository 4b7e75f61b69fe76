//! Crate-wide tests: what HTML's structured clone and ports do inside other crates' objects
//! (the owning streams' chunks).

mod owning;

use crate::test_support::{context, string};

/// A File's negative `lastModified` survives structured serialization (a long long).
#[test]
fn a_file_keeps_a_negative_last_modified_through_structured_clone() {
    let mut ctx = context();
    assert_eq!(
        string(
            &mut ctx,
            "structuredClone(new File([], 'x', { lastModified: -42 })).lastModified"
        ),
        "-42"
    );
}

/// `register` alone installs this crate's interfaces and its dependencies', and nothing of
/// the other crates.
#[test]
fn register_installs_only_this_crate_and_its_dependencies() {
    let mut ctx = crate::test_support::context();
    crate::test_support::assert_crates_registered(
        &mut ctx,
        &["webidl", "dom", "streams", "fileapi", "url", "html"],
    );
}
