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

/// The longest chat line, in characters (Unicode scalar values), after
/// cleaning.
pub const CHAT_MAX_CHARS: usize = 500;
/// The longest display name, in characters, after cleaning.
pub const NAME_MAX_CHARS: usize = 32;
/// The name of a player whose name cleans to nothing.
pub const DEFAULT_PLAYER_NAME: &str = "Player";
/// The name of a spectator whose name cleans to nothing.
pub const DEFAULT_SPECTATOR_NAME: &str = "Spectator";

/// A display name as everyone is shown it: cleaned exactly like a chat
/// line (so a name cannot carry what a chat line may not), cut to
/// [`NAME_MAX_CHARS`], and `fallback` when nothing is left. Players and
/// spectators alike: a spectator's name is shown in the `from` of its
/// chat lines. (Names used to keep direction overrides and to be trimmed
/// before their control characters went, so a name could still start
/// with a space or turn the line it heads backwards; docs/PROTOCOL.md
/// promises the same cleaning as chat.)
pub fn clean_name(name: &str, fallback: &str) -> String {
    let n = clean_chat(name, NAME_MAX_CHARS);
    if n.is_empty() {
        fallback.to_string()
    } else {
        n
    }
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

    #[test]
    fn names_are_cleaned_like_chat_then_cut_to_32() {
        // Controls and overrides go first, then the spaces they hid.
        assert_eq!(clean_name("\0 Eve\u{202E} \t", "Spectator"), "Eve");
        assert_eq!(clean_name(" \u{2066}\n ", "Spectator"), "Spectator");
        assert_eq!(clean_name("", DEFAULT_PLAYER_NAME), "Player");
        assert_eq!(clean_name(&"ü".repeat(40), "Player"), "ü".repeat(32));
    }
}
