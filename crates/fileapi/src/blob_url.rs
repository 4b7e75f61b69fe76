//! The [blob URL store](https://w3c.github.io/FileAPI/#BlobURLStore) and the File API's
//! partial interface `URL`: `URL.createObjectURL(blob)` and `URL.revokeObjectURL(url)`.
//!
//! The store is per context (one agent): a `blob:` URL made in one context resolves in every
//! realm of that context, not in another context (a worker). Its entries keep their Blobs
//! alive until revoked or until [`clear`] (an embedder calls it before dropping the context).
//!
//! ```
//! use boa_engine::{Context, Source};
//!
//! let mut ctx = Context::default();
//! boa_fileapi::register(&mut ctx).unwrap();
//! let url = ctx
//!     .eval(Source::from_bytes("URL.createObjectURL(new Blob(['hi'], { type: 'text/plain' }))"))
//!     .unwrap()
//!     .to_string(&mut ctx)
//!     .unwrap()
//!     .to_std_string_escaped();
//! assert!(url.starts_with("blob:null/"));
//! // Resolve it (a fragment is ignored) to its Blob.
//! let blob = boa_fileapi::blob_url::resolve_blob_url(&format!("{url}#x"), &ctx).unwrap();
//! let (bytes, content_type) = boa_fileapi::blob_parts(&blob.into()).unwrap();
//! assert_eq!((&bytes.to_bytes()[..], content_type.as_str()), (&b"hi"[..], "text/plain"));
//! // Revoked, it resolves no more.
//! boa_fileapi::blob_url::revoke_blob_url(&url, &ctx);
//! assert!(boa_fileapi::blob_url::resolve_blob_url(&url, &ctx).is_none());
//! boa_fileapi::blob_url::clear(&ctx);
//! ```

use std::cell::RefCell;
use std::collections::HashMap;

use boa_engine::NativeFunction;
use boa_engine::{property::PropertyDescriptor, Context, JsObject, JsResult, JsString, JsValue};

use boa_webidl::{self as webidl, arg, type_error};

use crate::blob_data::Blob;

/// The blob URL store (context data): URL serialized without its fragment → the Blob.
#[derive(Default)]
struct BlobUrlStore(RefCell<HashMap<String, JsObject>>);

/// A random (version 4) UUID, lowercase.
fn uuid_v4() -> String {
    let mut b = [0u8; 16];
    if getrandom::fill(&mut b).is_err() {
        // No OS randomness: std's per-process random hasher keys and the clock.
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let x = h.finish();
        let y = std::collections::hash_map::RandomState::new().hash_one(x);
        b = (u128::from(x) << 64 | u128::from(y)).to_le_bytes();
    }
    let mut n = u128::from_be_bytes(b);
    // Version 4, variant 10xx.
    n = (n & !(0xf << 76)) | (0x4 << 76);
    n = (n & !(0x3 << 62)) | (0x2 << 62);
    let hex = format!("{n:032x}");
    let part = |from: usize, to: usize| hex.get(from..to).unwrap_or_default();
    format!(
        "{}-{}-{}-{}-{}",
        part(0, 8),
        part(8, 12),
        part(12, 16),
        part(16, 20),
        part(20, 32)
    )
}

/// [Add an entry to the blob URL store](https://w3c.github.io/FileAPI/#add-an-entry) for
/// `blob` (a `Blob` object) and return its new `blob:` URL.
///
/// ```
/// use boa_engine::Context;
///
/// let mut ctx = Context::default();
/// boa_fileapi::register(&mut ctx).unwrap();
/// let blob = boa_fileapi::create_blob([bytes::Bytes::from_static(b"x")], "", &mut ctx).unwrap();
/// let blob = blob.as_object().unwrap();
/// let url = boa_fileapi::blob_url::add_entry(&blob, &mut ctx);
/// assert_eq!(boa_fileapi::blob_url::resolve_blob_url(&url, &ctx), Some(blob.clone()));
/// boa_fileapi::blob_url::clear(&ctx);
/// ```
pub fn add_entry(blob: &JsObject, ctx: &mut Context) -> String {
    // 1. Let store be the user agent's blob URL store.
    if !ctx.has_data::<BlobUrlStore>() {
        ctx.insert_data(BlobUrlStore::default());
    }
    // 2. Let url be the result of generating a new blob URL: "blob:", the serialization of
    //    the environment's origin (a script host's origin is opaque: "null"), "/", a UUID.
    let url = format!("blob:null/{}", uuid_v4());
    // 3. Let entry be a new blob URL entry consisting of object and environment.
    // 4. Set store[url] to entry.
    if let Some(store) = ctx.get_data::<BlobUrlStore>() {
        store.0.borrow_mut().insert(url.clone(), blob.clone());
    }
    // 5. Return url.
    url
}

