//! The report's recommendations: the first section of `reports/README.md`, in sentences
//! computed from the report's numbers (nothing here is written for one particular game: the
//! same code says something else when the rules or the game's numbers change).
//!
//! It answers, in order: how winnable the game is and at which starting stealth it is even;
//! what optimal play does, in words; what the reference strategy loses and where; which
//! reading of the ambiguous rules to settle first; the biggest levers; and the levers that
//! move one player and not the other, with the figures that explain why.

use std::fmt::Write as _;

use crate::engine::ByKind;
use crate::game::DecisionKind;
use crate::game::{Character, LossCause};
use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE};

use super::balance::{Balance, VariantRow};
use super::decisions::plain;
use super::habits::Watched;
use super::levers::{Lever, meaning, pp, ranked};

/// A probability as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share as a whole percentage.
fn share(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// An effect this large (in win probability) is one a player notices.
const NOTICED: f64 = 0.01;

/// An effect on one player this many times the other's (and over [`SURPRISE`]) is a lever
/// that moves one player and not the other.
const LOPSIDED: f64 = 4.0;

/// The smallest effect on the player that moves for a lopsided lever to be worth a word.
const SURPRISE: f64 = 0.03;

/// Within this of 50% a game is even.
const EVEN_WITHIN: f64 = 0.05;

/// The "What the numbers say" section: one paragraph per question, each computed.
pub fn section(balance: &Balance) -> String {
    let mut md = String::new();
    let paragraphs: Vec<String> = [
        winnable(balance),
        optimal_play(balance),
        reference_losses(balance),
        settle_first(balance),
        levers(balance),
        surprises(balance),
    ]
    .into_iter()
    .flatten()
    .collect();
    if paragraphs.is_empty() {
        return md;
    }
    let _ = writeln!(md, "## What the numbers say\n");
    for p in paragraphs {
        let _ = writeln!(md, "{p}\n");
    }
    md
}

/// The exact (or optimal) win probability of `name` under the default reading at every
/// stealth the report covers, by stealth.
fn curve(balance: &Balance, name: &str) -> Vec<(u8, f64)> {
    let default = balance.presets[0];
    let mut points: Vec<(u8, f64)> = balance
        .win_rates
        .iter()
        .filter(|s| {
            s.strategy == name && s.rules == default && s.method != super::Method::MonteCarlo
        })
        .map(|s| (s.stealth, s.win_rate))
        .collect();
    points.sort_by_key(|p| p.0);
    points
}

/// The starting stealth whose win probability is closest to 50% (the lower on a tie).
pub fn even_stealth(curve: &[(u8, f64)]) -> Option<(u8, f64)> {
    curve
        .iter()
        .copied()
        .min_by(|a, b| (a.1 - 0.5).abs().total_cmp(&(b.1 - 0.5).abs()))
}

/// How winnable: both players at the middle headline stealth, the stealth that makes each
/// an even game, and what one point of stealth is worth there.
fn winnable(balance: &Balance) -> Option<String> {
    let default = balance.presets[0];
    let mid = balance.mid();
    let optimal = curve(balance, OPTIMAL);
    let reference = curve(balance, REFERENCE);
    let at = |c: &[(u8, f64)], s: u8| c.iter().find(|p| p.0 == s).map(|p| p.1);
    let (o, r) = (at(&optimal, mid)?, at(&reference, mid)?);
    let (o_even, r_even) = (even_stealth(&optimal)?, even_stealth(&reference)?);
    let max = optimal.last().map_or(0, |p| p.0);
    let even = |who: &str, (s, w): (u8, f64)| {
        if (w - 0.5).abs() <= EVEN_WITHIN {
            format!("{who} at starting stealth **{s}** ({})", pct(w))
        } else {
            format!(
                "{who} at no starting stealth from 0 to {max} (the closest is {s}, {})",
                pct(w)
            )
        }
    };
    // What a point of stealth is worth around the middle stealth (a central difference
    // where both neighbours are covered).
    let slope = match (at(&reference, mid.wrapping_sub(1)), at(&reference, mid + 1)) {
        (Some(below), Some(above)) if mid > 0 => format!(
            " Around stealth {mid} each point of starting stealth is worth {:.1} points of win \
             probability to the reference strategy.",
            100.0 * (above - below) / 2.0
        ),
        _ => String::new(),
    };
    let gap = o - r;
    let advice = if (r_even.1 - 0.5).abs() <= EVEN_WITHIN {
        format!(
            " To make the game even for players who play like the reference, start at stealth \
             {}; a perfect player then wins {}.",
            r_even.0,
            at(&optimal, r_even.0).map_or("—".into(), pct),
        )
    } else {
        String::new()
    };
    Some(format!(
        "**How winnable is it?** Under {default} at starting stealth {mid}, optimal play (the \
         best any player can do) wins {} of games and the reference strategy (a sensible \
         human's play) {}: {:.1} points apart. The game is an even bet (50% ± {:.0}) for {} \
         and for {}.{advice}{slope}",
        pct(o),
        pct(r),
        100.0 * gap,
        100.0 * EVEN_WITHIN,
        even("optimal play", o_even),
        even("the reference", r_even),
    ))
}

/// The watched games at the middle headline stealth.
fn watched_mid(balance: &Balance) -> Option<&Watched> {
    let mid = balance.mid();
    balance.watched.iter().find(|w| w.stealth == mid)
}

/// What optimal play does, in words: team size, main character, side challenges, first aid,
/// each beside the reference strategy's.
fn optimal_play(balance: &Balance) -> Option<String> {
    let default = balance.presets[0];
    let mid = balance.mid();
    let w = watched_mid(balance)?;
    let (o, r) = (&w.optimal, &w.reference);
    let exact_o = balance.exact(OPTIMAL, default, mid)?;
    let exact_r = balance.exact(REFERENCE, default, mid)?;
    let usual = o.usual_team();
    let (team_o, team_r) = (exact_o.mean_team_at_run, exact_r.mean_team_at_run);
    let verdict = if team_o < team_r - 0.5 {
        "it takes a smaller team than the reference"
    } else if team_o > team_r + 0.5 {
        "it takes a larger team than the reference"
    } else {
        "it takes about the reference's team"
    };
    let team = format!(
        "{verdict}: it enters the run with {:.2} members on average, {usual} in {} of the \
         games that get there, where the reference strategy takes {:.2}.",
        team_o,
        share(o.team_at_run[usual] as f64 / o.reached_run().max(1) as f64),
        team_r,
    );
    let (main, main_share) = o.usual_main();
    let mut imposed: Vec<(Character, f64)> = Character::ALL
        .into_iter()
        .map(|c| (c, w.by_main[c.index()]))
        .filter(|(_, v)| v.is_finite())
        .collect();
    imposed.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mains = match (imposed.first(), imposed.last()) {
        (Some(best), Some(worst)) if tied(best.1, worst.1) => format!(
            " With a main character imposed, every one does equally well ({}).",
            pct(best.1)
        ),
        (Some(best), Some(worst)) => format!(
            " With a main character imposed, it does best with {} and worst with {}.",
            who_ties(&imposed, best.1),
            who_ties(&imposed, worst.1),
        ),
        _ => String::new(),
    };
    let (r_main, r_main_share) = r.usual_main();
    Some(format!(
        "**What does optimal play do?** At stealth {mid} under {default}: {team} It picks {main} \
         as main character in {} of games (the reference picks {r_main} in {}).{mains} It \
         passes {} of the side challenges it is offered without trying (the reference {}) \
         and skips first aid at {} of the chances to give it (the reference {}). Its team is \
         discovered in {} of games, the reference's in {}. (Habits counted over the report's \
         first {} games of each at stealth {mid}.)",
        share(main_share),
        share(r_main_share),
        share(o.side_pass_rate()),
        share(r.side_pass_rate()),
        share(o.aid_skip_rate()),
        share(r.aid_skip_rate()),
        pct(exact_o.discovered_rate),
        pct(exact_r.discovered_rate),
        o.games,
    ))
}

/// Two win probabilities that agree to the twelve significant digits the report prints are
/// a tie: the digits beyond are the summation's rounding, not a difference between players.
fn tied(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// The characters of `imposed` tied at `value`, named as a tie when there are several:
/// "Rump (mechanic) (71.0%)" or "any of Bunny (hacker), Ink (spy) and Rump (mechanic) (71.0%
/// each)".
fn who_ties(imposed: &[(Character, f64)], value: f64) -> String {
    let mut tie: Vec<Character> = imposed
        .iter()
        .filter(|(_, v)| tied(*v, value))
        .map(|(c, _)| *c)
        .collect();
    tie.sort_by_key(|c| c.index());
    let names: Vec<String> = tie.iter().map(Character::to_string).collect();
    match names.as_slice() {
        [one] => format!("{one} ({})", pct(value)),
        [rest @ .., last] => format!(
            "any of {} and {last} ({} each)",
            rest.join(", "),
            pct(value)
        ),
        [] => String::new(),
    }
}

/// What the reference strategy loses against optimal play and where, from the regret
/// decomposition at the middle headline stealth.
fn reference_losses(balance: &Balance) -> Option<String> {
    let mid = balance.mid();
    let default = balance.presets[0];
    let told = balance
        .decisions
        .iter()
        .find(|d| d.strategy == REFERENCE && d.rules == default)?
        .at(mid)?;
    let total = told.optimal - told.exact;
    let kinds = by_regret(&told.by_kind);
    let (first, second) = (kinds.first()?, kinds.get(1));
    let both = first.1 + second.map_or(0.0, |s| s.1);
    let second = second.map_or(String::new(), |(k, v)| {
        format!(" and *{}* {:.1}", plain(*k), 100.0 * v)
    });
    let position = told.top.first().map_or(String::new(), |c| {
        format!(
            " Its single costliest habit: *{}* — it chooses {}, where {} is {:.1} points better \
             (reached in {:.1}% of games).",
            c.position,
            c.choice,
            c.best,
            100.0 * c.shortfall(),
            100.0 * c.reach
        )
    });
    Some(format!(
        "**What does the reference strategy lose, and where?** {:.1} points against optimal \
         play at stealth {mid}, most at *{}* {:.1}{second}: {} of its loss.{position}",
        100.0 * total,
        plain(first.0),
        100.0 * first.1,
        share(both / total.max(f64::MIN_POSITIVE)),
    ))
}

/// The kinds of decision that cost anything, costliest first, with their regret.
fn by_regret(by_kind: &ByKind) -> Vec<(DecisionKind, f64)> {
    let mut kinds: Vec<(DecisionKind, f64)> = DecisionKind::ALL
        .into_iter()
        .map(|k| (k, by_kind.regret[k as usize]))
        .filter(|(_, v)| *v > 0.0)
        .collect();
    kinds.sort_by(|a, b| b.1.total_cmp(&a.1));
    kinds
}

/// The rule variants at the middle stealth, by the larger of their two effects, largest
/// first: `(variant, optimal effect, reference effect)`.
pub(super) fn variants_ranked(balance: &Balance) -> Vec<(String, f64, f64)> {
    let mid = balance.mid();
    let find = |variant: &str, strategy: &str| {
        balance
            .variants
            .iter()
            .find(|v: &&VariantRow| {
                v.variant == variant && v.strategy == strategy && v.stealth == mid
            })
            .map(|v| v.effect)
    };
    let mut out: Vec<(String, f64, f64)> = balance
        .variants
        .iter()
        .filter(|v| v.stealth == mid && v.strategy == OPTIMAL && v.variant != "default")
        .filter_map(|v| Some((v.variant.clone(), v.effect, find(&v.variant, REFERENCE)?)))
        .collect();
    out.sort_by(|a, b| {
        b.1.abs()
            .max(b.2.abs())
            .total_cmp(&a.1.abs().max(a.2.abs()))
    });
    out
}

/// Which reading of the ambiguous rules changes the game most, and which can wait.
fn settle_first(balance: &Balance) -> Option<String> {
    let default = balance.presets[0];
    let mid = balance.mid();
    let ranked = variants_ranked(balance);
    let (top, rest) = ranked.split_first()?;
    let noticed: Vec<&(String, f64, f64)> = rest
        .iter()
        .filter(|v| v.1.abs().max(v.2.abs()) >= NOTICED)
        .collect();
    let quiet: Vec<String> = ranked
        .iter()
        .filter(|v| v.1.abs().max(v.2.abs()) < NOTICED)
        .map(|v| format!("`{}`", v.0))
        .collect();
    let then = if noticed.is_empty() {
        " No other reading moves either player by a point.".to_string()
    } else {
        format!(
            " Then {}.",
            noticed
                .iter()
                .map(|v| format!("`{}` ({} / {})", v.0, pp(v.1), pp(v.2)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let quiet = if quiet.is_empty() {
        String::new()
    } else {
        format!(
            " Either way is fine for {}: neither player moves by a point.",
            quiet.join(", ")
        )
    };
    Some(format!(
        "**Which reading of the rules to settle first?** `{}`: reading the rule that way \
         instead of as {default} moves optimal play by {} points and the reference by {} at \
         stealth {mid}, the most of any ambiguity (by the larger of its two effects); the \
         rulebook should say which it means.{then}{quiet} (Points: optimal / reference.)",
        top.0,
        pp(top.1),
        pp(top.2),
    ))
}

/// The biggest levers, one sentence each: the parameters whose one-step change moves either
/// player most, both directions.
fn levers(balance: &Balance) -> Option<String> {
    let mid = balance.mid();
    let all = ranked(balance, mid);
    // Parameters by their largest one-step effect on either player.
    let mut keys: Vec<(&str, f64)> = Vec::new();
    for l in &all {
        match keys.iter_mut().find(|k| k.0 == l.key) {
            Some(k) => k.1 = k.1.max(l.size()),
            None => keys.push((&l.key, l.size())),
        }
    }
    keys.sort_by(|a, b| b.1.total_cmp(&a.1));
    let sentences: Vec<String> = keys
        .iter()
        .take(4)
        .map(|(key, _)| {
            let moves: Vec<String> = all
                .iter()
                .filter(|l| l.key == *key)
                .map(|l| {
                    format!(
                        "{} → {} moves optimal play {} and the reference {}",
                        l.printed,
                        l.value,
                        pp(l.optimal),
                        pp(l.reference)
                    )
                })
                .collect();
            format!("- **{key}**, {}: {}.", meaning(key), moves.join("; "))
        })
        .collect();
    if sentences.is_empty() {
        return None;
    }
    Some(format!(
        "**The biggest levers** (each of the game's numbers one step from its value, points of \
         win probability at stealth {mid}; the full list and chart are below):\n\n{}",
        sentences.join("\n")
    ))
}

/// A lever moves one player and not the other: `Some((mover, still))` effects when one
/// effect is at least [`SURPRISE`] and [`LOPSIDED`] times the other.
fn lopsided(l: &Lever) -> Option<(&'static str, &'static str)> {
    let (o, r) = (l.optimal.abs(), l.reference.abs());
    if r >= SURPRISE && r >= LOPSIDED * o {
        Some((REFERENCE, OPTIMAL))
    } else if o >= SURPRISE && o >= LOPSIDED * r {
        Some((OPTIMAL, REFERENCE))
    } else {
        None
    }
}

/// The levers that move one player and not the other, each with the figures that explain it.
fn surprises(balance: &Balance) -> Option<String> {
    let mid = balance.mid();
    let all = ranked(balance, mid);
    let items: Vec<String> = all
        .iter()
        .filter_map(|l| {
            let (mover, still) = lopsided(l)?;
            let (moved, unmoved) = if mover == OPTIMAL {
                (l.optimal, l.reference)
            } else {
                (l.reference, l.optimal)
            };
            Some(format!(
                "- **{} {} → {}** moves {} by {} points and {} by {}. {}",
                l.key,
                l.printed,
                l.value,
                player(mover),
                pp(moved),
                player(still),
                pp(unmoved),
                why(balance, l, mover)
            ))
        })
        .collect();
    if items.is_empty() {
        return None;
    }
    Some(format!(
        "**What is surprising?** Levers that move one player and not the other (at stealth \
         {mid}; one effect at least {:.0} points and {LOPSIDED:.0} times the other):\n\n{}",
        100.0 * SURPRISE,
        items.join("\n")
    ))
}

/// A player's name in a sentence.
fn player(name: &str) -> &'static str {
    if name == OPTIMAL {
        "optimal play"
    } else {
        "the reference strategy"
    }
}

/// Why lever `l` moves `mover` and not the other player, from the figures the report has:
/// how large a team each takes, how often each is discovered, how often each gives first aid.
fn why(balance: &Balance, l: &Lever, mover: &str) -> String {
    let default: Rules = balance.presets[0];
    let mid = balance.mid();
    let (Some(w), Some(o), Some(r)) = (
        watched_mid(balance),
        balance.exact(OPTIMAL, default, mid),
        balance.exact(REFERENCE, default, mid),
    ) else {
        return String::new();
    };
    let low: usize = l
        .printed
        .parse::<usize>()
        .ok()
        .zip(l.value.parse::<usize>().ok())
        .map_or(0, |(a, b)| a.min(b));
    match l.key.as_str() {
        "team-size" if low > 0 => {
            let (fits, big) = if mover == REFERENCE {
                (&w.optimal, &w.reference)
            } else {
                (&w.reference, &w.optimal)
            };
            let (fits_name, big_name) = if mover == REFERENCE {
                ("optimal play", "the reference strategy")
            } else {
                ("the reference strategy", "optimal play")
            };
            let lowered = l.value.parse::<usize>().ok() == Some(low);
            let big_side = if lowered {
                format!(
                    "{big_name} recruits up to the limit: {} of its games reach the run with \
                     more than {low} members ({:.2} on average)",
                    share(1.0 - big.team_at_most(low)),
                    team_mean(big),
                )
            } else {
                format!(
                    "{big_name} recruits up to the limit ({:.2} members on average where {} \
                     are allowed) and would go on to {}",
                    team_mean(big),
                    l.printed,
                    l.value,
                )
            };
            format!(
                "Why: {fits_name} enters the run with at most {low} members in {} of its \
                 games anyway ({:.2} on average), so a limit of {} or {} hardly changes what \
                 it does; {big_side}, and every recruitment is checks that cost stealth and \
                 wounds, which the finale needs.",
                share(fits.team_at_most(low)),
                team_mean(fits),
                l.printed,
                l.value,
            )
        }
        "finale-penalty" => format!(
            "Why: the finale character's penalty applies only while the team is not \
             discovered (R13); the reference strategy's team is still undiscovered in {} of \
             its games, optimal play's in {}, so the penalty weighs on them that unequally.",
            pct(1.0 - r.discovered_rate),
            pct(1.0 - o.discovered_rate),
        ),
        "first-aid-after-run" | "first-aid-after-tough" => format!(
            "Why: optimal play skips {} of its chances to give first aid, the reference \
             strategy {}: taking chances away costs most the player who uses them.",
            share(w.optimal.aid_skip_rate()),
            share(w.reference.aid_skip_rate()),
        ),
        "recruit-checks" => format!(
            "Why: recruitment checks are what a large team costs; optimal play enters the run \
             with {:.2} members on average, the reference strategy with {:.2}.",
            o.mean_team_at_run, r.mean_team_at_run,
        ),
        _ => {
            let (a, b) = (o.loss_rates, r.loss_rates);
            let cause = |l: [f64; 4]| {
                let (i, _) = l
                    .iter()
                    .enumerate()
                    .max_by(|x, y| x.1.total_cmp(y.1))
                    .expect("four causes");
                LossCause::ALL[i]
            };
            format!(
                "The two lose in different places: optimal play mostly by *{}*, the reference \
                 strategy mostly by *{}* (`loss-causes.csv`); `raven decisions --rule {}={}` \
                 shows where the change acts.",
                cause(a),
                cause(b),
                l.key,
                l.value
            )
        }
    }
}

/// The mean team size entering the run among the watched games that reached it.
fn team_mean(h: &super::habits::Habits) -> f64 {
    let members: u64 = h
        .team_at_run
        .iter()
        .enumerate()
        .map(|(n, &games)| n as u64 * games)
        .sum();
    members as f64 / h.reached_run().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_even_stealth_is_the_one_nearest_half() {
        let curve = [(0, 0.1), (1, 0.3), (2, 0.48), (3, 0.53), (4, 0.7)];
        assert_eq!(even_stealth(&curve), Some((2, 0.48)));
        assert_eq!(even_stealth(&[(5, 0.9)]), Some((5, 0.9)));
        assert_eq!(even_stealth(&[]), None);
    }

    #[test]
    fn tied_main_characters_are_named_as_a_tie() {
        let imposed = [
            (Character::Hacker, 0.709910012087),
            (Character::Mechanic, 0.709910012087 + 1e-16),
            (Character::Medic, 0.689873142178),
        ];
        assert_eq!(
            who_ties(&imposed, imposed[0].1),
            "any of Bunny (hacker) and Rump (mechanic) (71.0% each)"
        );
        assert_eq!(who_ties(&imposed, imposed[2].1), "Dix (medic) (69.0%)");
        assert!(!tied(0.709910012087, 0.709910012088));
    }

    #[test]
    fn a_lever_is_lopsided_only_when_one_player_barely_moves() {
        let lever = |optimal, reference| Lever {
            key: "team-size".into(),
            printed: "4".into(),
            value: "3".into(),
            optimal_win: 0.5,
            optimal,
            reference,
        };
        assert_eq!(lopsided(&lever(0.0, 0.14)), Some((REFERENCE, OPTIMAL)));
        assert_eq!(lopsided(&lever(0.079, 0.007)), Some((OPTIMAL, REFERENCE)));
        assert_eq!(lopsided(&lever(-0.55, -0.35)), None, "both move");
        assert_eq!(lopsided(&lever(0.002, 0.02)), None, "too small to matter");
    }
}
