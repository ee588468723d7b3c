//! `--shard K/N` and `raven merge` on the real binary: the merged shards of `simulate`,
//! `sweep` and `explore` are byte for byte the whole run's CSV, and shards that are not every
//! shard of one run, each once, are refused (exit 2, nothing written).

use std::path::{Path, PathBuf};

use crate::common;

use common::{entries, raven, refused, small_report, stdout};

/// Not a multiple of 3 (nor of the engine's chunk of 16 384): blocks of unequal size, one
/// straddling a chunk boundary.
const GAMES: &str = "20001";

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().expect("UTF-8 path").to_string()
}

/// Runs `args` whole (`--out whole.csv`) and as `n` shards (`--shard k/n --out shard-k.csv`),
/// merges the shards given in reverse order, and returns (whole, merged, shard paths).
fn whole_and_merged(dir: &Path, args: &[&str], n: u64) -> (Vec<u8>, Vec<u8>, Vec<String>) {
    let whole = path(dir, "whole.csv");
    stdout(&[args, &["--quiet", "--out", &whole]].concat());
    let shards: Vec<String> = (1..=n)
        .map(|k| {
            let shard = path(dir, &format!("shard-{k}.csv"));
            let spec = format!("{k}/{n}");
            let note = stdout(&[args, &["--quiet", "--shard", &spec, "--out", &shard]].concat());
            assert!(note.contains(&format!("shard {spec}")), "{note}");
            shard
        })
        .collect();
    let merged = path(dir, "merged.csv");
    let mut merge = vec!["merge", "--out", &merged];
    merge.extend(shards.iter().rev().map(String::as_str));
    stdout(&merge);
    // To standard output as well, the same bytes.
    let mut to_stdout = vec!["merge"];
    to_stdout.extend(shards.iter().map(String::as_str));
    let piped = stdout(&to_stdout);
    let merged = std::fs::read(&merged).unwrap();
    assert_eq!(piped.as_bytes(), merged.as_slice());
    (std::fs::read(&whole).unwrap(), merged, shards)
}

#[test]
fn simulate_shards_merge_to_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "simulate",
        "--stealth",
        "8,10,3",
        "--games",
        GAMES,
        "--rules",
        "clarified",
        "--rule",
        "run-challenges=5",
        "--seed",
        "7",
        "--confidence",
        "0.9",
    ];
    let (whole, merged, shards) = whole_and_merged(dir.path(), &args, 3);
    assert!(!whole.is_empty());
    assert_eq!(
        String::from_utf8(merged).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    // A shard holds raw counts of its block of games, under the lines naming its run.
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    assert!(
        text.starts_with("# raven shard 2/3 of simulate, 3 rows\n"),
        "{text}"
    );
    assert!(text.contains("\n# seed: 7\n"), "{text}");
    assert!(text.contains(",6667,13334,6667,"), "{text}");
}

/// Annulus's `simulate` shards merge the same way (`raven merge` and `raven --game annulus
/// merge` alike), and a shard of one game is never merged with the other's.
#[test]
fn annulus_simulate_shards_merge_to_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--game",
        "annulus",
        "simulate",
        "--players",
        "1,2",
        "--strategy",
        "naive,planner",
        "--rules",
        "advanced",
        "--games",
        GAMES,
        "--seed",
        "7",
    ];
    let (whole, merged, shards) = whole_and_merged(dir.path(), &args, 3);
    assert!(!whole.is_empty());
    assert_eq!(
        String::from_utf8(merged).unwrap(),
        String::from_utf8(whole.clone()).unwrap()
    );
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    assert!(
        text.starts_with("# raven shard 2/3 of simulate, 4 rows\n# raven_version: ")
            && text.contains("\n# game: annulus\n"),
        "{text}"
    );
    let mut merge = vec!["--game", "annulus", "merge"];
    merge.extend(shards.iter().map(String::as_str));
    assert_eq!(stdout(&merge).as_bytes(), whole.as_slice());
    // A missing shard, and a Purple Raven shard among Annulus ones.
    let d = dir.path();
    let message = merge_refused(d, &[Path::new(&shards[0]), Path::new(&shards[2])]);
    assert!(
        message.contains("shard 2/3 of the run is missing"),
        "{message}"
    );
    let raven_shard = shard(d, 2, 3, &[]);
    let message = merge_refused(
        d,
        &[Path::new(&shards[0]), &raven_shard, Path::new(&shards[2])],
    );
    assert!(
        message.contains("not shards of one run") && message.contains("game is"),
        "{message}"
    );
}

