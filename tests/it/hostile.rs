//! raven driven as a hostile tester would: special files as output targets,
//! output paths that cannot be written, signals, numbers at their extremes, inputs that never
//! end, closed pipes and ambiguous arguments. Every bad input must give one clear message,
//! exit code 2, no panic, and leave the directory exactly as it was.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Commands that write CSV with `--out` and finish in well under a second (release build).
const WRITERS: [&[&str]; 4] = [
    &["simulate", "--games", "300", "--stealth", "10", "--quiet"],
    &[
        "compare",
        "--strategy",
        "reference",
        "--strategy",
        "duo",
        "--games",
        "300",
        "--stealth",
        "10",
        "--quiet",
    ],
    &[
        "sweep",
        "--strategy",
        "duo",
        "--param",
        "recruit.count=0..1",
        "--games",
        "100",
        "--stealth",
        "10",
        "--quiet",
    ],
    &["exact", "--stealth", "0"],
];

/// How a run of raven ended.
#[derive(Debug)]
struct Ended {
    /// `None`: ended by a signal.
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident memory (`ru_maxrss` of this child alone), KiB.
    max_rss_kib: i64,
}

fn raven(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin!("raven"));
    command
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null());
    command
}

/// Waits for `child` with `wait4`, which reports this child's own peak memory; kills it
/// if it runs past two minutes (a hang is a failure, not a stuck suite).
fn finish(mut child: std::process::Child) -> Ended {
    let pid = child.id() as libc::pid_t;
    let read = |stream: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut s) = stream {
                let _ = s.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = read(child.stdout.take().map(|s| Box::new(s) as _));
    let stderr = read(child.stderr.take().map(|s| Box::new(s) as _));
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let done = done.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            while !done.load(Ordering::SeqCst) {
                if start.elapsed() > Duration::from_secs(120) {
                    // SAFETY: kill(2) on our own, not yet reaped, child.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid value; wait4 fills it for our child `pid`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    done.store(true, Ordering::SeqCst);
    watchdog.join().unwrap();
    assert_eq!(waited, pid, "wait4 failed");
    Ended {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        max_rss_kib: usage.ru_maxrss,
    }
}

fn run(dir: &Path, args: &[&str]) -> Ended {
    let child = raven(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("raven starts");
    finish(child)
}

/// Everything in `dir`: name → file type and content (links: their target); nothing if
/// `dir` does not exist.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    let mut all = BTreeMap::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return all;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let what = if kind.is_symlink() {
            format!("link to {}", fs::read_link(entry.path()).unwrap().display())
        } else if kind.is_file() {
            // The first bytes and the length: enough to see a change, even of a huge file.
            let meta = entry.metadata().unwrap();
            let mut head = Vec::new();
            let file = fs::File::open(entry.path()).unwrap();
            std::io::Read::read_to_end(&mut std::io::Read::take(file, 4096), &mut head).unwrap();
            format!(
                "file {:o}, {} bytes: {}",
                meta.permissions().mode(),
                meta.len(),
                String::from_utf8_lossy(&head)
            )
        } else {
            format!("{kind:?}")
        };
        all.insert(entry.file_name().to_string_lossy().into_owned(), what);
    }
    all
}

/// Runs raven in `dir` and expects a refusal: exit 2, one message, no panic, nothing on
/// standard output, the directory unchanged. Returns the message.
fn refused(dir: &Path, args: &[&str]) -> String {
    let before = snapshot(dir);
    let outcome = run(dir, args);
    assert_eq!(outcome.code, Some(2), "{args:?}: {outcome:?}");
    assert!(outcome.stdout.is_empty(), "{args:?}: {outcome:?}");
    assert!(
        !outcome.stderr.contains("panicked") && !outcome.stderr.contains("backtrace"),
        "{args:?}: {}",
        outcome.stderr
    );
    assert_eq!(
        outcome
            .stderr
            .lines()
            .filter(|l| l.contains("error"))
            .count(),
        1,
        "{args:?}: {}",
        outcome.stderr
    );
    assert_eq!(snapshot(dir), before, "{args:?} changed the directory");
    outcome.stderr
}

fn with_out<'a>(args: &[&'a str], out: &'a str) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(["--out", out]);
    all
}

fn temp_files(dir: &Path) -> Vec<String> {
    snapshot(dir)
        .into_keys()
        .filter(|n| n.starts_with(".raven-") && n.ends_with(".tmp"))
        .collect()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

// 1. What is at the output path.

#[test]
fn a_symlinked_output_is_written_through_the_link_which_stays() {
    for args in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("real.csv"), "old").unwrap();
        std::os::unix::fs::symlink("real.csv", dir.path().join("link.csv")).unwrap();
        let outcome = run(dir.path(), &with_out(args, "link.csv"));
        assert_eq!(outcome.code, Some(0), "{args:?}: {outcome:?}");
        let link = fs::symlink_metadata(dir.path().join("link.csv")).unwrap();
        assert!(link.file_type().is_symlink(), "{args:?} replaced the link");
        let written = fs::read_to_string(dir.path().join("real.csv")).unwrap();
        assert!(written.contains("raven_version"), "{args:?}: {written}");
        assert_eq!(
            snapshot(dir.path()).len(),
            2,
            "{args:?}: {:?}",
            snapshot(dir.path())
        );
    }
}

