//! `raven tune` through the real binary: the written file passes `strategies check` and
//! `exact` reproduces the reported numbers; the same seed writes the same bytes on one thread
//! and two; unknown knobs are refused.

use crate::common::raven;

/// A small design and a few knobs, so that a whole search takes seconds.
const SMALL: [&str; 14] = [
    "--rule",
    "run-challenges=2",
    "--rule",
    "tough-challenges=1",
    "--stealth",
    "4,6",
    "--knob",
    "recruit.count",
    "--knob",
    "side.max_attempts",
    "--knob",
    "first_aid.when",
    "--knob",
    "main.character",
];

fn tune(out: &std::path::Path, threads: &str) -> String {
    let run = raven()
        .arg("tune")
        .args(SMALL)
        .args([
            "--restarts",
            "1",
            "--seed",
            "5",
            "--quiet",
            "--threads",
            threads,
        ])
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    String::from_utf8(run.get_output().stdout.clone()).unwrap()
}

#[test]
fn tune_writes_a_checked_file_that_exact_reproduces_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one.toml"), dir.path().join("two.toml"));
    let printed = tune(&one, "1");
    tune(&two, "2");
    let file = std::fs::read(&one).unwrap();
    assert_eq!(file, std::fs::read(&two).unwrap(), "same seed, same bytes");
    raven()
        .args(["strategies", "check"])
        .arg(&one)
        .assert()
        .success();
    let exact = raven()
        .args(["exact", "--quiet", "--strategy"])
        .arg(&one)
        .args(&SMALL[..6])
        .assert()
        .success();
    let exact = String::from_utf8(exact.get_output().stdout.clone()).unwrap();
    for stealth in [4, 6] {
        let wanted = format!("stealth {stealth:>2}: P(win) = ");
        let line = |text: &str| {
            text.lines()
                .find_map(|l| l.split_once(&wanted).map(|(_, v)| v.to_string()))
                .unwrap_or_else(|| panic!("no {wanted} in {text}"))
        };
        assert_eq!(line(&printed), line(&exact), "stealth {stealth}");
    }
    // The ladder, path and sensitivities are there, and the winner beats the reference.
    for part in [
        "random",
        "reference",
        "best bundled",
        "tuned",
        "optimal",
        "the path",
        "rules of thumb",
    ] {
        assert!(printed.contains(part), "{part}: {printed}");
    }
    let text = String::from_utf8(file).unwrap();
    assert!(text.contains("# Who is the main character."), "{text}");
}

#[test]
fn an_unknown_knob_is_refused() {
    let out = raven()
        .args(["tune", "--knob", "recruit.cuont"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("unknown knob 'recruit.cuont'"), "{stderr}");
    assert!(stderr.contains("recruit.count"), "{stderr}");
}

/// The committed report's *What a player should do* lists its file's rules of thumb in the
/// order of their worth, and each worth is the cost `raven tune` prints for that knob of that
/// file: two programs, one figure. The three most valuable are recomputed (a search of those
/// knobs from the report's `tuned.toml`, at the report's headline stealths and rules).
#[test]
fn the_report_s_rules_of_thumb_are_tune_s_costs_in_order_of_worth() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("## What a player should do")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the section");
    // "- **Part**: rule — **25.8 points** (`side.finale_may_roll`)."
    let rules: Vec<(String, f64)> = section
        .lines()
        .filter_map(|line| {
            let (_, worth) = line.strip_prefix("- **")?.split_once(" — **")?;
            let (points, knob) = worth.split_once(" points** (`")?;
            let knob = knob.strip_suffix("`).")?;
            Some((knob.to_string(), points.parse().unwrap()))
        })
        .collect();
    assert!(rules.len() >= 3, "{section}");
    for pair in rules.windows(2) {
        assert!(pair[0].1 >= pair[1].1, "not in order of worth: {pair:?}");
    }
    let mut args = vec![
        "tune".to_string(),
        "--from".into(),
        root.join("tuned.toml").display().to_string(),
        "--bundled-starts".into(),
        "0".into(),
        "--quiet".into(),
    ];
    for (knob, _) in &rules[..3] {
        args.extend(["--knob".to_string(), knob.clone()]);
    }
    let run = raven().args(&args).assert().success();
    let text = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(text.contains("no single knob change improved it"), "{text}");
    for (knob, points) in &rules[..3] {
        // "   25.75  side.finale_may_roll = false: …"
        let cost: f64 = text
            .lines()
            .find_map(|l| {
                let (cost, rest) = l.trim_start().split_once("  ")?;
                rest.starts_with(&format!("{knob} = "))
                    .then(|| cost.parse().ok())?
            })
            .unwrap_or_else(|| panic!("no cost for {knob} in {text}"));
        // Both round the same number: tune to two decimals, the report to one.
        assert!(
            (cost - points).abs() <= 0.05 + 0.005,
            "{knob}: the report says {points} points, raven tune {cost}"
        );
    }
}
