//! The explorer's requests for the Annulus operation challenge (`"game": "annulus"`): the same
//! game-independent engine calls as `raven --game annulus solve`, `exact` and `explore`, by
//! number of players instead of starting stealth.
//!
//! Requests (JSON, `op` names the kind; `preset`, `normal` unless given, and `rules`, the
//! `--rule KEY=VALUE` overrides, give the rules of all but `meta`):
//! - `{"op":"meta"}`: the rules keys with their values ([`PARAMS`], expanded), the presets
//!   and the strategies the page builds its controls from;
//! - `{"op":"solve", "players"}`: optimal play's figures at each number of players, as
//!   `raven --game annulus solve` reports them (one solve per number of players);
//! - `{"op":"exact", "strategies": [source, …], "players"}`: each strategy's figures, as
//!   `raven --game annulus exact` evaluates them;
//! - `{"op":"sweep", "param": {"key", "values"}, "strategies", "players"}`: `raven --game
//!   annulus explore --param KEY=VALUES`'s points, one by one, then its CSV;
//! - `{"op":"csv", "results": [{"strategy", "method", "players", "figures", "regret"}, …]}`:
//!   the CSV `raven --game annulus solve --out` writes for these results (the figures as the
//!   `value` messages gave them; `regret` optimal play's `start` less the strategy's win);
//! - `{"op":"quality", "strategies", "players"}`: each strategy's luck and skill, tension and
//!   length, as `raven --game annulus quality` finds them, exactly (one solve per number of
//!   players; `{"name":"optimal"}` is optimal play here);
//! - `{"op":"ledger", "strategy", "players", "seed", "index"}`: challenge `index` (0 unless
//!   given) of `seed` (the command line's unless given), as `raven --game annulus play`
//!   plays it, with optimal play's success probability after every step.
//!
//! A strategy source is `{"name"}` (`random` or a bundled file) or `{"name", "origin",
//! "text"}` (an Annulus strategy file's text, named `name` on the page whatever its own
//! `name` line says, as Purple Raven's files are; `origin` names it in errors).
//!
//! Messages: `meta`, `error` (`field`: `request`, `rules`, `strategy` with its `index`, or
//! `engine`), `value` (`method`, `strategy`, `players`, `rules`, `win`, `figures`, and
//! optimal play's `start`), `point`, `progress`, `csv`, `quality` (`method`, `strategy`,
//! `players`, and `figures` under `raven quality`'s column names, each sent
//! as soon as it is known), `ledger` (`method`, `strategy`, `players`, `seed`, `index`,
//! `start`, `steps`: `{"roll", "mu"}` each, `won`), and `done` last (sent by the caller).

use raven_core::engine::Budget;
use raven_core::engine::generic::program::BYTES_PER_POSITION;
use raven_core::engine::generic::quality::{quality, walk};
use raven_core::engine::generic::sample::stream;
use raven_core::engine::generic::{Figures, OptimalPolicy, Optimum, Stop, evaluate, solve};
use raven_core::games::annulus::rules::{PARAMS, PRESETS, swept};
use raven_core::games::annulus::strategy::{BUNDLED, Knobs, about};
use raven_core::games::annulus::{ACTION_LIMIT, Annulus, CAUSES, JAMMED, REVEAL, Rules};
use raven_core::games::{Game, Policy, Uniform};
use raven_core::rows::{VERSION, round, rounded};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::sink::{Sink, error, send};

/// The most players the page solves. Four players store about 160 times the positions of
/// three (a minute and gigabytes natively, more than a browser tab's WebAssembly memory), so
/// the page sends a designer to the command line for them instead of failing part way.
pub const PAGE_PLAYERS: u8 = 3;

/// The most memory the engines' tables may take in the page: as for Purple Raven, what a
/// 32-bit WebAssembly memory can hold with room to spare.
const MAX_BYTES: u64 = 3 << 29;

/// The strategies shown by default beside optimal play: the best bundled file and the
/// simplest, so the page opens on the gap a plan makes.
const DEFAULT_STRATEGIES: [&str; 2] = ["planner", "naive"];

/// One Annulus request.
#[derive(Deserialize)]
struct Request {
    #[serde(flatten)]
    op: Operation,
    #[serde(default = "normal")]
    preset: String,
    #[serde(default)]
    rules: Vec<String>,
}

