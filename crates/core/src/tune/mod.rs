//! The best strategy a person can follow: a local search over the knobs of a strategy file
//! (`strategies/README.md`) for the highest exact win probability under given rules.
//!
//! A point of the search is one value per knob, written as it would be in a file, so that a
//! point is its own memo key, its own file text, and parses through the same validation as
//! any file (a point the file format refuses is never a candidate). The search is coordinate
//! ascent: from a start, each knob in turn takes the best of its values, every one evaluated
//! exactly, in sweeps over the knobs until no knob improves. Values are deterministic bits and ties go
//! to the first candidate in knob order, so the search takes the same path on any number of
//! threads; the values of one knob are evaluated in parallel.

use std::collections::HashMap;
use std::sync::Mutex;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::Character;
use crate::game::uniform;
use crate::par::*;
use crate::rules::Rules;
use crate::strategy::FileStrategy;
use crate::strategy::file::Spec;
use crate::strategy::file::spec::{FinaleRule, MainRule, RunTypeRule};

use crate::engine::{Budget, Halt, exact_within};

/// One knob of a strategy file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knob {
    /// The file's section.
    pub section: &'static str,
    /// The key in that section.
    pub key: &'static str,
    /// What it decides, in a few words.
    pub what: &'static str,
}

impl Knob {
    /// `section.key`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.section, self.key)
    }
}

const fn knob(section: &'static str, key: &'static str, what: &'static str) -> Knob {
    Knob { section, key, what }
}

/// Every knob of the file format, in file order.
pub const KNOBS: [Knob; 33] = [
    knob("main", "character", "who is the main character"),
    knob("recruit", "count", "how many characters to recruit"),
    knob(
        "recruit",
        "order",
        "whom to recruit, in order of preference",
    ),
    knob(
        "recruit",
        "easiest_first",
        "recruit first those whose complication the team can roll well",
    ),
    knob("recruit", "roller", "who rolls the recruitment checks"),
    knob(
        "recruit",
        "spare",
        "who rolls recruitment checks only as a last resort",
    ),
    knob(
        "recruit",
        "stealth_floor",
        "stop recruiting below this stealth (0: never)",
    ),
    knob(
        "recruit",
        "stop_at_wounds",
        "stop recruiting at this many wounds on the team (0: never)",
    ),
    knob(
        "recruit",
        "stop_after_failures",
        "give up a target after this many failed checks in a row (0: never)",
    ),
    knob(
        "recruit",
        "stop_after_success",
        "also look at the stop rules after a successful check",
    ),
    knob("run", "roller", "who rolls the run challenges"),
    knob(
        "run",
        "spare",
        "who rolls run challenges only as a last resort",
    ),
    knob(
        "run",
        "pick_on_six",
        "the run challenge's type when the die shows 6",
    ),
    knob("first_aid", "when", "when first aid is given"),
    knob("first_aid", "phases", "in which phases first aid is given"),
    knob(
        "first_aid",
        "stealth_floor",
        "give first aid only while stealth is at least this (0: always)",
    ),
    knob(
        "first_aid",
        "wounded_floor",
        "treat the merely wounded only while stealth is at least this (0: always)",
    ),
    knob(
        "first_aid",
        "discovered_ignores_floor",
        "once discovered, give first aid whatever the stealth floor says",
    ),
    knob("first_aid", "patient", "who receives first aid"),
    knob("first_aid", "giver", "who gives first aid"),
    knob(
        "first_aid",
        "finale_gives",
        "whether the finale character gives first aid in the finale",
    ),
    knob("finale", "character", "who takes the Tough Challenges"),
    knob(
        "side",
        "attempt",
        "when a side challenge is attempted at all",
    ),
    knob("side", "pass_types", "side challenge types always passed"),
    knob("side", "roller", "who rolls the side challenges"),
    knob(
        "side",
        "max_attempts",
        "most attempts at one side challenge",
    ),
    knob(
        "side",
        "stealth_floor",
        "attempt side challenges only while stealth is at least this (0: always)",
    ),
    knob(
        "side",
        "second_success",
        "attempt the second side challenge after the first succeeded",
    ),
    knob(
        "side",
        "finale_may_roll",
        "the finale character may roll side challenges",
    ),
    knob(
        "side",
        "anyone_last",
        "on the last this many Tough Challenges anyone tries every side challenge (0: none)",
    ),
    knob(
        "side",
        "anyone_last_discovered",
        "once discovered, the same on the last this many Tough Challenges (0: none)",
    ),
    knob(
        "side",
        "anyone_until",
        "anyone tries only while fewer side successes than this are in",
    ),
    knob(
        "substitute",
        "character",
        "who replaces a finale character who cannot roll",
    ),
];

