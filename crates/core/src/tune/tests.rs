//! Tests of the knob search: points read back, the search against exhaustive enumeration, a
//! planted optimum, and the same result on any number of threads.

use super::*;
use crate::engine::exact;
use crate::rules::{CLARIFIED, MAIN_TEXT};
use crate::strategy::BUNDLED;

fn index(name: &str) -> usize {
    KNOBS
        .iter()
        .position(|k| k.name() == name)
        .unwrap_or_else(|| panic!("no knob {name}"))
}

/// A small design: few challenges, so that an exact evaluation takes milliseconds.
fn small(rules: Rules) -> Rules {
    rules
        .with_overrides(&[
            "run-challenges=2".to_string(),
            "tough-challenges=1".to_string(),
        ])
        .expect("a valid design")
}

fn value(rules: &Rules, point: &Point, stealths: &[u8]) -> f64 {
    let strategy = FileStrategy::from_spec("p", point.spec().expect("a valid point"));
    mean(
        &exact(rules, &strategy, stealths)
            .expectations
            .iter()
            .map(|e| e.win)
            .collect::<Vec<_>>(),
    )
}

fn task(rules: Rules, stealths: &[u8], knobs: &[&str], random_starts: usize) -> Task {
    Task {
        rules,
        stealths: stealths.to_vec(),
        starts: vec![("reference".to_string(), Point::of(&Spec::default()))],
        random_starts,
        seed: 7,
        knobs: knobs.iter().map(|k| index(k)).collect(),
    }
}

fn run(task: &Task) -> Tuned {
    tune(task, Budget::UNLIMITED, &|_| {}).expect("no limit, no cancel")
}

#[test]
fn every_bundled_file_of_knobs_reads_back_from_its_point() {
    for (name, text) in BUNDLED {
        let spec = FileStrategy::parse(name, name, text)
            .unwrap()
            .spec()
            .clone();
        // A rule card's knobs are a file of knobs' (`tuned`, `tuned-clarified`): its rules
        // are no knob.
        if !spec.card.is_empty() {
            continue;
        }
        let point = Point::of(&spec);
        assert_eq!(point.0.len(), KNOBS.len());
        let mut back = point.spec().unwrap_or_else(|| panic!("{name} refused"));
        back.description = spec.description.clone();
        assert_eq!(back, spec, "{name}");
        // Every knob's current value is among the values the search tries.
        let bounds = Bounds::new(&MAIN_TEXT, &[8, 10, 12]);
        for k in 0..KNOBS.len() {
            assert!(
                values(k, &point, bounds).contains(&point.0[k]),
                "{name} {k}"
            );
        }
    }
}

#[test]
fn every_value_the_search_tries_is_a_valid_file() {
    let bounds = Bounds::new(&MAIN_TEXT, &[8, 10, 12]);
    let reference = Point::of(&Spec::default());
    for (k, p) in neighbours(&reference, bounds, &(0..KNOBS.len()).collect::<Vec<_>>()) {
        let spec = p
            .spec()
            .unwrap_or_else(|| panic!("{}: {:?}", KNOBS[k].name(), p.0[k]));
        // The knob changed really reads differently.
        assert_ne!(Point::of(&spec).0[k], reference.0[k]);
    }
}

#[test]
fn a_search_over_two_knobs_finds_the_best_of_all_their_values() {
    // Exhaustive enumeration of a small knob space against the search.
    let rules = small(MAIN_TEXT);
    let stealths = [6];
    let knobs = ["main.character", "finale.character"];
    let task = task(rules, &stealths, &knobs, 0);
    let bounds = Bounds::new(&rules, &stealths);
    let reference = Point::of(&Spec::default());
    let (a, b) = (index(knobs[0]), index(knobs[1]));
    let mut best = f64::NEG_INFINITY;
    for x in values(a, &reference, bounds) {
        for y in values(b, &reference, bounds) {
            let p = reference.with(a, &x).with(b, &y);
            if p.spec().is_some() {
                best = best.max(value(&rules, &p, &stealths));
            }
        }
    }
    let tuned = run(&task);
    assert!(!tuned.interrupted);
    assert!(
        (tuned.mean() - best).abs() < 1e-12,
        "{} against {best}",
        tuned.mean()
    );
    // The reported value is the winner's own exact value.
    assert_eq!(tuned.mean(), value(&rules, &tuned.best, &stealths));
}

