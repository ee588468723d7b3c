//! Shard files: what `--shard K/N` writes and `raven merge` reads.
//!
//! A shard file is CSV under a few `#` lines that say which run it belongs to:
//!
//! ```text
//! # raven shard 2/3 of simulate, 3 rows
//! # raven_version: 0.1.0
//! # strategy: reference
//! # rules: main-text
//! # stealth: 8,10,12
//! …
//! unit,…
//! 0,…
//! ```
//!
//! The `#` lines name every input that determines the numbers (never `--threads`, `--out`,
//! `--quiet`, which do not), each resolved to the form the outputs use — rules by their name
//! or every flag, a strategy file by its name and a digest of its text — so two shards of one
//! run agree line for line however their command lines were spelled, and two runs that would
//! give different numbers disagree on a named line, which `raven merge` quotes. They stay out
//! of the merged CSV, which is byte for byte the whole run's. The first column, `unit`, is the
//! unit of work a row belongs to (a stealth of `simulate`, a cell of `sweep`, a point of
//! `explore`), so merge puts rows back in the order the whole run writes them. A shard
//! with no units (more shards than units) has its `#` lines and no CSV at all.

use std::fmt::Display;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::input::{Bounded, Limit};

use super::shard::{self, Shard};

/// The commands whose work can be sharded.
pub const SHARDED: [&str; 4] = ["simulate", "sweep", "explore", "report"];

/// Largest shard file read: a sweep of 10,000 points at 100 stealths is about 300 MB.
pub const MAX_BYTES: u64 = 1 << 30;

/// Longest line of a shard file: a row of a report shard (one unit's result as JSON) is at
/// most about 20 KB; the `#` lines and the rows of other commands are shorter.
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Longest first line (`# raven shard K/N of COMMAND, R rows`).
const FIRST_LINE_BYTES: u64 = 256;

/// Which run a shard file belongs to, and which shard of it it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Which shard.
    pub shard: Shard,
    /// The subcommand that wrote it.
    pub command: String,
    /// Every input that determines the numbers, `(key, value)`, in a fixed order.
    pub inputs: Vec<(String, String)>,
}

impl Meta {
    /// The metadata of shard `shard` of a `command` run, starting with raven's version (a
    /// different version may play or round differently).
    pub fn new(command: &str, shard: Shard) -> Meta {
        Meta {
            shard,
            command: command.to_string(),
            inputs: Vec::new(),
        }
        .input("raven_version", env!("CARGO_PKG_VERSION"))
    }

    /// Adds an input. Control characters (a newline in a file name) are escaped, so that
    /// every input stays on its line.
    pub fn input(mut self, key: &str, value: impl Display) -> Meta {
        let value: String = value.to_string().escape_debug().collect();
        self.inputs.push((key.to_string(), value));
        self
    }

