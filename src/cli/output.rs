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
//!
//! An output that is a directory of files ([`OutDir`]: `report --out DIR`, `man --dir DIR`)
//! replaces only files raven wrote there before, and swaps the finished files in at the end.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::report::csv::write_rows;

use super::interrupt::{self, Pending};

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

/// The file that marks a directory as raven's output, listing the files raven wrote there
/// (one name a line, under a `#` comment). Those files raven may replace on a later run; any
/// other file it would replace is the user's, and is refused unless `--force` asks for it.
pub const MARKER: &str = ".raven-output";

/// The header of [`MARKER`].
const MARKER_HEADER: &str = "# Written by raven: the files below are its output, and a later \
raven command may replace them.\n# Without this file, raven replaces none of them unless \
given --force.\n";

/// A directory of output files (`report --out DIR`, `merge --out DIR`, `man --dir DIR`),
/// built in a staging directory beside it and swapped in whole at the end.
///
/// | at `DIR` | what raven does |
/// |---|---|
/// | nothing (its parent exists) | the finished staging directory is renamed to `DIR` |
/// | a directory | each finished file is renamed into it, all of them under the signal lock |
/// | anything else | refuses (exit 2) |
///
/// In an existing directory raven replaces only files it wrote there before (listed in its
/// [`MARKER`]); a file of the same name that raven did not write, a read-only one or a
/// subdirectory is refused (exit 2) with its name, before any work — `--force` lets raven
/// replace files it did not write, never read-only ones. Other files in the directory are
/// left alone. Until [`OutDir::commit`], nothing in `DIR` changes: a failed or interrupted
/// run removes the staging directory and leaves the previous output whole.
pub struct OutDir {
    /// The directory as the user named it, for messages.
    path: PathBuf,
    /// Whether it exists (else the staging directory becomes it).
    exists: bool,
    /// Replace files raven did not write.
    force: bool,
    /// Where the files are written until the commit; `None` once committed.
    staging: Option<PathBuf>,
}

impl OutDir {
    /// Reserves `path`: checks what is there and makes the staging directory beside it (a
    /// path that cannot be written fails here, before any work).
    pub fn reserve(path: &Path, force: bool) -> Result<OutDir> {
        let refuse = |why: &str| {
            Error::Input(format!(
                "cannot write output directory {}: {why}",
                path.display()
            ))
        };
        let exists = match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => true,
            Ok(_) => {
                return Err(refuse(
                    "it is not a directory; give a directory, or a path that does not exist",
                ));
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if std::fs::symlink_metadata(path).is_ok() {
                    return Err(refuse("it is a symbolic link to nothing"));
                }
                false
            }
            Err(e) => return Err(refuse(&e.to_string())),
        };
        // Beside the directory (same file system, so the commit is a rename), inside the
        // directory the link or `..` leads to.
        let resolved = if exists {
            std::fs::canonicalize(path).map_err(|e| refuse(&e.to_string()))?
        } else {
            path.to_path_buf()
        };
        let beside = match resolved.parent() {
            Some(p) if p.as_os_str().is_empty() => PathBuf::from("."),
            Some(p) => p.to_path_buf(),
            None => resolved.clone(),
        };
        if !beside.is_dir() {
            let why = if beside.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            return Err(refuse(&format!("{} {why}", beside.display())));
        }
        // Registered under the lock, so a signal cannot slip between making and registering.
        let mut pending = interrupt::pending();
        let staging = staging_dir(&beside).map_err(|e| refuse(&e.to_string()))?;
        pending.push(Pending::Tree(staging.clone()));
        drop(pending);
        Ok(OutDir {
            path: path.to_path_buf(),
            exists,
            force,
            staging: Some(staging),
        })
    }

    /// The staging directory, where the output is written until [`OutDir::commit`].
    pub fn staging(&self) -> &Path {
        self.staging.as_deref().expect("present until committed")
    }

    /// Refuses (exit 2) if writing `names` would replace a file raven did not write (unless
    /// forced), a read-only file or anything but a regular file; call before the work.
    pub fn claim<S: AsRef<str>>(&self, names: &[S]) -> Result<()> {
        if !self.exists {
            return Ok(());
        }
        let owned = read_marker(&self.path)?;
        for name in names {
            let name = name.as_ref();
            let at = self.path.join(name);
            let refuse = |why: String| {
                Error::Input(format!(
                    "cannot write output directory {}: {} {why}",
                    self.path.display(),
                    at.display()
                ))
            };
            let meta = match std::fs::symlink_metadata(&at) {
                Err(e) if e.kind() == ErrorKind::NotFound => continue,
                Err(e) => return Err(refuse(format!("cannot be read: {e}"))),
                Ok(meta) => meta,
            };
            if !meta.is_file() && !meta.file_type().is_symlink() {
                return Err(refuse(
                    "is not a regular file, and raven would replace it; move it away or \
                     choose another directory"
                        .into(),
                ));
            }
            if meta.is_file() && meta.permissions().readonly() {
                return Err(refuse(
                    "is read-only: read-only is a request not to change it; make it writable \
                     or choose another directory"
                        .into(),
                ));
            }
            if !self.force && !owned.contains(name) {
                return Err(refuse(format!(
                    "exists and raven did not write it (no {MARKER} there lists it), so it \
                     would be replaced; move it away, choose another directory, or give \
                     --force to replace it"
                )));
            }
        }
        Ok(())
    }

    /// Writes `bytes` as file `name` of the staging directory.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let at = self.staging().join(name);
        std::fs::write(&at, bytes).map_err(|e| {
            Error::Runtime(format!(
                "cannot write {}: {e}",
                self.path.join(name).display()
            ))
        })
    }

    /// Swaps the finished output in: checks the names again ([`OutDir::claim`]), writes the
    /// marker, then renames the staging directory to the target (new) or each of its files
    /// into it (existing), under the signal lock, so a signal cannot part them.
    pub fn commit(mut self) -> Result<()> {
        let staging = self.staging().to_path_buf();
        let mut names: Vec<String> = std::fs::read_dir(&staging)
            .and_then(|entries| {
                entries
                    .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
                    .collect()
            })
            .map_err(|e| Error::Runtime(format!("cannot list the finished output: {e}")))?;
        names.sort();
        self.claim(&names)?;
        let mut listed = if self.exists {
            read_marker(&self.path)?
        } else {
            Default::default()
        };
        listed.extend(names.iter().cloned());
        let mut marker = MARKER_HEADER.to_string();
        for name in &listed {
            marker.push_str(name);
            marker.push('\n');
        }
        self.write(MARKER, marker.as_bytes())?;
        let failed = |e: std::io::Error| {
            Error::Runtime(format!(
                "cannot write output directory {}: {e}",
                self.path.display()
            ))
        };
        let mut pending = interrupt::pending();
        interrupt::check()?;
        if self.exists {
            // The marker first: should the process die between two renames, every file
            // already moved is known as raven's.
            for name in std::iter::once(MARKER).chain(names.iter().map(String::as_str)) {
                std::fs::rename(staging.join(name), self.path.join(name)).map_err(failed)?;
            }
            let _ = std::fs::remove_dir(&staging);
        } else {
            std::fs::rename(&staging, &self.path).map_err(failed)?;
        }
        pending.retain(|p| *p != Pending::Tree(staging.clone()));
        self.staging = None;
        Ok(())
    }
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if let Some(staging) = self.staging.take() {
            let mut pending = interrupt::pending();
            let _ = std::fs::remove_dir_all(&staging);
            pending.retain(|p| *p != Pending::Tree(staging.clone()));
        }
    }
}

