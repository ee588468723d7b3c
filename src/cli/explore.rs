//! `raven explore`: the game's own numbers (design parameters, docs/rules.md) varied over a
//! grid, each point evaluated exactly — optimal play solved, and each chosen strategy's exact
//! win probability — per starting stealth. Tidy CSV, a chart (a line chart of one parameter,
//! a heat map of two), and a target mode ("which values put optimal play at stealth 10 inside
//! 45–55 %?").
//!
//! With `--shard K/N` a run solves and evaluates every N-th valid grid point (points differ
//! in cost along an axis, so dealing them out balances the shards) and writes their rows,
//! each behind its point's number, as a shard file; `raven merge` puts the rows back in order.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use rayon::prelude::*;

use crate::engine::{Halt, Keep, Solver, exact_within, solve_within};
use crate::error::{Error, Result};
use crate::report::chart::{Cells, HeatAxis, HeatMap, Series, heat_map, line_chart};
use crate::rules::{Design, Rules};
use crate::strategy::{OPTIMAL, REFERENCE};
use raven_core::rows::ExploreRow;

use crate::grid::{self, Axis, GridPoint};

use super::args::{ExactEngineArgs, RulesArgs, load_strategy, stealth_list};
use super::output::{AtomicFile, Output};
use super::progress::Progress;
use super::shard::ShardArgs;
use super::shard_file::{self, Meta};

/// Arguments of `raven explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// A design parameter and its values: `KEY=V1,V2,…` where each value may be a range
    /// `A..B` (both ends included), e.g. `run-challenges=3..9`, `team-size=2..4`,
    /// `first-aid-after-run=yes,no`. Once or twice (a grid of both). Keys: team-size,
    /// recruit-checks, run-challenges, first-aid-after-run, tough-challenges, side-challenges,
    /// first-aid-after-tough, specialist-dice, base-dice, threshold, eased-threshold,
    /// side-successes-to-ease, finale-penalty, wound-faces, stealth-faces.
    #[arg(long = "param", value_name = "KEY=VALUES", required = true, value_parser = parse_axis)]
    pub params: Vec<Axis>,
    /// Strategies evaluated exactly at every point besides optimal play: built-in names or
    /// strategy files, comma-separated (`--strategy a,b`) or the option repeated
    /// (`--strategy a --strategy b`); `none` for optimal play alone.
    #[arg(long, default_value = REFERENCE, value_delimiter = ',')]
    pub strategy: Vec<String>,
    /// Report the points where this strategy's win probability lies inside `--target`.
    #[arg(long, default_value = OPTIMAL, requires = "target")]
    pub target_strategy: String,
    /// A win-probability band in percent, `LO..HI` (e.g. `45..55`): list the points inside it.
    #[arg(long, value_name = "LO..HI", value_parser = parse_band)]
    pub target: Option<(f64, f64)>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
    /// Write an SVG chart. One `--param`: a line chart, win probability against the
    /// parameter, a line per strategy and stealth. Two: a heat map, the first parameter across
    /// and the second up, a panel per method (rows: optimal, then each `--strategy`) and
    /// stealth (columns), each cell coloured by win probability on a 0–100% scale and
    /// labelled where it has room; points that are not a valid design are hatched. Not with
    /// `--shard`.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub shard: ShardArgs,
}

/// Parses `KEY=V1,V2,…` with integer ranges `A..B`; each value is checked against the key.
pub fn parse_axis(text: &str) -> std::result::Result<Axis, String> {
    let (key, list) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not of the form KEY=VALUES"))?;
    let key = key.trim();
    if !Design::keys().any(|k| k == key) {
        return Err(format!(
            "'{key}' is not a design parameter (allowed: {})",
            Design::keys().collect::<Vec<_>>().join(", ")
        ));
    }
    let mut values = Vec::new();
    for item in list.split(',').map(str::trim) {
        match item.split_once("..") {
            Some((a, b)) => {
                let bound = |s: &str| {
                    s.trim()
                        .parse::<u8>()
                        .map_err(|_| format!("'{item}' is not a range of whole numbers A..B"))
                };
                let (a, b) = (bound(a)?, bound(b)?);
                if a > b {
                    return Err(format!("'{item}' is an empty range"));
                }
                values.extend((a..=b).map(|v| v.to_string()));
            }
            None => values.push(item.to_string()),
        }
    }
    let mut rules = Rules::default();
    for value in &values {
        rules.set(key, value).map_err(|e| e.to_string())?;
    }
    let mut seen = Vec::new();
    for value in &values {
        if seen.contains(&value) {
            return Err(format!("{key}={value} is listed twice"));
        }
        seen.push(value);
    }
    Ok(Axis {
        key: key.to_string(),
        values,
    })
}

