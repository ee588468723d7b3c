//! The one way raven writes results: standard output, and output files reserved before any
//! work starts and written whole at the end. Every subcommand goes through here, so the
//! policy below holds for all of them.
//!
//! What `--out PATH` (or a file of `raven report`) does with what is already at `PATH`:
//!
//! | at `PATH` | what raven does |
//! |---|---|
//! | nothing | creates a regular file |
//! | a regular file we may write | replaces it atomically (temporary file beside it, renamed); its permissions are kept |
//! | a read-only regular file | refuses (exit 2): read-only is a request not to change it |
//! | a symbolic link | follows it: the file it points to is treated by these rules, the link stays; a link to nothing is refused |
//! | a FIFO or pipe (`>(gzip > x.gz)`) | writes through, when the results are complete; refused if no process reads it (it would hang) |
//! | a character device (`/dev/null`, a terminal) | writes through |
//! | a directory, block device or socket | refuses (exit 2) |
//!
//! The check happens when the command starts (reservation), so a bad path fails in
//! milliseconds, before minutes of work; the content is written only when complete, so a
//! failed or interrupted run leaves the old file (or nothing) in place. A closed pipe on
//! standard output or on a FIFO is not an error: the reader has all it wanted.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::report::csv::write_rows;

use super::interrupt;

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
    /// Reserves the destination; an unusable path fails here, before any work (exit 2).
    pub fn open(out: Option<&Path>) -> Result<Output> {
        Ok(match out {
            None => Output::Table,
            Some(path) if path == Path::new("-") => Output::CsvStdout,
            Some(path) => Output::TableAndFile(AtomicFile::create(path)?),
        })
    }

    /// Whether the CSV goes to standard output (so there is no room for the table).
    pub fn is_stdout(&self) -> bool {
        matches!(self, Output::CsvStdout)
    }

    /// Writes the results; the file, if any, is committed only after all of it is written.
    pub fn write<R: Serialize>(self, table: &str, rows: impl IntoIterator<Item = R>) -> Result<()> {
        interrupt::check()?;
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

impl Output {
    /// Writes finished CSV bytes (a shard file, merged shards) as [`Output::write`] writes
    /// rows: the file committed whole, then `table` on standard output unless the CSV is there.
    pub fn write_bytes(self, table: &str, bytes: &[u8]) -> Result<()> {
        interrupt::check()?;
        match self {
            Output::Table => to_stdout(table.as_bytes()),
            Output::TableAndFile(mut file) => {
                file.writer().extend_from_slice(bytes);
                file.commit()?;
                to_stdout(table.as_bytes())
            }
            Output::CsvStdout => to_stdout(bytes),
        }
    }
}

/// Writes to standard output; a closed pipe (`raven play | head -1`) is not an error.
pub fn to_stdout(bytes: &[u8]) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(Error::Runtime(format!(
            "cannot write to standard output: {e}"
        ))),
        _ => Ok(()),
    }
}

/// An output directory (`report --out DIR`), created if missing. If the command fails or is
/// interrupted before [`OutDir::keep`], a directory it created is removed again (only if
/// empty: it never removes anything it did not make).
pub struct OutDir {
    path: PathBuf,
    created: bool,
}

