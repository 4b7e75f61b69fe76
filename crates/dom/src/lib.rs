//! # boa_dom
//!
//! The [DOM Standard](https://dom.spec.whatwg.org/) pieces the web APIs of this workspace
//! need and Boa lacks, as native host objects: `Event`, `CustomEvent`, `ProgressEvent` (XHR),
//! `EventTarget`, `AbortController`, `AbortSignal` (with `DOMException` from `boa_webidl`).
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_dom::register(&mut context).unwrap();
//! let reason = context
//!     .eval(Source::from_bytes(
//!         "const c = new AbortController(); let seen;
//!          c.signal.addEventListener('abort', (e) => { seen = e.type; });
//!          c.abort(); seen + ' ' + c.signal.reason.name",
//!     ))
//!     .unwrap();
//! assert_eq!(reason.as_string().unwrap().to_std_string_escaped(), "abort AbortError");
//! ```
//!
//! The Rust API below is what the streams modules (WritableStream's `controller.signal`,
//! pipeTo's `signal` option) build on: [`create_dom_exception`], [`create_abort_signal`],
//! [`is_abort_signal`], [`is_aborted`], [`abort_reason`], [`signal_abort`],
//! [`add_abort_algorithm`] / [`remove_abort_algorithm`]. Exceptions the DOM "reports"
//! (thrown by event listeners) go to the host through [`set_exception_reporter`].
//!
//! Also `CustomEvent` (WPT's EventTarget tests use it). The global object is an event target
//! too (see `register`).
//!
//! Layout, from the ground up: `report.rs` (the exception reporter hook), `event.rs`
//! (Event, CustomEvent), `event_target.rs` (EventTarget, dispatch, event handler attributes,
//! and the [`SignalHooks`] through which it consults an AbortSignal), `progress_event.rs`
//! (ProgressEvent), `abort.rs` (AbortSignal, which implements those hooks, and
//! AbortController). Each interface is a table of `boa_webidl::Member` rows.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{Context, JsResult};
use boa_gc::{Finalize, Trace};

mod abort;
mod event;
mod event_target;
mod progress_event;
mod report;

pub use abort::{
    abort_algorithm_count, abort_reason, add_abort_algorithm, create_abort_signal,
    create_dependent_abort_signal, is_abort_signal, is_aborted, remove_abort_algorithm,
    signal_abort, AbortAlgorithmId,
};
// For the event interfaces defined outside this crate (FileReader, MessagePort, MessageEvent).
pub use boa_webidl::prototype_from_new_target;
pub use boa_webidl::{create_dom_exception, DomException};
pub use event::EventData;
pub use event::{create_event_object, event_constructor_arguments, event_init};
pub use event_target::EventTargetData;
pub use event_target::{
    add_internal_listener, dispatch, event_target_class, event_target_extra, fire_event,
    get_event_handler, global_target_data, new_event_target_with, set_event_handler, SignalHooks,
    Target,
};
pub use progress_event::fire_progress_event;
pub use report::{
    report_exception, report_exception_value, set_exception_reporter, ExceptionReporter,
};

/// Register `DOMException`, `Event`, `CustomEvent`, `EventTarget`, `AbortController`,
/// `AbortSignal`.
///
/// The global object becomes an EventTarget, as a worker's global is: `EventTarget`'s
/// methods accept it (and `undefined`/`null` as `this`), and it gets own non-enumerable
/// `addEventListener`, `removeEventListener` and `dispatchEvent` properties (the functions of
/// `EventTarget.prototype`), so `addEventListener(...)` and `globalThis.dispatchEvent(...)`
/// work.
pub fn register(context: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(context) {
        return Ok(());
    }
    boa_webidl::register(context)?;
    event::register(context)?;
    progress_event::register(context)?;
    event_target::register(context)?;
    abort::register(context)?;

    event_target::install_on_global(context)
}

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that registers the DOM (see [`register`]).
    DomExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, Trace, Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