/// A point of the knob space: one value per [`KNOBS`] entry, as written in a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub Vec<String>);

fn quoted(text: impl std::fmt::Display) -> String {
    format!("\"{text}\"")
}

fn list<T: std::fmt::Display>(items: &[T]) -> String {
    let items: Vec<String> = items.iter().map(quoted).collect();
    format!("[{}]", items.join(", "))
}

fn speciality(c: Character) -> String {
    quoted(c.speciality())
}

impl Point {
    /// The point of `spec`'s knobs.
    pub fn of(spec: &Spec) -> Point {
        let main = match spec.main.character {
            MainRule::Fixed(c) => speciality(c),
            MainRule::Random => quoted("random"),
            MainRule::MostNeeded => quoted("most-needed"),
            MainRule::MostNeededNotMedic => quoted("most-needed-not-medic"),
            MainRule::HardestToRecruit => quoted("hardest-to-recruit"),
            MainRule::FirstTarget => quoted("first-target"),
        };
        let pick = match spec.run.pick_on_six {
            RunTypeRule::LowestAble => quoted("lowest-able"),
            RunTypeRule::LeastWounded => quoted("least-wounded"),
            RunTypeRule::Main => quoted("main"),
            RunTypeRule::Fixed(c) => speciality(c),
        };
        let finale = match spec.finale.character {
            FinaleRule::Main => quoted("main"),
            FinaleRule::MainIfHealthy => quoted("main-if-healthy"),
            FinaleRule::LeastWounded => quoted("least-wounded"),
            FinaleRule::Fixed(c) => speciality(c),
        };
        let order: Vec<&str> = spec
            .recruit
            .order
            .0
            .iter()
            .map(|c| c.speciality())
            .collect();
        let r = &spec.recruit;
        let a = &spec.first_aid;
        let s = &spec.side;
        Point(vec![
            main,
            r.count.0.to_string(),
            list(&order),
            r.easiest_first.to_string(),
            quoted(r.roller),
            quoted(r.spare),
            r.stealth_floor.0.to_string(),
            r.stop_at_wounds.0.to_string(),
            r.stop_after_failures.0.to_string(),
            r.stop_after_success.to_string(),
            quoted(spec.run.roller),
            quoted(spec.run.spare),
            pick,
            quoted(a.when),
            list(&a.phases),
            a.stealth_floor.0.to_string(),
            a.wounded_floor.0.to_string(),
            a.discovered_ignores_floor.to_string(),
            quoted(a.patient),
            quoted(a.giver),
            quoted(a.finale_gives),
            finale,
            quoted(s.attempt),
            list(&s.pass_types),
            quoted(s.roller),
            s.max_attempts.0.to_string(),
            s.stealth_floor.0.to_string(),
            s.second_success.to_string(),
            s.finale_may_roll.to_string(),
            s.anyone_last.0.to_string(),
            s.anyone_last_discovered.0.to_string(),
            s.anyone_until.0.to_string(),
            quoted(spec.substitute.character),
        ])
    }

    /// The file text: `description`, then every knob in its section, each preceded by the
    /// lines `comment` gives for it (none when it gives none).
    pub fn file(
        &self,
        header: &str,
        description: &str,
        comment: impl Fn(usize) -> Vec<String>,
    ) -> String {
        let mut text = String::new();
        for line in header.lines() {
            text += &format!("# {line}\n").replace("# \n", "#\n");
        }
        text += &format!("description = {}\n", toml_string(description));
        let mut section = "";
        for (i, (knob, value)) in KNOBS.iter().zip(&self.0).enumerate() {
            if knob.section != section {
                section = knob.section;
                text += &format!("\n[{section}]\n");
            }
            for line in comment(i) {
                text += &format!("# {line}\n");
            }
            text += &format!("{} = {value}\n", knob.key);
        }
        text
    }

