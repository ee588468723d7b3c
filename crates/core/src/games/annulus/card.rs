//! Rules of thumb for Annulus strategy files: a `[rules]` section whose `adjust` list holds
//! ordered rules `when CONDITIONS -> PLAY`, over what the players see at the table; the first
//! whose conditions all hold says how to pick the next adjustment, the file's knobs where none
//! does.
//!
//! ```toml
//! [rules]
//! adjust = [
//!   "when hidden >= 2 and conflicts = 1 -> first-conflict",
//!   "when jammed = 1..2 -> nearest-solved closest",
//! ]
//! ```

use std::fmt;

pub use super::play::Play;
use super::play::{Aim, Order};
use super::{Annulus, MAX_DICE, Pos};

/// What a rule reads of a position: what the players see at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// Positions still hidden (A1, A3).
    Hidden,
    /// Dice on the table.
    Visible,
    /// Neighbouring pairs that do not differ by exactly 1 (A2).
    Conflicts,
    /// Jammed dice (A4).
    Jammed,
    /// The fewest successful adjustments to a solved chain, the jammed dice kept.
    Away,
    /// Adjustments tried so far (A6 variant: under an action limit; 0 otherwise).
    Tried,
}

impl Fact {
    /// Every fact, in the order a rule states them.
    pub const ALL: [Fact; 6] = [
        Fact::Hidden,
        Fact::Visible,
        Fact::Conflicts,
        Fact::Jammed,
        Fact::Away,
        Fact::Tried,
    ];

    /// The fact as a rule spells it.
    pub fn key(self) -> &'static str {
        match self {
            Fact::Hidden => "hidden",
            Fact::Visible => "visible",
            Fact::Conflicts => "conflicts",
            Fact::Jammed => "jammed",
            Fact::Away => "away",
            Fact::Tried => "tried",
        }
    }

    /// The largest value the fact can take.
    pub fn most(self) -> u8 {
        match self {
            Fact::Hidden | Fact::Visible | Fact::Jammed => MAX_DICE as u8,
            Fact::Conflicts => MAX_DICE as u8 - 1,
            // Every free die at most 11 steps from its number.
            Fact::Away => 11 * MAX_DICE as u8,
            Fact::Tried => u8::MAX,
        }
    }

    /// Its value at decision point `pos`.
    pub fn of(self, game: &Annulus, pos: &Pos) -> u8 {
        match self {
            Fact::Hidden => pos.hidden(),
            Fact::Visible => pos.len() as u8,
            Fact::Conflicts => (1..pos.len())
                .filter(|&i| game.distance(pos.value(i - 1), pos.value(i)) != 1)
                .count() as u8,
            Fact::Jammed => (0..pos.len()).filter(|&i| pos.jammed(i)).count() as u8,
            Fact::Away => {
                let aim = super::play::nearest_solved(game, pos);
                (0..pos.len())
                    .map(|i| game.distance(pos.value(i), aim[i]))
                    .sum()
            }
            Fact::Tried => pos.tried(),
        }
    }
}

/// A condition: a fact within a range (both ends included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    /// What it reads.
    pub fact: Fact,
    /// The least value that holds.
    pub low: u8,
    /// The greatest.
    pub high: u8,
}

/// A rule of thumb: where every condition holds, this play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The conditions, all of which must hold (none: always).
    pub when: Vec<Condition>,
    /// The play.
    pub then: Play,
}

impl Rule {
    /// Whether every condition holds at decision point `pos`.
    pub fn holds(&self, game: &Annulus, pos: &Pos) -> bool {
        self.when.iter().all(|c| {
            let v = c.fact.of(game, pos);
            (c.low..=c.high).contains(&v)
        })
    }

    /// Whether every position where `other` holds, this rule holds too.
    pub fn covers(&self, other: &Rule) -> bool {
        self.when.iter().all(|c| {
            other
                .when
                .iter()
                .any(|o| o.fact == c.fact && c.low <= o.low && o.high <= c.high)
        })
    }

    /// The rule as a sentence for a person.
    pub fn sentence(&self) -> String {
        let what = match self.then.aim {
            Aim::FirstConflict => {
                "mend the first pair of neighbours that does not differ by 1".to_string()
            }
            Aim::NearestSolved => format!(
                "aim for the nearest solved chain and move the die with {} first",
                match self.then.order {
                    Order::Furthest => "furthest to go",
                    Order::Closest => "least way to go",
                    Order::Leftmost => "to move furthest left",
                }
            ),
        };
        if self.when.is_empty() {
            return format!("Always {what}.");
        }
        let when: Vec<String> = self
            .when
            .iter()
            .map(|c| {
                let name = match c.fact {
                    Fact::Hidden => "positions hidden",
                    Fact::Visible => "dice on the table",
                    Fact::Conflicts => "pairs not differing by 1",
                    Fact::Jammed => "jammed dice",
                    Fact::Away => "adjustments from a solved chain",
                    Fact::Tried => "adjustments tried",
                };
                format!("{name}: {}", range(c.low, c.high, c.fact.most()))
            })
            .collect();
        format!("When {}: {what}.", when.join(", "))
    }
}

