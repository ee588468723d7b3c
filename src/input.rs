//! The text users hand raven (strategy and rules files, shard files), read as a stream with
//! bounds.
//!
//! A path may name anything — `/dev/zero`, a FIFO, a 50 MB file of one line — so a read
//! stops at a size limit ([`MAX_BYTES`] for a strategy or rules file), and as soon as one
//! line passes a length no legitimate line comes near ([`MAX_LINE_BYTES`]): memory stays at
//! the limits, whatever the input. Errors located in the text are the core's
//! ([`crate::text`]).

use std::io::Read;
use std::path::Path;

/// Largest file accepted: strategy and rules files are a few kilobytes.
pub const MAX_BYTES: u64 = 1 << 20;

/// Longest line of a strategy or rules file: their longest lines are descriptions of a few
/// hundred characters.
pub const MAX_LINE_BYTES: u64 = 16 << 10;

/// Reads `path` as UTF-8 text of at most [`MAX_BYTES`] and lines of at most
/// [`MAX_LINE_BYTES`]; the error says what is wrong, to follow "cannot read FILE: " (the
/// caller names the file).
pub fn read_text(path: &Path) -> Result<String, String> {
    read_limited(path, MAX_BYTES, MAX_LINE_BYTES, || {
        format!(
            "larger than {} KiB, the limit for a strategy or rules file",
            MAX_BYTES / 1024
        )
    })
}

/// Reads `path` as UTF-8 text of at most `max` bytes (`too_large` says so otherwise) and
/// lines of at most `max_line` bytes; the error says what is wrong, to follow "cannot read
/// FILE: ".
pub fn read_limited(
    path: &Path,
    max: u64,
    max_line: u64,
    too_large: impl FnOnce() -> String,
) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    let mut bounded = Bounded::lines(file, max, max_line);
    bounded
        .read_to_end(&mut bytes)
        .map_err(|e| match Bounded::<std::fs::File>::limit(&e) {
            Some(Limit::Total) => too_large(),
            Some(Limit::Line(_)) | None => e.to_string(),
        })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Which bound a [`Bounded`] stream passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The whole stream's size.
    Total,
    /// The length of this line (1-based).
    Line(u64),
}

/// The error a [`Bounded`] stream returns, carried inside an `std::io::Error`.
#[derive(Debug)]
struct Passed {
    limit: Limit,
    max: u64,
}

impl std::fmt::Display for Passed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let size = if self.max >= 1 << 20 {
            format!("{} MiB", self.max >> 20)
        } else {
            format!("{} KiB", self.max >> 10)
        };
        match self.limit {
            Limit::Total => write!(f, "larger than {size}"),
            Limit::Line(line) => write!(
                f,
                "line {line} is longer than {size}, more than any line it could legitimately \
                 hold"
            ),
        }
    }
}

impl std::error::Error for Passed {}

/// A stream read with two bounds: its whole size, and the length of each line. A read that
/// passes either fails at once (`InvalidData`, the message saying which and where), so a
/// reader that waits for a newline never holds more than one line's bound.
///
/// For CSV ([`Bounded::records`]) a "line" is a record: a newline inside a quoted field does
/// not end it, so a field that never closes is bounded too.
pub struct Bounded<R> {
    inner: R,
    max_total: u64,
    total: u64,
    max_line: u64,
    /// Bytes since the current line began.
    run: u64,
    /// The current line's number, from 1.
    line: u64,
    /// Whether quotes are tracked (CSV), and whether the stream is inside one.
    csv: bool,
    quoted: bool,
}

impl<R: Read> Bounded<R> {
    /// `inner`, refused past `max_total` bytes or a line of more than `max_line` bytes.
    pub fn lines(inner: R, max_total: u64, max_line: u64) -> Bounded<R> {
        Bounded {
            inner,
            max_total,
            total: 0,
            max_line,
            run: 0,
            line: 1,
            csv: false,
            quoted: false,
        }
    }

    /// As [`Bounded::lines`], for CSV records starting at line `line` (1-based).
    pub fn records(inner: R, max_total: u64, max_line: u64, line: u64) -> Bounded<R> {
        Bounded {
            csv: true,
            line,
            ..Bounded::lines(inner, max_total, max_line)
        }
    }