/// A new, empty directory in `beside`, with the permissions of any new directory (the
/// umask applies: it becomes the output directory when there was none).
fn staging_dir(beside: &Path) -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = beside.join(format!(".raven-{}-{n}.tmp", std::process::id()));
        match std::fs::create_dir(&path) {
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            made => return made.map(|()| path),
        }
    }
}

/// The files [`MARKER`] in `dir` lists (none without a marker).
fn read_marker(dir: &Path) -> Result<std::collections::BTreeSet<String>> {
    let path = dir.join(MARKER);
    let text = match crate::input::read_limited(&path, 64 << 10, 4 << 10, || {
        "larger than 64 KiB".into()
    }) {
        Ok(text) => text,
        Err(_) if std::fs::symlink_metadata(&path).is_err() => return Ok(Default::default()),
        Err(e) => {
            return Err(Error::Input(format!(
                "cannot read {}: {e}; delete it, or choose another directory",
                path.display()
            )));
        }
    };
    Ok(text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect())
}

/// An output file reserved before the work and written whole by [`AtomicFile::commit`]
/// (see the module documentation for what happens to what is already there). Dropped
/// uncommitted, it leaves nothing behind.
pub struct AtomicFile {
    /// The content, kept in memory until the commit (results are small).
    buffer: Vec<u8>,
    target: Destination,
    /// The path as the user gave it, for messages.
    path: PathBuf,
}

/// Where a reserved file's content goes.
enum Destination {
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
            Destination::Through(file) => {
                match file.write_all(&self.buffer).and_then(|()| file.flush()) {
                    Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(failed(e)),
                    _ => Ok(()),
                }
            }
            Destination::Replace { temp, dest } => {
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
                pending.retain(|p| *p != Pending::File(temp_path.clone()));
                result
            }
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Destination::Replace { temp, .. } = &mut self.target
            && let Some(temp) = temp.take()
        {
            let mut pending = interrupt::pending();
            let temp_path = temp.path().to_path_buf();
            drop(temp);
            pending.retain(|p| *p != Pending::File(temp_path.clone()));
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
fn special(path: &Path, meta: &std::fs::Metadata) -> std::result::Result<Destination, String> {
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
            .map(Destination::Through)
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
) -> std::result::Result<Destination, String> {
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
    pending.push(Pending::File(temp.path().to_path_buf()));
    // A replaced file keeps its permission bits exactly (fchmod: no umask), not set-id bits.
    if let Some(old) = permissions {
        let bits = PermissionsExt::from_mode(old.mode() & 0o777);
        temp.as_file()
            .set_permissions(bits)
            .map_err(|e| e.to_string())?;
    }
    Ok(Destination::Replace {
        temp: Some(temp),
        dest: dest.to_path_buf(),
    })
}

/// Opens a FIFO for writing without waiting for a reader: with no reader it would block for
/// ever, so that is refused; once open, writes block as usual.
fn through_fifo(path: &Path) -> std::result::Result<Destination, String> {
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
    Ok(Destination::Through(file))
}
