//! Annulus strategies a person can follow: which chain to aim for and which die to move first,
//! as knobs of a strategy file (`game = "annulus"`, strategies/README.md), and the bundled ones.

use serde::Deserialize;
use toml::Spanned;

use super::card::{Rule, parse_rule};
use super::play::Play;
pub use super::play::{Aim, Order};
use super::{Annulus, Move, Pos};
use crate::games::Policy;

/// An Annulus strategy file's knobs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Knobs {
    /// Always `"annulus"`: the game the file is for.
    pub game: String,
    /// The strategy's name in outputs.
    pub name: String,
    /// What to aim for.
    pub aim: Aim,
    /// Which die first (for `aim = "nearest-solved"`).
    #[serde(default = "furthest")]
    pub order: Order,
    /// Rules of thumb, as written ([`super::card`]).
    #[serde(default)]
    rules: Option<RulesSection>,
    /// The rules of thumb read before the knobs, first match deciding.
    #[serde(skip)]
    pub card: Vec<Rule>,
    /// Rules an earlier one shadows entirely, as warnings naming both lines.
    #[serde(skip)]
    warnings: Vec<String>,
}

/// A file's `[rules]` section: the rules per kind of decision (Annulus has one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesSection {
    #[serde(default)]
    adjust: Vec<Spanned<String>>,
}

fn furthest() -> Order {
    Order::Furthest
}

/// The bundled Annulus strategy files: `(name, text)`.
pub const BUNDLED: [(&str, &str); 3] = [
    (
        "naive",
        include_str!("../../../../../strategies/annulus/naive.toml"),
    ),
    (
        "planner",
        include_str!("../../../../../strategies/annulus/planner.toml"),
    ),
    (
        "closest-first",
        include_str!("../../../../../strategies/annulus/closest-first.toml"),
    ),
];

/// What a bundled strategy file does, from its opening comment lines.
pub fn about(source: &str) -> String {
    source
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A strategy file that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct KnobsError(pub String);

impl Knobs {
    /// Reads a strategy file's text; `origin` names it in errors.
    pub fn parse(origin: &str, text: &str) -> Result<Knobs, KnobsError> {
        let knobs: Knobs = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|s| {
                    let (line, col) = crate::text::line_col(text, s.start);
                    format!(":{line}:{col}")
                })
                .unwrap_or_default();
            KnobsError(format!("{origin}{at}: {}", e.message()))
        })?;
        if knobs.game != "annulus" {
            return Err(KnobsError(format!(
                "{origin}: a strategy file for the game '{}', not for annulus",
                knobs.game
            )));
        }
        let mut knobs = knobs;
        let written = knobs.rules.take().unwrap_or_default();
        let mut lines = Vec::new();
        for rule in &written.adjust {
            let (span, rule_text) = (rule.span(), rule.get_ref());
            // The rule's text starts one past the opening quote, unless escapes moved it.
            let inner = span.start + 1;
            let plain = text.get(inner..inner + rule_text.len()) == Some(rule_text.as_str());
            let at = |offset: usize| if plain { inner + offset } else { span.start };
            let parsed = parse_rule(rule_text).map_err(|e| {
                KnobsError(crate::text::located(origin, text, at(e.at), &e.message))
            })?;
            let (line, _) = crate::text::line_col(text, span.start);
            if let Some(i) = knobs.card.iter().position(|e| e.covers(&parsed)) {
                knobs.warnings.push(format!(
                    "{origin}:{line}: warning: this adjust rule can never decide: the rule on \
                     line {} matches wherever it does (`{}`)",
                    lines[i],
                    crate::text::shorten(rule_text, crate::text::EXCERPT_CHARS)
                ));
            }
            lines.push(line);
            knobs.card.push(parsed);
        }
        Ok(knobs)
    }

    /// What `raven strategies check` warns of: rules an earlier one shadows entirely.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// These knobs with `card` as their rules of thumb, named `name`.
    pub fn with_card(&self, card: Vec<Rule>, name: &str) -> Knobs {
        Knobs {
            name: name.to_string(),
            card,
            warnings: Vec::new(),
            ..self.clone()
        }
    }

    /// Every distinct strategy the knobs express, named by their values: `order` counts only
    /// when aiming for the nearest solved chain.
    pub fn grid() -> Vec<Knobs> {
        let file = |aim: Aim, order: Order, name: String| Knobs {
            game: "annulus".into(),
            name,
            aim,
            order,
            rules: None,
            card: Vec::new(),
            warnings: Vec::new(),
        };
        let mut grid = Vec::new();
        for aim in Aim::ALL {
            match aim {
                Aim::FirstConflict => grid.push(file(aim, furthest(), aim.key().into())),
                Aim::NearestSolved => {
                    for order in Order::ALL {
                        grid.push(file(aim, order, format!("{}+{}", aim.key(), order.key())));
                    }
                }
            }
        }
        grid
    }

    /// The file's knobs as a strategy file states them ([`Knobs::parse`] reads them back).
    pub fn to_toml(&self) -> String {
        let mut text = format!(
            "game = \"annulus\"\nname = \"{}\"\naim = \"{}\"\n",
            self.name,
            self.aim.key()
        );
        if self.aim == Aim::NearestSolved {
            text += &format!("order = \"{}\"\n", self.order.key());
        }
        if !self.card.is_empty() {
            text += "\n[rules]\nadjust = [\n";
            for rule in &self.card {
                text += &format!("  \"{rule}\",\n");
            }
            text += "]\n";
        }
        text
    }

    /// A bundled strategy by name.
    pub fn bundled(name: &str) -> Option<Knobs> {
        BUNDLED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Knobs::parse(n, text).expect("bundled files parse"))
    }

    /// The solved chain `aim = "nearest-solved"` aims for at `pos`: the fewest successful
    /// adjustments away, the jammed dice kept.
    pub fn aim(&self, game: &Annulus, pos: &Pos) -> Vec<u8> {
        super::play::nearest_solved(game, pos)
    }

    /// The move this strategy makes at decision point `pos`: the first rule of thumb that
    /// holds says how to pick it, else the knobs.
    pub fn choose(&self, game: &Annulus, pos: &Pos) -> Move {
        let play = match self.card.iter().find(|r| r.holds(game, pos)) {
            Some(rule) => rule.then,
            None => Play {
                aim: self.aim,
                order: self.order,
            },
        };
        play.choose(game, pos)
    }
}

impl Policy<Annulus> for Knobs {
    fn name(&self) -> &str {
        &self.name
    }

    fn weigh(&self, game: &Annulus, pos: &Pos, options: &[Move], weights: &mut [f64]) {
        let chosen = self.choose(game, pos);
        let i = options
            .iter()
            .position(|&m| m == chosen)
            .expect("the strategy's move is legal");
        weights[i] = 1.0;
    }
}