#[test]
fn read_only_files_dangling_links_directories_and_readerless_fifos_are_refused() {
    for args in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let read_only = dir.path().join("precious.csv");
        fs::write(&read_only, "precious").unwrap();
        fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
        std::os::unix::fs::symlink("nowhere.csv", dir.path().join("dangling.csv")).unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        mkfifo(&dir.path().join("fifo"));
        for (target, why) in [
            ("precious.csv", "read-only"),
            ("dangling.csv", "does not exist"),
            ("sub", "is a directory"),
            ("fifo", "no process is reading"),
            ("missing/x.csv", "does not exist"),
        ] {
            let message = refused(dir.path(), &with_out(args, target));
            assert!(
                message.contains(why) && message.contains(target),
                "{args:?} {target}: {message}"
            );
        }
    }
}

#[test]
fn fifos_and_character_devices_are_written_through() {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;

    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    // A reader that is already there (non-blocking, so opening does not wait for raven).
    let mut reader = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let outcome = run(dir.path(), &with_out(WRITERS[0], "fifo"));
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    let mut csv = String::new();
    reader.read_to_string(&mut csv).unwrap();
    assert!(csv.starts_with("strategy,rules,stealth"), "{csv}");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());

    // The real /dev/null only where the test cannot replace it whatever the binary does: a
    // raven without this policy, run as root, leaves a regular file there. As root,
    // `device_nodes_made_here_stay_devices` tests a node of its own.
    let null = || {
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    };
    if !is_root() && null() {
        let outcome = run(dir.path(), &with_out(WRITERS[3], "/dev/null"));
        assert_eq!(outcome.code, Some(0), "{outcome:?}");
        assert!(null(), "raven replaced /dev/null");
    } else {
        eprintln!("skipped /dev/null: running as root (or it is no device here)");
    }
    assert_eq!(snapshot(dir.path()).len(), 1, "{:?}", snapshot(dir.path()));
}

#[test]
fn device_nodes_made_here_stay_devices() {
    if !is_root() {
        eprintln!("skipped: mknod needs root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The same device as /dev/null, and a loop device (never opened: it is refused).
    let made = Command::new("mknod")
        .current_dir(dir.path())
        .args(["null", "c", "1", "3"])
        .status()
        .unwrap();
    assert!(made.success());
    let made = Command::new("mknod")
        .current_dir(dir.path())
        .args(["block", "b", "7", "250"])
        .status()
        .unwrap();
    assert!(made.success());
    let outcome = run(dir.path(), &with_out(WRITERS[0], "null"));
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    let message = refused(dir.path(), &with_out(WRITERS[0], "block"));
    assert!(message.contains("block device"), "{message}");
    let null = fs::symlink_metadata(dir.path().join("null")).unwrap();
    assert!(null.file_type().is_char_device());
    let block = fs::symlink_metadata(dir.path().join("block")).unwrap();
    assert!(block.file_type().is_block_device());
}

#[test]
fn a_replaced_file_keeps_its_permissions() {
    // Group-writable survives a umask of 022, owner-only stays owner-only.
    for mode in [0o600, 0o664] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.csv");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let outcome = run(dir.path(), &with_out(WRITERS[0], "mine.csv"));
        assert_eq!(outcome.code, Some(0), "{outcome:?}");
        let meta = fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, mode);
        assert!(fs::read_to_string(&path).unwrap().contains("raven_version"));
    }
}

// 2. The output is checked before the work.

#[test]
fn long_commands_refuse_their_output_before_computing() {
    let dir = tempfile::tempdir().unwrap();
    let read_only = dir.path().join("precious.csv");
    fs::write(&read_only, "precious").unwrap();
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
    // Each would compute for minutes (or hours) before writing.
    for args in [
        &["exact", "--strategy", "random", "--stealth", "40"][..],
        &["solve", "--stealth", "40"],
        &["simulate", "--games", "1000000000000"],
        &[
            "compare",
            "--strategy",
            "reference",
            "--strategy",
            "duo",
            "--games",
            "1000000000000",
        ],
    ] {
        for target in ["precious.csv", "missing/x.csv"] {
            refused(dir.path(), &with_out(args, target));
        }
    }
    // A report reserves every one of its files first.
    let report = dir.path().join("report");
    fs::create_dir(&report).unwrap();
    let readme = report.join("README.md");
    fs::write(&readme, "keep").unwrap();
    fs::set_permissions(&readme, fs::Permissions::from_mode(0o444)).unwrap();
    let message = refused(dir.path(), &["report", "--quiet", "--out", "report"]);
    assert!(message.contains("README.md"), "{message}");
    assert_eq!(snapshot(&report).len(), 1, "{:?}", snapshot(&report));
}

