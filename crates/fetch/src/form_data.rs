//! The XHR Standard's [`FormData`](https://xhr.spec.whatwg.org/#interface-formdata): an
//! [entry list](https://xhr.spec.whatwg.org/#concept-formdata-entry-list) of names with
//! string or `File` values, iterable as pairs.
//!
//! It lives in boa_fetch (not a crate of its own) because the Fetch Standard both extracts
//! a `FormData` body (`multipart/form-data`) and makes one in `formData()`, while
//! `XMLHttpRequest`, the rest of the XHR Standard, would be built on fetch: a `boa_xhr`
//! crate holding `FormData` would have to sit below boa_fetch and could not hold
//! `XMLHttpRequest`.
//!
//! There is no `<form>` element in this host: `new FormData(form)` with any argument other
//! than `undefined` throws a TypeError (the argument cannot convert to `HTMLFormElement`).

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};

use boa_webidl::{
    self as webidl, arg, brand, entry_list::EntryList, pair_iterable::PairIterable, type_error,
    Member, INTERFACE_ATTRIBUTES,
};

use crate::multipart::{EncodeEntry, EncodeValue, ParsedEntry, ParsedValue};

/// An [entry](https://xhr.spec.whatwg.org/#concept-formdata-entry)'s value: a scalar value
/// string or a `File` object.
#[derive(Clone, Debug, Trace, Finalize)]
enum EntryValue {
    String(#[unsafe_ignore_trace] JsString),
    File(JsObject),
}

impl EntryValue {
    fn to_js(&self) -> JsValue {
        match self {
            Self::String(s) => s.clone().into(),
            Self::File(f) => f.clone().into(),
        }
    }
}

/// An entry: a name (a scalar value string) and a value.
type Entry = boa_webidl::entry_list::Entry<EntryValue>;

/// The native data of a `FormData` object: its entry list.
///
/// ```
/// use boa_engine::{Context, Source};
///
/// let mut ctx = Context::default();
/// boa_fetch::register(&mut ctx).unwrap();
/// let v = ctx
///     .eval(Source::from_bytes(
///         "const fd = new FormData(); fd.append('a', new Blob(['x'])); fd.get('a').name",
///     ))
///     .unwrap();
/// assert_eq!(v.to_string(&mut ctx).unwrap().to_std_string_escaped(), "blob");
/// let fd = ctx.eval(Source::from_bytes("fd")).unwrap();
/// assert!(fd.as_object().unwrap().is::<boa_fetch::form_data::FormData>());
/// ```
#[derive(Debug, Trace, Finalize, JsData)]
pub struct FormData {
    entries: GcRefCell<EntryList<EntryValue>>,
}

/// WebIDL `USVString`: ToString, then each lone surrogate replaced by U+FFFD.
fn to_usv(value: &JsValue, ctx: &mut Context) -> JsResult<JsString> {
    let s = value.to_string(ctx)?;
    Ok(if s.to_std_string().is_ok() {
        s
    } else {
        JsString::from(s.to_std_string_lossy().as_str())
    })
}

/// WebIDL `USVString` as a Rust string (names).
fn to_usv_name(value: &JsValue, ctx: &mut Context) -> JsResult<String> {
    Ok(value.to_string(ctx)?.to_std_string_lossy())
}

fn this_form_data(this: &JsValue) -> JsResult<JsObject<FormData>> {
    brand::<FormData>(this, "FormData")
}

/// The arguments of `append` and `set` after overload resolution and conversion: the
/// entry they make ([create an entry](https://xhr.spec.whatwg.org/#create-an-entry)).
fn entry_from_args(args: &[JsValue], method: &str, ctx: &mut Context) -> JsResult<Entry> {
    boa_webidl::required_arguments(args, 2, "FormData", method)?;
    // Overload resolution: three arguments select (USVString, Blob, optional USVString);
    // with two, a Blob second argument selects it too, anything else (USVString, USVString).
    let value = arg(args, 1);
    let is_blob = boa_fileapi::blob_parts(&value).is_some();
    let blob_overload = args.len() >= 3 || is_blob;
    let name = to_usv_name(&arg(args, 0), ctx)?;
    if !blob_overload {
        // 2. If value is a string, then set value to value converted into a scalar value
        //    string.
        let value = to_usv(&value, ctx)?;
        return Ok((name, EntryValue::String(value)));
    }
    if !is_blob {
        return Err(type_error(format!(
            "Failed to execute '{method}' on 'FormData': parameter 2 is not of type 'Blob'."
        )));
    }
    let filename = match args.get(2) {
        None => None,
        Some(v) if v.is_undefined() => None,
        Some(v) => Some(to_usv(v, ctx)?),
    };
    // 1. Set name to name converted into a scalar value string (done by the conversion).
    Ok((
        name,
        EntryValue::File(file_for_entry(&value, filename, ctx)?),
    ))
}

/// [Create an entry](https://xhr.spec.whatwg.org/#create-an-entry) step 3, for a Blob
/// `value`: the `File` the entry holds.
fn file_for_entry(
    value: &JsValue,
    filename: Option<JsString>,
    ctx: &mut Context,
) -> JsResult<JsObject> {
    let Some((bytes, content_type)) = boa_fileapi::blob_parts(value) else {
        return Err(type_error("The value is not a Blob"));
    };
    let info = boa_fileapi::file_info(value);
    let file = match (filename, info) {
        // The File itself, when no filename is given.
        (None, Some(_)) => return value.as_object().ok_or_else(|| type_error("not a File")),
        // 1. If value is not a File object, then set value to a new File object,
        //    representing the same bytes, whose name attribute value is "blob".
        (None, None) => {
            boa_fileapi::create_file(bytes, &content_type, JsString::from("blob"), None, ctx)?
        }
        // 2. If filename is given, then set value to a new File object, representing the
        //    same bytes, whose name attribute is filename.
        // NOTE: its type is the Blob's; its lastModified the File's (now for a Blob), as
        // peers do (the spec leaves both to "representing the same bytes").
        (Some(filename), info) => boa_fileapi::create_file(
            bytes,
            &content_type,
            filename,
            info.map(|(_, modified)| modified),
            ctx,
        )?,
    };
    file.as_object().ok_or_else(|| type_error("not a File"))
}

impl FormData {
    fn new(entries: Vec<Entry>) -> Self {
        Self {
            entries: GcRefCell::new(EntryList::from(entries)),
        }
    }
}

/// The prologue of the operations taking a name: the brand check, the count of the
/// `required` arguments and the name converted to a `USVString`.
fn form_data_and_name(
    this: &JsValue,
    args: &[JsValue],
    required: usize,
    method: &str,
    ctx: &mut Context,
) -> JsResult<(JsObject<FormData>, String)> {
    webidl::entry_list::name_argument(this, args, required, "FormData", method, to_usv_name, ctx)
}

/// [`append(name, value, filename)`](https://xhr.spec.whatwg.org/#dom-formdata-append)
fn append(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let fd = this_form_data(this)?;
    // 1-2. Let value be value if given; otherwise blobValue. Let entry be the result of
    //      creating an entry with name, value, and filename if given.
    let (name, value) = entry_from_args(args, "append", ctx)?;
    // 3. Append entry to this's entry list.
    fd.borrow().data().entries.borrow_mut().append(name, value);
    Ok(JsValue::undefined())
}

/// [`delete(name)`](https://xhr.spec.whatwg.org/#dom-formdata-delete)
fn delete(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (fd, name) = form_data_and_name(this, args, 1, "delete", ctx)?;
    // Remove all entries whose name is name from this's entry list.
    fd.borrow().data().entries.borrow_mut().delete(&name);
    Ok(JsValue::undefined())
}

/// [`get(name)`](https://xhr.spec.whatwg.org/#dom-formdata-get)
fn get(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (fd, name) = form_data_and_name(this, args, 1, "get", ctx)?;
    // 1. If there is no entry whose name is name in this's entry list, then return null.
    // 2. Return the value of the first entry whose name is name.
    let fd = fd.borrow();
    let entries = fd.data().entries.borrow();
    Ok(entries
        .first(&name)
        .map_or(JsValue::null(), EntryValue::to_js))
}

/// [`getAll(name)`](https://xhr.spec.whatwg.org/#dom-formdata-getall)
fn get_all(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (fd, name) = form_data_and_name(this, args, 1, "getAll", ctx)?;
    // 1. If there is no entry whose name is name, return the empty list.
    // 2. Return the values of all entries whose name is name, in order.
    let values: Vec<JsValue> = fd
        .borrow()
        .data()
        .entries
        .borrow()
        .all(&name)
        .map(EntryValue::to_js)
        .collect();
    Ok(JsArray::from_iter(values, ctx).into())
}

/// [`has(name)`](https://xhr.spec.whatwg.org/#dom-formdata-has)
fn has(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (fd, name) = form_data_and_name(this, args, 1, "has", ctx)?;
    // Return true if there is an entry whose name is name; otherwise false.
    let found = fd.borrow().data().entries.borrow().has(&name);
    Ok(found.into())
}

/// [`set(name, value, filename)`](https://xhr.spec.whatwg.org/#dom-formdata-set)
fn set(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let fd = this_form_data(this)?;
    // 1-2. Let value be value if given; otherwise blobValue. Let entry be the result of
    //      creating an entry with name, value, and filename if given.
    let (name, value) = entry_from_args(args, "set", ctx)?;
    // 3. If there are entries in this's entry list whose name is name, then replace the
    //    first such entry with entry and remove the others.
    // 4. Otherwise, append entry to this's entry list.
    fd.borrow().data().entries.borrow_mut().set(name, value);
    Ok(JsValue::undefined())
}

/// `iterable<USVString, FormDataEntryValue>`: entries, keys, values, forEach, @@iterator.
fn iteration_methods(class: &mut ClassBuilder<'_>) -> JsResult<()> {
    webidl::pair_iterable::define_iteration_methods::<FormData>(class);
    Ok(())
}

impl Class for FormData {
    const NAME: &'static str = "FormData";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::to_string_tag("FormData"),
                Member::operation("append", 2, append),
                Member::operation("delete", 1, delete),
                Member::operation("get", 1, get),
                Member::operation("getAll", 1, get_all),
                Member::operation("has", 1, has),
                Member::operation("set", 2, set),
                Member::install(iteration_methods),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        _ctx: &mut Context,
    ) -> JsResult<Self> {
        // constructor(optional HTMLFormElement form, optional HTMLElement? submitter = null):
        // no value converts to HTMLFormElement in this host (no DOM elements).
        if !arg(args, 0).is_undefined() {
            return Err(type_error(
                "Failed to construct 'FormData': parameter 1 is not of type 'HTMLFormElement'.",
            ));
        }
        // 1. If form is given (never here) ...
        Ok(Self::new(Vec::new()))
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::construct_converted::<Self>(new_target, args, ctx)
    }
}

