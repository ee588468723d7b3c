//! Generated inputs for the parsers the library exposes: strategy files, rules files and
//! `--rule` values, as text of any shape and as real files with bytes changed, cut or added.
//! Each must parse or give a clean error, never panic. The parsers of the command line itself
//! (shard files, `--stealth`, `--param`, answers and dice typed at the table) have their
//! generators beside them (`cargo test --release --lib fuzz`); the committed corpus of real
//! and broken inputs replays through the binary in `hostile::every_parser_s_corpus_replays`.
//!
//! A short run by default; `RAVEN_FUZZ_CASES=1000000` runs each generator that many times
//! (CONTRIBUTING.md, "Fuzzing").

use proptest::prelude::*;
use proptest::sample::Index;

use raven::rules::{Rules, parse_rules};
use raven::strategy::FileStrategy;

/// The configuration of every generator here.
fn config() -> ProptestConfig {
    let cases = std::env::var("RAVEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// The bundled strategy files and a rules file using every key form, to mutate.
const STRATEGIES: [&str; 3] = [
    include_str!("../../strategies/reference.toml"),
    include_str!("../../strategies/side-maximiser.toml"),
    include_str!("../corpus/strategy/valid-every-knob.toml"),
];
const RULES: &str = include_str!("../corpus/rules/valid-every-form.toml");

/// `text` with bytes replaced, a cut and a tail added: real files gone wrong.
fn mutated(text: &str, edits: &[(Index, u8)], cut: Index, tail: &[u8]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for (at, byte) in edits {
        let at = at.index(bytes.len());
        bytes[at] = *byte;
    }
    bytes.truncate(cut.index(bytes.len() + 1));
    bytes.extend_from_slice(tail);
    bytes
}

/// Bytes the TOML syntax cares about, for tails that reach deeper than random bytes.
fn toml_tail() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop::sample::select(b"[]{}=\"'#.,\n-_ 0123456789abcdeyntruefalse".to_vec()),
        0..40,
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn strategy_texts_parse_or_are_refused(
        any_text in ".{0,200}",
        which in 0usize..STRATEGIES.len(),
        edits in proptest::collection::vec((any::<Index>(), any::<u8>()), 0..6),
        cut in any::<Index>(),
        tail in toml_tail(),
    ) {
        let _ = FileStrategy::parse("fuzz", "fuzz.toml", &any_text);
        let bytes = mutated(STRATEGIES[which], &edits, cut, &tail);
        if let Ok(text) = String::from_utf8(bytes)
            && let Err(e) = FileStrategy::parse("fuzz", "fuzz.toml", &text)
        {
            prop_assert!(e.to_string().contains("fuzz.toml"), "{e}");
        }
    }

    #[test]
    fn rules_files_parse_or_are_refused(
        any_text in ".{0,120}",
        edits in proptest::collection::vec((any::<Index>(), any::<u8>()), 0..6),
        cut in any::<Index>(),
        tail in toml_tail(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        for bytes in [any_text.into_bytes(), mutated(RULES, &edits, cut, &tail)] {
            let path = dir.path().join("fuzz.toml");
            std::fs::write(&path, &bytes).unwrap();
            if let Err(e) = Rules::from_file(&path) {
                prop_assert!(e.to_string().contains("fuzz.toml"), "{e}");
            }
        }
    }

    #[test]
    fn rule_values_parse_or_are_refused(
        any_text in ".{0,40}",
        shaped in "[a-z-]{0,24}=[a-z0-9-]{0,16}",
        preset in "[a-z-]{0,12}",
    ) {
        for setting in [any_text, shaped] {
            if let Ok(rules) = parse_rules("main-text", std::slice::from_ref(&setting)) {
                // A rule set that parsed names itself in a way that parses back.
                let spelled = rules.to_string();
                let again: Vec<String> = spelled
                    .split_whitespace()
                    .filter(|s| s.contains('='))
                    .map(String::from)
                    .collect();
                let base = spelled.split_whitespace().next().unwrap_or("main-text");
                let base = if base.contains('=') { "main-text" } else { base };
                prop_assert_eq!(parse_rules(base, &again).ok(), Some(rules), "{}", spelled);
            }
        }
        let _ = parse_rules(&preset, &[]);
    }
}