    /// The spec of this point, or `None` when the file format refuses it.
    pub fn spec(&self) -> Option<Spec> {
        FileStrategy::parse("candidate", "candidate", &self.file("", "", |_| Vec::new()))
            .ok()
            .map(|s| s.spec().clone())
    }

    /// The value of knob `key` (`section.key`), without its quotes.
    ///
    /// # Panics
    /// When no knob is named `key` (a slip in the caller's code, not in user input).
    pub fn value(&self, key: &str) -> &str {
        let i = KNOBS
            .iter()
            .position(|k| k.name() == key)
            .unwrap_or_else(|| panic!("no knob {key}"));
        self.0[i].trim_matches('"')
    }

    /// The items of list knob `key` (`section.key`).
    pub fn items(&self, key: &str) -> Vec<String> {
        items(self.value(key))
    }

    /// This point with knob `knob` set to `value`.
    pub fn with(&self, knob: usize, value: &str) -> Point {
        let mut values = self.0.clone();
        values[knob] = value.to_string();
        Point(values)
    }
}

/// A string as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            c if c.is_control() => out += &format!("\\u{:04X}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The bounds of the numeric knobs that can make a difference under some rules and stealths.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    /// Above the highest starting stealth: a floor there is as good as any higher.
    stealth: u8,
    /// Recruits the team has room for.
    count: u8,
    /// Tough Challenges.
    tough: u8,
}

impl Bounds {
    fn new(rules: &Rules, stealths: &[u8]) -> Bounds {
        Bounds {
            stealth: stealths
                .iter()
                .copied()
                .max()
                .unwrap_or(0)
                .saturating_add(1)
                .min(99),
            count: rules.design.team_size.saturating_sub(1).min(5),
            tough: rules.design.tough_challenges.min(9),
        }
    }
}

const ROLLERS: [&str; 2] = ["specialist", "least-wounded"];
const SPARES: [&str; 5] = [
    "none",
    "main",
    "finale",
    "main-except-own",
    "finale-except-own",
];
const BOOLS: [&str; 2] = ["false", "true"];
const SPECIALITIES: [&str; 6] = Character::SPECIALITIES;

fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(quoted).collect()
}

fn plain(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// Parses a list value back into its items.
fn items(value: &str) -> Vec<String> {
    value
        .trim_matches(['[', ']'])
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A numeric knob's values worth trying from `current`: its neighbours one and two away,
/// the ends of its useful range (`0` and `top`).
fn numbers(current: &str, top: u8) -> Vec<String> {
    let now: i32 = current.parse().unwrap_or(0);
    let mut values: Vec<i32> = vec![0, now - 2, now - 1, now + 1, now + 2, i32::from(top)];
    values.retain(|v| (0..=i32::from(top)).contains(v));
    values.sort_unstable();
    values.dedup();
    values.into_iter().map(|v| v.to_string()).collect()
}

/// Every subset of `all`, as lists in `all`'s order.
fn subsets(all: &[&str]) -> Vec<String> {
    (0..1u32 << all.len())
        .map(|mask| {
            let chosen: Vec<&str> = all
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, w)| *w)
                .collect();
            list(&chosen)
        })
        .collect()
}

/// Lists one move away from `order`: an entry moved to the front, two neighbours swapped, an
/// entry dropped, a missing character added at the end or the front.
fn order_moves(order: &[String]) -> Vec<String> {
    let mut moves: Vec<Vec<String>> = Vec::new();
    for i in 1..order.len() {
        let mut v = order.to_vec();
        let c = v.remove(i);
        v.insert(0, c);
        moves.push(v);
        let mut v = order.to_vec();
        v.swap(i - 1, i);
        moves.push(v);
    }
    for i in 0..order.len() {
        let mut v = order.to_vec();
        v.remove(i);
        moves.push(v);
    }
    for c in SPECIALITIES {
        if !order.iter().any(|o| o == c) {
            let mut v = order.to_vec();
            v.push(c.to_string());
            moves.push(v);
            let mut v = order.to_vec();
            v.insert(0, c.to_string());
            moves.push(v);
        }
    }
    moves.into_iter().map(|v| list(&v)).collect()
}

