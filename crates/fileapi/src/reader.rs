//! [`FileReader`](https://w3c.github.io/FileAPI/#APIASynch): reads a `Blob` on the host's
//! event loop (each step the spec queues on the file reading task source is a task, a
//! `GenericJob`) and fires `loadstart`, `progress`, `load`/`error`, `loadend` and `abort`.
//!
//! A `FileReader` is an `EventTarget`: its native data is the DOM's event target data, whose
//! `extra` slot holds a [`FileReaderState`].

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    job::GenericJob,
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, GcRefCell, Trace};
use encoding_rs::Encoding;

use crate::bytes::{array_buffer_from, ByteSeq};
use crate::objects::blob_parts;
use boa_dom::{self as dom, EventTargetData};
use boa_webidl::{self as webidl, arg, type_error, Member, INTERFACE_ATTRIBUTES};

/// Register `FileReader` (inheriting from `EventTarget`).
pub fn register(context: &mut Context) -> JsResult<()> {
    webidl::register_interface::<FileReaderInterface>(context)?;
    let (target_proto, target_ctor) = dom::event_target_class(context)
        .ok_or_else(|| type_error("EventTarget is not registered"))?;
    let reader = context
        .get_global_class::<FileReaderInterface>()
        .ok_or_else(|| type_error("FileReader is not registered"))?;
    reader.prototype().set_prototype(Some(target_proto));
    reader.constructor().set_prototype(Some(target_ctor));
    Ok(())
}

/// `readyState` values.
const EMPTY: u16 = 0;
const LOADING: u16 = 1;
const DONE: u16 = 2;

/// How a read packages its bytes.
#[derive(Clone, Debug)]
enum ReadType {
    ArrayBuffer,
    BinaryString,
    Text(Option<JsString>),
    DataUrl,
}

/// A `FileReader`'s slots.
#[derive(Trace, Finalize, JsData)]
pub struct FileReaderState {
    /// [state](https://w3c.github.io/FileAPI/#filereader-state) as `readyState`.
    #[unsafe_ignore_trace]
    state: Cell<u16>,
    /// [result](https://w3c.github.io/FileAPI/#filereader-result).
    result: GcRefCell<JsValue>,
    /// [error](https://w3c.github.io/FileAPI/#filereader-error).
    error: GcRefCell<JsValue>,
    /// Bumped by `abort()` and by each new read: a queued task whose read is no longer the
    /// current one does nothing (abort "removes the tasks" and "terminates the read").
    #[unsafe_ignore_trace]
    generation: Cell<u64>,
    /// Bytes read so far and the blob's size, for the progress events (`loaded`, `total`).
    #[unsafe_ignore_trace]
    progress: Cell<(f64, f64)>,
}

impl std::fmt::Debug for FileReaderState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileReaderState")
            .field("state", &self.state.get())
            .finish_non_exhaustive()
    }
}

/// The `FileReader` `this`: the event target and its reader state.
fn this_reader(this: &JsValue) -> JsResult<(JsObject<EventTargetData>, JsObject<FileReaderState>)> {
    dom::event_target_extra(this)
        .and_then(|(target, extra)| Some((target, extra.downcast::<FileReaderState>().ok()?)))
        .ok_or_else(|| type_error("'this' is not a FileReader object"))
}

fn state_of<R>(reader: &JsObject<FileReaderState>, f: impl FnOnce(&FileReaderState) -> R) -> R {
    f(reader.borrow().data())
}

/// Queue a task (on the host's event loop) running `steps` if the read `generation` is still
/// the reader's current one.
fn queue_read_task(
    target: &JsObject<EventTargetData>,
    reader: &JsObject<FileReaderState>,
    generation: u64,
    steps: impl FnOnce(&JsObject<EventTargetData>, &JsObject<FileReaderState>, &mut Context) -> JsResult<()>
        + 'static,
    ctx: &mut Context,
) {
    let target = target.clone();
    let reader = reader.clone();
    let job = GenericJob::new(
        move |ctx| {
            if state_of(&reader, |s| s.generation.get()) == generation {
                steps(&target, &reader, ctx)?;
            }
            Ok(JsValue::undefined())
        },
        ctx.realm().clone(),
    );
    ctx.enqueue_job(job.into());
}

