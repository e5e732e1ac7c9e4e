//! Cleaning text that other people see (issue 17, item 9).

/// Is `c` a character that changes how *other* text is shown rather than
/// being text: a control character (NUL, ESC and the terminal sequences
/// it starts, newlines, …) or a bidirectional override that can make a
/// line read backwards?
pub fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// A chat line as everyone is shown it: control characters and
/// direction overrides removed, then trimmed, then cut to `max_chars`
/// characters.
pub fn clean_chat(text: &str, max_chars: usize) -> String {
    let kept: String = text.chars().filter(|c| !is_hidden_control(*c)).collect();
    kept.trim().chars().take(max_chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_loses_controls_and_overrides() {
        assert_eq!(clean_chat("hi\0 there", 500), "hi there");
        assert_eq!(clean_chat("\u{1b}[31mred\u{1b}[0m", 500), "[31mred[0m");
        assert_eq!(clean_chat("a\r\nb\tc", 500), "abc");
        assert_eq!(clean_chat("\u{202E}olleh", 500), "olleh");
        assert_eq!(clean_chat(" \0 x \u{7f}", 500), "x");
        assert_eq!(clean_chat("\0\0", 500), "");
        assert_eq!(clean_chat(&"é".repeat(600), 500).chars().count(), 500);
        assert_eq!(clean_chat("Watch the door", 500), "Watch the door");
    }
}
