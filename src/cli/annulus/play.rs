//! `raven --game annulus play`: one challenge narrated die by die — the setup, every
//! adjustment and its trigger roll, every reveal — with optimal play's advice if asked, or
//! played at the table (`--interactive`).

use std::io::{BufRead, Write};

use clap::Args;

use raven_core::engine::Budget;
use raven_core::engine::generic::sample::{play, roll, stream};
use raven_core::engine::generic::{Optimum, Solved, solve};
use raven_core::games::annulus::{Annulus, JAMMED, Move, Pos, REVEAL, Stage};
use raven_core::games::{End, Game, Point, Policy, options_of};

use super::{DesignArgs, load_strategy, stopped};
use crate::cli::args::DEFAULT_SEED;
use crate::cli::ledger::Keeper;
use crate::error::{Error, Result};
use raven_core::engine::generic::OptimalPolicy;

/// Arguments of `raven --game annulus play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The strategy that plays (not with --interactive): `optimal`, `random`, a bundled name
    /// or an Annulus strategy file.
    #[arg(long, default_value = "planner")]
    pub strategy: String,
    /// Rules preset: `normal` (target 4) or `advanced` (target 7).
    #[arg(long = "rules", value_name = "PRESET", default_value = "normal")]
    pub preset: String,
    /// Override one ruling or design parameter, e.g. `--rule target=5` (repeatable).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Players, 1..=4 (the line has players + 2 dice).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub players: u8,
    /// Purple Raven's axis, refused here.
    #[arg(long, hide = true)]
    pub stealth: Option<String>,
    /// Seed of the challenge.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Which challenge of the seeded run to replay (as numbered by `simulate`).
    #[arg(long, default_value_t = 0)]
    pub game: u64,
    /// Show optimal play's success probability after each option at every decision.
    #[arg(long)]
    pub advise: bool,
    /// You choose each adjustment (`2+` moves die 2 up, `3-` die 3 down); raven rolls.
    #[arg(long, conflicts_with = "strategy")]
    pub interactive: bool,
}

/// The chain as dice: `[4] [5] [7x]`, `x` for jammed, then the hidden count.
pub fn chain(pos: &Pos) -> String {
    let mut dice: Vec<String> = pos
        .chain()
        .map(|(v, jammed)| format!("[{v}{}]", if jammed { "x" } else { "" }))
        .collect();
    if dice.is_empty() {
        dice.push("(no die visible)".into());
    }
    let hidden = match pos.hidden() {
        0 => String::new(),
        1 => ", 1 position hidden".into(),
        n => format!(", {n} positions hidden"),
    };
    format!("{}{hidden}", dice.join(" "))
}

fn describe(m: Move) -> String {
    format!("die {} {}", m.die + 1, if m.up { "up" } else { "down" })
}

/// Runs `raven --game annulus play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let design = DesignArgs {
        preset: args.preset.clone(),
        overrides: args.overrides.clone(),
        players: vec![args.players],
        stealth: args.stealth.clone(),
    };
    let games = design.games()?;
    let game = &games[0];
    // The strategy is checked before the solve, which can take a while.
    let chosen = if args.interactive || args.strategy == "optimal" {
        None
    } else {
        Some(load_strategy(&args.strategy)?)
    };
    // The ledger reads optimal play's values, so the game is solved even without advice.
    let solved = solve(game, Budget::UNLIMITED).map_err(stopped)?;
    let header = format!(
        "The Annulus operation challenge: {}, {} dice, rules {} (an adjustment needs {}+)\n",
        super::players(game.rules().players),
        game.rules().dice(),
        game.rules(),
        game.rules().target
    );
    if args.interactive {
        crate::cli::output::to_stdout(header.as_bytes())?;
        return interactive(game, &solved, args);
    }
    let optimal = OptimalPolicy::new(&solved);
    let strategy: &dyn Policy<Annulus> = match &chosen {
        Some(s) => s.as_ref(),
        None => &optimal,
    };
    let advice = args.advise.then_some(&solved);
    let mut out = header;
    let mut last: Option<Pos> = None;
    let mut lines = Vec::new();
    let mut keeper = Keeper::new(solved.start());
    let (end, _) = play(
        game,
        strategy,
        &mut stream(args.seed, args.game),
        &mut |pos: &Pos| {
            lines.push(narrate(game, last.as_ref(), pos, advice, strategy));
            if let Some(last) = &last {
                step(game, &solved, &mut keeper, last, pos);
            }
            last = Some(*pos);
        },
    );
    for l in lines.into_iter().flatten() {
        out += &l;
        out.push('\n');
    }
    out += &keeper.text();
    out += &ending(end);
    crate::cli::output::to_stdout(out.as_bytes())
}

/// Records the step from `last` to `pos` in the ledger, named in the game's words.
fn step(game: &Annulus, solved: &Solved<'_, Annulus>, keeper: &mut Keeper, last: &Pos, pos: &Pos) {
    let label = match (last.stage(), pos.stage()) {
        (Stage::Setup { placed }, _) => format!("the setup roll of position {}", placed + 1),
        (Stage::Trigger { die, up }, _) => {
            format!("the trigger roll for {}", describe(Move { die, up }))
        }
        (Stage::Reveal, _) => "the reveal".to_string(),
        (_, Stage::Trigger { die, up }) => describe(Move { die, up }),
        (from, to) => unreachable!("no step from {from:?} to {to:?}"),
    };
    let chance = game.point(last) == Point::Chance;
    keeper.record(chance, solved.value(pos), label);
}

