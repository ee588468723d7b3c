//! raven: a balance analyzer for the solo tabletop game *Operation Purple Raven*.
//!
//! The game, its rules, the strategies and the engines are the `raven-core` crate, re-exported
//! here under the same names ([`game`], [`rules`], [`strategy`], [`engine`], [`stats`],
//! [`text`]). This crate is everything that touches the outside world. Where each job lives:
//! - [`cli`]: the command line — arguments, progress, signals, output files, the advisor's
//!   terminal;
//! - [`report`]: what the commands write — tables, CSV, SVG charts, the report directory;
//! - [`load`]: rules and strategy files read from disk;
//! - [`input`]: the text users hand raven, read as a stream with bounds;
//! - [`error`]: the errors a command can end with, and their exit codes.

// The doc comments say why, for whoever works on raven (`cargo doc --document-private-items`):
// they link the internals they rely on, private or not.
#![allow(rustdoc::private_intra_doc_links)]

pub use raven_core::{
    card, engine, game, grid, memory, opening, rules, stats, strategy, text, tune,
};

pub mod cli;
pub mod error;
pub mod input;
pub mod load;
pub mod report;