fn normal() -> String {
    PRESETS[0].0.to_string()
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
enum Operation {
    Meta,
    Solve {
        players: Vec<u8>,
    },
    Exact {
        strategies: Vec<Source>,
        players: Vec<u8>,
    },
    Sweep {
        param: Param,
        strategies: Vec<Source>,
        players: Vec<u8>,
    },
    Csv {
        results: Vec<Computed>,
    },
    Quality {
        strategies: Vec<Source>,
        players: Vec<u8>,
    },
    Ledger {
        strategy: Source,
        players: u8,
        #[serde(default = "crate::quality::seed")]
        seed: u64,
        #[serde(default)]
        index: u64,
    },
}

/// A result the page holds, handed back for the CSV.
#[derive(Deserialize)]
struct Computed {
    strategy: String,
    method: String,
    players: u8,
    figures: ComputedFigures,
    regret: Option<f64>,
}

/// The figures of a `value` message.
#[derive(Deserialize)]
struct ComputedFigures {
    win: f64,
    losses: std::collections::HashMap<String, f64>,
    decisions: f64,
}

/// The swept key and its values, as `--param KEY=V1,V2,…` lists them.
#[derive(Deserialize)]
struct Param {
    key: String,
    values: Vec<String>,
}

/// A strategy as the page names it.
#[derive(Deserialize)]
struct Source {
    name: String,
    origin: Option<String>,
    text: Option<String>,
}

/// Answers one Annulus request (all but the final `done`).
pub fn run(request: Value, sink: &mut Sink<'_>) {
    let request: Request = match serde_json::from_value(request) {
        Ok(r) => r,
        Err(e) => return error(sink, "request", &format!("unreadable request: {e}")),
    };
    if let Operation::Meta = request.op {
        return send(sink, &meta());
    }
    let Some(base) = rules(sink, &request.preset, &request.rules) else {
        return;
    };
    match request.op {
        Operation::Meta => unreachable!("answered above"),
        Operation::Solve { players } => {
            if players_fit(sink, &players) {
                solve_players(sink, &base, &players);
            }
        }
        Operation::Exact {
            strategies,
            players,
        } => {
            if let Some(strategies) = load(sink, &strategies)
                && players_fit(sink, &players)
            {
                exact_players(sink, &base, &strategies, &players);
            }
        }
        Operation::Sweep {
            param,
            strategies,
            players,
        } => {
            if let Some(strategies) = load(sink, &strategies)
                && players_fit(sink, &players)
            {
                sweep(sink, &base, &request.rules, &param, &strategies, &players);
            }
        }
        Operation::Csv { results } => {
            if players_fit(
                sink,
                &results.iter().map(|r| r.players).collect::<Vec<u8>>(),
            ) {
                send(
                    sink,
                    &json!({"type": "csv", "text": solve_csv(&base, &results)}),
                );
            }
        }
        Operation::Quality {
            strategies,
            players,
        } => {
            // Optimal play is a strategy of its own here, as `--strategy optimal` is.
            let is_optimal = |s: &Source| s.name == "optimal" && s.text.is_none();
            let others = strategies
                .iter()
                .enumerate()
                .filter(|(_, s)| !is_optimal(s));
            if let Some(loaded) = load_at(sink, others)
                && players_fit(sink, &players)
            {
                let mut loaded = loaded.into_iter();
                let chosen: Vec<Option<Box<dyn Policy<Annulus>>>> = strategies
                    .iter()
                    .map(|s| if is_optimal(s) { None } else { loaded.next() })
                    .collect();
                quality_players(sink, &base, &chosen, &players);
            }
        }
        Operation::Ledger {
            strategy,
            players,
            seed,
            index,
        } => {
            let loaded = if strategy.name == "optimal" && strategy.text.is_none() {
                Some(Vec::new())
            } else {
                load(sink, std::slice::from_ref(&strategy))
            };
            if let Some(mut loaded) = loaded
                && players_fit(sink, &[players])
            {
                ledger(sink, &base, loaded.pop(), players, seed, index);
            }
        }
    }
}

/// Challenge `index` of `seed` with `players`, played by `strategy` (`None`: optimal play) as
/// `raven --game annulus play` plays it, with optimal play's success probability after every
/// step (read as `raven --game annulus quality` reads it along a challenge).
fn ledger(
    sink: &mut Sink<'_>,
    base: &Rules,
    strategy: Option<Box<dyn Policy<Annulus>>>,
    players: u8,
    seed: u64,
    index: u64,
) {
    let game = game(base, players);
    let solved = match solve(&game, budget()) {
        Ok(solved) => solved,
        Err(stop) => return stopped(sink, &format!("optimal play with {players} players"), &stop),
    };
    let optimal = OptimalPolicy::new(&solved);
    let policy: &dyn Policy<Annulus> = strategy.as_deref().unwrap_or(&optimal);
    let mut steps = Vec::new();
    let won = walk(&solved, policy, &mut stream(seed, index), &mut |s| {
        steps.push(s)
    });
    let mut message = crate::ledger::fields(solved.value(&game.start()), &steps, won);
    message["type"] = json!("ledger");
    message["game"] = json!("annulus");
    message["method"] = json!(if strategy.is_some() {
        "exact"
    } else {
        "optimal"
    });
    message["strategy"] = json!(policy.name());
    message["players"] = json!(players);
    message["seed"] = json!(seed);
    message["index"] = json!(index);
    send(sink, &message);
}

/// `raven --game annulus quality`'s figures of `chosen` (`None`: optimal play) at each number
/// of players, with the same calls, so they are the same bits: a solve per number of players,
/// then each strategy's figures, sent as soon as they are known.
fn quality_players(
    sink: &mut Sink<'_>,
    base: &Rules,
    chosen: &[Option<Box<dyn Policy<Annulus>>>],
    players: &[u8],
) {
    for &n in players {
        let game = game(base, n);
        let solved = match solve(&game, budget()) {
            Ok(solved) => solved,
            Err(stop) => return stopped(sink, &format!("optimal play with {n} players"), &stop),
        };
        let optimal = OptimalPolicy::new(&solved);
        for strategy in chosen {
            let policy: &dyn Policy<Annulus> = match strategy {
                Some(s) => s.as_ref(),
                None => &optimal,
            };
            match quality(&solved, policy, budget()) {
                Ok(q) => send(
                    sink,
                    &json!({"type": "quality", "game": "annulus",
                            "method": if strategy.is_some() { "exact" } else { "optimal" },
                            "strategy": policy.name(), "players": n,
                            "figures": crate::quality::figures(&q)}),
                ),
                Err(stop) => {
                    return stopped(sink, &format!("{} with {n} players", policy.name()), &stop);
                }
            }
        }
    }
}

/// The rules of a request, as `raven --game annulus` reads `--rules` and `--rule`: the number
/// of players is the outputs' axis, never a rule.
fn rules(sink: &mut Sink<'_>, preset: &str, overrides: &[String]) -> Option<Rules> {
    if let Some(o) = overrides
        .iter()
        .find(|o| o.split('=').next().map(str::trim) == Some("players"))
    {
        error(
            sink,
            "rules",
            &format!("{o}: the number of players is the page's axis, not a rule"),
        );
        return None;
    }
    match Rules::parse(preset, overrides) {
        Ok(r) => Some(r),
        Err(e) => {
            error(sink, "rules", &e.to_string());
            None
        }
    }
}

/// What the page builds its Annulus controls from.
fn meta() -> Value {
    let params: Vec<Value> = PARAMS
        .iter()
        .filter(|p| p.key != "players")
        .map(|p| {
            json!({"key": p.key, "ruling": p.ruling, "values": p.choices(),
                   "meaning": p.meaning, "printed": PRESETS[0].1.get(p.key)})
        })
        .collect();
    let presets: Vec<Value> = PRESETS
        .iter()
        .map(|(name, rules)| json!({"name": name, "changes": rules.changes_from(&PRESETS[0].1)}))
        .collect();
    let mut strategies =
        vec![json!({"name": "random", "description": "any adjustment, each as likely"})];
    strategies.extend(
        BUNDLED
            .iter()
            .map(|(name, text)| json!({"name": name, "description": about(text)})),
    );
    json!({
        "type": "meta",
        "game": "annulus",
        "version": env!("CARGO_PKG_VERSION"),
        "params": params,
        "presets": presets,
        "strategies": strategies,
        "defaults": DEFAULT_STRATEGIES,
        "players": (1..=PAGE_PLAYERS).collect::<Vec<u8>>(),
        "max_players": raven_core::games::annulus::rules::MAX_PLAYERS,
        "causes": CAUSES,
    })
}

/// The strategies of a request; errors are sent, with the command line's words.
fn load(sink: &mut Sink<'_>, sources: &[Source]) -> Option<Vec<Box<dyn Policy<Annulus>>>> {
    load_at(sink, sources.iter().enumerate())
}

/// [`load`] of some of a request's strategies, each with its index in the request (which
/// errors name).
fn load_at<'a>(
    sink: &mut Sink<'_>,
    sources: impl Iterator<Item = (usize, &'a Source)>,
) -> Option<Vec<Box<dyn Policy<Annulus>>>> {
    let mut ok = true;
    let mut strategies = Vec::new();
    for (index, source) in sources {
        match policy(source) {
            Ok(s) => strategies.push(s),
            Err(message) => {
                send(
                    sink,
                    &json!({"type": "error", "field": "strategy", "index": index,
                            "name": source.name, "message": message}),
                );
                ok = false;
            }
        }
    }
    ok.then_some(strategies)
}

fn policy(source: &Source) -> Result<Box<dyn Policy<Annulus>>, String> {
    let name = source.name.as_str();
    if let Some(text) = &source.text {
        let origin = source.origin.as_deref().unwrap_or(name);
        // As the command line: another game's file is named as such, not as a TOML error.
        if !text.lines().any(|l| l.trim_start().starts_with("game")) {
            return Err(format!(
                "{origin}: not an Annulus strategy file (it has no `game = \"annulus\"` line)"
            ));
        }
        let mut knobs = Knobs::parse(origin, text).map_err(|e| e.to_string())?;
        knobs.name = name.to_string();
        return Ok(Box::new(knobs));
    }
    match name {
        "random" => Ok(Box::new(Uniform)),
        // Optimal play is a column of its own, solved rather than evaluated.
        "optimal" => Err("optimal play is solved, not evaluated: it is always shown".into()),
        _ => Knobs::bundled(name)
            .map(|k| Box::new(k) as Box<dyn Policy<Annulus>>)
            .ok_or_else(|| {
                format!(
                    "unknown Annulus strategy '{name}' (allowed: random, {}, or an Annulus strategy file)",
                    BUNDLED.map(|(n, _)| n).join(", ")
                )
            }),
    }
}

fn players_fit(sink: &mut Sink<'_>, players: &[u8]) -> bool {
    if let Some(&n) = players.iter().find(|&&n| n == 0 || n > PAGE_PLAYERS) {
        error(
            sink,
            "request",
            &if (1..=raven_core::games::annulus::rules::MAX_PLAYERS).contains(&n) {
                format!(
                    "{n} players is too large for the page (about a minute and gigabytes of memory): run `raven --game annulus solve --players {n}`"
                )
            } else {
                format!("'{n}' is not a number of players 1..={PAGE_PLAYERS}")
            },
        );
        return false;
    }
    true
}

fn budget() -> Budget<'static> {
    Budget {
        max_states: (MAX_BYTES / BYTES_PER_POSITION) as usize,
        cancel: &[],
    }
}