#[test]
fn a_planted_optimum_is_found() {
    // A start that gives no first aid and passes every side challenge, under a design where
    // both pay: the search must climb out to the best of all their settings, as enumeration
    // finds it.
    let rules = small(CLARIFIED);
    let stealths = [5, 7];
    let knobs = ["first_aid.when", "first_aid.phases", "side.attempt"];
    let mut t = task(rules, &stealths, &knobs, 0);
    let mut start = Point::of(&Spec::default());
    start.0[index("first_aid.when")] = "\"never\"".to_string();
    start.0[index("side.attempt")] = "\"never\"".to_string();
    t.starts = vec![("planted".to_string(), start.clone())];
    let tuned = run(&t);
    // Enumerate the whole free space.
    let bounds = Bounds::new(&rules, &stealths);
    let ids: Vec<usize> = knobs.iter().map(|k| index(k)).collect();
    let mut points = vec![start.clone()];
    for &k in &ids {
        points = points
            .iter()
            .flat_map(|p| values(k, p, bounds).into_iter().map(move |v| p.with(k, &v)))
            .collect();
    }
    let (argmax, best) = points
        .iter()
        .filter(|p| p.spec().is_some())
        .map(|p| (p.clone(), value(&rules, p, &stealths)))
        .fold((start.clone(), f64::NEG_INFINITY), |(bp, bv), (p, v)| {
            if v > bv { (p, v) } else { (bp, bv) }
        });
    assert!(
        (tuned.mean() - best).abs() < 1e-12,
        "search {} ({:?}) against enumeration {best} ({:?})",
        tuned.mean(),
        tuned.best,
        argmax
    );
    assert!(tuned.mean() > value(&rules, &start, &stealths) + 0.01);
    // The path's gains add up to the climb.
    let climb = &tuned.climbs[0];
    let gained: f64 = climb.moves.iter().map(|m| m.gain).sum();
    assert!((climb.from + gained - climb.value).abs() < 1e-12);
}

#[test]
fn the_winner_is_a_local_optimum_and_its_sensitivities_are_exact() {
    let rules = small(MAIN_TEXT);
    let stealths = [6];
    let knobs = [
        "recruit.count",
        "recruit.stop_after_failures",
        "side.max_attempts",
    ];
    let tuned = run(&task(rules, &stealths, &knobs, 1));
    let winner = tuned.mean();
    for s in &tuned.sensitivity {
        if !knobs.contains(&KNOBS[s.knob].name().as_str()) {
            assert!(s.alternative.is_none());
            continue;
        }
        let (alt, cost) = s.alternative.clone().expect("alternatives exist");
        // A local optimum: no other value gains the least gain the search moves for.
        assert!(cost > -GAIN, "{} improves", KNOBS[s.knob].name());
        let v = value(&rules, &tuned.best.with(s.knob, &alt), &stealths);
        assert!((winner - v - cost).abs() < 1e-12);
    }
    // Sorted: the costliest first.
    let costs: Vec<f64> = tuned
        .sensitivity
        .iter()
        .map(|s| {
            s.alternative
                .as_ref()
                .map_or(f64::NEG_INFINITY, |(_, c)| *c)
        })
        .collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]));
}

#[cfg(feature = "parallel")]
#[test]
fn the_search_is_the_same_on_one_thread_and_two() {
    let rules = small(MAIN_TEXT);
    let knobs = ["main.character", "recruit.count", "side.max_attempts"];
    let t = task(rules, &[4, 6], &knobs, 2);
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(&t))
    };
    let one = on(1);
    assert_eq!(one, on(2));
    assert_eq!(one.climbs.len(), 3);
}

/// The costs of a file the search did not produce are those the search gives its winner:
/// [`knob_costs`] of the winner's point is the winner's sensitivity, bit for bit, and a cost
/// is the point's mean less the best other value's, recomputed here.
#[test]
fn knob_costs_of_the_winner_are_its_sensitivity() {
    let rules = small(MAIN_TEXT);
    let task = task(
        rules,
        &[4, 6],
        &["recruit.count", "first_aid.when", "side.max_attempts"],
        0,
    );
    let tuned = run(&task);
    let costs = knob_costs(&task, Budget::UNLIMITED, &tuned.best).expect("no limit");
    assert_eq!(costs, tuned.sensitivity);
    let first = &costs[0];
    let (other, cost) = first.alternative.clone().expect("a searched knob");
    let worse = value(&rules, &tuned.best.with(first.knob, &other), &[4, 6]);
    assert_eq!(cost, value(&rules, &tuned.best, &[4, 6]) - worse);
}
