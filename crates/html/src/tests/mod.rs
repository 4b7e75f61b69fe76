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

/// `navigator` is installed by the host with its values; `reportError` goes to the DOM's
/// exception reporter hook.
#[test]
fn navigator_values_and_report_error_reach_the_reporter() {
    use crate::navigator::{install_navigator, NavigatorInfo};
    let mut ctx = crate::test_support::context();
    let mut info = NavigatorInfo::new("ua/1");
    info.languages = vec!["fr-FR".into(), "en".into()];
    info.hardware_concurrency = 3;
    info.worker = true;
    install_navigator(&mut ctx, info).expect("install");
    crate::test_support::check(
        &mut ctx,
        "navigator.userAgent === 'ua/1' && navigator.language === 'fr-FR'
         && navigator.languages.join() === 'fr-FR,en' && Object.isFrozen(navigator.languages)
         && navigator.languages === navigator.languages && navigator.hardwareConcurrency === 3
         && navigator instanceof WorkerNavigator && typeof Navigator === 'undefined'",
    );
    thread_local! {
        static REPORTED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    boa_dom::set_exception_reporter(|value, ctx| {
        let s = value
            .to_string(ctx)
            .map(|s| s.to_std_string_escaped())
            .unwrap_or_default();
        REPORTED.with(|r| r.borrow_mut().push(s));
    });
    crate::test_support::check(
        &mut ctx,
        "reportError(new RangeError('x')) === undefined && Object.getOwnPropertyDescriptor(globalThis, 'reportError').enumerable",
    );
    assert_eq!(
        REPORTED.with(|r| r.borrow().clone()),
        vec!["RangeError: x".to_owned()]
    );
}
