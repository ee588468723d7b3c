//! INT, TERM and HUP: one handler for the whole process, and the one flag long runs poll.
//!
//! Ctrl-C, `kill`, `timeout` and a closed terminal must all stop raven promptly and leave
//! nothing behind. Two kinds of work meet a signal:
//!
//! - Work that polls [`flag`] (the Monte Carlo engines between chunks, the exact and optimal
//!   engines every few thousand positions) runs inside a [`polled`] section. The handler only sets the flag; the engine returns `Cancelled`, the
//!   command unwinds normally, uncommitted output files are removed by their destructors,
//!   and `main` exits with code 130.
//! - Everything else (reading a FIFO, the report's exact stage, writing the results) might
//!   not notice the flag for minutes. There the handler itself removes
//!   every reserved output file ([`super::output`] registers them here) and exits with 130
//!   at once.
//!
//! A second signal always ends the process at once, in case polled work is slow to look.
//! One exit code, 130, serves all three signals: the handler is the `ctrlc` crate's, with
//! its `termination` feature, which does not say which signal arrived.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

use crate::error::Error;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();
/// How many [`polled`] sections are running.
static POLLING: AtomicUsize = AtomicUsize::new(0);
/// Whether raven is waiting for a person's answer at the table ([`at_prompt`]).
static AT_PROMPT: AtomicBool = AtomicBool::new(false);
/// Temporary output files and staging directories not yet committed: removed by the handler
/// before it exits.
static PENDING: Mutex<Vec<Pending>> = Mutex::new(Vec::new());

/// Something the handler removes if a signal comes before the output is committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Pending {
    /// A temporary file.
    File(PathBuf),
    /// A staging directory raven made, with everything in it.
    Tree(PathBuf),
}

/// The exit code of a run ended by a signal (128 + SIGINT, as shells report Ctrl-C).
pub const EXIT_CODE: i32 = 130;

/// Installs the handler for INT, TERM and HUP (idempotent). `main` calls it before anything
/// else, so no output file can be reserved before the handler can clean it up.
///
/// If the handler cannot be installed (another one exists, as in a host program), signals
/// keep their default effect of ending the process at once.
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(on_signal);
    });
}

/// The process-wide interrupt flag, set by the first INT, TERM or HUP. Long-running work
/// polls it (a relaxed load is enough: it only ever goes from false to true).
pub fn flag() -> &'static AtomicBool {
    install();
    &INTERRUPTED
}

/// `Err(Interrupted)` once a signal has arrived: for commands to check between jobs.
pub fn check() -> Result<(), Error> {
    if INTERRUPTED.load(Ordering::Relaxed) {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// Marks work that polls [`flag`] until the guard is dropped: a signal then only sets the
/// flag and lets the work unwind, instead of ending the process from the handler.
#[must_use = "the section ends when the guard is dropped"]
pub fn polled() -> Polled {
    install();
    POLLING.fetch_add(1, Ordering::SeqCst);
    Polled(())
}

/// See [`polled`].
pub struct Polled(());

impl Drop for Polled {
    fn drop(&mut self) {
        POLLING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Marks a wait for an answer typed at the table (`raven play --interactive`, `--dice
/// manual`) until the guard is dropped. The game so far is already on standard output, so a
/// signal there says that the game was abandoned and the narration above is all there is,
/// not that no output was written.
#[must_use = "the wait ends when the guard is dropped"]
pub fn at_prompt() -> AtPrompt {
    AT_PROMPT.store(true, Ordering::SeqCst);
    AtPrompt(())
}

/// See [`at_prompt`].
pub struct AtPrompt(());

impl Drop for AtPrompt {
    fn drop(&mut self) {
        AT_PROMPT.store(false, Ordering::SeqCst);
    }
}

/// What the handler says of a signal at a prompt.
pub const AT_PROMPT_MESSAGE: &str = "interrupted at the prompt: the game was abandoned \
unfinished; the narration above is all that was written";

/// The registry of uncommitted temporary files. Holding it keeps the handler from removing
/// files (and from exiting) in the middle of a commit.
pub(super) fn pending() -> MutexGuard<'static, Vec<Pending>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn on_signal() {
    let again = INTERRUPTED.swap(true, Ordering::SeqCst);
    if again || POLLING.load(Ordering::SeqCst) == 0 {
        // Held until the process is gone: no commit can start after the files are removed.
        let files = pending();
        for file in files.iter() {
            let _ = match file {
                Pending::File(path) => std::fs::remove_file(path),
                Pending::Tree(path) => std::fs::remove_dir_all(path),
            };
        }
        use std::io::Write as _;
        if AT_PROMPT.load(Ordering::SeqCst) {
            // The cursor is after the prompt: the message gets a line of its own.
            let _ = writeln!(std::io::stderr(), "\nraven: {AT_PROMPT_MESSAGE}");
        } else {
            let _ = writeln!(std::io::stderr(), "raven: error: {}", Error::Interrupted);
        }
        std::process::exit(EXIT_CODE);
    }
}
