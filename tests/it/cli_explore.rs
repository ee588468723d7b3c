//! `raven explore`: design parameters over a grid, each point solved and evaluated exactly.

use crate::common;

use common::{assert_chart_renders, entries, refused, stdout};

#[test]
fn explore_writes_tidy_rows_a_chart_and_the_points_inside_a_target() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("explore.csv");
    let svg = dir.path().join("explore.svg");
    let text = stdout(&[
        "explore",
        "--param",
        "run-challenges=0,3,6",
        "--stealth",
        "4,6",
        "--target",
        "0..100",
        "--quiet",
        "--out",
        csv.to_str().unwrap(),
        "--chart",
        svg.to_str().unwrap(),
    ]);
    assert!(text.contains("optimal@4"), "{text}");
    // Every point is inside 0–100 %.
    assert!(text.contains("stealth 6: run-challenges=0"), "{text}");
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let headers = reader.headers().unwrap().clone();
    for column in [
        "rules", "param_1", "value_1", "stealth", "strategy", "win_rate",
    ] {
        assert!(headers.iter().any(|h| h == column), "{headers:?}");
    }
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    // 3 points × 2 stealths × (optimal, reference).
    assert_eq!(rows.len(), 12);
    let get = |row: &csv::StringRecord, column: &str| {
        row[headers.iter().position(|h| h == column).unwrap()].to_string()
    };
    // The printed game is named as such, other points by their changed number.
    let printed = rows.iter().find(|r| get(r, "value_1") == "6").unwrap();
    assert_eq!(get(printed, "rules"), "main-text");
    let short = rows.iter().find(|r| get(r, "value_1") == "3").unwrap();
    assert_eq!(get(short, "rules"), "main-text run-challenges=3");
    // Optimal play beats the reference at every point, and a shorter run is easier.
    let win = |value: &str, strategy: &str| -> f64 {
        rows.iter()
            .find(|r| {
                get(r, "value_1") == value
                    && get(r, "strategy") == strategy
                    && get(r, "stealth") == "6"
            })
            .map(|r| get(r, "win_rate").parse().unwrap())
            .unwrap()
    };
    for value in ["0", "3", "6"] {
        assert!(win(value, "optimal") >= win(value, "reference"));
    }
    assert!(win("0", "optimal") > win("3", "optimal"));
    assert!(win("3", "optimal") > win("6", "optimal"));
    assert_chart_renders("explore", &std::fs::read_to_string(&svg).unwrap());
}

#[test]
fn explore_refuses_bad_grids_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    let out = out.to_str().unwrap();
    let svg = dir.path().join("x.svg").to_str().unwrap().to_string();
    for (args, says) in [
        (
            vec!["explore", "--param", "colour=3", "--out", out],
            "not a design parameter",
        ),
        (
            vec!["explore", "--param", "team-size=0..3", "--out", out],
            "cannot be '0'",
        ),
        (
            vec!["explore", "--param", "base-dice=4..5", "--out", out],
            "no point of the grid",
        ),
        (
            vec![
                "explore",
                "--param",
                "threshold=2..6",
                "--param",
                "run-challenges=0..12",
                "--param",
                "team-size=1..6",
                "--out",
                out,
            ],
            "one or two parameters",
        ),
        (
            vec![
                "explore",
                "--param",
                "threshold=4..6",
                "--param",
                "team-size=1..3",
                "--chart",
                &svg,
                "--shard",
                "1/2",
                "--out",
                out,
            ],
            "leave --chart out",
        ),
        (
            vec![
                "explore",
                "--param",
                "threshold=4..6",
                "--target",
                "40..50",
                "--target-strategy",
                "duo",
            ],
            "not among the explored strategies",
        ),
    ] {
        let line = refused(&args);
        assert!(line.contains(says), "{args:?}: {line}");
    }
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn explore_draws_two_parameters_as_a_heat_map_with_a_cell_per_point() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("heat.svg");
    // threshold=3 is below the printed eased threshold (4): those points are skipped.
    let text = stdout(&[
        "explore",
        "--param",
        "run-challenges=0..2",
        "--param",
        "threshold=3..4",
        "--strategy",
        "reference",
        "--stealth",
        "6",
        "--quiet",
        "--chart",
        svg.to_str().unwrap(),
    ]);
    assert!(text.contains("skipped 3 point(s)"), "{text}");
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert_chart_renders("explore-heat", &drawn);
    let document = roxmltree::Document::parse(&drawn).expect("well-formed SVG");
    let classed = |class: &str| {
        document
            .descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|c| c == class))
            })
            .count()
    };
    // (optimal, reference) × stealth 6 × 3 × 2 points, of which 3 per panel skipped.
    assert_eq!(classed("panel"), 2);
    assert_eq!(classed("cell"), 12);
    assert_eq!(classed("skipped"), 6);
    assert_eq!(classed("value"), 6);
    assert_eq!(classed("legend"), 1);
    assert!(drawn.contains("run-challenges × threshold"), "{drawn}");
}