/// Parses `LO..HI` in percent.
fn parse_band(text: &str) -> std::result::Result<(f64, f64), String> {
    let bad = || format!("'{text}' is not a band of percentages LO..HI, e.g. 45..55");
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    let lo: f64 = lo.trim().parse().map_err(|_| bad())?;
    let hi: f64 = hi.trim().parse().map_err(|_| bad())?;
    if !(0.0..=100.0).contains(&lo) || !(0.0..=100.0).contains(&hi) || lo > hi {
        return Err(bad());
    }
    Ok((lo / 100.0, hi / 100.0))
}

/// The explored grid, whole, as the table and the charts read it: the methods' labels
/// (optimal play, then each strategy), the valid points, and per point, per method, per
/// stealth, the win probability.
struct Explored<'a> {
    labels: &'a [String],
    points: &'a [GridPoint],
    results: &'a [Vec<Vec<f64>>],
}

/// Runs `raven explore`.
pub fn run(args: &ExploreArgs) -> Result<()> {
    if args.params.len() > 2 {
        return Err(Error::Input(
            "explore varies one or two parameters (--param at most twice)".into(),
        ));
    }
    if let [a, b] = args.params.as_slice()
        && a.key == b.key
    {
        return Err(Error::Input(format!("--param {} is given twice", a.key)));
    }
    let base = args.rules.rules()?;
    let names: Vec<&str> = args
        .strategy
        .iter()
        .map(String::as_str)
        .filter(|s| *s != "none")
        .collect();
    let strategies = names
        .iter()
        .map(|n| load_strategy(n))
        .collect::<Result<Vec<_>>>()?;
    let target_known = args.target_strategy == OPTIMAL
        || strategies.iter().any(|s| s.name() == args.target_strategy);
    if args.target.is_some() && !target_known {
        return Err(Error::Input(format!(
            "--target-strategy {} is not among the explored strategies (optimal, {})",
            args.target_strategy,
            names.join(", ")
        )));
    }
    let shard = args.shard.shard;
    if shard.is_some() && args.chart.is_some() {
        return Err(Error::Input(
            "--chart draws the whole grid, which one shard does not have: leave --chart out \
             of a sharded run"
                .into(),
        ));
    }
    let (points, skipped) = grid(&base, &args.params)?;
    // The points this run evaluates: all, or this shard's (every N-th valid point).
    let units: Vec<usize> = (0..points.len())
        .filter(|&i| shard.is_none_or(|s| s.owns(i)))
        .collect();
    let output = Output::open(args.out.as_deref())?;
    let chart = args.chart.as_deref().map(AtomicFile::create).transpose()?;
    let stealths = &args.exact.stealth;
    let pool = args.exact.pool()?;
    // One job per point and method (optimal play, then each strategy), run side by side:
    // most evaluations are single-threaded, and a point's methods are independent.
    let methods = 1 + strategies.len();
    let jobs: Vec<(usize, usize)> = units
        .iter()
        .flat_map(|&i| (0..methods).map(move |m| (i, m)))
        .collect();
    let progress = Progress::new(jobs.len() as u64, args.exact.quiet);
    progress.label("solves and evaluations".into());
    let polled = super::interrupt::polled();
    // Raised by a job that fails, so that its siblings stop too.
    let failed = AtomicBool::new(false);
    let cancel = [super::interrupt::flag(), &failed];
    let budget = args.exact.budget(&cancel);
    // Per job, one win probability per stealth; in job order whatever the thread count.
    let runs: Vec<std::result::Result<Vec<f64>, Halt>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(i, method)| {
                let rules = &points[i].rules;
                let run = match method {
                    0 => solve_within(
                        &Solver::keeping(*rules, Keep::PartBoundaries),
                        stealths,
                        &budget,
                    )
                    .map(|solved| solved.iter().map(|s| s.value).collect()),
                    m => exact_within(rules, strategies[m - 1].as_ref(), stealths, budget)
                        .map(|run| run.expectations.iter().map(|e| e.win).collect()),
                };
                if run.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                progress.advance(1);
                run
            })
            .collect()
    });
    // A job's own failure, not the cancellations it caused in its siblings.
    let (wins, halts): (Vec<_>, Vec<_>) = runs.into_iter().partition(|run| run.is_ok());
    if let Some(halt) = halts
        .into_iter()
        .filter_map(std::result::Result::err)
        .min_by_key(|halt| matches!(halt, Halt::Cancelled(_)))
    {
        return Err(halt.into());
    }
    let wins: Vec<Vec<f64>> = wins.into_iter().flatten().collect();
    // Per point: optimal, then each strategy.
    let results: Vec<Vec<Vec<f64>>> = wins.chunks(methods).map(<[_]>::to_vec).collect();
    progress.finish();
    drop(polled);

    let mut labels = vec![OPTIMAL.to_string()];
    labels.extend(strategies.iter().map(|s| s.name().to_string()));
    let inside = |label: &str, win: f64| {
        args.target
            .filter(|_| label == args.target_strategy)
            .map(|(lo, hi)| (lo..=hi).contains(&win))
    };
    let key = |i: usize| args.params.get(i).map_or("", |a| a.key.as_str());
    let mut rows = Vec::new();
    for (&unit, wins) in units.iter().zip(&results) {
        let point = &points[unit];
        for (label, by_stealth) in labels.iter().zip(wins) {
            for (&stealth, &win) in stealths.iter().zip(by_stealth) {
                rows.push((
                    unit,
                    ExploreRow {
                        rules: point.rules.to_string(),
                        param_1: key(0),
                        value_1: &point.values[0],
                        param_2: key(1),
                        value_2: point.values.get(1).map_or("", String::as_str),
                        stealth,
                        strategy: label,
                        method: if label == OPTIMAL { "optimal" } else { "exact" },
                        win_rate: win,
                        in_target: inside(label, win),
                        raven_version: raven_core::rows::VERSION,
                    },
                ));
            }
        }
    }
    if let Some(shard) = shard {
        let axis = |a: &Axis| format!("{}={}", a.key, a.values.join(","));
        let axes: Vec<String> = args.params.iter().map(axis).collect();
        let identities: Vec<String> = names
            .iter()
            .zip(&strategies)
            .map(|(spec, s)| shard_file::strategy_identity(spec, s.name()))
            .collect();
        let target = args
            .target
            .map_or("none".into(), |(lo, hi)| format!("{lo}..{hi}"));
        let meta = Meta::new("explore", shard)
            .input("param", axes.join(" "))
            .input("strategy", identities.join(", "))
            .input("target", target)
            .input("target_strategy", &args.target_strategy)
            .input("rules", base)
            .input("stealth", stealth_list(stealths));
        let (header, records) = shard_file::records(rows.iter().map(|(_, r)| r))?;
        let tagged: Vec<(usize, Vec<String>)> =
            rows.iter().map(|(unit, _)| *unit).zip(records).collect();
        let bytes = shard_file::render(&meta, &header, &tagged)?;
        let note = format!(
            "raven {} explore: shard {shard} ({} of {} points) written; `raven merge` joins \
             the shards\n",
            env!("CARGO_PKG_VERSION"),
            units.len(),
            points.len()
        );
        return output.write_bytes(&note, &bytes);
    }
    let rows = rows.into_iter().map(|(_, row)| row);

    let grid = Explored {
        labels: &labels,
        points: &points,
        results: &results,
    };
    if let Some(mut file) = chart {
        let svg = chart_svg(args, &base, &grid);
        file.writer().extend_from_slice(svg.as_bytes());
        file.commit()?;
    }

    let mut text = String::new();
    if !output.is_stdout() {
        text = table(args, &base, &grid);
        if !skipped.is_empty() {
            let _ = writeln!(
                text,
                "skipped {} point(s) whose values do not fit together: {}",
                skipped.len(),
                skipped.join("; ")
            );
        }
        if let Some((lo, hi)) = args.target {
            text += &target_lines(args, (lo, hi), &grid);
        }
    }
    output.write(&text, rows)
}

