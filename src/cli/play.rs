//! `raven play`: narrate one game.

use std::fmt::Write as _;

use clap::Args;

use crate::engine::{Observer, OptimalStrategy, play_seeded};
use crate::error::Result;
use crate::game::{Action, Aid, Chance, Character, Decision, Phase, State, Step};
use crate::report::words;
use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE, Strategy};

use super::args::{DEFAULT_SEED, RulesArgs, load_strategy, ready_to_play, solved_optimal};
use super::bounds;
use super::ledger::Keeper;
use super::output::to_stdout;
use super::progress::Progress;

/// Arguments of `raven play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Seed of the game.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Which game of the seeded run to replay (as numbered by `simulate`).
    #[arg(long, default_value_t = 0)]
    pub game: u64,
    /// Starting stealth (0..=99).
    #[arg(long, default_value_t = 10, value_parser = bounds::stealth)]
    pub stealth: u8,
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = REFERENCE)]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    /// Advice at every decision: each legal option's optimal win probability (the best
    /// marked), and the optimal win probability after every roll. (Optimal play is solved at
    /// this stealth first in any case, for the ledger that ends the game: seconds.)
    #[arg(long)]
    pub advise: bool,
    /// You make the decisions: the legal options are numbered, type one's number (prompts
    /// on standard error). Ctrl-D abandons the game. Advice only with --advise.
    #[arg(long, conflicts_with = "strategy")]
    pub interactive: bool,
    /// Where the dice come from: the seeded game, or typed in from real dice at every roll
    /// (all the faces, or a check's highest alone).
    #[arg(long, value_enum, default_value_t = DiceSource::Seed)]
    pub dice: DiceSource,
}

impl PlayArgs {
    /// Whether a person takes part (advice, their decisions or their dice): the advisor's
    /// game at the table rather than a narrated one.
    pub fn at_the_table(&self) -> bool {
        self.advise || self.interactive || self.dice == DiceSource::Manual
    }
}

/// Where the dice of `raven play` come from.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceSource {
    /// The seeded streams of game `--game` under `--seed`, as `raven play` draws them.
    Seed,
    /// Typed in from real dice, at every roll.
    Manual,
}

/// Runs `raven play` without a person at the table: the game narrated, and its ledger.
pub fn run(args: &PlayArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    // Input errors (an unknown strategy) before the solve, which takes seconds.
    let loaded = load_strategy(&args.strategy)?;
    let table = solved_for_ledger(&rules, args.stealth)?;
    // Optimal play plays from the ledger's table (one solve).
    let ready;
    let strategy: &dyn Strategy = if loaded.name() == OPTIMAL {
        &table
    } else {
        ready = ready_to_play(loaded, &rules, &[args.stealth])?;
        ready.as_ref()
    };
    let mut watch = Watch::new(rules, &table, args.stealth);
    writeln!(
        watch.narrator.text,
        "Operation Purple Raven: seed {}, game {}, stealth {}, strategy {}, rules {}",
        args.seed,
        args.game,
        args.stealth,
        strategy.name(),
        rules
    )
    .expect("writing to a String");
    let (_, outcome) = play_seeded(
        &rules,
        strategy,
        args.stealth,
        args.seed,
        args.game,
        &mut watch,
    );
    let mut text = watch.narrator.text;
    text += &watch.keeper.text();
    writeln!(text, "{outcome}").expect("writing to a String");
    to_stdout(text.as_bytes())
}

/// A decision taken, in words for the ledger: the question and the answer.
fn decision_label(before: &State, rules: &Rules, decision: Decision, action: Action) -> String {
    format!(
        "{} → {}",
        words::question(before, rules, decision),
        words::option(before, rules, action)
    )
}

/// Optimal play solved at `stealth`, for the ledger (and the advice), with a spinner.
pub(super) fn solved_for_ledger(rules: &Rules, stealth: u8) -> Result<OptimalStrategy> {
    let progress = Progress::spinner(
        &format!("solving optimal play at stealth {stealth} for the ledger"),
        false,
    );
    let solved = solved_optimal(rules, &[stealth]);
    progress.finish();
    solved
}

/// The narrator and the ledger, watching one game together: every step narrated, and
/// recorded with optimal play's win probability after it.
pub(super) struct Watch<'a> {
    /// The narration so far.
    pub(super) narrator: Narrator,
    /// The ledger so far.
    pub(super) keeper: Keeper,
    table: &'a OptimalStrategy,
}

