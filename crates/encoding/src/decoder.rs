//! The decoding side shared by `TextDecoder` and `TextDecoderStream`: the
//! [`TextDecoderCommon`](https://encoding.spec.whatwg.org/#textdecodercommon) state (encoding,
//! error mode, ignore BOM, decoder, I/O queue, BOM seen), "getting an encoding" for a decoder,
//! the `TextDecoderOptions` dictionary, the
//! [serialize I/O queue](https://encoding.spec.whatwg.org/#concept-td-serialize) steps, and the
//! mixin's attributes ([`text_decoder_common`]), which both interfaces put in their tables.
//!
//! The decoders are `encoding_rs`'s (the Encoding Standard's decoders); its `Decoder` holds the
//! bytes of a sequence not yet complete, which is the part of the spec's I/O queue that
//! survives between calls. After a fatal error the bytes the spec would still hold in the I/O
//! queue (everything after the error, including bytes the spec "restores") are kept in
//! `pending` and read first next time.

use std::cell::RefCell;

use boa_engine::{Context, JsResult, JsString, JsValue, NativeObject};
use encoding_rs::{CoderResult, Decoder, DecoderResult, Encoding};

use boa_webidl::{arg, brand, range_error, to_dom_string, type_error, Dictionary, Member};

/// [Get an encoding](https://encoding.spec.whatwg.org/#concept-encoding-get) from `label` for
/// a decoder: the `TextDecoder` / `TextDecoderStream` constructor steps 1-2 (failure or
/// replacement is a RangeError).
pub(crate) fn get_decoder_encoding(label: &JsString) -> JsResult<&'static Encoding> {
    // 1. Remove any leading and trailing ASCII whitespace from label.
    // 2. If label is an ASCII case-insensitive match for any of the labels listed in the
    //    table below, then return the corresponding encoding; otherwise return failure.
    // NOTE: encoding_rs::Encoding::for_label does both steps on the label's UTF-8 bytes; a
    // label with unpaired surrogates (or any non-ASCII) matches no label either way.
    let encoding = label
        .to_std_string()
        .ok()
        .and_then(|l| Encoding::for_label(l.as_bytes()));
    match encoding {
        Some(e) if e != encoding_rs::REPLACEMENT => Ok(e),
        _ => Err(range_error(format!(
            "'{}' is not a supported encoding label",
            label.to_std_string_escaped()
        ))),
    }
}

/// The IDL layer of `constructor(optional DOMString label = "utf-8", optional
/// TextDecoderOptions options = {})`: the label and the options' `fatal` and `ignoreBOM`
/// members (in that order, as WebIDL converts them), then steps 1-6 of the constructor steps.
pub(crate) fn construct_common(args: &[JsValue], ctx: &mut Context) -> JsResult<DecoderCommon> {
    let label = match args.first() {
        None => JsString::from("utf-8"),
        Some(v) if v.is_undefined() => JsString::from("utf-8"),
        Some(v) => to_dom_string(v, ctx)?,
    };
    let options = Dictionary::new(&arg(args, 1), "options")?;
    let fatal = options.get_bool(boa_webidl::js_key!("fatal"), false, ctx)?;
    let ignore_bom = options.get_bool(boa_webidl::js_key!("ignoreBOM"), false, ctx)?;
    // 1. Let encoding be the result of getting an encoding from label.
    // 2. If encoding is failure or replacement, then throw a RangeError.
    let encoding = get_decoder_encoding(&label)?;
    // 3. Set this's encoding to encoding.
    // 4. If options["fatal"] is true, then set this's error mode to "fatal".
    // 5. Set this's ignore BOM to options["ignoreBOM"].
    // (6. TextDecoderStream: set this's decoder and I/O queue; TextDecoder does it in decode.)
    Ok(DecoderCommon::new(encoding, fatal, ignore_bom))
}

/// A [decoder](https://encoding.spec.whatwg.org/#decoder) with its I/O queue state and the
/// [BOM seen](https://encoding.spec.whatwg.org/#textdecoder-bom-seen) flag.
struct DecoderState {
    decoder: Decoder,
    /// Bytes left in the I/O queue by a fatal error (read before new input).
    pending: Vec<u8>,
    bom_seen: bool,
}