/// The grid: every combination of the axes' values on top of `base`, in order; points whose
/// values do not fit together (refused by [`Design::check`]) are skipped and described.
fn grid(base: &Rules, axes: &[Axis]) -> Result<(Vec<GridPoint>, Vec<String>)> {
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    for point in grid::points(base, axes).map_err(Error::Input)? {
        match point {
            Ok(point) => points.push(point),
            Err((_, e)) => skipped.push(e.to_string()),
        }
    }
    if points.is_empty() {
        return Err(Error::Input(format!(
            "no point of the grid is a valid design: {}",
            skipped.join("; ")
        )));
    }
    Ok((points, skipped))
}

/// `--chart`'s drawing: a line chart of one parameter, a heat map of two.
fn chart_svg(args: &ExploreArgs, base: &Rules, grid: &Explored<'_>) -> String {
    match args.params.as_slice() {
        [x, y] => heat_map_svg(args, base, (x, y), grid),
        [axis, ..] => line_chart_svg(args, base, axis, grid),
        // Not reached: clap requires a --param, and `run` refuses a third before the work.
        [] => String::new(),
    }
}

/// Win probability against one parameter: a line per (method, stealth).
fn line_chart_svg(args: &ExploreArgs, base: &Rules, axis: &Axis, grid: &Explored<'_>) -> String {
    let &Explored {
        labels,
        points,
        results,
    } = grid;
    let stealths = &args.exact.stealth;
    let series: Vec<Series> = labels
        .iter()
        .enumerate()
        .flat_map(|(k, label)| {
            stealths.iter().enumerate().map(move |(j, stealth)| Series {
                name: format!("{label} @{stealth}"),
                points: points
                    .iter()
                    .zip(results)
                    .filter_map(|(p, wins)| Some((axis_number(&p.values[0])?, wins[k][j])))
                    .collect(),
                intervals: Vec::new(),
                dashed: false,
                muted: false,
            })
        })
        .collect();
    line_chart(
        &format!("Win probability against {} ({base})", axis.key),
        &axis.key,
        "P(win)",
        &series,
    )
}