/// The values of knob `knob` worth trying from `point` (its current value among them).
fn values(knob: usize, point: &Point, bounds: Bounds) -> Vec<String> {
    let current = &point.0[knob];
    let mut main_like: Vec<&str> = Vec::new();
    let values = match KNOBS[knob].name().as_str() {
        "main.character" => {
            main_like.extend([
                "random",
                "most-needed",
                "hardest-to-recruit",
                "first-target",
            ]);
            main_like.extend(SPECIALITIES);
            words(&main_like)
        }
        "recruit.count" => (0..=bounds.count).map(|v| v.to_string()).collect(),
        "recruit.order" => order_moves(&items(current)),
        "recruit.roller" | "run.roller" | "side.roller" => words(&ROLLERS),
        "recruit.spare" | "run.spare" => words(&SPARES),
        "recruit.stealth_floor"
        | "first_aid.stealth_floor"
        | "first_aid.wounded_floor"
        | "side.stealth_floor" => numbers(current, bounds.stealth),
        "recruit.stop_at_wounds" => numbers(current, 8),
        "recruit.stop_after_failures" | "side.max_attempts" => numbers(current, 6),
        "run.pick_on_six" => {
            main_like.extend(["lowest-able", "least-wounded", "main"]);
            main_like.extend(&SPECIALITIES[..5]);
            words(&main_like)
        }
        "first_aid.when" => words(&["always", "never", "incapacitated"]),
        "first_aid.phases" => subsets(&["recruitment", "run", "finale"]),
        "first_aid.patient" => words(&["incapacitated-first", "finale-first", "lowest-number"]),
        "first_aid.giver" => words(&["medic-first", "self-first", "least-wounded"]),
        "first_aid.finale_gives" => words(&["always", "undiscovered", "never"]),
        "side.anyone_until" => plain(&["1", "2"]),
        "side.anyone_last" | "side.anyone_last_discovered" => {
            (0..=bounds.tough).map(|v| v.to_string()).collect()
        }
        "finale.character" => {
            main_like.extend(["main", "main-if-healthy", "least-wounded"]);
            main_like.extend(SPECIALITIES);
            words(&main_like)
        }
        "side.attempt" => words(&["with-specialist", "always", "never"]),
        "side.pass_types" => {
            // One type more or one fewer.
            let now = items(current);
            SPECIALITIES
                .iter()
                .map(|c| {
                    let mut v: Vec<&str> = now.iter().map(String::as_str).collect();
                    if let Some(i) = v.iter().position(|x| x == c) {
                        v.remove(i);
                    } else {
                        v.push(c);
                        v.sort_by_key(|x| SPECIALITIES.iter().position(|s| s == x));
                    }
                    list(&v)
                })
                .collect()
        }
        "substitute.character" => words(&["least-wounded", "main-first"]),
        _ => plain(&BOOLS),
    };
    let mut values = values;
    if !values.contains(current) {
        values.insert(0, current.clone());
    }
    values
}

/// A number drawn uniformly in `0..n`.
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    uniform(rng, n as u32) as usize
}

/// A point drawn at random: every knob uniformly among its values from the reference point
/// (the recruitment order: a random subset of the characters in random order).
fn random_point(rng: &mut Xoshiro256PlusPlus, bounds: Bounds) -> Point {
    let reference = Point::of(&Spec::default());
    loop {
        let mut point = reference.clone();
        for (knob, k) in KNOBS.iter().enumerate() {
            let choice = if k.name() == "recruit.order" {
                let mut all: Vec<&str> = SPECIALITIES.to_vec();
                for i in (1..all.len()).rev() {
                    all.swap(i, below(rng, i + 1));
                }
                let keep = below(rng, all.len() + 1);
                list(&all[..keep])
            } else {
                let options = values(knob, &point, bounds);
                options[below(rng, options.len())].clone()
            };
            point.0[knob] = choice;
        }
        if point.spec().is_some() {
            return point;
        }
    }
}

/// What the search is asked.
#[derive(Clone, Debug)]
pub struct Task {
    /// The rules in force.
    pub rules: Rules,
    /// The starting stealths; the objective is the mean win probability over them.
    pub stealths: Vec<u8>,
    /// The points to climb from first, with their names (the bundled strategies, best first).
    pub starts: Vec<(String, Point)>,
    /// Climbs from random points after those.
    pub random_starts: usize,
    /// The seed of the random points.
    pub seed: u64,
    /// The knobs the search may change (indices into [`KNOBS`]); the others keep their
    /// values from each start.
    pub knobs: Vec<usize>,
}

