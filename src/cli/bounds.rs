//! Every number a user types, checked in one place against what makes sense, with the bound
//! stated in the error. A value past these bounds is a typo or a run that would never end
//! (or overflow, or allocate without limit); refusing it in milliseconds beats all three.
//!
//! These are clap value parsers: the whole value is seen at once (a stealth list is checked
//! for repeats as a list), and clap puts the argument's name in front of the message.

use std::fmt;
use std::str::FromStr;

use crate::game::MAX_STEALTH;

/// Most games per starting stealth (or per cell of a report): 10^12 take about 12 days at a
/// million games per second. Totals (games × stealths × strategies × grid points) stay far
/// below `u64::MAX`.
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// Most worker threads: far more than cores only adds start-up and scheduling cost (the
/// results never depend on it), and thousands of threads bring a machine to its knees.
pub const MAX_THREADS: u16 = 256;

/// Highest confidence level: beyond it the normal quantile grows without bound (at exactly
/// 1 it is infinite and every interval is 0–100%).
pub const MAX_CONFIDENCE: f64 = 0.999_999;

/// Most values one `--param` of `raven sweep` may take.
pub const MAX_PARAM_VALUES: u128 = 1_000;

/// Most grid points of one sweep (the product of every `--param`'s value count).
pub const MAX_GRID_POINTS: u128 = 10_000;

/// `--games`: 1..=[`MAX_GAMES`].
pub fn games(text: &str) -> Result<u64, String> {
    let games: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of games"))?;
    match games {
        0 => Err("at least 1 game is needed".into()),
        n if n > MAX_GAMES => Err(format!(
            "{n} games is more than the limit of {MAX_GAMES} (10^12 games take days)"
        )),
        n => Ok(n),
    }
}

/// `--threads`: 1..=[`MAX_THREADS`].
pub fn threads(text: &str) -> Result<u16, String> {
    match text.trim().parse::<u64>() {
        Ok(n @ 1..) if n <= u64::from(MAX_THREADS) => Ok(n as u16),
        Ok(0) => Err("at least 1 thread is needed".into()),
        Ok(n) => Err(format!(
            "{n} threads is more than the limit of {MAX_THREADS} (results never depend on \
             the thread count; the default uses every core)"
        )),
        Err(_) => Err(format!("'{text}' is not a whole number of threads")),
    }
}

/// `--confidence`: strictly above 0, at most [`MAX_CONFIDENCE`].
pub fn confidence(text: &str) -> Result<f64, String> {
    let level: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if level > 0.0 && level <= MAX_CONFIDENCE {
        Ok(level)
    } else if level > MAX_CONFIDENCE && level < 1.0 {
        Err(format!(
            "{level} is too close to 1: the highest level is {MAX_CONFIDENCE}, beyond which \
             the intervals widen without bound"
        ))
    } else {
        Err(format!(
            "{level} is not strictly between 0 and 1 (e.g. 0.95; at most {MAX_CONFIDENCE})"
        ))
    }
}

/// `--min-gain`: points of win probability, 0..=100.
pub fn points(text: &str) -> Result<f64, String> {
    let points: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if (0.0..=100.0).contains(&points) {
        Ok(points)
    } else {
        Err(format!("{points} is not a number of points in 0..=100"))
    }
}

/// One starting stealth: 0..=[`MAX_STEALTH`].
pub fn stealth(text: &str) -> Result<u8, String> {
    let value: u64 = text.trim().parse().map_err(|e| format!("'{text}': {e}"))?;
    u8::try_from(value)
        .ok()
        .filter(|&s| s <= MAX_STEALTH)
        .ok_or_else(|| format!("{value} is not in 0..={MAX_STEALTH}"))
}

/// A list of distinct starting stealths, in the order given: values (`8`), inclusive ranges
/// (`0..=30`) and half-open ranges (`8..12`, as in Rust), comma-separated, each range
/// ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StealthList(pub Vec<u8>);

