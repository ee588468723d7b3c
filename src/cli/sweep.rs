//! `raven sweep`: one strategy file, numeric knobs varied over a grid; one CSV row per
//! (knob values, stealth) — ready for a heat map.
//!
//! A parameter is `SECTION.KNOB=A..B[:STEP]` (or `SECTION.KNOB=V` for one value), e.g.
//! `recruit.stealth_floor=0..6` or `side.max_attempts=1..9:2`; the range includes both ends.
//! Each grid point's value is written into the strategy's TOML and the result parsed as any
//! strategy file is, so the same validation applies. Every grid point plays the same games
//! (same seed: common random numbers).
//!
//! With `--shard K/N` a run does every N-th cell (grid point × stealth, in the order of the
//! CSV) and writes those cells' rows, each behind its cell's number, as a shard file; a cell
//! is one whole row, so `raven merge` only puts rows back in order.

use std::fmt::Write as _;

use clap::Args;

use crate::engine::{Job, simulate};
use crate::error::{Error, Result};
use crate::load::strategy_source;
use crate::report::Summary;
use crate::report::csv::summary_row;
use crate::strategy::FileStrategy;

use super::args::{RulesArgs, RunArgs, stealth_list};
use super::bounds;
use super::interrupt;
use super::output::Output;
use super::progress::Progress;
use super::shard::ShardArgs;
use super::shard_file::{self, Meta};

/// The knobs a sweep may vary: the integer knobs of the strategy file format.
pub const NUMERIC_KNOBS: [&str; 7] = [
    "recruit.count",
    "recruit.stealth_floor",
    "recruit.stop_at_wounds",
    "recruit.stop_after_failures",
    "first_aid.stealth_floor",
    "side.max_attempts",
    "side.stealth_floor",
];

/// Arguments of `raven sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// The strategy to vary: a bundled name or a .toml file.
    #[arg(long, value_name = "NAME|FILE")]
    pub strategy: String,
    /// A knob and its values, `SECTION.KNOB=A..B[:STEP]` or `SECTION.KNOB=V` (repeatable; the
    /// grid is every combination). Knobs: recruit.count, recruit.stealth_floor,
    /// recruit.stop_at_wounds, recruit.stop_after_failures, first_aid.stealth_floor,
    /// side.max_attempts, side.stealth_floor.
    #[arg(long = "param", value_name = "KEY=A..B[:STEP]", required = true, value_parser = parse_param)]
    pub params: Vec<SweptKnob>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub shard: ShardArgs,
}

/// One swept knob and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweptKnob {
    /// `section.knob`.
    pub key: String,
    /// The values, in increasing order.
    pub values: Vec<i64>,
}

/// Parses `SECTION.KNOB=A..B[:STEP]` or `SECTION.KNOB=V`.
pub fn parse_param(text: &str) -> std::result::Result<SweptKnob, String> {
    let (key, range) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not of the form SECTION.KNOB=A..B[:STEP]"))?;
    let key = key.trim();
    if !NUMERIC_KNOBS.contains(&key) {
        return Err(format!(
            "'{key}' is not a numeric knob (allowed: {})",
            NUMERIC_KNOBS.join(", ")
        ));
    }
    let number = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("'{s}' in '{text}' is not an integer"))
    };
    let (range, step) = match range.split_once(':') {
        Some((r, s)) => (r, number(s)?),
        None => (range, 1),
    };
    let (low, high) = match range.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let v = number(range)?;
            (v, v)
        }
    };
    // Counted before anything is allocated: `0..9223372036854775807` is refused, not built.
    bounds::range_len(low, high, step).map_err(|e| format!("'{text}': {e}"))?;
    let values: Vec<i64> = (low..=high).step_by(step as usize).collect();
    Ok(SweptKnob {
        key: key.to_string(),
        values,
    })
}

/// Every combination of the parameters' values, the last parameter varying fastest.
pub fn grid(params: &[SweptKnob]) -> Vec<Vec<i64>> {
    params.iter().fold(vec![Vec::new()], |points, p| {
        points
            .iter()
            .flat_map(|point| {
                p.values.iter().map(move |v| {
                    let mut next = point.clone();
                    next.push(*v);
                    next
                })
            })
            .collect()
    })
}

