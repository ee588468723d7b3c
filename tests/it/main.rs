//! Every integration test, in one test binary.
//!
//! The release profile links each test binary with fat LTO, which is most of `cargo test
//! --release`'s build: as modules of one binary the tests link once, and the test harness
//! spreads all of them over the cores together. Run one file's tests with its module path,
//! e.g. `cargo test --release --test it decisions::`.

mod common;

mod advisor;
mod annulus;
mod card;
mod charts;
mod cli_explore;
mod cli_output;
mod cli_play;
mod cli_shard;
mod cli_simulate;
mod cli_strategies;
mod decisions;
mod design;
mod docs;
mod exact;
mod figures;
mod fuzz;
mod games;
mod hostile;
mod kernel;
mod montecarlo;
mod optimal_tables;
mod properties;
mod quality;
mod report;
mod rules;
mod strategies;
mod tune;