fn game(base: &Rules, players: u8) -> Annulus {
    Annulus::new(Rules { players, ..*base })
}

fn figures_json(f: &Figures) -> Value {
    let losses: serde_json::Map<String, Value> = CAUSES
        .iter()
        .zip(&f.losses)
        .map(|(c, l)| (c.to_string(), json!(l)))
        .collect();
    json!({"win": f.win, "losses": losses, "decisions": f.decisions, "rolls": f.rolls,
           "positions": f.positions})
}

fn value_message(method: &str, strategy: &str, rules: &Rules, f: &Figures) -> Value {
    json!({"type": "value", "game": "annulus", "method": method, "strategy": strategy,
           "players": rules.players, "rules": rules.to_string(), "win": f.win,
           "figures": figures_json(f)})
}

fn value(sink: &mut Sink<'_>, method: &str, strategy: &str, rules: &Rules, f: &Figures) {
    send(sink, &value_message(method, strategy, rules, f));
}

fn stopped(sink: &mut Sink<'_>, what: &str, stop: &Stop) {
    error(sink, "engine", &format!("{what}: {stop}"));
}

/// Optimal play at each number of players, its figures as `raven --game annulus solve`
/// reports them (the optimal policy's, from the solved table).
fn solve_players(sink: &mut Sink<'_>, base: &Rules, players: &[u8]) {
    for &n in players {
        let game = game(base, n);
        match solve(&game, budget()) {
            Ok(solved) => {
                let mut message =
                    value_message("optimal", "optimal", game.rules(), &solved.figures());
                // Optimal play's value from the start, from which the command line measures a
                // strategy's regret.
                message["start"] = json!(solved.start());
                send(sink, &message);
            }
            Err(stop) => return stopped(sink, &format!("optimal play with {n} players"), &stop),
        }
    }
}

