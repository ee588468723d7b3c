//! What a person types at the table: a numbered option, or die faces. Every line is read
//! from standard input and checked here; anything that is not a valid answer is refused with a
//! one-line reason and asked again, and the end of input (Ctrl-D, or the end of a piped
//! script) is an answer of its own, so no input can make raven panic or loop without asking.

use std::io::{BufRead, Write};

use crate::error::{Error, Result};
use crate::game::{Chance, Character};

/// The longest line read whole (bytes). A longer line is read to its end in pieces and
/// refused: a stray `cat /dev/urandom` must not fill the memory.
const MAX_LINE: usize = 256;

/// The most read of one line before the input is given up as not a person's answers (bytes):
/// a line without end (`/dev/zero`) must not keep raven reading for ever.
const MAX_SKIPPED: u64 = 1 << 20;

/// Answers refused in a row before the input is given up as not a person's answers: an
/// endless stream of wrong lines (`yes x`) must not keep raven asking for ever.
const MAX_REFUSED: usize = 100;

/// Asks questions on `prompts` (standard error) and reads the answers from `input`, one line
/// each.
///
/// Prompts go to standard error, not standard output, so that `raven play --interactive >
/// game.txt` keeps a clean transcript of the game while the person still sees every prompt.
pub struct Prompter<R, W> {
    input: R,
    prompts: W,
}

impl<R: BufRead, W: Write> Prompter<R, W> {
    /// A prompter reading answers from `input` and asking on `prompts`.
    pub fn new(input: R, prompts: W) -> Prompter<R, W> {
        Prompter { input, prompts }
    }

    /// Asks `prompt` until `parse` accepts the answer; `None` at the end of input. A refused
    /// answer gets `parse`'s one-line reason, then the prompt again.
    pub fn ask<T>(
        &mut self,
        prompt: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>> {
        for _ in 0..MAX_REFUSED {
            // A signal while raven waits here says the game was abandoned (see `at_prompt`).
            let waiting = crate::cli::interrupt::at_prompt();
            self.say(format_args!("{prompt}"));
            let line = self.line();
            drop(waiting);
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    // The message that follows gets a line of its own.
                    self.say(format_args!("\n"));
                    return Err(e);
                }
            };
            let Some(line) = line else {
                // The cursor is still after the prompt: end its line.
                self.say(format_args!("\n"));
                return Ok(None);
            };
            match line.and_then(|text| parse(text.trim())) {
                Ok(value) => return Ok(Some(value)),
                Err(reason) => self.say(format_args!("  {reason}\n")),
            }
        }
        Err(Error::Input(format!(
            "{MAX_REFUSED} answers in a row were refused: standard input does not look like \
             answers typed at the table; stopped"
        )))
    }

    /// The next line: `None` at the end of input, `Some(Err(reason))` for a line that cannot
    /// be an answer (not UTF-8, or too long).
    fn line(&mut self) -> Result<Option<Result<String, String>>> {
        let mut bytes = Vec::new();
        let read = std::io::Read::take(&mut self.input, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(read_error)?;
        if read == 0 {
            return Ok(None);
        }
        if bytes.len() > MAX_LINE && bytes.last() != Some(&b'\n') {
            self.skip_line()?;
            return Ok(Some(Err(format!(
                "that line is too long (over {MAX_LINE} characters)"
            ))));
        }
        Ok(Some(
            String::from_utf8(bytes).map_err(|_| "that is not text (not UTF-8)".to_string()),
        ))
    }

    /// Writes to the prompts and flushes, so that a prompt shows before raven waits. A closed
    /// standard error is no reason to stop a game: errors are ignored.
    fn say(&mut self, text: std::fmt::Arguments<'_>) {
        let _ = self.prompts.write_fmt(text);
        let _ = self.prompts.flush();
    }

    /// Reads and drops the rest of an over-long line, in constant memory; a line that runs
    /// past [`MAX_SKIPPED`] bytes ends the reading (exit 2).
    fn skip_line(&mut self) -> Result<()> {
        let mut skipped = 0u64;
        loop {
            if skipped > MAX_SKIPPED {
                return Err(Error::Input(format!(
                    "a line of standard input runs past {} MiB: not answers typed at the \
                     table; stopped",
                    MAX_SKIPPED >> 20
                )));
            }
            let buffer = self.input.fill_buf().map_err(read_error)?;
            if buffer.is_empty() {
                return Ok(());
            }
            match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.input.consume(end + 1);
                    return Ok(());
                }
                None => {
                    let all = buffer.len();
                    self.input.consume(all);
                    skipped += all as u64;
                }
            }
        }
    }
}

/// A failure to read standard input (not its end): a runtime error, exit code 1.
fn read_error(e: std::io::Error) -> Error {
    Error::Runtime(format!("cannot read standard input: {e}"))
}

