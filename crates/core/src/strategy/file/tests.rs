//! Tests of the strategy file format: every knob on constructed states, and parsing.

use crate::game::{Action, Aid, Character, Health, Node, State, Step};
use crate::rules::Rules;
use crate::strategy::Choice;

use super::Spec;

use Character::{
    Demolitions as D, Hacker as H, Mechanic as Me, Medic as M, Sniper as Sn, Spy as Sp,
};
use Health::{Healthy as Ok, Incapacitated as Inc, Wounded as W};

fn spec(text: &str) -> Spec {
    toml::from_str(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The spec's answer at `state`, checked to be legal.
fn act_under(spec: &Spec, rules: &Rules, state: &State) -> Action {
    let Node::Decision(decision) = state.node(rules) else {
        panic!("no decision at {state:?}");
    };
    match spec.decide(state, rules, decision) {
        Choice::Act(action) => {
            assert!(
                state.actions(rules).contains(action),
                "illegal {action:?} at {state:?}"
            );
            action
        }
        Choice::Uniform => panic!("uniform at {state:?}"),
    }
}

fn act(text: &str, state: &State) -> Action {
    act_under(&spec(text), &Rules::default(), state)
}

// ----- [main] -----

/// Complications: Hacker→sniper, Spy→sniper, Sniper→hacker, Demolitions→sniper,
/// Mechanic→medic, Medic→hacker (no one has their own speciality).
const COMPS: [Character; 6] = [Sn, Sn, H, Sn, M, H];

#[test]
fn main_fixed_and_random() {
    let state = State::with_complications(10, COMPS);
    assert_eq!(act("", &state), Action::Main(H));
    assert_eq!(act("[main]\ncharacter = \"spy\"", &state), Action::Main(Sp));
    assert_eq!(act("[main]\ncharacter = \"Dix\"", &state), Action::Main(M));
    let random = spec("[main]\ncharacter = \"random\"");
    assert_eq!(
        random.decide(
            &state,
            &Rules::default(),
            crate::game::Decision::MainCharacter
        ),
        Choice::Uniform
    );
}

#[test]
fn main_most_needed_counts_the_others_complications() {
    // Sniper's speciality is the complication of Hacker, Spy and Demolitions.
    let state = State::with_complications(10, COMPS);
    assert_eq!(
        act("[main]\ncharacter = \"most-needed\"", &state),
        Action::Main(Sn)
    );
    // A tie (Hacker 2: Sniper, Medic; Spy 2) goes to the lowest number.
    let tie = State::with_complications(10, [Sp, H, H, Sp, M, Sn]);
    assert_eq!(
        act("[main]\ncharacter = \"most-needed\"", &tie),
        Action::Main(H)
    );
}

/// Complications under which the Medic is the most needed (Hacker, Spy and Sniper need a
/// medic) and the Spy the most needed of the other five (Demolitions and Mechanic need a spy).
const MEDIC_MOST_NEEDED: [Character; 6] = [M, M, M, Sp, Sp, H];

#[test]
fn main_most_needed_not_medic_passes_over_the_medic() {
    let state = State::with_complications(10, MEDIC_MOST_NEEDED);
    assert_eq!(
        act("[main]\ncharacter = \"most-needed\"", &state),
        Action::Main(M)
    );
    assert_eq!(
        act("[main]\ncharacter = \"most-needed-not-medic\"", &state),
        Action::Main(Sp)
    );
    // Where the Medic is not the most needed, the same as most-needed.
    let other = State::with_complications(10, COMPS);
    assert_eq!(
        act("[main]\ncharacter = \"most-needed-not-medic\"", &other),
        Action::Main(Sn)
    );
}

#[test]
fn main_hardest_to_recruit_is_whose_complication_is_their_own() {
    let own = State::with_complications(10, [Sn, Sn, H, D, Me, H]);
    assert_eq!(
        act("[main]\ncharacter = \"hardest-to-recruit\"", &own),
        Action::Main(D)
    );
    // None such: as most-needed.
    let none = State::with_complications(10, COMPS);
    assert_eq!(
        act("[main]\ncharacter = \"hardest-to-recruit\"", &none),
        Action::Main(Sn)
    );
}

#[test]
fn main_first_target_is_the_speciality_the_first_recruit_needs() {
    // The Medic, first in the default order, needs a hacker.
    let state = State::with_complications(10, COMPS);
    assert_eq!(
        act("[main]\ncharacter = \"first-target\"", &state),
        Action::Main(H)
    );
    let mechanic_first = "[main]\ncharacter = \"first-target\"\n[recruit]\norder = [\"mechanic\"]";
    assert_eq!(act(mechanic_first, &state), Action::Main(M));
    // A first target who needs their own speciality: as most-needed.
    let own = State::with_complications(10, [Sn, Sn, H, Sn, M, M]);
    assert_eq!(
        act("[main]\ncharacter = \"first-target\"", &own),
        Action::Main(Sn)
    );
    // No order: as most-needed.
    let alone = "[main]\ncharacter = \"first-target\"\n[recruit]\norder = []";
    assert_eq!(act(alone, &state), Action::Main(Sn));
}

// ----- [recruit] -----

fn choosing_target() -> State {
    State::with_complications(10, COMPS)
        .with_main(H)
        .at(Step::ChooseTarget, Aid::None)
}

#[test]
fn recruit_count_stops_after_that_many_recruits() {
    let state = choosing_target();
    assert_eq!(act("", &state), Action::Recruit(M));
    assert_eq!(act("[recruit]\ncount = 0", &state), Action::Stop);
    assert_eq!(act("[recruit]\ncount = 1", &state), Action::Recruit(M));
    let one = state.with_member(M, Ok);
    assert_eq!(act("[recruit]\ncount = 1", &one), Action::Stop);
    assert_eq!(act("[recruit]\ncount = 2", &one), Action::Recruit(Sp));
}

#[test]
fn recruit_order_is_followed_and_unlisted_characters_never_recruited() {
    let text = "[recruit]\norder = [\"sniper\", \"medic\"]";
    let state = choosing_target();
    assert_eq!(act(text, &state), Action::Recruit(Sn));
    assert_eq!(act(text, &state.with_member(Sn, Ok)), Action::Recruit(M));
    assert_eq!(
        act(text, &state.with_member(Sn, Ok).with_member(M, Ok)),
        Action::Stop
    );
}

#[test]
fn recruit_easiest_first_prefers_targets_an_able_member_specialises_in() {
    // Medic's complication is medic (no one on the team); Spy's is sniper — give the Sniper
    // to the team and the Spy becomes easy.
    let text = "[recruit]\norder = [\"medic\", \"spy\"]\n";
    let state = State::new(10)
        .with_main(H)
        .with_member(Sn, Ok)
        .with_complication(M, M)
        .with_complication(Sp, Sn)
        .at(Step::ChooseTarget, Aid::None);
    assert_eq!(act(text, &state), Action::Recruit(M));
    let easy = format!("{text}easiest_first = true");
    assert_eq!(act(&easy, &state), Action::Recruit(Sp));
    // An incapacitated specialist does not make it easy.
    assert_eq!(act(&easy, &state.with_member(Sn, Inc)), Action::Recruit(M));
}

#[test]
fn recruit_stealth_floor_stops_below_it() {
    let text = "[recruit]\nstealth_floor = 6";
    assert_eq!(act(text, &choosing_target().with_stealth(5)), Action::Stop);
    assert_eq!(
        act(text, &choosing_target().with_stealth(6)),
        Action::Recruit(M)
    );
}

#[test]
fn recruit_stop_at_wounds_counts_team_wounds() {
    let text = "[recruit]\nstop_at_wounds = 2";
    let state = choosing_target().with_member(M, Ok).with_member(H, W);
    assert_eq!(act(text, &state), Action::Recruit(Sp));
    assert_eq!(act(text, &state.with_member(M, W)), Action::Stop);
    assert_eq!(
        act(
            text,
            &choosing_target().with_member(H, Inc).with_member(M, Ok)
        ),
        Action::Stop
    );
}

/// Recruiting the Sniper (complication `ty`) with Hacker (main) and Spy on the team.
fn recruiting(ty: Character) -> State {
    State::new(10)
        .with_main(H)
        .with_member(Sp, Ok)
        .with_complication(Sn, ty)
        .at(
            Step::Recruit {
                target: Sn,
                done: 0,
                needed: 2,
            },
            Aid::None,
        )
}

#[test]
fn recruit_roller_specialist_or_least_wounded() {
    assert_eq!(act("", &recruiting(Sp)), Action::Roll(Sp));
    let wounded_spy = recruiting(Sp).with_member(Sp, W);
    assert_eq!(act("", &wounded_spy), Action::Roll(Sp));
    assert_eq!(
        act("[recruit]\nroller = \"least-wounded\"", &wounded_spy),
        Action::Roll(H)
    );
    // No specialist on the team: least wounded.
    assert_eq!(act("", &recruiting(M).with_member(H, W)), Action::Roll(Sp));
}

#[test]
fn recruit_spare_keeps_main_or_finale_character_out_unless_alone() {
    assert_eq!(act("", &recruiting(H)), Action::Roll(H));
    assert_eq!(
        act("[recruit]\nspare = \"main\"", &recruiting(H)),
        Action::Roll(Sp)
    );
    // The intended finale character is the main character by default...
    assert_eq!(
        act("[recruit]\nspare = \"finale\"", &recruiting(H)),
        Action::Roll(Sp)
    );
    // ... or whoever [finale] names.
    let spy_finale = "[recruit]\nspare = \"finale\"\n[finale]\ncharacter = \"spy\"";
    assert_eq!(act(spy_finale, &recruiting(Sp)), Action::Roll(H));
    // Alone, the spared one rolls.
    let alone = recruiting(H).with_member(Sp, Inc);
    assert_eq!(act("[recruit]\nspare = \"main\"", &alone), Action::Roll(H));
}

#[test]
fn recruit_stop_after_failures_in_a_row() {
    let text = "[recruit]\nstop_after_failures = 2";
    assert_eq!(
        act(text, &recruiting(Sp).with_counters(1, 1)),
        Action::Roll(Sp)
    );
    assert_eq!(act(text, &recruiting(Sp).with_counters(3, 2)), Action::Stop);
    assert_eq!(
        act("", &recruiting(Sp).with_counters(9, 9)),
        Action::Roll(Sp)
    );
}

#[test]
fn recruit_stop_conditions_apply_after_a_failure_only_there() {
    // Stopping is legal only right after a failed check.
    let text = "[recruit]\nstealth_floor = 8";
    let low = recruiting(Sp).with_stealth(3);
    assert_eq!(act(text, &low), Action::Roll(Sp));
    assert_eq!(act(text, &low.with_counters(1, 1)), Action::Stop);
}

// ----- [run] -----

fn running(ty: Character) -> State {
    State::new(10)
        .with_main(H)
        .with_member(Sp, Ok)
        .with_member(M, Ok)
        .at(Step::Run { challenge: 0, ty }, Aid::None)
}

#[test]
fn run_roller_specialist_or_least_wounded() {
    assert_eq!(act("", &running(Sp)), Action::Roll(Sp));
    let wounded = running(Sp).with_member(Sp, W);
    assert_eq!(act("", &wounded), Action::Roll(Sp));
    assert_eq!(
        act("[run]\nroller = \"least-wounded\"", &wounded),
        Action::Roll(H)
    );
    assert_eq!(act("", &running(Sn).with_member(H, W)), Action::Roll(Sp));
}

#[test]
fn run_spare_keeps_the_finale_character_fresh() {
    assert_eq!(act("", &running(H)), Action::Roll(H));
    assert_eq!(
        act("[run]\nspare = \"finale\"", &running(H)),
        Action::Roll(Sp)
    );
    assert_eq!(
        act("[run]\nspare = \"main\"", &running(H)),
        Action::Roll(Sp)
    );
    let medic_finale = "[run]\nspare = \"finale\"\n[finale]\ncharacter = \"medic\"";
    assert_eq!(act(medic_finale, &running(H)), Action::Roll(H));
    assert_eq!(
        act(medic_finale, &running(Sn).with_member(H, W)),
        Action::Roll(Sp)
    );
}

#[test]
fn spare_except_own_still_lets_the_spared_character_roll_their_speciality() {
    // The Hacker (main, and finale character by default) rolls hacker checks with 3 dice.
    for spare in ["main-except-own", "finale-except-own"] {
        let text = format!("[run]\nspare = \"{spare}\"");
        assert_eq!(act(&text, &running(H)), Action::Roll(H), "{spare}");
        // Another type: the others (least wounded, ties to the lowest number) roll it.
        assert_eq!(act(&text, &running(Sn)), Action::Roll(Sp), "{spare}");
        assert_eq!(act("", &running(Sn)), Action::Roll(H));
        let rtext = format!("[recruit]\nspare = \"{spare}\"");
        assert_eq!(act(&rtext, &recruiting(H)), Action::Roll(H), "{spare}");
        assert_eq!(act(&rtext, &recruiting(M)), Action::Roll(Sp), "{spare}");
        assert_eq!(act("", &recruiting(M)), Action::Roll(H));
    }
}

#[test]
fn run_pick_on_six() {
    let state = State::new(10)
        .with_main(H)
        .with_member(H, W)
        .with_member(Sp, Ok)
        .with_member(M, Ok)
        .at(Step::PickRunType { challenge: 0 }, Aid::None);
    assert_eq!(act("", &state), Action::RunType(H));
    assert_eq!(
        act("[run]\npick_on_six = \"least-wounded\"", &state),
        Action::RunType(Sp)
    );
    assert_eq!(
        act("[run]\npick_on_six = \"main\"", &state),
        Action::RunType(H)
    );
    assert_eq!(
        act("[run]\npick_on_six = \"sniper\"", &state),
        Action::RunType(Sn)
    );
    // A Medic main character cannot name a run type: lowest able non-Medic.
    let medic_main = State::new(10)
        .with_main(M)
        .with_member(Sp, Ok)
        .at(Step::PickRunType { challenge: 0 }, Aid::None);
    assert_eq!(
        act("[run]\npick_on_six = \"main\"", &medic_main),
        Action::RunType(Sp)
    );
    // Least wounded respects `spare`.
    let spare = "[run]\npick_on_six = \"least-wounded\"\nspare = \"main\"";
    let healthy = state.with_member(H, Ok);
    assert_eq!(act(spare, &healthy), Action::RunType(Sp));
}

// ----- [first_aid] -----

/// A first-aid opportunity in the run: Hacker (main) healthy, Spy wounded, Sniper
/// incapacitated, Medic healthy.
fn aid() -> State {
    State::new(10)
        .with_main(H)
        .with_member(Sp, W)
        .with_member(Sn, Inc)
        .with_member(M, Ok)
        .at(Step::RunType { challenge: 1 }, Aid::Open)
}

fn aid_action(patient: Character, giver: Character) -> Action {
    Action::Aid { patient, giver }
}

#[test]
fn first_aid_when() {
    assert_eq!(act("", &aid()), aid_action(Sn, M));
    assert_eq!(
        act("[first_aid]\nwhen = \"never\"", &aid()),
        Action::SkipAid
    );
    let incap = "[first_aid]\nwhen = \"incapacitated\"\npatient = \"lowest-number\"";
    assert_eq!(act(incap, &aid()), aid_action(Sn, M));
    assert_eq!(act(incap, &aid().with_member(Sn, Ok)), Action::SkipAid);
    assert_eq!(act("", &aid().with_member(Sn, Ok)), aid_action(Sp, M));
}

#[test]
fn first_aid_phases() {
    let text = "[first_aid]\nphases = [\"recruitment\", \"finale\"]";
    assert_eq!(act(text, &aid()), Action::SkipAid);
    let recruiting = aid().at(Step::ChooseTarget, Aid::Open);
    assert_eq!(act(text, &recruiting), aid_action(Sn, M));
    let finale = aid()
        .with_finale(H)
        .at(Step::SideTypes { tough: 1 }, Aid::Open);
    assert_eq!(act(text, &finale), aid_action(Sn, M));
    assert_eq!(
        act("[first_aid]\nphases = [\"run\"]", &finale),
        Action::SkipAid
    );
}

#[test]
fn first_aid_stealth_floor() {
    let text = "[first_aid]\nstealth_floor = 5";
    assert_eq!(act(text, &aid().with_stealth(4)), Action::SkipAid);
    assert_eq!(act(text, &aid().with_stealth(5)), aid_action(Sn, M));
}

#[test]
fn first_aid_wounded_floor_leaves_the_merely_wounded_untreated_below_it() {
    let text = "[first_aid]\nwounded_floor = 3\npatient = \"lowest-number\"";
    // The Spy (wounded) comes first by number; below the floor only the incapacitated Sniper.
    assert_eq!(act(text, &aid().with_stealth(3)), aid_action(Sp, M));
    assert_eq!(act(text, &aid().with_stealth(2)), aid_action(Sn, M));
    let wounded_only = aid().with_member(Sn, Ok);
    assert_eq!(act(text, &wounded_only.with_stealth(2)), Action::SkipAid);
    assert_eq!(act("", &wounded_only.with_stealth(0)), aid_action(Sp, M));
}

#[test]
fn first_aid_discovered_ignores_floor() {
    let text = "[first_aid]\nstealth_floor = 3\ndiscovered_ignores_floor = true";
    assert_eq!(act(text, &aid().with_stealth(2)), Action::SkipAid);
    assert_eq!(act(text, &aid().with_stealth(0)), aid_action(Sn, M));
    let floor_only = "[first_aid]\nstealth_floor = 3";
    assert_eq!(act(floor_only, &aid().with_stealth(0)), Action::SkipAid);
}

/// Before Tough Challenge 3 of 3: Hacker (finale character) wounded, Medic incapacitated.
fn aid_before_last_tough(stealth: u8) -> State {
    State::new(stealth)
        .with_main(H)
        .with_member(H, W)
        .with_member(M, Inc)
        .with_finale(H)
        .at(Step::SideTypes { tough: 2 }, Aid::Open)
}

#[test]
fn first_aid_finale_gives() {
    let discovered = aid_before_last_tough(0);
    let hidden = aid_before_last_tough(4);
    // By default the finale character, the only one able, treats the Medic.
    assert_eq!(act("", &discovered), aid_action(M, H));
    let text = "[first_aid]\nfinale_gives = \"undiscovered\"";
    assert_eq!(act(text, &discovered), Action::SkipAid);
    assert_eq!(act(text, &hidden), aid_action(M, H));
    let never = "[first_aid]\nfinale_gives = \"never\"";
    assert_eq!(act(never, &hidden), Action::SkipAid);
    // Another able member gives instead.
    let spy = discovered.with_member(Sp, Ok);
    assert_eq!(act(text, &spy), aid_action(M, Sp));
    // Before phase 3 it does not apply: the main character still gives.
    let run = State::new(0)
        .with_main(H)
        .with_member(M, Inc)
        .at(Step::RunType { challenge: 1 }, Aid::Open);
    assert_eq!(act(never, &run), aid_action(M, H));
}

#[test]
fn first_aid_patient() {
    assert_eq!(
        act("[first_aid]\npatient = \"lowest-number\"", &aid()),
        aid_action(Sp, M)
    );
    let finale_first = "[first_aid]\npatient = \"finale-first\"";
    assert_eq!(act(finale_first, &aid()), aid_action(Sn, M));
    assert_eq!(
        act(finale_first, &aid().with_member(H, W)),
        aid_action(H, M)
    );
    // In the finale it is the actual finale character.
    let finale = aid()
        .with_finale(Sp)
        .at(Step::SideTypes { tough: 1 }, Aid::Open);
    assert_eq!(act(finale_first, &finale), aid_action(Sp, M));
}

#[test]
fn first_aid_giver() {
    let spy = "[first_aid]\npatient = \"lowest-number\"\ngiver = ";
    assert_eq!(
        act(&format!("{spy}\"medic-first\""), &aid()),
        aid_action(Sp, M)
    );
    assert_eq!(
        act(&format!("{spy}\"self-first\""), &aid()),
        aid_action(Sp, Sp)
    );
    assert_eq!(
        act(&format!("{spy}\"least-wounded\""), &aid()),
        aid_action(Sp, H)
    );
    // Self-first with an incapacitated patient: the Medic.
    assert_eq!(
        act("[first_aid]\ngiver = \"self-first\"", &aid()),
        aid_action(Sn, M)
    );
    // Medic-first without a Medic: the patient, else the least wounded.
    let no_medic = aid().with_member(M, Inc);
    assert_eq!(
        act(&format!("{spy}\"medic-first\""), &no_medic),
        aid_action(Sp, Sp)
    );
    assert_eq!(
        act("[first_aid]\ngiver = \"medic-first\"", &no_medic),
        aid_action(Sn, H)
    );
}

#[test]
fn first_aid_is_skipped_when_the_chosen_giver_cannot_roll() {
    // Discovered, discovered-penalty 2: the Spy as finale character rolls 2 - 2 = 0 dice.
    let rules = Rules {
        discovered_penalty: 2,
        ..Rules::default()
    };
    let state = State::new(0)
        .with_main(H)
        .with_member(Sp, W)
        .with_finale(Sp)
        .at(Step::SideTypes { tough: 1 }, Aid::Open);
    let own = spec("[first_aid]\ngiver = \"self-first\"");
    assert_eq!(act_under(&own, &rules, &state), Action::SkipAid);
    let least = spec("[first_aid]\ngiver = \"least-wounded\"");
    assert_eq!(act_under(&least, &rules, &state), aid_action(Sp, H));
}

// ----- [finale] -----

#[test]
fn finale_character() {
    let state = State::new(10)
        .with_main(H)
        .with_member(H, W)
        .with_member(Sp, Ok)
        .with_member(M, Ok)
        .at(Step::ChooseFinale, Aid::None);
    assert_eq!(act("", &state), Action::Finale(H));
    assert_eq!(
        act("[finale]\ncharacter = \"main-if-healthy\"", &state),
        Action::Finale(Sp)
    );
    assert_eq!(
        act(
            "[finale]\ncharacter = \"main-if-healthy\"",
            &state.with_member(H, Ok)
        ),
        Action::Finale(H)
    );
    assert_eq!(
        act("[finale]\ncharacter = \"least-wounded\"", &state),
        Action::Finale(Sp)
    );
    assert_eq!(
        act("[finale]\ncharacter = \"medic\"", &state),
        Action::Finale(M)
    );
    // A fixed character not on the team: as `main`.
    assert_eq!(
        act("[finale]\ncharacter = \"sniper\"", &state),
        Action::Finale(H)
    );
    // Main not able: least wounded.
    assert_eq!(act("", &state.with_member(H, Inc)), Action::Finale(Sp));
}

// ----- [side] -----

/// Side challenge `index` of types `types` before Tough Challenge 1; Hacker (main) is the
/// finale character; Spy, Sniper and Medic are on the team.
fn side(types: [Character; 2], index: u8, successes: u8) -> State {
    State::new(10)
        .with_main(H)
        .with_member(Sp, Ok)
        .with_member(Sn, Ok)
        .with_member(M, Ok)
        .with_finale(H)
        .at(
            Step::Side {
                tough: 0,
                types,
                index,
                successes,
            },
            Aid::None,
        )
}

#[test]
fn side_attempt() {
    let sniper = side([Sn, H], 0, 0);
    assert_eq!(act("", &sniper), Action::Roll(Sn));
    let no_sniper = sniper.with_member(Sn, Inc);
    assert_eq!(act("", &no_sniper), Action::Pass);
    assert_eq!(
        act("[side]\nattempt = \"always\"", &no_sniper),
        Action::Roll(Sp)
    );
    assert_eq!(act("[side]\nattempt = \"never\"", &sniper), Action::Pass);
}

#[test]
fn side_pass_types() {
    let text = "[side]\npass_types = [\"sniper\", \"medic\"]";
    assert_eq!(act(text, &side([Sn, H], 0, 0)), Action::Pass);
    assert_eq!(act(text, &side([Sp, H], 0, 0)), Action::Roll(Sp));
}

#[test]
fn side_roller() {
    let state = side([Sn, H], 0, 0).with_member(Sp, W);
    assert_eq!(act("", &state), Action::Roll(Sn));
    assert_eq!(
        act("[side]\nroller = \"least-wounded\"", &state),
        Action::Roll(Sn)
    );
    let wounded_sniper = state.with_member(Sn, W).with_member(Sp, Ok);
    assert_eq!(
        act("[side]\nroller = \"least-wounded\"", &wounded_sniper),
        Action::Roll(Sp)
    );
}

#[test]
fn side_max_attempts() {
    let text = "[side]\nmax_attempts = 2";
    assert_eq!(
        act(text, &side([Sn, H], 0, 0).with_counters(1, 1)),
        Action::Roll(Sn)
    );
    assert_eq!(
        act(text, &side([Sn, H], 0, 0).with_counters(2, 2)),
        Action::Pass
    );
    assert_eq!(
        act("", &side([Sn, H], 0, 0).with_counters(2, 2)),
        Action::Roll(Sn)
    );
    assert_eq!(
        act("", &side([Sn, H], 0, 0).with_counters(3, 3)),
        Action::Pass
    );
    assert_eq!(
        act("[side]\nmax_attempts = 0", &side([Sn, H], 0, 0)),
        Action::Pass
    );
}

#[test]
fn side_stealth_floor() {
    let text = "[side]\nstealth_floor = 4";
    assert_eq!(
        act(text, &side([Sn, H], 0, 0).with_stealth(3)),
        Action::Pass
    );
    assert_eq!(
        act(text, &side([Sn, H], 0, 0).with_stealth(4)),
        Action::Roll(Sn)
    );
}

#[test]
fn side_second_success() {
    let text = "[side]\nsecond_success = false";
    assert_eq!(act(text, &side([Sn, Sn], 1, 1)), Action::Pass);
    assert_eq!(act(text, &side([Sn, Sn], 1, 0)), Action::Roll(Sn));
    assert_eq!(act("", &side([Sn, Sn], 1, 1)), Action::Roll(Sn));
}

/// Side challenge 1 (hacker: only the finale character's speciality) before Tough Challenge
/// `tough` (0-based) of 3, with Medic beside the finale character Hacker.
fn side_at(tough: u8, stealth: u8, successes: u8) -> State {
    State::new(stealth)
        .with_main(H)
        .with_member(M, Ok)
        .with_finale(H)
        .at(
            Step::Side {
                tough,
                types: [H, Sp],
                index: 0,
                successes,
            },
            Aid::None,
        )
}

#[test]
fn side_anyone_last() {
    let text = "[side]\nanyone_last = 1\npass_types = [\"hacker\"]\nstealth_floor = 20";
    // The last Tough Challenge: the Medic tries, whatever attempt, pass_types and the floor say.
    assert_eq!(act(text, &side_at(2, 10, 0)), Action::Roll(M));
    assert_eq!(act("", &side_at(2, 10, 0)), Action::Pass);
    // Earlier ones: the other knobs decide.
    assert_eq!(act(text, &side_at(1, 10, 0)), Action::Pass);
    let two = "[side]\nanyone_last = 2";
    assert_eq!(act(two, &side_at(1, 10, 0)), Action::Roll(M));
    assert_eq!(act(two, &side_at(0, 10, 0)), Action::Pass);
    // max_attempts still counts.
    assert_eq!(
        act(text, &side_at(2, 10, 0).with_counters(3, 3)),
        Action::Pass
    );
}

#[test]
fn side_anyone_last_discovered() {
    let text = "[side]\nanyone_last_discovered = 2";
    assert_eq!(act(text, &side_at(1, 0, 0)), Action::Roll(M));
    assert_eq!(act(text, &side_at(1, 1, 0)), Action::Pass);
    assert_eq!(act(text, &side_at(0, 0, 0)), Action::Pass);
}

#[test]
fn side_anyone_until() {
    let text = "[side]\nanyone_last = 1\nanyone_until = 1";
    assert_eq!(act(text, &side_at(2, 10, 0)), Action::Roll(M));
    assert_eq!(act(text, &side_at(2, 10, 1)), Action::Pass);
    assert_eq!(
        act("[side]\nanyone_last = 1", &side_at(2, 10, 1)),
        Action::Roll(M)
    );
}

#[test]
fn side_finale_may_roll() {
    let hacker = side([H, Sn], 0, 0);
    assert_eq!(act("", &hacker), Action::Pass);
    assert_eq!(
        act("[side]\nfinale_may_roll = true", &hacker),
        Action::Roll(H)
    );
}

// ----- [substitute] -----

#[test]
fn substitute_character() {
    let rules = Rules {
        finale_substitute: true,
        ..Rules::default()
    };
    let state = State::new(10)
        .with_main(H)
        .with_member(H, W)
        .with_member(Sp, Inc)
        .with_member(Sn, Ok)
        .with_finale(Sp)
        .at(
            Step::Substitute {
                tough: 0,
                successes: 0,
            },
            Aid::None,
        );
    assert_eq!(act_under(&spec(""), &rules, &state), Action::Finale(Sn));
    let main_first = spec("[substitute]\ncharacter = \"main-first\"");
    assert_eq!(act_under(&main_first, &rules, &state), Action::Finale(H));
    assert_eq!(
        act_under(&main_first, &rules, &state.with_member(H, Inc)),
        Action::Finale(Sn)
    );
}

// ----- parsing -----

#[test]
fn an_empty_file_is_the_reference_and_reference_toml_spells_out_the_defaults() {
    assert_eq!(spec(""), Spec::default());
    let reference = spec(include_str!("../../../../../strategies/reference.toml"));
    assert_eq!(
        Spec {
            description: String::new(),
            ..reference
        },
        Spec::default()
    );
}

#[test]
fn errors_name_line_and_column() {
    let err = |text: &str| {
        super::FileStrategy::parse("t", "t.toml", text)
            .unwrap_err()
            .to_string()
    };
    let cases = [
        ("[recruit]\ncount = 7\n", "t.toml:2:9:", "out of range"),
        ("[recruit]\ncount = \"x\"\n", "t.toml:2:9:", "invalid type"),
        (
            "[recruit]\ncounts = 1\n",
            "t.toml:2:1:",
            "unknown field `counts`",
        ),
        ("[recrut]\n", "t.toml:1:2:", "unknown field `recrut`"),
        ("[recruit\n", "t.toml:1:", ""),
        (
            "[run]\npick_on_six = \"medic\"\n",
            "t.toml:2:15:",
            "never medical",
        ),
        (
            "[recruit]\norder = [\"spy\", \"Ink\"]\n",
            "t.toml:2:9:",
            "twice",
        ),
        (
            "[main]\ncharacter = \"bob\"\n",
            "t.toml:2:13:",
            "most-needed",
        ),
        (
            "[side]\nmax_attempts = -1\n",
            "t.toml:2:16:",
            "out of range",
        ),
        (
            "[first_aid]\nphases = [\"lunch\"]\n",
            "t.toml:2:",
            "recruitment, run, finale",
        ),
        ("description = 3\n", "t.toml:1:15:", "invalid type"),
    ];
    for (text, place, what) in cases {
        let e = err(text);
        assert!(
            e.starts_with(place) && e.contains(what),
            "{text:?} gave {e}"
        );
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

// ----- [rules] -----

/// A file of `knobs` with `rules` for decisions of `kind`, compiled as a file is.
fn ruled(kind: &str, rules: &[&str], knobs: &str) -> Spec {
    let list: Vec<String> = rules.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!("{knobs}\n[rules]\n{kind} = [{}]\n", list.join(", "));
    super::FileStrategy::parse("t", "t.toml", &text)
        .unwrap_or_else(|e| panic!("{e}"))
        .spec()
        .clone()
}

/// `rule` for `kind` answers `answer` at `yes`, and at `no` leaves the knobs' answer, which is
/// another: the condition is read, and read the right way round.
fn holds_only_where_it_should(kind: &str, rule: &str, yes: &State, no: &State, answer: Action) {
    let rules = Rules::default();
    let spec = ruled(kind, &[rule], "");
    assert_eq!(act_under(&spec, &rules, yes), answer, "{rule} at {yes:?}");
    let knobs = act_under(&Spec::default(), &rules, no);
    assert_ne!(
        knobs, answer,
        "{rule}: the knobs already answer so at {no:?}"
    );
    assert_eq!(act_under(&spec, &rules, no), knobs, "{rule} at {no:?}");
}

fn skip_aid_when(rule: &str, yes: &State, no: &State) {
    holds_only_where_it_should("first-aid", rule, yes, no, Action::SkipAid);
}

#[test]
fn rule_fact_phase() {
    let recruiting = aid().at(Step::ChooseTarget, Aid::Open);
    skip_aid_when("when phase = run -> skip", &aid(), &recruiting);
    skip_aid_when("when phase != run -> skip", &recruiting, &aid());
}

#[test]
fn rule_fact_stealth() {
    skip_aid_when("when stealth <= 5 -> skip", &aid().with_stealth(5), &aid());
    skip_aid_when(
        "when stealth = 3..5 -> skip",
        &aid().with_stealth(3),
        &aid().with_stealth(6),
    );
    skip_aid_when("when stealth > 9 -> skip", &aid(), &aid().with_stealth(9));
}

#[test]
fn rule_fact_discovered() {
    skip_aid_when("when discovered -> skip", &aid().with_stealth(0), &aid());
    skip_aid_when(
        "when not discovered -> skip",
        &aid(),
        &aid().with_stealth(0),
    );
}

#[test]
fn rule_facts_tough_and_left() {
    let last = aid_before_last_tough(4);
    let second = last.at(Step::SideTypes { tough: 1 }, Aid::Open);
    skip_aid_when("when tough = 3 -> skip", &last, &second);
    skip_aid_when("when left = 1 -> skip", &last, &second);
    skip_aid_when("when left >= 2 -> skip", &second, &last);
}

#[test]
fn rule_fact_successes() {
    // The knobs pass: only the finale character has the speciality.
    holds_only_where_it_should(
        "side-challenge",
        "when successes = 1 -> try",
        &side_at(0, 10, 1),
        &side_at(0, 10, 0),
        Action::Roll(M),
    );
}

#[test]
fn rule_fact_side() {
    holds_only_where_it_should(
        "side-challenge",
        "when side = 2 -> try",
        &side([Sp, H], 1, 0),
        &side([H, Sp], 0, 0),
        Action::Roll(Sp),
    );
}

#[test]
fn rule_fact_attempts() {
    let sniper = side([Sn, H], 0, 0);
    holds_only_where_it_should(
        "side-challenge",
        "when attempts >= 2 -> pass",
        &sniper.with_counters(2, 0),
        &sniper.with_counters(1, 0),
        Action::Pass,
    );
}

#[test]
fn rule_fact_type() {
    holds_only_where_it_should(
        "side-challenge",
        "when type = sniper -> pass",
        &side([Sn, H], 0, 0),
        &side([Sp, H], 0, 0),
        Action::Pass,
    );
}

#[test]
fn rule_facts_counting_the_team() {
    let dead = aid().with_member(Sp, Health::Dead);
    skip_aid_when("when members <= 3 -> skip", &dead, &aid());
    skip_aid_when("when able <= 2 -> skip", &aid().with_member(H, Inc), &aid());
    skip_aid_when("when wounds >= 4 -> skip", &aid().with_member(H, W), &aid());
    skip_aid_when(
        "when wounded >= 2 -> skip",
        &aid().with_member(H, W),
        &aid(),
    );
    skip_aid_when(
        "when incapacitated = 1 -> skip",
        &aid(),
        &aid().with_member(Sn, W),
    );
}

#[test]
fn rule_facts_roles_and_health() {
    let last = aid_before_last_tough(4);
    skip_aid_when("when main = spy -> skip", &aid().with_main(Sp), &aid());
    skip_aid_when("when finale = hacker -> skip", &last, &aid());
    skip_aid_when(
        "when main-health = wounded -> skip",
        &aid().with_member(H, W),
        &aid(),
    );
    skip_aid_when(
        "when finale-health = hurt -> skip",
        &last,
        &last.with_member(H, Ok),
    );
    skip_aid_when(
        "when spy = wounded -> skip",
        &aid(),
        &aid().with_member(Sp, Ok),
    );
    let no_spy = State::new(10)
        .with_main(H)
        .with_member(Sn, Inc)
        .with_member(M, Ok)
        .at(Step::RunType { challenge: 1 }, Aid::Open);
    skip_aid_when("when Ink = absent -> skip", &no_spy, &aid());
}

#[test]
fn rule_options_of_the_first_phases() {
    let rules = Rules::default();
    let check = |kind: &str, rule: &str, state: &State, answer: Action| {
        let spec = ruled(kind, &[rule], "");
        assert_ne!(act_under(&Spec::default(), &rules, state), answer, "{rule}");
        assert_eq!(act_under(&spec, &rules, state), answer, "{rule}");
    };
    let start = State::with_complications(10, COMPS);
    check("main-character", "-> spy", &start, Action::Main(Sp));
    check(
        "recruit-target",
        "-> mechanic",
        &choosing_target(),
        Action::Recruit(Me),
    );
    check(
        "recruit-target",
        "-> stop",
        &choosing_target(),
        Action::Stop,
    );
    let spy = recruiting(Sp);
    check("recruit-roller", "-> stop", &spy, Action::Stop);
    check("recruit-roller", "-> least-wounded", &spy, Action::Roll(H));
    check("recruit-roller", "-> main", &spy, Action::Roll(H));
    check("recruit-roller", "-> hacker", &spy, Action::Roll(H));
    let six = State::new(10)
        .with_main(H)
        .with_member(Sp, Ok)
        .with_member(M, Ok)
        .at(Step::PickRunType { challenge: 0 }, Aid::None);
    check("run-type", "-> spy", &six, Action::RunType(Sp));
    check("run-roller", "-> medic", &running(Sp), Action::Roll(M));
    check(
        "run-roller",
        "-> least-wounded",
        &running(Sp),
        Action::Roll(H),
    );
    // The specialist, where the knobs would have the least wounded roll.
    let least = "[run]\nroller = \"least-wounded\"";
    let hacking = running(H).with_member(H, W);
    assert_eq!(act(least, &hacking), Action::Roll(Sp));
    let spec = ruled("run-roller", &["-> specialist"], least);
    assert_eq!(act_under(&spec, &rules, &hacking), Action::Roll(H));
}

#[test]
fn rule_options_of_the_finale() {
    let rules = Rules::default();
    let check = |kind: &str, rule: &str, state: &State, answer: Action| {
        let spec = ruled(kind, &[rule], "");
        assert_ne!(act_under(&Spec::default(), &rules, state), answer, "{rule}");
        assert_eq!(act_under(&spec, &rules, state), answer, "{rule}");
    };
    let choosing = State::new(10)
        .with_main(H)
        .with_member(H, W)
        .with_member(Sp, Ok)
        .with_member(M, Ok)
        .at(Step::ChooseFinale, Aid::None);
    check(
        "finale-character",
        "-> least-wounded",
        &choosing,
        Action::Finale(Sp),
    );
    check("finale-character", "-> medic", &choosing, Action::Finale(M));
    check(
        "side-challenge",
        "-> pass",
        &side([Sn, H], 0, 0),
        Action::Pass,
    );
    check(
        "side-challenge",
        "-> try",
        &side([H, Sp], 0, 0),
        Action::Roll(Sp),
    );
    check(
        "side-challenge",
        "-> try by finale",
        &side([H, Sp], 0, 0),
        Action::Roll(H),
    );
    check(
        "side-challenge",
        "-> try by medic",
        &side([Sn, Sp], 0, 0),
        Action::Roll(M),
    );
    check(
        "side-challenge",
        "-> try by least-wounded",
        &side([Sn, Sp], 0, 0),
        Action::Roll(Sp),
    );
    check("first-aid", "-> skip", &aid(), Action::SkipAid);
    check("first-aid", "-> treat wounded", &aid(), aid_action(Sp, M));
    check(
        "first-aid",
        "-> treat spy by self",
        &aid(),
        aid_action(Sp, Sp),
    );
    check(
        "first-aid",
        "-> treat incapacitated by least-wounded",
        &aid(),
        aid_action(Sn, H),
    );
    check(
        "first-aid",
        "-> treat main",
        &aid().with_member(H, W),
        aid_action(H, M),
    );
    check(
        "first-aid",
        "-> treat finale by main",
        &aid_before_last_tough(4)
            .with_member(Sp, Ok)
            .with_member(M, W),
        aid_action(H, H),
    );
    let substitute = Rules {
        finale_substitute: true,
        ..Rules::default()
    };
    let state = State::new(10)
        .with_main(H)
        .with_member(H, W)
        .with_member(Sp, Inc)
        .with_member(Sn, Ok)
        .with_finale(Sp)
        .at(
            Step::Substitute {
                tough: 0,
                successes: 0,
            },
            Aid::None,
        );
    assert_eq!(
        act_under(&spec(""), &substitute, &state),
        Action::Finale(Sn)
    );
    let main = ruled("substitute", &["-> main"], "");
    assert_eq!(act_under(&main, &substitute, &state), Action::Finale(H));
}

#[test]
fn rules_first_match_decides_and_an_option_that_cannot_be_taken_leaves_the_knobs() {
    let two = ruled(
        "first-aid",
        &["when stealth >= 5 -> treat wounded", "-> skip"],
        "",
    );
    assert_eq!(
        act_under(&two, &Rules::default(), &aid()),
        aid_action(Sp, M)
    );
    assert_eq!(
        act_under(&two, &Rules::default(), &aid().with_stealth(4)),
        Action::SkipAid
    );
    // The main character needs no aid: the knobs decide, not the next rule.
    let cannot = ruled("first-aid", &["-> treat main", "-> skip"], "");
    assert_eq!(
        act_under(&cannot, &Rules::default(), &aid()),
        aid_action(Sn, M)
    );
}

#[test]
fn rules_errors_name_line_and_column_and_shadowed_rules_are_warned_of() {
    let err = |text: &str| {
        super::FileStrategy::parse("t", "t.toml", text)
            .unwrap_err()
            .to_string()
    };
    let cases = [
        (
            "[rules]\nfirst-aid = [\"when moon = full -> skip\"]\n",
            "t.toml:2:20:",
            "'moon' is not a fact",
        ),
        (
            "[rules]\nfirst-aid = [\"-> dance\"]\n",
            "t.toml:2:18:",
            "not an option of a first-aid decision",
        ),
        (
            "[rules]\nside-challenge = [\"-> skip\"]\n",
            "t.toml:2:23:",
            "not an option of a side-challenge",
        ),
        (
            "[rules]\nfirst-aid = [\"when stealth = 5..3 -> skip\"]\n",
            "t.toml:2:30:",
            "empty",
        ),
        (
            "[rules]\nfirst-aid = [\"when tough = 7 -> skip\"]\n",
            "t.toml:2:20:",
            "can never hold",
        ),
        (
            "[rules]\nfirst-aid = [\"when stealth > 5 and stealth < 3 -> skip\"]\n",
            "t.toml:2:36:",
            "never hold together",
        ),
        (
            "[rules]\nrun-roller = [\"when successes = 1 -> main\"]\n",
            "t.toml:2:21:",
            "can never hold",
        ),
        (
            "[rules]\nfirst_aid = [\"-> skip\"]\n",
            "t.toml:2:1:",
            "unknown field `first_aid`",
        ),
        (
            "[rules]\nfirst-aid = [\"when discovered skip\"]\n",
            "t.toml:2:",
            "no `->`",
        ),
    ];
    for (text, place, what) in cases {
        let e = err(text);
        assert!(
            e.starts_with(place) && e.contains(what),
            "{text:?} gave {e}"
        );
        assert!(!e.contains('\n'), "one line: {e}");
    }
    let text = "[rules]\nfirst-aid = [\n  \"when discovered -> skip\",\n  \"when discovered and tough = 3 -> treat finale\",\n  \"when tough = 3 -> treat finale\",\n]\n";
    let file = super::FileStrategy::parse("t", "t.toml", text).expect("valid");
    assert_eq!(file.warnings().len(), 1, "{:?}", file.warnings());
    let warning = &file.warnings()[0];
    assert!(
        warning.starts_with("t.toml:4:") && warning.contains("line 3"),
        "{warning}"
    );
}

#[test]
fn rule_facts_of_the_complications() {
    let start = State::with_complications(10, COMPS);
    let medic_needs_spy = start.with_complication(M, Sp);
    holds_only_where_it_should(
        "main-character",
        "when medic-needs = hacker -> spy",
        &start,
        &medic_needs_spy,
        Action::Main(Sp),
    );
    // Sniper and Medic need a hacker, and the Hacker is on the team: two easy recruits.
    holds_only_where_it_should(
        "recruit-target",
        "when easy = 2 -> stop",
        &choosing_target(),
        &choosing_target().with_complication(Sn, Sp),
        Action::Stop,
    );
}

#[test]
fn rule_options_read_the_complications() {
    let rules = Rules::default();
    let check = |kind: &str, rule: &str, state: &State, answer: Action| {
        let spec = ruled(kind, &[rule], "");
        assert_ne!(act_under(&Spec::default(), &rules, state), answer, "{rule}");
        assert_eq!(act_under(&spec, &rules, state), answer, "{rule}");
    };
    let start = State::with_complications(10, COMPS);
    check("main-character", "-> most-needed", &start, Action::Main(Sn));
    check(
        "main-character",
        "-> most-needed-not-medic",
        &State::with_complications(10, MEDIC_MOST_NEEDED),
        Action::Main(Sp),
    );
    let own = State::with_complications(10, [Sn, Sn, H, D, Me, H]);
    check(
        "main-character",
        "-> hardest-to-recruit",
        &own,
        Action::Main(D),
    );
    check(
        "main-character",
        "-> first-target",
        &start.with_complication(M, Sp),
        Action::Main(Sp),
    );
    // The Medic needs a spy: the first in order the Hacker can recruit with 3 dice is the
    // Sniper.
    check(
        "recruit-target",
        "-> easiest",
        &choosing_target().with_complication(M, Sp),
        Action::Recruit(Sn),
    );
}
