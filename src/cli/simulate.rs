//! `raven simulate`: Monte Carlo win rates per starting stealth.

use clap::Args;

use crate::error::Result;

use super::args::{RulesArgs, RunArgs};

/// Arguments of `raven simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = "reference")]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Runs `raven simulate`.
pub fn run(_args: &SimulateArgs) -> Result<()> {
    Err(crate::error::Error::Runtime(
        "simulate is not built yet".into(),
    ))
}