// 4. Signals.

/// Starts raven in `dir`, waits until a temporary output of its appears in `watch` (so its
/// handler is in place), sends `signal`, and expects exit 130 saying it was interrupted.
fn signalled(dir: &Path, watch: &Path, args: &[&str], signal: &str) -> Ended {
    let child = raven(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while temp_files(watch).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{args:?} never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let outcome = finish(child);
    assert_eq!(outcome.code, Some(130), "{signal} {args:?}: {outcome:?}");
    assert!(
        outcome.stderr.contains("interrupted"),
        "{signal} {args:?}: {}",
        outcome.stderr
    );
    outcome
}

/// [`signalled`], with nothing on standard output and no file left in `watch`.
fn interrupted(dir: &Path, watch: &Path, args: &[&str], signal: &str) {
    let outcome = signalled(dir, watch, args, signal);
    assert!(outcome.stdout.is_empty(), "{signal} {args:?}");
    assert!(
        snapshot(watch).is_empty(),
        "{signal} {args:?} left {:?}",
        snapshot(watch)
    );
}

#[test]
fn int_term_and_hup_stop_monte_carlo_runs_and_leave_nothing() {
    for signal in ["INT", "TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            "simulate",
            "--games",
            "1000000000000",
            "--threads",
            "1",
            "--quiet",
            "--out",
            "x.csv",
        ];
        interrupted(dir.path(), dir.path(), &args, signal);
        let args = [
            "compare",
            "--strategy",
            "reference",
            "--strategy",
            "duo",
            "--games",
            "1000000000000",
            "--quiet",
            "--out",
            "x.csv",
        ];
        interrupted(dir.path(), dir.path(), &args, signal);
    }
}

