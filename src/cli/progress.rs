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
        // `wide_bar` takes whatever the terminal's width leaves, so the line never wraps
        // (at 80 columns the fixed parts take about 60).
        let style = ProgressStyle::with_template(
            "{prefix} [{wide_bar}] {human_pos}/{human_len} {rate} ETA {eta}",
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

    /// A spinner with the elapsed time, for work whose size is not known in advance (the
    /// exact engines); hidden if `quiet` or if standard error is not a terminal.
    pub fn spinner(label: &str, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress(ProgressBar::hidden());
        }
        let style = ProgressStyle::with_template("{spinner} {wide_msg} {elapsed}")
            .expect("a valid progress template");
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
            .with_style(style)
            .with_message(label.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Progress(bar)
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

/// The report's stages share one bar, restarted for each.
impl crate::report::assemble::ProgressListener for Progress {
    fn stage(&self, label: &str, total: u64) {
        self.0.reset();
        self.0.set_length(total);
        self.0.set_prefix(label.to_string());
    }

    fn advance(&self, units: u64) {
        self.0.inc(units);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}
