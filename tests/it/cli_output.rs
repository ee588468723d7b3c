//! What a user sees: output that fits a 100-column terminal, headers over their values, every
//! run's inputs on its first line, the long-running commands' common flags, completions and
//! manual pages generated from the command line definition.

use crate::common;

use common::{raven, refused, stdout, widest_line};

/// A small run whose inputs line is longer than the default run's (a 20-digit seed against
/// 8 digits, 4-digit games against 7), so that fitting here means fitting there.
const SIMULATE: [&str; 7] = [
    "simulate",
    "--quiet",
    "--games",
    "9999",
    "--seed",
    "18446744073709551615",
    "--stealth",
];

/// Checks that every header of `table` (its first line; `headers` in order, `true` for a
/// left-aligned one) sits over its values: a right-aligned header ends in the same column as
/// every value under it, a left-aligned one starts in the same column.
fn assert_aligned(table: &str, headers: &[(&str, bool)]) {
    let lines: Vec<Vec<char>> = table.lines().map(|l| l.chars().collect()).collect();
    let header: String = lines[0].iter().collect();
    let mut start = 0;
    for &(word, left) in headers {
        let at = start + header[start..].find(word).expect("header present");
        let begin = header[..at].chars().count();
        let end = begin + word.chars().count();
        for row in &lines[1..] {
            let text: String = row.iter().collect();
            let ok = if left {
                row.get(begin).is_some_and(|c| *c != ' ') && (begin == 0 || row[begin - 1] == ' ')
            } else {
                // An empty cell (the baseline's difference) is allowed.
                row.get(end - 1).is_none_or(|c| *c != ' ') && row.get(end).is_none_or(|c| *c == ' ')
                    || row
                        .get(begin..end)
                        .is_none_or(|cells| cells.iter().all(|c| *c == ' '))
            };
            assert!(ok, "`{word}` is not over its value in\n{header}\n{text}");
        }
        start = at + word.len();
    }
}

/// The headers of the `simulate` table.
const SIMULATE_HEADERS: [(&str, bool); 12] = [
    ("strategy", true),
    ("stealth", false),
    ("win", false),
    ("interval", false),
    ("lost:p1", false),
    ("run", false),
    ("finale", false),
    ("f.down", false),
    ("disc.", false),
    ("st.left", false),
    ("team", false),
    ("deaths", false),
];

/// The table of a command's output: the lines after the first blank line, up to the next.
fn table_of(text: &str) -> String {
    text.split("\n\n")
        .nth(1)
        .expect("a table after the inputs")
        .to_string()
}

#[test]
fn simulate_fits_100_columns_with_headers_over_their_values() {
    let text = stdout(&[&SIMULATE[..], &["8,10,12"]].concat());
    assert!(widest_line(&text) <= 100, "{text}");
    assert_aligned(&table_of(&text), &SIMULATE_HEADERS);
    // The inputs, preset named rather than spelled out.
    for input in [
        "strategy reference",
        "rules main-text;",
        "stealth 8,10,12",
        "9999 games per stealth",
        "seed 18446744073709551615",
        "95% Wilson intervals",
    ] {
        assert!(text.contains(input), "{input} missing from\n{text}");
    }
    assert!(!text.contains("recruit-count"), "{text}");
}

#[test]
fn modified_rules_are_spelled_out_and_wrapped() {
    let text = stdout(&[
        "simulate",
        "--quiet",
        "--games",
        "500",
        "--stealth",
        "10",
        "--confidence",
        "0.99",
        "--rule",
        "finale-substitute=yes",
    ]);
    assert!(widest_line(&text) <= 100, "{text}");
    let inputs = text.split("\n\n").next().unwrap().replace("\n  ", " ");
    assert!(
        inputs.contains(
            "rules recruit-count=all first-aid-recruit=per-check discovered-penalty=1 \
             second-success=easier-threshold finale-substitute=yes first-aid-after-side=no;"
        ),
        "{inputs}"
    );
    assert!(inputs.contains("99% Wilson intervals"), "{inputs}");
}