#[test]
fn signals_stop_exact_solve_and_report_and_leave_nothing() {
    // exact and solve poll the flag and unwind; the report's first stage does not, so there
    // the handler itself removes the reserved files and exits. Both must look the same.
    for (signal, args) in [
        (
            "TERM",
            &[
                "exact",
                "--strategy",
                "random",
                "--stealth",
                "16",
                "--out",
                "x.csv",
            ][..],
        ),
        ("HUP", &["solve", "--stealth", "16", "--out", "x.csv"]),
        (
            "INT",
            &[
                "exact",
                "--strategy",
                "reckless",
                "--stealth",
                "16",
                "--out",
                "x.csv",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        interrupted(dir.path(), dir.path(), args, signal);
    }
    for (signal, existing) in [("INT", true), ("TERM", false)] {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("report");
        if existing {
            fs::create_dir(&report).unwrap();
        }
        let args = ["report", "--quiet", "--out", "report"];
        // The report is built in a staging directory beside `report`.
        interrupted_leaving(dir.path(), &args, signal);
        // Nothing new is made; a directory that was there stays, untouched.
        assert_eq!(report.exists(), existing);
        assert!(snapshot(&report).is_empty());
    }
}

/// [`signalled`] for a command whose temporary output is in `dir` beside what was there:
/// `dir` as it was before.
fn interrupted_leaving(dir: &Path, args: &[&str], signal: &str) {
    let before = snapshot(dir);
    signalled(dir, dir, args, signal);
    assert_eq!(
        snapshot(dir),
        before,
        "{signal} {args:?} changed the directory"
    );
}

// 4b. Directory outputs (`report --out DIR`, `merge --out DIR`, `man --dir DIR`).

/// Every snapshot of the files under `dir` (one level of subdirectories), for comparing a
/// whole report before and after.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    let mut all = snapshot(dir);
    for (name, what) in all.clone() {
        if what.starts_with("FileType") && dir.join(&name).is_dir() {
            for (inner, content) in snapshot(&dir.join(&name)) {
                all.insert(format!("{name}/{inner}"), content);
            }
        }
    }
    all
}

#[test]
fn directory_outputs_never_replace_files_raven_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    fs::create_dir(&game).unwrap();
    fs::write(game.join("README.md"), "my game's own README").unwrap();
    fs::write(game.join("raven.1"), "my own page").unwrap();
    // A report into a folder with the user's README: refused before any work, naming it.
    for args in [
        &["report", "--quiet", "--out", "game"][..],
        &["report", "--quiet", "--out", "game/"],
        &["man", "--dir", "game"],
    ] {
        let before = tree(dir.path());
        let message = refused(dir.path(), args);
        assert!(
            message.contains("raven did not write it") && message.contains("--force"),
            "{args:?}: {message}"
        );
        let named = if args[0] == "man" {
            "raven.1"
        } else {
            "README.md"
        };
        assert!(message.contains(named), "{args:?}: {message}");
        assert_eq!(tree(dir.path()), before, "{args:?}");
    }
    // Only the colliding file matters: other files stay, untouched.
    fs::remove_file(game.join("raven.1")).unwrap();
    let man = run(dir.path(), &["man", "--dir", "game"]);
    assert_eq!(man.code, Some(0), "{man:?}");
    assert_eq!(
        fs::read_to_string(game.join("README.md")).unwrap(),
        "my game's own README"
    );
    let marker = fs::read_to_string(game.join(".raven-output")).unwrap();
    assert!(marker.lines().any(|l| l == "raven.1"), "{marker}");
    assert!(!marker.lines().any(|l| l == "README.md"), "{marker}");
    // What raven wrote it may write again.
    fs::write(game.join("raven.1"), "stale").unwrap();
    let again = run(dir.path(), &["man", "--dir", "game"]);
    assert_eq!(again.code, Some(0), "{again:?}");
    assert!(
        fs::read_to_string(game.join("raven.1"))
            .unwrap()
            .contains(".TH")
    );
    assert!(temp_files(dir.path()).is_empty() && temp_files(&game).is_empty());
    // `--force` replaces a file raven did not write; a read-only file or a directory in the
    // way is refused even so.
    let pages = dir.path().join("pages");
    fs::create_dir(&pages).unwrap();
    fs::write(pages.join("raven-simulate.1"), "mine").unwrap();
    refused(dir.path(), &["man", "--dir", "pages"]);
    let forced = run(dir.path(), &["man", "--dir", "pages", "--force"]);
    assert_eq!(forced.code, Some(0), "{forced:?}");
    assert!(
        fs::read_to_string(pages.join("raven-simulate.1"))
            .unwrap()
            .contains(".TH")
    );
    let locked = dir.path().join("locked");
    fs::create_dir_all(locked.join("raven.1")).unwrap();
    let message = refused(dir.path(), &["man", "--dir", "locked", "--force"]);
    assert!(message.contains("not a regular file"), "{message}");
    if !is_root() {
        fs::remove_dir(locked.join("raven.1")).unwrap();
        fs::write(locked.join("raven.1"), "read-only").unwrap();
        fs::set_permissions(locked.join("raven.1"), fs::Permissions::from_mode(0o444)).unwrap();
        let message = refused(dir.path(), &["man", "--dir", "locked", "--force"]);
        assert!(message.contains("read-only"), "{message}");
    }
    // A file where the directory should be, and a directory in a missing one.
    fs::write(dir.path().join("plain"), "x").unwrap();
    refused(dir.path(), &["report", "--quiet", "--out", "plain"]);
    refused(dir.path(), &["man", "--dir", "missing/pages"]);
    // A new directory is made whole, marker included.
    let made = run(dir.path(), &["man", "--dir", "new"]);
    assert_eq!(made.code, Some(0), "{made:?}");
    assert!(dir.path().join("new/raven.1").is_file());
    assert!(dir.path().join("new/.raven-output").is_file());
    assert!(temp_files(dir.path()).is_empty());
}

/// A report raven wrote before (its files listed in the marker) is left whole by a run that
/// is interrupted while it works, whatever the signal: the new report is built beside it
/// and never swapped in.
#[test]
fn an_interrupted_report_leaves_the_previous_report_whole() {
    let names = [
        "README.md",
        "decisions-top.csv",
        "decisions.csv",
        "levers.csv",
        "loss-causes.csv",
        "rule-variants.csv",
        "rule-variants.svg",
        "strategy-comparison.csv",
        "win-probability-clarified.svg",
        "win-probability-main-text.svg",
        "win-rates.csv",
    ];
    for signal in ["INT", "TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("report");
        fs::create_dir(&report).unwrap();
        let mut marker = String::from("# written by raven\n");
        for name in names {
            fs::write(report.join(name), format!("the previous {name}")).unwrap();
            marker.push_str(name);
            marker.push('\n');
        }
        fs::write(report.join(".raven-output"), marker).unwrap();
        fs::write(report.join("notes.txt"), "the user's notes").unwrap();
        let before = tree(dir.path());
        interrupted_leaving(
            dir.path(),
            &["report", "--quiet", "--out", "report"],
            signal,
        );
        assert_eq!(tree(dir.path()), before, "{signal}");
    }
}

// 5 and 6. Numbers and inputs without bounds; memory measured.

/// Peak memory a refusal may take: a bounded read of 1 MiB plus the binary itself.
const SMALL_KIB: i64 = 64 * 1024;

