//! The ledger that ends `raven play` (every game): optimal play's win probability at the start,
//! what luck gave and took (the biggest swings named), what the decisions gave up (the
//! costliest named), and the result, as a sum that checks.

use raven_core::engine::generic::ledger::{Entry, Ledger};

use crate::report::table::{WIDTH, lines_within};

/// The swings and the costly decisions named, at most.
const NAMED: usize = 3;

/// One game's ledger as it is played, with each step in the game's words.
pub struct Keeper {
    ledger: Ledger,
    labels: Vec<String>,
}

impl Keeper {
    /// A ledger for a game whose start optimal play wins with probability `start`.
    pub fn new(start: f64) -> Keeper {
        Keeper {
            ledger: Ledger::new(start),
            labels: Vec::new(),
        }
    }

    /// Records a step (a chance point, or a decision) that leaves optimal play's win
    /// probability at `after`; `label` names it ("the roll for run challenge 4").
    pub fn record(&mut self, chance: bool, after: f64, label: String) {
        self.ledger.record(chance, after);
        self.labels.push(label);
    }

    /// The ledger's lines (each ending in a newline), for a finished game.
    ///
    /// Figures are points of win probability with one decimal. The start, the decisions and
    /// the result are each rounded once; luck is printed as the rest, so the printed sum
    /// checks (it is within 0.1 of luck rounded alone).
    pub fn text(&self) -> String {
        let l = &self.ledger;
        let points = |p: f64| (1000.0 * p).round() / 10.0;
        let (start, skill, result) = (points(l.start()), points(l.skill()), points(l.now()));
        let luck = ((result - start - skill) * 10.0).round() / 10.0;
        let named = |entries: &[Entry]| -> String {
            entries
                .iter()
                .map(|e| {
                    let change = signed_width(100.0 * e.change());
                    let mut lines = lines_within(&self.labels[e.step], |l| {
                        l.chars().count() <= WIDTH - LABEL_AT
                    })
                    .into_iter();
                    let mut text = format!("    {change}  {}\n", lines.next().unwrap_or_default());
                    for line in lines {
                        text += &format!("{:LABEL_AT$}{line}\n", "");
                    }
                    text
                })
                .collect()
        };
        let mut text = String::from("Ledger (optimal play's win probability, in points):\n");
        text += &format!("  at the start {start:>6.1}\n");
        let swings = l.swings(NAMED);
        let biggest = if swings.is_empty() {
            ""
        } else {
            ", the biggest swings:"
        };
        text += &format!("  luck         {}{biggest}\n", signed_width(luck));
        text += &named(&swings);
        let costliest = l.costliest(NAMED);
        let costliest_text = if costliest.is_empty() {
            ", no decision gave up anything"
        } else {
            ", the costliest:"
        };
        text += &format!("  decisions    {}{costliest_text}\n", signed_width(skill));
        text += &named(&costliest);
        text += &format!(
            "  result       {result:>6.1}  = {start:.1} {} luck {} decisions\n",
            with_sign(luck),
            with_sign(skill)
        );
        text
    }
}

/// The column the ledger's names start at.
const LABEL_AT: usize = 12;

/// `x` points with its sign and one decimal: `+12.3`, `-4.0`.
fn signed(x: f64) -> String {
    let r = (10.0 * x).round() / 10.0;
    if r < 0.0 {
        format!("-{:.1}", -r)
    } else {
        format!("+{r:.1}")
    }
}

/// [`signed`], right-aligned in six columns.
fn signed_width(x: f64) -> String {
    format!("{:>6}", signed(x))
}

/// `x` as a term of a sum: `+ 12.3`, `- 4.0`.
fn with_sign(x: f64) -> String {
    if x < 0.0 {
        format!("- {:.1}", -x)
    } else {
        format!("+ {x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long name is broken between words so that the ledger fits 100 columns.
    #[test]
    fn long_names_wrap_within_the_width() {
        let mut k = Keeper::new(0.5);
        let long = "word ".repeat(40);
        k.record(false, 0.25, long.trim_end().to_string());
        let text = k.text();
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        assert_eq!(text.matches("word").count(), 40, "{text}");
    }

    /// The printed sum checks: start + luck + decisions = result, to the printed digit.
    #[test]
    fn the_printed_sum_checks() {
        let mut k = Keeper::new(0.72914);
        k.record(true, 0.5513, "the first roll".into());
        k.record(false, 0.53, "a choice".into());
        k.record(true, 0.0, "the last roll".into());
        let text = k.text();
        let last = text.lines().last().unwrap();
        assert!(
            last.contains("= 72.9 - 70.8 luck - 2.1 decisions"),
            "{text}"
        );
        assert!(last.contains(" 0.0 "), "{text}");
        assert!(text.contains(" -53.0  the last roll\n"), "{text}");
        assert!(
            text.contains("costliest:\n      -2.1  a choice\n"),
            "{text}"
        );
    }
}