/// [Read operation](https://w3c.github.io/FileAPI/#readOperation)
fn read_operation(
    this: &JsValue,
    blob: &JsValue,
    read_type: ReadType,
    ctx: &mut Context,
) -> JsResult<()> {
    let (target, reader) = this_reader(this)?;
    let Some((bytes, blob_type)) = blob_parts(blob) else {
        return Err(type_error("The argument is not a Blob"));
    };
    // 1. If fr's state is "loading", throw an InvalidStateError DOMException.
    if state_of(&reader, |s| s.state.get()) == LOADING {
        return Err(boa_engine::JsError::from_opaque(dom::create_dom_exception(
            "The object is already busy reading Blobs",
            "InvalidStateError",
            ctx,
        )?));
    }
    // 2. Set fr's state to "loading". 3. Set fr's result to null. 4. Set fr's error to null.
    let generation = state_of(&reader, |s| {
        s.state.set(LOADING);
        *s.result.borrow_mut() = JsValue::null();
        *s.error.borrow_mut() = JsValue::null();
        s.generation.set(s.generation.get() + 1);
        s.progress.set((0.0, bytes.len() as f64));
        s.generation.get()
    });
    let total = bytes.len() as f64;
    // 5-9. Read blob's stream chunk by chunk into bytes.
    // NOTE: the stream and its reader are internal to the read; the blob's bytes are taken
    // directly, in one chunk, which the spec's task order below cannot tell apart.
    // 10.2 When the first chunk arrives, queue a task to fire a progress event called
    //      loadstart at fr.
    queue_read_task(
        &target,
        &reader,
        generation,
        move |target, _, ctx| dom::fire_progress_event(target, "loadstart", 0.0, total, ctx),
        ctx,
    );
    // 10.4.3 After a chunk, queue a task to fire a progress event called progress at fr.
    if !bytes.is_empty() {
        queue_read_task(
            &target,
            &reader,
            generation,
            move |target, reader, ctx| {
                // (The one chunk is the whole blob.)
                state_of(reader, |s| s.progress.set((total, total)));
                dom::fire_progress_event(target, "progress", total, total, ctx)
            },
            ctx,
        );
    }
    // 10.5 When done, queue a task to run the following steps:
    queue_read_task(
        &target,
        &reader,
        generation,
        move |target, reader, ctx| {
            // 1. Set fr's state to "done".
            state_of(reader, |s| s.state.set(DONE));
            // 2. Let result be the result of package data given bytes, type, blob's type and
            //    encodingName.
            match package_data(&bytes, &read_type, &blob_type, ctx) {
                // 3. If package data threw an exception error: set fr's error to error, fire
                //    a progress event called error at fr.
                Err(e) => {
                    let e = webidl::own_error_value(e, ctx);
                    state_of(reader, |s| *s.error.borrow_mut() = e);
                    dom::fire_progress_event(target, "error", total, total, ctx)?;
                }
                // 4. Else: set fr's result to result, fire a progress event called load.
                Ok(result) => {
                    state_of(reader, |s| *s.result.borrow_mut() = result);
                    dom::fire_progress_event(target, "load", total, total, ctx)?;
                }
            }
            // 5. If fr's state is not "loading", fire a progress event called loadend at fr.
            if state_of(reader, |s| s.state.get()) != LOADING {
                dom::fire_progress_event(target, "loadend", total, total, ctx)?;
            }
            Ok(())
        },
        ctx,
    );
    Ok(())
}

/// [Package data](https://w3c.github.io/FileAPI/#blob-package-data)
fn package_data(
    bytes: &ByteSeq,
    read_type: &ReadType,
    mime_type: &str,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    match read_type {
        // DataURL: a data: URL of bytes, base64-encoded, with the blob's type (or
        // application/octet-stream when it is empty).
        ReadType::DataUrl => {
            let media = if mime_type.is_empty() {
                "application/octet-stream"
            } else {
                mime_type
            };
            let mut url = format!("data:{media};base64,");
            base64_encode_into(&bytes.to_vec(), &mut url);
            Ok(JsString::from(url.as_str()).into())
        }
        // Text: 1. encoding is failure. 2. If encodingName is present, set encoding to the
        // result of getting an encoding from encodingName. 3. If encoding is failure and
        // mimeType is present: its charset parameter, if any, gets an encoding. 4. If
        // encoding is failure, UTF-8. 5. Decode bytes using fallback encoding encoding.
        ReadType::Text(label) => {
            let mut encoding = label
                .as_ref()
                .and_then(|l| l.to_std_string().ok())
                .and_then(|l| Encoding::for_label(l.as_bytes()));
            if encoding.is_none() {
                encoding = mime_charset(mime_type).and_then(|c| Encoding::for_label(c.as_bytes()));
            }
            let encoding = encoding.unwrap_or(encoding_rs::UTF_8);
            // "decode": BOM sniffing first, then the encoding's decoder with replacement.
            let data = bytes.to_vec();
            let (text, _, _) = encoding.decode(&data);
            Ok(JsString::from(&*text).into())
        }
        // ArrayBuffer: a new ArrayBuffer whose contents are bytes.
        ReadType::ArrayBuffer => Ok(JsValue::from(array_buffer_from(bytes, ctx)?)),
        // BinaryString: each byte as the code unit of the same value.
        ReadType::BinaryString => {
            let units: Vec<u16> = bytes.to_vec().into_iter().map(u16::from).collect();
            Ok(JsString::from(units.as_slice()).into())
        }
    }
}

