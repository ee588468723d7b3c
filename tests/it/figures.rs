//! One source for every figure: each figure README.md, docs/, strategies/README.md and the
//! reports' READMEs state about the games is the committed CSVs' value, rounded as the text
//! writes it; and every CSV number is written one way (a notation per column, at most 12
//! significant digits, no `0` standing for a p-value below the smallest double).
//!
//! The figures checked are listed here ([`stated`]): each names its document, the sentence
//! that holds it with `{}` where the figure goes, and the figure computed from the CSVs.
//! A sentence reworded drops out of the list loudly (the test fails until it is updated); a
//! figure that no longer matches its CSV fails the same way.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

type Row = HashMap<String, String>;

/// The rows of a committed CSV under `reports/`, keyed by header.
fn rows(file: &str) -> Vec<Row> {
    parse(&fs::read_to_string(root().join("reports").join(file)).unwrap())
}

fn parse(text: &str) -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The committed CSVs, with the look-ups the figures need.
struct Csvs {
    win_rates: Vec<Row>,
    decisions: Vec<Row>,
    variants: Vec<Row>,
    levers: Vec<Row>,
    annulus: Vec<Row>,
}

impl Csvs {
    fn load() -> Csvs {
        Csvs {
            win_rates: rows("win-rates.csv"),
            decisions: rows("decisions.csv"),
            variants: rows("rule-variants.csv"),
            levers: rows("levers.csv"),
            annulus: rows("annulus/success.csv"),
        }
    }

    /// The exact (or optimal) row of `strategy` under a preset at `stealth`.
    fn exact_row(&self, strategy: &str, rules: &str, stealth: u8) -> &Row {
        self.win_rates
            .iter()
            .find(|r| {
                r["strategy"] == strategy
                    && r["rules"] == rules
                    && r["stealth"] == stealth.to_string()
                    && r["method"] != "monte-carlo"
            })
            .unwrap_or_else(|| panic!("exact row of {strategy} {rules} {stealth}"))
    }

    fn win(&self, strategy: &str, rules: &str, stealth: u8) -> f64 {
        num(self.exact_row(strategy, rules, stealth), "win_rate")
    }

    /// The starting stealth nearest an even game (the lower on a tie) and its win probability.
    fn even(&self, strategy: &str, rules: &str) -> (u8, f64) {
        let mut curve: Vec<(u8, f64)> = self
            .win_rates
            .iter()
            .filter(|r| {
                r["strategy"] == strategy && r["rules"] == rules && r["method"] != "monte-carlo"
            })
            .map(|r| (r["stealth"].parse().unwrap(), num(r, "win_rate")))
            .collect();
        curve.sort_by_key(|p| p.0);
        curve
            .into_iter()
            .min_by(|a, b| (a.1 - 0.5).abs().total_cmp(&(b.1 - 0.5).abs()))
            .unwrap()
    }

    /// A strategy's regret at a kind of decision under main-text at `stealth`.
    fn regret(&self, strategy: &str, stealth: u8, decision: &str) -> f64 {
        let row = self
            .decisions
            .iter()
            .find(|r| {
                r["strategy"] == strategy
                    && r["rules"] == "main-text"
                    && r["stealth"] == stealth.to_string()
                    && r["decision"] == decision
            })
            .unwrap_or_else(|| panic!("decisions row of {strategy} {decision}"));
        num(row, "regret")
    }