impl DecoderState {
    fn new(encoding: &'static Encoding) -> Self {
        // NOTE: BOM handling is the serialize I/O queue steps', not the decoder's.
        Self {
            decoder: encoding.new_decoder_without_bom_handling(),
            pending: Vec::new(),
            bom_seen: false,
        }
    }
}

/// The `TextDecoderCommon` state of a `TextDecoder` or `TextDecoderStream`.
pub(crate) struct DecoderCommon {
    /// [encoding](https://encoding.spec.whatwg.org/#textdecoder-encoding).
    encoding: &'static Encoding,
    /// [error mode](https://encoding.spec.whatwg.org/#textdecoder-error-mode) is "fatal".
    fatal: bool,
    /// [ignore BOM](https://encoding.spec.whatwg.org/#textdecoder-ignore-bom-flag).
    ignore_bom: bool,
    /// [decoder](https://encoding.spec.whatwg.org/#textdecoder-decoder), its I/O queue and
    /// BOM seen.
    state: RefCell<DecoderState>,
}

impl std::fmt::Debug for DecoderCommon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecoderCommon")
            .field("encoding", &self.encoding.name())
            .field("fatal", &self.fatal)
            .field("ignore_bom", &self.ignore_bom)
            .finish_non_exhaustive()
    }
}

/// A fatal decoding error ("If result is error, then throw a TypeError").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DecodeError;

impl DecodeError {
    pub(crate) fn into_type_error(self) -> boa_engine::JsError {
        type_error("The encoded data is not valid")
    }
}

impl DecoderCommon {
    pub(crate) fn new(encoding: &'static Encoding, fatal: bool, ignore_bom: bool) -> Self {
        Self {
            encoding,
            fatal,
            ignore_bom,
            state: RefCell::new(DecoderState::new(encoding)),
        }
    }

    /// The `encoding` getter: this's encoding's name, in ASCII lowercase.
    pub(crate) fn encoding_name(&self) -> JsString {
        JsString::from(self.encoding.name().to_ascii_lowercase().as_str())
    }

    pub(crate) fn fatal(&self) -> bool {
        self.fatal
    }

    pub(crate) fn ignore_bom(&self) -> bool {
        self.ignore_bom
    }

    /// Set the decoder to a new instance of the encoding's decoder, the I/O queue to an
    /// empty one, and BOM seen to false.
    pub(crate) fn reset(&self) {
        *self.state.borrow_mut() = DecoderState::new(self.encoding);
    }

    /// Push `input` to the I/O queue and process items until end-of-queue (`last` false:
    /// the "do not flush" / transform case, which keeps an incomplete sequence for later) or
    /// until the decoder is finished (`last` true: the end-of-queue item is processed too),
    /// then serialize the output. `Err` when the error mode is "fatal" and an item was an
    /// error.
    pub(crate) fn decode(&self, input: &[u8], last: bool) -> Result<Vec<u16>, DecodeError> {
        let output = self.run(input, last)?;
        Ok(self.serialize_io_queue(output))
    }

    fn run(&self, input: &[u8], last: bool) -> Result<Vec<u16>, DecodeError> {
        let mut state = self.state.borrow_mut();
        let state = &mut *state;
        let pending = std::mem::take(&mut state.pending);
        let joined;
        let mut src: &[u8] = if pending.is_empty() {
            input
        } else {
            joined = [pending.as_slice(), input].concat();
            &joined
        };
        let mut output: Vec<u16> = Vec::new();
        loop {
            // Room for all of `src` at once when the size is known (one pass).
            let room = state
                .decoder
                .max_utf16_buffer_length(src.len())
                .unwrap_or(4096)
                .clamp(16, 1 << 26);
            let start = output.len();
            output.resize(start + room, 0);
            let buffer = output.get_mut(start..).unwrap_or_default();
            let (full, read, written) = if self.fatal {
                let (result, read, written) = state
                    .decoder
                    .decode_to_utf16_without_replacement(src, buffer, last);
                match result {
                    DecoderResult::Malformed(_, extra) => {
                        // The bytes after the error stay in the I/O queue ("restored" ones
                        // included: encoding_rs consumed them).
                        let back = read.saturating_sub(usize::from(extra));
                        state.pending = src.get(back..).unwrap_or_default().to_vec();
                        return Err(DecodeError);
                    }
                    DecoderResult::InputEmpty => (false, read, written),
                    DecoderResult::OutputFull => (true, read, written),
                }
            } else {
                let (result, read, written, _) = state.decoder.decode_to_utf16(src, buffer, last);
                (result == CoderResult::OutputFull, read, written)
            };
            output.truncate(start + written);
            src = src.get(read..).unwrap_or_default();
            if !full {
                return Ok(output);
            }
        }
    }