#[test]
fn more_shards_than_games_still_merge() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["simulate", "--stealth", "10", "--games", "2"];
    let (whole, merged, _) = whole_and_merged(dir.path(), &args, 3);
    assert_eq!(merged, whole);
}

#[test]
fn sweep_shards_merge_to_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "sweep",
        "--strategy",
        "cautious",
        "--param",
        "recruit.count=0..2",
        "--param",
        "side.max_attempts=1..2",
        "--stealth",
        "8,10",
        "--games",
        "3000",
    ];
    let (whole, merged, _) = whole_and_merged(dir.path(), &args, 5);
    assert_eq!(whole.iter().filter(|&&b| b == b'\n').count(), 13);
    assert_eq!(
        String::from_utf8(merged).unwrap(),
        String::from_utf8(whole).unwrap()
    );
}

#[test]
fn explore_shards_merge_to_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "explore",
        "--param",
        "threshold=3..5",
        "--param",
        "eased-threshold=4",
        "--stealth",
        "4,6",
        "--target",
        "10..60",
    ];
    // threshold=3 with eased threshold 4 is skipped: 2 points, dealt to 3 shards (one empty).
    let (whole, merged, shards) = whole_and_merged(dir.path(), &args, 3);
    assert_eq!(whole.iter().filter(|&&b| b == b'\n').count(), 9);
    assert_eq!(
        String::from_utf8(merged).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    let empty = std::fs::read_to_string(&shards[2]).unwrap();
    assert!(
        empty.starts_with("# raven shard 3/3 of explore, 0 rows\n"),
        "{empty}"
    );
    assert!(empty.lines().all(|l| l.starts_with("# ")), "{empty}");
}

/// Shards of a small simulate run with `extra` arguments, `--shard k/n`, in `dir`.
fn shard(dir: &Path, k: u64, n: u64, extra: &[&str]) -> PathBuf {
    let tag: String = extra.concat().replace(['-', '/', '.'], "");
    let out = dir.join(format!("s{k}of{n}{tag}.csv"));
    let spec = format!("{k}/{n}");
    let args = [
        &["simulate", "--stealth", "10", "--games", "900", "--quiet"][..],
        extra,
        &["--shard", &spec, "--out", out.to_str().unwrap()],
    ]
    .concat();
    stdout(&args);
    out
}

/// `raven merge SHARDS --out DIR/merged.csv` is refused, and leaves an existing file alone;
/// returns the message.
fn merge_refused(dir: &Path, shards: &[&Path]) -> String {
    let out = dir.join("merged.csv");
    std::fs::write(&out, "old\n").unwrap();
    let before = entries(dir).len();
    let mut args = vec!["merge", "--out", out.to_str().unwrap()];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    let message = refused(&args);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(entries(dir).len(), before, "{:?}", entries(dir));
    message
}

