//! The Encoding Standard's [`TextDecoder`](https://encoding.spec.whatwg.org/#interface-textdecoder).
//!
//! `TextDecoder` shares its decoder state, the serialize I/O queue steps and the
//! `TextDecoderCommon` attributes with `TextDecoderStream` ([`crate::decoder`]).

use std::cell::Cell;

use boa_engine::{
    class::{Class, ClassBuilder},
    property::Attribute,
    Context, JsData, JsObject, JsResult, JsString, JsValue,
};
use boa_gc::{Finalize, Trace};

use boa_webidl::buffer_source::{
    check_allow_shared_buffer_source, copy_bytes_of_allow_shared_buffer_source,
};
use boa_webidl::{self as webidl, arg, brand, Dictionary, Member, INTERFACE_ATTRIBUTES};

use crate::decoder::{
    construct_common, text_decoder_common, DecodeError, DecoderCommon, TextDecoderCommon,
};

/// A `TextDecoder` object's state.
#[derive(Trace, Finalize, JsData)]
pub struct TextDecoder {
    /// The `TextDecoderCommon` state (encoding, error mode, ignore BOM, decoder, I/O queue,
    /// BOM seen).
    #[unsafe_ignore_trace]
    common: DecoderCommon,
    /// [do not flush](https://encoding.spec.whatwg.org/#textdecoder-do-not-flush-flag).
    #[unsafe_ignore_trace]
    do_not_flush: Cell<bool>,
}

impl std::fmt::Debug for TextDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextDecoder")
            .field("common", &self.common)
            .field("do_not_flush", &self.do_not_flush.get())
            .finish()
    }
}

fn decoder_data<R>(decoder: &JsObject<TextDecoder>, f: impl FnOnce(&TextDecoder) -> R) -> R {
    f(decoder.borrow().data())
}

/// [`decode(input, options)`](https://encoding.spec.whatwg.org/#dom-textdecoder-decode)
fn decode(this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let decoder = brand::<TextDecoder>(this, "TextDecoder")?;
    // IDL layer: `optional AllowSharedBufferSource input`, then `optional TextDecodeOptions
    // options = {}` (member stream). The bytes are copied after both conversions (step 3):
    // a getter of options can still detach or change the buffer.
    let input = arg(args, 0);
    let given = !input.is_undefined();
    if given {
        check_allow_shared_buffer_source(&input)?;
    }
    let options = Dictionary::new(&arg(args, 1), "options")?;
    let stream = options.get_bool(webidl::js_key!("stream"), false, ctx)?;
    // 3. If input is given, then push a copy of input to this's I/O queue.
    let bytes = if given {
        copy_bytes_of_allow_shared_buffer_source(&input, ctx)?
    } else {
        Vec::new()
    };
    let output = decoder_data(&decoder, |d| {
        // 1. If this's do not flush is false, then set this's decoder to a new instance of
        //    this's encoding's decoder, this's I/O queue to the I/O queue of bytes
        //    « end-of-queue », and this's BOM seen to false.
        if !d.do_not_flush.get() {
            d.common.reset();
        }
        // 2. Set this's do not flush to options["stream"].
        d.do_not_flush.set(stream);
        // 4. Let output be the I/O queue of scalar values « end-of-queue ».
        // 5. While true:
        //   1. Let item be the result of reading from this's I/O queue.
        //   2. If item is end-of-queue and this's do not flush is true, then return the
        //      result of running serialize I/O queue with this and output.
        //   3. Otherwise:
        //     1. Let result be the result of processing an item with item, this's decoder,
        //        this's I/O queue, output, and this's error mode.
        //     2. If result is finished, then return the result of running serialize I/O
        //        queue with this and output.
        //     3. Otherwise, if result is error, throw a TypeError.
        d.common.decode(&bytes, !stream)
    })
    .map_err(DecodeError::into_type_error)?;
    Ok(JsString::from(output.as_slice()).into())
}

impl TextDecoderCommon for TextDecoder {
    const INTERFACE: &'static str = "TextDecoder";

    fn common(&self) -> &DecoderCommon {
        &self.common
    }
}

impl Class for TextDecoder {
    const NAME: &'static str = "TextDecoder";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        // TextDecoder includes TextDecoderCommon: its attributes, then the operation.
        let [encoding, fatal, ignore_bom] = text_decoder_common::<Self>();
        webidl::define(
            class,
            &[
                encoding,
                fatal,
                ignore_bom,
                Member::operation("decode", 0, decode),
                Member::to_string_tag("TextDecoder"),
            ],
        )
    }

    fn data_constructor(
        _new_target: &JsValue,
        args: &[JsValue],
        ctx: &mut Context,
    ) -> JsResult<Self> {
        // Engine runtime-limit errors of the user code run here become catchable RangeErrors.
        boa_webidl::limits_catchable((|| -> JsResult<Self> {
            // IDL layer and steps 1-5 (see decoder::construct_common). The decoder and I/O
            // queue are set up by decode() (do not flush is false).
            Ok(Self {
                common: construct_common(args, ctx)?,
                do_not_flush: Cell::new(false),
            })
        })())
    }
}

#[cfg(test)]
mod tests;
