//! The MIME Sniffing Standard's [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type)
//! and the Fetch Standard's [extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type),
//! as far as `formData()` needs them (the essence and the parameters).

/// A parsed [MIME type](https://mimesniff.spec.whatwg.org/#mime-type) (strings are the
/// isomorphic decoding of the header bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MimeType {
    type_: String,
    subtype: String,
    parameters: Vec<(String, String)>,
}

impl MimeType {
    /// The [essence](https://mimesniff.spec.whatwg.org/#mime-type-essence): `type/subtype`.
    pub(crate) fn essence(&self) -> String {
        format!("{}/{}", self.type_, self.subtype)
    }

    /// The value of the parameter `name` (lowercase), if any.
    pub(crate) fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl std::fmt::Display for MimeType {
    /// [Serialize a MIME type](https://mimesniff.spec.whatwg.org/#serialize-a-mime-type):
    /// `type/subtype`, then `;name=value` for each parameter, the value quoted (with `"`
    /// and `\` escaped) when it is empty or not all token code points.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.type_, self.subtype)?;
        for (name, value) in &self.parameters {
            write!(f, ";{name}=")?;
            if !value.is_empty() && value.chars().all(is_token) {
                f.write_str(value)?;
            } else {
                f.write_str("\"")?;
                for c in value.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            }
        }
        Ok(())
    }
}

/// The Body mixin's [MIME type](https://fetch.spec.whatwg.org/#concept-body-mime-type) as
/// `blob()` gives it: the MIME type extracted from the `Content-Type` value(s), serialized;
/// the empty string when there is none or it does not parse.
pub(crate) fn body_mime_type(content_type: Option<&[u8]>) -> String {
    extract_mime_type(content_type).map_or_else(String::new, |m| m.to_string())
}

fn is_http_whitespace(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t' | ' ')
}

