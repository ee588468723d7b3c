//! Operation Purple Raven behind the game interface of [`crate::games`]: the state machine of
//! this module as a [`Game`], so that the engines written for any game play it too. Nothing here
//! is a rule: every answer is the state machine's.

use super::canon::Labels;
use super::key::pack_as;
use super::{
    Action, Aid, Character, DecisionKind, Health, LossCause, Node, Outcome, Phase, State, Step,
    Team,
};
use crate::games::{End, Game, Index, Point};
use crate::rules::Rules;

/// The kinds of decision as [`DecisionKind::key`] spells them.
const KINDS: [&str; super::KINDS] = [
    "main-character",
    "recruit-target-or-stop",
    "recruit-roller-or-stop",
    "run-type-on-6",
    "run-roller",
    "finale-character",
    "side-challenge",
    "substitute",
    "first-aid",
];

/// The causes of a loss as [`LossCause::key`] spells them.
const CAUSES: [&str; 4] = ["recruitment", "run", "finale", "finale_character_down"];

/// Whether a state's value is worth keeping. Checks that follow a decision (`…Check` steps and
/// first aid in progress) are reached from that one decision only, the choice of main
/// character from the one complication roll only, a run type to pick from its one roll, and
/// the root once: memoising them would only cost memory.
#[inline]
pub fn worth_memoising(state: &State) -> bool {
    !matches!(state.aid(), Aid::Check { .. })
        && !matches!(
            state.step(),
            Step::Complications
                | Step::ChooseMain
                | Step::PickRunType { .. }
                | Step::RecruitCheck { .. }
                | Step::RunCheck { .. }
                | Step::SideCheck { .. }
        )
}

/// Operation Purple Raven under `rules`, from a starting stealth.
#[derive(Clone, Copy, Debug)]
pub struct PurpleRaven {
    /// The rules in force.
    pub rules: Rules,
    /// The starting stealth.
    pub stealth: u8,
}

impl Game for PurpleRaven {
    type Pos = State;
    type Option = Action;
    /// The packed state and the counters a strategy may read (the rules never do).
    type Key = (u64, u8, u8);

