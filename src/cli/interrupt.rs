//! Ctrl-C: a process-wide flag that long runs poll between chunks (DESIGN.md).
//!
//! The handler only sets the flag; the engine notices it at the next chunk boundary, returns
//! `Cancelled`, and the command unwinds normally, so uncommitted output files are removed by
//! their destructors and nothing half-written is left behind.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The Ctrl-C flag, installing the handler on first use (a process may install only one).
///
/// If the handler cannot be installed (another one exists), Ctrl-C keeps its default effect
/// of ending the process at once; the flag then simply never becomes true.
pub fn flag() -> &'static AtomicBool {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed));
    });
    &INTERRUPTED
}
