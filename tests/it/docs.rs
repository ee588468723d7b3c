//! The documentation keeps its promises: every command of the README's and the user guide's
//! `sh` code blocks runs with the built binary and exits 0, and every relative link of the
//! documentation resolves to a file of the repository (and to a heading, where it names one).
//! A reader who copies a command or follows a link gets what the page says.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The documents whose commands are run, in order, each in a fresh directory of its own.
const RUN: [&str; 2] = ["README.md", "docs/guide.md"];

/// Commands not run, by a piece of their text, with the reason. Every entry must match a
/// command, so the list cannot outlive what it excuses.
const SKIP: [(&str, &str); 7] = [
    ("--interactive", "waits for a player typing at a terminal"),
    ("--dice manual", "waits for dice typed at a terminal"),
    (
        "raven report",
        "a minute of CPU on two cores; tests/it/report.rs runs a small report",
    ),
    (
        "raven tune",
        "a search of many exact evaluations; tests/it/tune.rs runs small ones",
    ),
    (
        "raven card",
        "a search of many exact evaluations; tests/it/card.rs runs small ones",
    ),
    ("~/", "writes into the user's home directory"),
    ("$PROFILE", "writes into the user's shell profile"),
];

/// Monte Carlo commands run with at most this many games per stealth: the documents may
/// quote the defaults (a million games), the test needs only that the command runs.
const MAX_GAMES: u64 = 100_000;

/// The commands that take `--games`, defaulting to a million when it is left out.
const TAKES_GAMES: [&str; 3] = ["simulate", "compare", "sweep"];

/// A command that runs longer than this is a hang, not a slow machine.
const TIMEOUT: Duration = Duration::from_secs(300);

#[test]
fn every_command_in_the_readme_and_the_guide_runs() {
    let raven = assert_cmd::cargo::cargo_bin("raven");
    let bin_dir = raven
        .parent()
        .expect("the binary's directory")
        .to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut skipped: Vec<usize> = vec![0; SKIP.len()];
    // A command both documents show is run once.
    let mut ran: HashSet<String> = HashSet::new();
    for document in RUN {
        let text = read(document);
        let commands = commands(&text);
        assert!(
            commands.len() >= 5,
            "{document}: only {} commands found in its sh code blocks",
            commands.len()
        );
        // A directory of its own, with the bundled strategies where the documents' relative
        // paths expect them; whatever a command writes lands here, never in the repository.
        let dir = tempfile::tempdir().unwrap();
        for linked in ["strategies", "docs"] {
            std::os::unix::fs::symlink(Path::new(ROOT).join(linked), dir.path().join(linked))
                .unwrap();
        }
        for command in &commands {
            let matched: Vec<usize> = (0..SKIP.len())
                .filter(|&i| command.contains(SKIP[i].0))
                .collect();
            if !matched.is_empty() {
                for i in matched {
                    skipped[i] += 1;
                }
                continue;
            }
            let line = with_few_games(command);
            if !ran.insert(line.clone()) {
                continue;
            }
            // Standard error into a file: a pipe nobody reads while the command runs could fill.
            let errors = dir.path().join(".stderr");
            let mut child = Command::new("sh")
                .arg("-c")
                .arg(&line)
                .current_dir(dir.path())
                .env("PATH", &path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&errors).unwrap())
                .spawn()
                .expect("sh runs");
            let started = Instant::now();
            let status = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break status;
                }
                if started.elapsed() > TIMEOUT {
                    child.kill().unwrap();
                    panic!("{document}: `{line}` ran past {TIMEOUT:?}");
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            let stderr = std::fs::read_to_string(&errors).unwrap();
            assert!(
                status.success(),
                "{document}: `{line}` exited with {status}: {stderr}"
            );
            assert!(
                !stderr.contains("panicked"),
                "{document}: `{line}`: {stderr}"
            );
        }
    }
    for ((pattern, reason), count) in SKIP.iter().zip(skipped) {
        assert!(
            count > 0,
            "the skip entry `{pattern}` ({reason}) matches no command: remove it"
        );
    }
}

