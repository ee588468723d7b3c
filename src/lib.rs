//! raven: a balance analyzer for the solo tabletop game *Operation Purple Raven*.
//!
//! The game is one state machine ([`game`]) with the rulings of docs/rules.md ([`rules`]);
//! [`strategy`] answers its decisions; [`engine`] drives it (Monte Carlo, exact, optimal);
//! [`stats`] turns counts into intervals and tests.

// The doc comments say why, for whoever works on raven (`cargo doc --document-private-items`):
// they link the internals they rely on, private or not.
#![allow(rustdoc::private_intra_doc_links)]

pub mod cli;
pub mod engine;
pub mod error;
pub mod game;
pub mod input;
pub mod report;
pub mod rules;
pub mod stats;
pub mod strategy;
