//! The explorer's requests and what answers them: the same engine calls as `raven solve`,
//! `raven exact`, `raven decisions` and `raven explore`, in pieces the page deals out to its
//! workers (one per core) so that the first numbers come early and the rest side by side.
//!
//! Requests (JSON, `op` names the kind; `preset` and `rules`, the `--rule KEY=VALUE`
//! overrides, give the rules of all but `meta`):
//! - `{"op":"meta"}`: the settings ([`raven_core::rules::settings`]), presets and strategies
//!   the page builds its controls from;
//! - `{"op":"solve", "stealths", "figures"}`: optimal play's value at each stealth, as
//!   `raven solve` solves it (all the stealths in one solve), with the optimal policy's
//!   figures if asked;
//! - `{"op":"exact", "strategies": [source, …], "stealths"}`: each strategy's figures, as
//!   `raven exact` evaluates them;
//! - `{"op":"decisions", "strategy": source, "stealth"}`: its regret by decision kind, as
//!   `raven decisions` decomposes it;
//! - `{"op":"csv", "results": [{"strategy", "method", "stealth", "figures"}, …]}`: the CSV
//!   `raven solve --out` writes for these results;
//! - `{"op":"sweep", "axes": [{"key", "values"}, …], "strategies", "stealths"}`: `raven
//!   explore`'s grid, point by point, then its CSV;
//! - `{"op":"quality", "strategies", "stealths"}`: each strategy's luck and skill, tension
//!   and length, as `raven quality` assesses them, exactly (`{"name":"optimal"}` is optimal
//!   play here);
//! - `{"op":"ledger", "strategy", "stealth", "seed", "index"}`: game `index` (0 unless
//!   given) of `seed` (the command line's unless given), as `raven play` plays it, with
//!   optimal play's win probability after every step.
//!
//! A request with `"game": "annulus"` is the Annulus operation challenge's, answered by
//! `crate::annulus`; without `game` (or with `"game": "purple-raven"`) it is Operation
//! Purple Raven's, so links and requests from before the game selector keep their meaning.
//!
//! A strategy source is `{"name"}` (built in or bundled) or `{"name", "origin", "text"}` (a
//! strategy file's text; `origin` names it in errors, which give line and column).
//!
//! Messages (JSON, `type` names the kind): `meta`, `error` (`field`: `request`, `rules`,
//! `strategy` with its `index`, or `engine`), `value` (`method`, `strategy`, `stealth`, `win`,
//! and `figures` unless only the value was asked for), `decisions`, `point`, `skipped`,
//! `progress` (`done` of `total` steps), `csv`, `quality` (`method`, `strategy`, `stealth`,
//! and `figures` under `raven quality`'s column names), `ledger` (`method`,
//! `strategy`, `stealth`, `seed`, `index`, `start`, `steps`: `{"roll", "mu"}` each, `won`), and
//! `done` last.

use raven_core::engine::{
    self, BYTES_PER_STATE, Budget, Expectation, Halt, Keep, Solver, exact_within,
    solve_with_figures, solve_within,
};
use raven_core::game::interface::PurpleRaven;
use raven_core::game::{DecisionKind, LossCause};
use raven_core::grid::{self, Axis, GridPoint, MAX_POINTS};
use raven_core::quality::assess;
use raven_core::rules::{self, PRESETS, Rules};
use raven_core::strategy::{self, FileStrategy, OPTIMAL, Strategy};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::rows;

/// The most memory the engines' tables may take in the page, estimated as the command line
/// estimates it: a 32-bit WebAssembly memory holds 4 GiB at most, and browsers refuse some
/// of that. A design past it gets the engine's own "too large" message instead of a crash.
const MAX_BYTES: f64 = 1.5 * (1u64 << 30) as f64;

/// The largest starting stealth the page asks for, as the command line bounds it.
const MAX_STEALTH: u8 = 99;

/// One message from the page: what it asks for, under which rules.
#[derive(Deserialize)]
struct Request {
    #[serde(flatten)]
    op: Operation,
    #[serde(default = "main_text")]
    preset: String,
    #[serde(default)]
    rules: Vec<String>,
}

