//! Embedder-registered schemes: a custom scheme answers `fetch()`, settles later or fails
//! with a typed network error, and the context's capability policy still decides first.

use std::cell::RefCell;
use std::rc::Rc;

use boa_engine::Context;
use boa_webidl::capabilities::Capabilities;

use crate::scheme::{register_scheme, SchemeFetch, SchemeHandler};
use crate::test_support::*;
use crate::{LocalResponse, NetworkError, NetworkErrorKind};

/// Answers `GET mem:<name>` from a table; fails any other name with a typed error.
struct Memory;

impl SchemeHandler for Memory {
    fn fetch(&self, fetch: SchemeFetch, ctx: &mut Context) {
        let url = fetch.url();
        match url.strip_prefix("mem:") {
            Some("hello") => fetch.respond(
                LocalResponse::new(200, "hi there").with_header("content-type", "text/plain"),
                ctx,
            ),
            Some("echo") => {
                let body = format!(
                    "{} {} {}",
                    fetch.method(),
                    fetch.headers().len(),
                    String::from_utf8_lossy(&fetch.body().unwrap_or_default())
                );
                fetch.respond(LocalResponse::new(201, body), ctx);
            }
            _ => {
                let error = NetworkError::new(
                    NetworkErrorKind::InvalidRequest,
                    url.clone(),
                    format!("{url}: no such entry"),
                );
                fetch.fail(&error, ctx);
            }
        }
    }
}

/// Keeps each hop and answers it when the test says so.
#[derive(Default)]
struct Later(RefCell<Vec<SchemeFetch>>);

impl SchemeHandler for Rc<Later> {
    fn fetch(&self, fetch: SchemeFetch, _: &mut Context) {
        self.0.borrow_mut().push(fetch);
    }
}

#[test]
fn a_registered_scheme_answers_fetch() {
    let mut ctx = context();
    register_scheme(&mut ctx, "MEM", Rc::new(Memory));
    let log = run_log_in(
        ctx,
        "(async () => {
            const a = await fetch('mem:hello');
            log.push(a.status, a.statusText, a.headers.get('content-type'), await a.text(), a.url);
            const b = await fetch('MEM:echo', { method: 'POST', body: 'abc', headers: { x: '1' } });
            log.push(b.status, await b.text());
            await fetch('mem:nothing').catch((e) => log.push(e.name, e.message));
        })().catch((e) => log.push('error ' + e));",
        "log.join('|')",
    );
    assert_eq!(
        log,
        "200|OK|text/plain|hi there|mem:hello|201|POST 2 abc|TypeError|fetch failed: mem:nothing: no such entry"
    );
}

#[test]
fn a_handler_may_settle_later() {
    let mut ctx = context();
    let later = Rc::new(Later::default());
    register_scheme(&mut ctx, "later", Rc::new(later.clone()));
    eval(
        &mut ctx,
        "globalThis.log = []; fetch('later:x').then((r) => r.text()).then((t) => log.push(t));",
    );
    run_jobs(&mut ctx);
    assert_eq!(string(&mut ctx, "log.join('|')"), "");
    let hop = later.0.borrow_mut().pop();
    let Some(hop) = hop else {
        panic!("the handler got no hop");
    };
    hop.respond(LocalResponse::new(200, "at last"), &mut ctx);
    run_jobs(&mut ctx);
    assert_eq!(string(&mut ctx, "log.join('|')"), "at last");
}

#[test]
fn the_capability_policy_comes_first() {
    let mut ctx = context_with_capabilities(Capabilities::unrestricted().only_schemes(["https"]));
    register_scheme(&mut ctx, "mem", Rc::new(Memory));
    let log = run_log_in(
        ctx,
        "fetch('mem:hello').then(() => log.push('fetched'), (e) => log.push(e.name, e.message));",
        "log.join('|')",
    );
    assert_eq!(
        log,
        "TypeError|fetch of mem:hello denied: the mem: scheme is not allowed by this context's capabilities"
    );
}

#[test]
fn an_unregistered_scheme_is_unknown() {
    let log = run_log(
        "fetch('nope:x').catch((e) => log.push(e.message));",
        "log.join('|')",
    );
    assert_eq!(log, "fetch failed: nope:x: unknown scheme \"nope\"");
}