/// Each strategy at each number of players, one evaluation each as `raven --game annulus
/// exact` makes it.
fn exact_players(
    sink: &mut Sink<'_>,
    base: &Rules,
    strategies: &[Box<dyn Policy<Annulus>>],
    players: &[u8],
) {
    let total = strategies.len() * players.len();
    let mut done = 0;
    for strategy in strategies {
        for &n in players {
            let game = game(base, n);
            match evaluate(&game, strategy.as_ref(), budget()) {
                Ok(f) => value(sink, "exact", strategy.name(), game.rules(), &f),
                Err(stop) => {
                    return stopped(
                        sink,
                        &format!("{} with {n} players", strategy.name()),
                        &stop,
                    );
                }
            }
            done += 1;
            send(
                sink,
                &json!({"type": "progress", "done": done, "total": total}),
            );
        }
    }
}

/// One row of the curves' CSV: `raven --game annulus solve --out -`'s columns.
#[derive(Serialize)]
struct SolveRow<'a> {
    game: &'static str,
    strategy: &'a str,
    rules: String,
    players: u8,
    method: &'a str,
    games: Option<u64>,
    #[serde(serialize_with = "round")]
    success_rate: f64,
    #[serde(serialize_with = "round")]
    ci_low: f64,
    #[serde(serialize_with = "round")]
    ci_high: f64,
    seed: Option<u64>,
    #[serde(serialize_with = "round")]
    mean_adjustments: f64,
    #[serde(serialize_with = "round")]
    fail_jammed_rate: f64,
    #[serde(serialize_with = "round")]
    fail_reveal_rate: f64,
    #[serde(serialize_with = "round")]
    fail_action_limit_rate: f64,
    regret: Option<f64>,
    raven_version: &'static str,
}