/// Win probability over two parameters: a panel per method (rows: optimal play, then each
/// strategy) and stealth (columns), a cell per grid point; points skipped as invalid designs
/// have no result and are drawn hatched.
fn heat_map_svg(
    args: &ExploreArgs,
    base: &Rules,
    (x, y): (&Axis, &Axis),
    grid: &Explored<'_>,
) -> String {
    let &Explored {
        labels,
        points,
        results,
    } = grid;
    let stealths = &args.exact.stealth;
    // Each cell's results, found once by the point's (x, y) values rather than by the grid's
    // order; a skipped point has none.
    let found: Vec<Vec<Option<&Vec<Vec<f64>>>>> = y
        .values
        .iter()
        .map(|yv| {
            x.values
                .iter()
                .map(|xv| {
                    points
                        .iter()
                        .position(|p| p.values.first() == Some(xv) && p.values.get(1) == Some(yv))
                        .and_then(|i| results.get(i))
                })
                .collect()
        })
        .collect();
    let panel = |k: usize, j: usize| -> Cells {
        found
            .iter()
            .map(|row| {
                row.iter()
                    .map(|wins| wins.and_then(|w| w.get(k)?.get(j).copied()))
                    .collect()
            })
            .collect()
    };
    let axis = |a: &Axis| HeatAxis {
        label: a.key.clone(),
        values: a.values.clone(),
    };
    heat_map(&HeatMap {
        title: format!("Win probability over {} × {} ({base})", x.key, y.key),
        x: axis(x),
        y: axis(y),
        rows: labels.to_vec(),
        columns: stealths.iter().map(|s| format!("stealth {s}")).collect(),
        panels: (0..labels.len())
            .map(|k| (0..stealths.len()).map(|j| panel(k, j)).collect())
            .collect(),
    })
}

/// A parameter value as a number for the chart's axis (`yes` 1, `no` 0, `team` 0).
fn axis_number(value: &str) -> Option<f64> {
    match value {
        "yes" => Some(1.0),
        "no" | "team" => Some(0.0),
        v => v.parse().ok(),
    }
}

