//! Operation Purple Raven behind the game interface of [`crate::games`]: the state machine of
//! this module as a [`Game`], so that the engines written for any game play it too. Nothing here
//! is a rule: every answer is the state machine's.

use super::canon::Labels;
use super::key::{counted, pack_as, split_health};
use super::{
    Action, Aid, Chance, Character, DecisionKind, LossCause, Node, Outcome, Phase, State, Step,
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

/// Whether a side challenge position is reached from one place only, once its key tells the
/// number of attempts apart: the first side challenge before any attempt comes from its one
/// roll of side types (the second one is met from many), and a first retry from its one
/// failed attempt. Only after two failures, which may come in either order (a wound then a
/// lost stealth point, or the reverse), can two paths meet.
#[inline]
pub fn side_reached_once(state: &State) -> bool {
    match state.step() {
        Step::Side { index, .. } => match state.attempts() {
            0 => index == 0,
            1 => true,
            _ => false,
        },
        _ => false,
    }
}

/// The place ([`Game::place`]) of the position whose key ([`Game::key`], [`counted`]) is
/// `key`: the key's shape (all but the members' health) as the group, their health as the
/// offset ([`split_health`]), so that positions a wound apart lie side by side.
pub fn place_of(key: u128) -> Index {
    let split = split_health(key);
    Index {
        group: split.shape,
        offset: split.index as u32,
        width: split.size as u32,
    }
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
        self.moves(pos, &mut |action| each(action, self.after(pos, action)));
    }

    fn moves(&self, pos: &State, each: &mut impl FnMut(Action)) {
        pos.actions(&self.rules).iter().copied().for_each(each);
    }

    #[inline]
    fn after(&self, pos: &State, action: Action) -> State {
        let mut next = *pos;
        next.apply_action(&self.rules, action);
        next
    }

    const ROLLS_LATE: bool = true;

    /// R12: the first of the two side types now; the second, which the rules read only once
    /// the second side challenge begins, later (a placeholder until then).
    fn outcomes_now(&self, pos: &State, each: &mut impl FnMut(State, f64)) -> bool {
        if !matches!(pos.node(&self.rules), Node::Chance(Chance::SideTypes)) {
            return false;
        }
        for (next, p) in pos.first_side_types(&self.rules) {
            each(next, p);
        }
        true
    }

    /// R12: the second side type is read once the first side challenge is over.
    fn reads_late(&self, pos: &State) -> bool {
        !pos.on_first_side() && pos.outcome().is_none()
    }

    /// R12: the second side type, whatever the first. Its odds are the same for every
    /// character, so positions alike but for a relabelling (one form to a strategy that tells
    /// members apart by their order) stay alike once it is rolled.
    fn outcomes_late(&self, pos: &State, each: &mut impl FnMut(State, f64)) {
        for (second, p) in Chance::second_side_type_odds() {
            each(pos.with_second_side_type(second), p);
        }
    }

    /// A side challenge reached from one place ([`side_reached_once`]), where the form it is
    /// stored in tells the attempts apart.
    fn reached_once(&self, pos: &State, seen: impl Fn(&State) -> State) -> bool {
        side_reached_once(pos) && seen(&pos.with_counters(1, pos.failures())).attempts() == 1
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

    /// Stealth 1 plays like 2 until a point is lost onto 0, where the rules read the team as
    /// discovered ([`super::canon::one_lower`]), under the rules where that gives no option
    /// back ([`super::canon::stealth_one_plays_like_two`]).
    fn replayed_from(&self) -> Option<u32> {
        let from = super::canon::ALIKE_FROM_STEALTH;
        let one = super::canon::stealth_one_plays_like_two(&self.rules);
        Some(u32::from(if one { from - 1 } else { from }))
    }

    fn relayer(&self, pos: &State, layer: u32) -> State {
        // A point lost onto 0 discovers the team, and the position is settled anew (R2, R13).
        if layer == 0 && pos.stealth() > 0 {
            super::canon::one_lower(&pos.with_stealth(1), &self.rules)
        } else {
            pos.with_stealth(layer as u8)
        }
    }

    /// The start and the positions [`worth_memoising`] keeps but for a side challenge
    /// reached from one place ([`side_reached_once`]): a check that follows a decision is
    /// reached from that decision only, the choice of main character from the one
    /// complication roll, a run type to pick from its one roll.
    fn stored(&self, pos: &State) -> bool {
        worth_memoising(pos) || matches!(pos.step(), Step::Complications)
    }

    /// A run or finale position by its roles ([`super::canon::dense_class`]): a chunk and
    /// stealth as the group, the finale slot and slot healths as the offset. Positions with
    /// the same roles are relabellings of each other, or differ only in a check type with no
    /// live specialist, which plays as any other such type (R1, R12): the roles say so, the
    /// canonical form does not (it tells the Medic and the others apart, and two such types
    /// from one).
    ///
    /// The choice of main character (R7), which the game does not store (reached from its one
    /// roll), by its roll's class ([`super::canon::opening_class`]) and stealth: optimal play
    /// then values one choice per class of rolls.
    fn index(&self, pos: &State) -> Option<Index> {
        let group = |chunk: u32| u128::from(chunk) << 8 | u128::from(pos.stealth());
        if pos.step() == Step::ChooseMain {
            let mut rolled = [Character::Medic; 6];
            for c in Character::ALL {
                rolled[c.index()] = pos.complication(c)?;
            }
            let roll = super::complications_roll(rolled);
            return Some(Index {
                group: group(super::canon::DENSE_CHUNKS as u32),
                offset: u32::from(super::canon::opening_class(roll)?),
                width: u32::from(super::canon::opening_classes_count()),
            });
        }
        let roles = super::canon::roles(pos)?;
        let class = super::canon::dense_class(pos, &roles)?;
        Some(Index {
            group: group(class.chunk),
            offset: class.index,
            width: class.width,
        })
    }

    /// [`place_of`] its key.
    fn place(&self, pos: &State) -> Option<Index> {
        let (packed, attempts, failures) = self.key(pos);
        Some(place_of(counted(packed, (attempts, failures))))
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
    use crate::games::{Policy, options_of, outcomes_of, random_play};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The options a strategy's program lists without playing them ([`Game::moves`]) are
    /// [`Game::options`]' in their order, and each leads where `options` says
    /// ([`Game::after`]): at every decision point of random games under both presets.
    #[test]
    fn moves_and_after_are_the_options() {
        for preset in ["main-text", "clarified"] {
            let game = PurpleRaven {
                rules: Rules::preset(preset).unwrap(),
                stealth: 3,
            };
            let mut decisions = 0;
            random_play(&game, 300, 7, |pos| {
                if !matches!(game.point(pos), Point::Decision(_)) {
                    return;
                }
                decisions += 1;
                let mut moves = Vec::new();
                game.moves(pos, &mut |m| moves.push(m));
                let options = options_of(&game, pos);
                assert_eq!(moves.len(), options.len(), "{pos:?}");
                for (&m, &(o, next)) in moves.iter().zip(&options) {
                    assert_eq!(m, o, "{pos:?}");
                    assert_eq!(game.after(pos, m), next, "{pos:?} {m:?}");
                }
            });
            assert!(decisions > 1000, "{preset}: {decisions}");
        }
    }

    /// Every position with a place in the dense layout ([`Game::index`]) is found by it, with
    /// the value of what it leads to, a step on (the best option at a decision, the sum at a
    /// roll), to 1e-12 (the sums' order differs): so two positions at one place play alike,
    /// else the solve would merge positions that play apart, and the place tables, the
    /// template's too, name the right ids. Checked at every position of random games
    /// (options and outcomes drawn alike) under both presets, at stealth 0 to 3 (every class
    /// of stealth, and a template of alike layers at 3). Places that join canonical forms (a
    /// check type with no live specialist, R1, R12) are met, so that check is not empty.
    /// Fails if a place forgets a member's health, or if either place table keeps the ids
    /// as compiled rather than as laid out.
    #[test]
    fn positions_at_one_index_play_alike() {
        use crate::engine::Budget;
        use crate::engine::generic::{Optimum, solve};
        for preset in ["main-text", "clarified"] {
            let rules = Rules::preset(preset).unwrap();
            let mut joined = 0;
            for stealth in 0..=3 {
                let game = PurpleRaven { rules, stealth };
                let solved = solve(&game, Budget::UNLIMITED).unwrap();
                let step_on = |pos: &State| match game.point(pos) {
                    Point::Chance => outcomes_of(&game, pos)
                        .iter()
                        .map(|(next, p)| p * solved.value(next))
                        .sum(),
                    _ => (solved.option_values(pos).into_iter())
                        .map(|(_, v)| v)
                        .fold(f64::NEG_INFINITY, f64::max),
                };
                let mut firsts = std::collections::HashMap::new();
                random_play(&game, 2000, u64::from(stealth), |pos| {
                    let Some(index) = game.index(pos) else {
                        return;
                    };
                    let stored = solved.stored_value(pos);
                    let stored = stored.unwrap_or_else(|| panic!("{preset}: not found {pos:?}"));
                    assert!((stored - step_on(pos)).abs() < 1e-12, "{preset} {pos:?}");
                    // The first position met at the place, and its canonical form.
                    let place = (index.group, index.offset);
                    let &mut (first, form) =
                        (firsts.entry(place)).or_insert_with(|| (*pos, game.canonical(pos)));
                    joined += usize::from(*pos != first && game.canonical(pos) != form);
                });
                assert!(firsts.len() > 300, "{preset} {stealth}: {}", firsts.len());
            }
            assert!(joined > 0, "{preset}: no place joins two forms");
        }
    }

    /// A strategy's program plays through a side challenge at its first retry where it tells
    /// attempts apart (the reference), and stores it where it does not (random play, which
    /// forgets them and so meets one such form from many places); the same figures either way.
    #[test]
    fn a_side_challenge_reached_once_is_played_through() {
        use crate::engine::Budget;
        use crate::engine::generic::{Program, Rule};
        use crate::strategy::{AsPolicy, RandomStrategy, ReferenceStrategy};
        let game = PurpleRaven {
            rules: Rules::preset("main-text").unwrap(),
            stealth: 1,
        };
        let retries = |strategy: &dyn crate::strategy::Strategy| {
            let policy = AsPolicy(strategy);
            let p = Program::compile(&game, Rule::Follow(&policy), Budget::UNLIMITED).unwrap();
            let side = |s: &State| matches!(s.step(), Step::Side { .. });
            let all = (0..p.len() as u32).map(|id| p.position(&game, id));
            all.filter(|s| side(s) && s.attempts() == 1).count()
        };
        assert_eq!(retries(&ReferenceStrategy), 0);
        // Random play's form of a first retry forgets the attempt: it is not reached once.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let retry = std::iter::repeat_with(|| {
            let mut pos = game.start();
            while !matches!(pos.step(), Step::Side { .. }) || pos.attempts() != 1 {
                let next = match game.point(&pos) {
                    Point::Over(_) => return None,
                    Point::Chance => outcomes_of(&game, &pos).into_iter().map(|o| o.0).collect(),
                    Point::Decision(_) => options_of(&game, &pos)
                        .into_iter()
                        .map(|o| o.1)
                        .collect::<Vec<_>>(),
                };
                pos = next[(rng.next_u64() % next.len() as u64) as usize];
            }
            Some(pos)
        })
        .flatten()
        .next()
        .unwrap();
        let seen = |s: &dyn crate::strategy::Strategy| {
            game.reached_once(&retry, |p| AsPolicy(s).view(&game, p))
        };
        assert!(seen(&ReferenceStrategy));
        assert!(!seen(&RandomStrategy));
        assert!(!game.reached_once(&retry.with_counters(2, 0), |p| *p));
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
