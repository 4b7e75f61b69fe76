//! The [SHA](https://w3c.github.io/webcrypto/#sha) digests SHA-1, SHA-256, SHA-384 and
//! SHA-512: the digest operation's normalization (its parameters are the [`Hash`]; the
//! digest itself is [`Hash::digest`], which the `hash` members of the other families use too).

use boa_engine::{Context, JsResult};
use boa_webidl::type_error;

use crate::algorithm::{Algorithm, Members, Params};
use crate::hash::Hash;

/// The SHA family.
pub(crate) struct Sha;

impl Algorithm for Sha {
    fn normalize(&self, members: &Members<'_>, _ctx: &mut Context) -> JsResult<Params> {
        let name = members.name;
        let hash = Hash::from_name(name)
            .ok_or_else(|| type_error(format!("{name} is not a digest algorithm")))?;
        Ok(Box::new(hash))
    }
}