impl OutDir {
    /// Creates `path` (and missing parents) unless it is a directory already.
    pub fn create(path: &Path) -> Result<OutDir> {
        let created = !path.is_dir();
        // Registered before it exists, so that a signal in between cannot leave it behind.
        if created {
            interrupt::pending().push(path.to_path_buf());
        }
        let made = std::fs::create_dir_all(path).map_err(|e| {
            Error::Input(format!(
                "cannot create output directory {}: {e}",
                path.display()
            ))
        });
        let dir = OutDir {
            path: path.to_path_buf(),
            created,
        };
        made.map(|()| dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The work is done: the directory stays.
    pub fn keep(mut self) {
        self.forget();
        self.created = false;
    }

    fn forget(&self) {
        if self.created {
            interrupt::pending().retain(|p| *p != self.path);
        }
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if self.created {
            self.forget();
            let _ = std::fs::remove_dir(&self.path);
        }
    }
}

/// An output file reserved before the work and written whole by [`AtomicFile::commit`]
/// (see the module documentation for what happens to what is already there). Dropped
/// uncommitted, it leaves nothing behind.
pub struct AtomicFile {
    /// The content, kept in memory until the commit (results are small).
    buffer: Vec<u8>,
    target: Target,
    /// The path as the user gave it, for messages.
    path: PathBuf,
}

/// Where a reserved file's content goes.
enum Target {
    /// A temporary file beside the regular file it will replace (`dest`).
    Replace {
        temp: Option<tempfile::NamedTempFile>,
        dest: PathBuf,
    },
    /// A FIFO or character device, already open.
    Through(File),
}

impl AtomicFile {
    /// Reserves `path` for writing, or refuses it (exit 2) with the reason.
    pub fn create(path: &Path) -> Result<AtomicFile> {
        let refuse = |why: &str| {
            Error::Input(format!(
                "cannot write output file {}: {why}",
                path.display()
            ))
        };
        let target = match std::fs::metadata(path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if std::fs::symlink_metadata(path).is_ok() {
                    return Err(refuse(
                        "it is a symbolic link to a file that does not exist; \
                         raven follows links only to existing files",
                    ));
                }
                let dir = parent(path);
                if !dir.is_dir() {
                    return Err(refuse(&format!(
                        "directory {} does not exist",
                        dir.display()
                    )));
                }
                replace(path, dir, None).map_err(|e| refuse(&e))?
            }
            Err(e) => return Err(refuse(&e.to_string())),
            Ok(meta) => special(path, &meta).map_err(|e| refuse(&e))?,
        };
        Ok(AtomicFile {
            buffer: Vec::new(),
            target,
            path: path.to_path_buf(),
        })
    }

    /// Where the content goes until committed.
    pub fn writer(&mut self) -> &mut Vec<u8> {
        &mut self.buffer
    }

    /// Writes the content into place: renames the finished temporary file over the target,
    /// or writes it through to a FIFO or device.
    pub fn commit(mut self) -> Result<()> {
        let failed = |e: std::io::Error| {
            Error::Runtime(format!(
                "cannot write output file {}: {e}",
                self.path.display()
            ))
        };
        match &mut self.target {
            Target::Through(file) => match file.write_all(&self.buffer).and_then(|()| file.flush())
            {
                Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(failed(e)),
                _ => Ok(()),
            },
            Target::Replace { temp, dest } => {
                let file = temp.as_mut().expect("present until committed");
                file.write_all(&self.buffer).map_err(failed)?;
                // Under the registry's lock: a signal now waits until the rename is done.
                let mut pending = interrupt::pending();
                interrupt::check()?;
                let temp = temp.take().expect("present until committed");
                let temp_path = temp.path().to_path_buf();
                let result = temp
                    .persist(&*dest)
                    .map(|_| ())
                    .map_err(|e| failed(e.error));
                pending.retain(|p| *p != temp_path);
                result
            }
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Target::Replace { temp, .. } = &mut self.target
            && let Some(temp) = temp.take()
        {
            let mut pending = interrupt::pending();
            let temp_path = temp.path().to_path_buf();
            drop(temp);
            pending.retain(|p| *p != temp_path);
        }
    }
}

/// The directory a path is in (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The target for something that exists at `path` (links followed; `meta` is its metadata).
fn special(path: &Path, meta: &std::fs::Metadata) -> std::result::Result<Target, String> {
    use std::os::unix::fs::FileTypeExt;

    let kind = meta.file_type();
    if kind.is_file() {
        if meta.permissions().readonly() {
            return Err("it is read-only; make it writable or choose another path".into());
        }
        // Whether we may write it (ownership, ACLs); opening without truncating changes nothing.
        OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{e}; choose another path"))?;
        // A link is followed: the file it points to is replaced, the link stays.
        let dest = std::fs::canonicalize(path).map_err(|e| e.to_string())?;
        let dir = parent(&dest).to_path_buf();
        return replace(&dest, &dir, Some(meta.permissions()));
    }
    if kind.is_fifo() {
        return through_fifo(path);
    }
    if kind.is_char_device() {
        return OpenOptions::new()
            .write(true)
            .open(path)
            .map(Target::Through)
            .map_err(|e| e.to_string());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    Err(format!(
        "it is {what}; raven writes only to regular files, FIFOs and character devices"
    ))
}

/// A temporary file in `dir` that will be renamed to `dest`, registered for cleanup.
fn replace(
    dest: &Path,
    dir: &Path,
    permissions: Option<std::fs::Permissions>,
) -> std::result::Result<Target, String> {
    use std::os::unix::fs::PermissionsExt;

    let mut builder = tempfile::Builder::new();
    builder.prefix(".raven-").suffix(".tmp");
    // An ordinary file once in place (tempfile's default is owner-only; the umask applies).
    builder.permissions(PermissionsExt::from_mode(0o644));
    // Registered under the lock, so a signal cannot slip between creating and registering.
    let mut pending = interrupt::pending();
    // tempfile's own message names the temporary path, which would only confuse.
    let temp = builder
        .tempfile_in(dir)
        .map_err(|e| std::io::Error::from(e.kind()).to_string())?;
    pending.push(temp.path().to_path_buf());
    // A replaced file keeps its permission bits exactly (fchmod: no umask), not set-id bits.
    if let Some(old) = permissions {
        let bits = PermissionsExt::from_mode(old.mode() & 0o777);
        temp.as_file()
            .set_permissions(bits)
            .map_err(|e| e.to_string())?;
    }
    Ok(Target::Replace {
        temp: Some(temp),
        dest: dest.to_path_buf(),
    })
}

/// Opens a FIFO for writing without waiting for a reader: with no reader it would block for
/// ever, so that is refused; once open, writes block as usual.
fn through_fifo(path: &Path) -> std::result::Result<Target, String> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;

    let file = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ENXIO) {
                "it is a FIFO that no process is reading (start the reader first)".to_string()
            } else {
                e.to_string()
            }
        })?;
    // SAFETY: fcntl on a file descriptor we own, with flags read from it.
    let cleared = unsafe {
        let fd = file.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
    };
    if !cleared {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok(Target::Through(file))
}
