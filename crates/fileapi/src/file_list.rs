//! The [`FileList`](https://w3c.github.io/FileAPI/#filelist-section) interface.

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, arg, brand, type_error, Member, INTERFACE_ATTRIBUTES};

/// The [`FileList`](https://w3c.github.io/FileAPI/#filelist-section) interface. Only file
/// inputs and drag-and-drop make instances, which no host here has; the interface object
/// exists (not constructible) for the script that tests for it.
#[derive(Debug, Trace, Finalize, JsData)]
pub struct FileList {
    files: Vec<JsObject>,
}

/// [length](https://w3c.github.io/FileAPI/#dfn-length)
fn length(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let list = brand::<FileList>(this, "FileList")?;
    let len = list.borrow().data().files.len();
    Ok(JsValue::from(len as f64))
}

/// [item(index)](https://w3c.github.io/FileAPI/#dfn-item)
fn item(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let list = brand::<FileList>(this, "FileList")?;
    if args.is_empty() {
        return Err(type_error(
            "Failed to execute 'item' on 'FileList': 1 argument required, but only 0 present.",
        ));
    }
    // unsigned long index: ToNumber, then modulo 2^32.
    let n = arg(args, 0).to_number(ctx)?;
    let index = if n.is_finite() {
        n.trunc().rem_euclid(4_294_967_296.0) as usize
    } else {
        0
    };
    // Return the indexth File object in the list, or null.
    let file = list.borrow().data().files.get(index).cloned();
    Ok(file.map_or(JsValue::null(), Into::into))
}

impl Class for FileList {
    const NAME: &'static str = "FileList";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("length", length),
                Member::operation("item", 1, item),
                Member::to_string_tag("FileList"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsObject> {
        Err(webidl::illegal_constructor())
    }
}