/// The bound on a child's `ru_maxrss`. Linux carries the high-water mark of the memory a
/// process leaves at `execve` into its own, so a child spawned by this (multi-threaded)
/// test process reports at least this process's peak: that is added.
fn small_kib() -> i64 {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let own = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        .unwrap_or(0);
    SMALL_KIB + own
}

fn refused_small(dir: &Path, args: &[&str], why: &str) {
    let before = snapshot(dir);
    let outcome = run(dir, args);
    assert_eq!(outcome.code, Some(2), "{args:?}: {outcome:?}");
    assert!(
        outcome.stderr.contains(why) && !outcome.stderr.contains("panicked"),
        "{args:?}: {}",
        outcome.stderr
    );
    assert!(
        outcome.max_rss_kib < small_kib(),
        "{args:?} peaked at {} KiB",
        outcome.max_rss_kib
    );
    assert_eq!(snapshot(dir), before);
}

#[test]
fn numbers_past_their_bounds_are_refused_without_work_or_memory() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = |params: &[&str]| {
        let mut args = vec!["sweep", "--strategy", "duo", "--out", "x.csv"];
        for p in params {
            args.extend(["--param", p]);
        }
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            sweep(&["recruit.count=0..9223372036854775807"]),
            "limit of 1000",
        ),
        (
            sweep(&["recruit.count=-9223372036854775808..9223372036854775807:1"]),
            "limit of 1000",
        ),
        (
            sweep(&[
                "recruit.stealth_floor=0..999",
                "side.stealth_floor=0..999",
                "first_aid.stealth_floor=0..999",
            ]),
            "limit of 10000 points",
        ),
        (sweep(&["side.max_attempts=1..9:0"]), "at least 1"),
    ];
    for (args, why) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_small(dir.path(), &args, why);
    }
    for (args, why) in [
        (&["simulate", "--threads", "10000"][..], "limit of 256"),
        (&["simulate", "--threads", "0"], "at least 1 thread"),
        (
            &["simulate", "--games", "18446744073709551615"],
            "limit of 1000000000000",
        ),
        (
            &["compare", "--strategy", "duo", "--games", "1000000000001"],
            "limit",
        ),
        (&["report", "--games", "99999999999999"], "limit"),
        (
            &["simulate", "--confidence", "0.99999999999"],
            "too close to 1",
        ),
        (
            &["simulate", "--confidence", "1"],
            "strictly between 0 and 1",
        ),
        (&["simulate", "--confidence", "NaN"], "strictly between"),
        (&["play", "--stealth", "300"], "300 is not in 0..=99"),
        (&["exact", "--stealth", "8,256"], "256 is not in 0..=99"),
    ] {
        refused_small(dir.path(), args, why);
    }
}

#[test]
fn inputs_that_never_end_are_read_with_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    // A sparse file of 4 GiB: nothing on disk, everything for a reader without a limit.
    let huge = fs::File::create(dir.path().join("huge.toml")).unwrap();
    huge.set_len(4 << 30).unwrap();
    drop(huge);
    // Endless short lines: only the size bound stops them.
    fs::write(dir.path().join("lines.toml"), "\n".repeat(2 << 20)).unwrap();
    for (file, why) in [
        ("/dev/zero", "line 1 is longer than 16 KiB"),
        ("huge.toml", "line 1 is longer than 16 KiB"),
        ("lines.toml", "larger than 1024 KiB"),
    ] {
        for args in [
            &["play", "--strategy", file][..],
            &["simulate", "--rules", file],
            &["strategies", "check", file],
            &["sweep", "--strategy", file, "--param", "recruit.count=1"],
        ] {
            refused_small(dir.path(), args, why);
        }
    }
}

/// A shard file's reader refuses what is not a shard at its first line, and any line of one
/// as soon as it passes the longest a shard's line can be: `raven merge` of `/dev/zero`, of a
/// 4 GiB file of one line after a valid start, of an unclosed quoted field, of rows past
/// the announced count.
#[test]
fn shard_files_that_never_end_are_refused_at_their_first_long_line() {
    let dir = tempfile::tempdir().unwrap();
    let start = "# raven shard 1/1 of sweep, 1 row\n# raven_version: 0.1.0\nunit,x\n";
    let endless_row = dir.path().join("row.csv");
    fs::write(&endless_row, format!("{start}0,")).unwrap();
    let file = fs::OpenOptions::new()
        .write(true)
        .open(&endless_row)
        .unwrap();
    file.set_len(4 << 30).unwrap();
    drop(file);
    let endless_first = dir.path().join("first.csv");
    fs::File::create(&endless_first)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let open_quote = dir.path().join("quote.csv");
    let mut text = format!("{start}0,\"");
    text.push_str(&"still inside the quotes\n".repeat(60_000));
    fs::write(&open_quote, text).unwrap();
    let extra = dir.path().join("extra.csv");
    fs::write(&extra, format!("{start}0,1\n0,2\n")).unwrap();
    for (file, why) in [
        ("/dev/zero", "is not a raven shard file"),
        ("first.csv", "is not a raven shard file"),
        ("row.csv", "line 4 is longer than 1 MiB"),
        ("quote.csv", "line 4 is longer than 1 MiB"),
        (
            "extra.csv",
            "extra.csv:5: a row past the 1 its first line announces",
        ),
    ] {
        refused_small(dir.path(), &["merge", file], why);
    }
}