/// A range as a person reads it.
fn range(low: u8, high: u8, most: u8) -> String {
    match (low, high) {
        (l, h) if l == h => format!("{l}"),
        (0, h) => format!("at most {h}"),
        (l, h) if h == most => format!("at least {l}"),
        (l, h) => format!("{l} to {h}"),
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.when.is_empty() {
            let parts: Vec<String> = self
                .when
                .iter()
                .map(|c| {
                    let (k, l, h) = (c.fact.key(), c.low, c.high);
                    match (l, h) {
                        _ if l == h => format!("{k} = {l}"),
                        (0, h) => format!("{k} <= {h}"),
                        (l, h) if h == c.fact.most() => format!("{k} >= {l}"),
                        (l, h) => format!("{k} = {l}..{h}"),
                    }
                })
                .collect();
            write!(f, "when {} ", parts.join(" and "))?;
        }
        write!(f, "-> {}", self.then)
    }
}

/// A rule that could not be read: what is wrong, and the byte of the rule's text where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The message.
    pub message: String,
    /// Where in the rule's text.
    pub at: usize,
}

fn fail<T>(message: String, at: usize) -> Result<T, Failure> {
    Err(Failure { message, at })
}

/// Reads one rule: `[when FACT OP VALUE [and …]] -> PLAY`, `OP` one of `=`, `<`, `<=`, `>`,
/// `>=`, a value a number or (after `=`) a range `A..B`; `PLAY` `first-conflict` or
/// `nearest-solved furthest|closest|leftmost`.
pub fn parse_rule(text: &str) -> Result<Rule, Failure> {
    let Some(arrow) = text.find("->") else {
        return fail(
            "a rule needs `-> PLAY` (e.g. `-> first-conflict`)".into(),
            0,
        );
    };
    let (head, tail) = (&text[..arrow], &text[arrow + 2..]);
    let then = parse_play(tail, arrow + 2)?;
    let mut when = Vec::new();
    let trimmed = head.trim_start();
    let mut offset = head.len() - trimmed.len();
    if !trimmed.trim().is_empty() {
        let Some(rest) = trimmed.strip_prefix("when ") else {
            return fail("conditions start with `when`".into(), offset);
        };
        offset += 5;
        for part in rest.split(" and ") {
            let lead = part.len() - part.trim_start().len();
            let condition = parse_condition(part.trim(), offset + lead)?;
            if when.iter().any(|c: &Condition| c.fact == condition.fact) {
                return fail(
                    format!("`{}` is named twice: state it once", condition.fact.key()),
                    offset + lead,
                );
            }
            when.push(condition);
            offset += part.len() + 5;
        }
    }
    Ok(Rule { when, then })
}

fn parse_play(text: &str, at: usize) -> Result<Play, Failure> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = at + (text.len() - text.trim_start().len());
    let aim = match words.first() {
        Some(&"first-conflict") if words.len() == 1 => Aim::FirstConflict,
        Some(&"nearest-solved") if words.len() <= 2 => Aim::NearestSolved,
        _ => {
            return fail(
                format!(
                    "unknown play `{}` (allowed: first-conflict, nearest-solved furthest|closest|leftmost)",
                    text.trim()
                ),
                at,
            );
        }
    };
    let order = match words.get(1) {
        None => Order::Furthest,
        Some(w) => match Order::ALL.iter().find(|o| o.key() == *w) {
            Some(&o) => o,
            None => {
                return fail(
                    format!("unknown order `{w}` (allowed: furthest, closest, leftmost)"),
                    at,
                );
            }
        },
    };
    Ok(Play { aim, order })
}

