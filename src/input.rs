//! The small text files users hand raven (strategy and rules files), read with a size limit.
//!
//! A path may name anything — `/dev/zero`, a FIFO, a 50 MB file of one line — so a read
//! stops at [`MAX_BYTES`].

use std::io::Read;
use std::path::Path;

/// Largest file accepted: strategy and rules files are a few kilobytes.
pub const MAX_BYTES: u64 = 1 << 20;

/// Reads `path` as UTF-8 text of at most [`MAX_BYTES`]; the error says what is wrong, to
/// follow "cannot read FILE: " (the caller names the file).
pub fn read_text(path: &Path) -> Result<String, String> {
    read_limited(path, MAX_BYTES, || {
        format!(
            "larger than {} KiB, the limit for a strategy or rules file",
            MAX_BYTES / 1024
        )
    })
}

/// Reads `path` as UTF-8 text of at most `max` bytes (`too_large` says so otherwise); the
/// error says what is wrong, to follow "cannot read FILE: ".
pub fn read_limited(
    path: &Path,
    max: u64,
    too_large: impl FnOnce() -> String,
) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_BYTES as usize + 1]).unwrap();
        assert!(
            read_text(&big)
                .unwrap_err()
                .contains("larger than 1024 KiB")
        );
        let ok = dir.path().join("ok.toml");
        std::fs::write(&ok, "x = 1\n").unwrap();
        assert_eq!(read_text(&ok).unwrap(), "x = 1\n");
        std::fs::write(&ok, [b'x', 0xff]).unwrap();
        assert!(read_text(&ok).unwrap_err().contains("offset 1"));
    }
}
