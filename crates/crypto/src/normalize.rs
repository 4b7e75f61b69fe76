//! [Normalize an algorithm](https://w3c.github.io/webcrypto/#algorithm-normalization-normalize-an-algorithm):
//! the `name` member looked up in the [registry](crate::registry), then the registered
//! family converting the dictionary for the operation.

use boa_engine::{Context, JsObject, JsResult, JsString, JsValue};
use boa_webidl::{self as webidl, Dictionary};

use crate::algorithm::{not_a_digest, Members, Normalized, Op};
use crate::convert::required;
use crate::failure::{throw, Failure};
use crate::hash::Hash;
use crate::registry;

/// [Normalize an algorithm](https://w3c.github.io/webcrypto/#algorithm-normalization-normalize-an-algorithm)
/// `alg` (an `AlgorithmIdentifier`) for `op`.
pub(crate) fn normalize(alg: &JsValue, op: Op, ctx: &mut Context) -> JsResult<Normalized> {
    // 1. If alg is an instance of a DOMString: return the result of normalizing
    //    { name: alg } (`(object or DOMString)`: any non-object converts to a string).
    let alg = match alg.as_object() {
        Some(o) => o.clone(),
        None => {
            let name = alg.to_string(ctx)?;
            let o = JsObject::with_object_proto(ctx.intrinsics());
            o.create_data_property_or_throw(JsString::from("name"), name, ctx)?;
            o
        }
    };
    let alg_value: JsValue = alg.clone().into();
    // 2. Let initialAlg be the result of converting alg to the IDL dictionary type Algorithm.
    let dict = Dictionary::new(&alg_value, "Algorithm")?;
    let name = required(&dict, "name", "Algorithm", ctx)?
        .to_string(ctx)?
        .to_std_string_escaped();
    // 3-5. If registeredAlgorithms contains a key that is a case-insensitive string match
    //      for algName, set algName to it; otherwise NotSupportedError.
    let Some(registration) = registry::lookup(op, &name) else {
        return Err(throw(
            Failure::not_supported(format!(
                "Unrecognized algorithm name '{name}' for this operation"
            )),
            ctx,
        ));
    };
    // 6. Let normalizedAlgorithm be the result of converting alg to desiredType (the
    //    inherited `name` first, then the members in lexicographic order), 7. its name set
    //    to algName, 9-10. BufferSource members copied and hash members normalized.
    let _name_again = required(&dict, "name", "Algorithm", ctx)?.to_string(ctx)?;
    let members = Members::new(registration.name, op, &dict, normalize_hash);
    let params = registration.algorithm.normalize(&members, ctx)?;
    Ok(Normalized {
        name: registration.name,
        algorithm: registration.algorithm,
        params,
    })
}

/// A `HashAlgorithmIdentifier` member normalized for "digest".
fn normalize_hash(value: &JsValue, ctx: &mut Context) -> JsResult<Hash> {
    let normalized = normalize(value, Op::Digest, ctx)?;
    normalized
        .params::<Hash>()
        .copied()
        .ok_or_else(not_a_digest)
}

/// Normalize for wrapKey (unwrapKey), else for encrypt (decrypt) when that is not supported.
pub(crate) fn normalize_wrap(alg: &JsValue, wrap: bool, ctx: &mut Context) -> JsResult<Normalized> {
    let (first, second) = if wrap {
        (Op::WrapKey, Op::Encrypt)
    } else {
        (Op::UnwrapKey, Op::Decrypt)
    };
    match normalize(alg, first, ctx) {
        Ok(n) => Ok(n),
        Err(e) => {
            let not_supported = e
                .as_opaque()
                .and_then(JsValue::as_object)
                .and_then(|o| {
                    o.downcast_ref::<webidl::DomException>()
                        .map(|d| d.name().to_std_string_escaped() == "NotSupportedError")
                })
                .unwrap_or(false);
            if not_supported {
                normalize(alg, second, ctx)
            } else {
                Err(e)
            }
        }
    }
}