    /// A rule variant's or a lever's row for `strategy` at `stealth`.
    fn departure<'a>(rows: &'a [Row], variant: &str, strategy: &str, stealth: u8) -> &'a Row {
        rows.iter()
            .find(|r| {
                r["variant"] == variant
                    && r["strategy"] == strategy
                    && r["stealth"] == stealth.to_string()
            })
            .unwrap_or_else(|| panic!("row of {variant} {strategy}"))
    }

    fn variant(&self, variant: &str, strategy: &str) -> f64 {
        num(
            Self::departure(&self.variants, variant, strategy, 10),
            "effect",
        )
    }

    fn lever(&self, variant: &str, strategy: &str) -> f64 {
        num(
            Self::departure(&self.levers, variant, strategy, 10),
            "effect",
        )
    }

    fn lever_win(&self, variant: &str, strategy: &str) -> f64 {
        num(
            Self::departure(&self.levers, variant, strategy, 10),
            "win_rate",
        )
    }

    /// Annulus success probability of `strategy` at a difficulty with `players`.
    fn annulus(&self, strategy: &str, difficulty: &str, players: u8) -> f64 {
        let row = self
            .annulus
            .iter()
            .find(|r| {
                r["strategy"] == strategy
                    && r["difficulty"] == difficulty
                    && r["players"] == players.to_string()
            })
            .unwrap_or_else(|| panic!("annulus row of {strategy} {difficulty} {players}"));
        num(row, "success")
    }

    /// The rule variants and levers at stealth 10 ranked by the larger of their two effects.
    fn largest(rows: &[Row], by: impl Fn(f64, f64) -> f64) -> String {
        let mut names: Vec<&str> = rows
            .iter()
            .filter(|r| r["variant"] != "default" && r["stealth"] == "10")
            .map(|r| r["variant"].as_str())
            .collect();
        names.dedup();
        names
            .into_iter()
            .map(|v| {
                let effect = |who| num(Self::departure(rows, v, who, 10), "effect");
                (v, by(effect("optimal"), effect("reference")))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
            .0
            .to_string()
    }
}

fn num(row: &Row, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} = {:?}", row[column]))
}

/// A probability as a percentage with `d` decimals, `%` included.
fn pct(x: f64, d: usize) -> String {
    format!("{:.*}%", d, 100.0 * x)
}

/// A difference in points with `d` decimals, unsigned.
fn pts(x: f64, d: usize) -> String {
    format!("{:.*}", d, 100.0 * x)
}

/// A signed effect in points, one decimal (a tiny negative one reads +0.0).
fn signed(x: f64) -> String {
    format!("{:+.1}", (1e3 * x).round() / 10.0 + 0.0)
}