impl PairIterable for FormData {
    const INTERFACE: &'static str = "FormData";
    const ITERATOR_TAG: &'static str = "FormData Iterator";

    /// The [value pairs to iterate over](https://xhr.spec.whatwg.org/#interface-formdata):
    /// this's entry list's entries, the key the name and the value the value.
    fn pair_at(object: &JsObject<Self>, index: usize) -> Option<(JsValue, JsValue)> {
        let entry = object.borrow().data().entries.borrow().get(index).cloned();
        entry.map(|(name, value)| (JsString::from(name.as_str()).into(), value.to_js()))
    }
}

/// Register `FormData` (and its iterator prototype) on the current realm.
pub(crate) fn register(ctx: &mut Context) -> JsResult<()> {
    webidl::register_interface::<FormData>(ctx)?;
    webidl::pair_iterable::register_iterator_prototype::<FormData>(ctx)
}

/// Whether `value` is a `FormData` object.
///
/// ```
/// use boa_engine::{Context, JsValue, Source};
///
/// let mut ctx = Context::default();
/// boa_fetch::register(&mut ctx).unwrap();
/// let fd = ctx.eval(Source::from_bytes("new FormData()")).unwrap();
/// assert!(boa_fetch::form_data::is_form_data(&fd));
/// assert!(!boa_fetch::form_data::is_form_data(&JsValue::undefined()));
/// ```
pub fn is_form_data(value: &JsValue) -> bool {
    value.as_object().is_some_and(|o| o.is::<FormData>())
}