/// The option a person picked: `1..=count` typed, returned 0-based.
pub fn choice(text: &str, count: usize) -> Result<usize, String> {
    let range = format!("type a number from 1 to {count}");
    if text.is_empty() {
        return Err(format!("no answer: {range}"));
    }
    match text.parse::<u64>() {
        Ok(n) if (1..=count as u64).contains(&n) => Ok(n as usize - 1),
        Ok(n) => Err(format!("there is no option {n}: {range}")),
        Err(_) => Err(format!("'{}' is not a number: {range}", excerpt(text))),
    }
}

/// Die faces as typed: separated by spaces or commas, or run together (`3 5 2`, `3,5,2` and
/// `352` are the same three faces: no face has two digits).
pub fn faces(text: &str) -> Result<Vec<u8>, String> {
    let mut faces = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        for c in token.chars() {
            match c.to_digit(10) {
                Some(d @ 1..=6) => faces.push(d as u8),
                Some(d) => return Err(format!("{d} is not a die face: faces are 1 to 6")),
                None => {
                    return Err(format!(
                        "'{}' is not a die face: type faces 1 to 6, separated by spaces",
                        excerpt(token)
                    ));
                }
            }
        }
    }
    Ok(faces)
}

/// What to type at chance point `chance`, for the prompt: how many dice, and what for.
pub fn dice_request(chance: Chance) -> String {
    match chance {
        Chance::Complications => {
            let order: Vec<_> = Character::ALL.iter().map(|c| c.name()).collect();
            format!(
                "6 dice, one per character in the order {}",
                order.join(", ")
            )
        }
        Chance::ChallengeType => "1 die".to_string(),
        Chance::SideTypes => "2 dice, first side challenge first".to_string(),
        Chance::Check { dice: 1 } => "1 die".to_string(),
        Chance::Check { dice } => format!("the {dice} dice, or only the highest"),
    }
}

/// The outcome of `chance` for the faces typed ([`Chance::outcome_of_faces`]): as many faces
/// as [`Chance::dice`], or a check's highest die alone.
pub fn outcome(chance: Chance, text: &str) -> Result<u32, String> {
    let faces = faces(text)?;
    let wanted = chance.dice();
    let check = matches!(chance, Chance::Check { .. });
    if faces.len() != wanted && !(check && faces.len() == 1) {
        let what = if faces.is_empty() {
            "no face".to_string()
        } else {
            format!("{} faces", faces.len())
        };
        return Err(format!("{what} typed: type {}", dice_request(chance)));
    }
    Ok(chance.outcome_of_faces(&faces))
}