/// The key of `url` in the store: a `blob:` URL serialized, with its fragment unless
/// `exclude_fragment` (`None` for anything else).
fn store_key(url: &str, exclude_fragment: bool) -> Option<String> {
    let mut record = url::Url::parse(url).ok()?;
    if record.scheme() != "blob" {
        return None;
    }
    if exclude_fragment {
        record.set_fragment(None);
    }
    Some(record.into())
}

/// [Resolve a blob URL](https://w3c.github.io/FileAPI/#blob-url-resolve): the Blob `url` (a
/// serialized URL; its fragment is ignored) was made for, or `None` (not a `blob:` URL, never
/// made, or revoked). See the [module docs](self) for an example.
pub fn resolve_blob_url(url: &str, ctx: &Context) -> Option<JsObject> {
    // 1. Assert: url's scheme is "blob".
    // 2. Let store be the user agent's blob URL store.
    // 3. Let url string be the result of serializing url with exclude fragment set to true.
    let key = store_key(url, true)?;
    // 4. If store[url string] exists, then return it (the origin and partition checks always
    //    pass: the store is per context).
    // 5. Return failure.
    ctx.get_data::<BlobUrlStore>()?
        .0
        .borrow()
        .get(&key)
        .cloned()
}

/// [Remove an entry from the blob URL store](https://w3c.github.io/FileAPI/#removeTheEntry)
/// for `url`: only an exact match (a URL with a fragment removes nothing); nothing happens
/// when there is none.
///
/// ```
/// let ctx = boa_engine::Context::default();
/// boa_fileapi::blob_url::revoke_blob_url("blob:null/not-there", &ctx);
/// ```
pub fn revoke_blob_url(url: &str, ctx: &Context) {
    // 1. Let store be the user agent's blob URL store.
    // 2. Let url string be the result of serializing url.
    let Some(key) = store_key(url, false) else {
        return;
    };
    // 3. Remove store[url string].
    if let Some(store) = ctx.get_data::<BlobUrlStore>() {
        let removed = store.0.borrow_mut().remove(&key);
        drop(removed);
    }
}

/// Drop every entry of the store (the Blobs are released): call it before dropping a context
/// whose scripts made blob URLs.
///
/// ```
/// let ctx = boa_engine::Context::default();
/// boa_fileapi::blob_url::clear(&ctx);
/// ```
pub fn clear(ctx: &Context) {
    if let Some(store) = ctx.get_data::<BlobUrlStore>() {
        let entries = std::mem::take(&mut *store.0.borrow_mut());
        drop(entries);
    }
}

/// [`URL.createObjectURL(obj)`](https://w3c.github.io/FileAPI/#dfn-createObjectURL):
/// `(Blob or MediaSource) obj` (there is no MediaSource here).
fn create_object_url(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'createObjectURL' on 'URL': 1 argument required, but only 0 present.",
        ));
    }
    let Some(blob) = arg(args, 0).as_object().filter(|o| o.is::<Blob>()) else {
        return Err(type_error(
            "Failed to execute 'createObjectURL' on 'URL': parameter 1 is not of type 'Blob'",
        ));
    };
    // Return the result of adding an entry to the blob URL store for obj.
    let url = add_entry(&blob, ctx);
    Ok(JsString::from(url.as_str()).into())
}

/// [`URL.revokeObjectURL(url)`](https://w3c.github.io/FileAPI/#dfn-revokeObjectURL).
fn revoke_object_url(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'revokeObjectURL' on 'URL': 1 argument required, but only 0 present.",
        ));
    }
    // DOMString url.
    let input = arg(args, 0).to_string(ctx)?.to_std_string_lossy();
    // 1. Let urlRecord be the result of parsing url.
    // 2. If urlRecord's scheme is not "blob", return.
    // 3-4. Let entry be urlRecord's blob URL entry; if entry is null, return.
    // 5-6. (Same-partition check: the store is per context, it always passes.)
    // 7. Remove an entry from the Blob URL Store for url (an exact match: see
    //    `revoke_blob_url`).
    revoke_blob_url(&input, ctx);
    Ok(JsValue::undefined())
}

/// Install `createObjectURL` and `revokeObjectURL` on the realm's `URL` interface object
/// (boa_url's, registered first).
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    boa_url::register(ctx)?;
    let url = ctx
        .get_global_class::<boa_url::Url>()
        .ok_or_else(|| type_error("URL is not registered"))?
        .constructor();
    let statics = [
        (
            "createObjectURL",
            NativeFunction::from_fn_ptr(create_object_url),
        ),
        (
            "revokeObjectURL",
            NativeFunction::from_fn_ptr(revoke_object_url),
        ),
    ];
    for (name, f) in statics {
        let f = webidl::function(ctx, name, 1, f);
        url.define_property_or_throw(
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