    /// The value of input `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.inputs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// How a strategy is named in the inputs: its name, and for a strategy file of the user's a
/// digest of its text, so that shards run with two versions of one file are not merged.
/// (Built-in and bundled strategies are part of raven, named by its version.)
pub fn strategy_identity(spec: &str, name: &str) -> String {
    if !Path::new(spec).is_file() {
        return name.to_string();
    }
    match crate::load::strategy_source(spec) {
        Ok((_, text)) => format!("{name} (text {})", digest(&text)),
        Err(_) => name.to_string(),
    }
}

/// FNV-1a, 64 bits: enough to tell two versions of a file apart, and stable across Rust
/// releases (unlike `DefaultHasher`).
pub fn digest(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Rows as the whole run writes them: the header and every record as strings, exactly as
/// serde and the csv crate render them (so concatenating records reproduces the bytes).
pub fn records<R: Serialize>(
    rows: impl IntoIterator<Item = R>,
) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    let mut bytes = Vec::new();
    crate::report::csv::write_rows(&mut bytes, rows)?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let failed = |e: csv::Error| Error::Runtime(format!("cannot write CSV: {e}"));
    let header = reader.headers().map_err(failed)?.iter().map(String::from);
    let header = header.collect();
    let records = reader
        .records()
        .map(|r| r.map(|r| r.iter().map(String::from).collect()))
        .collect::<std::result::Result<_, _>>()
        .map_err(failed)?;
    Ok((header, records))
}

/// The bytes of a shard file: the `#` lines, then the header with `unit` in front and each
/// row behind its unit (no CSV at all when there are no rows).
pub fn render(meta: &Meta, header: &[String], rows: &[(usize, Vec<String>)]) -> Result<Vec<u8>> {
    let mut bytes = format!(
        "# raven shard {} of {}, {} row{}\n",
        meta.shard,
        meta.command,
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    for (key, value) in &meta.inputs {
        bytes += &format!("# {key}: {value}\n");
    }
    let mut writer = csv::Writer::from_writer(bytes.into_bytes());
    let failed = |e: csv::Error| Error::Runtime(format!("cannot write CSV: {e}"));
    if !rows.is_empty() {
        writer
            .write_record(std::iter::once("unit").chain(header.iter().map(String::as_str)))
            .map_err(failed)?;
    }
    for (unit, row) in rows {
        let unit = unit.to_string();
        writer
            .write_record(std::iter::once(unit.as_str()).chain(row.iter().map(String::as_str)))
            .map_err(failed)?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::Runtime(format!("cannot write CSV: {e}")))
}

/// A shard file as read.
pub struct ShardFile {
    /// The path as given, for messages.
    pub path: PathBuf,
    /// Its run and shard.
    pub meta: Meta,
    /// The CSV header, `unit` first (empty when there are no rows).
    pub header: csv::StringRecord,
    /// The rows, each with its line in the file.
    pub rows: Vec<(u64, csv::StringRecord)>,
}

impl ShardFile {
    /// Reads and parses a shard file; anything that is not one is an input error (exit 2)
    /// naming the file (and the line). Read as a stream: a file that is not a shard file is
    /// refused at its first line, and every line is refused as soon as it passes
    /// [`MAX_LINE_BYTES`], so `raven merge /dev/zero` reads a few kilobytes.
    pub fn read(path: &Path) -> Result<ShardFile> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path)
            .map_err(|e| Error::Input(format!("cannot read shard file {name}: {e}")))?;
        ShardFile::from_reader(path, file)
    }

    /// [`ShardFile::read`] of the stream `file`, named `path` in messages.
    fn from_reader(path: &Path, file: impl std::io::Read) -> Result<ShardFile> {
        let name = path.display().to_string();
        let bad = |line: usize, what: &str| Error::Input(format!("{name}:{line}: {what}"));
        let cannot = |e: std::io::Error| {
            let why = match Bounded::<&[u8]>::limit(&e) {
                Some(Limit::Total) => format!("larger than {} MiB", MAX_BYTES >> 20),
                _ => e.to_string(),
            };
            Error::Input(format!("cannot read shard file {name}: {why}"))
        };
        let mut stream = std::io::BufReader::new(Bounded::lines(file, MAX_BYTES, MAX_LINE_BYTES));
        let not_shard = || {
            Error::Input(format!(
                "{name} is not a raven shard file: its first line is not \
                 `# raven shard K/N of COMMAND, R rows`; merge joins the files that \
                 `--shard K/N` writes"
            ))
        };
        // The first line, read no further than a first line can be long.
        let mut first = Vec::new();
        std::io::Read::take(&mut stream, FIRST_LINE_BYTES)
            .read_until(b'\n', &mut first)
            .map_err(cannot)?;
        let first = std::str::from_utf8(&first).map_err(|_| not_shard())?;
        if !first.ends_with('\n') && first.len() as u64 >= FIRST_LINE_BYTES {
            return Err(not_shard());
        }
        let (shard, command, declared) = first_line(first.trim_end()).ok_or_else(not_shard)?;
        let mut meta = Meta {
            shard,
            command,
            inputs: Vec::new(),
        };
        let mut line = 1;
        let mut next = Vec::new();
        loop {
            next.clear();
            stream.read_until(b'\n', &mut next).map_err(cannot)?;
            if !next.starts_with(b"# ") {
                break;
            }
            line += 1;
            let input = std::str::from_utf8(&next[2..])
                .map_err(|_| bad(line, "not UTF-8 text"))?
                .trim_end_matches(['\n', '\r']);
            let (key, value) = input
                .split_once(": ")
                .ok_or_else(|| bad(line, "not an input line `# key: value`"))?;
            meta.inputs.push((key.to_string(), value.to_string()));
        }
        // The CSV: the line read past the inputs, then the rest of the stream, every record
        // bounded as a line is (a quoted field that never closes included).
        let body = Bounded::records(
            std::io::Read::chain(&next[..], stream),
            MAX_BYTES,
            MAX_LINE_BYTES,
            line as u64 + 1,
        );
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(body);
        let mut header = csv::StringRecord::new();
        let mut rows = Vec::new();
        let mut record = csv::StringRecord::new();
        loop {
            let more = reader.read_record(&mut record).map_err(|e| {
                let at = e.position().map_or(line, |p| line + p.line() as usize);
                let text = e.to_string();
                match e.into_kind() {
                    csv::ErrorKind::Io(io) => cannot(io),
                    _ => bad(at, &format!("not valid CSV: {text}")),
                }
            })?;
            if !more {
                break;
            }
            let at = line as u64 + record.position().map_or(0, |p| p.line());
            if header.is_empty() {
                if record.get(0) != Some("unit") {
                    return Err(bad(
                        at as usize,
                        "the CSV header does not start with `unit`",
                    ));
                }
                header = record.clone();
            } else {
                if record.get(0).and_then(|u| u.parse::<u64>().ok()).is_none() {
                    return Err(bad(at as usize, "the row does not start with its unit"));
                }
                if rows.len() as u64 == declared {
                    return Err(bad(
                        at as usize,
                        &format!(
                            "a row past the {declared} its first line announces: the file was \
                             edited; run that shard again"
                        ),
                    ));
                }
                rows.push((at, record.clone()));
            }
        }
        if rows.len() as u64 != declared {
            return Err(Error::Input(format!(
                "{name} has {} rows where its first line announces {declared}: the file is \
                 incomplete or was edited; run that shard again",
                rows.len()
            )));
        }
        Ok(ShardFile {
            path: path.to_path_buf(),
            meta,
            header,
            rows,
        })
    }