/// One knob change the search made, and what it gained.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// Index into [`KNOBS`].
    pub knob: usize,
    /// The value before.
    pub from: String,
    /// The value after.
    pub to: String,
    /// The mean win probability gained (0–1).
    pub gain: f64,
}

/// One climb: from a start to a point no single knob change improves.
#[derive(Clone, Debug, PartialEq)]
pub struct Climb {
    /// The start's name (`random N` for a random start).
    pub start: String,
    /// The mean win probability at the start.
    pub from: f64,
    /// The changes, in the order made.
    pub moves: Vec<Move>,
    /// Where it ended.
    pub point: Point,
    /// The mean win probability there.
    pub value: f64,
    /// Whether it stopped short (interrupted) rather than at a local optimum.
    pub cut_short: bool,
}

/// A knob of the winner, and what changing it costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Sensitivity {
    /// Index into [`KNOBS`].
    pub knob: usize,
    /// The winner's value.
    pub value: String,
    /// The best other value tried, and its mean win probability below the winner's (0–1);
    /// `None` when no other value is allowed there.
    pub alternative: Option<(String, f64)>,
}

/// The search's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The best point found.
    pub best: Point,
    /// Its win probability at each stealth of the task.
    pub values: Vec<f64>,
    /// Every climb, in the order run.
    pub climbs: Vec<Climb>,
    /// The winner's knobs, the costliest to change first.
    pub sensitivity: Vec<Sensitivity>,
    /// Candidates evaluated exactly.
    pub evaluated: usize,
    /// Whether the search was interrupted (the best so far is reported).
    pub interrupted: bool,
}

impl Tuned {
    /// The winner's mean win probability.
    pub fn mean(&self) -> f64 {
        mean(&self.values)
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The least gain the search moves for: a hundredth of a point of win probability. Rules of
/// thumb closer than that are the same advice to a player, and a climb that chased smaller
/// gains would spend sweeps reordering preferences that hardly ever matter.
const GAIN: f64 = 1e-4;

/// The fewest candidates evaluated side by side (a constant, so that the points evaluated do
/// not depend on the number of threads).
const BATCH: usize = 4;

/// Exact values of points, each evaluated once.
struct Evaluations<'a> {
    task: &'a Task,
    budget: Budget<'a>,
    /// `None`: refused by the file format, or too large for the budget.
    values: Mutex<HashMap<Point, Option<Vec<f64>>>>,
    on_evaluated: &'a (dyn Fn(usize) + Sync),
}

impl Evaluations<'_> {
    /// The values of `points` (in order), evaluating in parallel those not seen before.
    fn get(&self, points: &[Point]) -> Result<Vec<Option<Vec<f64>>>, Halt> {
        let fresh: Vec<Point> = {
            let known = self.values.lock().expect("memo");
            let mut fresh: Vec<Point> = points
                .iter()
                .filter(|p| !known.contains_key(*p))
                .cloned()
                .collect();
            fresh.sort();
            fresh.dedup();
            fresh
        };
        let results: Vec<Result<(), Halt>> = fresh
            .into_par_iter()
            .map(|point| {
                let value = match point.spec() {
                    None => None,
                    Some(spec) => {
                        let strategy = FileStrategy::from_spec("candidate", spec);
                        match exact_within(
                            &self.task.rules,
                            &strategy,
                            &self.task.stealths,
                            self.budget,
                        ) {
                            Ok(run) => Some(run.expectations.iter().map(|e| e.win).collect()),
                            Err(Halt::TooLarge(_)) => None,
                            Err(halt) => return Err(halt),
                        }
                    }
                };
                let mut known = self.values.lock().expect("memo");
                known.insert(point, value);
                (self.on_evaluated)(known.len());
                Ok(())
            })
            .collect();
        for r in results {
            r?;
        }
        let known = self.values.lock().expect("memo");
        Ok(points.iter().map(|p| known[p].clone()).collect())
    }
}

