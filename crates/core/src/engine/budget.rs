//! The limits an exact evaluation or a solve runs under, and why one stops early.

use std::sync::atomic::{AtomicBool, Ordering};

/// The run was interrupted (Ctrl-C) before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Cancelled;

/// Peak memory per memoised position, the table's growth included (docs/performance.md says
/// how it is measured).
pub const BYTES_PER_STATE: f64 = 190.0;

/// The evaluation needed more memoised states than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the evaluation needs more than {limit} memoised positions (about {} at its peak) — \
     raise --max-memory if the machine has it, or use Monte Carlo (`raven simulate`); high \
     starting stealth and strategies that pick their team from the complications or retry \
     often reach the most positions",
    size(*limit as f64 * BYTES_PER_STATE)
)]
pub struct TooLarge {
    /// The limit that was reached.
    pub limit: usize,
}

/// `bytes` for people: MiB below a GiB, else GiB with one decimal.
fn size(bytes: f64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    if bytes < 1024.0 * MIB {
        format!("{:.0} MiB", bytes / MIB)
    } else {
        format!("{:.1} GiB", bytes / (1024.0 * MIB))
    }
}

/// Why an exact evaluation or a solve stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Halt {
    /// It needed more memoised positions than allowed.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The cancel flag was raised (Ctrl-C and the like).
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// How often (in memoised positions) an evaluation looks at its cancel flag: often enough to
/// stop within milliseconds, rarely enough to cost nothing.
const CANCEL_EVERY: usize = 1 << 14;

/// The limits an evaluation runs under: a number of memoised positions, and flags that
/// cancel it when one is raised (Ctrl-C; a sibling job that failed).
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// The most memoised positions.
    pub max_states: usize,
    /// Raising any of these stops the evaluation.
    pub cancel: &'a [&'a AtomicBool],
}

impl Budget<'_> {
    /// No limit at all.
    pub const UNLIMITED: Budget<'static> = Budget {
        max_states: usize::MAX,
        cancel: &[],
    };

    /// Stops the evaluation if a cancel flag is raised.
    #[inline]
    pub fn check_cancel(&self) -> Result<(), Halt> {
        if self.cancel.iter().any(|flag| flag.load(Ordering::Relaxed)) {
            return Err(Cancelled.into());
        }
        Ok(())
    }

    /// Whether an evaluation holding `states` positions may memoise one more.
    #[inline]
    pub fn admit(&self, states: usize) -> Result<(), Halt> {
        if states >= self.max_states.min(u32::MAX as usize) {
            return Err(TooLarge {
                limit: self.max_states,
            }
            .into());
        }
        if states.is_multiple_of(CANCEL_EVERY)
            && self.cancel.iter().any(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(Cancelled.into());
        }
        Ok(())
    }
}