    /// The path, for messages.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// `# raven shard K/N of COMMAND, R rows`.
fn first_line(line: &str) -> Option<(Shard, String, u64)> {
    let rest = line.strip_prefix("# raven shard ")?;
    let (shard, rest) = rest.split_once(" of ")?;
    let (command, rows) = rest.split_once(", ")?;
    let rows = rows.strip_suffix(" rows").or(rows.strip_suffix(" row"))?;
    let rows = rows.parse().ok()?;
    if !SHARDED.contains(&command) {
        return None;
    }
    Some((shard::parse(shard).ok()?, command.to_string(), rows))
}

/// Checks that `files` are the shards of one run, each once and all of them, and returns them
/// in shard order; otherwise one input error saying what is wrong.
pub fn one_run(mut files: Vec<ShardFile>) -> Result<Vec<ShardFile>> {
    let first = files
        .first()
        .ok_or_else(|| Error::Input("no shard files given".into()))?;
    for other in &files[1..] {
        let (a, b) = (&first.meta, &other.meta);
        let differ = |what: String| {
            Error::Input(format!(
                "{} and {} are not shards of one run: {what}; merge the shards of one run",
                first.name(),
                other.name()
            ))
        };
        if a.command != b.command {
            return Err(differ(format!(
                "one is from `raven {}`, the other from `raven {}`",
                a.command, b.command
            )));
        }
        if a.shard.count != b.shard.count {
            return Err(differ(format!(
                "the run was split into {} shards for one, {} for the other",
                a.shard.count, b.shard.count
            )));
        }
        let keys = a.inputs.iter().chain(&b.inputs).map(|(k, _)| k.as_str());
        for key in keys {
            if a.get(key) != b.get(key) {
                let show = |v: Option<&str>| v.map_or("(absent)".to_string(), |v| format!("'{v}'"));
                return Err(differ(format!(
                    "{key} is {} in the first and {} in the second",
                    show(a.get(key)),
                    show(b.get(key))
                )));
            }
        }
    }
    files.sort_by_key(|f| f.meta.shard.index);
    for pair in files.windows(2) {
        if pair[0].meta.shard.index == pair[1].meta.shard.index {
            return Err(Error::Input(format!(
                "{} and {} are both shard {}; give each shard once",
                pair[0].name(),
                pair[1].name(),
                pair[0].meta.shard
            )));
        }
    }
    let count = files[0].meta.shard.count;
    if files.len() as u64 != count {
        let have: Vec<u64> = files.iter().map(|f| f.meta.shard.index).collect();
        let missing: Vec<String> = (1..=count)
            .filter(|k| !have.contains(k))
            .map(|k| format!("{k}/{count}"))
            .collect();
        let shown = if missing.len() > 10 {
            format!(
                "{} and {} more",
                missing[..10].join(", "),
                missing.len() - 10
            )
        } else {
            missing.join(", ")
        };
        return Err(Error::Input(format!(
            "shard {shown} of the run {} missing; merge needs all {count} shards",
            if missing.len() == 1 { "is" } else { "are" }
        )));
    }
    let headers = files.iter().filter(|f| !f.header.is_empty());
    if let Some(first) = headers.clone().next()
        && let Some(other) = headers.clone().find(|f| f.header != first.header)
    {
        return Err(Error::Input(format!(
            "{} and {} have different CSV headers; the files were edited, or written by \
             different versions of raven",
            first.name(),
            other.name()
        )));
    }
    Ok(files)
}

/// The whole run's CSV from shards whose rows are the run's own rows (`sweep`, `explore`):
/// every row in unit order, `unit` dropped. Each unit's rows stay in the order written.
pub fn concatenate(files: &[ShardFile]) -> Result<Vec<u8>> {
    let mut rows: Vec<(u64, &csv::StringRecord, &ShardFile)> = Vec::new();
    for file in files {
        for (_, record) in &file.rows {
            let unit = record[0].parse().expect("checked when read");
            rows.push((unit, record, file));
        }
    }
    // Stable: the rows of one unit keep their order.
    rows.sort_by_key(|(unit, _, _)| *unit);
    let mut writer = csv::Writer::from_writer(Vec::new());
    let failed = |e: csv::Error| Error::Runtime(format!("cannot write CSV: {e}"));
    if let Some(file) = files.iter().find(|f| !f.header.is_empty()) {
        writer
            .write_record(file.header.iter().skip(1))
            .map_err(failed)?;
    }
    let mut previous: Option<(u64, &ShardFile)> = None;
    for (unit, record, file) in rows {
        // A unit belongs to one shard: the same unit in two files means they overlap.
        if let Some((u, f)) = previous
            && u == unit
            && !std::ptr::eq(f, file)
        {
            return Err(Error::Input(format!(
                "{} and {} both hold unit {unit}: the shards overlap; run them again",
                f.name(),
                file.name()
            )));
        }
        previous = Some((unit, file));
        writer.write_record(record.iter().skip(1)).map_err(failed)?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::Runtime(format!("cannot write CSV: {e}")))
}

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;