    /// [Serialize I/O queue](https://encoding.spec.whatwg.org/#concept-td-serialize) for the
    /// code units `output` just produced by the decoder.
    fn serialize_io_queue(&self, mut output: Vec<u16>) -> Vec<u16> {
        // 1. Let output be the empty string.
        // 2. While true:
        //   1. Let item be the result of reading from ioQueue.
        //   2. If item is end-of-queue, then return output.
        //   3. If decoder's encoding is UTF-8 or UTF-16BE/LE, and decoder's ignore BOM and BOM
        //      seen are false, then:
        //     1. Set decoder's BOM seen to true.
        //     2. If item is U+FEFF, then continue.
        //   4. Append item to output.
        // NOTE: only the first item ever serialized can hit step 3; U+FEFF is one code unit.
        let bom_encoding = self.encoding == encoding_rs::UTF_8
            || self.encoding == encoding_rs::UTF_16BE
            || self.encoding == encoding_rs::UTF_16LE;
        if bom_encoding && !self.ignore_bom && !output.is_empty() {
            let mut state = self.state.borrow_mut();
            if !state.bom_seen {
                state.bom_seen = true;
                if output.first() == Some(&0xFEFF) {
                    output.remove(0);
                }
            }
        }
        output
    }
}

/// An interface that includes the
/// [TextDecoderCommon](https://encoding.spec.whatwg.org/#textdecodercommon) mixin
/// (`TextDecoder`, `TextDecoderStream`): an object holding a [`DecoderCommon`].
pub(crate) trait TextDecoderCommon: NativeObject {
    /// The interface's identifier, as the brand check's TypeError names it.
    const INTERFACE: &'static str;

    /// this's `TextDecoderCommon` state.
    fn common(&self) -> &DecoderCommon;
}

/// The rows of the [TextDecoderCommon](https://encoding.spec.whatwg.org/#textdecodercommon)
/// mixin, in IDL order: `readonly attribute DOMString encoding;`, `readonly attribute boolean
/// fatal;`, `readonly attribute boolean ignoreBOM;`. Each getter brand-checks `this` as a `T`.
pub(crate) const fn text_decoder_common<T: TextDecoderCommon>() -> [Member; 3] {
    [
        Member::attribute("encoding", encoding::<T>),
        Member::attribute("fatal", fatal::<T>),
        Member::attribute("ignoreBOM", ignore_bom::<T>),
    ]
}

/// [encoding](https://encoding.spec.whatwg.org/#dom-textdecoder-encoding)
fn encoding<T: TextDecoderCommon>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    let this = brand::<T>(this, T::INTERFACE)?;
    // The encoding getter steps are to return this's encoding's name, in ASCII lowercase.
    let name = this.borrow().data().common().encoding_name();
    Ok(name.into())
}

/// [fatal](https://encoding.spec.whatwg.org/#dom-textdecoder-fatal)
fn fatal<T: TextDecoderCommon>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    let this = brand::<T>(this, T::INTERFACE)?;
    // The fatal getter steps are to return true if this's error mode is "fatal", otherwise
    // false.
    let fatal = this.borrow().data().common().fatal();
    Ok(fatal.into())
}

/// [ignoreBOM](https://encoding.spec.whatwg.org/#dom-textdecoder-ignorebom)
fn ignore_bom<T: TextDecoderCommon>(
    this: &JsValue,
    _: &[JsValue],
    _: &mut Context,
) -> JsResult<JsValue> {
    let this = brand::<T>(this, T::INTERFACE)?;
    // The ignoreBOM getter steps are to return this's ignore BOM.
    let ignore_bom = this.borrow().data().common().ignore_bom();
    Ok(ignore_bom.into())
}