fn main_text() -> String {
    PRESETS[0].name.to_string()
}

/// What the page asks for (the message's `op` field).
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
enum Operation {
    Meta,
    Solve {
        stealths: Vec<u8>,
        figures: bool,
    },
    Exact {
        strategies: Vec<RequestedStrategy>,
        stealths: Vec<u8>,
    },
    Decisions {
        strategy: RequestedStrategy,
        stealth: u8,
    },
    Csv {
        results: Vec<Computed>,
    },
    Sweep {
        axes: Vec<Axis>,
        strategies: Vec<RequestedStrategy>,
        stealths: Vec<u8>,
    },
    Quality {
        strategies: Vec<RequestedStrategy>,
        stealths: Vec<u8>,
    },
    Ledger {
        strategy: RequestedStrategy,
        stealth: u8,
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
    stealth: u8,
    figures: Expectation,
}

/// A strategy as the page names it.
#[derive(Deserialize)]
struct RequestedStrategy {
    name: String,
    origin: Option<String>,
    text: Option<String>,
}

pub use crate::sink::Sink;
use crate::sink::{error, send};

/// Answers one JSON request through `sink`, `done` last whatever happened.
pub fn run(request: &str, sink: &mut Sink<'_>) {
    let value: Value = match serde_json::from_str(request) {
        Ok(value) => value,
        Err(e) => {
            error(sink, "request", &format!("unreadable request: {e}"));
            return send(sink, &json!({"type": "done"}));
        }
    };
    match value.get("game").and_then(Value::as_str) {
        None | Some("purple-raven") => purple_raven(value, sink),
        Some("annulus") => crate::annulus::run(value, sink),
        Some(other) => error(
            sink,
            "request",
            &format!("unknown game '{other}' (the page plays purple-raven and annulus)"),
        ),
    }
    send(sink, &json!({"type": "done"}));
}

/// Operation Purple Raven's requests: those without `game`, as every request was before.
fn purple_raven(request: Value, sink: &mut Sink<'_>) {
    match serde_json::from_value::<Request>(request) {
        Err(e) => error(sink, "request", &format!("unreadable request: {e}")),
        Ok(Request {
            op: Operation::Meta,
            ..
        }) => send(sink, &meta()),
        Ok(Request { op, preset, rules }) => {
            let rules = Rules::preset(&preset).and_then(|r| r.with_overrides(&rules));
            match rules {
                Err(e) => error(sink, "rules", &e.to_string()),
                Ok(rules) => answer(sink, &rules, op),
            }
        }
    }
}

fn answer(sink: &mut Sink<'_>, rules: &Rules, op: Operation) {
    match op {
        Operation::Meta => send(sink, &meta()),
        Operation::Solve { stealths, figures } => {
            if stealths_fit(sink, &stealths) {
                solve(sink, rules, &stealths, figures);
            }
        }
        Operation::Exact {
            strategies,
            stealths,
        } => {
            if let Some(strategies) = load(sink, &strategies)
                && stealths_fit(sink, &stealths)
            {
                exact(sink, rules, &strategies, &stealths);
            }
        }
        Operation::Decisions { strategy, stealth } => {
            if let Some(strategies) = load(sink, std::slice::from_ref(&strategy))
                && stealths_fit(sink, &[stealth])
            {
                decisions(sink, rules, strategies[0].as_ref(), stealth);
            }
        }
        Operation::Csv { results } => {
            let results: Vec<rows::CurveResult<'_>> = results
                .iter()
                .map(|r| rows::CurveResult {
                    strategy: &r.strategy,
                    method: &r.method,
                    stealth: r.stealth,
                    figures: r.figures,
                })
                .collect();
            send(
                sink,
                &json!({"type": "csv", "text": rows::summaries(rules, &results)}),
            );
        }
        Operation::Sweep {
            axes,
            strategies,
            stealths,
        } => {
            if let Some(strategies) = load(sink, &strategies)
                && stealths_fit(sink, &stealths)
            {
                sweep(sink, rules, &axes, &strategies, &stealths);
            }
        }
        Operation::Quality {
            strategies,
            stealths,
        } => {
            // Optimal play is a strategy of its own here, as `raven quality --strategy optimal`.
            let is_optimal = |s: &RequestedStrategy| s.name == OPTIMAL && s.text.is_none();
            let others = strategies
                .iter()
                .enumerate()
                .filter(|(_, s)| !is_optimal(s));
            if let Some(loaded) = load_at(sink, others)
                && stealths_fit(sink, &stealths)
            {
                let mut loaded = loaded.into_iter();
                let chosen: Vec<(String, Option<Box<dyn Strategy>>)> = strategies
                    .iter()
                    .map(|s| {
                        (
                            s.name.clone(),
                            (!is_optimal(s)).then(|| loaded.next()).flatten(),
                        )
                    })
                    .collect();
                quality(sink, rules, &chosen, &stealths);
            }
        }
        Operation::Ledger {
            strategy,
            stealth,
            seed,
            index,
        } => {
            let optimal = strategy.name == OPTIMAL && strategy.text.is_none();
            let loaded = if optimal {
                Some(Vec::new())
            } else {
                load(sink, std::slice::from_ref(&strategy))
            };
            if let Some(loaded) = loaded
                && stealths_fit(sink, &[stealth])
            {
                let strategy = loaded.first().map(Box::as_ref);
                ledger(sink, rules, strategy, stealth, seed, index);
            }
        }
    }
}

/// What the page builds its controls from.
fn meta() -> Value {
    let settings: Vec<Value> = rules::settings()
        .into_iter()
        .map(
            |s| json!({"key": s.key, "design": s.design, "values": s.values, "printed": s.printed}),
        )
        .collect();
    let presets: Vec<Value> = PRESETS
        .iter()
        .map(|p| {
            let changes: Vec<String> = rules::settings()
                .iter()
                .filter_map(|s| {
                    let value = if s.design {
                        p.rules.design.get(s.key)?
                    } else {
                        p.rules.get(s.key)?.to_string()
                    };
                    (value != s.printed).then(|| format!("{}={value}", s.key))
                })
                .collect();
            json!({"name": p.name, "changes": changes})
        })
        .collect();
    let strategies: Vec<Value> = strategy::registry()
        .into_iter()
        .filter(|e| e.name != OPTIMAL)
        .map(|e| json!({"name": e.name, "description": e.description}))
        .collect();
    json!({
        "type": "meta",
        "version": env!("CARGO_PKG_VERSION"),
        "settings": settings,
        "presets": presets,
        "strategies": strategies,
        "playbook": strategy::playbook(),
        "losses": LossCause::ALL.map(LossCause::key),
        "kinds": DecisionKind::ALL.map(DecisionKind::key),
        "max_points": MAX_POINTS,
    })
}

/// The strategies of a request; errors are sent, with the command line's words.
fn load(sink: &mut Sink<'_>, sources: &[RequestedStrategy]) -> Option<Vec<Box<dyn Strategy>>> {
    load_at(sink, sources.iter().enumerate())
}

/// [`load`] of some of a request's strategies, each with its index in the request (which
/// errors name).
fn load_at<'a>(
    sink: &mut Sink<'_>,
    sources: impl Iterator<Item = (usize, &'a RequestedStrategy)>,
) -> Option<Vec<Box<dyn Strategy>>> {
    let mut ok = true;
    let mut strategies = Vec::new();
    for (index, source) in sources {
        let loaded = match (&source.text, source.name.as_str()) {
            (Some(text), name) => {
                let origin = source.origin.as_deref().unwrap_or(name);
                FileStrategy::parse(name, origin, text).map(|s| Box::new(s) as Box<dyn Strategy>)
            }
            // Optimal play is a column of its own, solved rather than evaluated.
            (None, OPTIMAL) => Err(strategy::unknown(OPTIMAL)),
            (None, name) => engine::resolve(name),
        };
        match loaded {
            Ok(s) => strategies.push(s),
            Err(e) => {
                send(
                    sink,
                    &json!({"type": "error", "field": "strategy", "index": index,
                            "name": source.name, "message": e.to_string()}),
                );
                ok = false;
            }
        }
    }
    ok.then_some(strategies)
}

fn stealths_fit(sink: &mut Sink<'_>, stealths: &[u8]) -> bool {
    let fit = stealths.iter().all(|&s| s <= MAX_STEALTH);
    if !fit {
        error(
            sink,
            "request",
            &format!("a starting stealth is 0..={MAX_STEALTH}"),
        );
    }
    fit
}

fn budget() -> Budget<'static> {
    Budget {
        max_states: (MAX_BYTES / BYTES_PER_STATE) as usize,
        cancel: &[],
    }
}

