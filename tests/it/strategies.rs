//! Strategy files against the engine: `reference.toml` plays exactly like the built-in
//! reference strategy, and every bundled (and randomly configured) strategy only ever plays
//! legal actions.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use raven::game::uniform;

use raven::engine::montecarlo::{Job, play_range};
use raven::engine::{Observer, play_seeded};
use raven::game::canon::in_member_order_labelled;
use raven::game::{Action, Decision, Node, State};
use raven::rules::{CLARIFIED, FirstAidRecruit, MAIN_TEXT, RecruitCount, Rules};
use raven::strategy::{
    BUNDLED, Choice, FileStrategy, RandomStrategy, ReferenceStrategy, Sight, Strategy, bundled,
};

/// Rule sets that exercise every decision point: the presets, and every variant at once.
fn rule_sets() -> [Rules; 3] {
    [
        MAIN_TEXT,
        CLARIFIED,
        Rules {
            recruit_count: RecruitCount::Living,
            first_aid_recruit: FirstAidRecruit::PerRecruit,
            finale_substitute: true,
            first_aid_after_side: true,
            ..CLARIFIED
        },
    ]
}

fn reference_file() -> FileStrategy {
    bundled("reference").unwrap().unwrap()
}

#[test]
fn reference_toml_gives_the_same_tally_as_the_built_in_reference() {
    let file = reference_file();
    for (rules, stealth) in [(MAIN_TEXT, 10), (rule_sets()[2], 6)] {
        let tally = |strategy: &dyn Strategy| {
            play_range(
                &Job {
                    rules: &rules,
                    strategy,
                    stealth,
                    games: 50_000,
                    seed: 7,
                },
                0..50_000,
            )
        };
        assert_eq!(tally(&file), tally(&ReferenceStrategy), "{rules}");
    }
}

/// At every decision point of a game, asks both strategies and compares.
struct SameAnswers<'a> {
    a: &'a dyn Strategy,
    b: &'a dyn Strategy,
    rules: Rules,
    decisions: u64,
}

impl Observer for SameAnswers<'_> {
    fn decision(&mut self, before: &State, decision: Decision, _: Action, _: &State) {
        let a = self.a.decide(before, &self.rules, decision);
        let b = self.b.decide(before, &self.rules, decision);
        assert_eq!(a, b, "{decision:?} at {before:?}");
        self.decisions += 1;
    }
}

#[test]
fn reference_toml_answers_like_the_built_in_at_every_decision_of_random_games() {
    let file = reference_file();
    for rules in rule_sets() {
        for stealth in [0, 3, 10] {
            let mut check = SameAnswers {
                a: &ReferenceStrategy,
                b: &file,
                rules,
                decisions: 0,
            };
            // Random play reaches positions the reference itself never would (and, R8, may
            // stop recruiting before any check, which makes its games short).
            for game in 0..4_000 {
                play_seeded(&rules, &RandomStrategy, stealth, 11, game, &mut check);
            }
            // Random play may stop recruiting before any check (R8 as amended), so games are
            // shorter than before the amendment: 26 219 decisions at stealth 0, main-text.
            assert!(check.decisions > 20_000, "{}", check.decisions);
        }
    }
}

/// Panics on any illegal answer.
struct Checked<'a>(&'a dyn Strategy);

impl Strategy for Checked<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        assert_eq!(state.node(rules), Node::Decision(decision));
        let choice = self.0.decide(state, rules, decision);
        if let Choice::Act(action) = choice {
            assert!(
                state.actions(rules).contains(action),
                "{}: illegal {action:?} at {decision:?} in {state:?}",
                self.0.name()
            );
        }
        choice
    }
}

fn play_checked(strategy: &dyn Strategy, games: u64) {
    for rules in rule_sets() {
        for stealth in [0, 4, 10] {
            let job = Job {
                rules: &rules,
                strategy: &Checked(strategy),
                stealth,
                games,
                seed: 3,
            };
            let tally = play_range(&job, 0..games);
            assert_eq!(tally.games, games);
        }
    }
}

#[test]
fn every_bundled_strategy_plays_only_legal_actions() {
    for (name, _) in BUNDLED {
        let strategy = bundled(name).unwrap().unwrap();
        play_checked(&strategy, 2_000);
    }
}