    /// Which bound `error` (from a read of a [`Bounded`] stream) says was passed, if any.
    pub fn limit(error: &std::io::Error) -> Option<Limit> {
        error
            .get_ref()
            .and_then(|e| e.downcast_ref::<Passed>())
            .map(|p| p.limit)
    }

    fn passed(&self, limit: Limit) -> std::io::Error {
        let max = match limit {
            Limit::Total => self.max_total,
            Limit::Line(_) => self.max_line,
        };
        std::io::Error::new(std::io::ErrorKind::InvalidData, Passed { limit, max })
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // Never more than one byte past the size bound is asked for, so `/dev/zero` is
        // refused after `max_total + 1` bytes, not a buffer later.
        let room = (self.max_total + 1 - self.total.min(self.max_total + 1)).max(1);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        self.total += n as u64;
        if self.total > self.max_total {
            return Err(self.passed(Limit::Total));
        }
        for &byte in &buf[..n] {
            match byte {
                b'"' if self.csv => self.quoted = !self.quoted,
                b'\n' if !self.quoted => {
                    self.line += 1;
                    self.run = 0;
                    continue;
                }
                _ => {}
            }
            self.run += 1;
            if self.run > self.max_line {
                return Err(self.passed(Limit::Line(self.line)));
            }
        }
        Ok(n)
    }
}

/// The proptest configuration of the parsers' generators: a short run by default (the test
/// suite's), `RAVEN_FUZZ_CASES=N` cases each for a long one (CONTRIBUTING.md, "Fuzzing").
#[cfg(test)]
pub(crate) fn fuzz_config() -> proptest::test_runner::Config {
    let cases = std::env::var("RAVEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    proptest::test_runner::Config {
        cases,
        ..proptest::test_runner::Config::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        std::fs::write(&big, b"#\n".repeat(MAX_BYTES as usize / 2 + 1)).unwrap();
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
        // A line past its bound is refused by its number, a shorter one read.
        let long = dir.path().join("long.toml");
        let mut text = "x = 1\n".repeat(3).into_bytes();
        text.extend(vec![b'#'; MAX_LINE_BYTES as usize + 1]);
        std::fs::write(&long, &text).unwrap();
        let message = read_text(&long).unwrap_err();
        assert!(
            message.starts_with("line 4 is longer than 16 KiB"),
            "{message}"
        );
        text.pop();
        std::fs::write(&long, &text).unwrap();
        assert!(read_text(&long).is_ok());
    }

    /// Generated streams of any shape: the read never holds more than the bounds allow, and
    /// a refusal names the bound that was passed.
    #[test]
    fn bounded_streams_stop_at_their_bounds() {
        // An endless line: refused after the line bound, however much more there is.
        let mut endless = Bounded::lines(std::io::repeat(b'a'), 1 << 30, 1000);
        let mut sink = Vec::new();
        let e = endless.read_to_end(&mut sink).unwrap_err();
        assert_eq!(Bounded::<std::io::Repeat>::limit(&e), Some(Limit::Line(1)));
        assert!(sink.len() <= 1000 + 8192, "{}", sink.len());
        // Endless short lines: refused at the size bound.
        let mut lines = Bounded::lines(std::io::repeat(b'\n'), 5000, 10);
        let e = lines.read_to_end(&mut Vec::new()).unwrap_err();
        assert_eq!(Bounded::<std::io::Repeat>::limit(&e), Some(Limit::Total));
        // A quoted CSV field that never closes is one record, bounded as a line.
        let open = b"unit,x\n0,\"a\n".iter().chain(b"b\n".iter().cycle());
        let open: Vec<u8> = open.take(100_000).copied().collect();
        let mut csv = Bounded::records(&open[..], 1 << 20, 1000, 5);
        let e = csv.read_to_end(&mut Vec::new()).unwrap_err();
        assert_eq!(Bounded::<&[u8]>::limit(&e), Some(Limit::Line(6)));
        // Exactly at the bounds: read whole.
        let exact = [vec![b'x'; 10], vec![b'\n'], vec![b'y'; 10]].concat();
        let mut read = Vec::new();
        Bounded::lines(&exact[..], 21, 10)
            .read_to_end(&mut read)
            .unwrap();
        assert_eq!(read, exact);
    }
}
