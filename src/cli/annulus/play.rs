//! `raven --game annulus play`: one challenge narrated die by die — the setup, every
//! adjustment and its trigger roll, every reveal — with optimal play's advice if asked, or
//! played at the table (`--interactive`).

use std::io::{BufRead, Write};

use clap::Args;

use raven_core::engine::Budget;
use raven_core::engine::generic::sample::{play, stream};
use raven_core::engine::generic::{Solved, solve};
use raven_core::games::annulus::{Annulus, Move, Pos, Stage};
use raven_core::games::{End, Game, Point, Policy, options_of};

use super::{DesignArgs, load_strategy, stopped};
use crate::cli::args::DEFAULT_SEED;
use crate::error::{Error, Result};

/// Arguments of `raven --game annulus play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The strategy that plays (not with --interactive).
    #[arg(long, default_value = "planner")]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
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
    let games = args.design.games()?;
    let [game] = games.as_slice() else {
        return Err(Error::Input(
            "play takes one number of players (--players N)".into(),
        ));
    };
    let solved = if args.advise || args.interactive {
        Some(solve(game, Budget::UNLIMITED).map_err(stopped)?)
    } else {
        None
    };
    let mut out = String::new();
    out += &format!(
        "The Annulus operation challenge, {} players ({} dice), rules {}\n",
        game.rules().players,
        game.rules().dice(),
        game.rules()
    );
    if args.interactive {
        return interactive(game, solved.as_ref().expect("solved"), args);
    }
    let strategy = load_strategy(&args.strategy)?;
    let mut last: Option<Pos> = None;
    let mut lines = Vec::new();
    let (end, _) = play(
        game,
        strategy.as_ref(),
        &mut stream(args.seed, args.game),
        &mut |pos: &Pos| {
            lines.push(narrate(
                game,
                last.as_ref(),
                pos,
                solved.as_ref(),
                strategy.as_ref(),
            ));
            last = Some(*pos);
        },
    );
    for l in lines.into_iter().flatten() {
        out += &l;
        out.push('\n');
    }
    out += &ending(end);
    crate::cli::output::to_stdout(out.as_bytes())
}

fn ending(end: End) -> String {
    match end {
        End::Win => "SUCCESS: the chain is solved and nothing is hidden.\n".into(),
        End::Loss(0) => "FAILURE: the jammed dice can no longer be joined (A5).\n".into(),
        End::Loss(1) => "FAILURE: the revealed die breaks the chain for good (A3, A5).\n".into(),
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

/// Optimal play's success probability after each option, best first, and the strategy's pick.
fn advice(
    game: &Annulus,
    pos: &Pos,
    solved: &Solved<'_, Annulus>,
    strategy: &dyn Policy<Annulus>,
) -> String {
    let mut values = solved.option_values(pos);
    let moves: Vec<Move> = values.iter().map(|&(m, _)| m).collect();
    let mut w = vec![0.0; moves.len()];
    strategy.weigh(game, pos, &moves, &mut w);
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = values[0].1;
    let mut text = String::from("\n  advice (success after each move):");
    for (m, v) in values.iter().take(4) {
        text += &format!(
            " {} {:.1}%{};",
            describe(*m),
            100.0 * v,
            if *v == best { " best" } else { "" }
        );
    }
    text
}

fn interactive(game: &Annulus, solved: &Solved<'_, Annulus>, args: &PlayArgs) -> Result<()> {
    use rand::Rng;
    let mut rng = stream(args.seed, args.game);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut pos = game.start();
    let mut said = |text: &str| -> Result<()> {
        writeln!(stdout, "{text}").map_err(|e| Error::Runtime(e.to_string()))
    };
    said(&format!(
        "Annulus, {} players: type `2+` to move die 2 up, `3-` die 3 down, `?` for advice, `q` to quit.",
        game.rules().players
    ))?;
    let mut lines = stdin.lock().lines();
    loop {
        match game.point(&pos) {
            Point::Over(end) => {
                said(ending(end).trim_end())?;
                return Ok(());
            }
            Point::Chance => {
                let outcomes = raven_core::games::outcomes_of(game, &pos);
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let mut acc = 0.0;
                let before = pos;
                pos = outcomes.last().expect("an outcome").0;
                for (next, p) in &outcomes {
                    acc += p;
                    if u < acc {
                        pos = *next;
                        break;
                    }
                }
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
    let (die, dir) = word.split_at(word.len().checked_sub(1)?);
    let die: u8 = die.trim().parse().ok()?;
    let up = match dir {
        "+" => true,
        "-" => false,
        _ => return None,
    };
    Some(Move {
        die: die.checked_sub(1)?,
        up,
    })
}
