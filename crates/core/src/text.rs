//! Errors located in user text (strategy and rules files, command-line values): the
//! position as `origin:line:column` and a short excerpt of the offending line.
//!
//! A line may be megabytes long, so an error quotes at most [`EXCERPT_CHARS`] characters of
//! it, never the whole of it.

/// Most characters of a line quoted in an error, and of a message that quotes user text.
pub const EXCERPT_CHARS: usize = 60;

/// 1-based line and column of byte offset `at` in `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = floor_char_boundary(text, at.min(text.len()));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before, |nl| &before[nl + 1..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// `origin:line:column: message (at `excerpt`)` for an error at byte offset `at` of `text`;
/// the message and the excerpt are shortened to a few dozen characters.
pub fn located(origin: &str, text: &str, at: usize, message: &str) -> String {
    let (line, column) = line_col(text, at);
    let source = text.lines().nth(line - 1).unwrap_or("");
    format!(
        "{origin}:{line}:{column}: {} (at `{}`)",
        shorten(message, 4 * EXCERPT_CHARS),
        excerpt(source, column - 1)
    )
}

/// At most [`EXCERPT_CHARS`] characters of `line` around character `column` (0-based),
/// trimmed, with `…` where something was cut.
pub fn excerpt(line: &str, column: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= EXCERPT_CHARS {
        return line.trim().to_string();
    }
    let start = column
        .saturating_sub(EXCERPT_CHARS / 3)
        .min(chars.len() - EXCERPT_CHARS);
    let end = start + EXCERPT_CHARS;
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(&chars[start..end]);
    if end < chars.len() {
        out.push('…');
    }
    out.trim().to_string()
}

/// `text` cut to at most `max` characters (plus `…`), on one line.
pub fn shorten(text: &str, max: usize) -> String {
    let one_line = text.trim().replace('\n', " ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut out: String = one_line.chars().take(max).collect();
    out.push('…');
    out
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_centred_on_the_column() {
        let line = format!("{}BAD{}", "a".repeat(10_000), "b".repeat(10_000));
        let cut = excerpt(&line, 10_000);
        assert!(
            cut.contains("BAD") && cut.chars().count() <= EXCERPT_CHARS + 2,
            "{cut}"
        );
        assert_eq!(excerpt("  short  ", 0), "short");
        let message = located("f.toml", &format!("x = 1\n{line}\n"), 6 + 10_000, "bad");
        assert!(
            message.starts_with("f.toml:2:10001: bad (at `…"),
            "{message}"
        );
        assert!(message.len() < 200);
    }
}