/// The `charset` parameter of a (lowercased, ASCII) MIME type, if it has one.
fn mime_charset(mime_type: &str) -> Option<String> {
    mime_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if name.trim().eq_ignore_ascii_case("charset") {
            let value = value.trim().trim_matches('"');
            (!value.is_empty()).then(|| value.to_string())
        } else {
            None
        }
    })
}

/// Append the forgiving-base64 encoding of `bytes` (with padding) to `out`.
pub fn base64_encode_into(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sextet = |v: u32| char::from(ALPHABET.get((v & 63) as usize).copied().unwrap_or(b'A'));
    for group in bytes.chunks(3) {
        let b0 = u32::from(group.first().copied().unwrap_or(0));
        let b1 = u32::from(group.get(1).copied().unwrap_or(0));
        let b2 = u32::from(group.get(2).copied().unwrap_or(0));
        let n = (b0 << 16) | (b1 << 8) | b2;
        out.push(sextet(n >> 18));
        out.push(sextet(n >> 12));
        out.push(if group.len() > 1 { sextet(n >> 6) } else { '=' });
        out.push(if group.len() > 2 { sextet(n) } else { '=' });
    }
}

/// The `FileReader` interface object.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct FileReaderInterface;

/// The getter and setter of an
/// [event handler IDL attribute](https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-idl-attributes)
/// of `FileReader`: `$get` and `$set` for the attribute `$name`, of the event `$event`.
macro_rules! event_handler {
    ($get:ident, $set:ident, $name:literal, $event:literal) => {
        #[doc = concat!("The getter of [", $name, "](https://w3c.github.io/FileAPI/#dfn-", $name, ").")]
        fn $get(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
            let (target, _) = this_reader(this)?;
            Ok(dom::get_event_handler(&target, $event))
        }

        #[doc = concat!("The setter of [", $name, "](https://w3c.github.io/FileAPI/#dfn-", $name, ").")]
        fn $set(this: &JsValue, args: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
            let (target, _) = this_reader(this)?;
            if args.is_empty() {
                return Err(type_error(concat!($name, " setter needs a value")));
            }
            dom::set_event_handler(&target, $event, &arg(args, 0));
            Ok(JsValue::undefined())
        }
    };
}

event_handler!(get_onloadstart, set_onloadstart, "onloadstart", "loadstart");
event_handler!(get_onprogress, set_onprogress, "onprogress", "progress");
event_handler!(get_onload, set_onload, "onload", "load");
event_handler!(get_onabort, set_onabort, "onabort", "abort");
event_handler!(get_onerror, set_onerror, "onerror", "error");
event_handler!(get_onloadend, set_onloadend, "onloadend", "loadend");

fn blob_argument(args: &[JsValue], method: &str) -> JsResult<JsValue> {
    if args.is_empty() {
        return Err(type_error(format!(
            "Failed to execute '{method}' on 'FileReader': 1 argument required, but only 0 present."
        )));
    }
    let blob = arg(args, 0);
    if blob_parts(&blob).is_none() {
        return Err(type_error(format!(
            "Failed to execute '{method}' on 'FileReader': parameter 1 is not of type 'Blob'."
        )));
    }
    Ok(blob)
}

/// [readyState](https://w3c.github.io/FileAPI/#dom-filereader-readystate)
fn ready_state(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let (_, r) = this_reader(this)?;
    Ok(JsValue::from(state_of(&r, |s| s.state.get())))
}

/// [result](https://w3c.github.io/FileAPI/#dom-filereader-result)
fn result(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let (_, r) = this_reader(this)?;
    Ok(state_of(&r, |s| s.result.borrow().clone()))
}

/// [error](https://w3c.github.io/FileAPI/#dom-filereader-error)
fn error(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let (_, r) = this_reader(this)?;
    Ok(state_of(&r, |s| s.error.borrow().clone()))
}

