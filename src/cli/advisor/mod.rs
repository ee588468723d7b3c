//! `raven play --advise`, `--interactive` and `--dice manual`: one game at the table.
//!
//! The game is the state machine of [`crate::game`], driven here step by step the way
//! [`crate::engine::play_game`] drives it, with two sources swapped in where a person sits:
//!
//! - **Decisions** come from the strategy, or (`--interactive`) from the person, who types
//!   the number of one of the legal options ([`State::actions`], in that order).
//! - **Dice** come from the seeded streams of game `--game` under `--seed`, drawn exactly as
//!   `raven play` draws them, or (`--dice manual`) are typed in from real dice.
//!
//! With `--advise`, the optimal strategy's table is solved once for the starting stealth
//! before the game (within the bound every command uses), and every decision lists each
//! legal option's optimal win probability — table lookups, microseconds (`benches/advisor.rs`;
//! the rare position the solve keyed apart costs a few positions more) — with the best
//! marked; after every roll the current optimal win probability is shown. The narration is
//! [`Narrator`](super::play::Narrator)'s, line for line, so a game typed in the same way as a strategy plays it
//! prints the same narration as `raven play`.
//!
//! Standard output gets the narration and the advice; prompts and refusals of bad input go
//! to standard error (see [`input::Prompter`]).

mod input;

use std::fmt::Write as _;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::OptimalStrategy;
use crate::engine::{Observer, seed};
use crate::error::Result;
use crate::game::{Action, Chance, Decision, Node, Outcome, State, Streams, uniform};
use crate::report::words;
use crate::rules::Rules;
use crate::strategy::optimal::best_alike;
use crate::strategy::{self, Choice, Strategy};

use super::args::{load_strategy, ready_to_play};
use super::output::to_stdout;
use super::play::{DiceSource, PlayArgs, Watch, solved_for_ledger};
use input::Prompter;

/// Who answers the decision points.
enum Decider<'a> {
    /// A strategy, as `raven play` plays it.
    Strategy(&'a dyn Strategy),
    /// The person at the table (`--interactive`).
    Person,
}

/// How a game at the table ended.
enum Ending {
    /// The game is over.
    Over(Outcome),
    /// The input ended (Ctrl-D) before the game did.
    Abandoned,
}

/// Runs `raven play` with `--advise`, `--interactive` or `--dice manual`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    // Input errors (an unknown strategy) before the solve, which takes seconds.
    let loaded = if args.interactive {
        None
    } else {
        Some(load_strategy(&args.strategy)?)
    };
    // The ledger reads optimal play's table, so it is solved even without advice.
    let table = solved_for_ledger(&rules, args.stealth)?;
    let advisor = args.advise.then_some(&table);
    // The optimal strategy plays from the ledger's table (one solve).
    let playing = match loaded {
        Some(s) if s.name() == strategy::OPTIMAL => None,
        Some(s) => Some(ready_to_play(s, &rules, &[args.stealth])?),
        None => None,
    };
    let decider = match &playing {
        _ if args.interactive => Decider::Person,
        Some(s) => Decider::Strategy(s.as_ref()),
        None => Decider::Strategy(&table),
    };
    let mut game = GameAtTable {
        rules,
        decider,
        advisor,
        manual_dice: args.dice == DiceSource::Manual,
        streams: seed::streams(args.seed, args.stealth, args.game),
        watch: Watch::new(rules, &table, args.stealth),
        prompter: Prompter::new(std::io::stdin().lock(), std::io::stderr()),
    };
    game.header(args);
    let ending = game.play(State::new(args.stealth))?;
    match ending {
        Ending::Over(outcome) => {
            let ledger = game.watch.keeper.text();
            game.watch.narrator.text += &ledger;
            game.say(0, &outcome.to_string());
        }
        Ending::Abandoned => game.say(0, "ABANDONED: end of input, the game was not finished"),
    }
    game.flush()
}

