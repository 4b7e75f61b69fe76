//! [Subresource Integrity](https://w3c.github.io/webappsec-subresource-integrity/): the
//! metadata of a request's `integrity` and whether a response's bytes match it, as `fetch()`
//! checks it (the Fetch Standard's main fetch: when the request's integrity metadata is not
//! the empty string, the response body is fully read and a mismatch is a network error).
//!
//! - [`parse_metadata`] is SRI's "parse metadata": the string is split on ASCII whitespace;
//!   in each item, what follows a `?` (options) is ignored, the algorithm is what precedes
//!   the first `-` and the value what follows it; items whose algorithm is not `sha256`,
//!   `sha384` or `sha512` (ASCII case-insensitive) are skipped.
//! - [`strongest_metadata`] is "get the strongest metadata": the items of the strongest
//!   algorithm present (SHA-512 > SHA-384 > SHA-256).
//! - [`matches()`] is "does response match metadataList": with no valid item the bytes match;
//!   otherwise they match when one item of the strongest algorithm has the bytes' digest as
//!   its value. The value is compared with the digest's base64 encoding (RFC 4648 section 4,
//!   padded, as the spec says) and, as Content Security Policy's hash sources and browsers
//!   allow, with its base64url encoding (section 5, padded or not).
//!
//! The digests are RustCrypto's `sha2`; the encodings the `base64` crate's.
//!
//! ```
//! use boa_net::integrity::{matches, parse_metadata, Algorithm};
//!
//! // printf 'alert(1)' | openssl dgst -sha256 -binary | base64
//! let sha256 = "sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=";
//! assert!(matches(b"alert(1)", sha256));
//! assert!(!matches(b"alert(2)", sha256));
//! // Options after `?` are ignored; an unknown algorithm is skipped (no valid item: a match).
//! assert!(matches(b"alert(1)", &format!("{sha256}?ct=application/javascript")));
//! assert!(matches(b"anything", "md5-AAAA"));
//! let parsed = parse_metadata("sha384-abc?x sha1-def SHA512-ghi");
//! assert_eq!(parsed.len(), 2);
//! assert_eq!(parsed[1].algorithm, Algorithm::Sha512);
//! ```

use base64::engine::general_purpose::{STANDARD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine as _;
use sha2::Digest as _;

/// A hash algorithm SRI knows, ordered by strength (the weakest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Algorithm {
    /// SHA-256 (`sha256`).
    Sha256,
    /// SHA-384 (`sha384`).
    Sha384,
    /// SHA-512 (`sha512`).
    Sha512,
}

impl Algorithm {
    /// The algorithm a token names (a valid SRI hash algorithm token, ASCII
    /// case-insensitive), or `None`.
    pub fn from_token(token: &str) -> Option<Self> {
        match token.to_ascii_lowercase().as_str() {
            "sha256" => Some(Self::Sha256),
            "sha384" => Some(Self::Sha384),
            "sha512" => Some(Self::Sha512),
            _ => None,
        }
    }

    /// The digest of `bytes` with this algorithm.
    pub fn digest(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha256 => sha2::Sha256::digest(bytes).to_vec(),
            Self::Sha384 => sha2::Sha384::digest(bytes).to_vec(),
            Self::Sha512 => sha2::Sha512::digest(bytes).to_vec(),
        }
    }
}

/// One item of integrity metadata: an algorithm and the expected digest as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntegrityItem {
    /// The hash algorithm.
    pub algorithm: Algorithm,
    /// The expected digest, base64 (or base64url) as written; empty when the item had none.
    pub value: String,
}

impl IntegrityItem {
    /// Whether `digest` (bytes hashed with this item's algorithm) is this item's value.
    fn matches_digest(&self, digest: &[u8]) -> bool {
        self.value == STANDARD.encode(digest)
            || self.value == URL_SAFE.encode(digest)
            || self.value == URL_SAFE_NO_PAD.encode(digest)
    }
}

/// SRI's [parse metadata](https://w3c.github.io/webappsec-subresource-integrity/#parse-metadata):
/// the items of `metadata` whose algorithm is known, in order (see the [module docs](self)).
pub fn parse_metadata(metadata: &str) -> Vec<IntegrityItem> {
    metadata
        .split_ascii_whitespace()
        .filter_map(|item| {
            // Options (after `?`) are ignored.
            let expression = item.split('?').next().unwrap_or_default();
            let (token, value) = expression.split_once('-').unwrap_or((expression, ""));
            Some(IntegrityItem {
                algorithm: Algorithm::from_token(token)?,
                value: value.to_owned(),
            })
        })
        .collect()
}

/// SRI's [get the strongest metadata](https://w3c.github.io/webappsec-subresource-integrity/#get-the-strongest-metadata):
/// the items of `items` whose algorithm is the strongest among them, in order.
pub fn strongest_metadata(items: &[IntegrityItem]) -> Vec<&IntegrityItem> {
    let Some(strongest) = items.iter().map(|i| i.algorithm).max() else {
        return Vec::new();
    };
    items.iter().filter(|i| i.algorithm == strongest).collect()
}