#[test]
fn merging_shards_that_are_not_one_whole_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a1, a2, a3) = (
        shard(d, 1, 3, &[]),
        shard(d, 2, 3, &[]),
        shard(d, 3, 3, &[]),
    );
    let seeded = shard(d, 2, 3, &["--seed", "5"]);
    let message = merge_refused(d, &[&a1, &seeded, &a3]);
    assert!(
        message.contains("not shards of one run") && message.contains("seed is '20261122'"),
        "{message}"
    );
    let rules = shard(d, 3, 3, &["--rules", "clarified"]);
    let message = merge_refused(d, &[&a1, &a2, &rules]);
    assert!(message.contains("rules is 'main-text'"), "{message}");
    let message = merge_refused(d, &[&a1, &a2, &a2, &a3]);
    assert!(message.contains("both shard 2/3"), "{message}");
    let message = merge_refused(d, &[&a3, &a1]);
    assert!(
        message.contains("shard 2/3 of the run is missing"),
        "{message}"
    );
    let halves = shard(d, 2, 2, &[]);
    let message = merge_refused(d, &[&a1, &halves]);
    assert!(
        message.contains("3 shards for one, 2 for the other"),
        "{message}"
    );

    // Another command's shard, a whole run's CSV, a cut-off shard.
    let swept = d.join("sweep.csv");
    stdout(&[
        "sweep",
        "--strategy",
        "duo",
        "--param",
        "recruit.count=1",
        "--games",
        "10",
        "--quiet",
        "--shard",
        "1/3",
        "--out",
        swept.to_str().unwrap(),
    ]);
    let message = merge_refused(d, &[&a1, &a2, &swept]);
    assert!(message.contains("`raven simulate`") && message.contains("`raven sweep`"));
    let whole = d.join("whole.csv");
    stdout(&[
        "simulate",
        "--games",
        "10",
        "--quiet",
        "--out",
        whole.to_str().unwrap(),
    ]);
    let message = merge_refused(d, &[&whole]);
    assert!(message.contains("is not a raven shard file"), "{message}");
    let cut = d.join("cut.csv");
    let text = std::fs::read_to_string(&a2).unwrap();
    std::fs::write(&cut, &text[..text.trim_end().rfind('\n').unwrap() + 1]).unwrap();
    let message = merge_refused(d, &[&a1, &cut, &a3]);
    assert!(
        message.contains("has 0 rows where its first line announces 1"),
        "{message}"
    );
    // A strategy file changed between two shards.
    let file = d.join("mine.toml");
    let sweep = |k: &str, count: &str| {
        std::fs::write(
            &file,
            format!("description = \"x\"\n[recruit]\ncount = {count}\n"),
        )
        .unwrap();
        let out = d.join(format!("mine-{k}.csv"));
        stdout(&[
            "sweep",
            "--strategy",
            file.to_str().unwrap(),
            "--param",
            "side.max_attempts=1",
            "--games",
            "10",
            "--quiet",
            "--shard",
            &format!("{k}/2"),
            "--out",
            out.to_str().unwrap(),
        ]);
        out
    };
    let (m1, m2) = (sweep("1", "1"), sweep("2", "2"));
    let message = merge_refused(d, &[&m1, &m2]);
    assert!(message.contains("strategy is 'mine (text "), "{message}");
    let message = merge_refused(d, &[&d.join("absent.csv")]);
    assert!(message.contains("cannot read shard file"), "{message}");
}

