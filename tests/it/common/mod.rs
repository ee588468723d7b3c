//! The harness every CLI test shares: run the real binary, expect success or a refusal, look
//! at what it left behind. One copy, so that what "refused" means (exit 2, nothing on
//! standard output, one error line, no panic) is the same in every test file.

// Each test file uses only some of these.
#![allow(dead_code)]

pub mod annulus_brute;
pub mod brute;
pub mod oracle;
pub mod strategies;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;

/// The `raven` binary of this build.
pub fn raven() -> Command {
    Command::cargo_bin("raven").expect("the raven binary is built")
}

/// Runs `raven ARGS`, expects success and nothing on standard error (no progress bar leaks
/// into a pipe); returns standard output.
pub fn stdout(args: &[&str]) -> String {
    let output = raven().args(args).output().expect("raven runs");
    assert!(output.status.success(), "{args:?}: {output:?}");
    assert!(
        output.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Runs `raven ARGS`, expects exit code 2, no output, no panic, and exactly one error line;
/// returns that line.
pub fn refused(args: &[&str]) -> String {
    let output = raven().args(args).output().expect("raven runs");
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    assert!(output.stdout.is_empty(), "{args:?}: output on stdout");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    errors[0].to_string()
}

/// A small report's arguments (stealth 0..=1, headline stealths 1 and 0, given out of order),
/// as `raven report` and its shards take them: the cheapest report with two headline stealths
/// (65 s of CPU at stealth 0..=2, 52 s here).
pub const SMALL_REPORT: [&str; 8] = [
    "report",
    "--games",
    "700",
    "--max-stealth",
    "1",
    "--stealth",
    "1,0",
    "--quiet",
];

/// The small report the report tests read, made once per test run: a report is about a minute
/// of CPU on two cores (its thirty-odd solves), and three tests read the same one.
pub struct SmallReport {
    /// Where it was run, its output in `rep/` (relative, as the README quotes it); shard
    /// files may be made beside it.
    pub dir: PathBuf,
    /// `report --shard k/3 --threads 1` for k = 1..=3 (`report-k.csv`, in `dir`): each unit of
    /// work recomputed in another process on one thread.
    pub shards: [PathBuf; 3],
    /// Kept for as long as the test binary runs.
    _temp: tempfile::TempDir,
}

/// The small report and its shards ([`SmallReport`]), made by whichever test asks first.
pub fn small_report() -> &'static SmallReport {
    static REPORT: OnceLock<SmallReport> = OnceLock::new();
    REPORT.get_or_init(|| {
        let temp = tempfile::Builder::new()
            .prefix("small-report")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let dir = temp.path().to_path_buf();
        run_in(&dir, &[&SMALL_REPORT[..], &["--out", "rep"]].concat());
        let shards = [1, 2, 3].map(|k| {
            let name = format!("report-{k}.csv");
            let spec = format!("{k}/3");
            let args = [&SMALL_REPORT[..], &["--threads", "1"]].concat();
            let note = run_in(
                &dir,
                &[&args[..], &["--shard", &spec, "--out", &name]].concat(),
            );
            assert!(note.contains(&format!("shard {spec}")), "{note}");
            dir.join(name)
        });
        SmallReport {
            dir,
            shards,
            _temp: temp,
        }
    })
}

/// Runs `raven ARGS` in `dir` (a report quotes its relative `--out`), expecting success;
/// returns standard output.
pub fn run_in(dir: &Path, args: &[&str]) -> String {
    let output = raven().current_dir(dir).args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// A temporary file with `text`, kept alive by the returned directory.
pub fn file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Files in `dir` (to prove nothing, not even a temporary file, was left behind).
pub fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect()
}

/// The widest line of `text`, in characters (what a terminal counts, `–` being one).
pub fn widest_line(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// Renders an SVG chart the way a viewer would (resvg, with the system's fonts) and checks
/// that it is drawn: a chart resvg cannot parse fails, so does a blank one, and so does one
/// where a series (`class="series"`) covers fewer than 40 pixels of its own colour.
/// `RAVEN_CHART_PNG=DIR` keeps the rendered PNG (`name` with `.png`), to look at it.
pub fn assert_chart_renders(name: &str, svg: &str) {
    let mut options = resvg::usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // The charts ask for Helvetica, Arial or the viewer's sans-serif; whatever sans-serif
    // font this machine has stands in for them (fontdb's default is Arial alone).
    let family = fonts
        .faces()
        .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
        .find(|name| name.contains("Sans") && !name.contains("Mono"));
    if let Some(family) = family {
        fonts.set_sans_serif_family(family);
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options)
        .unwrap_or_else(|e| panic!("{name} does not render: {e}"));
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let pixels: Vec<[u8; 3]> = pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    let inked = pixels.iter().filter(|p| **p != [255, 255, 255]).count();
    assert!(
        inked * 50 > pixels.len(),
        "{name}: under 2% of the chart is drawn ({inked} of {} pixels)",
        pixels.len()
    );
    let document = roxmltree::Document::parse(svg).expect("well-formed SVG");
    for series in document
        .descendants()
        .filter(|n| n.attribute("class") == Some("series"))
    {
        let label = series.attribute("data-name").unwrap_or("?");
        let colour = series
            .descendants()
            .find_map(|n| n.attribute("stroke").or(n.attribute("fill")))
            .filter(|c| c.starts_with('#') && c.len() == 7)
            .unwrap_or_else(|| panic!("{name}: {label} has a colour"));
        let rgb = [1, 3, 5].map(|i| u8::from_str_radix(&colour[i..i + 2], 16).unwrap());
        let near = pixels
            .iter()
            .filter(|p| (0..3).all(|k| p[k].abs_diff(rgb[k]) <= 40))
            .count();
        assert!(
            near >= 40,
            "{name}: {label} ({colour}) covers only {near} pixels"
        );
    }
    if let Some(dir) = std::env::var_os("RAVEN_CHART_PNG") {
        let png = Path::new(&dir).join(format!("{}.png", name.trim_end_matches(".svg")));
        pixmap.save_png(png).unwrap();
    }
}

/// The figures of a printed ledger: the start, luck, decisions and result, in points.
pub fn ledger_figures(stdout: &str) -> [f64; 4] {
    let figure = |label: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no '{label}' line in\n{stdout}"));
        line.trim_start()[label.len()..]
            .split([',', '='])
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap_or_else(|e| panic!("{line}: {e}"))
    };
    [
        figure("at the start"),
        figure("luck"),
        figure("decisions"),
        figure("result"),
    ]
}

/// Games sampled for [`agrees_with_sampled_games`].
pub const SAMPLED: u64 = 20_000;

/// Every exact figure of `q` that sampled games estimate is within 4 standard errors of their
/// estimate (an oracle for the exact replay: the games are played by the game's own loop): the win rate, the skill loss, the suspense, comebacks and heartbreaks, where
/// games are decided, the median length.
pub fn agrees_with_sampled_games(
    q: &raven_core::engine::generic::quality::Quality,
    sampled: &raven_core::engine::generic::quality::Sampled,
    preset: &str,
) {
    let share_z = |(k, n): (u64, u64), p: f64| {
        if n == 0 || p == 0.0 || p == 1.0 {
            assert!(
                n == 0 || k as f64 == p * n as f64,
                "{preset}: {k} of {n} against {p}"
            );
            return 0.0;
        }
        (k as f64 / n as f64 - p) / (p * (1.0 - p) / n as f64).sqrt()
    };
    let wins = sampled.win_rate();
    let won = (sampled.wins, sampled.games);
    let lost = (sampled.games - sampled.wins, sampled.games);
    let mut z = vec![
        ("win", share_z(won, q.figures.win)),
        ("comeback", share_z(sampled.comebacks(), q.comeback_rate())),
        (
            "heartbreak",
            share_z(sampled.heartbreaks(), q.heartbreak_rate()),
        ),
    ];
    let (mean, se) = sampled.skill_loss();
    if se > 0.0 {
        z.push(("skill loss", (mean - q.skill_loss) / se));
    } else {
        assert!((mean - q.skill_loss).abs() < 1e-12, "{preset}");
    }
    let s = sampled.suspense_interval();
    z.push((
        "suspense",
        (s.value - q.suspense()) / ((s.high - s.low) / (2.0 * 1.96)),
    ));
    let decided = q.decided(raven_core::games::PHASES);
    let counts = sampled.decided();
    for (stage, (&won_k, &lost_k)) in counts[0].iter().zip(&counts[1]).enumerate() {
        let exact = if stage == raven_core::games::PHASES {
            decided.from_start
        } else {
            decided.by_stage[stage]
        };
        z.push(("decided (win)", share_z((won_k, won.0), exact[0])));
        z.push(("decided (loss)", share_z((lost_k, lost.0), exact[1])));
    }
    for rolls in [true, false] {
        let median = q.length_quantile(0.5)[usize::from(!rolls)] as usize;
        let exact: f64 = q.lengths(rolls).iter().take(median + 1).sum();
        let within: u64 = sampled.lengths(rolls).iter().take(median + 1).sum();
        z.push(("length", share_z((within, sampled.games), exact)));
    }
    for (what, z) in z {
        assert!(z.abs() < 4.0, "{preset}: {what}: z = {z} (wins {wins:?})");
    }
}
