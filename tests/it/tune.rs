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