fn ending(end: End) -> String {
    match end {
        End::Win => "SUCCESS: the chain is solved and nothing is hidden.\n".into(),
        End::Loss(JAMMED) => "FAILURE: the jammed dice can no longer be joined (A5).\n".into(),
        End::Loss(REVEAL) => {
            "FAILURE: the revealed die breaks the chain for good (A3, A5).\n".into()
        }
        End::Loss(_) => "FAILURE: out of actions (A6).\n".into(),
    }
}

/// What happened between `last` and `pos`, in words.
fn narrate(
    game: &Annulus,
    last: Option<&Pos>,
    pos: &Pos,
    solved: Option<&Solved<'_, Annulus>>,
    strategy: &dyn Policy<Annulus>,
) -> Option<String> {
    let mut line = match (last.map(Pos::stage), pos.stage()) {
        (Some(Stage::Setup { .. }), Stage::Setup { .. }) | (None, _) => return None,
        (Some(Stage::Setup { .. }), _) => format!("Setup: {}", chain(pos)),
        (Some(Stage::Trigger { die, .. }), _) => {
            let jammed = pos.len() > usize::from(die) && pos.jammed(usize::from(die));
            if jammed {
                format!("  trigger fails: die {} jams. {}", die + 1, chain(pos))
            } else {
                format!("  trigger succeeds. {}", chain(pos))
            }
        }
        (Some(Stage::Reveal), _) => format!("Reveal: {}", chain(pos)),
        (Some(Stage::Act), Stage::Trigger { die, up }) => {
            return Some(format!("Adjust {}", describe(Move { die, up })));
        }
        _ => return None,
    };
    if let (Point::Decision(_), Some(solved)) = (game.point(pos), solved) {
        line += &advice(game, pos, solved, strategy);
    }
    Some(line)
}

/// Optimal play's success probability after each option, best first, the strategy's pick
/// marked.
fn advice(
    game: &Annulus,
    pos: &Pos,
    solved: &Solved<'_, Annulus>,
    strategy: &dyn Policy<Annulus>,
) -> String {
    let values = solved.option_values(pos);
    let moves: Vec<Move> = values.iter().map(|&(m, _)| m).collect();
    let mut w = vec![0.0; moves.len()];
    strategy.weigh(game, pos, &moves, &mut w);
    let mut ranked: Vec<(Move, f64, f64)> = values
        .iter()
        .zip(&w)
        .map(|(&(m, v), &w)| (m, v, w))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = ranked[0].1;
    let mut text = String::from("\n  advice (success after each move):");
    for (m, v, w) in &ranked {
        text += &format!(
            "\n    {:<12} {:>5.1}%{}{}",
            describe(*m),
            100.0 * v,
            if *v == best { "  best" } else { "" },
            if *w > 0.0 {
                format!("  <- {}", strategy.name())
            } else {
                String::new()
            }
        );
    }
    text
}

fn interactive(game: &Annulus, solved: &Solved<'_, Annulus>, args: &PlayArgs) -> Result<()> {
    let mut rng = stream(args.seed, args.game);
    let mut outcomes = Vec::new();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut pos = game.start();
    let mut keeper = Keeper::new(solved.start());
    let mut said = |text: &str| -> Result<()> {
        writeln!(stdout, "{text}").map_err(|e| Error::Runtime(e.to_string()))
    };
    said("Type `2+` to move die 2 up, `3-` die 3 down, `?` for advice, `q` to quit.")?;
    let mut lines = stdin.lock().lines();
    loop {
        match game.point(&pos) {
            Point::Over(end) => {
                said(keeper.text().trim_end())?;
                said(ending(end).trim_end())?;
                return Ok(());
            }
            Point::Chance => {
                let before = pos;
                pos = roll(game, &pos, &mut rng, &mut outcomes);
                step(game, solved, &mut keeper, &before, &pos);
                if matches!(before.stage(), Stage::Trigger { .. } | Stage::Reveal)
                    || game.point(&pos) != Point::Chance
                {
                    said(&format!("  {}", chain(&pos)))?;
                }
            }
            Point::Decision(_) => {
                let Some(line) = lines.next() else {
                    return Ok(());
                };
                let line = line.map_err(|e| Error::Runtime(e.to_string()))?;
                let word = line.trim();
                if word == "q" {
                    return Ok(());
                }
                if word == "?" {
                    said(&advice(
                        game,
                        &pos,
                        solved,
                        &super::Knobs::bundled("planner").expect("bundled"),
                    ))?;
                    continue;
                }
                let chosen = parse_move(word)
                    .and_then(|m| options_of(game, &pos).into_iter().find(|&(o, _)| o == m));
                match chosen {
                    Some((m, next)) => {
                        said(&format!("Adjust {}", describe(m)))?;
                        step(game, solved, &mut keeper, &pos, &next);
                        pos = next;
                    }
                    None => said(
                        "  not a legal move here (e.g. `1+` or `2-`; a jammed die never moves)",
                    )?,
                }
            }
        }
    }
}

fn parse_move(word: &str) -> Option<Move> {
    let (die, up) = match (word.strip_suffix('+'), word.strip_suffix('-')) {
        (Some(die), _) => (die, true),
        (_, Some(die)) => (die, false),
        _ => return None,
    };
    let die: u8 = die.trim().parse().ok()?;
    Some(Move {
        die: die.checked_sub(1)?,
        up,
    })
}
