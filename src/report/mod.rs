//! Turning results into outputs: one engine-agnostic [`Summary`] per (strategy, rules,
//! stealth, method), written as tidy CSV ([`csv`]) or a terminal table ([`table`]). Writers
//! never simulate; engines never print.

pub mod advice;
pub mod assemble;
pub mod balance;
pub mod card;
pub mod chart;
pub mod charts;
pub mod comparison;
pub mod csv;
pub mod decisions;
pub mod habits;
pub mod levers;
pub mod player;
pub mod quality;
pub mod readme;
mod summary;
pub mod table;
pub mod ties;
pub mod words;

pub use summary::{Method, Summary};