/// Searches the knob space for the highest mean exact win probability over `task.stealths`,
/// within `budget` per evaluation. `on_evaluated` hears the number of points evaluated so
/// far after each evaluation. When the budget's cancel flag is raised, the best point so far
/// is returned with `interrupted` set (an error only if not even one start was evaluated).
pub fn tune(
    task: &Task,
    budget: Budget<'_>,
    on_evaluated: &(dyn Fn(usize) + Sync),
) -> Result<Tuned, Halt> {
    let memo = Evaluations {
        task,
        budget,
        values: Mutex::new(HashMap::new()),
        on_evaluated,
    };
    let bounds = Bounds::new(&task.rules, &task.stealths);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(task.seed);
    let mut starts = task.starts.clone();
    for i in 0..task.random_starts {
        let mut point = random_point(&mut rng, bounds);
        // Knobs the search may not change keep the first start's values.
        if let Some((_, first)) = task.starts.first() {
            for k in 0..KNOBS.len() {
                if !task.knobs.contains(&k) {
                    point.0[k] = first.0[k].clone();
                }
            }
        }
        starts.push((format!("random start {}", i + 1), point));
    }
    let mut climbs: Vec<Climb> = Vec::new();
    let mut interrupted = false;
    for (name, start) in starts {
        match climb(&memo, bounds, &name, start) {
            Ok(c) => {
                let cut = c.cut_short;
                climbs.push(c);
                if cut {
                    interrupted = true;
                    break;
                }
            }
            Err(halt) => {
                if climbs.is_empty() {
                    return Err(halt);
                }
                interrupted = true;
                break;
            }
        }
    }
    // The best climb; ties to the first.
    let winner = climbs
        .iter()
        .fold(None::<&Climb>, |best, c| match best {
            Some(b) if b.value >= c.value => Some(b),
            _ => Some(c),
        })
        .expect("at least one climb");
    let best = winner.point.clone();
    let values = memo.get(std::slice::from_ref(&best))?[0]
        .clone()
        .expect("a climb ends at a valued point");
    let sensitivity = sensitivity(&memo, bounds, &best, mean(&values)).unwrap_or_default();
    let evaluated = memo.values.lock().expect("memo").len();
    Ok(Tuned {
        best,
        values,
        climbs,
        sensitivity,
        evaluated,
        interrupted,
    })
}

/// What each knob of `point` costs, as [`tune`] reports its winner's: the best other value of
/// every knob in `task.knobs` and the mean win probability over `task.stealths` it loses (the
/// costliest first). For a file the search did not produce, such as one a report recommends;
/// no climb is made (`task`'s starts and seed are not read). Empty when `point` itself cannot
/// be evaluated within `budget`.
pub fn knob_costs(
    task: &Task,
    budget: Budget<'_>,
    point: &Point,
) -> Result<Vec<Sensitivity>, Halt> {
    let memo = Evaluations {
        task,
        budget,
        values: Mutex::new(HashMap::new()),
        on_evaluated: &|_| {},
    };
    let Some(values) = memo.get(std::slice::from_ref(point))?[0].clone() else {
        return Ok(Vec::new());
    };
    let bounds = Bounds::new(&task.rules, &task.stealths);
    sensitivity(&memo, bounds, point, mean(&values))
}

/// Every point one knob change away from `point`, with the knob changed.
/// The knobs of `to` whose values differ from `from`'s, each as `section.key = value` (in
/// [`KNOBS`] order): what a card's knobs changed from the file it started from.
pub fn changed(from: &Spec, to: &Spec) -> Vec<String> {
    let (from, to) = (Point::of(from), Point::of(to));
    (KNOBS.iter().zip(from.0.iter().zip(&to.0)))
        .filter(|(_, (a, b))| a != b)
        .map(|(knob, (_, b))| format!("{} = {b}", knob.name()))
        .collect()
}

/// The points that differ from `point` in knob `knob` alone, at the values the search tries
/// under `rules` at `stealths` (each knob's bounds are those of [`tune`]).
pub fn one_knob_away(point: &Point, rules: &Rules, stealths: &[u8], knob: usize) -> Vec<Point> {
    neighbours(point, Bounds::new(rules, stealths), &[knob])
        .into_iter()
        .map(|(_, p)| p)
        .collect()
}

