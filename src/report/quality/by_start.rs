//! "Is it a good game?" by how a game started: each row's sampled games split by the main
//! character chosen and by the complication deal ([`raven_core::quality::Group`]), written as
//! `quality-by-start.csv` and read in sentences from those same rows, where the groups differ
//! by more than their intervals.

use std::fmt::Write as _;

use serde::Serialize;

use crate::engine::generic::quality::{Interval, Sampled};
use crate::game::Character;
use raven_core::quality::{Deal, Group};
use raven_core::rows::VERSION;

use super::rows::Of;
use crate::report::ties::and;

/// Groups with fewer sampled games than this are left out of the sentences: below a thousand
/// games a rate's 95% interval is several points wide either way, so such a group would read
/// as a tie with everything (or, by chance, as the most or the least) whatever the game does.
/// The CSV keeps every group.
pub const MIN_GAMES: u64 = 1000;

/// The sampled figures of one group of one row (strategy, stealth): the columns of
/// `quality.csv` where the figure is the same, the win rate sampled, with its interval.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ByStartRow {
    game: &'static str,
    /// The strategy.
    pub strategy: String,
    rules: String,
    /// The starting stealth.
    pub stealth: u8,
    /// What the games are grouped by: `main-character` or `complications`.
    pub by: &'static str,
    /// The group: the main character's speciality, or the deal ([`Deal::key`]).
    pub group: &'static str,
    /// The group's sampled games.
    pub games: u64,
    /// Those won.
    pub wins: u64,
    /// The share won, with its 95% interval.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate_high: f64,
    /// The share of the spread of results the dice explain.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub luck_share: f64,
    /// How far `μ` moves per step (root mean square), with its interval.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub suspense: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub suspense_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub suspense_high: f64,
    /// Wins where `μ` fell to 20% or lower on the way, with its interval.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub comeback_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub comeback_rate_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub comeback_rate_high: f64,
    /// Losses where `μ` rose to 80% or higher on the way, with its interval.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub heartbreak_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub heartbreak_rate_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    pub heartbreak_rate_high: f64,
    seed: u64,
    raven_version: &'static str,
}

impl ByStartRow {
    /// The row of group `group`'s games `s`, of a row (`of`: Purple Raven's, at a stealth)
    /// sampled under `seed`.
    pub fn new(group: Group, s: &Sampled, of: &Of<'_>, stealth: u8, seed: u64) -> Self {
        let (w, v, c, h) = (
            s.win_rate(),
            s.suspense_interval(),
            s.comeback_rate(),
            s.heartbreak_rate(),
        );
        ByStartRow {
            game: of.game,
            strategy: of.strategy.to_string(),
            rules: of.rules.clone(),
            stealth,
            by: group.kind(),
            group: group.key(),
            games: s.games,
            wins: s.wins,
            win_rate: w.value,
            win_rate_low: w.low,
            win_rate_high: w.high,
            luck_share: s.luck_share(),
            suspense: v.value,
            suspense_low: v.low,
            suspense_high: v.high,
            comeback_rate: c.value,
            comeback_rate_low: c.low,
            comeback_rate_high: c.high,
            heartbreak_rate: h.value,
            heartbreak_rate_low: h.low,
            heartbreak_rate_high: h.high,
            seed,
            raven_version: VERSION,
        }
    }

    /// The group in words: the main character by name and speciality, the deal by what it
    /// deals.
    fn words(&self) -> String {
        match Deal::ALL.iter().find(|d| d.key() == self.group) {
            Some(d) if self.by == Group::Deal(*d).kind() => d.words().to_string(),
            _ => Character::parse(self.group).map_or(self.group.to_string(), |c| c.to_string()),
        }
    }
}

