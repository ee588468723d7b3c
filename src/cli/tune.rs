//! `raven tune`: the best strategy a person can follow — the strategy file with the highest
//! exact win probability under the rules in force — how close it comes to optimal play, and
//! which of its rules of thumb matter most.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::engine::decisions::decisions;
use crate::engine::{Halt, exact_within};
use crate::error::{Error, Result};
use crate::game::DecisionKind;
use crate::report::table::{self, Align, Table};
use crate::strategy::{
    BUNDLED, FileStrategy, RandomStrategy, ReferenceStrategy, Strategy, bundled,
};
use crate::tune::{KNOBS, Point, Task, Tuned, tune};

use super::args::{DEFAULT_SEED, ExactEngineArgs, RulesArgs, stealth_list};
use super::output::AtomicFile;
use super::progress::Progress;

/// Arguments of `raven tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// Climb from this many of the bundled strategies, the best first (0 only with `--from`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=8))]
    pub bundled_starts: u16,
    /// Climb first from these strategy files (repeatable), then from the bundled ones.
    #[arg(long = "from", value_name = "FILE")]
    pub from: Vec<PathBuf>,
    /// Climbs from random strategy files after those from the bundled ones.
    #[arg(long, default_value_t = 0)]
    pub restarts: u16,
    /// Seed of the random starts: the same seed gives the same search on any thread count.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Search only these knobs (`section.key`, repeatable; default: every knob).
    #[arg(long = "knob", value_name = "SECTION.KEY")]
    pub knobs: Vec<String>,
    /// Write the winner here as a commented strategy file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `raven tune`.