/// Counts the steps of a job for the page's progress bar.
struct Steps {
    done: usize,
    total: usize,
}

impl Steps {
    fn advance(&mut self, sink: &mut Sink<'_>) {
        self.done += 1;
        send(
            sink,
            &json!({"type": "progress", "done": self.done, "total": self.total}),
        );
    }
}

fn value(sink: &mut Sink<'_>, method: &str, strategy: &str, stealth: u8, figures: &Expectation) {
    send(
        sink,
        &json!({"type": "value", "method": method, "strategy": strategy, "stealth": stealth,
                "win": figures.win, "figures": figures}),
    );
}

fn halted(sink: &mut Sink<'_>, what: &str, halt: &Halt) {
    error(sink, "engine", &format!("{what}: {halt}"));
}

/// Optimal play at `stealths`, in one solve as `raven solve` asks for them: the value
/// alone, or with the optimal policy's figures (as `raven solve` reports them).
fn solve(sink: &mut Sink<'_>, rules: &Rules, stealths: &[u8], figures: bool) {
    let solver = Solver::keeping(*rules, Keep::PartBoundaries);
    if figures {
        match solve_with_figures(&solver, stealths, &budget()) {
            Ok(solved) => {
                for (&s, (_, e)) in stealths.iter().zip(&solved) {
                    value(sink, "optimal", OPTIMAL, s, e);
                }
            }
            Err(halt) => halted(sink, "optimal play", &halt),
        }
    } else {
        match solve_within(&solver, stealths, &budget()) {
            Ok(solved) => {
                for solution in &solved {
                    send(
                        sink,
                        &json!({"type": "value", "method": "optimal", "strategy": OPTIMAL,
                                "stealth": solution.stealth, "win": solution.value,
                                "figures": null}),
                    );
                }
            }
            Err(halt) => halted(sink, "optimal play", &halt),
        }
    }
}

