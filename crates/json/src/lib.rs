//! # boa_json
//!
//! A spec-exact [`JSON.parse`](https://tc39.es/ecma262/#sec-json.parse) for Boa 0.22, whose
//! own validates the text with serde_json first and so rejects valid JSON: a lone-surrogate
//! escape (`"\ud83c"`), a number out of `f64` range (`1e400`), nesting deeper than 127
//! (docs/engine-bugs/json-parse.js).
//!
//! [`register`] replaces the `parse` property of the realm's `JSON` object; [`parse`] is the
//! parse step alone (no reviver), what the Fetch Standard's
//! [parse JSON from bytes](https://infra.spec.whatwg.org/#parse-json-bytes-to-a-javascript-value)
//! calls.
//!
//! Neither the parser nor the reviver walk recurses on the Rust stack: both keep an explicit
//! stack on the heap, so nesting is limited only by memory.
//!
//! ```
//! let mut context = boa_engine::Context::default();
//! boa_json::register(&mut context).unwrap();
//! let value = context
//!     .eval(boa_engine::Source::from_bytes(r#"JSON.parse('[1e400, "\\ud83c"]')[1].length"#))
//!     .unwrap();
//! assert_eq!(value.as_number(), Some(1.0));
//! ```

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use boa_engine::{
    js_string, object::builtins::JsArray, property::PropertyKey, Context, JsNativeError, JsObject,
    JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};

boa_webidl::runtime_extension!(
    /// A boa_runtime `RuntimeExtension` that installs this crate's `JSON.parse` (see
    /// [`register`]).
    JsonExtension,
    register
);

/// The realm mark of [`register`].
#[derive(Debug, Default, Trace, Finalize, boa_engine::JsData)]
struct Registered;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