impl StealthList {
    /// The stealths.
    pub fn as_slice(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::Deref for StealthList {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a StealthList {
    type Item = &'a u8;
    type IntoIter = std::slice::Iter<'a, u8>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for StealthList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.0.iter().map(u8::to_string).collect();
        f.write_str(&items.join(","))
    }
}

impl FromStr for StealthList {
    type Err = String;
    /// Each value 0..=99; a value given twice, alone or inside a range, is refused (it would
    /// be a duplicate row), and so is an empty range (`5..5`, `9..=3`): both are typos.
    fn from_str(text: &str) -> Result<StealthList, String> {
        let mut list = Vec::new();
        // The item that gave each stealth, to name both sides of a repeat.
        let mut given_by: [Option<&str>; MAX_STEALTH as usize + 1] =
            [None; MAX_STEALTH as usize + 1];
        for item in text.split(',') {
            let (low, high) = stealth_range(item)?;
            for value in low..=high {
                if let Some(earlier) = given_by[usize::from(value)] {
                    return Err(if earlier.contains("..") || item.contains("..") {
                        format!(
                            "stealth {value} is given twice ('{}' and '{}' overlap); list each \
                             starting stealth once",
                            earlier.trim(),
                            item.trim()
                        )
                    } else {
                        format!("stealth {value} is given twice; list each starting stealth once")
                    });
                }
                given_by[usize::from(value)] = Some(item);
                list.push(value);
            }
        }
        Ok(StealthList(list))
    }
}

/// One item of a stealth list as its lowest and highest stealth: `8` is `(8, 8)`, `0..=30`
/// is `(0, 30)`, `8..12` is `(8, 11)`.
fn stealth_range(item: &str) -> Result<(u8, u8), String> {
    let (start, end, inclusive) = if let Some((start, end)) = item.split_once("..=") {
        (start, end, true)
    } else if let Some((start, end)) = item.split_once("..") {
        (start, end, false)
    } else {
        let value = stealth(item)?;
        return Ok((value, value));
    };
    let item = item.trim();
    let bound = |text: &str| -> Result<u64, String> {
        text.trim().parse().map_err(|e| {
            if text.trim().is_empty() {
                format!(
                    "range '{item}' needs a start and an end (e.g. 0..=30 for 0 to 30 inclusive)"
                )
            } else {
                format!("range '{item}': '{}': {e}", text.trim())
            }
        })
    };
    let start = bound(start)?;
    let end = bound(end)?;
    // The highest value in the range; `None` when there is none.
    let last = if inclusive {
        Some(end).filter(|&end| end >= start)
    } else {
        end.checked_sub(1).filter(|&last| last >= start)
    };
    let Some(last) = last else {
        return Err(if start > end {
            format!("range '{item}' is empty: its start is above its end (ranges go upward)")
        } else {
            format!(
                "range '{item}' is empty: {start}..{end} stops before {end} (write \
                 {start}..={end} for {end} alone)"
            )
        });
    };
    match (u8::try_from(start), u8::try_from(last)) {
        (Ok(start), Ok(last)) if last <= MAX_STEALTH => Ok((start, last)),
        _ => Err(format!(
            "range '{item}' goes past {MAX_STEALTH}: each stealth is in 0..={MAX_STEALTH}"
        )),
    }
}

/// Least `--max-memory`: below it not even the first complication roll's positions fit.
pub const MIN_MEMORY: u64 = 1 << 20;

/// `--max-memory SIZE`: bytes, with an optional unit `K`, `M`, `G` or `T` (powers of 1024;
/// `KB`, `KiB` and the like read the same, in any case), a decimal fraction allowed:
/// `6G`, `512MiB`, `1.5g`. At least [`MIN_MEMORY`].
pub fn memory_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let unit = unit.trim();
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(format!(
                "unknown unit `{unit}` in `{text}`: use K, M, G or T (powers of 1024), e.g. 6G"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size: a number and a unit, e.g. 6G or 512M"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is far more memory than any machine has"));
    }
    if bytes < MIN_MEMORY as f64 {
        return Err(format!("`{text}` is less than the least budget, 1M"));
    }
    Ok(bytes as u64)
}

/// `--stealth LIST`: values and ranges (`0..=3,8,10..12`), no stealth twice.
pub fn stealths(text: &str) -> Result<StealthList, String> {
    text.parse()
}

