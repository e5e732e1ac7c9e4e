//! Secrets the server hands out and checks: random tokens and ids, what is
//! kept of a token (its hash), and reading a bearer token from a request.
//! One home for each, so every token in the server is made the same way.

use axum::http::{header, HeaderMap};
use rand::rngs::OsRng;
use rand::RngCore;

/// `count` bytes from the operating system's generator, as hex. Used for
/// every secret (seat, login and campaign tokens) and for ids.
pub fn random_hex(count: usize) -> String {
    let mut bytes = vec![0u8; count];
    OsRng.fill_bytes(&mut bytes);
    hex(&bytes)
}

/// SHA-256 of a token, hex: what is kept of a secret, so a leaked
/// database holds no usable token.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token of an `Authorization: Bearer <token>` header (the scheme in
/// any case, surrounding spaces ignored).
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_hex_of_the_asked_length() {
        let a = random_hex(16);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, random_hex(16));
    }

    #[test]
    fn a_hash_is_stable_and_hides_the_token() {
        assert_eq!(token_hash("abc"), token_hash("abc"));
        assert_ne!(token_hash("abc"), token_hash("abd"));
        assert!(!token_hash("abc").contains("abc"));
    }

    #[test]
    fn bearer_tokens_are_read_from_the_authorization_header() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(header::AUTHORIZATION, "Bearer abc".parse().expect("value"));
        assert_eq!(bearer(&h), Some("abc"));
        h.insert(
            header::AUTHORIZATION,
            "bearer  abc ".parse().expect("value"),
        );
        assert_eq!(bearer(&h), Some("abc"));
        h.insert(header::AUTHORIZATION, "Basic abc".parse().expect("value"));
        assert_eq!(bearer(&h), None);
        h.insert(header::AUTHORIZATION, "Bearer ".parse().expect("value"));
        assert_eq!(bearer(&h), None);
    }
}