/// Replaces `JSON.parse` in the context's current realm with this crate's (same property
/// attributes, `name` "parse", `length` 2). Registering twice does nothing the second time.
///
/// # Errors
/// If the `JSON` object refuses the property (it never does in a fresh realm).
pub fn register(ctx: &mut Context) -> JsResult<()> {
    if !boa_webidl::first_registration::<Registered>(ctx) {
        return Ok(());
    }
    boa_webidl::register(ctx)?;
    // NOTE: the reviver walk needs IsArray (through proxies), [[GetOwnProperty]]'s
    // [[Enumerable]] and [[Delete]], which Boa 0.22 does not make public on `JsObject`; the
    // built-ins that are exactly those operations are taken now, before script can replace
    // the properties that hold them, and called directly later (unobservable: each runs
    // only the internal method, on the object the spec's step names).
    let captured = Intrinsics::capture(ctx)?;
    let parse = NativeFunction::from_copy_closure_with_captures(
        |_this, args, captured: &Intrinsics, ctx| {
            let text = args.first().cloned().unwrap_or_default();
            let reviver = args.get(1).cloned().unwrap_or_default();
            json_parse(&text, &reviver, captured, ctx)
        },
        captured,
    );
    let parse = boa_webidl::function(ctx, "parse", 2, parse);
    let json = ctx.intrinsics().objects().json();
    json.define_property_or_throw(
        js_string!("parse"),
        boa_engine::property::PropertyDescriptor::builder()
            .value(parse)
            .writable(true)
            .enumerable(false)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}

/// The built-in functions the reviver walk calls (see [`register`]).
#[derive(Trace, Finalize)]
struct Intrinsics {
    /// `%Array.isArray%`: [IsArray](https://tc39.es/ecma262/#sec-isarray).
    is_array: JsObject,
    /// `%Object.prototype.propertyIsEnumerable%`: `[[GetOwnProperty]]` and its `[[Enumerable]]`.
    property_is_enumerable: JsObject,
    /// `%Reflect.deleteProperty%`: `[[Delete]]`.
    delete_property: JsObject,
}

impl Intrinsics {
    fn capture(ctx: &mut Context) -> JsResult<Self> {
        let function = |object: &JsObject, name: &str, ctx: &mut Context| -> JsResult<JsObject> {
            object
                .get(JsString::from(name), ctx)?
                .as_callable()
                .ok_or_else(|| {
                    JsNativeError::typ()
                        .with_message(format!("the built-in {name} is not callable"))
                        .into()
                })
        };
        let array = ctx.intrinsics().constructors().array().constructor();
        let object_prototype = ctx.intrinsics().constructors().object().prototype();
        let reflect = ctx.intrinsics().objects().reflect();
        Ok(Self {
            is_array: function(&array, "isArray", ctx)?,
            property_is_enumerable: function(&object_prototype, "propertyIsEnumerable", ctx)?,
            delete_property: function(&reflect, "deleteProperty", ctx)?,
        })
    }
}

/// [JSON.parse ( text [ , reviver ] )](https://tc39.es/ecma262/#sec-json.parse).
fn json_parse(
    text: &JsValue,
    reviver: &JsValue,
    intrinsics: &Intrinsics,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    // 1. Let jsonString be ? ToString(text).
    let json_string = text.to_string(ctx)?;
    // 2-10. Parse and evaluate.
    let unfiltered = parse(&json_string, ctx)?;
    // 11. If IsCallable(reviver) is true, then
    if let Some(reviver) = reviver.as_callable() {
        // a. Let root be OrdinaryObjectCreate(%Object.prototype%).
        let root = JsObject::with_object_proto(ctx.intrinsics());
        // b. Let rootName be the empty String.
        // c. Perform ! CreateDataPropertyOrThrow(root, rootName, unfiltered).
        root.create_data_property_or_throw(js_string!(), unfiltered, ctx)?;
        // d. Return ? InternalizeJSONProperty(root, rootName, reviver).
        return internalize_json_property(root, js_string!(), &reviver, intrinsics, ctx);
    }
    // 12. Else, return unfiltered.
    Ok(unfiltered)
}

/// Steps 2-10 of [JSON.parse](https://tc39.es/ecma262/#sec-json.parse): parse `text` as a
/// JSON text ([ECMA-404](https://ecma-international.org/publications-and-standards/standards/ecma-404/))
/// and evaluate it as the ECMAScript literal it is, without a reviver.
///
/// Strings keep lone surrogates; numbers are the Number value of their text (StringToNumber:
/// `1e400` is Infinity); `__proto__` is an ordinary data key; a duplicate key's last value wins
/// (at the first one's position); nesting is limited only by memory.
///
/// ```
/// let mut context = boa_engine::Context::default();
/// let text = boa_engine::js_string!(r#"{"__proto__": 1, "a": [2]}"#);
/// let value = boa_json::parse(&text, &mut context).unwrap();
/// let object = value.as_object().unwrap();
/// assert!(object.has_own_property(boa_engine::js_string!("__proto__"), &mut context).unwrap());
/// ```
///
/// # Errors
/// A SyntaxError naming the position (in UTF-16 code units) where `text` stops being JSON.
pub fn parse(text: &JsString, ctx: &mut Context) -> JsResult<JsValue> {
    let units: Vec<u16> = text.iter().collect();
    parse_utf16(&units, ctx)
}

/// [`parse`] of a text given as its UTF-16 code units, for a host that has the text outside
/// the engine (a JSON module read from a file: `str::encode_utf16` gives the units without
/// first making a `JsString` of the whole text).
///
/// ```
/// let mut context = boa_engine::Context::default();
/// let units: Vec<u16> = r#"["\ud83c", 1e400]"#.encode_utf16().collect();
/// let value = boa_json::parse_utf16(&units, &mut context).unwrap();
/// let array = value.as_object().unwrap();
/// let first = array.get(0, &mut context).unwrap();
/// assert_eq!(first.as_string().unwrap().len(), 1);
/// let second = array.get(1, &mut context).unwrap();
/// assert_eq!(second.as_number(), Some(f64::INFINITY));
/// ```
///
/// # Errors
/// A SyntaxError naming the position (in UTF-16 code units) where `units` stops being JSON.
pub fn parse_utf16(units: &[u16], ctx: &mut Context) -> JsResult<JsValue> {
    Parser { units, pos: 0 }.parse(ctx)
}

/// A container being filled while parsing.
enum Open {
    /// An array and its elements so far.
    Array(Vec<JsValue>),
    /// An object and the key whose value is being parsed.
    Object(JsObject, JsString),
}

/// The parser's state: the text and the position of the next code unit.
struct Parser<'a> {
    units: &'a [u16],
    pos: usize,
}