/// Each strategy at `stealths`, one evaluation each as `raven exact` makes it.
fn exact(sink: &mut Sink<'_>, rules: &Rules, strategies: &[Box<dyn Strategy>], stealths: &[u8]) {
    let mut steps = Steps {
        done: 0,
        total: strategies.len(),
    };
    for strategy in strategies {
        match exact_within(rules, strategy.as_ref(), stealths, budget()) {
            Ok(run) => {
                for (&s, e) in stealths.iter().zip(&run.expectations) {
                    value(sink, "exact", strategy.name(), s, e);
                }
            }
            Err(halt) => return halted(sink, strategy.name(), &halt),
        }
        steps.advance(sink);
    }
}

/// `strategy`'s regret by decision kind at `stealth`, as `raven decisions` finds it.
fn decisions(sink: &mut Sink<'_>, rules: &Rules, strategy: &dyn Strategy, stealth: u8) {
    match engine::decisions(rules, strategy, &[stealth], budget()) {
        Ok(found) => {
            let d = &found[0];
            let kinds: Vec<Value> = DecisionKind::ALL
                .iter()
                .enumerate()
                .map(|(i, kind)| {
                    json!({"kind": kind.key(), "regret": d.by_kind.regret[i],
                           "arises": d.by_kind.arises[i], "matters": d.by_kind.matters[i]})
                })
                .collect();
            send(
                sink,
                &json!({"type": "decisions", "strategy": strategy.name(), "stealth": stealth,
                        "optimal": d.optimal, "exact": d.exact, "kinds": kinds}),
            );
        }
        Err(halt) => halted(sink, "regret by decision", &halt),
    }
}