/// Standard input at the table (`play --interactive`, `--dice manual`): an endless line, or an
/// endless stream of refused answers, ends the reading with exit 2 in bounded memory.
#[test]
fn endless_answers_at_the_table_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.txt");
    fs::write(&wrong, "x\n".repeat(100_000)).unwrap();
    for args in [
        &["play", "--interactive", "--stealth", "3"][..],
        &["play", "--dice", "manual", "--stealth", "3"],
    ] {
        for (input, why) in [
            (Path::new("/dev/zero"), "runs past 1 MiB"),
            (&wrong, "100 answers in a row were refused"),
        ] {
            let child = raven(dir.path(), args)
                .stdin(fs::File::open(input).unwrap())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let outcome = finish(child);
            assert_eq!(outcome.code, Some(2), "{args:?} < {input:?}: {outcome:?}");
            assert!(
                outcome.stderr.contains(why) && !outcome.stderr.contains("panicked"),
                "{args:?} < {input:?}: {}",
                &outcome.stderr[outcome.stderr.len().saturating_sub(500)..]
            );
            assert!(
                outcome.max_rss_kib < small_kib(),
                "{args:?} < {input:?} peaked at {} KiB",
                outcome.max_rss_kib
            );
        }
    }
}

/// Ctrl-C at a prompt of a game at the table says what it did: the game was abandoned and
/// the narration shown is all there is (not that no output was written); exit 130.
#[test]
fn ctrl_c_at_a_prompt_says_the_game_was_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = raven(dir.path(), &["play", "--interactive", "--stealth", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Standard input stays open (a person who has not answered yet).
    let stdin = child.stdin.take();
    let stderr = child.stderr.take().unwrap();
    let seen = Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let seen = seen.clone();
        std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut buffer = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut stderr, &mut buffer) {
                if n == 0 {
                    break;
                }
                seen.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        })
    };
    let start = Instant::now();
    while !seen.lock().unwrap().contains("Your choice") {
        assert!(start.elapsed() < Duration::from_secs(60), "no prompt");
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let outcome = finish(child);
    drop(stdin);
    reader.join().unwrap();
    let said = seen.lock().unwrap().clone();
    assert_eq!(outcome.code, Some(130), "{outcome:?} {said}");
    assert!(
        said.contains("interrupted at the prompt: the game was abandoned"),
        "{said}"
    );
    assert!(!said.contains("no output was written"), "{said}");
    // The narration up to the prompt is on standard output.
    assert!(!outcome.stdout.is_empty());
}

#[test]
fn errors_in_long_lines_quote_a_short_excerpt() {
    let dir = tempfile::tempdir().unwrap();
    // Long lines, but within the bound on a line (16 KiB).
    let line = format!("description = \"{}\" oops\n", "a".repeat(15_000));
    fs::write(dir.path().join("long.toml"), &line).unwrap();
    let key = format!("[recruit]\n{} = 1\n", "k".repeat(15_000));
    fs::write(dir.path().join("key.toml"), &key).unwrap();
    for args in [
        &["strategies", "check", "long.toml"][..],
        &["play", "--rules", "long.toml"],
        &["strategies", "check", "key.toml"],
    ] {
        let message = refused(dir.path(), args);
        assert!(message.len() < 500, "{args:?}: {} bytes", message.len());
        assert!(message.contains(".toml:"), "{message}");
    }
}

// 7. Clap's messages, whole.

#[test]
fn usage_errors_keep_what_is_missing_and_the_tips() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needles) in [
        (&["compare"][..], &["--strategy <NAME|FILE>", "Usage:"][..]),
        (
            &["simulate", "--stealht", "3"],
            &["a similar argument exists", "'--stealth'"],
        ),
        (&["sweep", "--strategy", "duo"], &["--param"]),
    ] {
        let message = refused(dir.path(), args);
        for needle in needles {
            assert!(message.contains(needle), "{args:?}: {message}");
        }
    }
}

// 8. A closed pipe.

