//! Registration on a realm, the runtime-extension macro, the fast-path switch and objects
//! made for a constructor.

use crate::catching::install_call_trampoline;
use crate::exception;
use boa_engine::{Context, JsResult, NativeObject};

/// Register what WebIDL itself defines on the context's current realm: `DOMException` (its
/// prototype chained to `%Error.prototype%`) and the realm's call trampoline (see
/// [`catching`](crate::catching)). Every web API crate of the workspace registers it first (registering twice
/// does nothing the second time).
pub fn register(context: &mut Context) -> JsResult<()> {
    if first_registration::<Registered>(context) {
        install_call_trampoline(context)?;
        exception::register(context)?;
    }
    Ok(())
}

/// The realm mark of [`register`].
#[derive(Debug, Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
struct Registered;

/// Mark the current realm as having `M` registered: `true` the first time (the caller then
/// registers its interfaces), `false` once `M` is there. Each crate's `register` is
/// idempotent through its own mark type.
///
/// ```
/// use boa_engine::Context;
///
/// #[derive(Default, boa_gc::Trace, boa_gc::Finalize, boa_engine::JsData)]
/// struct Mine;
///
/// let mut context = Context::default();
/// assert!(boa_webidl::first_registration::<Mine>(&mut context));
/// assert!(!boa_webidl::first_registration::<Mine>(&mut context));
/// ```
pub fn first_registration<M: NativeObject + Default>(context: &mut Context) -> bool {
    let realm = context.realm().clone();
    if realm.host_defined().get::<M>().is_some() {
        return false;
    }
    realm.host_defined_mut().insert(M::default());
    true
}

/// Run `register` on `realm` (the context's current realm is restored after), or on the
/// current realm when `realm` is `None`: what a boa_runtime `RuntimeExtension` does with the
/// realm it is given.
///
/// ```
/// use boa_engine::Context;
///
/// let mut context = Context::default();
/// let realm = context.create_realm().unwrap();
/// boa_webidl::register_in(Some(realm.clone()), &mut context, boa_webidl::register).unwrap();
/// assert!(realm.get_class::<boa_webidl::DomException>().is_some());
/// assert!(context.realm().get_class::<boa_webidl::DomException>().is_none());
/// ```
pub fn register_in(
    realm: Option<boa_engine::realm::Realm>,
    context: &mut Context,
    register: fn(&mut Context) -> JsResult<()>,
) -> JsResult<()> {
    let Some(realm) = realm else {
        return register(context);
    };
    let old = context.enter_realm(realm);
    let result = register(context);
    context.enter_realm(old);
    result
}

/// Define a boa_runtime `RuntimeExtension` named `$name` whose registration is `$register`
/// (on the realm boa_runtime passes, see [`register_in`]). The crate using it depends on
/// `boa_runtime`.
#[macro_export]
macro_rules! runtime_extension {
    ($(#[$meta:meta])* $name:ident, $register:path) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;

        impl ::boa_runtime::extensions::RuntimeExtension for $name {
            fn register(
                self,
                realm: ::core::option::Option<::boa_engine::realm::Realm>,
                context: &mut ::boa_engine::Context,
            ) -> ::boa_engine::JsResult<()> {
                $crate::register_in(realm, context, $register)
            }
        }
    };
}