#[test]
fn randomly_configured_strategies_play_only_legal_actions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut one_of =
        |options: &[&str]| options[uniform(&mut rng, options.len() as u32) as usize].to_string();
    let specialities = [
        "\"hacker\"",
        "\"spy\"",
        "\"sniper\"",
        "\"demolitions\"",
        "\"mechanic\"",
        "\"medic\"",
    ];
    for i in 0..150 {
        let main = one_of(&[
            "\"random\"",
            "\"most-needed\"",
            "\"hardest-to-recruit\"",
            specialities[i % 6],
        ]);
        let text = format!(
            "[main]\ncharacter = {main}\n\
             [recruit]\ncount = {}\norder = [{}]\neasiest_first = {}\nroller = {}\nspare = {}\n\
             stealth_floor = {}\nstop_at_wounds = {}\nstop_after_failures = {}\n\
             [run]\nroller = {}\nspare = {}\npick_on_six = {}\n\
             [first_aid]\nwhen = {}\nphases = [{}]\nstealth_floor = {}\npatient = {}\ngiver = {}\n\
             [finale]\ncharacter = {}\n\
             [side]\nattempt = {}\npass_types = [{}]\nroller = {}\nmax_attempts = {}\n\
             stealth_floor = {}\nsecond_success = {}\nfinale_may_roll = {}\n\
             [substitute]\ncharacter = {}\n",
            one_of(&["0", "1", "2", "3"]),
            one_of(&[
                "\"medic\", \"spy\"",
                "\"sniper\", \"hacker\", \"mechanic\", \"demolitions\", \"medic\", \"spy\"",
                ""
            ]),
            one_of(&["true", "false"]),
            one_of(&["\"specialist\"", "\"least-wounded\""]),
            one_of(&["\"none\"", "\"main\"", "\"finale\""]),
            one_of(&["0", "5", "9"]),
            one_of(&["0", "1", "3"]),
            one_of(&["0", "1", "3"]),
            one_of(&["\"specialist\"", "\"least-wounded\""]),
            one_of(&["\"none\"", "\"main\"", "\"finale\""]),
            one_of(&[
                "\"lowest-able\"",
                "\"least-wounded\"",
                "\"main\"",
                "\"spy\""
            ]),
            one_of(&["\"always\"", "\"never\"", "\"incapacitated\""]),
            one_of(&["\"recruitment\", \"run\", \"finale\"", "\"finale\"", ""]),
            one_of(&["0", "4"]),
            one_of(&[
                "\"incapacitated-first\"",
                "\"finale-first\"",
                "\"lowest-number\""
            ]),
            one_of(&["\"medic-first\"", "\"self-first\"", "\"least-wounded\""]),
            one_of(&[
                "\"main\"",
                "\"main-if-healthy\"",
                "\"least-wounded\"",
                "\"medic\"",
                "\"spy\""
            ]),
            one_of(&["\"with-specialist\"", "\"always\"", "\"never\""]),
            one_of(&["", "\"medic\"", "\"hacker\", \"spy\""]),
            one_of(&["\"specialist\"", "\"least-wounded\""]),
            one_of(&["0", "1", "3", "8"]),
            one_of(&["0", "3"]),
            one_of(&["true", "false"]),
            one_of(&["true", "false"]),
            one_of(&["\"least-wounded\"", "\"main-first\""]),
        );
        let strategy = FileStrategy::parse("random-config", "generated", &text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        play_checked(&strategy, 100);
    }
}

/// Checks [`Strategy::stealth_alike_from`]: at every decision met at a stealth the strategy
/// declares alike, it answers the same at every other such stealth.
struct AlikeAnswers<'a> {
    strategy: &'a dyn Strategy,
    rules: Rules,
    from: u8,
    compared: u64,
}

impl Observer for AlikeAnswers<'_> {
    fn decision(&mut self, before: &State, decision: Decision, _: Action, _: &State) {
        if before.stealth() < self.from {
            return;
        }
        let here = self.strategy.decide(before, &self.rules, decision);
        for other in self.from..=self.from + 14 {
            let there = self
                .strategy
                .decide(&before.with_stealth(other), &self.rules, decision);
            assert_eq!(
                here,
                there,
                "{} at stealth {other}: {decision:?} at {before:?}",
                self.strategy.name()
            );
        }
        self.compared += 1;
    }
}