/// The start of what was typed, for an error message (at most 20 characters).
fn excerpt(text: &str) -> String {
    let mut short: String = text.chars().take(20).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(crate::input::fuzz_config())]

        /// Choices and dice typed at the table: any text is an answer in range or a reason.
        #[test]
        fn any_typed_text_is_an_answer_or_a_reason(
            text in ".{0,30}",
            digits in "[0-9 ,]{0,20}",
            count in 1usize..40,
        ) {
            for text in [&text, &digits] {
                if let Ok(i) = choice(text, count) {
                    prop_assert!(i < count);
                }
                if let Ok(faces) = faces(text) {
                    prop_assert!(faces.iter().all(|f| (1..=6).contains(f)));
                }
                for chance in [
                    Chance::Complications,
                    Chance::ChallengeType,
                    Chance::SideTypes,
                    Chance::Check { dice: 1 },
                    Chance::Check { dice: 3 },
                ] {
                    if let Ok(o) = outcome(chance, text) {
                        prop_assert!(chance.outcomes().any(|(x, _)| x == o), "{chance:?} {o}");
                    }
                }
            }
        }

        /// Any bytes on standard input: an answer, the end of input, or a clean refusal.
        #[test]
        fn any_input_bytes_end_in_an_answer_or_a_clean_stop(
            bytes in proptest::collection::vec(any::<u8>(), 0..2000),
        ) {
            let mut prompter = Prompter::new(&bytes[..], Vec::new());
            match prompter.ask("? ", |t| choice(t, 3)) {
                Ok(Some(i)) => prop_assert!(i < 3),
                Ok(None) => {}
                Err(e) => prop_assert!(matches!(e, Error::Input(_)), "{e}"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::State;
    use crate::rules::MAIN_TEXT;

    #[test]
    fn choices_are_one_based_and_checked() {
        assert_eq!(choice("1", 3), Ok(0));
        assert_eq!(choice("3", 3), Ok(2));
        for bad in ["", "0", "4", "x", "-1", "1.5", "99999999999999999999999"] {
            let reason = choice(bad, 3).expect_err(bad);
            assert!(reason.contains("1 to 3"), "{bad}: {reason}");
        }
    }

    #[test]
    fn faces_take_spaces_commas_or_digits_run_together() {
        assert_eq!(faces("3 5 2"), Ok(vec![3, 5, 2]));
        assert_eq!(faces("3,5, 2"), Ok(vec![3, 5, 2]));
        assert_eq!(faces("352"), Ok(vec![3, 5, 2]));
        assert_eq!(faces(""), Ok(vec![]));
        assert!(faces("7").is_err());
        assert!(faces("0 1").is_err());
        assert!(faces("six").is_err());
    }

    /// Complication faces land on the characters in order (R6): the state machine, given the
    /// outcome, shows each character the complication of its face.
    #[test]
    fn complication_faces_reach_the_state_machine_in_character_order() {
        let o = outcome(Chance::Complications, "3 6 5 1 4 2").expect("six faces");
        let mut state = State::new(10);
        state.apply_outcome(&MAIN_TEXT, o);
        let seen: Vec<u8> = Character::ALL
            .iter()
            .map(|c| state.complication(*c).expect("rolled").number())
            .collect();
        assert_eq!(seen, [3, 6, 5, 1, 4, 2]);
    }

    #[test]
    fn side_faces_are_the_two_types_in_order() {
        let o = outcome(Chance::SideTypes, "6 2").expect("two faces");
        assert_eq!(Chance::side_types(o), [Character::Medic, Character::Spy]);
        assert_eq!(outcome(Chance::ChallengeType, "6"), Ok(5));
    }

    #[test]
    fn a_check_takes_all_its_dice_or_the_highest() {
        let check = Chance::Check { dice: 3 };
        assert_eq!(outcome(check, "2 5 1"), Ok(5));
        assert_eq!(outcome(check, "5"), Ok(5));
        assert!(outcome(check, "2 5").is_err());
        assert!(outcome(check, "").is_err());
        assert!(outcome(Chance::Complications, "1 2 3").is_err());
        assert!(outcome(Chance::SideTypes, "1").is_err());
    }

    #[test]
    fn the_prompter_asks_again_until_an_answer_fits_and_stops_at_the_end() {
        let mut prompter = Prompter::new(&b"x\n\n9\n2\n"[..], Vec::new());
        assert_eq!(prompter.ask("? ", |t| choice(t, 3)).unwrap(), Some(1));
        assert_eq!(prompter.ask("? ", |t| choice(t, 3)).unwrap(), None);
        let asked = String::from_utf8(prompter.prompts).unwrap();
        assert_eq!(
            asked,
            "?   'x' is not a number: type a number from 1 to 3\n\
             ?   no answer: type a number from 1 to 3\n\
             ?   there is no option 9: type a number from 1 to 3\n\
             ? ? \n"
        );
    }

    #[test]
    fn endless_lines_and_endless_refusals_stop_the_reading() {
        let mut zeros = Prompter::new(std::io::BufReader::new(std::io::repeat(0)), Vec::new());
        let e = zeros.ask("? ", |t| choice(t, 3)).unwrap_err();
        assert!(e.to_string().contains("runs past 1 MiB"), "{e}");
        let mut yes = Prompter::new(std::io::BufReader::new(YesX(false)), Vec::new());
        let e = yes.ask("? ", |t| choice(t, 3)).unwrap_err();
        assert!(e.to_string().contains("100 answers in a row"), "{e}");
        // 99 refusals and then an answer: still a person's.
        let mut input = b"x\n".repeat(MAX_REFUSED - 1);
        input.extend_from_slice(b"2\n");
        let mut patient = Prompter::new(&input[..], Vec::new());
        assert_eq!(patient.ask("? ", |t| choice(t, 3)).unwrap(), Some(1));
    }

    /// `yes x`: the same wrong line for ever (the flag: a newline comes next).
    struct YesX(bool);

    impl std::io::Read for YesX {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            for byte in buf.iter_mut() {
                *byte = if self.0 { b'\n' } else { b'x' };
                self.0 = !self.0;
            }
            Ok(buf.len())
        }
    }

    #[test]
    fn over_long_lines_and_bytes_that_are_not_text_are_refused() {
        let mut input = vec![b'1'; 10 * MAX_LINE];
        input.extend_from_slice(b"\n\xff\xfe\n3\n");
        let mut prompter = Prompter::new(&input[..], Vec::new());
        assert_eq!(prompter.ask("", |t| choice(t, 3)).unwrap(), Some(2));
        let asked = String::from_utf8(prompter.prompts).unwrap();
        assert!(
            asked.contains("too long") && asked.contains("not text"),
            "{asked}"
        );
    }
}