    /// A real shard file: two rows of a sweep, the second quoted.
    fn real() -> Vec<u8> {
        let meta = Meta::new("sweep", Shard { index: 2, count: 3 })
            .input("rules", "main-text")
            .input("stealth", "8,10");
        let rows = [
            (1, vec!["duo".to_string(), "0.25".to_string()]),
            (4, vec!["a \"quoted\", name".to_string(), "1".to_string()]),
        ];
        render(&meta, &["strategy".into(), "win".into()], &rows).unwrap()
    }

    /// Read or refused with an input error naming the file; never a panic.
    fn read_or_refused(bytes: &[u8]) -> Result<(), TestCaseError> {
        match ShardFile::from_reader(Path::new("f.csv"), bytes) {
            Ok(file) => prop_assert!(file.rows.iter().all(|(_, r)| !r.is_empty())),
            Err(Error::Input(message)) => prop_assert!(message.contains("f.csv"), "{message}"),
            Err(e) => prop_assert!(false, "not an input error: {e}"),
        }
        Ok(())
    }

    #[test]
    fn the_real_shard_file_is_read() {
        let file = ShardFile::from_reader(Path::new("f.csv"), &real()[..]).unwrap();
        assert_eq!(file.rows.len(), 2);
        assert_eq!(&file.rows[1].1[1], "a \"quoted\", name");
    }

    proptest! {
        #![proptest_config(crate::input::fuzz_config())]

        #[test]
        fn any_bytes_are_read_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            read_or_refused(&bytes)?;
        }