fn is_token(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn is_quoted_string_token(c: char) -> bool {
    c == '\t' || ('\u{20}'..='\u{7e}').contains(&c) || ('\u{80}'..='\u{ff}').contains(&c)
}

/// [Collect an HTTP quoted string](https://fetch.spec.whatwg.org/#collect-an-http-quoted-string)
/// from `chars` at `*pos` (which is a `"`), with extract-value true.
fn collect_quoted_string(chars: &[char], pos: &mut usize) -> String {
    let mut value = String::new();
    // 4. Advance position by 1 (past the opening quote).
    *pos += 1;
    // 5. While true:
    loop {
        // 1. Append the code points that are not " or \ to value.
        while let Some(&c) = chars.get(*pos) {
            if c == '"' || c == '\\' {
                break;
            }
            value.push(c);
            *pos += 1;
        }
        // 2. If position is past the end of input, then break.
        let Some(&quote_or_backslash) = chars.get(*pos) else {
            break;
        };
        // 3-4. Let quoteOrBackslash be the code point at position; advance by 1.
        *pos += 1;
        if quote_or_backslash == '\\' {
            // 5. If it is \: past the end, append \ and break; else append the code point
            //    at position and advance by 1.
            let Some(&c) = chars.get(*pos) else {
                value.push('\\');
                break;
            };
            value.push(c);
            *pos += 1;
        } else {
            // 6. Otherwise (a "), break.
            break;
        }
    }
    value
}

/// [Parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type) from `input`.
pub(crate) fn parse_mime_type(input: &str) -> Option<MimeType> {
    // 1. Remove any leading and trailing HTTP whitespace from input.
    let chars: Vec<char> = input.trim_matches(is_http_whitespace).chars().collect();
    let mut pos = 0;
    let collect = |pos: &mut usize, stop: &dyn Fn(char) -> bool| {
        let mut s = String::new();
        while let Some(&c) = chars.get(*pos) {
            if stop(c) {
                break;
            }
            s.push(c);
            *pos += 1;
        }
        s
    };
    // 3-4. type: the code points up to "/"; empty or not all token code points: failure.
    let type_ = collect(&mut pos, &|c| c == '/');
    if type_.is_empty() || !type_.chars().all(is_token) {
        return None;
    }
    // 5-6. Past the end: failure; else advance past "/".
    if pos >= chars.len() {
        return None;
    }
    pos += 1;
    // 7-9. subtype: up to ";", trailing HTTP whitespace removed; empty or not token: failure.
    let subtype = collect(&mut pos, &|c| c == ';');
    let subtype = subtype.trim_end_matches(is_http_whitespace).to_string();
    if subtype.is_empty() || !subtype.chars().all(is_token) {
        return None;
    }
    // 10. mimeType: type and subtype in ASCII lowercase.
    let mut mime = MimeType {
        type_: type_.to_ascii_lowercase(),
        subtype: subtype.to_ascii_lowercase(),
        parameters: Vec::new(),
    };
    // 11. While position is not past the end of input:
    while pos < chars.len() {
        // 1. Advance position by 1 (skips past ";").
        pos += 1;
        // 2. Collect HTTP whitespace.
        collect(&mut pos, &|c| !is_http_whitespace(c));
        // 3-4. parameterName: up to ";" or "=", ASCII lowercased.
        let name = collect(&mut pos, &|c| c == ';' || c == '=').to_ascii_lowercase();
        // 5. If position is not past the end: ";" continues; else advance past "=".
        if let Some(&c) = chars.get(pos) {
            if c == ';' {
                continue;
            }
            pos += 1;
        }
        // 6. If position is past the end of input, then break.
        let Some(&c) = chars.get(pos) else {
            break;
        };
        // 7-8. parameterValue: a quoted string (then up to ";"), or up to ";" with trailing
        //      HTTP whitespace removed (empty: continue).
        let value = if c == '"' {
            let v = collect_quoted_string(&chars, &mut pos);
            collect(&mut pos, &|c| c == ';');
            v
        } else {
            let v = collect(&mut pos, &|c| c == ';');
            let v = v.trim_end_matches(is_http_whitespace).to_string();
            if v.is_empty() {
                continue;
            }
            v
        };
        // 9. If name is a non-empty token, value only quoted-string token code points, and
        //    mimeType's parameters do not contain name, set the parameter.
        if !name.is_empty()
            && name.chars().all(is_token)
            && value.chars().all(is_quoted_string_token)
            && mime.parameter(&name).is_none()
        {
            mime.parameters.push((name, value));
        }
    }
    // 12. Return mimeType.
    Some(mime)
}

/// [Getting, decoding, and splitting](https://fetch.spec.whatwg.org/#header-value-get-decode-and-split)
/// a combined header value: split on commas outside quoted strings, each item trimmed of
/// HTTP tab or space.
fn decode_and_split(value: &[u8]) -> Vec<String> {
    // 1. Let input be the result of isomorphic decoding value.
    let chars: Vec<char> = value.iter().map(|&b| char::from(b)).collect();
    let mut pos = 0;
    // 3. Let values be a list of strings, initially empty.
    let mut values = Vec::new();
    // 4. Let temporaryValue be the empty string.
    let mut temporary = String::new();
    // 5. While true:
    loop {
        // 1. Append the code points that are not " or , to temporaryValue.
        while let Some(&c) = chars.get(pos) {
            if c == '"' || c == ',' {
                break;
            }
            temporary.push(c);
            pos += 1;
        }
        // 2. A ": the quoted string (extract-value false: the raw text) is appended and the
        //    loop goes on, unless it ends the input.
        if chars.get(pos) == Some(&'"') {
            let start = pos;
            collect_quoted_string(&chars, &mut pos);
            temporary.extend(chars.get(start..pos).unwrap_or_default());
            if pos < chars.len() {
                continue;
            }
        }
        // 3-4. Remove HTTP tab or space from both ends; append it to values; empty
        //      temporaryValue.
        values.push(temporary.trim_matches(['\t', ' ']).to_string());
        temporary.clear();
        // 5. Past the end: return values.
        if pos >= chars.len() {
            return values;
        }
        // 6. Otherwise advance past the ",".
        pos += 1;
    }
}

/// [Extract a MIME type](https://fetch.spec.whatwg.org/#concept-header-extract-mime-type)
/// from a `Content-Type` header value (all values combined): `None` is failure.
pub(crate) fn extract_mime_type(content_type: Option<&[u8]>) -> Option<MimeType> {
    // 1-3. charset, essence, mimeType null; values is getting, decoding, and splitting
    //      `Content-Type`; null: failure.
    let values = decode_and_split(content_type?);
    let mut charset: Option<String> = None;
    let mut essence: Option<String> = None;
    let mut mime: Option<MimeType> = None;
    // 5. For each value of values:
    for value in values {
        // 1-2. temporaryMimeType is parsing value; failure or */*: continue.
        let Some(temporary) = parse_mime_type(&value) else {
            continue;
        };
        if temporary.essence() == "*/*" {
            continue;
        }
        // 3. Set mimeType to temporaryMimeType.
        let mut current = temporary;
        // 4. If mimeType's essence is not essence: charset is its charset parameter (or
        //    null) and essence is its essence.
        if essence.as_deref() != Some(current.essence().as_str()) {
            charset = current.parameter("charset").map(str::to_string);
            essence = Some(current.essence());
        } else if current.parameter("charset").is_none() {
            // 5. Otherwise, if it has no charset parameter and charset is non-null, set it.
            if let Some(c) = &charset {
                current.parameters.push(("charset".into(), c.clone()));
            }
        }
        mime = Some(current);
    }
    // 6-7. Null: failure; else mimeType.
    mime
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_essence_and_parameters() {
        let m = parse_mime_type(" Multipart/Form-Data ; Boundary=\"a\\\"b;c\" ; x=1").unwrap();
        assert_eq!(m.essence(), "multipart/form-data");
        assert_eq!(m.parameter("boundary"), Some("a\"b;c"));
        assert_eq!(m.parameter("x"), Some("1"));
        assert!(parse_mime_type("text").is_none());
        assert!(parse_mime_type("/plain").is_none());
        assert!(parse_mime_type("te xt/plain").is_none());
        let m = extract_mime_type(Some(b"text/plain;charset=x, */*, text/plain")).unwrap();
        assert_eq!(m.parameter("charset"), Some("x"));
        let m =
            extract_mime_type(Some(b"text/plain, multipart/form-data; boundary=\"a,b\"")).unwrap();
        assert_eq!(m.parameter("boundary"), Some("a,b"));
        assert!(extract_mime_type(None).is_none());
        assert!(extract_mime_type(Some(b"nonsense")).is_none());
    }

    #[test]
    fn serializes_as_blob_types_need() {
        let t = |v: &str| body_mime_type(Some(v.as_bytes()));
        assert_eq!(t("text/plain; charset=utf-8"), "text/plain;charset=utf-8");
        assert_eq!(t("Text/HTML;Charset=\"UTF-8\""), "text/html;charset=UTF-8");
        assert_eq!(
            t("text/plain;a=\"b c\";d=\"\";e=\"q\\\"x\""),
            "text/plain;a=\"b c\";d=\"\";e=\"q\\\"x\""
        );
        assert_eq!(t("text/plain;charset=gbk, text/html"), "text/html");
        assert_eq!(
            t("text/plain;charset=gbk, text/plain"),
            "text/plain;charset=gbk"
        );
        assert_eq!(t("nonsense"), "");
        assert_eq!(t(""), "");
        assert_eq!(body_mime_type(None), "");
    }
}
