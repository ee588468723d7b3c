//! `raven card` through the real binary: the card file it writes reads back, checked and
//! evaluated, as the values it claims; the same card on any thread count; bad input refused.

use crate::common::{file, raven, stdout};

/// A lone operative whose file makes the Medic main and never gives first aid: a small
/// search (two rules reach optimal play).
const BASE: &str = "[main]\ncharacter = \"medic\"\n[recruit]\ncount = 0\n\
                    [first_aid]\nwhen = \"never\"\n[side]\nattempt = \"never\"\n";

/// `card, stealth S: P(win) = V` or `stealth S: P(win) = V` lines as (S, V).
fn values(text: &str) -> Vec<(u8, f64)> {
    text.lines()
        .filter_map(|l| {
            let (head, value) = l.split_once(": P(win) = ")?;
            let stealth = head.rsplit(' ').next()?.trim().parse().ok()?;
            Some((stealth, value.trim().parse().ok()?))
        })
        .collect()
}

#[test]
fn the_card_file_reads_back_as_the_values_claimed() {
    let (dir, base) = file("base.toml", BASE);
    let out = dir.path().join("card.toml");
    let (base, out_s) = (base.display().to_string(), out.display().to_string());
    let common = ["--rule", "team-size=1", "--stealth", "2,4", "-q"];
    let mut args = vec!["card", "--from", &base, "--out", &out_s, "--max-rules", "4"];
    args.extend(common);
    let page = dir.path().join("card.html");
    let page_s = page.display().to_string();
    args.extend(["--page", &page_s]);
    let printed = stdout(&args);
    assert!(printed.contains("the ladder"), "{printed}");
    // The page to print: every rule a sentence, the ladder's last rung as printed.
    let html = std::fs::read_to_string(&page).expect("page written");
    assert_eq!(html.matches("<li>").count(), 2, "{html}");
    for (s, v) in values(&printed) {
        assert!(
            html.contains(&format!("<td>{:.2}%</td>", 100.0 * v)),
            "stealth {s}: {html}"
        );
    }
    assert!(html.contains("<tr><td>optimal play</td>"), "{html}");
    assert!(printed.contains("optimal"), "{printed}");
    let claimed = values(&printed);
    assert_eq!(claimed.len(), 2, "{printed}");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("# rules: 2\n"), "{text}");
    assert_eq!(text.matches("# worth +").count(), 2, "{text}");
    let checked = stdout(&["strategies", "check", &out_s]);
    assert!(checked.starts_with("ok "), "{checked}");
    let mut exact = vec!["exact", "--strategy", &out_s];
    exact.extend(common);
    let evaluated = values(&stdout(&exact));
    assert_eq!(evaluated.len(), 2);
    for ((s, v), (t, w)) in claimed.iter().zip(&evaluated) {
        assert_eq!(s, t);
        assert!(
            (v - w).abs() < 1e-12,
            "stealth {s}: claimed {v}, read back {w}"
        );
    }
    // The same search on one thread: the same card, the same values.
    let mut one = vec![
        "card",
        "--from",
        &base,
        "--max-rules",
        "4",
        "--threads",
        "1",
    ];
    one.extend(common);
    let without_timing = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.contains("candidates evaluated in"))
            .map(|l| l.replace(&base, "BASE"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_timing(&stdout(&one)), without_timing(&printed));
}

#[test]
fn card_refuses_bad_input_with_exit_2() {
    let (dir, bad) = file("bad.toml", "[rules]\nfirst-aid = [\"-> dance\"]\n");
    let out = dir.path().join("card.toml");
    let page = dir.path().join("card.html");
    raven()
        .args(["card", "--from"])
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .arg("--page")
        .arg(&page)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(":2:18:"));
    assert!(!out.exists() && !page.exists(), "nothing written");
    raven().args(["card", "--min-gain", "-1"]).assert().code(2);
    raven().args(["card", "--max-rules", "0"]).assert().code(2);
}
