//! A progress bar on standard error: games done, rate and ETA.
//!
//! Shown only when standard error is a terminal and `--quiet` is not given, so pipes, files
//! and tests never see it. Engines advance it once per finished chunk, never per game.

use std::io::IsTerminal;

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress bar over a known number of games (hidden when not wanted).
pub struct Progress(ProgressBar);

impl Progress {
    /// A bar for `total` games; hidden if `quiet` or if standard error is not a terminal.
    pub fn new(total: u64, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress(ProgressBar::hidden());
        }
        let style = ProgressStyle::with_template(
            "{prefix:>12} [{bar:25}] {human_pos}/{human_len} games  {rate}  ETA {eta}",
        )
        .expect("a valid progress template")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{} games/s", HumanCount(state.per_sec() as u64));
            },
        )
        .progress_chars("=> ");
        Progress(
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style),
        )
    }

    /// Labels the work in progress (e.g. `stealth 10`).
    pub fn label(&self, label: String) {
        self.0.set_prefix(label);
    }

    /// Counts `games` more games as done; cheap enough to call from any worker thread.
    pub fn advance(&self, games: u64) {
        self.0.inc(games);
    }

    /// Removes the bar once the work is done.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }

    /// Leaves the bar where it stopped (interrupted).
    pub fn abandon(&self) {
        self.0.abandon();
    }
}