fn neighbours(point: &Point, bounds: Bounds, knobs: &[usize]) -> Vec<(usize, Point)> {
    knobs
        .iter()
        .copied()
        .flat_map(|knob| {
            values(knob, point, bounds)
                .into_iter()
                .filter(move |v| *v != point.0[knob])
                .map(move |v| (knob, point.with(knob, &v)))
        })
        .collect()
}

/// Coordinate ascent from `start`, a knob at a time: each knob in turn takes its best value
/// with the others held (its alternatives evaluated in parallel), and sweeps over the knobs
/// repeat until one changes nothing. A knob moved early is seen by every later knob of the
/// same sweep, so a climb needs a few sweeps of the neighbourhood where taking only the best
/// single change per neighbourhood needs one neighbourhood per move; a sweep that changes
/// nothing has evaluated every neighbour of the end point, which the sensitivities then read.
/// A start the file format refuses, or too large to evaluate, gives a climb that goes nowhere
/// at value 0.
fn climb(memo: &Evaluations<'_>, bounds: Bounds, name: &str, start: Point) -> Result<Climb, Halt> {
    let from = memo.get(std::slice::from_ref(&start))?[0]
        .as_deref()
        .map_or(0.0, mean);
    let mut climb = Climb {
        start: name.to_string(),
        from,
        moves: Vec::new(),
        point: start,
        value: from,
        cut_short: false,
    };
    loop {
        let mut moved = false;
        let knobs = &memo.task.knobs;
        for (j, &knob) in knobs.iter().enumerate() {
            let candidates = neighbours(&climb.point, bounds, &[knob]);
            let mut points: Vec<Point> = candidates.iter().map(|(_, p)| p.clone()).collect();
            // A knob of one or two alternatives would leave threads idle: the next knobs'
            // alternatives from this point join the batch, and are already valued when their
            // turn comes unless this knob moves.
            for &next in &knobs[j + 1..] {
                if points.len() >= BATCH {
                    break;
                }
                points.extend(
                    neighbours(&climb.point, bounds, &[next])
                        .into_iter()
                        .map(|(_, p)| p),
                );
            }
            let values = match memo.get(&points) {
                Ok(v) => v,
                Err(Halt::Cancelled(_)) => {
                    climb.cut_short = true;
                    return Ok(climb);
                }
                Err(halt) => return Err(halt),
            };
            let mut best: Option<(usize, f64)> = None;
            for (i, v) in values.iter().take(candidates.len()).enumerate() {
                if let Some(v) = v {
                    let m = mean(v);
                    if m > climb.value + GAIN && best.is_none_or(|(_, b)| m > b) {
                        best = Some((i, m));
                    }
                }
            }
            let Some((i, m)) = best else { continue };
            let (knob, point) = candidates[i].clone();
            climb.moves.push(Move {
                knob,
                from: climb.point.0[knob].clone(),
                to: point.0[knob].clone(),
                gain: m - climb.value,
            });
            climb.point = point;
            climb.value = m;
            moved = true;
        }
        if !moved {
            return Ok(climb);
        }
    }
}

/// For each knob of `point` (worth `value`), its best alternative and what it costs; the
/// costliest first, ties in knob order.
fn sensitivity(
    memo: &Evaluations<'_>,
    bounds: Bounds,
    point: &Point,
    value: f64,
) -> Result<Vec<Sensitivity>, Halt> {
    let candidates = neighbours(point, bounds, &memo.task.knobs);
    let points: Vec<Point> = candidates.iter().map(|(_, p)| p.clone()).collect();
    let values = memo.get(&points)?;
    let mut out: Vec<Sensitivity> = (0..KNOBS.len())
        .map(|knob| Sensitivity {
            knob,
            value: point.0[knob].clone(),
            alternative: None,
        })
        .collect();
    for ((knob, p), v) in candidates.iter().zip(values) {
        let Some(v) = v else { continue };
        let cost = value - mean(&v);
        let s = &mut out[*knob];
        if s.alternative.as_ref().is_none_or(|(_, c)| cost < *c) {
            s.alternative = Some((p.0[*knob].clone(), cost));
        }
    }
    let key = |s: &Sensitivity| {
        s.alternative
            .as_ref()
            .map_or(f64::NEG_INFINITY, |(_, c)| *c)
    };
    out.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.knob.cmp(&b.knob)));
    Ok(out)
}

#[cfg(test)]
mod tests;