    fn name(&self) -> &'static str {
        "purple-raven"
    }

    fn kinds(&self) -> &'static [&'static str] {
        &KINDS
    }

    fn causes(&self) -> &'static [&'static str] {
        &CAUSES
    }

    /// Recruitment, the run, then each Tough Challenge with the side challenges before it
    /// (R5).
    fn phases(&self) -> Vec<String> {
        let mut phases = vec!["recruitment".to_string(), "the run".to_string()];
        phases.extend(
            (1..=self.rules.design.tough_challenges).map(|k| format!("Tough Challenge {k}")),
        );
        phases
    }

    fn phase(&self, pos: &State) -> u8 {
        match pos.step() {
            Step::SideTypes { tough }
            | Step::Side { tough, .. }
            | Step::SideCheck { tough, .. }
            | Step::Tough { tough, .. }
            | Step::Substitute { tough, .. } => 2 + tough,
            _ => match pos.phase() {
                Phase::Recruitment => 0,
                Phase::Run => 1,
                // Choosing the finale character comes before the first Tough Challenge.
                Phase::Finale => 2,
                Phase::Over => 1 + self.rules.design.tough_challenges,
            },
        }
    }

    fn start(&self) -> State {
        State::new(self.stealth)
    }

    fn point(&self, pos: &State) -> Point {
        match pos.node(&self.rules) {
            Node::Chance(_) => Point::Chance,
            Node::Decision(d) => {
                let kind = DecisionKind::of(d);
                Point::Decision(
                    DecisionKind::ALL
                        .iter()
                        .position(|&k| k == kind)
                        .expect("a kind") as u8,
                )
            }
            Node::Over(Outcome::Win) => Point::Over(End::Win),
            Node::Over(Outcome::Loss(cause)) => Point::Over(End::Loss(
                LossCause::ALL
                    .iter()
                    .position(|&c| c == cause)
                    .expect("a cause") as u8,
            )),
        }
    }

    fn outcomes(&self, pos: &State, each: &mut impl FnMut(State, f64)) {
        let Node::Chance(chance) = pos.node(&self.rules) else {
            unreachable!("not a chance point")
        };
        for (outcome, p) in chance.outcomes() {
            let mut next = *pos;
            next.apply_outcome(&self.rules, outcome);
            each(next, p);
        }
    }

    fn options(&self, pos: &State, each: &mut impl FnMut(Action, State)) {
        for &action in pos.actions(&self.rules).iter() {
            let mut next = *pos;
            next.apply_action(&self.rules, action);
            each(action, next);
        }
    }

    /// The class of `pos` under relabelling the five non-medic characters, without the
    /// counters and the information the rules never read again ([`super::canon::canonical`]).
    fn canonical(&self, pos: &State) -> State {
        super::canon::canonical(pos, &self.rules)
    }

    /// Stealth never rises.
    fn layer(&self, pos: &State) -> u32 {
        u32::from(pos.stealth())
    }

    /// The rules read stealth only as "discovered or not" and lose it a point at a time, so
    /// a position plays alike at every stealth from 2 up ([`super::canon::ALIKE_FROM_STEALTH`]).
    fn alike_from(&self) -> Option<u32> {
        Some(u32::from(super::canon::ALIKE_FROM_STEALTH))
    }

    fn relayer(&self, pos: &State, layer: u32) -> State {
        pos.with_stealth(layer as u8)
    }

    /// The start and the positions [`worth_memoising`] keeps: a check that follows a
    /// decision is reached from that decision only, the choice of main character from the one
    /// complication roll, a run type to pick from its one roll.
    fn stored(&self, pos: &State) -> bool {
        worth_memoising(pos) || matches!(pos.step(), Step::Complications)
    }

    /// A run or finale position by its roles ([`super::canon::dense_class`]): a chunk and
    /// stealth as the group, the finale slot and slot healths as the offset. Positions with
    /// the same roles are relabellings of each other, of one canonical form.
    fn index(&self, pos: &State) -> Option<Index> {
        // A check type with no live specialist plays as any other such type (R1, R12), which
        // the roles say and the canonical form does not (it tells the Medic and the others
        // apart, and two such types from one): such a position is found by its canonical form.
        let named = match pos.step() {
            Step::Run { ty, .. } => [Some(ty), None],
            Step::Side { types, index, .. } => [(index == 0).then_some(types[0]), Some(types[1])],
            _ => [None, None],
        };
        let nobody = |c: Character| !pos.team().contains(c) || pos.health(c) == Health::Dead;
        if named.into_iter().flatten().any(nobody) {
            return None;
        }
        let roles = super::canon::roles(pos)?;
        let class = super::canon::dense_class(pos, &roles)?;
        Some(Index {
            group: u64::from(class.chunk) << 8 | u64::from(pos.stealth()),
            offset: class.index,
            width: class.width,
        })
    }

    fn key(&self, pos: &State) -> (u64, u8, u8) {
        (
            pack_as(pos, Labels::IDENTITY, Team::EMPTY, false),
            pos.attempts(),
            pos.failures(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{options_of, outcomes_of};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Two positions at one place of the dense layout ([`Game::index`]) have one canonical
    /// form, else the solve would merge positions that its canonical forms tell apart: checked
    /// at every position of random games (options and outcomes drawn alike) under both
    /// presets, at stealth 0, 1 and 2 (every class of stealth). Fails if a check type with no
    /// live specialist is indexed by its roles.
    #[test]
    fn positions_at_one_index_have_one_canonical_form() {
        for preset in ["main-text", "clarified"] {
            let rules = Rules::preset(preset).unwrap();
            for stealth in 0..=2 {
                let game = PurpleRaven { rules, stealth };
                let mut forms = std::collections::HashMap::new();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(stealth));
                let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
                for _ in 0..4000 {
                    let mut pos = game.start();
                    loop {
                        pos = match game.point(&pos) {
                            Point::Over(_) => break,
                            Point::Chance => {
                                let all = outcomes_of(&game, &pos);
                                all[pick(all.len())].0
                            }
                            Point::Decision(_) => {
                                let all = options_of(&game, &pos);
                                all[pick(all.len())].1
                            }
                        };
                        if let Some(index) = game.index(&pos) {
                            let form = game.key(&game.canonical(&pos));
                            let first = *forms.entry((index.group, index.offset)).or_insert(form);
                            assert_eq!(first, form, "{preset} {pos:?}");
                        }
                    }
                }
                assert!(forms.len() > 300, "{preset} {stealth}: {}", forms.len());
            }
        }
    }

    #[test]
    fn the_names_are_the_state_machines() {
        for (k, kind) in DecisionKind::ALL.iter().enumerate() {
            assert_eq!(KINDS[k], kind.key());
        }
        for (c, cause) in LossCause::ALL.iter().enumerate() {
            assert_eq!(CAUSES[c], cause.key());
        }
    }
}