/// The table: one line per point, a column per (strategy, stealth).
fn table(args: &ExploreArgs, base: &Rules, grid: &Explored<'_>) -> String {
    let &Explored {
        labels,
        points,
        results,
    } = grid;
    let stealths = &args.exact.stealth;
    let mut text = format!(
        "raven {} explore: rules {base}; stealth {}; every outcome, no sampling\n\n",
        env!("CARGO_PKG_VERSION"),
        stealth_list(stealths)
    );
    let width = |s: &str| s.len().max(8);
    for axis in &args.params {
        let _ = write!(text, "{:<w$} ", axis.key, w = width(&axis.key));
    }
    let columns: Vec<String> = labels
        .iter()
        .flat_map(|l| stealths.iter().map(move |s| format!("{l}@{s}")))
        .collect();
    for c in &columns {
        let _ = write!(text, "{c:>w$} ", w = c.len().max(7));
    }
    text = text.trim_end().to_string() + "\n";
    for (point, wins) in points.iter().zip(results) {
        for (axis, value) in args.params.iter().zip(&point.values) {
            let _ = write!(text, "{value:<w$} ", w = width(&axis.key));
        }
        let flat = wins.iter().flatten();
        for (c, win) in columns.iter().zip(flat) {
            let _ = write!(
                text,
                "{:>w$} ",
                format!("{:.2}%", 100.0 * win),
                w = c.len().max(7)
            );
        }
        text = text.trim_end().to_string() + "\n";
    }
    text
}

/// "Inside the band": per stealth, the points where the target strategy's win probability
/// lies inside `[lo, hi]`.
fn target_lines(args: &ExploreArgs, (lo, hi): (f64, f64), grid: &Explored<'_>) -> String {
    let &Explored {
        labels,
        points,
        results,
    } = grid;
    let k = labels
        .iter()
        .position(|l| *l == args.target_strategy)
        .expect("checked before the work");
    let mut text = format!(
        "\n{} inside {:.1}–{:.1}%:\n",
        args.target_strategy,
        100.0 * lo,
        100.0 * hi
    );
    for (j, stealth) in args.exact.stealth.iter().enumerate() {
        let inside: Vec<String> = points
            .iter()
            .zip(results)
            .filter(|(_, wins)| (lo..=hi).contains(&wins[k][j]))
            .map(|(p, wins)| {
                let at = args
                    .params
                    .iter()
                    .zip(&p.values)
                    .map(|(a, v)| format!("{}={v}", a.key))
                    .collect::<Vec<_>>()
                    .join(" ");
                format!("{at} ({:.2}%)", 100.0 * wins[k][j])
            })
            .collect();
        let list = if inside.is_empty() {
            "none".to_string()
        } else {
            inside.join(", ")
        };
        let _ = writeln!(text, "  stealth {stealth}: {list}");
    }
    text
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
            let _ = parse_axis(&any_text);
            let _ = parse_axis(&shaped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_take_lists_and_ranges_and_check_each_value() {
        let axis = parse_axis("run-challenges=3..5,8").unwrap();
        assert_eq!(axis.values, ["3", "4", "5", "8"]);
        let axis = parse_axis("first-aid-after-run=yes,no").unwrap();
        assert_eq!(axis.values, ["yes", "no"]);
        assert!(
            parse_axis("team-size=0..3")
                .unwrap_err()
                .contains("cannot be '0'")
        );
        assert!(
            parse_axis("recruit-count=all")
                .unwrap_err()
                .contains("not a design")
        );
        assert!(parse_axis("threshold=5..3").unwrap_err().contains("empty"));
        assert!(parse_axis("threshold=4,4").unwrap_err().contains("twice"));
        assert!(parse_axis("threshold").unwrap_err().contains("KEY=VALUES"));
        assert_eq!(parse_band("45..55"), Ok((0.45, 0.55)));
        assert!(parse_band("55..45").is_err());
    }

    #[test]
    fn points_that_make_no_sense_are_skipped_and_named() {
        let axes = [
            parse_axis("threshold=3..5").unwrap(),
            parse_axis("eased-threshold=4").unwrap(),
        ];
        let (points, skipped) = grid(&Rules::default(), &axes).unwrap();
        assert_eq!(points.len(), 2);
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].contains("eased-threshold=4"), "{}", skipped[0]);
    }
}