impl<'a> Watch<'a> {
    /// A watch over a game from `stealth` under `rules`, its ledger read from `table`.
    pub(super) fn new(rules: Rules, table: &'a OptimalStrategy, stealth: u8) -> Self {
        Watch {
            narrator: Narrator::new(rules),
            keeper: Keeper::new(table.value(&State::new(stealth), &rules)),
            table,
        }
    }
}

impl Observer for Watch<'_> {
    fn decision(&mut self, before: &State, decision: Decision, action: Action, after: &State) {
        self.narrator.decision(before, decision, action, after);
        let rules = self.narrator.rules;
        let label = decision_label(before, &rules, decision, action);
        self.keeper
            .record(false, self.table.value(after, &rules), label);
    }

    fn chance(&mut self, before: &State, chance: Chance, outcome: u32, after: &State) {
        self.narrator.chance(before, chance, outcome, after);
        let rules = self.narrator.rules;
        let label = format!("the roll for {}", self.narrator.roll_label(before, chance));
        self.keeper
            .record(true, self.table.value(after, &rules), label);
    }
}

/// Writes one line per event of a game.
pub struct Narrator {
    rules: Rules,
    /// The narration so far.
    pub text: String,
}

impl Narrator {
    /// A narrator for a game under `rules`.
    pub fn new(rules: Rules) -> Narrator {
        Narrator {
            rules,
            text: String::new(),
        }
    }

    fn line(&mut self, indent: usize, line: &str) {
        let _ = writeln!(self.text, "{:indent$}{line}", "", indent = indent * 2);
    }

    /// Stealth, health, team and phase changes between two states.
    fn changes(&mut self, before: &State, after: &State) {
        let mut parts = Vec::new();
        if before.stealth() != after.stealth() {
            let note = if after.discovered() {
                " (discovered!)"
            } else {
                ""
            };
            parts.push(format!(
                "stealth {} → {}{note}",
                before.stealth(),
                after.stealth()
            ));
        }
        for c in Character::ALL {
            if after.team().contains(c) && !before.team().contains(c) {
                parts.push(format!("{} joins the team", c.name()));
            } else if before.team().contains(c) && before.health(c) != after.health(c) {
                parts.push(format!(
                    "{} {} → {}",
                    c.name(),
                    before.health(c).label(),
                    after.health(c).label()
                ));
            }
        }
        if !parts.is_empty() {
            let text = parts.join("; ");
            self.line(2, &text);
        }
        if before.phase() != after.phase() {
            match after.phase() {
                Phase::Run => {
                    let team: Vec<_> = after.team().iter().map(|c| c.name()).collect();
                    self.line(0, &format!("Phase 2: the run (team: {})", team.join(", ")));
                }
                Phase::Finale => self.line(0, "Phase 3: the finale"),
                _ => {}
            }
        }
    }

    /// What the roll at chance point `chance` of `state` decides, in words ("the type of run
    /// challenge 4 of 6", "Ink (2d6), first aid on Dix").
    pub(super) fn roll_label(&self, state: &State, chance: Chance) -> String {
        match chance {
            Chance::Complications => "the complications".to_string(),
            Chance::ChallengeType => match state.step() {
                Step::RunType { challenge } => format!(
                    "the type of run challenge {} of {}",
                    challenge + 1,
                    self.rules.design.run_challenges
                ),
                _ => "the run challenge's type".to_string(),
            },
            Chance::SideTypes => match state.step() {
                Step::SideTypes { tough } => format!(
                    "the side challenges of Tough Challenge {} of {}",
                    tough + 1,
                    self.rules.design.tough_challenges
                ),
                _ => "the side challenges' types".to_string(),
            },
            Chance::Check { dice } => {
                let roller = state.roller().expect("a check has a roller");
                format!("{} ({dice}d6), {}", roller.name(), self.check_label(state))
            }
        }
    }

    /// What the pending check is for, read from the state before it.
    pub(super) fn check_label(&self, before: &State) -> String {
        if let Aid::Check { patient, .. } = before.aid() {
            return format!("first aid on {}", patient.name());
        }
        match before.step() {
            Step::RecruitCheck {
                target,
                done,
                needed,
                ..
            } => {
                let ty = before.complication(target).expect("target's complication");
                format!(
                    "{} to recruit {} (check {} of {needed})",
                    ty.complication(),
                    target.name(),
                    done + 1
                )
            }
            Step::RunCheck { challenge, ty, .. } => {
                format!("run challenge {} ({})", challenge + 1, ty.speciality())
            }
            Step::SideCheck { types, index, .. } => format!(
                "side challenge ({})",
                types[usize::from(index)].speciality()
            ),
            Step::Tough { tough, successes } => format!(
                "Tough Challenge {} of {} ({successes} side successes, needs {}+)",
                tough + 1,
                self.rules.design.tough_challenges,
                before.threshold(&self.rules)
            ),
            step => unreachable!("no check at {step:?}"),
        }
    }
}