/// `raven explore`'s grid over `axes` (one or two) on top of `base`: per valid point, optimal
/// play solved and each strategy evaluated at `stealths`; points whose values do not fit
/// together are skipped with the reason.
fn sweep(
    sink: &mut Sink<'_>,
    base: &Rules,
    axes: &[Axis],
    strategies: &[Box<dyn Strategy>],
    stealths: &[u8],
) {
    if axes.is_empty() || axes.len() > 2 {
        return error(sink, "request", "a sweep varies one or two parameters");
    }
    if let [a, b] = axes
        && a.key == b.key
    {
        return error(sink, "request", &format!("{} is swept twice", a.key));
    }
    let grid = match grid::points(base, axes) {
        Ok(grid) => grid,
        Err(e) => return error(sink, "request", &e),
    };
    let mut steps = Steps {
        done: 0,
        total: grid.len(),
    };
    let budget = budget();
    let mut labels = vec![OPTIMAL.to_string()];
    labels.extend(strategies.iter().map(|s| s.name().to_string()));
    let mut points = Vec::new();
    for (index, point) in grid.into_iter().enumerate() {
        let GridPoint { values, rules } = match point {
            Ok(point) => point,
            Err((values, e)) => {
                send(
                    sink,
                    &json!({"type": "skipped", "index": index, "values": values,
                            "message": e.to_string()}),
                );
                steps.advance(sink);
                continue;
            }
        };
        let mut wins = Vec::new();
        match solve_within(
            &Solver::keeping(rules, Keep::PartBoundaries),
            stealths,
            &budget,
        ) {
            Ok(solved) => wins.push(solved.iter().map(|s| s.value).collect::<Vec<f64>>()),
            Err(halt) => return halted(sink, &format!("optimal play at {rules}"), &halt),
        }
        for strategy in strategies {
            match exact_within(&rules, strategy.as_ref(), stealths, budget) {
                Ok(run) => wins.push(run.expectations.iter().map(|e| e.win).collect()),
                Err(halt) => {
                    return halted(sink, &format!("{} at {rules}", strategy.name()), &halt);
                }
            }
        }
        send(
            sink,
            &json!({"type": "point", "index": index, "values": values,
                    "rules": rules.to_string(), "labels": labels, "stealths": stealths,
                    "wins": wins}),
        );
        points.push(rows::GridPointWins {
            values,
            rules,
            wins,
        });
        steps.advance(sink);
    }
    if points.is_empty() {
        return error(sink, "rules", "no point of the grid is a valid design");
    }
    let keys: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
    send(
        sink,
        &json!({"type": "csv", "text": rows::explored(&keys, &labels, stealths, &points)}),
    );
}

/// `raven quality`'s assessment of `chosen` (`None`: optimal play) at `stealths`, with the
/// same call, so the figures are the same bits; one `quality` message per strategy and
/// stealth.
fn quality(
    sink: &mut Sink<'_>,
    rules: &Rules,
    chosen: &[(String, Option<Box<dyn Strategy>>)],
    stealths: &[u8],
) {
    let chosen: Vec<(String, Option<&dyn Strategy>)> = chosen
        .iter()
        .map(|(name, s)| (name.clone(), s.as_deref()))
        .collect();
    match assess(rules, &chosen, stealths, 0, 0, budget()) {
        Ok(assessed) => {
            // Strategy by strategy, each at every stealth, as `assess` returns them.
            let methods = chosen
                .iter()
                .flat_map(|(_, s)| stealths.iter().map(move |_| s.is_none()));
            for (a, optimal) in assessed.iter().zip(methods) {
                let method = if optimal { "optimal" } else { "exact" };
                send(
                    sink,
                    &json!({"type": "quality", "method": method, "strategy": a.strategy,
                            "stealth": a.stealth, "figures": crate::quality::figures(&a.quality)}),
                );
            }
        }
        Err(e) => error(sink, "engine", &format!("quality: {e}")),
    }
}

