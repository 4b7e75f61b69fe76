//! The [`File`](https://w3c.github.io/FileAPI/#file-section) interface: a `Blob` with a name
//! and a modification date (its instances carry [`Blob`] data with file slots).

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsNativeError, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, arg, brand, type_error, Member, INTERFACE_ATTRIBUTES};

use crate::blob_data::{blob_data, Blob, FileInfo};
use crate::parts::{convert_property_bag, process_blob_parts, to_blob_part_sequence};

/// The `File` interface object (instances carry [`Blob`] data with file slots).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct FileInterface;

fn this_file(this: &JsValue) -> JsResult<JsObject<Blob>> {
    let b = brand::<Blob>(this, "File")?;
    if blob_data(&b, |d| d.file.is_none()) {
        return Err(type_error("'this' is not a File object"));
    }
    Ok(b)
}

/// [name](https://w3c.github.io/FileAPI/#dfn-name)
fn name(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let f = this_file(this)?;
    Ok(blob_data(&f, |d| d.file.as_ref().map(|i| i.name.clone()))
        .unwrap_or_default()
        .into())
}

/// [lastModified](https://w3c.github.io/FileAPI/#dfn-lastModified)
fn last_modified(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let f = this_file(this)?;
    let ms = blob_data(&f, |d| d.file.as_ref().map_or(0, |i| i.last_modified));
    Ok(JsValue::from(ms as f64))
}

impl Class for FileInterface {
    const NAME: &'static str = "File";
    const LENGTH: usize = 2;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(
            class,
            &[
                Member::attribute("name", name),
                Member::attribute("lastModified", last_modified),
                Member::to_string_tag("File"),
            ],
        )
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }

    fn construct(new_target: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsObject> {
        webidl::require_new(new_target, "File")?;
        if args.len() < 2 {
            return Err(JsNativeError::typ()
                .with_message(format!(
                    "Failed to construct 'File': 2 arguments required, but only {} present.",
                    args.len()
                ))
                .into());
        }
        // IDL: sequence<BlobPart> fileBits, USVString fileName, optional FilePropertyBag.
        let parts = webidl::limits_catchable(to_blob_part_sequence(&arg(args, 0), ctx))?;
        let name = webidl::limits_catchable(arg(args, 1).to_string(ctx))?;
        let name = JsString::from(name.to_std_string_lossy().as_str());
        let options = webidl::limits_catchable(convert_property_bag(&arg(args, 2), true, ctx))?;
        // 1. Let bytes be the result of processing blob parts given fileBits and options.
        let bytes = process_blob_parts(parts, options.endings);
        // 2. Let n be the fileName argument.
        // 3. Process FilePropertyBag: type t (as for Blob); d = lastModified if given, else
        //    the current date and time in milliseconds since the Unix Epoch.
        let last_modified = options
            .last_modified
            .unwrap_or_else(|| ctx.clock().system_time_millis());
        // 4. Return a new File object F referring to bytes, with size, name n, type t and
        //    lastModified d.
        let proto = boa_dom::prototype_from_new_target::<Self>(new_target, ctx)?;
        Ok(JsObject::from_proto_and_data(
            Some(proto),
            Blob {
                bytes,
                type_: options.type_,
                file: Some(FileInfo {
                    name,
                    last_modified,
                }),
            },
        ))
    }
}
