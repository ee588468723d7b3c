//! Every integration test, in one test binary.
//!
//! Each file under `tests/` used to be a binary of its own, and the release profile links
//! each with fat LTO: twenty links of the whole program made up most of `cargo test
//! --release`'s build. As modules of one binary they link once, and the test harness spreads
//! all of them over the cores together. Run one file's tests with its module path, e.g.
//! `cargo test --release --test it decisions::`.

mod common;

mod advisor;
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
mod fuzz;
mod hostile;
mod kernel;
mod montecarlo;
mod optimal_tables;
mod properties;
mod report;
mod rules;
mod strategies;
mod tune;