/// A document's text with every run of white space one space and `−` as `-`, so a sentence
/// reads the same wherever its lines break.
fn flat(doc: &str) -> String {
    let text = fs::read_to_string(root().join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"));
    text.replace('−', "-")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// One stated figure: the document, the sentence with `{}` for each figure, the figures.
struct Stated {
    doc: &'static str,
    sentence: String,
    figures: Vec<String>,
}

fn at(doc: &'static str, sentence: &str, figures: Vec<String>) -> Stated {
    Stated {
        doc,
        sentence: sentence.to_string(),
        figures,
    }
}

impl Stated {
    fn expected(&self) -> String {
        let mut out = String::new();
        let mut parts = self.sentence.split("{}");
        out += parts.next().unwrap();
        for (part, figure) in parts.zip(&self.figures) {
            out += figure;
            out += part;
        }
        assert_eq!(
            self.sentence.matches("{}").count(),
            self.figures.len(),
            "{}",
            self.sentence
        );
        out
    }
}

/// A row of the README's headline table: the three headline stealths and the even game.
fn headline_row(c: &Csvs, rules: &str, strategy: &str) -> Vec<String> {
    let (stealth, win) = c.even(strategy, rules);
    let mut cells: Vec<String> = [8, 10, 12]
        .iter()
        .map(|&s| pct(c.win(strategy, rules, s), 1))
        .collect();
    cells.push(format!("{stealth} ({})", pct(win, 1)));
    cells
}

/// Every figure the documents state, with its value from the CSVs.
fn stated(c: &Csvs) -> Vec<Stated> {
    let (mt, cl) = ("main-text", "clarified");
    let w = |s: &str, r: &str, st: u8| c.win(s, r, st);
    let gap = |s: &str, r: &str, st: u8| w(OPT, r, st) - w(s, r, st);
    const OPT: &str = "optimal";
    const REF: &str = "reference";
    let reference_loss = gap(REF, mt, 10);
    let team = |s: &str| format!("{:.2}", num(c.exact_row(s, mt, 10), "mean_team_at_run"));
    let (o_even, r_even) = (c.even(OPT, mt), c.even(REF, mt));
    let mut out = vec![
        // README: the headline table, cell by cell.
        at(
            "README.md",
            "| main-text | reference | {} | {} | {} | {} |",
            headline_row(c, mt, REF),
        ),
        at(
            "README.md",
            "| main-text | duo (recruit only the Medic) | {} | {} | {} | {} |",
            headline_row(c, mt, "duo"),
        ),
        at(
            "README.md",
            "| main-text | `tuned` (best file a person can follow) | {} | {} | {} | {} |",
            headline_row(c, mt, "tuned"),
        ),
        at(
            "README.md",
            "| main-text | **optimal** | {} | {} | {} | {} |",
            headline_row(c, mt, OPT),
        ),
        at(
            "README.md",
            "| clarified | reference | {} | {} | {} | {} |",
            headline_row(c, cl, REF),
        ),
        at(
            "README.md",
            "| clarified | duo | {} | {} | {} | {} |",
            headline_row(c, cl, "duo"),
        ),
        at(
            "README.md",
            "| clarified | `tuned-clarified` (best file) | {} | {} | {} | {} |",
            headline_row(c, cl, "tuned-clarified"),
        ),
        at(
            "README.md",
            "| clarified | **optimal** | {} | {} | {} | {} |",
            headline_row(c, cl, OPT),
        ),
        // README: the bullets.
        at(
            "README.md",
            "Perfect play wins {} at stealth 10; the reference strategy leaves {} points of that on the table, {} of them at recruitment checks it should not have rolled. A person following `tuned` comes within {} points of perfect play.",
            vec![
                pct(w(OPT, mt, 10), 1),
                pts(reference_loss, 1),
                pct(
                    c.regret(REF, 10, "recruit-roller-or-stop") / reference_loss,
                    0,
                ),
                pts(gap("tuned", mt, 10), 1),
            ],
        ),
        at(
            "README.md",
            "Optimal play enters the run with {} members on average; recruiting only the Medic (`duo`) beats the reference's team of four by {} points at stealth 10 ({} under clarified).",
            vec![
                team(OPT),
                pts(w("duo", mt, 10) - w(REF, mt, 10), 1),
                pts(w("duo", cl, 10) - w(REF, cl, 10), 1),
            ],
        ),
        at(
            "README.md",
            "(`finale-substitute`) moves a player most, by the larger of its two effects at stealth 10: {} points for the reference, {} for optimal play. The finale penalty while discovered (`discovered-penalty`) moves optimal play most ({} points).",
            vec![
                signed(c.variant("finale-substitute=yes", REF)),
                signed(c.variant("finale-substitute=yes", OPT)),
                signed(c.variant("discovered-penalty=2", OPT)),
            ],
        ),
        at(
            "README.md",
            "6 instead of 5 drops optimal play at stealth 10 from {} to {}.",
            vec![
                pct(w(OPT, mt, 10), 1),
                pct(c.lever_win("threshold=6", OPT), 1),
            ],
        ),
        // The report's "What the numbers say" and "What a player should do".
        at(
            "reports/README.md",
            "optimal play (the best any player can do) wins {} of games and the reference strategy (a sensible human's play) {}: {} points apart. The game is an even bet (50% ± 5) for optimal play at starting stealth **{}** ({}) and for the reference at starting stealth **{}** ({}).",
            vec![
                pct(w(OPT, mt, 10), 1),
                pct(w(REF, mt, 10), 1),
                pts(reference_loss, 1),
                o_even.0.to_string(),
                pct(o_even.1, 1),
                r_even.0.to_string(),
                pct(r_even.1, 1),
            ],
        ),
        at(
            "reports/README.md",
            "perfect play wins {} ({} at 8, {} at 12). The game is far from hopeless, but the reference strategy leaves {} percentage points on the table.",
            vec![
                pct(w(OPT, mt, 10), 1),
                pct(w(OPT, mt, 8), 1),
                pct(w(OPT, mt, 12), 1),
                pts(reference_loss, 1),
            ],
        ),
        at(
            "reports/README.md",
            "the reference strategy wins {} of games and optimal play {}. The {} points it leaves are lost,",
            vec![
                pct(w(REF, mt, 10), 1),
                pct(w(OPT, mt, 10), 1),
                pts(reference_loss, 1),
            ],
        ),
        at(
            "reports/README.md",
            "start at stealth {}; a perfect player then wins {}.",
            vec![r_even.0.to_string(), pct(w(OPT, mt, r_even.0), 1)],
        ),
        at(
            "reports/README.md",
            "it enters the run with {} members on average, 2 in 96% of the games that get there, where the reference strategy takes {}.",
            vec![team(OPT), team(REF)],
        ),
        at(
            "reports/README.md",
            "**What does the reference strategy lose, and where?** {} points against optimal play at stealth 10, most at *who rolls to recruit (or stop)* {} and *side challenges (who tries, pass, give up)* {}: {} of its loss.",
            vec![
                pts(reference_loss, 1),
                pts(c.regret(REF, 10, "recruit-roller-or-stop"), 1),
                pts(c.regret(REF, 10, "side-challenge"), 1),
                pct(
                    (c.regret(REF, 10, "recruit-roller-or-stop")
                        + c.regret(REF, 10, "side-challenge"))
                        / reference_loss,
                    0,
                ),
            ],
        ),
        at(
            "reports/README.md",
            "**Which reading of the rules to settle first?** `finale-substitute=yes`: reading the rule that way instead of as main-text moves optimal play by {} points and the reference by {} at stealth 10, the most of any ambiguity (by the larger of its two effects);",
            vec![
                signed(c.variant("finale-substitute=yes", OPT)),
                signed(c.variant("finale-substitute=yes", REF)),
            ],
        ),
        at(
            "reports/README.md",
            "Then `discovered-penalty=2` ({} / {}), `second-success=none` ({} / {}).",
            vec![
                signed(c.variant("discovered-penalty=2", OPT)),
                signed(c.variant("discovered-penalty=2", REF)),
                signed(c.variant("second-success=none", OPT)),
                signed(c.variant("second-success=none", REF)),
            ],
        ),
        at(
            "reports/README.md",
            "- **threshold**, the die a check needs to succeed: 5 → 6 moves optimal play {} and the reference {}; 5 → 4 moves optimal play {} and the reference {}.",
            vec![
                signed(c.lever("threshold=6", OPT)),
                signed(c.lever("threshold=6", REF)),
                signed(c.lever("threshold=4", OPT)),
                signed(c.lever("threshold=4", REF)),
            ],
        ),
        at(
            "reports/README.md",
            "- **finale-penalty 1 → 0** moves optimal play by {} points and the reference strategy by {}.",
            vec![
                signed(c.lever("finale-penalty=0", OPT)),
                signed(c.lever("finale-penalty=0", REF)),
            ],
        ),
        at(
            "reports/README.md",
            "- **team-size 4 → 3** moves the reference strategy by {} points and optimal play by {}.",
            vec![
                signed(c.lever("team-size=3", REF)),
                signed(c.lever("team-size=3", OPT)),
            ],
        ),
        at(
            "reports/README.md",
            "Under main-text it wins {} points more than the reference at stealth 10, and optimal play wins {}: the rules of thumb stay short of it by {} points at stealth 8, {} at 10 and {} at 12.",
            vec![
                pts(w("tuned", mt, 10) - w(REF, mt, 10), 1),
                pct(w(OPT, mt, 10), 1),
                pts(gap("tuned", mt, 8), 1),
                pts(gap("tuned", mt, 10), 1),
                pts(gap("tuned", mt, 12), 1),
            ],
        ),
        at(
            "reports/README.md",
            "Under clarified the best file is `tuned-clarified`, short of optimal play by {} points at stealth 8, {} at 10 and {} at 12.",
            vec![
                pts(gap("tuned-clarified", cl, 8), 1),
                pts(gap("tuned-clarified", cl, 10), 1),
                pts(gap("tuned-clarified", cl, 12), 1),
            ],
        ),
        at(
            "reports/README.md",
            "The biggest lever is **threshold** (the die a check needs to succeed): from 5 to 6 it moves optimal play from {} to {} ({} points) and the reference strategy by {} points.",
            vec![
                pct(w(OPT, mt, 10), 1),
                pct(c.lever_win("threshold=6", OPT), 1),
                signed(c.lever("threshold=6", OPT)),
                signed(c.lever("threshold=6", REF)),
            ],
        ),
        // strategies/README.md: the tuned files' largest gap at the headline stealths.
        at(
            "strategies/README.md",
            "They come within {} points of optimal play under `main-text` and {} under `clarified`;",
            vec![
                pts(
                    [8, 10, 12]
                        .map(|s| gap("tuned", mt, s))
                        .into_iter()
                        .fold(0.0, f64::max),
                    1,
                ),
                pts(
                    [8, 10, 12]
                        .map(|s| gap("tuned-clarified", cl, s))
                        .into_iter()
                        .fold(0.0, f64::max),
                    1,
                ),
            ],
        ),
        // docs/faq.md.
        at(
            "docs/faq.md",
            "Under the main-text rules at stealth 10, optimal play wins {} of games and the reference strategy {}.",
            vec![pct(w(OPT, mt, 10), 1), pct(w(REF, mt, 10), 1)],
        ),
        at(
            "docs/faq.md",
            "it enters the run with {} members on average",
            vec![team(OPT)],
        ),
        at(
            "docs/faq.md",
            "(`duo`) already wins {}.",
            vec![pct(w("duo", mt, 10), 1)],
        ),
        at(
            "docs/faq.md",
            "That costs it {} of its {} missing points",
            vec![
                pts(c.regret(REF, 10, "recruit-roller-or-stop"), 1),
                pts(reference_loss, 1),
            ],
        ),
        at(
            "docs/faq.md",
            "({} and {} points).",
            vec![
                pts(c.regret(REF, 10, "side-challenge"), 1),
                pts(c.regret(REF, 10, "first-aid"), 1),
            ],
        ),
        at(
            "docs/faq.md",
            "at stealth 10 the reference wins {} instead of {}, optimal play {} instead of {}.",
            vec![
                pct(w(REF, cl, 10), 1),
                pct(w(REF, mt, 10), 1),
                pct(w(OPT, cl, 10), 1),
                pct(w(OPT, mt, 10), 1),
            ],
        ),
        at(
            "docs/faq.md",
            "under `main-text`, optimal play is nearest 50% at stealth 7 ({}) and 8 ({}), the reference at {} ({}); under `clarified`, optimal play at 8 ({}) and 9 ({}), the reference at {} ({}).",
            vec![
                pct(w(OPT, mt, 7), 1),
                pct(w(OPT, mt, 8), 1),
                r_even.0.to_string(),
                pct(r_even.1, 1),
                pct(w(OPT, cl, 8), 1),
                pct(w(OPT, cl, 9), 1),
                c.even(REF, cl).0.to_string(),
                pct(c.even(REF, cl).1, 1),
            ],
        ),
        // docs/guide.md: the outputs it shows, at the digits they print.
        at(
            "docs/guide.md",
            "stealth 10: optimal {}, reference {}, regret {} points",
            vec![
                pct(w(OPT, mt, 10), 2),
                pct(w(REF, mt, 10), 2),
                pts(reference_loss, 2),
            ],
        ),
        at(
            "docs/guide.md",
            "reference exact {} regret",
            vec![c.exact_row(REF, mt, 10)["win_rate"].clone()],
        ),
        at(
            "docs/guide.md",
            "duo exact {} regret",
            vec![c.exact_row("duo", mt, 10)["win_rate"].clone()],
        ),
        at(
            "docs/guide.md",
            "optimal 10 optimal {} ",
            vec![pct(w(OPT, mt, 10), 2)],
        ),
        at(
            "docs/guide.md",
            "reference 10 exact {} ",
            vec![pct(w(REF, mt, 10), 2)],
        ),
        at(
            "docs/guide.md",
            "duo 10 exact {} ",
            vec![pct(w("duo", mt, 10), 2)],
        ),
        at(
            "docs/guide.md",
            "overall best ({}) is above any fixed one.",
            vec![pct(w(OPT, mt, 10), 1)],
        ),
        at(
            "docs/guide.md",
            "it enters the run with {} members on average, against the reference's 4.",
            vec![team(OPT)],
        ),
        // `explore --param run-challenges=4..8`: the printed game's row and its neighbours,
        // which levers.csv holds.
        at(
            "docs/guide.md",
            "5 {} {} ",
            vec![
                pct(c.lever_win("run-challenges=5", OPT), 2),
                pct(c.lever_win("run-challenges=5", REF), 2),
            ],
        ),
        at(
            "docs/guide.md",
            "6 {} {} {}",
            vec![
                pct(w(OPT, mt, 10), 2),
                pct(w(REF, mt, 10), 2),
                pct(w("duo", mt, 10), 2),
            ],
        ),
        at(
            "docs/guide.md",
            "7 {} {} ",
            vec![
                pct(c.lever_win("run-challenges=7", OPT), 2),
                pct(c.lever_win("run-challenges=7", REF), 2),
            ],
        ),
    ];
    // The Annulus figures: docs/annulus.md's table and the Annulus report's.
    for (rules, players) in [("normal", 1), ("normal", 2), ("normal", 3)] {
        let figures: Vec<String> = ["optimal", "planner", "naive"]
            .iter()
            .map(|s| pct(c.annulus(s, rules, players), 1))
            .collect();
        let mut cells = vec![players.to_string()];
        cells.extend(figures);
        out.push(at(
            "docs/annulus.md",
            "| normal | {} | {} | {} | {} |",
            cells,
        ));
    }
    for strategy in ["optimal", "naive", "planner"] {
        let cells = (1..=3)
            .map(|p| pct(c.annulus(strategy, "normal", p), 1))
            .collect();
        out.push(at(
            "reports/annulus/README.md",
            &format!("| {strategy} | {{}} | {{}} | {{}} |"),
            cells,
        ));
    }
    // The report's table of every strategy, and its ranking at stealth 10.
    let mut names: Vec<String> = c
        .win_rates
        .iter()
        .filter(|r| r["method"] == "exact" && r["rules"] == mt && r["stealth"] == "10")
        .map(|r| r["strategy"].clone())
        .collect();
    for name in names.iter().chain(["**optimal**".to_string()].iter()) {
        let strategy = name.trim_matches('*');
        let cells = [mt, cl]
            .iter()
            .flat_map(|r| [8, 10, 12].map(|s| pct(w(strategy, r, s), 1)))
            .collect();
        out.push(at(
            "reports/README.md",
            &format!("| {name} | {{}} | {{}} | {{}} | {{}} | {{}} | {{}} |"),
            cells,
        ));
    }
    names.sort_by(|a, b| w(b, mt, 10).total_cmp(&w(a, mt, 10)));
    let ranked: Vec<String> = names
        .iter()
        .map(|n| format!("`{n}` {}", pct(w(n, mt, 10), 1)))
        .collect();
    out.push(at(
        "reports/README.md",
        "Ranked: {}.",
        vec![ranked.join(", ")],
    ));
    out
}

/// Every figure listed in [`stated`] is in its document exactly as the CSVs give it.
#[test]
fn every_stated_figure_is_the_csvs() {
    let c = Csvs::load();
    let mut docs: HashMap<&str, String> = HashMap::new();
    let mut wrong = Vec::new();
    for s in stated(&c) {
        let text = docs.entry(s.doc).or_insert_with(|| flat(s.doc));
        let expected = s.expected();
        if !text.contains(&expected) {
            wrong.push(format!("{}: expected\n  {expected}", s.doc));
        }
    }
    assert!(
        wrong.is_empty(),
        "figures that differ from the CSVs:\n{}",
        wrong.join("\n")
    );
}

/// The measures the sentences name pick what the CSVs give: `finale-substitute` by the
/// larger of the two effects, `discovered-penalty` by optimal play alone, `threshold` the
/// biggest lever on optimal play, `tuned` the best bundled file of knobs (the rule cards,
/// knobs and rules, aside).
#[test]
fn the_named_extremes_are_the_csvs() {
    let c = Csvs::load();
    assert_eq!(
        Csvs::largest(&c.variants, |o, r| o.abs().max(r.abs())),
        "finale-substitute=yes"
    );
    assert_eq!(
        Csvs::largest(&c.variants, |o, _| o.abs()),
        "discovered-penalty=2"
    );
    assert_eq!(Csvs::largest(&c.levers, |o, _| o.abs()), "threshold=6");
    let best = c
        .win_rates
        .iter()
        .filter(|r| r["rules"] == "main-text" && r["stealth"] == "10" && r["method"] == "exact")
        .filter(|r| {
            raven::strategy::bundled(&r["strategy"])
                .is_none_or(|f| f.is_ok_and(|f| f.spec().card.is_empty()))
        })
        .max_by(|a, b| num(a, "win_rate").total_cmp(&num(b, "win_rate")))
        .unwrap();
    assert_eq!(best["strategy"], "tuned");
}

/// Every CSV under `reports/` and one of `raven compare`: each numeric column in one
/// notation, at most 12 significant digits, and no `p_value` of 0.
#[test]
fn csv_numbers_are_written_one_way() {
    let mut files: Vec<(String, String)> = Vec::new();
    for dir in ["reports", "reports/annulus"] {
        for entry in fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "csv") {
                files.push((
                    path.display().to_string(),
                    fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    let compared = Command::cargo_bin("raven")
        .unwrap()
        .args([
            "compare",
            "--strategy",
            "reference",
            "--strategy",
            "reckless",
            "--stealth",
            "0,10",
            "--games",
            "3000",
            "--out",
            "-",
        ])
        .output()
        .unwrap();
    assert!(compared.status.success());
    files.push((
        "raven compare".into(),
        String::from_utf8(compared.stdout).unwrap(),
    ));
    assert!(files.len() >= 9, "{}", files.len());
    let mut p_values = 0;
    for (name, text) in &files {
        let table = parse(text);
        for column in table[0].keys() {
            let cells: Vec<&str> = table.iter().map(|r| r[column].as_str()).collect();
            let numeric: Vec<&str> = cells.iter().copied().filter(|v| !v.is_empty()).collect();
            if numeric.is_empty() || numeric.iter().any(|v| v.parse::<f64>().is_err()) {
                continue;
            }
            let scientific = numeric.iter().filter(|v| v.contains(['e', 'E'])).count();
            assert!(
                scientific == 0 || scientific == numeric.len(),
                "{name} {column}: {scientific} of {} in scientific notation",
                numeric.len()
            );
            for v in &numeric {
                let mantissa = v.split(['e', 'E']).next().unwrap();
                let digits = mantissa
                    .chars()
                    .filter(char::is_ascii_digit)
                    .skip_while(|&d| d == '0')
                    .count();
                assert!(digits <= 12, "{name} {column}: {v} has {digits} digits");
            }
            if column == "p_value" {
                p_values += numeric.len();
                assert_eq!(
                    scientific,
                    numeric.len(),
                    "{name}: p_value in scientific notation"
                );
                for v in &numeric {
                    assert!(v.parse::<f64>().unwrap() > 0.0, "{name}: p_value {v}");
                }
            }
        }
    }
    assert!(p_values > 0, "some p_value checked");
    // `reckless` against the reference at stealth 10 over the report's games: a p-value below
    // the smallest double, written as the smallest double.
    let comparison =
        parse(&fs::read_to_string(root().join("reports/strategy-comparison.csv")).unwrap());
    assert!(
        comparison.iter().any(|r| r["p_value"] == "5e-324"),
        "a p-value below the smallest double is written 5e-324"
    );
}

/// The rows of `decisions.csv` and `win-rates.csv` that state the same win probability agree
/// to the last digit written.
#[test]
fn one_quantity_one_figure_across_the_csvs() {
    let c = Csvs::load();
    let mut checked = 0;
    for r in &c.decisions {
        let stealth: u8 = r["stealth"].parse().unwrap();
        let exact = c.exact_row(&r["strategy"], &r["rules"], stealth);
        let optimal = c.exact_row("optimal", &r["rules"], stealth);
        assert_eq!(r["exact"], exact["win_rate"], "{} {stealth}", r["strategy"]);
        assert_eq!(
            r["optimal"], optimal["win_rate"],
            "{} {stealth}",
            r["strategy"]
        );
        checked += 1;
    }
    for (file, rows) in [("rule-variants", &c.variants), ("levers", &c.levers)] {
        for r in rows.iter().filter(|r| r["variant"] == "default") {
            let stealth: u8 = r["stealth"].parse().unwrap();
            let exact = c.exact_row(&r["strategy"], &r["rules"], stealth);
            assert_eq!(r["win_rate"], exact["win_rate"], "{file} {}", r["strategy"]);
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}
