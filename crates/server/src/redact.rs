//! Secrets out of what the server prints: the password in a database or
//! NATS URL (`postgres://user:password@host/db`, `?password=...`) is
//! replaced by `***` wherever a URL is shown (the start-up line, logs),
//! and every error a failed start returns is scrubbed of those passwords,
//! whichever library wrote the message.

/// What a redacted secret is shown as.
const HIDDEN: &str = "***";

/// `url` with its password (in the user info, or a `password` query
/// parameter) replaced by `***`. A URL without one is returned as it is.
pub fn redact_url(url: &str) -> String {
    let mut out = url.to_string();
    for secret in url_secrets(url) {
        out = out.replace(&secret, HIDDEN);
    }
    out
}

/// The secrets a URL holds: the password of its user info and the values
/// of its query parameters whose name mentions a password, each also
/// percent-decoded (a library may print either form).
pub fn url_secrets(url: &str) -> Vec<String> {
    let mut secrets = Vec::new();
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    // The authority ends at the path, query or fragment; its user info
    // at its last `@`.
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if let Some((userinfo, _host)) = authority.rsplit_once('@') {
        if let Some((_user, password)) = userinfo.split_once(':') {
            secrets.push(password.to_string());
        }
    }
    if let Some((_, query)) = rest.split_once('?') {
        let query = query.split('#').next().unwrap_or(query);
        for pair in query.split('&') {
            if let Some((key, value)) = pair.split_once('=') {
                if key.to_ascii_lowercase().contains("password") {
                    secrets.push(value.to_string());
                }
            }
        }
    }
    let decoded: Vec<String> = secrets.iter().map(|s| percent_decode(s)).collect();
    secrets.extend(decoded);
    // Longest first, so that a secret containing another is replaced
    // whole; empty ones hide nothing.
    secrets.retain(|s| !s.is_empty());
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets.dedup();
    secrets
}

/// `text` with every one of `secrets` replaced by `***`.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets {
        out = out.replace(secret.as_str(), HIDDEN);
    }
    out
}

/// An error with every message of its chain scrubbed of `secrets` (the
/// chain is kept: `{:?}` still shows each cause).
pub fn scrub_error(error: anyhow::Error, secrets: &[String]) -> anyhow::Error {
    if secrets.is_empty() {
        return error;
    }
    let mut messages: Vec<String> = error
        .chain()
        .map(|e| scrub(&e.to_string(), secrets))
        .collect();
    let innermost = messages.pop().unwrap_or_default();
    messages
        .into_iter()
        .rev()
        .fold(anyhow::Error::msg(innermost), |e, outer| e.context(outer))
}

/// Percent-decoding for the secrets' second form; a malformed escape is
/// kept as it is.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_urls_are_hidden() {
        assert_eq!(
            redact_url("postgres://u:secret@db:5432/x?sslmode=disable"),
            "postgres://u:***@db:5432/x?sslmode=disable"
        );
        assert_eq!(
            redact_url("postgres://db/x?user=u&password=secret&options=-c"),
            "postgres://db/x?user=u&password=***&options=-c"
        );
        assert_eq!(
            redact_url("nats://n:p%40ss@nats:4222"),
            "nats://n:***@nats:4222"
        );
        // A password holding `@` and `:` is cut at the last `@`.
        assert_eq!(redact_url("postgres://u:a:b@c@h/x"), "postgres://u:***@h/x");
        for plain in [
            "postgres://u@db/x",
            "sqlite://citadel.sqlite",
            "memory:",
            "nats://127.0.0.1:4222",
        ] {
            assert_eq!(redact_url(plain), plain);
        }
    }

    #[test]
    fn an_error_chain_is_scrubbed_of_both_forms() {
        let secrets = url_secrets("postgres://u:p%40ss@h/x");
        let e = anyhow::anyhow!("refused for p@ss")
            .context("cannot open the database postgres://u:p%40ss@h/x");
        let e = scrub_error(e, &secrets);
        let shown = format!("{e:?} {e:#} {e}");
        assert!(
            !shown.contains("p@ss") && !shown.contains("p%40ss"),
            "{shown}"
        );
        assert_eq!(e.chain().count(), 2, "the causes are kept");
        assert!(shown.contains("refused for ***"), "{shown}");
    }
}
