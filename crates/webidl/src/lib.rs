//! # boa_webidl
//!
//! The [WebIDL](https://webidl.spec.whatwg.org/) glue every web API crate of this workspace
//! builds on, for the [Boa](https://boajs.dev) engine: interface, operation and attribute
//! installation with the WebIDL property shapes, brand checks, the spec's errors, dictionary
//! members, type conversions, buffer sources, the promise vocabulary ([`promise`]) and
//! `DOMException` (which WebIDL defines).
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut context = Context::default();
//! boa_webidl::register(&mut context).unwrap();
//! let name = context
//!     .eval(Source::from_bytes("new DOMException('gone', 'AbortError').code"))
//!     .unwrap();
//! assert_eq!(name.as_number(), Some(20.0));
//! ```
//!
//! Rules every interface follows:
//! - operations are enumerable, writable, configurable data properties (Boa's
//!   `ClassBuilder::method` makes them non-enumerable, so never use it);
//! - attributes are enumerable, configurable accessors whose getter is named `get <name>`;
//! - `Symbol.toStringTag` is a non-writable, non-enumerable, configurable string;
//! - the global binding is writable + configurable, not enumerable ([`INTERFACE_ATTRIBUTES`]).
//!
//! # Modules
//!
//! | module | what |
//! | --- | --- |
//! | (root) | installation of operations and attributes, brand checks, errors, conversions, dictionaries, [`catching`] (user code run inside a JS try/catch trampoline, `docs/engine-bugs/`), the fast-path switch |
//! | [`promise`] | the promise vocabulary: JS-visible promises, Rust-side promises script never sees, [`Completion`](promise::Completion), [`Reaction`](promise::Reaction), [`PromiseSlot`](promise::PromiseSlot) |
//! | [`capabilities`] | the capability policy ("least authority"): what a context's scripts may reach (network, files, workers, environment), checked by every crate at operation time |
//! | [`entry_list`] | the ordered name-value entry list `FormData` and `URLSearchParams` share, and their operations' prologue |
//! | [`exception`] | `DOMException` |
//! | [`gc_pressure`] | the one way the library makes an `ArrayBuffer`: counts its data block and forces a collection every 4 MiB or more |
//! | [`pair_iterable`] | WebIDL pair iterators (`entries`/`keys`/`values`/`forEach`) |

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod buffer_source;
pub mod capabilities;
mod catching;
mod convert;
pub mod entry_list;
mod error;
pub mod exception;
mod fast_paths;
pub mod gc_pressure;
mod interface;
pub mod pair_iterable;
pub mod promise;
mod registration;
mod resolving;
pub mod sequence;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod test_support;

pub use exception::{create_dom_exception, DomException};

pub use catching::*;
pub use convert::*;
pub use error::*;
pub use fast_paths::{fast_paths, set_fast_paths};
pub use interface::*;
pub use promise::{promise_from_own_result, promise_from_result, promise_method};
pub use registration::*;
pub use resolving::*;

#[cfg(test)]
mod tests {
    use super::get_plain_data;
    use crate::js_key;
    use crate::test_support::{context, eval};
    use boa_engine::JsValue;

    /// `get_plain_data` reads own, inherited and absent data members, and declines getters,
    /// proxies and exotic objects on the chain (their lookups can run code).
    #[test]
    fn plain_data_lookup_and_what_it_declines() {
        let mut ctx = context();
        let get = |ctx: &mut boa_engine::Context, src: &str, key| {
            let o = eval(ctx, src);
            get_plain_data(&o.as_object().expect("an object"), &key)
        };
        let own = get(&mut ctx, "({ pull: 1 })", js_key!("pull"));
        assert_eq!(own, Some(JsValue::from(1)));
        let inherited = get(
            &mut ctx,
            "Object.create(Object.create({ pull: 2 }))",
            js_key!("pull"),
        );
        assert_eq!(inherited, Some(JsValue::from(2)));
        let absent = get(&mut ctx, "({ pull: 1 })", js_key!("start"));
        assert_eq!(absent, Some(JsValue::undefined()));
        let null_proto = get(&mut ctx, "Object.create(null)", js_key!("start"));
        assert_eq!(null_proto, Some(JsValue::undefined()));
        let getter = get(&mut ctx, "({ get pull() { return 1; } })", js_key!("pull"));
        assert_eq!(getter, None);
        let inherited_getter = get(
            &mut ctx,
            "Object.create({ get pull() { return 1; } })",
            js_key!("pull"),
        );
        assert_eq!(inherited_getter, None);
        let proxy_on_chain = get(
            &mut ctx,
            "Object.create(new Proxy({}, {}))",
            js_key!("pull"),
        );
        assert_eq!(proxy_on_chain, None);
        let function = get(&mut ctx, "(function () {})", js_key!("pull"));
        assert_eq!(function, None);
        // A member installed on Object.prototype is found, as a data property or declined as
        // a getter.
        eval(&mut ctx, "Object.prototype.type = 'bytes';");
        let from_object_prototype = get(&mut ctx, "({})", js_key!("type"));
        assert_eq!(
            from_object_prototype,
            Some(JsValue::from(boa_engine::js_string!("bytes")))
        );
        eval(
            &mut ctx,
            "Object.defineProperty(Object.prototype, 'type', { get() { return 'x'; } });",
        );
        assert_eq!(get(&mut ctx, "({})", js_key!("type")), None);
    }

    /// `register` alone installs this crate's interfaces and its dependencies', and nothing of
    /// the other crates.
    #[test]
    fn register_installs_only_this_crate_and_its_dependencies() {
        let mut ctx = crate::test_support::context();
        crate::test_support::assert_crates_registered(&mut ctx, &["webidl"]);
    }
}