/// The strategy `text` with `values` written into the knobs of `params`.
pub fn substitute(
    name: &str,
    text: &str,
    params: &[SweptKnob],
    values: &[i64],
) -> std::result::Result<FileStrategy, String> {
    let mut table: toml::Table = toml::from_str(text).map_err(|e| e.message().to_string())?;
    for (param, value) in params.iter().zip(values) {
        let (section, knob) = param.key.split_once('.').expect("checked by parse_param");
        let section = table
            .entry(section)
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(section) = section else {
            return Err(format!("'{}' is not a table in the strategy", param.key));
        };
        section.insert(knob.to_string(), toml::Value::Integer(*value));
    }
    let edited = toml::to_string(&table).map_err(|e| e.to_string())?;
    FileStrategy::parse(name, "sweep", &edited).map_err(|e| {
        let point: Vec<String> = params
            .iter()
            .zip(values)
            .map(|(p, v)| format!("{}={v}", p.key))
            .collect();
        format!("at {}: {e}", point.join(", "))
    })
}

/// Runs `raven sweep`.
pub fn run(args: &SweepArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let (name, text) = strategy_source(&args.strategy).map_err(|e| Error::Input(e.to_string()))?;
    // Validate the file itself first, so its errors carry its own line and column.
    FileStrategy::parse(&name, &args.strategy, &text).map_err(|e| Error::Input(e.to_string()))?;
    for (i, param) in args.params.iter().enumerate() {
        if args.params[..i].iter().any(|p| p.key == param.key) {
            return Err(Error::Input(format!(
                "--param {} is given twice; give each knob once, with all its values",
                param.key
            )));
        }
    }
    bounds::grid_points(args.params.iter().map(|p| p.values.len()))
        .map_err(|e| Error::Input(format!("--param: {e}")))?;
    let points = grid(&args.params);
    let strategies = points
        .iter()
        .map(|values| substitute(&name, &text, &args.params, values))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Error::Input(format!("--param: {e}")))?;
    let shard = args.shard.shard;
    let stealths = args.run.stealth.len();
    let mine = |cell: usize| shard.is_none_or(|s| s.owns(cell));
    let cells = (0..points.len() * stealths).filter(|&c| mine(c)).count();
    let cancel = interrupt::flag();
    let output = Output::open(args.run.out.as_deref())?;
    let pool = args.run.pool()?;
    let total = args.run.games.saturating_mul(cells as u64);
    let progress = Progress::new(total, args.run.quiet);
    let polled = interrupt::polled();
    let mut summaries = Vec::new();
    let mut units = Vec::new();
    for (p, (values, strategy)) in points.iter().zip(&strategies).enumerate() {
        for (s, &stealth) in args.run.stealth.iter().enumerate() {
            let cell = p * stealths + s;
            if !mine(cell) {
                continue;
            }
            units.push(cell);
            let job = Job {
                rules: &rules,
                strategy,
                stealth,
                games: args.run.games,
                seed: args.run.seed,
            };
            let tally = pool.install(|| simulate(&job, &|n| progress.advance(n), cancel))?;
            let summary = Summary::from_tally(
                &name,
                rules,
                stealth,
                tally,
                args.run.seed,
                args.run.confidence,
            );
            summaries.push((values.clone(), summary));
        }
    }
    progress.finish();
    drop(polled);
    let keys: Vec<&str> = args.params.iter().map(|p| p.key.as_str()).collect();
    let records = records(&keys, &summaries)?;
    if let Some(shard) = shard {
        let param = |p: &SweptKnob| {
            let values: Vec<String> = p.values.iter().map(i64::to_string).collect();
            format!("{}={}", p.key, values.join(","))
        };
        let params: Vec<String> = args.params.iter().map(param).collect();
        let meta = Meta::new("sweep", shard)
            .input(
                "strategy",
                format!("{name} (text {})", shard_file::digest(&text)),
            )
            .input("param", params.join(" "))
            .input("rules", rules)
            .input("stealth", stealth_list(&args.run.stealth))
            .input("games", args.run.games)
            .input("seed", args.run.seed)
            .input("confidence", args.run.confidence);
        let rows: Vec<(usize, Vec<String>)> =
            units.into_iter().zip(records[1..].to_vec()).collect();
        let bytes = shard_file::render(&meta, &records[0], &rows)?;
        let note = format!(
            "raven {} sweep: shard {shard} ({} of {} cells) written; `raven merge` joins the \
             shards\n",
            env!("CARGO_PKG_VERSION"),
            rows.len(),
            points.len() * stealths
        );
        return output.write_bytes(&note, &bytes);
    }
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{}  {:>7} {:>8} {:>17}",
        keys.join("  "),
        "stealth",
        "win",
        "interval"
    );
    for (values, s) in &summaries {
        let cells: Vec<String> = keys
            .iter()
            .zip(values)
            .map(|(k, v)| format!("{v:>w$}", w = k.len()))
            .collect();
        let _ = writeln!(
            table,
            "{}  {:>7} {:>8} {:>17}",
            cells.join("  "),
            s.stealth,
            format!("{:.2}%", 100.0 * s.win_rate),
            format!("{:.2}%–{:.2}%", 100.0 * s.ci.0, 100.0 * s.ci.1)
        );
    }
    let mut inputs = vec![format!("strategy {name}")];
    inputs.extend(args.params.iter().map(|p| {
        let (first, last) = (p.values[0], p.values[p.values.len() - 1]);
        format!("{} {first}..{last} ({} values)", p.key, p.values.len())
    }));
    inputs.push(format!("rules {rules}"));
    inputs.extend(args.run.inputs());
    let text = format!(
        "{}\n{table}",
        crate::report::table::inputs_line("sweep", &inputs)
    );
    output.write(&text, &records)
}