pub fn run(args: &TuneArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let stealths: Vec<u8> = args.exact.stealth.to_vec();
    let knobs = knob_indices(&args.knobs)?;
    if args.bundled_starts == 0 && args.from.is_empty() {
        return Err(Error::Input(
            "--bundled-starts 0 leaves nothing to climb from: give --from FILE".into(),
        ));
    }
    let from: Vec<FileStrategy> = args
        .from
        .iter()
        .map(|path| crate::load::strategy_file(path).map_err(|e| Error::Input(e.to_string())))
        .collect::<Result<_>>()?;
    // Before the search: an unusable path fails now.
    let mut file = args.out.as_deref().map(AtomicFile::create).transpose()?;
    let started = Instant::now();
    let pool = args.exact.pool()?;
    let cancel = [super::interrupt::flag()];
    let budget = args.exact.budget(&cancel);
    let polled = super::interrupt::polled();
    let evaluate = |strategy: &dyn Strategy| -> std::result::Result<Vec<f64>, Halt> {
        Ok(exact_within(&rules, strategy, &stealths, budget)?
            .expectations
            .iter()
            .map(|e| e.win)
            .collect())
    };

    // The bundled files of knobs, the best first: the starts, and a rung of the ladder (the
    // rule cards are knobs and rules; the knobs they read are a bundled file's already).
    let spinner = Progress::spinner("tune: the bundled strategies", args.exact.quiet);
    let files: Vec<FileStrategy> = BUNDLED
        .iter()
        .map(|(name, _)| bundled(name).expect("bundled").expect("valid"))
        .filter(|f| f.spec().card.is_empty())
        .collect();
    let bundled_values: Vec<Vec<f64>> = pool.install(|| {
        use rayon::prelude::*;
        files
            .par_iter()
            .map(|f| evaluate(f))
            .collect::<std::result::Result<_, _>>()
    })?;
    spinner.finish();
    let mut ranked: Vec<usize> = (0..files.len()).collect();
    ranked.sort_by(|&a, &b| mean(&bundled_values[b]).total_cmp(&mean(&bundled_values[a])));
    let task = Task {
        rules,
        stealths: stealths.clone(),
        starts: from
            .iter()
            .chain(
                ranked
                    .iter()
                    .take(usize::from(args.bundled_starts))
                    .map(|&i| &files[i]),
            )
            .map(|f| (f.name().to_string(), Point::of(f.spec())))
            .collect(),
        random_starts: usize::from(args.restarts),
        seed: args.seed,
        knobs,
    };
    let spinner = Progress::spinner("tune: candidates evaluated", args.exact.quiet);
    let tuned = pool.install(|| {
        tune(&task, budget, &|n| {
            spinner.label(format!("{n}"));
        })
    })?;
    spinner.finish();
    let searched = started.elapsed().as_secs_f64();

    // The rest of the ladder and the winner's regret, unless interrupted.
    let winner = FileStrategy::from_spec("tuned", tuned.best.spec().expect("a valid winner"));
    let rest = if tuned.interrupted {
        None
    } else {
        let spinner = Progress::spinner(
            "tune: random play, and optimal play's regret decomposition",
            args.exact.quiet,
        );
        let rest = pool.install(|| {
            rayon::join(
                || {
                    rayon::join(
                        || evaluate(&RandomStrategy),
                        || evaluate(&ReferenceStrategy),
                    )
                },
                || decisions(&rules, &winner, &stealths, budget),
            )
        });
        spinner.finish();
        let ((random, reference), regret) = rest;
        match (random, reference, regret) {
            (Ok(r), Ok(f), Ok(d)) => Some((r, f, d)),
            (Err(Halt::Cancelled(_)), ..)
            | (_, Err(Halt::Cancelled(_)), _)
            | (.., Err(Halt::Cancelled(_))) => None,
            (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return Err(e.into()),
        }
    };
    drop(polled);

    let best_bundled = ranked[0];
    let mut text = table::inputs_line(
        "tune",
        &[
            format!("rules {rules}"),
            format!("stealth {}", stealth_list(&stealths)),
            format!(
                "{}{} bundled start(s), {} random (seed {})",
                if args.from.is_empty() {
                    String::new()
                } else {
                    format!("{} file start(s), ", args.from.len())
                },
                args.bundled_starts,
                args.restarts,
                args.seed
            ),
            "every candidate evaluated exactly".to_string(),
        ],
    );
    if tuned.interrupted {
        text += "\ninterrupted: the best strategy found so far\n";
    }
    // The ladder.
    let mut ladder = Table::new(
        std::iter::once(("strategy".to_string(), Align::Left))
            .chain(
                stealths
                    .iter()
                    .map(|s| (format!("stealth {s}"), Align::Right)),
            )
            .chain(std::iter::once(("mean".to_string(), Align::Right))),
    );
    let mut rung = |name: String, values: &[f64]| {
        ladder.row(
            std::iter::once(name)
                .chain(values.iter().map(|v| format!("{:.2}%", 100.0 * v)))
                .chain(std::iter::once(format!("{:.2}%", 100.0 * mean(values))))
                .collect(),
        );
    };
    let optimal: Option<Vec<f64>> = rest
        .as_ref()
        .map(|(_, _, d)| d.iter().map(|d| d.optimal).collect());
    if let Some((random, reference, _)) = &rest {
        rung("random".to_string(), random);
        rung("reference".to_string(), reference);
    }
    rung(
        format!("best bundled ({})", files[best_bundled].name()),
        &bundled_values[best_bundled],
    );
    rung("tuned".to_string(), &tuned.values);
    if let Some(optimal) = &optimal {
        rung("optimal".to_string(), optimal);
    }
    text += &format!("\nthe ladder (exact win probability)\n{}", ladder.render());
    if let Some(optimal) = &optimal {
        let gaps: Vec<String> = stealths
            .iter()
            .zip(optimal.iter().zip(&tuned.values))
            .enumerate()
            .map(|(i, (s, (o, t)))| {
                let unit = if i == 0 { " points" } else { "" };
                format!("{:.2}{unit} at {s}", 100.0 * (o - t))
            })
            .collect();
        text += &format!("tuned is short of optimal play by {}\n", gaps.join(", "));
    }
    // In full, as `raven exact` prints them: the written file gives these bits.
    for (s, v) in stealths.iter().zip(&tuned.values) {
        text += &format!("tuned, stealth {s:>2}: P(win) = {v:.15}\n");
    }
    text += &path_text(&tuned);
    text += &sensitivity_text(&tuned);
    if let Some((_, _, regret)) = &rest {
        text += "\nwhere the tuned strategy still loses against optimal play (regret by decision, points):\n";
        let mut t = Table::new(
            std::iter::once(("  decision".to_string(), Align::Left)).chain(
                stealths
                    .iter()
                    .map(|s| (format!("stealth {s}"), Align::Right)),
            ),
        );
        let mut kinds = DecisionKind::ALL.to_vec();
        let total =
            |k: DecisionKind| -> f64 { regret.iter().map(|d| d.by_kind.regret[k as usize]).sum() };
        kinds.sort_by(|a, b| total(*b).total_cmp(&total(*a)));
        for k in kinds {
            t.row(
                std::iter::once(format!("  {}", k.key()))
                    .chain(
                        regret
                            .iter()
                            .map(|d| format!("{:.2}", 100.0 * d.by_kind.regret[k as usize])),
                    )
                    .collect(),
            );
        }
        text += &t.render();
        text += "  (what the knobs cannot express: at these decisions optimal play reads more of the \
                 position than any knob does)\n";
    }
    text += &format!(
        "\n{} candidates evaluated in {searched:.1} s; {:.1} s in all\n",
        tuned.evaluated,
        started.elapsed().as_secs_f64()
    );
    if let Some(file) = file.as_mut() {
        let header = format!(
            "The strategy file with the highest exact win probability that `raven tune` found\n\
             under rules {rules}, mean over stealth {}: {}.\n\
             Each knob's comment says what it decides and what the best other value costs\n\
             (points of mean win probability).",
            stealth_list(&stealths),
            tuned
                .values
                .iter()
                .zip(&stealths)
                .map(|(v, s)| format!("{:.2}% at {s}", 100.0 * v))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let body = tuned.best.file(
            &header,
            &format!(
                "tuned by raven tune for {rules} at stealth {}",
                stealth_list(&stealths)
            ),
            |k| knob_comment(&tuned, k),
        );
        file.writer().extend_from_slice(body.as_bytes());
    }
    if let Some(file) = file {
        file.commit()?;
    }
    super::output::to_stdout(text.as_bytes())
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// `--knob` names as indices into [`KNOBS`] (every knob when none is given).
fn knob_indices(names: &[String]) -> Result<Vec<usize>> {
    if names.is_empty() {
        return Ok((0..KNOBS.len()).collect());
    }
    names
        .iter()
        .map(|name| {
            KNOBS.iter().position(|k| k.name() == *name).ok_or_else(|| {
                Error::Input(format!(
                    "unknown knob '{name}' for --knob (allowed: {})",
                    KNOBS
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
        })
        .collect()
}

/// The path of the winning climb: its start and each change with what it gained.
fn path_text(tuned: &Tuned) -> String {
    let winner = tuned
        .climbs
        .iter()
        .find(|c| c.point == tuned.best)
        .expect("the winner ends a climb");
    let mut text = format!(
        "\nthe path the search took: from {} ({:.2}%)\n",
        winner.start,
        100.0 * winner.from
    );
    if winner.moves.is_empty() {
        text += "  no single knob change improved it\n";
    }
    for m in &winner.moves {
        text += &format!(
            "  {:+6.2} points: {} {} -> {}\n",
            100.0 * m.gain,
            KNOBS[m.knob].name(),
            m.from,
            m.to
        );
    }
    text += &format!("  = {:.2}%\n", 100.0 * winner.value);
    if tuned.climbs.len() > 1 {
        text += "other climbs:";
        for c in tuned.climbs.iter().filter(|c| c.point != tuned.best) {
            text += &format!(
                " {} {:.2}% -> {:.2}% in {} changes;",
                c.start,
                100.0 * c.from,
                100.0 * c.value,
                c.moves.len()
            );
        }
        text.pop();
        text += "\n";
    }
    text
}

/// The winner's knobs, the costliest to change first, in plain words.
fn sensitivity_text(tuned: &Tuned) -> String {
    let mut text =
        "\nthe rules of thumb, in the order they matter (cost of the best other value, points):\n"
            .to_string();
    for s in &tuned.sensitivity {
        let knob = &KNOBS[s.knob];
        match &s.alternative {
            Some((alt, cost)) => {
                text += &format!(
                    "  {:6.2}  {} = {}: {} (next best: {alt})\n",
                    100.0 * cost,
                    knob.name(),
                    s.value,
                    knob.what
                );
            }
            None => {
                text += &format!(
                    "       -  {} = {}: {} (not searched)\n",
                    knob.name(),
                    s.value,
                    knob.what
                );
            }
        }
    }
    text
}

/// The comment above knob `k` in the written file: what it decides and its sensitivity.
fn knob_comment(tuned: &Tuned, k: usize) -> Vec<String> {
    let knob = &KNOBS[k];
    let mut lines = vec![format!("{}.", capitalised(knob.what))];
    if let Some(s) = tuned.sensitivity.iter().find(|s| s.knob == k) {
        match &s.alternative {
            Some((alt, cost)) if *cost >= 5e-5 => lines.push(format!(
                "Best other value: {alt}, {:.2} points worse.",
                100.0 * cost
            )),
            Some((alt, cost)) if *cost > 1e-12 => lines.push(format!(
                "Best other value: {alt}, less than 0.01 points worse."
            )),
            Some((alt, cost)) if *cost < -1e-12 => lines.push(format!(
                "Best other value: {alt}, less than 0.01 points better (too little to move for)."
            )),
            Some((alt, _)) => {
                lines.push(format!("Makes no difference here (e.g. {alt} is as good)."))
            }
            None => {}
        }
    }
    lines
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