#[test]
fn every_relative_link_in_the_documentation_resolves() {
    let root = Path::new(ROOT).canonicalize().unwrap();
    let mut documents: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    documents.push(root.join("strategies/README.md"));
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push(path);
        }
    }
    // Written for the next engineer; checked once it is there.
    let architecture = root.join("ARCHITECTURE.md");
    if architecture.exists() {
        documents.push(architecture);
    }
    let mut checked = 0;
    for document in &documents {
        let text = std::fs::read_to_string(document)
            .unwrap_or_else(|e| panic!("{}: {e}", document.display()));
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if file.is_empty() {
                document.clone()
            } else {
                let joined = document.parent().unwrap().join(file);
                joined.canonicalize().unwrap_or_else(|_| {
                    panic!(
                        "{}: the link `{target}` names {}, which does not exist",
                        document.display(),
                        joined.display()
                    )
                })
            };
            assert!(
                resolved.starts_with(&root),
                "{}: the link `{target}` leaves the repository (a clone has nothing beside it)",
                document.display()
            );
            if let Some(anchor) = anchor
                && resolved.extension().is_some_and(|e| e == "md")
            {
                let headings = anchors(&std::fs::read_to_string(&resolved).unwrap());
                assert!(
                    headings.contains(anchor),
                    "{}: the link `{target}` names no heading of {} (it has {headings:?})",
                    document.display(),
                    resolved.display()
                );
            }
        }
    }
    assert!(checked > 30, "only {checked} relative links found");
}

/// The cluster page points at the Slurm script instead of keeping a second copy that could
/// drift from it.
#[test]
fn the_cluster_page_links_the_slurm_script_instead_of_pasting_it() {
    let page = read("docs/cluster.md");
    assert!(
        page.contains("](slurm-sweep.sh)"),
        "docs/cluster.md links no script"
    );
    for document in ["README.md", "docs/cluster.md", "docs/guide.md"] {
        assert!(
            !read(document).contains("#SBATCH"),
            "{document} pastes the Slurm script"
        );
    }
}

/// The README is the first screen a designer sees, not a manual.
#[test]
fn the_readme_is_under_250_lines() {
    let lines = read("README.md").lines().count();
    assert!(lines < 250, "README.md has {lines} lines");
}

/// A document of the repository as text.
fn read(document: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(document))
        .unwrap_or_else(|e| panic!("{document}: {e}"))
}

/// The commands of a document's `sh` (and `bash`, and `console` after a `$ ` prompt) code
/// blocks that run raven: lines starting `raven ` or `cargo run --release -- ` (rewritten to
/// `raven `), continuation lines joined, comments cut.
fn commands(markdown: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut fence: Option<String> = None;
    let mut pending = String::new();
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                None => Some(info.trim().to_string()),
                Some(_) => None,
            };
            continue;
        }
        let Some(kind) = fence.as_deref() else {
            continue;
        };
        let line = match kind {
            "sh" | "bash" => trimmed,
            "console" => match trimmed.strip_prefix("$ ") {
                Some(line) => line,
                None => continue,
            },
            _ => continue,
        };
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        pending.push_str(line);
        let whole = std::mem::take(&mut pending);
        let whole = match whole.find(" #") {
            Some(comment) => whole[..comment].trim_end().to_string(),
            None => whole.trim_end().to_string(),
        };
        if let Some(args) = whole.strip_prefix("cargo run --release -- ") {
            commands.push(format!("raven {args}"));
        } else if whole.starts_with("raven ") {
            commands.push(whole);
        }
    }
    commands
}

/// `command` with every `--games` above [`MAX_GAMES`] lowered to it, and `--games` given to
/// the Monte Carlo commands that leave it at its default of a million.
fn with_few_games(command: &str) -> String {
    let mut words: Vec<String> = command.split_whitespace().map(String::from).collect();
    let mut has_games = false;
    for i in 0..words.len() {
        if words[i] == "--games" {
            has_games = true;
            if let Some(n) = words.get(i + 1).and_then(|n| n.parse::<u64>().ok()) {
                words[i + 1] = n.min(MAX_GAMES).to_string();
            }
        }
    }
    if !has_games
        && words
            .get(1)
            .is_some_and(|c| TAKES_GAMES.contains(&c.as_str()))
    {
        words.insert(2, MAX_GAMES.to_string());
        words.insert(2, "--games".to_string());
    }
    words.join(" ")
}

/// The targets of a document's inline links and images (`[text](target)`), outside code.
fn links(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].to_string());
            rest = &after[end + 1..];
        }
    }
    targets
}

/// The anchors GitHub gives a document's headings: the heading's text in lower case, without
/// punctuation, spaces as hyphens; a repeated one numbered `-1`, `-2`, ….
fn anchors(markdown: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let text = line.trim_start_matches('#').trim();
        let slug: String = text
            .chars()
            .filter_map(|c| match c {
                ' ' | '-' => Some('-'),
                '_' => Some('_'),
                c if c.is_alphanumeric() => Some(c),
                _ => None,
            })
            .flat_map(char::to_lowercase)
            .collect();
        let mut unique = slug.clone();
        let mut n = 0;
        while anchors.contains(&unique) {
            n += 1;
            unique = format!("{slug}-{n}");
        }
        anchors.insert(unique);
    }
    anchors
}