#[test]
fn strategies_answer_alike_where_they_say_they_do() {
    let mut strategies: Vec<Box<dyn Strategy>> =
        vec![Box::new(ReferenceStrategy), Box::new(RandomStrategy)];
    for (stem, _) in BUNDLED {
        strategies.push(Box::new(bundled(stem).expect("bundled").expect("valid")));
    }
    // A floor above what random play keeps is still honoured.
    strategies.push(Box::new(
        FileStrategy::parse(
            "floors",
            "test",
            "[recruit]\nstealth_floor = 9\n[side]\nstealth_floor = 7\n\
             [first_aid]\nstealth_floor = 4\n",
        )
        .expect("valid"),
    ));
    for strategy in &strategies {
        let from = strategy
            .stealth_alike_from()
            .expect("every bundled strategy declares it");
        for rules in rule_sets() {
            let mut check = AlikeAnswers {
                strategy: strategy.as_ref(),
                rules,
                from,
                compared: 0,
            };
            for game in 0..300 {
                play_seeded(&rules, &RandomStrategy, 14, 5, game, &mut check);
            }
            assert!(check.compared > 3_000, "{}", check.compared);
        }
    }
    // The floors themselves: the strategy above reads stealth up to 9.
    let floors = strategies.last().expect("pushed");
    assert_eq!(floors.stealth_alike_from(), Some(9));
}

/// Checks the `member_order` claim of [`Sight::Partial`]: at every decision of the strategy's
/// own games, the position relabelled into member order
/// ([`raven::game::canon::in_member_order_labelled`]) gets the relabelled answer — so the exact
/// engine may key the two positions alike.
struct MemberOrderAnswers<'a> {
    strategy: &'a dyn Strategy,
    rules: Rules,
    relabelled: u64,
}

impl Observer for MemberOrderAnswers<'_> {
    fn decision(&mut self, before: &State, decision: Decision, _: Action, _: &State) {
        let (relabelled, labels) = in_member_order_labelled(before);
        if relabelled == *before {
            return;
        }
        let here = match self.strategy.decide(before, &self.rules, decision) {
            Choice::Act(action) => Choice::Act(labels.action(action)),
            choice => choice,
        };
        let Node::Decision(there_decision) = relabelled.node(&self.rules) else {
            panic!("{relabelled:?} is no decision, {before:?} is");
        };
        let there = self
            .strategy
            .decide(&relabelled, &self.rules, there_decision);
        assert_eq!(
            here,
            there,
            "{}: {decision:?} at {before:?}, relabelled {relabelled:?}",
            self.strategy.name()
        );
        self.relabelled += 1;
    }
}

#[test]
fn strategies_that_tell_members_by_order_answer_relabelled_positions_alike() {
    let mut strategies: Vec<Box<dyn Strategy>> = vec![Box::new(ReferenceStrategy)];
    for (stem, _) in BUNDLED {
        strategies.push(Box::new(bundled(stem).expect("bundled").expect("valid")));
    }
    // A main character other than the Hacker, so that the members are relabelled at the
    // run's and the finale's decisions too.
    strategies.push(Box::new(
        FileStrategy::parse(
            "sniper-main",
            "test",
            "[main]\ncharacter = \"sniper\"\n[run]\npick_on_six = \"least-wounded\"\n",
        )
        .expect("valid"),
    ));
    let claims = |s: &dyn Strategy| {
        matches!(
            s.sight(&State::new(10), &MAIN_TEXT),
            Sight::Partial {
                member_order: true,
                ..
            }
        )
    };
    let (mut checked, mut relabelled) = (0, 0);
    for strategy in strategies.iter().filter(|s| claims(s.as_ref())) {
        checked += 1;
        for rules in rule_sets() {
            let mut check = MemberOrderAnswers {
                strategy: strategy.as_ref(),
                rules,
                relabelled: 0,
            };
            for stealth in [0, 3, 10] {
                for game in 0..1_000 {
                    play_seeded(&rules, strategy.as_ref(), stealth, 9, game, &mut check);
                }
            }
            relabelled += check.relabelled;
        }
    }
    // The reference's teams are always in member order already; most others' are not.
    assert!(checked >= 7, "{checked} strategies claim member order");
    assert!(relabelled > 100_000, "{relabelled} decisions relabelled");
}
