//! Registering a subset of the standards (per-crate `register`), and the capability policy
//! `register` and `register_with` leave on the context.

use boa_engine::Context;

use crate::test_support::*;
use crate::Capabilities;

#[test]
fn streams_and_encoding_alone_have_no_fetch() {
    let mut ctx = Context::default();
    boa_streams::register(&mut ctx).unwrap();
    boa_encoding::register(&mut ctx).unwrap();
    assert_crates_registered(&mut ctx, &["webidl", "dom", "streams", "encoding"]);
    let kinds = eval(
        &mut ctx,
        "[typeof fetch, typeof BoaStreams, typeof Response, typeof TextDecoderStream].join()",
    );
    assert_eq!(
        kinds.as_string().unwrap().to_std_string_escaped(),
        "undefined,undefined,undefined,function"
    );
}

#[test]
fn register_leaves_the_restrictive_default() {
    let mut ctx = Context::default();
    crate::register(&mut ctx).unwrap();
    assert_eq!(*Capabilities::of(&ctx), Capabilities::default());
    // An installed policy is kept by a later `register`.
    let mut ctx = Context::default();
    Capabilities::unrestricted().install(&mut ctx);
    crate::register(&mut ctx).unwrap();
    assert_eq!(*Capabilities::of(&ctx), Capabilities::unrestricted());
}

#[test]
fn register_with_installs_the_policy() {
    let mut ctx = Context::default();
    crate::register_with(&mut ctx, Capabilities::default().allow_worker()).unwrap();
    assert!(Capabilities::of(&ctx).check_worker().is_ok());
    assert!(Capabilities::of(&ctx).check_env().is_err());
    let out = run_out_in(
        ctx,
        "globalThis.out = [];
         fetch('file:///etc/passwd').then(() => out.push('read'), (e) => out.push(e.name, e.message));",
    );
    assert_eq!(
        out,
        "TypeError,fetch of file:///etc/passwd denied: reading files needs the fs-read capability (--allow-fs-read)"
    );
}