#[test]
fn a_closed_stdout_pipe_is_success_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let duo = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/duo.toml");
    let duo = duo.to_str().unwrap();
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["play"],
        vec!["strategies"],
        vec!["strategies", "check", duo],
        vec!["exact", "--stealth", "0,1"],
        vec!["exact", "--stealth", "0", "--out", "-"],
        vec!["solve", "--stealth", "0", "--strategy", "duo"],
        vec!["--help"],
        vec!["play", "--help"],
    ];
    for args in WRITERS {
        commands.push(args.to_vec());
        commands.push(with_out(args, "-"));
    }
    for args in &commands {
        let (reader, writer) = std::io::pipe().unwrap();
        // Closed before raven writes a byte: every write fails with a broken pipe.
        drop(reader);
        let child = raven(dir.path(), args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let outcome = finish(child);
        assert_eq!(outcome.code, Some(0), "{args:?}: {outcome:?}");
        assert!(outcome.stderr.is_empty(), "{args:?}: {}", outcome.stderr);
    }
    assert!(snapshot(dir.path()).is_empty());
    // A closed standard error does not turn an input error into a panic (exit 101).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = raven(dir.path(), &["simulate", "--strategy", "nope"])
        .stdout(Stdio::piped())
        .stderr(writer)
        .spawn()
        .unwrap();
    assert_eq!(finish(child).code, Some(2));
}

// 9. Ambiguity.

#[test]
fn repeated_or_contradictory_arguments_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("x.csv"), "precious").unwrap();
    for (args, why) in [
        (
            &[
                "simulate",
                "--rule",
                "discovered-penalty=2",
                "--rule",
                "discovered-penalty=1",
                "--out",
                "x.csv",
            ][..],
            "--rule discovered-penalty is given twice",
        ),
        (
            &[
                "sweep",
                "--strategy",
                "duo",
                "--param",
                "recruit.count=0..1",
                "--param",
                "recruit.count=1",
                "--out",
                "x.csv",
            ],
            "--param recruit.count is given twice",
        ),
        (
            &["simulate", "--stealth", "10,10,10", "--out", "x.csv"],
            "stealth 10 is given twice",
        ),
        (
            &["exact", "--stealth", "8,9,8", "--out", "x.csv"],
            "stealth 8 is given twice",
        ),
        (
            &["report", "--stealth", "8,8", "--out", "rep"],
            "stealth 8 is given twice",
        ),
        (
            &[
                "report",
                "--stealth",
                "8,12",
                "--max-stealth",
                "10",
                "--out",
                "rep",
            ],
            "above --max-stealth",
        ),
    ] {
        let message = refused(dir.path(), args);
        assert!(message.contains(why), "{args:?}: {message}");
    }
}