/// A figure the sentences compare across groups: how it is named, its interval in a row, and
/// how a value prints.
struct Figure {
    name: &'static str,
    of: fn(&ByStartRow) -> Interval,
    shown: fn(f64) -> String,
    /// What follows a value, or the last of two.
    unit: &'static str,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

const FIGURES: [Figure; 3] = [
    Figure {
        name: "the win rate",
        of: |r| Interval {
            value: r.win_rate,
            low: r.win_rate_low,
            high: r.win_rate_high,
        },
        shown: pct,
        unit: "",
    },
    Figure {
        name: "suspense",
        of: |r| Interval {
            value: r.suspense,
            low: r.suspense_low,
            high: r.suspense_high,
        },
        shown: |x| format!("{:.1}", 100.0 * x),
        unit: " points a step",
    },
    Figure {
        name: "the comeback rate",
        of: |r| Interval {
            value: r.comeback_rate,
            low: r.comeback_rate_low,
            high: r.comeback_rate_high,
        },
        shown: pct,
        unit: "",
    },
];

/// Whether two intervals overlap: the groups they belong to are a tie.
fn overlap(a: Interval, b: Interval) -> bool {
    a.low <= b.high && b.low <= a.high
}

/// How `figure` reads across `groups` (at least two): "highest with A at x and lowest with B
/// at y", the groups whose intervals overlap the highest's (the lowest's) named with it as a
/// tie, those that overlap both left out as in between; "a tie (y to x)" where the highest's
/// interval overlaps the lowest's.
fn compare(groups: &[&ByStartRow], figure: &Figure) -> String {
    let mut ranked: Vec<(&ByStartRow, Interval)> =
        groups.iter().map(|r| (*r, (figure.of)(r))).collect();
    ranked.sort_by(|a, b| b.1.value.total_cmp(&a.1.value));
    let (top, bottom) = (ranked[0].1, ranked[ranked.len() - 1].1);
    let range = |low: f64, high: f64| {
        format!(
            "{} to {}{}",
            (figure.shown)(low),
            (figure.shown)(high),
            figure.unit
        )
    };
    if overlap(top, bottom) {
        return format!(
            "{} is a tie ({})",
            figure.name,
            range(bottom.value, top.value)
        );
    }
    let named = |these: Vec<&(&ByStartRow, Interval)>| match these.as_slice() {
        [(r, i)] => format!(
            "{} at {}{}",
            r.words(),
            (figure.shown)(i.value),
            figure.unit
        ),
        _ => {
            let names: Vec<String> = these.iter().map(|(r, _)| r.words()).collect();
            let values = these.iter().map(|(_, i)| i.value);
            let (low, high) = (
                values.clone().fold(f64::MAX, f64::min),
                values.fold(f64::MIN, f64::max),
            );
            format!("{}, tied at {}", and(&names), range(low, high))
        }
    };
    let near = |of: Interval, other: Interval| {
        move |x: &&(&ByStartRow, Interval)| overlap(x.1, of) && !overlap(x.1, other)
    };
    let highest = named(ranked.iter().filter(near(top, bottom)).collect());
    let lowest = named(ranked.iter().rev().filter(near(bottom, top)).collect());
    // A tie at the top is set off from what follows.
    let comma = if highest.contains(", tied at ") {
        ","
    } else {
        ""
    };
    format!(
        "{} is highest with {highest}{comma} and lowest with {lowest}",
        figure.name
    )
}

/// How the groups of one kind (`by`) read: the figures compared across the groups of at least
/// [`MIN_GAMES`] games, or why they cannot be.
fn kind(rows: &[&ByStartRow], by: &str, title: &str) -> Option<String> {
    let all: Vec<&ByStartRow> = rows.iter().copied().filter(|r| r.by == by).collect();
    let enough: Vec<&ByStartRow> = all
        .iter()
        .copied()
        .filter(|r| r.games >= MIN_GAMES)
        .collect();
    let text = match (all.as_slice(), enough.as_slice()) {
        ([], _) => return None,
        ([one], _) if by == "main-character" => {
            format!("every game has {} as main character", one.words())
        }
        ([one], _) => format!("every game has {}", one.words()),
        (_, [] | [_]) => format!(
            "{} of its {} groups {} {MIN_GAMES} games or more, too few to compare",
            enough.len(),
            all.len(),
            if enough.len() == 1 { "has" } else { "have" }
        ),
        _ => FIGURES
            .iter()
            .map(|f| compare(&enough, f))
            .collect::<Vec<_>>()
            .join("; "),
    };
    Some(format!("{title}: {text}."))
}

/// The paragraph on `who`'s (the player `strategy`'s) games at stealth `stealth` by main
/// character and by complication deal, read from `rows` (`quality-by-start.csv`'s); none
/// when the rows hold none of its games.
pub fn paragraph(rows: &[ByStartRow], strategy: &str, who: &str, stealth: u8) -> Option<String> {
    let these: Vec<&ByStartRow> = rows
        .iter()
        .filter(|r| r.strategy == strategy && r.stealth == stealth)
        .collect();
    let parts: Vec<String> = [
        ("main-character", "By main character"),
        ("complications", "By complication deal"),
    ]
    .iter()
    .filter_map(|(by, title)| kind(&these, by, title))
    .collect();
    if parts.is_empty() {
        return None;
    }
    let mut text = format!(
        "**By main character and complication deal.** At stealth {stealth}, the sampled games \
         of {who} are split by the main character chosen and by the complication deal (the \
         most characters dealt one complication); a group of fewer than {MIN_GAMES} games is \
         left out, and two groups whose 95% intervals overlap are a tie \
         (`quality-by-start.csv` holds every group of every player and headline stealth)."
    );
    for p in parts {
        let _ = write!(text, " {p}");
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::quality::rows::Axis;

    /// A group's row with `games` games, `wins` won and `comebacks` of them comebacks, and a
    /// suspense of `suspense` ± `spread`.
    fn row(group: Group, games: u64, wins: u64, comebacks: u64, suspense: [f64; 2]) -> ByStartRow {
        let of = Of {
            game: "purple-raven",
            strategy: "tuned",
            rules: "main-text".into(),
            axis: Axis::Stealth(10),
        };
        let mut r = ByStartRow::new(group, &Sampled::default(), &of, 10, 1);
        r.games = games;
        r.wins = wins;
        let w = Interval::share((wins, games));
        (r.win_rate, r.win_rate_low, r.win_rate_high) = (w.value, w.low, w.high);
        let c = Interval::share((comebacks, wins));
        (r.comeback_rate, r.comeback_rate_low, r.comeback_rate_high) = (c.value, c.low, c.high);
        let [s, spread] = suspense;
        (r.suspense, r.suspense_low, r.suspense_high) = (s, s - spread, s + spread);
        r
    }

    const HACKER: Group = Group::Main(Character::Hacker);
    const MEDIC: Group = Group::Main(Character::Medic);
    const SPY: Group = Group::Main(Character::Spy);

    fn said(rows: &[ByStartRow]) -> String {
        paragraph(rows, "tuned", "`tuned`", 10).expect("a paragraph")
    }

    #[test]
    fn a_group_that_clearly_differs_reads_so_and_overlapping_ones_read_as_a_tie() {
        // The Medic clearly wins more and has more comebacks; suspense overlaps.
        let rows = [
            row(HACKER, 20_000, 12_000, 600, [0.050, 0.001]),
            row(MEDIC, 20_000, 15_000, 1_500, [0.051, 0.001]),
        ];
        let text = said(&rows);
        assert!(
            text.contains(
                "By main character: the win rate is highest with Dix (medic) at 75.0% and lowest \
                 with Bunny (hacker) at 60.0%; suspense is a tie (5.0 to 5.1 points a step); the \
                 comeback rate is highest with Dix (medic) at 10.0% and lowest with Bunny \
                 (hacker) at 5.0%."
            ),
            "{text}"
        );
        // The same groups with figures that all overlap read as ties.
        let rows = [
            row(HACKER, 20_000, 15_000, 1_480, [0.050, 0.001]),
            row(MEDIC, 20_000, 15_050, 1_500, [0.060, 0.001]),
        ];
        let text = said(&rows);
        assert!(
            text.contains(
                "By main character: the win rate is a tie (75.0% to 75.2%); suspense is \
                 highest with Dix (medic) at 6.0 points a step and lowest with Bunny (hacker) \
                 at 5.0 points a step; the comeback rate is a tie (9.9% to 10.0%)."
            ),
            "{text}"
        );
    }

    #[test]
    fn groups_tied_with_the_highest_are_named_with_it() {
        let rows = [
            row(HACKER, 20_000, 12_000, 600, [0.05, 0.001]),
            row(SPY, 20_000, 15_000, 1_500, [0.05, 0.001]),
            row(MEDIC, 20_000, 15_020, 1_500, [0.05, 0.001]),
        ];
        let text = said(&rows);
        assert!(
            text.contains(
                "the win rate is highest with Dix (medic) and Ink (spy), tied at 75.0% to \
                 75.1%, and lowest with Bunny (hacker) at 60.0%"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_group_tied_with_both_ends_is_left_between_them() {
        // Ink's suspense overlaps Dix's and Bunny's; theirs do not overlap.
        let rows = [
            row(HACKER, 20_000, 15_000, 1_500, [0.050, 0.003]),
            row(SPY, 20_000, 15_000, 1_500, [0.055, 0.003]),
            row(MEDIC, 20_000, 15_000, 1_500, [0.060, 0.003]),
        ];
        let text = said(&rows);
        assert!(
            text.contains(
                "; suspense is highest with Dix (medic) at 6.0 points a step and lowest with \
                 Bunny (hacker) at 5.0 points a step;"
            ),
            "{text}"
        );
    }

    #[test]
    fn small_groups_are_left_out_and_a_single_group_is_named() {
        // The Medic's group is too small to say anything, however far its figures.
        let rows = [
            row(HACKER, 20_000, 12_000, 600, [0.05, 0.001]),
            row(SPY, 20_000, 15_000, 1_500, [0.06, 0.001]),
            row(MEDIC, MIN_GAMES - 1, 10, 0, [0.5, 0.001]),
        ];
        let text = said(&rows);
        assert!(!text.contains("Dix"), "{text}");
        assert!(text.contains("highest with Ink (spy) at 75.0%"), "{text}");
        let rows = [
            row(HACKER, 20_000, 12_000, 600, [0.05, 0.001]),
            row(MEDIC, MIN_GAMES - 1, 10, 0, [0.5, 0.001]),
        ];
        let text = said(&rows);
        assert!(
            text.contains(&format!(
                "By main character: 1 of its 2 groups has {MIN_GAMES} games or more, too few \
                 to compare."
            )),
            "{text}"
        );
        let rows = [
            row(HACKER, 20_000, 12_000, 600, [0.05, 0.001]),
            row(
                Group::Deal(Deal::TwoAlike),
                20_000,
                12_000,
                600,
                [0.05, 0.001],
            ),
        ];
        let text = said(&rows);
        assert!(
            text.contains("By main character: every game has Bunny (hacker) as main character."),
            "{text}"
        );
        assert!(
            text.contains(
                "By complication deal: every game has at most two characters sharing a \
                 complication."
            ),
            "{text}"
        );
        assert_eq!(paragraph(&rows, "reference", "the reference", 10), None);
    }
}