/// CSV records: the parameter columns, then the summary columns of `raven simulate`.
fn records(keys: &[&str], summaries: &[(Vec<i64>, Summary)]) -> Result<Vec<Vec<String>>> {
    let csv_error = |e: csv::Error| Error::Runtime(format!("cannot write CSV: {e}"));
    let mut buffer = csv::Writer::from_writer(Vec::new());
    for (_, s) in summaries {
        buffer.serialize(summary_row(s)).map_err(csv_error)?;
    }
    let bytes = buffer
        .into_inner()
        .map_err(|e| Error::Runtime(format!("cannot write CSV: {e}")))?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let header: Vec<String> = keys
        .iter()
        .map(|k| k.to_string())
        .chain(
            reader
                .headers()
                .map_err(csv_error)?
                .iter()
                .map(String::from),
        )
        .collect();
    let mut records = vec![header];
    for (record, (values, _)) in reader.records().zip(summaries) {
        let record = record.map_err(csv_error)?;
        records.push(
            values
                .iter()
                .map(i64::to_string)
                .chain(record.iter().map(String::from))
                .collect(),
        );
    }
    Ok(records)
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(crate::input::fuzz_config())]

        /// `--param` values: any text, and text shaped like `key=a..b:step,c`, are an axis
        /// or a reason; never a panic.
        #[test]
        fn any_param_text_is_an_axis_or_a_reason(
            any_text in ".{0,40}",
            shaped in "[a-z_.-]{0,12}=[0-9a-z.:,=-]{0,24}",
        ) {
            let _ = parse_param(&any_text);
            let _ = parse_param(&shaped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_ranges_steps_and_single_values() {
        let p = parse_param("recruit.stealth_floor=0..6").unwrap();
        assert_eq!(p.values, (0..=6).collect::<Vec<_>>());
        let p = parse_param("side.max_attempts=1..9:3").unwrap();
        assert_eq!(p.values, vec![1, 4, 7]);
        assert_eq!(parse_param("recruit.count=2").unwrap().values, vec![2]);
        for bad in [
            "recruit.count",
            "recruit.roller=1..2",
            "nope=1..2",
            "recruit.count=3..1",
            "recruit.count=0..3:0",
            "recruit.count=a..3",
        ] {
            assert!(parse_param(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn grid_is_every_combination_last_fastest() {
        let params = [
            parse_param("recruit.count=0..1").unwrap(),
            parse_param("side.max_attempts=2..4:2").unwrap(),
        ];
        assert_eq!(
            grid(&params),
            vec![vec![0, 2], vec![0, 4], vec![1, 2], vec![1, 4]]
        );
    }

    #[test]
    fn substitution_sets_the_knob_and_validates_it() {
        let text = "description = \"x\"\n[recruit]\ncount = 3\n";
        let params = [
            parse_param("recruit.count=0..3").unwrap(),
            parse_param("side.max_attempts=5").unwrap(),
        ];
        let s = substitute("x", text, &params, &[1, 5]).unwrap();
        assert_eq!(s.spec().recruit.count.0, 1);
        assert_eq!(s.spec().side.max_attempts.0, 5);
        let wide = [parse_param("recruit.count=6").unwrap()];
        let err = substitute("x", text, &wide, &[6]).unwrap_err();
        assert!(
            err.contains("recruit.count=6") && err.contains("out of range"),
            "{err}"
        );
    }

    #[test]
    fn records_put_parameters_first() {
        let s = Summary::from_tally(
            "x",
            crate::rules::Rules::default(),
            10,
            crate::engine::Tally {
                games: 10,
                wins: 3,
                ..Default::default()
            },
            1,
            0.95,
        );
        let r = records(&["recruit.count"], &[(vec![2], s)]).unwrap();
        assert_eq!(r[0][0], "recruit.count");
        assert_eq!(r[0][1], "strategy");
        assert_eq!(r[1][0], "2");
        assert_eq!(r[1][1], "x");
    }
}