#[test]
fn stealth_ranges_give_one_row_per_stealth_and_empty_ranges_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = run(
        dir.path(),
        &["exact", "--stealth", "0..=3", "--quiet", "--out", "-"],
    );
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    let mut lines = outcome.stdout.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = header.iter().position(|&h| h == "stealth").unwrap();
    let stealths: Vec<&str> = lines.map(|l| l.split(',').nth(column).unwrap()).collect();
    assert_eq!(stealths, ["0", "1", "2", "3"], "{}", outcome.stdout);
    assert!(snapshot(dir.path()).is_empty());
    for (args, why) in [
        (
            &["exact", "--stealth", "9..=3", "--out", "x.csv"][..],
            "range '9..=3' is empty",
        ),
        (
            &["exact", "--stealth", "9..=3", "--quiet", "--out", "-"],
            "range '9..=3' is empty",
        ),
        (
            &["simulate", "--stealth", "5..5", "--out", "x.csv"],
            "range '5..5' is empty",
        ),
        (
            &["solve", "--stealth", "0..=5,3", "--out", "x.csv"],
            "stealth 3 is given twice ('0..=5' and '3' overlap)",
        ),
    ] {
        let message = refused(dir.path(), args);
        assert!(
            message.contains(why) && message.contains("--stealth"),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn strategy_files_refuse_repeats_and_orders_that_recruit_nobody() {
    let dir = tempfile::tempdir().unwrap();
    for (text, at, why) in [
        (
            "description = \"x\"\n[side]\npass_types = [\"spy\", \"sniper\", \"spy\"]\n",
            ":3:",
            "'spy' appears twice",
        ),
        (
            "[first_aid]\nphases = [\"run\", \"finale\", \"run\"]\n",
            ":2:",
            "'run' appears twice",
        ),
        (
            "[main]\ncharacter = \"hacker\"\n[recruit]\ncount = 2\norder = [\"hacker\"]\n",
            ":5:",
            "recruit nobody",
        ),
        (
            "[main]\ncharacter = \"medic\"\n[recruit]\norder = [\"medic\"]\n",
            ":4:",
            "names only medic (Dix)",
        ),
    ] {
        fs::write(dir.path().join("s.toml"), text).unwrap();
        for args in [
            &["strategies", "check", "s.toml"][..],
            &["simulate", "--strategy", "s.toml", "--out", "x.csv"],
        ] {
            let message = refused(dir.path(), args);
            assert!(
                message.contains(&format!("s.toml{at}")) && message.contains(why),
                "{text}: {message}"
            );
        }
    }
    // Playing alone is said so: count = 0.
    fs::write(
        dir.path().join("s.toml"),
        "[recruit]\ncount = 0\norder = []\n",
    )
    .unwrap();
    assert_eq!(
        run(dir.path(), &["strategies", "check", "s.toml"]).code,
        Some(0)
    );
}

#[test]
fn strategies_with_the_same_name_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/duo.toml");
    fs::copy(bundled, dir.path().join("duo.toml")).unwrap();
    let outcome = run(
        dir.path(),
        &[
            "compare",
            "--strategy",
            "duo",
            "--strategy",
            "./duo.toml",
            "--games",
            "300",
            "--stealth",
            "10",
            "--out",
            "-",
        ],
    );
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    let names: Vec<&str> = outcome
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(names, ["duo", "./duo.toml"], "{}", outcome.stdout);
}

// 10. Every parser's corpus.

/// Every file of `tests/corpus/<parser>/`: real inputs (`valid-…`) and broken ones, each run
/// through the binary as a user would give it. Each must end with exit 0 or 2 — a result or
/// one clean message — never a panic, a hang or a signal, and write nothing. New findings of
/// the generators (`fuzz::`, and the `fuzz` unit tests) are added here as files.
#[test]
fn every_parser_s_corpus_replays() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut replayed = 0;
    let mut parsers: Vec<_> = fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    parsers.sort();
    assert_eq!(
        parsers,
        [
            "choice", "dice", "param", "rule", "rules", "shard", "stealth", "strategy"
        ]
    );
    for parser in &parsers {
        let mut files: Vec<_> = fs::read_dir(corpus.join(parser))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() >= 10, "{parser}: only {} inputs", files.len());
        for file in files {
            let dir = tempfile::tempdir().unwrap();
            let path = file.to_str().unwrap();
            let value = || {
                use std::os::unix::ffi::OsStrExt;
                std::ffi::OsStr::from_bytes(&fs::read(&file).unwrap()).to_os_string()
            };
            let mut command = match parser.as_str() {
                "strategy" => raven(dir.path(), &["strategies", "check", path]),
                "rules" => raven(
                    dir.path(),
                    &[
                        "simulate",
                        "--games",
                        "1",
                        "--stealth",
                        "0",
                        "--quiet",
                        "--rules",
                        path,
                    ],
                ),
                "shard" => raven(dir.path(), &["merge", path]),
                "stealth" => {
                    let mut c = raven(dir.path(), &["simulate", "--games", "1", "--quiet"]);
                    c.arg("--stealth").arg(value());
                    c
                }
                "rule" => {
                    let mut c = raven(
                        dir.path(),
                        &["simulate", "--games", "1", "--stealth", "0", "--quiet"],
                    );
                    c.arg("--rule").arg(value());
                    c
                }
                "param" => {
                    let mut c = raven(
                        dir.path(),
                        &[
                            "sweep",
                            "--strategy",
                            "duo",
                            "--games",
                            "1",
                            "--stealth",
                            "0",
                            "--quiet",
                        ],
                    );
                    c.arg("--param").arg(value());
                    c
                }
                "choice" => {
                    let mut c = raven(dir.path(), &["play", "--interactive", "--stealth", "3"]);
                    c.stdin(fs::File::open(&file).unwrap());
                    c
                }
                "dice" => {
                    let mut c = raven(dir.path(), &["play", "--dice", "manual", "--stealth", "3"]);
                    c.stdin(fs::File::open(&file).unwrap());
                    c
                }
                other => panic!("no command replays the {other} corpus"),
            };
            let child = command
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let outcome = finish(child);
            let name = file.file_name().unwrap().to_string_lossy();
            let tail = &outcome.stderr[outcome.stderr.len().saturating_sub(400)..];
            assert!(
                matches!(outcome.code, Some(0 | 2)),
                "{parser}/{name}: {:?} {tail}",
                outcome.code
            );
            assert!(
                !outcome.stderr.contains("panicked"),
                "{parser}/{name}: {tail}"
            );
            // A valid file of a parser that reads files is read (a shard of several is then
            // refused by merge for the shards it lacks, nothing else).
            if name.starts_with("valid-") && ["strategy", "rules", "shard"].contains(&&**parser) {
                let lacks = outcome.stderr.contains("missing; merge needs all");
                assert!(
                    outcome.code == Some(0) || (*parser == "shard" && lacks),
                    "{parser}/{name}: {tail}"
                );
            }
            if name.starts_with("broken-") && !["choice", "dice"].contains(&&**parser) {
                assert_eq!(outcome.code, Some(2), "{parser}/{name}: {tail}");
            }
            assert!(
                snapshot(dir.path()).is_empty(),
                "{parser}/{name} wrote a file"
            );
            replayed += 1;
        }
    }
    assert!(replayed >= 100, "{replayed}");
}
