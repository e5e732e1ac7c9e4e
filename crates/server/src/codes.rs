//! Join codes (games) and invite codes (campaigns): six characters that
//! people read aloud and type, from one unambiguous alphabet.

use rand::Rng;

/// Unambiguous characters: no 0/O, 1/I/L.
pub const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// Characters in a code.
pub const LENGTH: usize = 6;

/// A random code. Uniqueness is the caller's (a registry lookup or a
/// store conflict).
pub fn random_code<R: Rng + ?Sized>(rng: &mut R) -> String {
    (0..LENGTH)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

/// A code as typed by a person: trimmed, upper case.
pub fn normalize(code: &str) -> String {
    code.trim().to_ascii_uppercase()
}

/// Does `code` look like a code (after [`normalize`]): six characters of
/// the alphabet?
pub fn is_code(code: &str) -> bool {
    code.len() == LENGTH && code.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_six_characters_of_the_alphabet() {
        assert!(is_code("K7QX2M"));
        for not in ["K7QX2", "K7QX2MM", "K7QX0M", "k7qx2m", "K7QX M", "ÄÄÄ"] {
            assert!(!is_code(not), "{not}");
        }
    }

    #[test]
    fn codes_use_only_the_unambiguous_alphabet() {
        let mut rng = rand::thread_rng();
        for _ in 0..200 {
            let c = random_code(&mut rng);
            assert_eq!(c.len(), LENGTH);
            assert!(c.bytes().all(|b| ALPHABET.contains(&b)), "{c}");
        }
        assert_eq!(normalize(" abc234 "), "ABC234");
    }
}