/// The CSV of the results the page shows, row for row as the command line writes them.
fn solve_csv(base: &Rules, results: &[Computed]) -> String {
    let loss =
        |r: &Computed, cause: usize| r.figures.losses.get(CAUSES[cause]).copied().unwrap_or(0.0);
    let rows = results.iter().map(|r| SolveRow {
        game: "annulus",
        strategy: &r.strategy,
        rules: game(base, r.players).rules().to_string(),
        players: r.players,
        method: &r.method,
        games: None,
        success_rate: r.figures.win,
        ci_low: r.figures.win,
        ci_high: r.figures.win,
        seed: None,
        mean_adjustments: r.figures.decisions,
        fail_jammed_rate: loss(r, usize::from(JAMMED)),
        fail_reveal_rate: loss(r, usize::from(REVEAL)),
        fail_action_limit_rate: loss(r, usize::from(ACTION_LIMIT)),
        regret: r.regret.map(rounded),
        raven_version: VERSION,
    });
    write_csv(rows)
}

fn write_csv<R: Serialize>(rows: impl IntoIterator<Item = R>) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row).expect("a row serialises");
    }
    String::from_utf8(writer.into_inner().expect("a buffer flushes")).expect("the CSV is UTF-8")
}

/// One row of the sweep's CSV: `raven --game annulus explore --out -`'s columns.
#[derive(Serialize)]
struct ExploreRow<'a> {
    game: &'static str,
    param: &'a str,
    value: &'a str,
    rules: String,
    players: u8,
    strategy: &'a str,
    #[serde(serialize_with = "round")]
    success: f64,
    raven_version: &'static str,
}

/// `raven --game annulus explore --param KEY=VALUES` over `players`: at each value and number
/// of players, optimal play solved (its value from the start, as `explore` reads it) and each
/// strategy evaluated exactly.
fn sweep(
    sink: &mut Sink<'_>,
    base: &Rules,
    overrides: &[String],
    param: &Param,
    strategies: &[Box<dyn Policy<Annulus>>],
    players: &[u8],
) {
    let key = param.key.as_str();
    if let Err(e) = swept(key) {
        return error(sink, "request", &e);
    }
    if param.values.is_empty() {
        return error(sink, "request", &format!("{key}: no value to sweep"));
    }
    if let Some(o) = overrides
        .iter()
        .find(|o| o.split('=').next().map(str::trim) == Some(key))
    {
        return error(
            sink,
            "request",
            &format!("{o} and the swept {key}: give the key once"),
        );
    }
    // Every value checked before the first solve, as `explore` checks its axis.
    let mut points = Vec::new();
    for v in &param.values {
        let mut rules = *base;
        if let Err(e) = rules.set(key, v) {
            return error(sink, "rules", &e.to_string());
        }
        points.push((v.as_str(), rules));
    }
    let mut labels = vec!["optimal".to_string()];
    labels.extend(strategies.iter().map(|s| s.name().to_string()));
    let total = points.len() * players.len();
    let mut rows = Vec::new();
    for (index, (v, rules)) in points.iter().enumerate() {
        for &n in players {
            let game = game(rules, n);
            let mut wins = Vec::new();
            match solve(&game, budget()) {
                Ok(solved) => wins.push(solved.start()),
                Err(stop) => {
                    return stopped(sink, &format!("optimal play at {}", game.rules()), &stop);
                }
            }
            for s in strategies {
                match evaluate(&game, s.as_ref(), budget()) {
                    Ok(f) => wins.push(f.win),
                    Err(stop) => {
                        return stopped(sink, &format!("{} at {}", s.name(), game.rules()), &stop);
                    }
                }
            }
            for (label, &success) in labels.iter().zip(&wins) {
                rows.push(ExploreRow {
                    game: "annulus",
                    param: key,
                    value: v,
                    rules: game.rules().to_string(),
                    players: n,
                    strategy: label,
                    success,
                    raven_version: VERSION,
                });
            }
            send(
                sink,
                &json!({"type": "point", "game": "annulus", "index": index, "key": key,
                        "value": v, "players": n, "rules": game.rules().to_string(),
                        "labels": labels, "wins": wins}),
            );
            send(
                sink,
                &json!({"type": "progress", "done": rows.len() / labels.len(), "total": total}),
            );
        }
    }
    send(sink, &json!({"type": "csv", "text": write_csv(&rows)}));
}

