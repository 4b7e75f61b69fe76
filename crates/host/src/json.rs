//! A small JSON reader for `package.json`: objects keep their keys in source order (the
//! order `exports` conditions are matched in), which a map type would lose.

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Members in source order (a repeated key keeps every occurrence; `get` finds the last,
    /// as `JSON.parse` would keep).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parse a whole document; `Err` says what and where (1-based line and column).
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let mut p = Parser {
            chars: text.chars().collect(),
            pos: 0,
        };
        p.skip_ws();
        // A byte order mark is tolerated, as editors write one.
        if p.peek() == Some('\u{feff}') {
            p.pos += 1;
            p.skip_ws();
        }
        let value = p.value(0)?;
        p.skip_ws();
        if p.pos < p.chars.len() {
            return Err(p.error("unexpected text after the value"));
        }
        Ok(value)
    }

    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|m| &m.1),
            _ => None,
        }
    }

    /// The string value, if this is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

/// Nesting deeper than this is refused (no recursion limit to overflow the stack).
const MAX_DEPTH: usize = 256;

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn error(&self, what: &str) -> String {
        let before = self.chars.iter().take(self.pos);
        let mut line = 1;
        let mut col = 1;
        for c in before {
            if *c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        format!("{what} at {line}:{col}")
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.next() == Some(c) {
            Ok(())
        } else {
            self.pos = self.pos.saturating_sub(1);
            Err(self.error(&format!("expected '{c}'")))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.skip_ws();
        match self.peek() {
            Some('{') => self.object(depth),
            Some('[') => self.array(depth),
            Some('"') => self.string().map(Json::String),
            Some('t') => self.word("true", Json::Bool(true)),
            Some('f') => self.word("false", Json::Bool(false)),
            Some('n') => self.word("null", Json::Null),
            Some('-' | '0'..='9') => self.number(),
            Some(_) => Err(self.error("unexpected character")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        for expected in word.chars() {
            if self.next() != Some(expected) {
                return Err(self.error(&format!("expected {word}")));
            }
        }
        Ok(value)
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        while matches!(self.peek(), Some('-' | '+' | '.' | 'e' | 'E' | '0'..='9')) {
            self.pos += 1;
        }
        let text: String = self
            .chars
            .get(start..self.pos)
            .unwrap_or_default()
            .iter()
            .collect();
        text.parse::<f64>()
            .map(Json::Number)
            .map_err(|_| self.error("bad number"))
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self.next() {
                None => return Err(self.error("unterminated string")),
                Some('"') => return Ok(out),
                Some('\\') => match self.next() {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('/') => out.push('/'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('u') => {
                        let unit = self.hex4()?;
                        let mut c = char::from_u32(unit);
                        // A high surrogate pairs with a following `\uDC00`-`\uDFFF` escape.
                        if (0xD800..0xDC00).contains(&unit)
                            && self.peek() == Some('\\')
                            && self.chars.get(self.pos + 1) == Some(&'u')
                        {
                            let save = self.pos;
                            self.pos += 2;
                            let low = self.hex4()?;
                            if (0xDC00..0xE000).contains(&low) {
                                c = char::from_u32(
                                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00),
                                );
                            } else {
                                self.pos = save;
                            }
                        }
                        out.push(c.unwrap_or('\u{fffd}'));
                    }
                    _ => return Err(self.error("bad escape")),
                },
                Some(c) if (c as u32) < 0x20 => {
                    return Err(self.error("control character in string"))
                }
                Some(c) => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut unit = 0;
        for _ in 0..4 {
            let digit = self
                .next()
                .and_then(|c| c.to_digit(16))
                .ok_or_else(|| self.error("bad \\u escape"))?;
            unit = unit * 16 + digit;
        }
        Ok(unit)
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.expect('[')?;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.next() {
                Some(',') => {}
                Some(']') => return Ok(Json::Array(items)),
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.expect('{')?;
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some('}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_ws();
            let key = self.string()?;
            self.skip_ws();
            self.expect(':')?;
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.skip_ws();
            match self.next() {
                Some(',') => {}
                Some('}') => return Ok(Json::Object(members)),
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn keeps_key_order_and_reports_positions() {
        let v =
            Json::parse(r#"{"b": 1, "a": [true, null, "x\u0041"], "c": {"d": -1.5e1}}"#).unwrap();
        let Json::Object(members) = &v else { panic!() };
        let keys: Vec<_> = members.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert_eq!(
            v.get("a"),
            Some(&Json::Array(vec![
                Json::Bool(true),
                Json::Null,
                Json::String("xA".into())
            ]))
        );
        assert_eq!(
            Json::parse("{\n  \"a\": }").unwrap_err(),
            "unexpected character at 2:8"
        );
        assert!(Json::parse("[1, 2").is_err());
        assert_eq!(
            Json::parse(r#""\ud83d\ude00 \ud800\u0041""#).unwrap(),
            Json::String("\u{1f600} \u{fffd}A".into())
        );
        assert!(Json::parse(&"[".repeat(10_000)).is_err());
    }
}