const fn is_json_whitespace(unit: u16) -> bool {
    matches!(unit, 0x09 | 0x0A | 0x0D | 0x20)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u16> {
        self.units.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(is_json_whitespace) {
            self.pos += 1;
        }
    }

    /// A SyntaxError for the code unit at the current position (or the end of the text).
    fn error(&self, expected: &str) -> boa_engine::JsError {
        let found = match self.peek() {
            None => "end of input".to_owned(),
            Some(unit) => match char::from_u32(u32::from(unit)) {
                Some(c) if !c.is_control() => format!("'{c}'"),
                _ => format!("U+{unit:04X}"),
            },
        };
        JsNativeError::syntax()
            .with_message(format!(
                "JSON.parse: unexpected {found} at position {}, expected {expected}",
                self.pos
            ))
            .into()
    }

    fn expect(&mut self, unit: u8, expected: &str) -> JsResult<()> {
        if self.peek() == Some(u16::from(unit)) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// Parses the whole text with an explicit stack of open containers.
    fn parse(mut self, ctx: &mut Context) -> JsResult<JsValue> {
        let mut stack: Vec<Open> = Vec::new();
        'value: loop {
            // Parse a value; for an opening bracket, push the container and parse its
            // first member.
            self.skip_whitespace();
            let mut value = match self.peek() {
                Some(0x7B) => {
                    // `{`
                    self.pos += 1;
                    self.skip_whitespace();
                    let object = JsObject::with_object_proto(ctx.intrinsics());
                    if self.peek() == Some(0x7D) {
                        self.pos += 1;
                        object.into()
                    } else {
                        let key = self.member_key()?;
                        stack.push(Open::Object(object, key));
                        continue 'value;
                    }
                }
                Some(0x5B) => {
                    // `[`
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(0x5D) {
                        self.pos += 1;
                        JsArray::new(ctx)?.into()
                    } else {
                        stack.push(Open::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(0x22) => JsString::from(self.string()?.as_slice()).into(),
                Some(0x74) => self.literal("true", JsValue::from(true))?,
                Some(0x66) => self.literal("false", JsValue::from(false))?,
                Some(0x6E) => self.literal("null", JsValue::null())?,
                Some(0x2D | 0x30..=0x39) => JsValue::from(self.number()?),
                _ => return Err(self.error("a JSON value")),
            };
            // Put the value in its container; close every container that ends here.
            loop {
                self.skip_whitespace();
                match stack.pop() {
                    None => {
                        if self.pos < self.units.len() {
                            return Err(self.error("the end of the JSON text"));
                        }
                        return Ok(value);
                    }
                    Some(Open::Array(mut elements)) => {
                        elements.push(value);
                        match self.peek() {
                            Some(0x2C) => {
                                self.pos += 1;
                                stack.push(Open::Array(elements));
                                continue 'value;
                            }
                            Some(0x5D) => {
                                self.pos += 1;
                                // CreateArrayFromList(elements).
                                value = JsArray::from_iter(elements, ctx).into();
                            }
                            _ => return Err(self.error("',' or ']'")),
                        }
                    }
                    Some(Open::Object(object, key)) => {
                        // The object literal's PropertyDefinitionEvaluation: CreateDataProperty
                        // (a repeated key redefines the property in place; `__proto__` is a
                        // data key in JSON).
                        object.create_data_property_or_throw(PropertyKey::from(key), value, ctx)?;
                        match self.peek() {
                            Some(0x2C) => {
                                self.pos += 1;
                                self.skip_whitespace();
                                let key = self.member_key()?;
                                stack.push(Open::Object(object, key));
                                continue 'value;
                            }
                            Some(0x7D) => {
                                self.pos += 1;
                                value = object.into();
                            }
                            _ => return Err(self.error("',' or '}'")),
                        }
                    }
                }
            }
        }
    }

    /// A member's key and the `:` after it (whitespace before the key already skipped).
    fn member_key(&mut self) -> JsResult<JsString> {
        if self.peek() != Some(0x22) {
            return Err(self.error("a string key"));
        }
        let key = JsString::from(self.string()?.as_slice());
        self.skip_whitespace();
        self.expect(b':', "':'")?;
        Ok(key)
    }

    fn literal(&mut self, word: &str, value: JsValue) -> JsResult<JsValue> {
        for byte in word.bytes() {
            self.expect(byte, word)?;
        }
        Ok(value)
    }

    /// A JSON string (at its opening quote) as UTF-16 code units; escapes of lone surrogates
    /// stay lone surrogates.
    fn string(&mut self) -> JsResult<Vec<u16>> {
        self.expect(b'"', "'\"'")?;
        let mut out = Vec::new();
        loop {
            let Some(unit) = self.peek() else {
                return Err(self.error("'\"'"));
            };
            match unit {
                0x22 => {
                    self.pos += 1;
                    return Ok(out);
                }
                0x5C => {
                    self.pos += 1;
                    let unit = match self.peek() {
                        Some(0x22) => 0x22,
                        Some(0x5C) => 0x5C,
                        Some(0x2F) => 0x2F,
                        Some(0x62) => 0x08,
                        Some(0x66) => 0x0C,
                        Some(0x6E) => 0x0A,
                        Some(0x72) => 0x0D,
                        Some(0x74) => 0x09,
                        Some(0x75) => {
                            let mut code = 0u16;
                            for _ in 0..4 {
                                self.pos += 1;
                                let digit = self
                                    .peek()
                                    .and_then(|u| char::from_u32(u32::from(u)))
                                    .and_then(|c| c.to_digit(16))
                                    .ok_or_else(|| self.error("a hexadecimal digit"))?;
                                code = code * 16 + digit as u16;
                            }
                            code
                        }
                        _ => return Err(self.error("an escape character")),
                    };
                    self.pos += 1;
                    out.push(unit);
                }
                0x00..=0x1F => return Err(self.error("'\"' (control characters must be escaped)")),
                _ => {
                    self.pos += 1;
                    out.push(unit);
                }
            }
        }
    }

    /// A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as the Number
    /// value of its text (StringToNumber: the correctly rounded `f64`, ±Infinity out of range).
    fn number(&mut self) -> JsResult<f64> {
        let start = self.pos;
        let is_digit = |u: Option<u16>| u.is_some_and(|u| (0x30..=0x39).contains(&u));
        if self.peek() == Some(0x2D) {
            self.pos += 1;
        }
        match self.peek() {
            Some(0x30) => self.pos += 1,
            Some(0x31..=0x39) => {
                while is_digit(self.peek()) {
                    self.pos += 1;
                }
            }
            _ => return Err(self.error("a digit")),
        }
        if self.peek() == Some(0x2E) {
            self.pos += 1;
            if !is_digit(self.peek()) {
                return Err(self.error("a digit"));
            }
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(0x65 | 0x45)) {
            self.pos += 1;
            if matches!(self.peek(), Some(0x2B | 0x2D)) {
                self.pos += 1;
            }
            if !is_digit(self.peek()) {
                return Err(self.error("a digit"));
            }
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        // Every unit in start..pos is ASCII (checked above).
        let text: String = self
            .units
            .get(start..self.pos)
            .unwrap_or_default()
            .iter()
            .map(|&u| char::from(u as u8))
            .collect();
        text.parse::<f64>().map_err(|_| {
            JsNativeError::syntax()
                .with_message("JSON.parse: bad number")
                .into()
        })
    }
}

/// The keys of a value being walked by [`internalize_json_property`].
enum Keys {
    /// An array's `length` (read once).
    Array(u64),
    /// EnumerableOwnProperties(val, key).
    Object(Vec<JsString>),
}

/// A holder's property whose value is an object being walked.
struct Frame {
    holder: JsObject,
    name: JsString,
    val: JsObject,
    keys: Keys,
    /// The index of the next property to walk.
    next: u64,
    /// The property being walked.
    current: JsString,
}

/// The String form of a property key (`Index` keys as their decimal digits).
fn key_string(key: &PropertyKey) -> Option<JsString> {
    match key {
        PropertyKey::String(s) => Some(s.clone()),
        PropertyKey::Index(i) => Some(JsString::from(i.get().to_string())),
        PropertyKey::Symbol(_) => None,
    }
}

/// Step 1-2 of InternalizeJSONProperty for `holder[name]`: the value, and for an object the
/// frame that walks its properties.
fn enter(
    holder: JsObject,
    name: JsString,
    intrinsics: &Intrinsics,
    ctx: &mut Context,
) -> JsResult<Result<Frame, Leaf>> {
    // 1. Let val be ? Get(holder, name).
    let val = holder.get(PropertyKey::from(name.clone()), ctx)?;
    // 2. If val is an Object, then
    let Some(object) = val.as_object() else {
        return Ok(Err((holder, name, val)));
    };
    // a. Let isArray be ? IsArray(val).
    let is_array = intrinsics
        .is_array
        .call(&JsValue::undefined(), std::slice::from_ref(&val), ctx)?
        .to_boolean();
    let keys = if is_array {
        // b.i. Let len be ? LengthOfArrayLike(val).
        Keys::Array(object.get(js_string!("length"), ctx)?.to_length(ctx)?)
    } else {
        // c.i. Let keys be ? EnumerableOwnProperties(val, key).
        let mut keys = Vec::new();
        for key in object.own_property_keys(ctx)? {
            let Some(key) = key_string(&key) else {
                continue;
            };
            if intrinsics
                .property_is_enumerable
                .call(&val, &[key.clone().into()], ctx)?
                .to_boolean()
            {
                keys.push(key);
            }
        }
        Keys::Object(keys)
    };
    Ok(Ok(Frame {
        holder,
        name,
        val: object,
        keys,
        next: 0,
        current: JsString::default(),
    }))
}

/// What [`next_child`] found for the top frame.
enum Step {
    /// The next property to walk: a frame to push, or a non-object value for the reviver.
    Enter(Result<Frame, Leaf>),
    /// No property left: the popped frame, ready for its own reviver call.
    Done(Frame),
}

/// A non-object value and where it is: `(holder, name, val)`.
type Leaf = (JsObject, JsString, JsValue);

/// [InternalizeJSONProperty ( holder, name, reviver )](https://tc39.es/ecma262/#sec-internalizejsonproperty),
/// iteratively: each object being walked is a [`Frame`] on a heap stack.
fn internalize_json_property(
    holder: JsObject,
    name: JsString,
    reviver: &JsObject,
    intrinsics: &Intrinsics,
    ctx: &mut Context,
) -> JsResult<JsValue> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut pending = enter(holder, name, intrinsics, ctx)?;
    loop {
        // Walk down: while the current value is an object, push its frame and enter its
        // first property.
        let (holder, name, val) = match pending {
            Ok(frame) => {
                stack.push(frame);
                match next_child(&mut stack, intrinsics, ctx)? {
                    Step::Enter(next) => {
                        pending = next;
                        continue;
                    }
                    Step::Done(frame) => (frame.holder, frame.name, JsValue::from(frame.val)),
                }
            }
            Err(leaf) => leaf,
        };
        // 3. Return ? Call(reviver, holder, « name, val »).
        let mut result = reviver.call(&holder.into(), &[name.into(), val], ctx)?;
        // Give the result to the parent frame, continue with its next property; close
        // every frame that has no more properties.
        loop {
            let Some(frame) = stack.last_mut() else {
                return Ok(result);
            };
            let val = frame.val.clone();
            let prop = frame.current.clone();
            // 2.b.iii.3 / 2.c.ii.2. If newElement is undefined, perform ? val.[[Delete]](prop).
            if result.is_undefined() {
                intrinsics.delete_property.call(
                    &JsValue::undefined(),
                    &[val.into(), prop.into()],
                    ctx,
                )?;
            } else {
                // Else, perform ? CreateDataProperty(val, prop, newElement).
                val.create_data_property(PropertyKey::from(prop), result, ctx)?;
            }
            match next_child(&mut stack, intrinsics, ctx)? {
                Step::Enter(next) => {
                    pending = next;
                    break;
                }
                Step::Done(frame) => {
                    result = reviver.call(
                        &frame.holder.into(),
                        &[frame.name.into(), frame.val.into()],
                        ctx,
                    )?;
                }
            }
        }
    }
}

/// Enters the next property of the top frame (advancing it), or pops the frame when it has
/// none left. The stack is never empty here.
fn next_child(
    stack: &mut Vec<Frame>,
    intrinsics: &Intrinsics,
    ctx: &mut Context,
) -> JsResult<Step> {
    let prop = match stack.last_mut() {
        None => None,
        Some(frame) => {
            let prop = match &frame.keys {
                // b.ii-iii. For I from 0 while I < len: let prop be ! ToString(𝔽(I)).
                Keys::Array(len) => {
                    (frame.next < *len).then(|| JsString::from(frame.next.to_string()))
                }
                // c.ii. For each String P of keys.
                Keys::Object(keys) => usize::try_from(frame.next)
                    .ok()
                    .and_then(|i| keys.get(i))
                    .cloned(),
            };
            prop.map(|prop| {
                frame.next += 1;
                frame.current = prop.clone();
                (frame.val.clone(), prop)
            })
        }
    };
    match prop {
        // Let newElement be ? InternalizeJSONProperty(val, prop, reviver).
        Some((holder, prop)) => enter(holder, prop, intrinsics, ctx).map(Step::Enter),
        None => stack.pop().map(Step::Done).ok_or_else(|| {
            JsNativeError::typ()
                .with_message("JSON.parse: the reviver walk lost its place")
                .into()
        }),
    }
}