/// How many values `low..=high` in steps of `step` has, refused past [`MAX_PARAM_VALUES`]
/// before anything is allocated.
pub fn range_len(low: i64, high: i64, step: i64) -> Result<usize, String> {
    if step < 1 {
        return Err("the step must be at least 1".into());
    }
    if low > high {
        return Err(format!("the range is empty ({low} > {high})"));
    }
    let count = (i128::from(high) - i128::from(low)) as u128 / step as u128 + 1;
    if count > MAX_PARAM_VALUES {
        return Err(format!(
            "{count} values is more than the limit of {MAX_PARAM_VALUES} per parameter"
        ));
    }
    Ok(count as usize)
}

/// The number of grid points of parameters with these value counts, refused past
/// [`MAX_GRID_POINTS`] before the grid is built.
pub fn grid_points(counts: impl IntoIterator<Item = usize>) -> Result<usize, String> {
    let mut points: u128 = 1;
    for count in counts {
        points = points.saturating_mul(count as u128);
        if points > MAX_GRID_POINTS {
            return Err(format!(
                "the grid has more than the limit of {MAX_GRID_POINTS} points (the product of \
                 every --param's number of values)"
            ));
        }
    }
    Ok(points as usize)
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(crate::input::fuzz_config())]

        /// Any text, or text of the characters the syntax uses, is a value or a reason.
        #[test]
        fn any_value_text_is_a_value_or_a_reason(
            any_text in ".{0,40}",
            syntax in "[0-9 ,.=:+-]{0,30}",
        ) {
            for text in [&any_text, &syntax] {
                if let Ok(list) = stealths(text) {
                    prop_assert!(!list.is_empty() && list.len() <= 100, "{text}: {list:?}");
                    prop_assert!(list.iter().all(|&s| s <= crate::game::MAX_STEALTH));
                }
                if let Ok(s) = stealth(text) {
                    prop_assert!(s <= crate::game::MAX_STEALTH);
                }
                if let Ok(g) = games(text) {
                    prop_assert!((1..=1_000_000_000_000).contains(&g));
                }
                if let Ok(t) = threads(text) {
                    prop_assert!((1..=256).contains(&t));
                }
                if let Ok(c) = confidence(text) {
                    prop_assert!(c > 0.0 && c < 1.0);
                }
                let _ = memory_size(text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes_read_units_in_powers_of_1024() {
        assert_eq!(memory_size("6G"), Ok(6 << 30));
        assert_eq!(memory_size("512MiB"), Ok(512 << 20));
        assert_eq!(memory_size("1.5g"), Ok(3 << 29));
        assert_eq!(memory_size("2 GB"), Ok(2 << 30));
        assert_eq!(memory_size("1048576"), Ok(1 << 20));
        assert!(memory_size("1K").unwrap_err().contains("least"));
        assert!(memory_size("6Q").unwrap_err().contains("unknown unit"));
        assert!(memory_size("G").unwrap_err().contains("not a size"));
        assert!(memory_size("1.2.3G").unwrap_err().contains("not a size"));
        assert!(
            memory_size("99999999999T")
                .unwrap_err()
                .contains("far more")
        );
    }

    #[test]
    fn bounds_are_inclusive_and_stated() {
        assert_eq!(games("1"), Ok(1));
        assert_eq!(games(&MAX_GAMES.to_string()), Ok(MAX_GAMES));
        assert!(games("1000000000001").unwrap_err().contains("limit"));
        assert!(games("18446744073709551615").unwrap_err().contains("limit"));
        assert!(games("0").unwrap_err().contains("at least 1"));
        assert_eq!(threads("256"), Ok(256));
        assert!(threads("10000").unwrap_err().contains("256"));
        assert!(threads("0").is_err());
        assert!(confidence("0.999999").is_ok());
        assert!(
            confidence("0.9999999999999999")
                .unwrap_err()
                .contains("too close")
        );
        assert!(confidence("1").is_err() && confidence("NaN").is_err());
    }

    #[test]
    fn stealth_lists_refuse_repeats_and_out_of_range_values() {
        assert_eq!(
            "8,10,12".parse::<StealthList>().unwrap().as_slice(),
            [8, 10, 12]
        );
        assert!(stealths("10,10,10").unwrap_err().contains("twice"));
        assert!(
            stealths("100")
                .unwrap_err()
                .contains("100 is not in 0..=99")
        );
        assert!(stealths("8,x").unwrap_err().contains("invalid digit"));
        assert!(stealths("8,,10").unwrap_err().contains("empty string"));
    }

    #[test]
    fn stealth_lists_take_ranges_in_the_order_written() {
        let list = |text: &str| stealths(text).map(|l| l.0);
        assert_eq!(list("0..=30"), Ok((0..=30).collect()));
        assert_eq!(list("8..12"), Ok(vec![8, 9, 10, 11]));
        assert_eq!(list("5..=5"), Ok(vec![5]));
        assert_eq!(list("5..6"), Ok(vec![5]));
        assert_eq!(list("0..=99").unwrap().len(), 100);
        // Half-open as in Rust: `0..100` ends at 99.
        assert_eq!(list("0..100"), list("0..=99"));
        assert_eq!(list("0..=3,8,10..=12"), Ok(vec![0, 1, 2, 3, 8, 10, 11, 12]));
        // The order written; each range ascending.
        assert_eq!(list("12,0..2,7..=8,3"), Ok(vec![12, 0, 1, 7, 8, 3]));
        assert_eq!(list(" 1 ..= 3 , 9"), Ok(vec![1, 2, 3, 9]));
    }

    #[test]
    fn stealth_ranges_refuse_repeats_empty_ranges_and_bad_ends() {
        let error = |text: &str| stealths(text).unwrap_err();
        // A range overlapping a value or another range is a repeat, named with both items.
        assert_eq!(
            error("0..=5,3"),
            "stealth 3 is given twice ('0..=5' and '3' overlap); list each starting stealth once"
        );
        assert!(error("8,0..=10").contains("stealth 8 is given twice ('8' and '0..=10' overlap)"));
        assert!(error("0..5,4..=6").contains("stealth 4 is given twice"));
        assert!(error("1..=3,1..=3").contains("stealth 1 is given twice"));
        // Empty ranges.
        assert_eq!(
            error("9..=3"),
            "range '9..=3' is empty: its start is above its end (ranges go upward)"
        );
        assert!(error("9..3").contains("range '9..3' is empty"));
        assert_eq!(
            error("5..5"),
            "range '5..5' is empty: 5..5 stops before 5 (write 5..=5 for 5 alone)"
        );
        assert!(error("0..0").contains("is empty"));
        // Past 99, however far, refused before anything is built.
        assert!(error("0..=100").contains("range '0..=100' goes past 99"));
        assert!(error("0..101").contains("goes past 99"));
        assert!(error("100..=100").contains("goes past 99"));
        assert!(error("0..=18446744073709551615").contains("goes past 99"));
        assert!(error("0..=18446744073709551616").contains("too large"));
        // Missing or malformed ends.
        assert!(error("..=5").contains("range '..=5' needs a start and an end"));
        assert!(error("5..").contains("needs a start and an end"));
        assert!(error("..").contains("needs a start and an end"));
        assert!(error("1..2..3").contains("range '1..2..3': '2..3': invalid digit"));
        assert!(error("a..=3").contains("range 'a..=3': 'a': invalid digit"));
        assert!(error("-1..=3").contains("invalid digit"));
        assert!(error("0..=3,").contains("empty string"));
    }

    #[test]
    fn ranges_and_grids_are_counted_before_they_are_built() {
        assert_eq!(range_len(0, 6, 1), Ok(7));
        assert_eq!(range_len(1, 9, 3), Ok(3));
        assert!(range_len(0, i64::MAX, 1).unwrap_err().contains("limit"));
        assert!(range_len(i64::MIN, i64::MAX, 1).is_err());
        assert_eq!(grid_points([10, 10, 10]), Ok(1000));
        assert!(grid_points([1000, 1000, 1000]).is_err());
    }
}