#[cfg(test)]
mod tests {
    use crate::explorer::tests::messages;
    use raven_core::engine::generic::{Optimum, evaluate, solve};
    use raven_core::games::annulus::strategy::Knobs;
    use raven_core::games::annulus::{Annulus, Rules};

    fn win(got: &[serde_json::Value], method: &str, strategy: &str, players: u8) -> f64 {
        got.iter()
            .find(|m| {
                m["type"] == "value"
                    && m["method"] == method
                    && m["strategy"] == strategy
                    && m["players"] == players
            })
            .unwrap_or_else(|| panic!("no {method} {strategy} {players}"))["win"]
            .as_f64()
            .unwrap()
    }

    #[test]
    fn values_are_the_bits_of_the_generic_engines() {
        let rules = r#""game":"annulus","preset":"advanced","rules":["wrap=yes"]"#;
        let mut got = messages(&format!(r#"{{"op":"solve",{rules},"players":[1,2]}}"#));
        got.extend(messages(&format!(
            r#"{{"op":"exact",{rules},"strategies":[{{"name":"planner"}},{{"name":"random"}}],
                "players":[1,2]}}"#
        )));
        let base = Rules::parse("advanced", &["wrap=yes".to_string()]).unwrap();
        let budget = raven_core::engine::Budget::UNLIMITED;
        let planner = Knobs::bundled("planner").unwrap();
        for players in [1u8, 2] {
            let game = Annulus::new(Rules { players, ..base });
            let solved = solve(&game, budget).unwrap();
            assert_eq!(
                win(&got, "optimal", "optimal", players).to_bits(),
                solved.figures().win.to_bits()
            );
            let f = evaluate(&game, &planner, budget).unwrap();
            assert_eq!(
                win(&got, "exact", "planner", players).to_bits(),
                f.win.to_bits()
            );
            let r = evaluate(&game, &raven_core::games::Uniform, budget).unwrap();
            assert_eq!(
                win(&got, "exact", "random", players).to_bits(),
                r.win.to_bits()
            );
            // Wrapping and the advanced target are what the engine was given.
            assert!(
                got.iter()
                    .any(|m| m["rules"] == game.rules().to_string() && m["players"] == players)
            );
        }
        assert_eq!(got.last().unwrap()["type"], "done");
    }

