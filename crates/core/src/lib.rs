//! raven-core: the game *Operation Purple Raven* and the engines that analyse it, with no I/O.
//!
//! Where each job lives (dependencies point down this list, never up):
//! - [`text`]: errors located in user text (`origin:line:column` and an excerpt);
//! - [`rules`]: the rulings' variant flags, the design parameters and the presets;
//! - [`game`]: the state machine — chance points, decision points, the end — and nothing
//!   else knows the rules;
//! - [`strategy`]: what answers a decision point: built-in strategies and strategy files;
//! - [`engine`]: what drives the state machine — Monte Carlo, exact evaluation, optimal play,
//!   regret by decision;
//! - [`grid`]: the points of a what-if sweep over design parameters;
//! - [`opening`]: how much the opening decisions matter, from optimal play's values;
//! - [`tune`]: the search over a strategy file's knobs for the best strategy a person can
//!   follow, every candidate evaluated by the exact engine;
//! - [`stats`]: intervals and tests on counts;
//! - [`rows`]: the columns of raven's CSVs and how their numbers print.
//!
//! The crate reads no file and touches no terminal: callers hand it text and get figures back,
//! so the same code runs in the command line and in a browser (`wasm32-unknown-unknown`).
//! Parallelism comes from rayon behind the default `parallel` feature; without it every
//! result is bit-identical.

// The doc comments say why, for whoever works on raven (`cargo doc --document-private-items`):
// they link the internals they rely on, private or not.
#![allow(rustdoc::private_intra_doc_links)]

pub mod card;
pub mod engine;
pub mod game;
pub mod games;
pub mod grid;
pub mod memory;
pub mod opening;
mod par;
pub mod quality;
pub mod rows;
pub mod rules;
pub mod stats;
pub mod strategy;
pub mod text;
pub mod tune;