/// One game at the table: the rules, who decides, where the dice come from, and where the
/// narration goes.
struct GameAtTable<'a, R> {
    rules: Rules,
    decider: Decider<'a>,
    /// The solved optimal table, with `--advise`.
    advisor: Option<&'a OptimalStrategy>,
    manual_dice: bool,
    /// The seeded streams: dice unless typed in, and a randomised strategy's choices.
    streams: Streams<Xoshiro256PlusPlus>,
    /// Writes the narration and keeps the ledger; the narration is flushed to standard output
    /// after every step.
    watch: Watch<'a>,
    prompter: Prompter<R, std::io::Stderr>,
}

impl<R: std::io::BufRead> GameAtTable<'_, R> {
    /// The first line: what determines the game, as `raven play` names it.
    fn header(&mut self, args: &PlayArgs) {
        let who = match self.decider {
            Decider::Person => "you decide".to_string(),
            Decider::Strategy(s) => format!("strategy {}", s.name()),
        };
        let dice = if self.manual_dice {
            ", dice typed in"
        } else {
            ""
        };
        let line = format!(
            "Operation Purple Raven: seed {}, game {}, stealth {}, {who}, rules {}{dice}",
            args.seed, args.game, args.stealth, self.rules
        );
        self.say(0, &line);
        if self.advisor.is_some() {
            self.say(
                0,
                "? Advice: each option's optimal win probability (* marks the best); = the \
                 optimal win probability after a roll",
            );
        }
    }

    /// Plays `state` to the end, or until the input ends.
    fn play(&mut self, mut state: State) -> Result<Ending> {
        loop {
            self.flush()?;
            let before = state;
            match state.node(&self.rules) {
                Node::Over(outcome) => return Ok(Ending::Over(outcome)),
                Node::Chance(chance) => {
                    let Some(outcome) = self.roll(&state, chance)? else {
                        return Ok(Ending::Abandoned);
                    };
                    state.apply_outcome(&self.rules, outcome);
                    self.watch.chance(&before, chance, outcome, &state);
                    self.advise_after_roll(chance, &state);
                }
                Node::Decision(decision) => {
                    let Some(action) = self.decide(&state, decision)? else {
                        return Ok(Ending::Abandoned);
                    };
                    state.apply_action(&self.rules, action);
                    self.watch.decision(&before, decision, action, &state);
                }
            }
        }
    }

    /// The outcome of chance point `chance`: drawn from the seeded streams exactly as
    /// [`crate::engine::play_game`] draws it, or typed in; `None` at the end of input.
    fn roll(&mut self, state: &State, chance: Chance) -> Result<Option<u32>> {
        if !self.manual_dice {
            return Ok(Some(chance.sample(&mut self.streams)));
        }
        let what = self.watch.narrator.roll_label(state, chance);
        let prompt = format!("  Roll for {what}: type {}: ", input::dice_request(chance));
        self.prompter
            .ask(&prompt, |text| input::outcome(chance, text))
    }

    /// The answer at decision point `decision`: the strategy's, or the person's (a forced
    /// move is taken without asking); `None` at the end of input. With advice, the options
    /// are listed with their values first.
    fn decide(&mut self, state: &State, decision: Decision) -> Result<Option<Action>> {
        let actions = state.actions(&self.rules);
        // Table lookups after the solve: microseconds (`benches/advisor.rs`).
        let values = self.advisor.map(|table| table.options(state, &self.rules));
        let action = match self.decider {
            Decider::Strategy(strategy) => {
                // As `play_game` answers: a randomised choice draws from the dice stream.
                let action = match strategy.decide(state, &self.rules, decision) {
                    Choice::Act(action) => action,
                    Choice::Uniform => {
                        actions[uniform(&mut self.streams.dice, actions.len() as u32) as usize]
                    }
                };
                if self.advisor.is_some() {
                    self.list(state, decision, values.as_deref(), Some(action));
                }
                action
            }
            Decider::Person => {
                self.say(1, &format!("? {}", words::status(state)));
                self.list(state, decision, values.as_deref(), None);
                if let [only] = actions.as_slice() {
                    self.say(1, "? the only option: taken");
                    *only
                } else {
                    self.flush()?;
                    let prompt = format!("  Your choice (1-{}): ", actions.len());
                    let count = actions.len();
                    match self.prompter.ask(&prompt, |t| input::choice(t, count))? {
                        Some(index) => actions[index],
                        None => return Ok(None),
                    }
                }
            }
        };
        if let Some(values) = &values {
            self.regret(values, action);
        }
        Ok(Some(action))
    }

    /// The options of `state`, numbered from 1, with their optimal win probabilities when
    /// `values` are given (the best marked `*`), and the strategy's pick marked `taken`.
    fn list(
        &mut self,
        state: &State,
        decision: Decision,
        values: Option<&[(Action, f64)]>,
        taken: Option<Action>,
    ) {
        self.say(
            1,
            &format!("? {}", words::question(state, &self.rules, decision)),
        );
        let actions = state.actions(&self.rules);
        let labels: Vec<String> = actions
            .iter()
            .map(|&a| words::option(state, &self.rules, a))
            .collect();
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        // Optimal play's own pick among options that tie, so that `taken` and `best` agree
        // when it plays.
        let best = values.and_then(|vs| best_alike(state, &self.rules, vs));
        for (i, (&action, label)) in actions.iter().zip(&labels).enumerate() {
            let mark = if Some(action) == best { '*' } else { ' ' };
            let mut line = format!("? {mark}{:>3}  {label:<width$}", i + 1);
            if let Some(v) = values.and_then(|vs| vs.get(i)) {
                let _ = write!(line, "  {:>7}", percent(v.1));
            }
            let mut notes = Vec::new();
            if Some(action) == best {
                notes.push("best");
            }
            if Some(action) == taken {
                notes.push("taken");
            }
            if !notes.is_empty() {
                let _ = write!(line, "  {}", notes.join(", "));
            }
            self.say(1, line.trim_end());
        }
    }

    /// With advice, how much win probability the option taken gives up against the best.
    fn regret(&mut self, values: &[(Action, f64)], action: Action) {
        let best = values
            .iter()
            .map(|(_, v)| *v)
            .fold(f64::NEG_INFINITY, f64::max);
        let Some((_, taken)) = values.iter().find(|(a, _)| *a == action) else {
            return;
        };
        let cost = 100.0 * (best - taken);
        if cost >= 0.005 {
            self.say(
                1,
                &format!("? this choice gives up {cost:.2} points of win probability"),
            );
        }
    }

    /// With advice, the optimal win probability once a roll has settled (not after the last
    /// roll: the outcome line follows).
    fn advise_after_roll(&mut self, chance: Chance, after: &State) {
        let Some(table) = self.advisor else { return };
        if after.outcome().is_some() {
            return;
        }
        let indent = if matches!(chance, Chance::Check { .. }) {
            2
        } else {
            1
        };
        let v = table.value(after, &self.rules);
        self.say(indent, &format!("= win probability {}", percent(v)));
    }

    /// Adds one line of narration at `indent` (two spaces a level, as [`Narrator`](super::play::Narrator) indents).
    fn say(&mut self, indent: usize, line: &str) {
        let _ = writeln!(
            self.watch.narrator.text,
            "{:indent$}{line}",
            "",
            indent = indent * 2
        );
    }

    /// Writes the narration so far to standard output, so that it shows before a prompt.
    fn flush(&mut self) -> Result<()> {
        to_stdout(self.watch.narrator.text.as_bytes())?;
        self.watch.narrator.text.clear();
        Ok(())
    }
}

/// A probability as a percentage with two decimals (`72.91%`).
fn percent(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}