/// SRI's [does response match metadataList](https://w3c.github.io/webappsec-subresource-integrity/#does-response-match-metadatalist)
/// for a response whose body is `bytes` (a server runtime has no opaque responses to refuse):
/// `true` when `metadata` has no valid item, or one item of the strongest algorithm matches.
pub fn matches(bytes: &[u8], metadata: &str) -> bool {
    let parsed = parse_metadata(metadata);
    let strongest = strongest_metadata(&parsed);
    let Some(first) = strongest.first() else {
        return true;
    };
    let digest = first.algorithm.digest(bytes);
    strongest.iter().any(|item| item.matches_digest(&digest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(algorithm: Algorithm, bytes: &[u8]) -> String {
        STANDARD.encode(algorithm.digest(bytes))
    }

    #[test]
    fn known_digests() {
        // The empty string's digests (FIPS 180-4 test vectors, base64-encoded).
        assert_eq!(
            b64(Algorithm::Sha256, b""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
        assert_eq!(
            b64(Algorithm::Sha384, b""),
            "OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"
        );
        assert_eq!(
            b64(Algorithm::Sha512, b""),
            "z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="
        );
    }

    #[test]
    fn parse_splits_on_ascii_whitespace_and_ignores_options() {
        let parsed = parse_metadata("\t sha256-AAA?foo?bar\nsha384-BBB\x0c sha512-CCC? \r");
        let got: Vec<_> = parsed
            .iter()
            .map(|i| (i.algorithm, i.value.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Algorithm::Sha256, "AAA"),
                (Algorithm::Sha384, "BBB"),
                (Algorithm::Sha512, "CCC")
            ]
        );
    }

    #[test]
    fn parse_skips_unknown_algorithms_and_keeps_empty_values() {
        let parsed = parse_metadata("md5-AAA sha1-BBB sha-CCC sha256 SHA384-DDD ?sha512-x");
        let got: Vec<_> = parsed
            .iter()
            .map(|i| (i.algorithm, i.value.as_str()))
            .collect();
        assert_eq!(got, [(Algorithm::Sha256, ""), (Algorithm::Sha384, "DDD")]);
        assert!(parse_metadata("").is_empty());
        assert!(parse_metadata("   ").is_empty());
    }

    #[test]
    fn no_valid_metadata_matches() {
        assert!(matches(b"x", ""));
        assert!(matches(b"x", "  "));
        assert!(matches(b"x", "md5-AAAA sha1-BBBB foo"));
    }

    #[test]
    fn each_algorithm_matches_its_digest_only() {
        for algorithm in [Algorithm::Sha256, Algorithm::Sha384, Algorithm::Sha512] {
            let token = match algorithm {
                Algorithm::Sha256 => "sha256",
                Algorithm::Sha384 => "sha384",
                Algorithm::Sha512 => "sha512",
            };
            let good = format!("{token}-{}", b64(algorithm, b"body"));
            assert!(matches(b"body", &good), "{good}");
            assert!(!matches(b"bodY", &good), "{good}");
            // An item without a value never matches.
            assert!(!matches(b"body", token));
            assert!(!matches(b"body", &format!("{token}-")));
        }
    }

    #[test]
    fn the_strongest_algorithm_decides() {
        let ok256 = format!("sha256-{}", b64(Algorithm::Sha256, b"x"));
        let ok384 = format!("sha384-{}", b64(Algorithm::Sha384, b"x"));
        let bad384 = format!("sha384-{}", b64(Algorithm::Sha384, b"y"));
        let ok512 = format!("sha512-{}", b64(Algorithm::Sha512, b"x"));
        // A valid weaker hash does not save an invalid stronger one.
        assert!(!matches(b"x", &format!("{ok256} {bad384}")));
        // A valid stronger hash wins over an invalid weaker one.
        assert!(matches(b"x", &format!("sha256-AAAA {ok384}")));
        // Several of the strongest: one match is enough, in any position.
        assert!(matches(b"x", &format!("{bad384} {ok384}")));
        assert!(matches(b"x", &format!("{ok384} {bad384} {ok256}")));
        assert!(!matches(b"x", &format!("{bad384} sha384-")));
        // Unknown algorithms do not count as stronger.
        assert!(matches(b"x", &format!("{ok512} sha1024-AAAA")));
        let parsed = parse_metadata(&format!("{ok256} {bad384} {ok384} sha1-x"));
        let strongest = strongest_metadata(&parsed);
        assert_eq!(strongest.len(), 2);
        assert!(strongest.iter().all(|i| i.algorithm == Algorithm::Sha384));
        assert!(strongest_metadata(&[]).is_empty());
    }

    #[test]
    fn the_algorithm_token_is_case_insensitive() {
        let value = b64(Algorithm::Sha256, b"x");
        assert!(matches(b"x", &format!("SHA256-{value}")));
        assert!(matches(b"x", &format!("Sha256-{value}?opt")));
    }

    #[test]
    fn the_value_is_case_sensitive() {
        // A digest whose base64 has letters: flipping the case of one must not match.
        let value = b64(Algorithm::Sha256, b"x");
        let flipped: String = value
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        assert_ne!(value, flipped);
        assert!(!matches(b"x", &format!("sha256-{flipped}")));
    }

    #[test]
    fn base64url_values_match_padded_or_not() {
        // Find a body whose SHA-256 base64 has both `+` and `/` (so base64url differs).
        let body = (0u32..10_000)
            .map(|n| n.to_string())
            .find(|s| {
                let v = b64(Algorithm::Sha256, s.as_bytes());
                v.contains('+') && v.contains('/')
            })
            .unwrap_or_default();
        assert!(!body.is_empty());
        let digest = Algorithm::Sha256.digest(body.as_bytes());
        let url = URL_SAFE.encode(&digest);
        let url_no_pad = URL_SAFE_NO_PAD.encode(&digest);
        assert!(url.contains('-') && url.contains('_') && url.ends_with('='));
        assert!(matches(body.as_bytes(), &format!("sha256-{url}")));
        assert!(matches(body.as_bytes(), &format!("sha256-{url_no_pad}")));
        assert!(!matches(b"other", &format!("sha256-{url}")));
        // Standard base64 without its padding is neither encoding.
        let std_no_pad = STANDARD.encode(&digest).trim_end_matches('=').to_owned();
        assert!(!matches(body.as_bytes(), &format!("sha256-{std_no_pad}")));
    }
}