/// Game `index` of `seed` at `stealth`, played by `strategy` (`None`: optimal play) as `raven
/// play` plays it, with optimal play's win probability after every step.
fn ledger(
    sink: &mut Sink<'_>,
    rules: &Rules,
    strategy: Option<&dyn Strategy>,
    stealth: u8,
    seed: u64,
    index: u64,
) {
    let game = PurpleRaven {
        rules: *rules,
        stealth,
    };
    let (start, steps, won) =
        match raven_core::quality::one_game(&game, strategy, seed, index, budget()) {
            Ok(played) => played,
            Err(e) => return error(sink, "engine", &format!("ledger: {e}")),
        };
    let mut message = crate::ledger::fields(start, &steps, won);
    message["type"] = json!("ledger");
    message["method"] = json!(if strategy.is_some() {
        "exact"
    } else {
        "optimal"
    });
    message["strategy"] = json!(strategy.map_or(OPTIMAL, |s| s.name()));
    message["stealth"] = json!(stealth);
    message["seed"] = json!(seed);
    message["index"] = json!(index);
    send(sink, &message);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use raven_core::engine::SolverPolicy;
    use raven_core::games::Game;

    /// Every message `run` sends for `request`, read back as JSON.
    pub(crate) fn messages(request: &str) -> Vec<Value> {
        let mut out = Vec::new();
        run(request, &mut |m: &str| {
            out.push(serde_json::from_str(m).unwrap())
        });
        out
    }

    #[test]
    fn values_are_the_bits_of_the_command_line_s_calls() {
        let stealths = [0u8, 6, 10, 12];
        let overrides = r#""preset":"main-text","rules":["run-challenges=4"]"#;
        let mut got = messages(&format!(
            r#"{{"op":"solve",{overrides},"stealths":[0,6,10,12],"figures":true}}"#
        ));
        got.extend(messages(&format!(
            r#"{{"op":"exact",{overrides},"strategies":[{{"name":"reference"}}],
                "stealths":[0,6,10,12]}}"#
        )));
        let early = messages(&format!(
            r#"{{"op":"solve",{overrides},"stealths":[10],"figures":false}}"#
        ));
        let rules = Rules::preset("main-text")
            .unwrap()
            .with_overrides(&["run-challenges=4".to_string()])
            .unwrap();
        let whole = solve_with_figures(&Solver::new(rules), &stealths, &Budget::UNLIMITED).unwrap();
        let reference = engine::exact(&rules, &raven_core::strategy::ReferenceStrategy, &stealths);
        let win = |got: &[Value], method: &str, stealth: u8| {
            got.iter()
                .find(|m| m["type"] == "value" && m["method"] == method && m["stealth"] == stealth)
                .map(|m| m["win"].as_f64().unwrap())
                .unwrap()
        };
        for (i, &s) in stealths.iter().enumerate() {
            assert_eq!(
                win(&got, "optimal", s).to_bits(),
                whole[i].0.value.to_bits(),
                "{s}"
            );
            assert_eq!(
                win(&got, "exact", s).to_bits(),
                reference.expectations[i].win.to_bits(),
                "{s}"
            );
        }
        // The value of one stealth solved alone, without figures, is the same.
        assert_eq!(
            win(&early, "optimal", 10).to_bits(),
            whole[2].0.value.to_bits()
        );
        assert!(early[0]["figures"].is_null());
        assert_eq!(got.last().unwrap()["type"], "done");
    }

    #[test]
    fn the_csv_is_written_from_the_figures_handed_back() {
        let got = messages(
            r#"{"op":"exact","preset":"clarified","rules":[],"strategies":[{"name":"duo"}],"stealths":[3]}"#,
        );
        let figures = &got[0]["figures"];
        let csv = messages(&format!(
            r#"{{"op":"csv","preset":"clarified","rules":[],"results":[{{"strategy":"duo",
                "method":"exact","stealth":3,"figures":{figures}}}]}}"#
        ));
        let text = csv[0]["text"].as_str().unwrap();
        let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        assert_eq!(&row[..3], ["duo", "clarified", "3"]);
        // The CSV carries the figure to the command line's twelve significant digits.
        assert_eq!(
            row[5].parse::<f64>().unwrap(),
            raven_core::rows::rounded(figures["win"].as_f64().unwrap())
        );
    }

    #[test]
    fn bad_inputs_are_answered_with_the_core_s_words() {
        let got = messages(
            r#"{"op":"exact","preset":"main-text","rules":["base-dice=4"],
                "strategies":[{"name":"reference"}],"stealths":[10]}"#,
        );
        assert_eq!(got[0]["field"], "rules");
        assert_eq!(
            got[0]["message"],
            "base-dice=4 is more than specialist-dice=3: a specialist rolls at least as many \
             dice as anyone"
        );
        let got = messages(
            r#"{"op":"exact","preset":"main-text","rules":[],
                "strategies":[{"name":"mine","origin":"mine.toml","text":"[recruit]\nx = = 1\n"}],
                "stealths":[10]}"#,
        );
        assert_eq!(got[0]["field"], "strategy");
        let message = got[0]["message"].as_str().unwrap();
        assert!(message.starts_with("mine.toml:2:"), "{message}");
        assert!(!got.iter().any(|m| m["type"] == "value"));
    }

    #[test]
    fn meta_lists_every_rule_key() {
        let got = messages(r#"{"op":"meta"}"#);
        let keys = got[0]["settings"].as_array().unwrap().len();
        assert_eq!(keys, Rules::keys().count() + rules::Design::keys().count());
        assert_eq!(got[0]["presets"][1]["name"], "clarified");
        assert!(
            !got[0]["presets"][1]["changes"]
                .as_array()
                .unwrap()
                .is_empty()
        );
    }

    /// The figures `raven quality --out` writes for `q`, by column, as the page names them.
    pub(crate) fn quality_columns(
        q: &raven_core::engine::generic::quality::Quality,
    ) -> Vec<(&'static str, f64)> {
        let median = q.length_quantile(0.5);
        vec![
            ("win_rate", q.figures.win),
            ("skill_loss", q.skill_loss),
            ("luck_share", q.luck_share()),
            ("suspense", q.suspense()),
            ("comeback_rate", q.comeback_rate()),
            ("heartbreak_rate", q.heartbreak_rate()),
            ("mean_rolls", q.figures.rolls),
            ("mean_decisions", q.figures.decisions),
            ("meaningful_decisions", q.meaningful[0]),
            ("rolls_median", f64::from(median[0])),
            ("decisions_median", f64::from(median[1])),
        ]
    }

    #[test]
    fn quality_is_the_bits_of_raven_quality_s_assessment() {
        // The page asks for each strategy on its own (one per worker); `raven quality
        // --strategy optimal,reference,tuned` assesses them in one call: the same bits.
        let overrides = r#""preset":"main-text","rules":["run-challenges=4"]"#;
        let mut got = Vec::new();
        for name in ["optimal", "reference", "tuned"] {
            got.extend(messages(&format!(
                r#"{{"op":"quality",{overrides},"strategies":[{{"name":"{name}"}}],
                    "stealths":[4]}}"#
            )));
        }
        let rules = Rules::preset("main-text")
            .unwrap()
            .with_overrides(&["run-challenges=4".to_string()])
            .unwrap();
        let tuned = engine::resolve("tuned").unwrap();
        let chosen: Vec<(String, Option<&dyn Strategy>)> = vec![
            (OPTIMAL.to_string(), None),
            (
                "reference".to_string(),
                Some(&raven_core::strategy::ReferenceStrategy),
            ),
            ("tuned".to_string(), Some(tuned.as_ref())),
        ];
        let whole = assess(&rules, &chosen, &[4], 0, 0, Budget::UNLIMITED).unwrap();
        let quality: Vec<&Value> = got.iter().filter(|m| m["type"] == "quality").collect();
        assert_eq!(quality.len(), 3);
        for (m, a) in quality.iter().zip(&whole) {
            assert_eq!(m["strategy"], a.strategy.as_str());
            assert_eq!(
                m["method"],
                if a.strategy == OPTIMAL {
                    "optimal"
                } else {
                    "exact"
                }
            );
            assert_eq!(m["stealth"].as_u64(), Some(4));
            for (column, expected) in quality_columns(&a.quality) {
                let page = m["figures"][column].as_f64().unwrap();
                assert_eq!(
                    page.to_bits(),
                    expected.to_bits(),
                    "{} {column}",
                    a.strategy
                );
            }
        }
        // A strategy the page cannot load is named, before any engine.
        let got = messages(
            r#"{"op":"quality","strategies":[{"name":"optimal"},{"name":"nope"}],"stealths":[4]}"#,
        );
        assert_eq!(
            (got[0]["field"].as_str(), got[0]["index"].as_u64()),
            (Some("strategy"), Some(1))
        );
    }

    /// `(luck, skill, rolls, decisions)` of a `ledger` message: its changes of `μ` summed in
    /// order, as a quality course sums them.
    pub(crate) fn ledger_sums(m: &Value) -> (f64, f64, u32, u32) {
        let mut now = m["start"].as_f64().unwrap();
        let (mut luck, mut skill, mut rolls, mut decisions) = (0.0, 0.0, 0, 0);
        for step in m["steps"].as_array().unwrap() {
            let mu = step["mu"].as_f64().unwrap();
            if step["roll"].as_bool().unwrap() {
                luck += mu - now;
                rolls += 1;
            } else {
                skill += mu - now;
                decisions += 1;
            }
            now = mu;
        }
        // At the end `μ` is the result.
        let won = m["won"].as_bool().unwrap();
        assert_eq!(now, if won { 1.0 } else { 0.0 });
        (luck, skill, rolls, decisions)
    }

    #[test]
    fn the_ledger_is_the_game_raven_play_and_raven_quality_follow() {
        let overrides = r#""preset":"main-text","rules":["run-challenges=4"]"#;
        let rules = Rules::preset("main-text")
            .unwrap()
            .with_overrides(&["run-challenges=4".to_string()])
            .unwrap();
        let seed = raven_core::rows::DEFAULT_SEED;
        let solver = Solver::new(rules);
        solve_within(&solver, &[4], &Budget::UNLIMITED).unwrap();
        let table = SolverPolicy::of(&solver);
        let game = PurpleRaven { rules, stealth: 4 };
        let start = solver.value(&game.start());
        for (name, index) in [("reference", 3u64), ("optimal", 0)] {
            let got = messages(&format!(
                r#"{{"op":"ledger",{overrides},"strategy":{{"name":"{name}"}},"stealth":4,"index":{index}}}"#
            ));
            let m = got.iter().find(|m| m["type"] == "ledger").unwrap();
            assert_eq!(
                (m["strategy"].as_str(), m["index"].as_u64()),
                (Some(name), Some(index))
            );
            assert_eq!(m["seed"].as_u64(), Some(seed));
            assert_eq!(m["start"].as_f64().unwrap().to_bits(), start.to_bits());
            let reference = raven_core::strategy::ReferenceStrategy;
            let strategy: &dyn Strategy = if name == OPTIMAL { &table } else { &reference };
            let c = raven_core::quality::follow(&game, strategy, &solver, start, seed, index);
            let (luck, skill, rolls, decisions) = ledger_sums(m);
            assert_eq!((rolls, decisions), (c.rolls, c.decisions), "{name}");
            assert_eq!(
                (luck.to_bits(), skill.to_bits()),
                (c.luck.to_bits(), c.skill.to_bits()),
                "{name}"
            );
            assert_eq!(m["won"].as_bool(), Some(c.won));
        }
    }

    #[test]
    fn sweep_skips_points_that_do_not_fit_together() {
        let got = messages(
            r#"{"op":"sweep","preset":"main-text","rules":[],"strategies":[{"name":"reference"}],
                "axes":[{"key":"threshold","values":["3","4"]}],"stealths":[4]}"#,
        );
        assert_eq!(got.iter().filter(|m| m["type"] == "skipped").count(), 1);
        assert_eq!(got.iter().filter(|m| m["type"] == "point").count(), 1);
        let csv = got.iter().find(|m| m["type"] == "csv").unwrap()["text"]
            .as_str()
            .unwrap();
        assert!(csv.starts_with("rules,param_1,value_1,param_2,value_2,stealth,"));
        assert_eq!(csv.lines().count(), 3);
    }
}