impl Observer for Narrator {
    fn decision(&mut self, before: &State, decision: Decision, action: Action, after: &State) {
        let text = match (decision, action) {
            (_, Action::Main(c)) => format!("Main character: {c}"),
            (_, Action::Recruit(c)) => {
                let ty = before.complication(c).expect("target's complication");
                let needed = match after.step() {
                    Step::Recruit { needed, .. } => needed,
                    _ => 0,
                };
                format!(
                    "Recruit {c}: complication {} ({}), {needed} successful check{} needed",
                    ty.complication(),
                    ty.speciality(),
                    if needed == 1 { "" } else { "s" }
                )
            }
            (_, Action::Stop) => match before.step() {
                // R8: stopping in the middle of a target discards its successes.
                Step::Recruit {
                    target,
                    done,
                    needed,
                } => format!(
                    "Stop recruiting with a team of {}, abandoning {target} after {done} of \
                     {needed} successful checks",
                    before.team().len()
                ),
                _ => format!("Stop recruiting with a team of {}", before.team().len()),
            },
            (_, Action::RunType(ty)) => {
                format!("Run challenge rolled 6: type {} chosen", ty.speciality())
            }
            (Decision::Substitute, Action::Finale(c)) => {
                format!("Substitute finale character: {c}")
            }
            (_, Action::Finale(c)) => format!("Finale character: {c}"),
            (Decision::SideChallenge { ty, .. }, Action::Pass) => {
                if before.attempts() > 0 {
                    format!("Give up the {} side challenge", ty.speciality())
                } else {
                    format!("Pass the {} side challenge", ty.speciality())
                }
            }
            (_, Action::SkipAid) => "First aid opportunity skipped".to_string(),
            // Who rolls and whom first aid treats are told by the check that follows.
            (_, Action::Roll(_) | Action::Aid { .. } | Action::Pass) => String::new(),
        };
        if !text.is_empty() {
            self.line(1, &text);
        }
        self.changes(before, after);
    }

    fn chance(&mut self, before: &State, chance: Chance, outcome: u32, after: &State) {
        match chance {
            Chance::Complications => {
                self.line(
                    0,
                    &format!("Phase 1: assemble a team (stealth {})", before.stealth()),
                );
                let list: Vec<_> = Character::ALL
                    .iter()
                    .map(|c| {
                        let ty = after.complication(*c).expect("rolled");
                        format!("{} {} ({})", c.name(), ty.complication(), ty.number())
                    })
                    .collect();
                // Three characters a line: all six on one line run past 100 columns.
                self.line(1, &format!("Complications: {},", list[..3].join(", ")));
                self.line(1, &format!("               {}", list[3..].join(", ")));
            }
            Chance::ChallengeType => {
                if let Step::RunType { challenge } = before.step() {
                    let face = outcome + 1;
                    let ty = match after.step() {
                        Step::Run { ty, .. } => ty.speciality(),
                        _ => "of the team's choice",
                    };
                    self.line(
                        1,
                        &format!(
                            "Run challenge {} of {}: rolled {face}, type {ty}",
                            challenge + 1,
                            self.rules.design.run_challenges,
                        ),
                    );
                }
            }
            Chance::SideTypes => {
                if let Step::SideTypes { tough } = before.step() {
                    let types = Chance::side_types(outcome);
                    // R12: as many side challenges as the design has (two when printed).
                    let sides = types[..usize::from(self.rules.design.side_challenges)]
                        .iter()
                        .map(|c| c.speciality())
                        .collect::<Vec<_>>()
                        .join(" and ");
                    self.line(
                        1,
                        &format!(
                            "Tough Challenge {} of {}: side challenges {sides}",
                            tough + 1,
                            self.rules.design.tough_challenges,
                        ),
                    );
                }
            }
            Chance::Check { dice } => {
                let roller = before.roller().expect("a check has a roller");
                let what = self.check_label(before);
                let verdict = if before.check_succeeds(&self.rules, outcome as u8) {
                    "success"
                } else {
                    "failure"
                };
                self.line(
                    2,
                    &format!(
                        "{} rolls {dice}d6 for {what}: highest {outcome}, {verdict}",
                        roller.name()
                    ),
                );
            }
        }
        self.changes(before, after);
    }
}