/// If `value` is a `FormData`, its entry list as the encoding algorithm takes it: names and
/// values as scalar value strings, files as their bytes (shared), names and types.
pub(crate) fn encode_entries(value: &JsValue) -> Option<Vec<EncodeEntry>> {
    let object = value.as_object()?;
    let fd = object.downcast_ref::<FormData>()?;
    let entries = fd.entries.borrow().as_slice().to_vec();
    Some(
        entries
            .into_iter()
            .map(|(name, value)| {
                let value = match &value {
                    EntryValue::String(s) => EncodeValue::Text(s.to_std_string_lossy()),
                    EntryValue::File(f) => {
                        let v = JsValue::from(f.clone());
                        let (bytes, content_type) = boa_fileapi::blob_parts(&v).unwrap_or_default();
                        let filename = boa_fileapi::file_name(&v)
                            .map(|n| n.to_std_string_lossy())
                            .unwrap_or_default();
                        EncodeValue::File {
                            bytes,
                            filename,
                            content_type,
                        }
                    }
                };
                EncodeEntry { name, value }
            })
            .collect(),
    )
}

/// A new `FormData` in the current realm whose entry list is `entries` (parsed from a body;
/// file contents shared, not copied).
pub(crate) fn form_data_from_parsed(
    entries: Vec<ParsedEntry>,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let mut list = Vec::with_capacity(entries.len());
    for e in entries {
        let value = match e.value {
            ParsedValue::Text(t) => EntryValue::String(JsString::from(t.as_str())),
            ParsedValue::File {
                filename,
                content_type,
                bytes,
            } => {
                let file = boa_fileapi::create_file(
                    bytes,
                    &content_type,
                    JsString::from(filename.as_str()),
                    None,
                    ctx,
                )?;
                EntryValue::File(file.as_object().ok_or_else(|| type_error("not a File"))?)
            }
        };
        list.push((e.name, value));
    }
    new_form_data(list, ctx)
}

/// A new `FormData` holding the name-value string pairs `pairs`.
pub(crate) fn form_data_from_pairs(
    pairs: Vec<(String, String)>,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let list = pairs
        .into_iter()
        .map(|(n, v)| (n, EntryValue::String(JsString::from(v.as_str()))))
        .collect();
    new_form_data(list, ctx)
}

fn new_form_data(list: Vec<Entry>, ctx: &mut Context) -> JsResult<JsValue> {
    let proto = ctx
        .get_global_class::<FormData>()
        .ok_or_else(|| type_error("FormData is not registered"))?
        .prototype();
    Ok(JsObject::from_proto_and_data(Some(proto), FormData::new(list)).into())
}
