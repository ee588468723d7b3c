//! Where a command's results go: a table on standard output, plus tidy CSV in a file
//! (`--out FILE`, written atomically) or CSV alone on standard output (`--out -`).

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::report::csv::{AtomicFile, write_rows};

/// The destination named by `--out`.
pub enum Output {
    /// The table on standard output.
    Table,
    /// The table on standard output and CSV in a file.
    TableAndFile(AtomicFile),
    /// CSV on standard output (`--out -`), no table.
    CsvStdout,
}

impl Output {
    /// Opens the destination; an unwritable path fails here, before any work (exit 2).
    pub fn open(out: Option<&Path>) -> Result<Output> {
        Ok(match out {
            None => Output::Table,
            Some(path) if path == Path::new("-") => Output::CsvStdout,
            Some(path) => Output::TableAndFile(AtomicFile::create(path)?),
        })
    }

    /// Writes the results; the file, if any, is committed only after all of it is written.
    pub fn write<R: Serialize>(self, table: &str, rows: impl IntoIterator<Item = R>) -> Result<()> {
        match self {
            Output::Table => to_stdout(table.as_bytes()),
            Output::TableAndFile(mut file) => {
                write_rows(file.writer(), rows)?;
                file.commit()?;
                to_stdout(table.as_bytes())
            }
            Output::CsvStdout => {
                let mut buffer = Vec::new();
                write_rows(&mut buffer, rows)?;
                to_stdout(&buffer)
            }
        }
    }
}

/// Writes to standard output; a closed pipe (`raven simulate | head`) is not an error.
pub fn to_stdout(bytes: &[u8]) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::Runtime(format!(
            "cannot write to standard output: {e}"
        ))),
        _ => Ok(()),
    }
}
