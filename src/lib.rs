//! raven: a balance analyzer for the solo tabletop game *Operation Purple Raven*.
//!
//! The game, its rules, the strategies and the engines are the `raven-core` crate, re-exported
//! here under the same names ([`game`], [`rules`], [`strategy`], [`engine`], [`stats`]).
//! This crate is everything that touches the outside world: [`cli`] (the command line,
//! progress, signals, the advisor's terminal), [`report`] (tables, CSV, SVG charts and the
//! report directory), [`load`] and [`input`] (rules and strategy files read from disk).

// The doc comments say why, for whoever works on raven (`cargo doc --document-private-items`):
// they link the internals they rely on, private or not.
#![allow(rustdoc::private_intra_doc_links)]

pub use raven_core::{engine, game, rules, stats, strategy, text};

pub mod cli;
pub mod error;
pub mod input;
pub mod load;
pub mod report;
