//! `package.json` as the module loader reads it: parsed by `serde_json`, with objects kept as
//! their members in source order (the order `exports` conditions are matched in), which a map
//! type would lose.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

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
    /// Parse a whole document (a leading byte order mark is tolerated, as editors write one);
    /// `Err` says what and where (line and column). Nesting deeper than `serde_json`'s limit
    /// (128) is refused, never a stack overflow.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        serde_json::from_str(text).map_err(|e| e.to_string())
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

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] from whatever `serde_json` reads, objects in member order.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            members.push((key, value));
        }
        Ok(Json::Object(members))
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
            "expected value at line 2 column 8"
        );
        assert!(Json::parse("[1, 2").is_err());
        assert_eq!(
            Json::parse("\u{feff}{\"a\": \"\\ud83d\\ude00\", \"a\": 2}")
                .unwrap()
                .get("a"),
            Some(&Json::Number(2.0))
        );
        assert!(Json::parse(&"[".repeat(10_000)).is_err());
    }
}
