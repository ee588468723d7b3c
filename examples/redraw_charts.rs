//! Redraws the report's charts from the committed CSV files, without recomputing anything:
//! `cargo run --features tools --example redraw_charts -- reports` rewrites `reports/*.svg` from
//! `reports/win-rates.csv` and `reports/rule-variants.csv`. For work on the charts themselves;
//! `raven report` remains the one way to regenerate the report. With `--png`, each chart is
//! also rendered to PNG beside it (resvg, with the system's fonts), to look at.

use std::path::Path;

use raven::engine::Expectation;
use raven::engine::Tally;
use raven::report::balance::{Balance, VariantRow};
use raven::report::charts::{variant_chart, win_chart};
use raven::report::{Method, Summary};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::playbook;

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(|| "reports".into());
    let dir = Path::new(&dir);
    let mut reader = csv::Reader::from_path(dir.join("win-rates.csv")).expect("win-rates.csv");
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let mut win_rates = Vec::new();
    for row in reader.records() {
        let row = row.unwrap();
        let rules = Rules::preset(&row[col("rules")]).expect("a preset");
        let stealth: u8 = row[col("stealth")].parse().unwrap();
        let name = &row[col("strategy")];
        let f = |c: &str| row[col(c)].parse::<f64>().unwrap();
        let n = |c: &str| row[col(c)].parse::<u64>().unwrap();
        let summary = match &row[col("method")] {
            "monte-carlo" => {
                let tally = Tally {
                    games: n("games"),
                    wins: n("wins"),
                    ..Tally::default()
                };
                Summary::from_tally(name, rules, stealth, tally, n("seed"), f("ci_level"))
            }
            method => {
                let method = if method == "optimal" {
                    Method::Optimal
                } else {
                    Method::Exact
                };
                let e = Expectation {
                    win: f("win_rate"),
                    ..Expectation::default()
                };
                Summary::from_expectation(name, rules, stealth, method, e)
            }
        };
        win_rates.push(summary);
    }
    let mut reader = csv::Reader::from_path(dir.join("rule-variants.csv")).expect("variants");
    let mut variants = Vec::new();
    let mut headline = Vec::new();
    for row in reader.records() {
        let row = row.unwrap();
        let stealth: u8 = row[2].parse().unwrap();
        if !headline.contains(&stealth) {
            headline.push(stealth);
        }
        variants.push(VariantRow {
            variant: row[0].to_string(),
            rules: row[1].to_string(),
            stealth,
            strategy: row[3].to_string(),
            method: row[4].to_string(),
            win_rate: row[5].parse().unwrap(),
            default_win_rate: row[6].parse().unwrap(),
            effect: row[7].parse().unwrap(),
            raven_version: env!("CARGO_PKG_VERSION"),
        });
    }
    let balance = Balance {
        exact_budget: 0,
        command: String::new(),
        presets: vec![MAIN_TEXT, CLARIFIED],
        strategies: playbook(),
        headline,
        win_rates,
        variants,
        levers: Vec::new(),
        // The charts draw win rates and variants only.
        decisions: Vec::new(),
        decisions_left_out: Vec::new(),
        watched: Vec::new(),
        rules_of_thumb: Vec::new(),
        quality: None,
        cards: Vec::new(),
    };
    let png = std::env::args().any(|a| a == "--png");
    let mut charts: Vec<(String, String)> = [MAIN_TEXT, CLARIFIED]
        .into_iter()
        .map(|rules| {
            (
                format!("win-probability-{rules}.svg"),
                win_chart(&balance, rules),
            )
        })
        .collect();
    charts.push(("rule-variants.svg".into(), variant_chart(&balance)));
    for (name, svg) in charts {
        let path = dir.join(&name);
        std::fs::write(&path, &svg).unwrap();
        println!("{}", path.display());
        if png {
            render(&svg, &path.with_extension("png"));
        }
    }
}

/// Renders `svg` into a PNG file.
fn render(svg: &str, path: &Path) {
    let mut options = resvg::usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    let family = fonts
        .faces()
        .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
        .find(|name| name.contains("Sans") && !name.contains("Mono"));
    if let Some(family) = family {
        fonts.set_sans_serif_family(family);
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options).expect("renders");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.save_png(path).unwrap();
}