    #[test]
    fn quality_is_the_bits_of_raven_quality_s_calls() {
        // As `raven --game annulus quality --strategy optimal,planner --players 1,2`: a solve
        // per number of players, each strategy's figures from it.
        let got = messages(
            r#"{"op":"quality","game":"annulus","rules":["wrap=yes"],
                "strategies":[{"name":"optimal"},{"name":"planner"}],"players":[1,2]}"#,
        );
        let base = Rules::parse("normal", &["wrap=yes".to_string()]).unwrap();
        let budget = raven_core::engine::Budget::UNLIMITED;
        let planner = Knobs::bundled("planner").unwrap();
        let quality: Vec<&serde_json::Value> =
            got.iter().filter(|m| m["type"] == "quality").collect();
        assert_eq!(quality.len(), 4);
        let mut sent = quality.iter();
        for players in [1u8, 2] {
            let game = Annulus::new(Rules { players, ..base });
            let solved = solve(&game, budget).unwrap();
            let optimal = raven_core::engine::generic::OptimalPolicy::new(&solved);
            let policies: [&dyn raven_core::games::Policy<Annulus>; 2] = [&optimal, &planner];
            for (policy, method) in policies.into_iter().zip(["optimal", "exact"]) {
                let q =
                    raven_core::engine::generic::quality::quality(&solved, policy, budget).unwrap();
                let m = sent.next().unwrap();
                assert_eq!(
                    (m["method"].as_str(), m["strategy"].as_str()),
                    (Some(method), Some(policy.name()))
                );
                assert_eq!(m["players"], players);
                for (column, expected) in crate::explorer::tests::quality_columns(&q) {
                    let page = m["figures"][column].as_f64().unwrap();
                    assert_eq!(
                        page.to_bits(),
                        expected.to_bits(),
                        "{players} {method} {column}"
                    );
                }
            }
        }
        let got = messages(
            r#"{"op":"quality","game":"annulus","strategies":[{"name":"optimal"},{"name":"nope"}],"players":[1]}"#,
        );
        assert_eq!(
            (got[0]["field"].as_str(), got[0]["index"].as_u64()),
            (Some("strategy"), Some(1))
        );
        let got = messages(
            r#"{"op":"quality","game":"annulus","strategies":[{"name":"optimal"}],"players":[4]}"#,
        );
        assert_eq!(got[0]["field"], "request");
        assert!(!got.iter().any(|m| m["type"] == "quality"));
    }

    #[test]
    fn the_ledger_is_the_challenge_raven_quality_follows() {
        let base = Rules::parse("normal", &["wrap=yes".to_string()]).unwrap();
        let game = Annulus::new(Rules { players: 2, ..base });
        let solved = solve(&game, raven_core::engine::Budget::UNLIMITED).unwrap();
        let planner = Knobs::bundled("planner").unwrap();
        let seed = raven_core::rows::DEFAULT_SEED;
        for index in [0u64, 7] {
            let got = messages(&format!(
                r#"{{"op":"ledger","game":"annulus","rules":["wrap=yes"],"strategy":{{"name":"planner"}},
                    "players":2,"index":{index}}}"#
            ));
            let m = got.iter().find(|m| m["type"] == "ledger").unwrap();
            assert_eq!(
                (m["players"].as_u64(), m["seed"].as_u64()),
                (Some(2), Some(seed))
            );
            assert_eq!(
                m["start"].as_f64().unwrap().to_bits(),
                solved.start().to_bits()
            );
            let c = raven_core::engine::generic::quality::course(
                &solved,
                &planner,
                &mut raven_core::engine::generic::sample::stream(seed, index),
            );
            let (luck, skill, rolls, decisions) = crate::explorer::tests::ledger_sums(m);
            assert_eq!((rolls, decisions), (c.rolls, c.decisions));
            assert_eq!(
                (luck.to_bits(), skill.to_bits()),
                (c.luck.to_bits(), c.skill.to_bits())
            );
            assert_eq!(m["won"].as_bool(), Some(c.won));
        }
    }

    #[test]
    fn the_csv_is_written_from_the_figures_handed_back() {
        let got = messages(r#"{"op":"solve","game":"annulus","rules":["wrap=yes"],"players":[2]}"#);
        let optimal = got.iter().find(|m| m["type"] == "value").unwrap();
        let got = messages(
            r#"{"op":"exact","game":"annulus","rules":["wrap=yes"],"strategies":[{"name":"naive"}],"players":[2]}"#,
        );
        let naive = got.iter().find(|m| m["type"] == "value").unwrap();
        let regret = optimal["start"].as_f64().unwrap() - naive["win"].as_f64().unwrap();
        let csv = messages(&format!(
            r#"{{"op":"csv","game":"annulus","rules":["wrap=yes"],"results":[
                {{"strategy":"optimal","method":"optimal","players":2,"figures":{},"regret":0.0}},
                {{"strategy":"naive","method":"exact","players":2,"figures":{},"regret":{regret}}}]}}"#,
            optimal["figures"], naive["figures"]
        ));
        let text = csv[0]["text"].as_str().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("game,strategy,rules,players,method,games,success_rate,"));
        let row: Vec<&str> = lines[2].split(',').collect();
        assert_eq!(
            &row[..5],
            [
                "annulus",
                "naive",
                "normal+players=2+wrap=yes",
                "2",
                "exact"
            ]
        );
        // The success and the regret to the command line's twelve significant digits.
        assert_eq!(
            row[6].parse::<f64>().unwrap(),
            raven_core::rows::rounded(naive["win"].as_f64().unwrap())
        );
        assert_eq!(
            row[14].parse::<f64>().unwrap(),
            raven_core::rows::rounded(regret)
        );
    }

    #[test]
    fn a_strategy_file_is_evaluated_under_the_page_s_name() {
        let text = "game = \"annulus\"\nname = \"theirs\"\naim = \"nearest-solved\"\norder = \"closest\"\n";
        let got = messages(&format!(
            r#"{{"op":"exact","game":"annulus","strategies":[{{"name":"mine","origin":"mine.toml",
                "text":{}}}],"players":[1]}}"#,
            serde_json::to_string(text).unwrap()
        ));
        let knobs = Knobs::parse("mine.toml", text).unwrap();
        let f = evaluate(
            &Annulus::new(Rules::preset("normal").unwrap()),
            &knobs,
            raven_core::engine::Budget::UNLIMITED,
        )
        .unwrap();
        assert_eq!(win(&got, "exact", "mine", 1).to_bits(), f.win.to_bits());
    }

    #[test]
    fn bad_rules_strategies_and_players_get_a_message() {
        let got =
            messages(r#"{"op":"solve","game":"annulus","rules":["target=13"],"players":[1]}"#);
        assert_eq!(got[0]["field"], "rules");
        assert_eq!(
            got[0]["message"],
            "Annulus rule 'target' cannot be '13' (allowed: 2..=12)"
        );
        let got =
            messages(r#"{"op":"solve","game":"annulus","rules":["players=2"],"players":[1]}"#);
        assert_eq!(got[0]["field"], "rules");
        let got = messages(
            r#"{"op":"exact","game":"annulus","strategies":[{"name":"planer"}],"players":[1]}"#,
        );
        assert_eq!(got[0]["field"], "strategy");
        let message = got[0]["message"].as_str().unwrap();
        assert!(
            message.starts_with("unknown Annulus strategy 'planer'"),
            "{message}"
        );
        let got = messages(
            r#"{"op":"exact","game":"annulus","strategies":[{"name":"mine","origin":"mine.toml",
                "text":"game = \"annulus\"\naim = = 1\n"}],"players":[1]}"#,
        );
        let message = got[0]["message"].as_str().unwrap();
        assert!(message.starts_with("mine.toml:2:"), "{message}");
        let got = messages(
            r#"{"op":"exact","game":"annulus","strategies":[{"name":"pr","text":"[recruit]\n"}],"players":[1]}"#,
        );
        let message = got[0]["message"].as_str().unwrap();
        assert!(
            message.contains("not an Annulus strategy file"),
            "{message}"
        );
        let got = messages(r#"{"op":"solve","game":"annulus","players":[4]}"#);
        assert_eq!(got[0]["field"], "request");
        let message = got[0]["message"].as_str().unwrap();
        assert!(
            message.contains("4 players is too large for the page"),
            "{message}"
        );
        for got in [
            messages(r#"{"op":"solve","game":"annulus","preset":"hard","players":[1]}"#),
            messages(r#"{"op":"solve","game":"tetris","players":[1]}"#),
        ] {
            assert_eq!(got[0]["type"], "error");
            assert!(!got.iter().any(|m| m["type"] == "value"));
        }
    }

    #[test]
    fn meta_lists_every_rules_key_but_players_with_its_values() {
        let got = messages(r#"{"op":"meta","game":"annulus"}"#);
        let params = got[0]["params"].as_array().unwrap();
        let keys: Vec<&str> = params.iter().map(|p| p["key"].as_str().unwrap()).collect();
        let expected: Vec<&str> = raven_core::games::annulus::rules::PARAMS
            .iter()
            .map(|p| p.key)
            .filter(|k| *k != "players")
            .collect();
        assert_eq!(keys, expected);
        // Every value listed is one the parser takes.
        for p in params {
            for v in p["values"].as_array().unwrap() {
                let setting = format!("{}={}", p["key"].as_str().unwrap(), v.as_str().unwrap());
                Rules::parse("normal", std::slice::from_ref(&setting)).expect(&setting);
            }
        }
        let target = params.iter().find(|p| p["key"] == "target").unwrap();
        assert_eq!(target["values"].as_array().unwrap().len(), 11);
        assert_eq!(got[0]["presets"][1]["changes"][0], "target=7");
        assert_eq!(got[0]["strategies"][0]["name"], "random");
    }

    #[test]
    fn the_sweep_is_explore_s_points_and_csv() {
        let got = messages(
            r#"{"op":"sweep","game":"annulus","rules":["wrap=yes"],"param":{"key":"target","values":["3","9"]},
                "strategies":[{"name":"naive"}],"players":[1,2]}"#,
        );
        let points: Vec<&serde_json::Value> = got.iter().filter(|m| m["type"] == "point").collect();
        assert_eq!(points.len(), 4);
        let naive = Knobs::bundled("naive").unwrap();
        let budget = raven_core::engine::Budget::UNLIMITED;
        for p in &points {
            let rules = Rules::parse(
                "normal",
                &[
                    "wrap=yes".to_string(),
                    format!("target={}", p["value"].as_str().unwrap()),
                    format!("players={}", p["players"]),
                ],
            )
            .unwrap();
            let game = Annulus::new(rules);
            assert_eq!(
                p["wins"][0].as_f64().unwrap().to_bits(),
                solve(&game, budget).unwrap().start().to_bits()
            );
            assert_eq!(
                p["wins"][1].as_f64().unwrap().to_bits(),
                evaluate(&game, &naive, budget).unwrap().win.to_bits()
            );
        }
        let csv = got.iter().find(|m| m["type"] == "csv").unwrap()["text"]
            .as_str()
            .unwrap();
        assert!(csv.starts_with("game,param,value,rules,players,strategy,success,raven_version\n"));
        assert_eq!(csv.lines().count(), 1 + 4 * 2);
        // A value the key does not take, and the key given twice, are refused before a solve.
        let got = messages(
            r#"{"op":"sweep","game":"annulus","rules":[],"param":{"key":"target","values":["1"]},
                "strategies":[],"players":[1]}"#,
        );
        assert_eq!(got[0]["field"], "rules");
        let got = messages(
            r#"{"op":"sweep","game":"annulus","rules":["target=5"],"param":{"key":"target","values":["3"]},
                "strategies":[],"players":[1]}"#,
        );
        assert_eq!(got[0]["field"], "request");
        assert!(!got.iter().any(|m| m["type"] == "point"));
    }
}
