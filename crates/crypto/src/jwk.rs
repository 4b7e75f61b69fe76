//! The key formats and the data keys are imported from and exported to: the `KeyFormat`
//! enumeration, the [`JsonWebKey`](https://w3c.github.io/webcrypto/#JsonWebKey-dictionary)
//! members this implementation reads, and base64url.

use crate::failure::{Failure, Outcome};
use crate::records::Usages;

/// The `KeyFormat` enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyFormat {
    Raw,
    Spki,
    Pkcs8,
    Jwk,
}

/// The [`JsonWebKey`](https://w3c.github.io/webcrypto/#JsonWebKey-dictionary) members this
/// implementation reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct Jwk {
    pub(crate) alg: Option<String>,
    pub(crate) crv: Option<String>,
    pub(crate) d: Option<String>,
    pub(crate) dp: Option<String>,
    pub(crate) dq: Option<String>,
    pub(crate) e: Option<String>,
    pub(crate) ext: Option<bool>,
    pub(crate) k: Option<String>,
    pub(crate) key_ops: Option<Vec<String>>,
    pub(crate) kty: Option<String>,
    pub(crate) n: Option<String>,
    /// Whether the `oth` member is present.
    pub(crate) oth: bool,
    pub(crate) p: Option<String>,
    pub(crate) q: Option<String>,
    pub(crate) qi: Option<String>,
    pub(crate) use_: Option<String>,
    pub(crate) x: Option<String>,
    pub(crate) y: Option<String>,
}

/// [Parse a JWK](https://w3c.github.io/webcrypto/#concept-parse-a-jwk) from unwrapped bytes.
// NOTE: parsed with serde_json instead of the realm's JSON.parse and dictionary conversion:
// the same members, and no user code could run (the parsed object has only own data
// properties; a getter installed on Object.prototype for a member absent from the JSON is the
// one difference).
pub(crate) fn parse_jwk(bytes: &[u8]) -> Outcome<Jwk> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|_| Failure::data("the unwrapped key is not JSON"))?;
    let object = value
        .as_object()
        .ok_or_else(|| Failure::data("the unwrapped JWK is not an object"))?;
    let string = |name: &str| -> Outcome<Option<String>> {
        match object.get(name) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Ok(Some(other.to_string())),
        }
    };
    let key_ops = match object.get("key_ops") {
        None => None,
        Some(serde_json::Value::Array(items)) => Some(
            items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect(),
        ),
        Some(_) => return Err(Failure::new("TypeError", "key_ops is not a sequence")),
    };
    Ok(Jwk {
        alg: string("alg")?,
        crv: string("crv")?,
        d: string("d")?,
        dp: string("dp")?,
        dq: string("dq")?,
        e: string("e")?,
        n: string("n")?,
        oth: object.get("oth").is_some_and(|v| !v.is_null()),
        p: string("p")?,
        q: string("q")?,
        qi: string("qi")?,
        x: string("x")?,
        y: string("y")?,
        ext: object.get("ext").map(|v| match v {
            serde_json::Value::Bool(b) => *b,
            serde_json::Value::Null => false,
            serde_json::Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
            serde_json::Value::String(s) => !s.is_empty(),
            _ => true,
        }),
        k: string("k")?,
        key_ops,
        kty: string("kty")?,
        use_: string("use")?,
    })
}

/// The data a key is imported from.
pub(crate) enum KeyData {
    Bytes(Vec<u8>),
    Jwk(Box<Jwk>),
}

/// An exported key: bytes, or a JWK's members in lexicographic order.
#[derive(Debug)]
pub(crate) enum Exported {
    Bytes(Vec<u8>),
    Jwk(serde_json::Map<String, serde_json::Value>),
}

/// The bytes of a base64url JWK member (unpadded), or a DataError.
pub(crate) fn base64url_decode(s: &str) -> Outcome<Vec<u8>> {
    use base64ct::Encoding;
    base64ct::Base64UrlUnpadded::decode_vec(s)
        .map_err(|_| Failure::data("the JWK member is not valid base64url"))
}

/// `bytes` in unpadded base64url.
pub(crate) fn base64url_encode(bytes: &[u8]) -> String {
    use base64ct::Encoding;
    base64ct::Base64UrlUnpadded::encode_string(bytes)
}

impl Jwk {
    /// The checks every JWK import makes after `kty` (and, for a secret key, `k`): `use`
    /// (when usages is non-empty), `key_ops` and `ext`.
    pub(crate) fn check_use_ops_ext(
        &self,
        use_value: &str,
        usages: Usages,
        extractable: bool,
    ) -> Outcome<()> {
        // If usages is non-empty and the use field of jwk is present and is not use_value,
        // then throw a DataError.
        if !usages.is_empty() && self.use_.as_deref().is_some_and(|u| u != use_value) {
            return Err(Failure::data(format!("the JWK use is not '{use_value}'")));
        }
        // If the key_ops field of jwk is present, and is invalid according to the
        // requirements of JSON Web Key, or it does not contain all of the specified usages
        // values, then throw a DataError.
        if let Some(ops) = &self.key_ops {
            for (i, op) in ops.iter().enumerate() {
                if ops.iter().skip(i + 1).any(|o| o == op) {
                    return Err(Failure::data("the JWK key_ops has duplicates"));
                }
            }
            if usages.names().any(|u| !ops.iter().any(|o| o == u)) {
                return Err(Failure::data(
                    "the JWK key_ops does not contain every usage",
                ));
            }
        }
        // If the ext field of jwk is present and has the value false and extractable is
        // true, then throw a DataError.
        if self.ext == Some(false) && extractable {
            return Err(Failure::data("the JWK is not extractable"));
        }
        Ok(())
    }
}