        #[test]
        fn edited_shard_files_are_read_or_refused(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
            cut in any::<prop::sample::Index>(),
            tail in proptest::collection::vec(prop::sample::select(b"#,\"\n\r0123456789abc: ".to_vec()), 0..40),
        ) {
            let mut bytes = real();
            for (at, byte) in edits {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            bytes.truncate(cut.index(bytes.len() + 1));
            bytes.extend(tail);
            read_or_refused(&bytes)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_name_shard_command_and_rows() {
        let (shard, command, rows) = first_line("# raven shard 2/3 of sweep, 12 rows").unwrap();
        assert_eq!((shard.index, shard.count), (2, 3));
        assert_eq!((command.as_str(), rows), ("sweep", 12));
        let (_, _, rows) = first_line("# raven shard 1/1 of simulate, 1 row").unwrap();
        assert_eq!(rows, 1);
        for bad in [
            "# raven shard 2/3 of play, 1 row",
            "# raven shard 4/3 of sweep, 1 row",
            "# raven shard 1/3 of sweep, 1",
            "strategy,rules",
            "",
        ] {
            assert!(first_line(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn digests_tell_texts_apart() {
        assert_eq!(digest(""), "cbf29ce484222325");
        assert_ne!(digest("count = 1"), digest("count = 2"));
    }
}

/// A row of a Monte Carlo shard: one unit's block of games and its raw counts, which add up
/// over the blocks (integers: exact in any order).
pub trait BlockRow: serde::de::DeserializeOwned {
    /// The counts.
    type Counts: std::ops::AddAssign;
    /// Its block of the unit's games.
    fn block(&self) -> std::ops::Range<u64>;
    /// Games counted.
    fn games(&self) -> u64;
    /// The counts of the block.
    fn counts(&self) -> Self::Counts;
    /// Whether `other` is a block of the same unit of the same run.
    fn same_unit(&self, other: &Self) -> bool;
    /// The unit in words, for messages (`stealth 8`).
    fn unit(&self) -> String;
}

/// Per unit of a sharded Monte Carlo run (`0..units`, in order): its first row and the counts
/// of its blocks added up, once the blocks are checked to cover the unit's `0..games` exactly
/// once. `command` names the rows in messages.
pub fn add_blocks<R: BlockRow>(
    files: &[ShardFile],
    command: &str,
    units: usize,
    games: u64,
) -> Result<Vec<(R, R::Counts)>> {
    use std::collections::BTreeMap;
    type Cell<R> = (R, <R as BlockRow>::Counts, Vec<std::ops::Range<u64>>);
    let mut cells: BTreeMap<u64, Cell<R>> = BTreeMap::new();
    for file in files {
        let header = csv::StringRecord::from_iter(file.header.iter().skip(1));
        for (line, record) in &file.rows {
            let at = |what: &str| Error::Input(format!("{}:{line}: {what}", file.name()));
            let unit: u64 = record[0].parse().expect("checked when read");
            let fields = csv::StringRecord::from_iter(record.iter().skip(1));
            let row: R = fields
                .deserialize(Some(&header))
                .map_err(|e| at(&format!("not a {command} shard row: {e}")))?;
            let block = row.block();
            if block.end.checked_sub(block.start) != Some(row.games()) {
                return Err(at("its game range and its game count disagree"));
            }
            match cells.get_mut(&unit) {
                None => {
                    let counts = row.counts();
                    cells.insert(unit, (row, counts, vec![block]));
                }
                Some((first, counts, blocks)) => {
                    if !first.same_unit(&row) {
                        return Err(at(&format!(
                            "unit {unit} is of another {} than in the other shards",
                            first.unit()
                        )));
                    }
                    *counts += row.counts();
                    blocks.push(block);
                }
            }
        }
    }
    let incomplete = |what: String| {
        Error::Input(format!(
            "the shards do not add up to the whole run: {what}; run the shards again"
        ))
    };
    if cells.len() != units || cells.keys().zip(0..).any(|(&u, i)| u != i) {
        return Err(incomplete(format!(
            "{units} units in the run, rows for {} in the shards",
            cells.len()
        )));
    }
    let mut out = Vec::with_capacity(units);
    for (first, counts, mut blocks) in cells.into_values() {
        blocks.sort_by_key(|b| (b.start, b.end));
        let mut next = 0;
        for block in &blocks {
            if block.start != next {
                return Err(incomplete(format!(
                    "{}: games {}..{} are played {}",
                    first.unit(),
                    next.min(block.start),
                    next.max(block.start),
                    if block.start > next {
                        "by no shard"
                    } else {
                        "twice"
                    }
                )));
            }
            next = block.end;
        }
        if next != games {
            return Err(incomplete(format!(
                "{}: games {next}..{games} are played by no shard",
                first.unit()
            )));
        }
        out.push((first, counts));
    }
    Ok(out)
}