#[test]
fn bad_shard_arguments_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = path(dir.path(), "x.csv");
    for spec in ["0/3", "4/3", "3", "1/0", "a/b"] {
        let message = refused(&["simulate", "--shard", spec, "--out", &out]);
        assert!(message.contains("--shard"), "{message}");
    }
    // A shard file goes to --out: a shard without it would be lost.
    let message = refused(&["simulate", "--shard", "1/2"]);
    assert!(message.contains("required arguments"), "{message}");
    let output = raven()
        .args(["simulate", "--shard", "1/2"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&output.stderr).contains("--out <FILE|->"));
    let svg = path(dir.path(), "x.svg");
    let message = refused(&[
        "explore",
        "--param",
        "threshold=4,5",
        "--shard",
        "1/2",
        "--out",
        &out,
        "--chart",
        &svg,
    ]);
    assert!(message.contains("--chart"), "{message}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

/// The three shards of the small report, each made in a process of its own on one thread,
/// merge (on one thread too: the quality assessment is worked out there) to the whole run's
/// files byte for byte (made on every core): a report is the same for the same seed, whatever
/// the process and the thread count.
#[test]
fn report_shards_merge_to_the_whole_report_byte_for_byte() {
    let report = small_report();
    let sharded = tempfile::tempdir().unwrap();
    let mut merge: Vec<String> = vec!["merge".into(), "--out".into(), "rep".into()];
    merge.extend(report.shards.iter().rev().map(|p| p.display().to_string()));
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    let output = raven()
        .current_dir(sharded.path())
        .env("RAYON_NUM_THREADS", "1")
        .args(&merge)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let note = String::from_utf8(output.stdout).unwrap();
    assert!(
        note.contains("3 shards of one `raven report` run"),
        "{note}"
    );
    let mut files = entries(&report.dir.join("rep"));
    files.sort();
    // The report's files and the marker that says raven wrote them.
    assert_eq!(files.len(), 29, "{files:?}");
    let mut merged = entries(&sharded.path().join("rep"));
    merged.sort();
    assert_eq!(merged, files);
    for name in &files {
        let a = std::fs::read(report.dir.join("rep").join(name)).unwrap();
        let b = std::fs::read(sharded.path().join("rep").join(name)).unwrap();
        assert!(a == b, "{name} differs");
    }
    // Each unit of work is in one shard, its result as JSON under the run's inputs.
    let text = std::fs::read_to_string(&report.shards[0]).unwrap();
    assert!(text.starts_with("# raven shard 1/3 of report, "), "{text}");
    assert!(text.contains("\n# stealth: 0,1\n"), "{text}");
    assert!(text.contains("\nunit,result\n0,\"{"), "{text}");
}

#[test]
fn report_shards_that_do_not_make_one_report_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let shards: Vec<PathBuf> = small_report()
        .shards
        .iter()
        .map(|shard| {
            let copy = d.join(shard.file_name().unwrap());
            std::fs::copy(shard, &copy).unwrap();
            copy
        })
        .collect();
    let refused_in = |args: &[&str]| {
        let output = raven().current_dir(d).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(!d.join("rep").exists(), "{args:?} wrote the report");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
        stderr
    };
    let [s1, s2, s3] = ["report-1.csv", "report-2.csv", "report-3.csv"];
    let message = refused_in(&["merge", "--out", "rep", s1, s3]);
    assert!(
        message.contains("shard 2/3 of the run is missing"),
        "{message}"
    );
    let message = refused_in(&["merge", s1, s2, s3]);
    assert!(
        message.contains("give `raven merge --out DIR`"),
        "{message}"
    );
    // A result edited into another kind of work, a unit moved to another shard.
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    let first = text.lines().position(|l| l.starts_with("unit,")).unwrap() + 1;
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let (unit, _) = lines[first].split_once(',').unwrap();
    let unit = unit.to_string();
    let edited = |line: String| {
        let mut lines = lines.clone();
        lines[first] = line;
        std::fs::write(d.join("edited.csv"), lines.join("\n") + "\n").unwrap();
    };
    edited(format!("{unit},\"{{\"\"values\"\":[0.5]}}\""));
    let message = refused_in(&["merge", "--out", "rep", s1, "edited.csv", s3]);
    assert!(
        message.contains("edited.csv:") && message.contains(&format!("unit {unit} ")),
        "{message}"
    );
    edited(format!("0,{}", lines[first].split_once(',').unwrap().1));
    let message = refused_in(&["merge", "--out", "rep", s1, "edited.csv", s3]);
    assert!(message.contains("not shard 2/3's work"), "{message}");
    edited(format!("{unit},not json"));
    let message = refused_in(&["merge", "--out", "rep", s1, "edited.csv", s3]);
    assert!(message.contains("not a report unit's result"), "{message}");
    // Another run's shard: other games (its inputs, as its header names them).
    let other = "other.csv";
    assert!(text.contains("\n# games: 700\n"), "{text}");
    std::fs::write(
        d.join(other),
        text.replace("\n# games: 700\n", "\n# games: 701\n"),
    )
    .unwrap();
    let message = refused_in(&["merge", "--out", "rep", s1, other, s3]);
    assert!(message.contains("games is '700'"), "{message}");
}