#[test]
fn compare_and_sweep_name_games_seed_and_confidence() {
    let compare = stdout(&[
        "compare",
        "--quiet",
        "--strategy",
        "reference",
        "--strategy",
        "duo",
        "--stealth",
        "10",
        "--games",
        "700",
        "--seed",
        "5",
    ]);
    let sweep = stdout(&[
        "sweep",
        "--quiet",
        "--strategy",
        "cautious",
        "--param",
        "recruit.count=0..1",
        "--stealth",
        "10",
        "--games",
        "700",
        "--seed",
        "5",
    ]);
    for text in [&compare, &sweep] {
        for input in [
            "700 games per stealth",
            "seed 5",
            "95% Wilson intervals",
            "rules main-text",
        ] {
            assert!(text.contains(input), "{input} missing from\n{text}");
        }
        assert!(widest_line(text) <= 100, "{text}");
    }
    assert_aligned(
        &table_of(&compare),
        &[
            ("strategy", true),
            ("stealth", false),
            ("win", false),
            ("interval", false),
            ("diff pp", false),
            ("diff interval", false),
            ("p", false),
        ],
    );
}

#[test]
fn exact_and_solve_take_threads_and_quiet_and_name_their_inputs() {
    let exact = stdout(&[
        "exact",
        "--stealth",
        "3",
        "--threads",
        "1",
        "--quiet",
        "--rules",
        "clarified",
    ]);
    assert!(
        exact.starts_with(&format!(
            "raven {} exact: strategy reference; rules clarified; stealth 3;",
            env!("CARGO_PKG_VERSION")
        )),
        "{exact}"
    );
    assert!(widest_line(&exact) <= 100, "{exact}");
    let solve = stdout(&[
        "solve",
        "--stealth",
        "1",
        "--threads",
        "2",
        "-q",
        "--strategy",
        "duo",
        "--explain",
    ]);
    assert!(solve.contains("rules main-text; stealth 1;"), "{solve}");
    assert!(widest_line(&solve) <= 100, "{solve}");
    // The complication columns are named, not numbered.
    assert!(
        solve.contains("track down") && solve.contains("patch up"),
        "{solve}"
    );
    let line = refused(&["exact", "--threads", "0"]);
    assert!(line.contains("--threads"), "{line}");
}

#[test]
fn solve_explain_with_csv_on_stdout_keeps_the_explanation() {
    let output = raven()
        .args([
            "solve",
            "--stealth",
            "1",
            "--quiet",
            "--strategy",
            "duo",
            "--explain",
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let csv = String::from_utf8(output.stdout).unwrap();
    let explanation = String::from_utf8(output.stderr).unwrap();
    assert!(csv.starts_with("strategy,rules,stealth,"), "{csv}");
    assert!(
        explanation.contains("main character: share of complication rolls"),
        "{explanation}"
    );
}

#[test]
fn help_shows_defaults_as_they_are_typed() {
    for command in ["simulate", "exact", "solve", "report"] {
        // Help wraps to the terminal, possibly inside the brackets.
        let help = stdout(&[command, "--help"])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(help.contains("[default: 8,10,12]"), "{command}: {help}");
    }
}

#[test]
fn strategies_lists_every_name_strategy_accepts() {
    let listing = stdout(&["strategies"]);
    for name in raven::strategy::names() {
        assert!(
            listing.lines().any(|l| l.trim_start().starts_with(&name)),
            "{name} not listed:\n{listing}"
        );
    }
    assert!(listing.contains("optimal"), "{listing}");
    assert!(widest_line(&listing) <= 100, "{listing}");
}

#[test]
fn sweeping_a_built_in_says_it_has_no_knobs() {
    let line = refused(&[
        "sweep",
        "--strategy",
        "random",
        "--param",
        "recruit.count=0..1",
    ]);
    assert!(line.contains("random has no knobs"), "{line}");
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        for sub in ["simulate", "compare", "solve", "completions", "man"] {
            assert!(script.contains(sub), "{shell} lacks {sub}");
        }
    }
    assert!(stdout(&["completions", "bash"]).contains("complete -F _raven"));
    assert!(refused(&["completions", "tcsh"]).contains("tcsh"));
}

#[test]
fn man_pages_are_roff_for_raven_and_each_subcommand() {
    let page = stdout(&["man"]);
    assert!(
        page.contains(".TH raven 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    assert!(page.contains("simulate"), "subcommands listed");
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    stdout(&["man", "--dir", dir_arg]);
    for name in [
        "raven.1",
        "raven-simulate.1",
        "raven-solve.1",
        "raven-completions.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(name))
            .unwrap_or_else(|_| panic!("{name} written"));
        assert!(text.starts_with(".ie") || text.contains(".TH"), "{name}");
    }
    assert!(refused(&["man", "--dir", "/nonexistent/raven-man"]).contains("does not exist"));
}

#[test]
fn play_narration_fits_100_columns() {
    for game in 0..6 {
        for strategy in ["reference", "random"] {
            let text = stdout(&["play", "--game", &game.to_string(), "--strategy", strategy]);
            assert!(widest_line(&text) <= 100, "{text}");
        }
    }
}