fn parse_condition(text: &str, at: usize) -> Result<Condition, Failure> {
    let op_at = text.find(['=', '<', '>', '!']);
    let Some(op_at) = op_at else {
        return fail(format!("`{text}`: a condition is `FACT OP VALUE`"), at);
    };
    let name = text[..op_at].trim();
    let Some(fact) = Fact::ALL.into_iter().find(|f| f.key() == name) else {
        return fail(
            format!(
                "unknown fact `{name}` (allowed: {})",
                Fact::ALL.map(Fact::key).join(", ")
            ),
            at,
        );
    };
    let rest = &text[op_at..];
    let (op, value) = ["<=", ">=", "=", "<", ">"]
        .iter()
        .find_map(|op| rest.strip_prefix(op).map(|v| (*op, v.trim())))
        .ok_or(Failure {
            message: format!("`{rest}`: compare with =, <, <=, > or >="),
            at: at + op_at,
        })?;
    let number = |w: &str| -> Result<u8, Failure> {
        w.trim()
            .parse::<u8>()
            .ok()
            .filter(|&v| v <= fact.most())
            .ok_or(Failure {
                message: format!("`{w}`: {} takes 0..={}", fact.key(), fact.most()),
                at: at + op_at,
            })
    };
    let (low, high) = match op {
        "=" => match value.split_once("..") {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let v = number(value)?;
                (v, v)
            }
        },
        "<=" => (0, number(value)?),
        ">=" => (number(value)?, fact.most()),
        "<" => match number(value)?.checked_sub(1) {
            Some(h) => (0, h),
            None => (1, 0),
        },
        _ => match number(value)?.checked_add(1) {
            Some(l) if l <= fact.most() => (l, fact.most()),
            _ => (1, 0),
        },
    };
    if low > high {
        return fail(format!("`{text}` can never hold"), at);
    }
    Ok(Condition { fact, low, high })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::annulus::rules::Rules;

    #[test]
    fn rules_read_back_as_written() {
        for text in [
            "-> first-conflict",
            "when hidden >= 2 and conflicts = 1 -> first-conflict",
            "when jammed = 1..2 -> nearest-solved closest",
            "when away <= 3 and tried = 1 -> nearest-solved leftmost",
            "when visible = 4 -> nearest-solved furthest",
        ] {
            let rule = parse_rule(text).unwrap();
            assert_eq!(parse_rule(&rule.to_string()).unwrap(), rule, "{text}");
        }
        let r = parse_rule("when hidden < 2 -> nearest-solved").unwrap();
        assert_eq!(
            r.when[0],
            Condition {
                fact: Fact::Hidden,
                low: 0,
                high: 1
            }
        );
        assert_eq!(r.then.order, Order::Furthest);
    }

    #[test]
    fn bad_rules_say_what_and_where() {
        for (text, at, says) in [
            ("when hidden = 2", 0, "-> PLAY"),
            ("when colour = 2 -> first-conflict", 5, "unknown fact"),
            ("when hidden = 9 -> first-conflict", 12, "0..=6"),
            ("when hidden < 0 -> first-conflict", 5, "never hold"),
            ("when hidden = 1 -> dance", 19, "unknown play"),
            (
                "when hidden = 1 -> nearest-solved fast",
                19,
                "unknown order",
            ),
            ("if hidden = 1 -> first-conflict", 0, "`when`"),
            (
                "when hidden = 1 and hidden = 2 -> first-conflict",
                20,
                "twice",
            ),
        ] {
            let e = parse_rule(text).unwrap_err();
            assert!(e.message.contains(says), "{text}: {}", e.message);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }

    /// Each fact read where it should be, so a rule on it matches there and nowhere else.
    #[test]
    fn every_fact_reads_the_position() {
        let game = Annulus::new(Rules::preset("normal").unwrap());
        // 3, 5 (jammed), 6, 9: two pairs not differing by 1, one jammed, one hidden.
        let pos = Pos::at(&[(3, false), (5, true), (6, false), (9, false)], 1);
        assert_eq!(Fact::Hidden.of(&game, &pos), 1);
        assert_eq!(Fact::Visible.of(&game, &pos), 4);
        assert_eq!(Fact::Conflicts.of(&game, &pos), 2);
        assert_eq!(Fact::Jammed.of(&game, &pos), 1);
        // 4, 5, 6, 7: one step for the first die, two for the last.
        assert_eq!(Fact::Away.of(&game, &pos), 3);
        assert_eq!(Fact::Tried.of(&game, &pos), 0);
        for (fact, value) in [
            (Fact::Hidden, 1),
            (Fact::Visible, 4),
            (Fact::Conflicts, 2),
            (Fact::Jammed, 1),
            (Fact::Away, 3),
            (Fact::Tried, 0),
        ] {
            let rule = |low, high| Rule {
                when: vec![Condition { fact, low, high }],
                then: Play::all()[0],
            };
            assert!(rule(value, value).holds(&game, &pos), "{fact:?}");
            assert!(!rule(value + 1, fact.most()).holds(&game, &pos), "{fact:?}");
        }
    }
}