/// [readAsArrayBuffer(blob)](https://w3c.github.io/FileAPI/#dfn-readAsArrayBuffer)
fn read_as_array_buffer(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    this_reader(this)?;
    let blob = blob_argument(args, "readAsArrayBuffer")?;
    read_operation(this, &blob, ReadType::ArrayBuffer, ctx)?;
    Ok(JsValue::undefined())
}

/// [readAsBinaryString(blob)](https://w3c.github.io/FileAPI/#dfn-readAsBinaryString)
fn read_as_binary_string(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    this_reader(this)?;
    let blob = blob_argument(args, "readAsBinaryString")?;
    read_operation(this, &blob, ReadType::BinaryString, ctx)?;
    Ok(JsValue::undefined())
}

/// [readAsText(blob, encoding)](https://w3c.github.io/FileAPI/#dfn-readAsText)
fn read_as_text(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    this_reader(this)?;
    let blob = blob_argument(args, "readAsText")?;
    let encoding = match arg(args, 1) {
        v if v.is_undefined() => None,
        v => Some(v.to_string(ctx)?),
    };
    read_operation(this, &blob, ReadType::Text(encoding), ctx)?;
    Ok(JsValue::undefined())
}

/// [readAsDataURL(blob)](https://w3c.github.io/FileAPI/#dfn-readAsDataURL)
fn read_as_data_url(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    this_reader(this)?;
    let blob = blob_argument(args, "readAsDataURL")?;
    read_operation(this, &blob, ReadType::DataUrl, ctx)?;
    Ok(JsValue::undefined())
}

/// [abort()](https://w3c.github.io/FileAPI/#dfn-abort)
fn abort(this: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let (target, r) = this_reader(this)?;
    let state = state_of(&r, |s| s.state.get());
    // 1. If this's state is "empty" or "done", set this's result to null and terminate this
    //    algorithm.
    if state != LOADING {
        state_of(&r, |s| *s.result.borrow_mut() = JsValue::null());
        return Ok(JsValue::undefined());
    }
    // 2. If this's state is "loading" set this's state to "done" and this's result to null.
    // 3. Remove this's queued tasks. 4. Terminate the read.
    state_of(&r, |s| {
        s.state.set(DONE);
        *s.result.borrow_mut() = JsValue::null();
        s.generation.set(s.generation.get() + 1);
    });
    // 5. Fire a progress event called abort at this (with the bytes read so far).
    let (loaded, total) = state_of(&r, |s| s.progress.get());
    dom::fire_progress_event(&target, "abort", loaded, total, ctx)?;
    // 6. If this's state is not "loading", fire a progress event called loadend.
    if state_of(&r, |s| s.state.get()) != LOADING {
        dom::fire_progress_event(&target, "loadend", loaded, total, ctx)?;
    }
    Ok(JsValue::undefined())
}

impl Class for FileReaderInterface {
    const NAME: &'static str = "FileReader";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("readyState", ready_state),
                Member::attribute("result", result),
                Member::attribute("error", error),
                Member::writable_attribute("onloadstart", get_onloadstart, set_onloadstart),
                Member::writable_attribute("onprogress", get_onprogress, set_onprogress),
                Member::writable_attribute("onload", get_onload, set_onload),
                Member::writable_attribute("onabort", get_onabort, set_onabort),
                Member::writable_attribute("onerror", get_onerror, set_onerror),
                Member::writable_attribute("onloadend", get_onloadend, set_onloadend),
                Member::operation("readAsArrayBuffer", 1, read_as_array_buffer),
                Member::operation("readAsBinaryString", 1, read_as_binary_string),
                Member::operation("readAsText", 1, read_as_text),
                Member::operation("readAsDataURL", 1, read_as_data_url),
                Member::operation("abort", 0, abort),
                Member::constant("EMPTY", EMPTY),
                Member::constant("LOADING", LOADING),
                Member::constant("DONE", DONE),
                Member::to_string_tag("FileReader"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(new_target: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::require_new(new_target, "FileReader")?;
        let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;
        let state = JsObject::from_proto_and_data(
            None,
            FileReaderState {
                state: Cell::new(EMPTY),
                result: GcRefCell::new(JsValue::null()),
                error: GcRefCell::new(JsValue::null()),
                generation: Cell::new(0),
                progress: Cell::new((0.0, 0.0)),
            },
        );
        Ok(dom::new_event_target_with(proto, state))
    }
}
