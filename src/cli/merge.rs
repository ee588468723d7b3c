//! `raven merge`: the shard files of one `--shard K/N` run joined into the CSV the whole run
//! writes, byte for byte.
//!
//! Every file is read and checked before anything is written: all from one run (the same
//! command, inputs and raven version, split the same way), every shard present, none twice.
//! Anything else is refused with one message naming the files and what differs (exit 2), and
//! `--out` is left as it was. How rows combine is the sharded command's business: `simulate`
//! adds up raw counts ([`super::simulate::merge`]); `sweep` and `explore` shards hold the
//! run's own rows, put back in order ([`shard_file::concatenate`]); `report` shards hold
//! each unit's result, from which [`super::report::merge`] writes the report directory.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::Result;

use super::output::Output;
use super::shard_file::{self, ShardFile};

/// Arguments of `raven merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard files, in any order (e.g. `shard-*.csv`).
    #[arg(value_name = "SHARD", required = true)]
    pub shards: Vec<PathBuf>,
    /// Write the merged CSV here (`-`: standard output); for shards of `raven report`, the
    /// report's directory.
    #[arg(long, value_name = "FILE|-", default_value = "-")]
    pub out: PathBuf,
    /// For a report: replace files in `--out` that raven did not write (never read-only
    /// ones).
    #[arg(long)]
    pub force: bool,
}

/// Runs `raven merge`.
pub fn run(args: &MergeArgs) -> Result<()> {
    let files = args
        .shards
        .iter()
        .map(|path| ShardFile::read(path))
        .collect::<Result<Vec<_>>>()?;
    let files = shard_file::one_run(files)?;
    let meta = &files[0].meta;
    if meta.command == "report" {
        super::report::merge(&files, &args.out, args.force)?;
        let note = format!(
            "raven {} merge: {} shards of one `raven report` run written to {}\n",
            env!("CARGO_PKG_VERSION"),
            files.len(),
            args.out.display()
        );
        return super::output::to_stdout(note.as_bytes());
    }
    let bytes = match meta.command.as_str() {
        "simulate" if meta.get("game") == Some("annulus") => super::annulus::shard::merge(&files)?,
        "simulate" => super::simulate::merge(&files)?,
        _ => shard_file::concatenate(&files)?,
    };
    // Reserved only now: a refused merge must not even touch `--out`.
    let output = Output::open(Some(&args.out))?;
    let note = if args.out == Path::new("-") {
        String::new()
    } else {
        format!(
            "raven {} merge: {} shards of one `raven {}` run written to {}\n",
            env!("CARGO_PKG_VERSION"),
            files.len(),
            meta.command,
            args.out.display()
        )
    };
    output.write_bytes(&note, &bytes)
}
