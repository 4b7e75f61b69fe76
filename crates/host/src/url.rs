//! What the host adds to boa_runtime's `URL` (without patching boa_runtime):
//!
//! * `URL.prototype.searchParams`: boa_runtime 0.22's getter throws; ours returns the URL's
//!   [query object](https://url.spec.whatwg.org/#concept-url-query-object), a
//!   `URLSearchParams` (boa_streams) linked both ways: its update steps set the URL's query,
//!   and the `search` and `href` setters (boa_runtime's, wrapped) re-parse its list.
//! * `URL.createObjectURL(blob)` / `URL.revokeObjectURL(url)` (File API) on a
//!   [blob URL store](https://w3c.github.io/FileAPI/#blob-url-store) per host: entries map
//!   `blob:null/<uuid>` to the Blob (kept alive until revoked). Nothing here resolves blob
//!   URLs (the host has no `fetch`), so the store only answers revocation.

use std::cell::RefCell;
use std::collections::HashMap;

use boa_engine::object::builtins::{JsFunction, JsWeakMap};
use boa_engine::object::FunctionObjectBuilder;
use boa_engine::property::PropertyDescriptor;
use boa_engine::{
    js_string, Context, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_runtime::url::Url;

/// The blob URL store (context data): URL string (no fragment) → the Blob object.
#[derive(Default)]
pub(crate) struct BlobUrlStore(RefCell<HashMap<String, JsObject>>);

fn type_error(message: &str) -> boa_engine::JsError {
    JsNativeError::typ().with_message(message.to_owned()).into()
}

fn builtin(ctx: &mut Context, name: &str, length: usize, f: NativeFunction) -> JsFunction {
    FunctionObjectBuilder::new(ctx.realm(), f)
        .name(JsString::from(name))
        .length(length)
        .constructor(false)
        .build()
}

/// The `url::Url` inside a boa_runtime `URL` object.
fn url_record(object: &JsObject) -> Option<url::Url> {
    object
        .downcast_ref::<Url>()
        .map(|u| url::Url::from(u.clone()))
}

/// The URL's query (the part after `?`, without it), or `None` when null.
fn url_query(object: &JsObject) -> Option<String> {
    url_record(object).and_then(|u| u.query().map(str::to_owned))
}

/// The query object's update steps 4-5: set the URL's query (the `url` crate's `set_query`
/// also potentially strips trailing spaces from an opaque path when the query is null).
fn update_url_query(url: &JsObject, query: Option<&str>, _ctx: &mut Context) -> JsResult<()> {
    let Some(mut record) = url_record(url) else {
        return Ok(());
    };
    record.set_query(query);
    if let Some(mut data) = url.downcast_mut::<Url>() {
        *data = Url::from(record);
    }
    Ok(())
}

/// Install `searchParams`, the wrapped `search`/`href` setters, `createObjectURL` and
/// `revokeObjectURL` on the global `URL` (boa_runtime's; nothing happens without one).
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    let global = ctx.global_object();
    let Some(url_ctor) = global.get(js_string!("URL"), ctx)?.as_object() else {
        return Ok(());
    };
    let Some(proto) = url_ctor.get(js_string!("prototype"), ctx)?.as_object() else {
        return Ok(());
    };
    // URL object → its query object (created on first access: creating it is unobservable,
    // and it is the same object every time, as [SameObject] requires).
    let query_objects = JsWeakMap::new(ctx);
    let map: JsObject = query_objects.into();

    // NOTE: the URL constructor creates the query object eagerly; creating it on the first
    // `searchParams` read instead cannot be observed.
    let getter = builtin(
        ctx,
        "get searchParams",
        0,
        NativeFunction::from_copy_closure_with_captures(
            |this, _, map: &JsObject, ctx| {
                let Some(url) = this.as_object().filter(|o| o.is::<Url>()) else {
                    return Err(type_error("'this' is not a URL object"));
                };
                let map = JsWeakMap::from_object(map.clone())
                    .map_err(|_| type_error("URL query map is not a WeakMap"))?;
                let existing = map.get(&url, ctx)?;
                if existing.is_object() {
                    return Ok(existing);
                }
                let params = boa_web::boa_url::new_linked(
                    url.clone(),
                    url_query(&url).as_deref(),
                    update_url_query,
                    ctx,
                )?;
                map.set(&url, params.clone().into(), ctx)?;
                Ok(params.into())
            },
            map.clone(),
        ),
    );
    proto.define_property_or_throw(
        js_string!("searchParams"),
        PropertyDescriptor::builder()
            .get(getter)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;

    // The `search` and `href` setters: boa_runtime's, then "set this's query object's list
    // to the result of parsing" the new query (empty when null).
    for name in ["search", "href"] {
        let key = JsString::from(name);
        let desc = proto.borrow().properties().get(&key.clone().into());
        let Some(desc) = desc else {
            continue;
        };
        let (Some(get), Some(set)) = (
            desc.get().and_then(JsValue::as_object),
            desc.set().and_then(JsValue::as_object),
        ) else {
            continue;
        };
        let setter = builtin(
            ctx,
            &format!("set {name}"),
            1,
            NativeFunction::from_copy_closure_with_captures(
                |this, args, (set, map): &(JsObject, JsObject), ctx| {
                    set.call(this, args, ctx)?;
                    if let Some(url) = this.as_object().filter(|o| o.is::<Url>()) {
                        if let Ok(map) = JsWeakMap::from_object(map.clone()) {
                            if let Some(params) = map.get(&url, ctx)?.as_object() {
                                boa_web::boa_url::set_list_from_query(
                                    &params,
                                    url_query(&url).as_deref(),
                                );
                            }
                        }
                    }
                    Ok(JsValue::undefined())
                },
                (set, map.clone()),
            ),
        );
        proto.define_property_or_throw(
            key,
            PropertyDescriptor::builder()
                .get(get)
                .set(setter)
                .enumerable(true)
                .configurable(true),
            ctx,
        )?;
    }

    ctx.insert_data(BlobUrlStore::default());
    let create = builtin(
        ctx,
        "createObjectURL",
        1,
        NativeFunction::from_fn_ptr(create_object_url),
    );
    let revoke = builtin(
        ctx,
        "revokeObjectURL",
        1,
        NativeFunction::from_fn_ptr(revoke_object_url),
    );
    for (name, f) in [("createObjectURL", create), ("revokeObjectURL", revoke)] {
        url_ctor.define_property_or_throw(
            JsString::from(name),
            PropertyDescriptor::builder()
                .value(f)
                .writable(true)
                .enumerable(true)
                .configurable(true),
            ctx,
        )?;
    }
    Ok(())
}

/// A random (version 4) UUID as a lowercase string.
fn uuid_v4() -> String {
    let mut b = [0u8; 16];
    if getrandom::fill(&mut b).is_err() {
        // No OS randomness: fall back to std's per-process random hasher keys and a clock.
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let x = h.finish().to_le_bytes();
        let y = std::collections::hash_map::RandomState::new()
            .hash_one(x)
            .to_le_bytes();
        b[..8].copy_from_slice(&x);
        b[8..].copy_from_slice(&y);
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// [`URL.createObjectURL(obj)`](https://w3c.github.io/FileAPI/#dfn-createObjectURL):
/// `(Blob or MediaSource) obj`; there is no MediaSource here.
fn create_object_url(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let Some(blob) = args
        .first()
        .and_then(JsValue::as_object)
        .filter(|o| o.is::<boa_web::boa_fileapi::Blob>())
    else {
        return Err(type_error(
            "Failed to execute 'createObjectURL' on 'URL': parameter 1 is not of type 'Blob'",
        ));
    };
    // Add an entry to the blob URL store for obj:
    // 1. Let store be the user agent's blob URL store.
    // 2. Let url be the result of generating a new blob URL: "blob:", the serialization of
    //    the settings object's origin (this host's scripts have an opaque origin: "null"),
    //    "/", a UUID.
    let url = format!("blob:null/{}", uuid_v4());
    // 3-4. Let entry be a new blob URL entry (object: obj); set store[url] to entry.
    if let Some(store) = ctx.get_data::<BlobUrlStore>() {
        store.0.borrow_mut().insert(url.clone(), blob);
    }
    // 5. Return url.
    Ok(JsString::from(url.as_str()).into())
}

/// [`URL.revokeObjectURL(url)`](https://w3c.github.io/FileAPI/#dfn-revokeObjectURL).
fn revoke_object_url(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'revokeObjectURL' on 'URL': 1 argument required, but only 0 present.",
        ));
    }
    let input = args
        .first()
        .cloned()
        .unwrap_or_default()
        .to_string(ctx)?
        .to_std_string_lossy();
    // 1. Let url record be the result of parsing url.
    // 2. If url record's scheme is not "blob", return.
    let Ok(mut record) = url::Url::parse(&input) else {
        return Ok(JsValue::undefined());
    };
    if record.scheme() != "blob" {
        return Ok(JsValue::undefined());
    }
    // 3-4. (Origins: one per host, so they always match.)
    // 5. Remove an entry from the Blob URL Store for url (serialized without fragment).
    record.set_fragment(None);
    if let Some(store) = ctx.get_data::<BlobUrlStore>() {
        let removed = store.0.borrow_mut().remove(record.as_str());
        drop(removed);
    }
    Ok(JsValue::undefined())
}

/// Drop the store's entries (before the context goes).
pub(crate) fn clear(ctx: &Context) {
    if let Some(store) = ctx.get_data::<BlobUrlStore>() {
        let entries = std::mem::take(&mut *store.0.borrow_mut());
        drop(entries);
    }
}

#[cfg(test)]
mod tests;

/// Is `url` an entry of the context's blob URL store?
#[cfg(test)]
pub(crate) fn blob_url_entry(ctx: &Context, url: &str) -> Option<JsObject> {
    ctx.get_data::<BlobUrlStore>()?.0.borrow().get(url).cloned()
}
