//! The one compiler from a game's positions to a layered program: every stored position
//! reachable from the start, each as the weighted sums it is (one per option at a decision,
//! one at a chance point), with the positions it reads as dense ids. Exact evaluation, the
//! optimal solve and the figures replay it ([`super::solve`](mod@super::solve), [`super::evaluate`](mod@super::evaluate)).

use rustc_hash::FxHashMap;
use std::ops::Range;

pub use super::step::Rule;
use super::step::{Keep, Lead, PIECES, Passed, Shape, Stepped, step};
use super::{Stop, check_cancel};
use crate::engine::Budget;
use crate::games::{End, Game, Index, Point, Policy};
use crate::par::*;

/// A target at or above this is an end, not a position: `END` a win, `END + 1 + c` a loss by
/// cause `c`.
pub(super) const END: u32 = u32::MAX - 256;

/// Bytes a stored position takes while it is compiled and solved, at most: its position, its
/// id by key, its kind, sums and value (a decision's options and their terms count apart, as
/// [`Program::bytes`] does), and the copy of its terms while they are laid out
/// ([`Program::lay_out`]).
pub const BYTES_PER_POSITION: u64 = 384;

/// A compiled game: stored positions by dense id (the starts are [`Program::roots`]), their
/// sums, and the order in which values settle (lowest layer first), which is also the order of
/// their rows ([`Program::lay_out`]).
///
/// Where layers play alike ([`Game::alike_from`]) the ids of those layers, and of those that
/// replay them ([`Game::replayed_from`]), are blocks, one per layer, each a copy of one
/// template: the template is kept once, as the program's first rows, and a block's position
/// reads its sums there, its targets moved to its block ([`Place`]).
/// Every other id has a row of its own. Most of a solve's memory is what the blocks would take.
pub struct Program<G: Game> {
    /// The stored positions, by row as compiled ([`Program::compiled_row`]); a template's at
    /// the template's layer.
    pub(super) positions: Vec<G::Pos>,
    /// Per row ([`Program::row`]), its row as compiled: where its position is. The positions
    /// keep the order they were found in, so that laying the rows out never holds them twice.
    compiled_row: Vec<u32>,
    /// Per row: the decision's kind, or [`CHANCE`].
    pub(super) kind: Vec<u8>,
    /// Per row: its first branch; one past the last at the end.
    pub(super) branch_start: Vec<u32>,
    /// Per branch: its first term; one past the last at the end.
    pub(super) term_start: Vec<u32>,
    /// Per branch: the chance points it passes through without storing them, in expectation
    /// (a trigger roll between a decision and what it leads to, say).
    pub(super) rolls: Vec<f64>,
    /// Per branch: the decision points it passes through without storing them, in
    /// expectation ([`Program::passed`]); empty where no branch passes one, as in the solve's.
    passed: Vec<f64>,
    /// Per term: the id read, or an end ([`END`]); in a template's row, read through
    /// [`Program::target_at`].
    pub(super) target: Vec<u32>,
    /// Per term: the weight's index in `weights`.
    pub(super) weight: Vec<u32>,
    /// Every distinct weight.
    pub(super) weights: Vec<f64>,
    /// The layers in the order values settle, lowest first: each its ids, which settle in
    /// their order ([`Program::lay_out`]), and whether one sweep settles it, each position
    /// after what it reads (play never returns to one of them).
    pub(super) layers: Vec<Layer>,
    /// Where the levels of each layer one sweep settles start, as ids ([`Program::levels`]):
    /// a block's are the template's (`template_levels`, from its first id), the others' are
    /// in `levels`.
    template_levels: Vec<u32>,
    levels: Vec<u32>,
    /// Whether the layers one sweep settles are ordered by level (optimal play's program and a
    /// strategy's for its figures): the programs whose replays also sum over their ids (the
    /// regret's, one with every step stored) keep the order of the walk that orders them, so
    /// that those sums keep theirs.
    by_level: bool,
    /// The ids of the starts it was compiled from ([`Program::compile_from`]).
    pub(super) roots: Vec<u32>,
    /// The rule the program was compiled under.
    pub(super) best: bool,
    /// Ids by the game's key of the position (canonical under [`Rule::Best`], where it has no
    /// place, [`Program::places`]); where layers
    /// play alike ([`Blocks`]), those of the layers below them.
    pub(super) ids: FxHashMap<G::Key, u32>,
    /// Where layers play alike, the template's positions by key (at the template's layer), by
    /// their index in a block.
    template: Option<FxHashMap<G::Key, u32>>,
    /// Under [`Rule::Best`], the ids of positions with a place in the game's dense layout
    /// ([`Game::index`]), which `ids` does not hold; and the template's rows by place at the
    /// template's layer (with its reads below that layer, [`BELOW`] and up).
    places: Places,
    template_places: Places,
    /// Where layers play alike, how their ids are laid out (none: no block).
    blocks: Blocks,
    /// Ids in blocks, and by how much the id of a row past the template's exceeds the row:
    /// read at every position a replay visits.
    blocked: u32,
    shift: u32,
}

/// The layout of the layers that play alike ([`Game::alike_from`]): one block of ids per
/// layer from the top down to `bottom`, each the template's positions in the template's order,
/// then the ids of the layers below, a row each.
#[derive(Default)]
struct Blocks {
    /// The template's rows (0: no block).
    size: u32,
    /// The lowest alike layer (where the template was stepped).
    from: u32,
    /// The lowest layer the template is replayed at ([`Game::replayed_from`]), `from` or below.
    bottom: u32,
    /// The start's layer, the highest.
    top: u32,
    /// Per position a template reads below its layer ([`BELOW`]): its layer.
    below_layer: Vec<u32>,
    /// … its index in the template, moved up to the template's layer.
    up: Vec<u32>,
    /// … the id (or end) where it lands when that is below `bottom`, at `below * from + layer`.
    low: Vec<u32>,
}

impl Blocks {
    /// The first id of layer `layer`'s block.
    fn base(&self, layer: u32) -> u32 {
        (self.top - layer) * self.size
    }
}

/// Where an id's sums are and where its targets land: its row, and its block if it is in one.
#[derive(Clone, Copy)]
pub(super) struct Place {
    pub(super) row: u32,
    /// The block (0 the top layer's), or [`NO_BLOCK`].
    pub(super) block: u32,
}

/// Slots for one value an id where a replay settles layer by layer and reads only the
/// starts' values at the end ([`Program::ring`]): each id in no block has a slot of its own,
/// and the blocks share the slots of a few, in turn, each block's values kept while a higher
/// block may still read them.
#[derive(Clone, Copy)]
pub(super) struct Ring {
    /// How many blocks' values are kept: a block's own and those it may read.
    blocks: u32,
    /// What an id in no block exceeds its slot by.
    pub(super) low: u32,
    /// The slots.
    pub(super) slots: usize,
}

/// Where a template's read lands for one of its copies ([`Program::lands`]).
enum Lands {
    /// Block `.0`'s row `.1`.
    Block(u32, u32),
    /// An id in no block, or an end.
    Id(u32),
}

/// [`Place::block`] of a position in no block.
pub(super) const NO_BLOCK: u32 = u32::MAX;

/// Marks a template's term that reads a layer below the template's (its index in the list of
/// such positions): where it lands depends on the layer the template is copied to.
const BELOW: u32 = 1 << 31;

/// [`Program::kind`] of a chance point.
pub(super) const CHANCE: u8 = u8::MAX;

impl<G: Game> Program<G> {
    /// Compiles `game` from its start under `rule`, refusing before it grows past `budget`.
    pub fn compile(game: &G, rule: Rule<'_, G>, budget: Budget<'_>) -> Result<Self, Stop> {
        Self::compile_from(game, rule, &[game.start()], budget)
    }

    /// Compiles `game` from each of `starts` under `rule`, together: what play from them
    /// shares is compiled once. The first start is at the highest layer of them all; the
    /// starts' ids are [`Program::roots`], in their order.
    pub fn compile_from(
        game: &G,
        rule: Rule<'_, G>,
        starts: &[G::Pos],
        budget: Budget<'_>,
    ) -> Result<Self, Stop> {
        let keep = match rule {
            Rule::Best => Some(Keep::Decisions),
            Rule::Follow(_) => None,
        };
        Compiler::new(game, rule, keep, budget).run(starts)
    }

    /// Compiles `policy`'s play of `game` with every decision point stored, so that a replay
    /// can weigh each answer against its options ([`super::evaluate::regret`]).
    pub(super) fn compile_decisions(
        game: &G,
        policy: &dyn Policy<G>,
        budget: Budget<'_>,
    ) -> Result<Self, Stop> {
        Compiler::new(game, Rule::Follow(policy), Some(Keep::Decisions), budget)
            .run(&[game.start()])
    }

    /// Compiles `policy`'s play of `game` with every chance point stored, so that every step
    /// of a game is one term: a replay then sees each roll and each decision apart (luck and
    /// skill step by step, [`super::quality`]), where [`Program::compile`] folds the chance
    /// points a game does not store into the sums that pass through them.
    pub fn compile_steps(
        game: &G,
        policy: &dyn Policy<G>,
        budget: Budget<'_>,
    ) -> Result<Self, Stop> {
        Compiler::new(game, Rule::Follow(policy), Some(Keep::Every), budget).run(&[game.start()])
    }

    /// A program with nothing compiled yet.
    fn empty(best: bool) -> Self {
        Program {
            positions: Vec::new(),
            compiled_row: Vec::new(),
            template_levels: Vec::new(),
            levels: Vec::new(),
            by_level: false,
            kind: Vec::new(),
            branch_start: vec![0],
            term_start: vec![0],
            rolls: Vec::new(),
            passed: Vec::new(),
            target: Vec::new(),
            weight: Vec::new(),
            weights: Vec::new(),
            layers: Vec::new(),
            roots: Vec::new(),
            best,
            ids: FxHashMap::default(),
            template: None,
            places: Places::default(),
            template_places: Places::default(),
            blocks: Blocks::default(),
            blocked: 0,
            shift: 0,
        }
    }

    /// Lets go of the stored positions, which only [`Program::position`] reads: a program
    /// that is only replayed from here needs none.
    pub(super) fn forget_positions(&mut self) {
        self.positions = Vec::new();
        self.compiled_row = Vec::new();
    }

    /// The levels of layer `ids`, one that one sweep settles ([`Program::layers`]), in the
    /// order they settle: ranges of ids none of which reads another of its range; none where
    /// the program is not ordered by level ([`Program::by_level`]).
    pub(super) fn levels(&self, ids: Range<u32>) -> Option<Vec<Range<u32>>> {
        if !self.by_level {
            return None;
        }
        let mut starts: Vec<u32> = if ids.start < self.blocked {
            (self.template_levels.iter())
                .map(|&s| ids.start + s)
                .collect()
        } else {
            let from = self.levels.partition_point(|&s| s < ids.start);
            let to = self.levels.partition_point(|&s| s < ids.end);
            self.levels[from..to].to_vec()
        };
        starts.push(ids.end);
        Some(starts.windows(2).map(|w| w[0]..w[1]).collect())
    }

    /// Stored positions.
    pub fn len(&self) -> usize {
        self.id_of_row(self.kind.len() as u32) as usize
    }

    /// The id of the (first) start.
    #[inline]
    pub(super) fn start(&self) -> u32 {
        self.roots[0]
    }

    /// Whether nothing is stored (never: the start is).
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// The id of row `row`, a row past the template's.
    fn id_of_row(&self, row: u32) -> u32 {
        row + self.shift
    }

    /// Where `id`'s sums are.
    #[inline]
    pub(super) fn place(&self, id: u32) -> Place {
        if id < self.blocked {
            let size = self.blocks.size;
            Place {
                row: id % size,
                block: id / size,
            }
        } else {
            Place {
                row: id - self.shift,
                block: NO_BLOCK,
            }
        }
    }

    /// The decision points branch `b` passes through without storing them, in expectation.
    #[inline]
    pub(super) fn passed(&self, b: usize) -> f64 {
        self.passed.get(b).copied().unwrap_or(0.0)
    }

    /// Whether any id is in a block.
    #[inline]
    pub(super) fn has_blocks(&self) -> bool {
        self.blocked > 0
    }

    /// `id`'s row.
    #[inline]
    pub(super) fn row(&self, id: u32) -> usize {
        self.place(id).row as usize
    }

    /// `id`'s kind: a decision's, or [`CHANCE`].
    #[inline]
    pub(super) fn kind_of(&self, id: u32) -> u8 {
        self.kind[self.row(id)]
    }

    /// Stored position `id` (in the form it was stored in).
    pub fn position(&self, game: &G, id: u32) -> G::Pos {
        let place = self.place(id);
        let pos = self.positions[self.compiled_row[place.row as usize] as usize];
        if place.block == NO_BLOCK {
            pos
        } else {
            game.relayer(&pos, self.blocks.top - place.block)
        }
    }

    /// What term `t` of the position at `place` reads: an id or an end.
    #[inline]
    pub(super) fn target_at(&self, place: Place, t: usize) -> u32 {
        if place.block == NO_BLOCK {
            self.target[t]
        } else {
            self.block_target(place, t)
        }
    }

    /// [`Program::target_at`] for a position in a block.
    #[inline]
    pub(super) fn block_target(&self, place: Place, t: usize) -> u32 {
        let target = self.target[t];
        if target >= END {
            return target;
        }
        match self.lands(place, target) {
            Lands::Block(block, row) => block * self.blocks.size + row,
            Lands::Id(id) => id,
        }
    }

    /// Where `target`, a position a template's term reads, lands for the template's copy at
    /// `place`: a row of a block, or an id in no block.
    #[inline]
    fn lands(&self, place: Place, target: u32) -> Lands {
        let b = &self.blocks;
        if target < BELOW {
            return Lands::Block(place.block, target);
        }
        let below = (target - BELOW) as usize;
        // The layer read is as far below the block's as the template's read is below it.
        let lands = b.below_layer[below] + (b.top - place.block) - b.from;
        if lands >= b.bottom {
            Lands::Block(b.top - lands, b.up[below])
        } else {
            Lands::Id(b.low[below * b.from as usize + lands as usize])
        }
    }

    /// Where a replay that settles layer by layer and reads only the starts' values at the
    /// end keeps each value while it may still be read ([`Ring`]).
    pub(super) fn ring(&self) -> Ring {
        if !self.has_blocks() {
            return Ring {
                blocks: 1,
                low: 0,
                slots: self.len(),
            };
        }
        let b = &self.blocks;
        // A block reads its own layer and those its template reads below it, moved up.
        let drop = b.below_layer.iter().map(|&l| b.from - l).max().unwrap_or(0);
        let blocks = (drop + 1).min(b.top - b.bottom + 1);
        Ring {
            blocks,
            low: self.blocked - blocks * b.size,
            slots: (blocks * b.size) as usize + self.len() - self.blocked as usize,
        }
    }

    /// The slot of `id` in a [`Ring`], at `place`.
    #[inline]
    pub(super) fn slot(&self, id: u32, place: Place, ring: Ring) -> usize {
        if place.block == NO_BLOCK {
            (id - ring.low) as usize
        } else {
            ((place.block % ring.blocks) * self.blocks.size + place.row) as usize
        }
    }

    /// The slot in a [`Ring`] of what term `t` of the position at `place` reads, or an end.
    #[inline]
    pub(super) fn slot_at(&self, place: Place, t: usize, ring: Ring) -> u32 {
        let target = self.target[t];
        if target >= END {
            return target;
        }
        if place.block == NO_BLOCK {
            return target - ring.low;
        }
        match self.lands(place, target) {
            Lands::Block(block, row) => (block % ring.blocks) * self.blocks.size + row,
            Lands::Id(end) if end >= END => end,
            Lands::Id(id) => id - ring.low,
        }
    }

    /// Renumbers the rows in the order values settle, and lays their sums out in that order:
    /// a replay then streams through the sums, and what a position reads was mostly settled
    /// just before it, close by. The template's rows take the order of its blocks', the rows
    /// of no block that of their ids; ids, targets and maps follow.
    // Kept out of the compiler's `run`, as `settle_order` is.
    #[inline(never)]
    fn lay_out(&mut self, order: Order) {
        let (size, rows) = (self.blocks.size, self.positions.len());
        let mut new_row = vec![u32::MAX; rows];
        let template = order
            .template
            .as_ref()
            .map(|t| t.as_ref().unwrap_or_else(|t| t));
        for (rank, &row) in template.into_iter().flatten().enumerate() {
            new_row[row as usize] = rank as u32;
        }
        for (rank, &row) in order.others.iter().enumerate() {
            new_row[row as usize] = size + rank as u32;
        }
        debug_assert!(
            new_row.iter().all(|&r| r != u32::MAX),
            "every row renumbered"
        );
        let new_id = |p: &Self, id: u32| {
            let place = p.place(id);
            if place.block == NO_BLOCK {
                new_row[place.row as usize] + p.shift
            } else {
                place.block * size + new_row[place.row as usize]
            }
        };
        let mut old_row = vec![0u32; rows];
        for (old, &new) in new_row.iter().enumerate() {
            old_row[new as usize] = old as u32;
        }
        // Each array is rebuilt and the old one freed before the next: one array at a time is
        // held twice (the largest, the terms', is [`BYTES_PER_POSITION`]'s copy).
        fn same<T>(_: u32, x: T) -> T {
            x
        }
        self.kind = gather(&old_row, |r| r as usize..r as usize + 1, &self.kind, same);
        if !self.passed.is_empty() {
            self.passed.resize(self.term_start.len() - 1, 0.0);
        }
        let (starts, term_starts) = (&self.branch_start, &self.term_start);
        let branches = |r: u32| starts[r as usize] as usize..starts[r as usize + 1] as usize;
        let terms = |r: u32| {
            let b = branches(r);
            term_starts[b.start] as usize..term_starts[b.end] as usize
        };
        self.rolls = gather(&old_row, branches, &self.rolls, same);
        if !self.passed.is_empty() {
            self.passed = gather(&old_row, branches, &self.passed, same);
        }
        let target = gather(&old_row, terms, &self.target, |r, t| {
            if r < size {
                if t >= BELOW { t } else { new_row[t as usize] }
            } else if t >= END {
                t
            } else {
                new_id(self, t)
            }
        });
        self.target = target;
        self.weight = gather(&old_row, terms, &self.weight, same);
        // The branches' and terms' starts last: the others were read through the old ones.
        let (mut branch_start, mut term_start) = (vec![0], vec![0]);
        for &r in &old_row {
            for b in self.branch_range(r as usize) {
                let terms = self.term_start[b + 1] - self.term_start[b];
                term_start.push(term_start.last().expect("a start") + terms);
            }
            branch_start.push(term_start.len() as u32 - 1);
        }
        (self.branch_start, self.term_start) = (branch_start, term_start);
        // Each layer's ids, renumbered in the order they settle, are consecutive: the layers
        // below the blocks, then the blocks from the lowest up.
        let first = size + self.shift;
        self.levels = order.levels.iter().map(|&s| first + s).collect();
        self.template_levels = order.template_levels;
        self.layers = (order.starts.windows(2).zip(&order.once))
            .map(|(w, &once)| (first + w[0]..first + w[1], once))
            .collect();
        if let Some(template) = &order.template {
            let b = &self.blocks;
            self.layers.extend((b.bottom..=b.top).map(|layer| {
                let base = b.base(layer);
                (base..base + size, template.is_ok())
            }));
        }
        let roots: Vec<u32> = self.roots.iter().map(|&id| new_id(self, id)).collect();
        let low: Vec<u32> = (self.blocks.low.iter())
            .map(|&id| if id >= END { id } else { new_id(self, id) })
            .collect();
        let mut ids = std::mem::take(&mut self.ids);
        for id in ids.values_mut() {
            *id = new_id(self, *id);
        }
        (self.roots, self.blocks.low, self.ids) = (roots, low, ids);
        let mut places = std::mem::take(&mut self.places);
        places.renumber(|id| new_id(self, id));
        self.places = places;
        (self.template_places).renumber(|row| {
            if row < BELOW {
                new_row[row as usize]
            } else {
                row
            }
        });
        for row in self.blocks.up.iter_mut() {
            *row = new_row[*row as usize];
        }
        self.compiled_row = old_row;
        if let Some(template) = &mut self.template {
            for row in template.values_mut() {
                *row = new_row[*row as usize];
            }
        }
    }

    /// The program's size in memory, roughly.
    pub fn bytes(&self) -> u64 {
        (self.positions.len() * (size_of::<G::Pos>() + 1 + 4)
            + self.len() * 8
            + self.term_start.len() * (4 + 8)
            + self.target.len() * 8) as u64
    }

    /// The id of stored position `pos` in a program compiled under [`Rule::Best`] (canonical
    /// forms), if compiled.
    pub fn id(&self, game: &G, pos: &G::Pos) -> Option<u32> {
        debug_assert!(
            self.best,
            "a strategy's program keys positions as its strategy sees them"
        );
        let b = &self.blocks;
        let layer = game.layer(pos);
        // A position with a place is found by it, one without by its canonical form's key.
        match &self.template {
            Some(template) if layer >= b.bottom => {
                let row = match game.index(&game.relayer(pos, b.from)) {
                    Some(index) => (self.template_places.get(index)).filter(|&row| row < BELOW)?,
                    None => {
                        *template.get(&game.key(&game.relayer(&game.canonical(pos), b.from)))?
                    }
                };
                (layer <= b.top).then(|| b.base(layer) + row)
            }
            _ => match game.index(pos) {
                Some(index) => self.places.get(index),
                None => self.ids.get(&game.key(&game.canonical(pos))).copied(),
            },
        }
    }

    /// Every term of `id`, each as what it reads (an id or an end) and its weight: in a
    /// strategy's program, where a position is one branch, the steps play takes from it.
    #[inline]
    pub(super) fn terms(&self, id: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let place = self.place(id);
        self.term_range(place.row as usize).map(move |t| {
            (
                self.target_at(place, t),
                self.weights[self.weight[t] as usize],
            )
        })
    }

    /// Row `row`'s branches: a row's branches are consecutive.
    #[inline]
    fn branch_range(&self, row: usize) -> std::ops::Range<usize> {
        self.branch_start[row] as usize..self.branch_start[row + 1] as usize
    }

    /// Row `row`'s terms: its branches' terms are consecutive too.
    #[inline]
    fn term_range(&self, row: usize) -> std::ops::Range<usize> {
        let b = self.branch_range(row);
        self.term_start[b.start] as usize..self.term_start[b.end] as usize
    }

    /// The branches of `id` as term ranges (read their targets with [`Program::target_at`]).
    pub(super) fn branches(
        &self,
        id: u32,
    ) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> {
        self.branches_at(self.place(id))
    }

    /// The branches of the position at `place` as term ranges.
    #[inline]
    pub(super) fn branches_at(
        &self,
        place: Place,
    ) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> {
        self.branches_of_row(place.row)
    }

    /// The branches of row `row` as term ranges.
    #[inline]
    pub(super) fn branches_of_row(
        &self,
        row: u32,
    ) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> {
        self.branch_range(row as usize).map(|b| {
            (
                b,
                self.term_start[b] as usize..self.term_start[b + 1] as usize,
            )
        })
    }
}

/// `of`'s items in the rows' new order, `old_row` giving the old row of each new one and
/// `range` an old row's items: each item `map(old row, item)`. Laid out on every thread, a
/// piece of rows at a time, each piece where the items of the rows before it end: the rows'
/// items are read where they lie, a read of memory no cache holds per row.
fn gather<T: Copy + Default + Send + Sync>(
    old_row: &[u32],
    range: impl Fn(u32) -> Range<usize> + Sync,
    of: &[T],
    map: impl Fn(u32, T) -> T + Sync,
) -> Vec<T> {
    let piece = old_row.len().div_ceil(PIECES).max(1);
    let sizes: Vec<usize> = (old_row.par_chunks(piece))
        .map(|rows| rows.iter().map(|&r| range(r).len()).sum())
        .collect();
    let mut laid = vec![T::default(); sizes.iter().sum()];
    let mut spans = Vec::with_capacity(sizes.len());
    let mut rest = laid.as_mut_slice();
    for (rows, &size) in old_row.chunks(piece).zip(&sizes) {
        let (span, tail) = rest.split_at_mut(size);
        spans.push((rows, span));
        rest = tail;
    }
    spans.into_par_iter().for_each(|(rows, span)| {
        let mut out = span.iter_mut();
        for &r in rows {
            // The row's items first: the span's item past the row's end stays unread.
            for (&x, o) in of[range(r)].iter().zip(out.by_ref()) {
                *o = map(r, x);
            }
        }
    });
    laid
}

/// Slots of [`WeightIds`] (a power of two).
const WEIGHT_SLOTS: usize = 256;

/// Each weight's index in a program's list of weights: found in a slot picked by its bits
/// before the map is asked, since every term asks and a program's terms repeat a few weights
/// most of the time.
struct WeightIds {
    /// Per slot, the bits of the weight found there last and its index ([`u32::MAX`] where
    /// none is yet).
    slots: Box<[(u64, u32)]>,
    ids: FxHashMap<u64, u32>,
}

impl Default for WeightIds {
    fn default() -> Self {
        WeightIds {
            slots: vec![(0, u32::MAX); WEIGHT_SLOTS].into_boxed_slice(),
            ids: FxHashMap::default(),
        }
    }
}

impl WeightIds {
    /// The index of weight `w` in `list`, pushed there if new.
    #[inline]
    fn id(&mut self, w: f64, list: &mut Vec<f64>) -> u32 {
        let bits = w.to_bits();
        let slot =
            (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - WEIGHT_SLOTS.ilog2())) as usize;
        let (seen, id) = self.slots[slot];
        if seen == bits && id != u32::MAX {
            return id;
        }
        let next = self.ids.len() as u32;
        let id = *self.ids.entry(bits).or_insert(next);
        if id == next {
            list.push(w);
        }
        self.slots[slot] = (bits, id);
        id
    }
}

struct Compiler<'g, 'r, G: Game> {
    game: &'g G,
    rule: Rule<'r, G>,
    budget: Budget<'r>,
    ids: FxHashMap<G::Key, u32>,
    /// While the template of alike layers is stepped: the positions it reads below its layer.
    below: Option<Below<G>>,
    weight_ids: WeightIds,
    program: Program<G>,
    /// Scratch: the terms of the branch being compiled.
    terms: Vec<(u32, f64)>,
    /// Scratch: where each target is in `terms`, once they are too many to search
    /// ([`FEW_TERMS`]); a branch through many chance points that are not stored has hundreds.
    slots: FxHashMap<u32, u32>,
    /// The ids found by the game's dense layout.
    places: Places,
    /// What is stored besides what the game stores.
    keep: Option<Keep>,
}

/// Terms stepped at once, about ([`Compiler::compile`]): rows are stepped as many at a time
/// as had this many terms lately, from [`PIECES`] rows up to [`ROWS`].
const TERMS: usize = 1 << 13;
const ROWS: usize = 1 << 13;

/// Up to how many terms a branch's are searched for a target, rather than looked up
/// ([`Compiler::slots`]).
const FEW_TERMS: usize = 16;

/// Reads below a template's blocks stepped at once ([`Compiler::run_alike`]).
const READS: usize = 1 << 12;

/// How many terms ahead of the one given its id the memory is asked for the slot of a later
/// one ([`Compiler::fetch_ahead`]).
const AHEAD: usize = 8;

/// Asks the memory for the cache line of `x`, reading nothing: a hint, where the target has
/// one.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch neither reads nor writes `x` and cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(x).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// A slot of [`Places`] where no id is found yet.
const UNSEEN: u32 = u32::MAX;

/// Ids by place in a game's dense layout ([`Game::index`] under [`Rule::Best`],
/// [`Game::place`] for a strategy): each group's first slot, and per group a slot per place,
/// [`UNSEEN`] where no id is found yet.
#[derive(Default)]
struct Places {
    groups: Groups,
    ids: Vec<u32>,
}

impl Places {
    /// The first slot of `index`'s group, its slots added where the group is new.
    #[inline]
    fn first(&mut self, index: Index) -> usize {
        let ids = &mut self.ids;
        self.groups.get_or_insert(index.group, || {
            let first = ids.len();
            ids.resize(first + index.width as usize, UNSEEN);
            first
        })
    }

    /// The id found at `index`, if any.
    fn get(&self, index: Index) -> Option<u32> {
        let first = self.groups.get(index.group)?;
        let id = *self.ids.get(first + index.offset as usize)?;
        (id != UNSEEN).then_some(id)
    }

    /// Every id found, renumbered.
    fn renumber(&mut self, new: impl Fn(u32) -> u32) {
        for id in self.ids.iter_mut().filter(|id| **id != UNSEEN) {
            *id = new(*id);
        }
    }
}

/// Each group's first slot in [`Places::ids`], by open addressing: the slot where a group is
/// looked for follows from its bits alone, so it can be asked of the memory well before the
/// group is looked up ([`Groups::prefetch`]).
struct Groups {
    /// Per slot, a group (its two halves: a slot takes 24 bytes, not a `u128`'s alignment of
    /// 32) and its first slot ([`usize::MAX`] where the slot is empty); a power of two slots,
    /// at most half of them full.
    table: Vec<([u64; 2], usize)>,
    len: usize,
}

impl Default for Groups {
    fn default() -> Self {
        Groups {
            table: vec![([0; 2], usize::MAX); 1 << 10],
            len: 0,
        }
    }
}

impl Groups {
    /// Where `group` is first looked for.
    #[inline]
    fn home(&self, group: u128) -> usize {
        let bits = ((group as u64) ^ (group >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (bits >> (64 - self.table.len().ilog2())) as usize
    }

    /// Asks the memory for the slot where `group` is first looked for.
    #[inline]
    fn prefetch(&self, group: u128) {
        prefetch(&self.table[self.home(group)]);
    }

    /// The slot of `group`, or the empty one where it would go.
    #[inline]
    fn find(&self, group: u128) -> usize {
        let mask = self.table.len() - 1;
        let mut at = self.home(group);
        loop {
            let (seen, first) = self.table[at];
            if first == usize::MAX || seen == halves(group) {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, group: u128) -> Option<usize> {
        let first = self.table[self.find(group)].1;
        (first != usize::MAX).then_some(first)
    }

    /// The first slot of `group`, `new()` where the group is new.
    #[inline]
    fn get_or_insert(&mut self, group: u128, new: impl FnOnce() -> usize) -> usize {
        let at = self.find(group);
        if self.table[at].1 != usize::MAX {
            return self.table[at].1;
        }
        let first = new();
        self.table[at] = (halves(group), first);
        self.len += 1;
        if 2 * self.len > self.table.len() {
            self.grow();
        }
        first
    }

    /// Twice the slots, every group moved to its new place.
    #[cold]
    fn grow(&mut self) {
        let slots = 2 * self.table.len();
        let old = std::mem::replace(&mut self.table, vec![([0; 2], usize::MAX); slots]);
        for (seen, first) in old.into_iter().filter(|&(_, first)| first != usize::MAX) {
            let at = self.find(u128::from(seen[0]) | u128::from(seen[1]) << 64);
            self.table[at] = (seen, first);
        }
    }
}

/// A group's low and high halves.
#[inline]
fn halves(group: u128) -> [u64; 2] {
    [group as u64, (group >> 64) as u64]
}

/// The positions a template reads below its own layer, each with the template's index of the
/// same position moved up to the template's layer (where the template, copied to a higher
/// layer, reads it).
struct Below<G: Game> {
    /// The template's layer.
    from: u32,
    /// The lowest layer the game plays alike ([`Game::alike_from`]), `from` or below (a
    /// strategy may answer alike only higher up).
    game_from: u32,
    ids: FxHashMap<G::Key, u32>,
    positions: Vec<G::Pos>,
    up: Vec<u32>,
}

impl<'g, 'r, G: Game> Compiler<'g, 'r, G> {
    fn new(game: &'g G, rule: Rule<'r, G>, keep: Option<Keep>, budget: Budget<'r>) -> Self {
        let best = matches!(rule, Rule::Best);
        Compiler {
            game,
            rule,
            budget,
            ids: FxHashMap::default(),
            below: None,
            weight_ids: WeightIds::default(),
            program: Program::empty(best),
            terms: Vec::new(),
            slots: FxHashMap::default(),
            places: Places::default(),
            keep,
        }
    }

    fn run(mut self, starts: &[G::Pos]) -> Result<Program<G>, Stop> {
        assert!(
            starts.iter().all(|s| self.game.stored(s)),
            "a game's start must be a stored position"
        );
        let top = self.game.layer(&starts[0]);
        assert!(
            starts.iter().all(|s| self.game.layer(s) <= top),
            "the first start is at the highest layer"
        );
        // Layers play alike from where the game and the strategy both play them alike, and
        // are replayed down to where the game replays them, if the strategy answers alike there.
        let game = self.game;
        let policy = match self.rule {
            Rule::Best => Some(0),
            Rule::Follow(policy) => policy.alike_from(game),
        };
        let alike = (game.alike_from().zip(policy)).map(|(g, p)| {
            let replayed = game.replayed_from().unwrap_or(g).min(g);
            (g.max(p), replayed.max(p))
        });
        match alike {
            Some((from, bottom)) if top > from => {
                self.run_alike(starts, (from, bottom), top)?;
            }
            _ => {
                for &start in starts {
                    let id = self.id(start)?;
                    self.program.roots.push(id);
                }
                self.compile(0)?;
            }
        }
        // The order is found, and the rows laid out, once what only finding ids needs is
        // freed: each takes room of its own.
        if self.program.best {
            self.program.places = std::mem::take(&mut self.places);
            self.program.ids = std::mem::take(&mut self.ids);
        } else {
            // A strategy's program is never looked up ([`Program::id`]).
            (self.places, self.ids) = Default::default();
            self.program.template = None;
        }
        self.weight_ids = WeightIds::default();
        let order = self.settle_order();
        let mut program = std::mem::replace(&mut self.program, Program::empty(false));
        drop(self);
        program.lay_out(order);
        Ok(program)
    }

    /// Compiles the positions found from id `next` on, and those they find, in the order
    /// they are found (breadth first), so that ids are that order and every array grows at
    /// its end. Rows are stepped several at a time on every thread ([`step`]), those after
    /// them while their terms are given ids, in order, on one ([`TERMS`]).
    fn compile(&mut self, mut next: usize) -> Result<(), Stop> {
        let shape = self.shape();
        // The rows stepped and not yet taken (`next..end`, in `ready`'s first pieces), and
        // room for those after them: both kept for the next rows, not allocated anew.
        let mut end = next;
        let (mut ready, mut ahead) = (Vec::new(), Vec::new());
        let mut pieces = 0;
        let mut rows = Vec::new();
        let mut chunk = PIECES;
        loop {
            check_cancel(&self.budget)?;
            if next == end {
                end = self.program.positions.len().min(next + chunk);
                if next == end {
                    return Ok(());
                }
                let stepped;
                (pieces, stepped) = step(shape, &self.program.positions[next..end], &mut ready);
                end = next + stepped;
            }
            let ready_now = &ready[..pieces];
            let terms: usize = ready_now.iter().map(|out| out.terms.len()).sum();
            chunk = ((end - next) * TERMS / terms.max(1)).clamp(PIECES, ROWS);
            // Rows already found past `end` are stepped on the other threads while `ready`'s
            // terms get their ids on this one. The scope runs on a thread of the pool, which
            // steps too once the ids are found: on the calling thread it would wait idle
            // there, or take a core from the stepping.
            let after = self.program.positions.len().min(end + chunk);
            rows.clear();
            rows.extend_from_slice(&self.program.positions[end..after]);
            let mut pieces_ahead = (0, 0);
            scope_fifo(|scope| {
                scope.spawn_fifo(|_| pieces_ahead = step(shape, &rows, &mut ahead));
                ready_now.iter().try_for_each(|out| self.take(out))
            })?;
            // A piece keeps room for its share of the terms, not for the most it ever held.
            for out in &mut ready[..pieces] {
                out.terms.shrink_to(4 * TERMS / PIECES);
            }
            std::mem::swap(&mut ready, &mut ahead);
            (pieces, next, end) = (pieces_ahead.0, end, end + pieces_ahead.1);
        }
    }

    /// Adds the rows stepped in `out` to the program, each term's id found.
    fn take(&mut self, out: &Stepped<G::Pos>) -> Result<(), Stop> {
        let (mut b, mut t) = (0, 0);
        for &(kind, branches) in &out.rows {
            self.program.kind.push(kind.unwrap_or(CHANCE));
            for &(terms, passed) in &out.branches[b..branches as usize] {
                for i in t..terms as usize {
                    if let Some(&(far, _)) = out.terms.get(i + 2 * AHEAD) {
                        self.prefetch_group(far);
                    }
                    if let Some(&(ahead, _)) = out.terms.get(i + AHEAD) {
                        self.fetch_ahead(ahead);
                    }
                    let (lead, w) = out.terms[i];
                    let id = self.resolve(lead)?;
                    match lead {
                        Lead::Joined(..) => self.terms.push((id, w)),
                        _ => self.add_term(id, w),
                    }
                }
                self.branch(passed);
                t = terms as usize;
            }
            b = branches as usize;
            self.program
                .branch_start
                .push(self.program.term_start.len() as u32 - 1);
        }
        Ok(())
    }

    /// Compiles a game whose layers from `from` up play alike, replayed down to `bottom`,
    /// from a start at layer `top`: the template (every position of layer `from` that play
    /// from any such layer reaches, moved to `from`) stepped once, laid out as a block of ids
    /// for every layer from `top` down to `bottom` ([`Blocks`]), then the layers below stepped
    /// as usual.
    fn run_alike(
        &mut self,
        starts: &[G::Pos],
        (from, bottom): (u32, u32),
        top: u32,
    ) -> Result<(), Stop> {
        self.below = Some(Below {
            from,
            game_from: (self.game.alike_from()).expect("a game whose layers play alike"),
            ids: FxHashMap::default(),
            positions: Vec::new(),
            up: Vec::new(),
        });
        // A start in an alike layer is a row of the template for now.
        let mut roots = Vec::with_capacity(starts.len());
        for start in starts {
            let layer = self.game.layer(start);
            roots.push(if layer >= bottom {
                Some((layer, self.id(self.game.relayer(start, from))?))
            } else {
                None
            });
        }
        self.compile(0)?;
        let below = self.below.take().expect("the template's reads below");
        let size = self.program.positions.len() as u32;
        let count = top - bottom + 1;
        assert!(
            below
                .positions
                .iter()
                .all(|p| self.game.layer(p) + bottom >= from),
            "a game replays its alike layers down to where their play would read below layer 0"
        );
        if u64::from(count) * u64::from(size)
            >= (self.budget.max_states as u64).min(u64::from(BELOW))
        {
            return Err(Stop::TooLarge {
                needs: self.game.stored_bound().map(|n| n * BYTES_PER_POSITION),
                allowed: self.budget.max_states as u64 * BYTES_PER_POSITION,
            });
        }
        self.program.template = Some(std::mem::take(&mut self.ids));
        // What the template read below `from` is stepped now, under ids of its own.
        // Kept for lookups by optimal play's program only ([`Program::id`]).
        if self.program.best {
            self.program.template_places = std::mem::take(&mut self.places);
        } else {
            self.places = Places::default();
        }
        self.program.blocks = Blocks {
            size,
            from,
            bottom,
            top,
            below_layer: below.positions.iter().map(|p| self.game.layer(p)).collect(),
            up: below.up,
            low: vec![NO_BLOCK; below.positions.len() * from as usize],
        };
        self.program.blocked = size * count;
        self.program.shift = size * count - size;
        // Where a block reads below `bottom`: ids found block by block from the top, each
        // block's reads in the order the template's terms first read them (the layers below
        // are stepped in that order). What each read leads to is stepped on every thread, a
        // piece at a time, and its id found on one.
        let mut first_read = vec![false; below.positions.len()];
        let reads: Vec<u32> = (self.program.target.iter())
            .filter(|&t| (BELOW..END).contains(t))
            .map(|&t| t - BELOW)
            .filter(|&b| !std::mem::replace(&mut first_read[b as usize], true))
            .collect();
        drop(first_read);
        let below_layer = &self.program.blocks.below_layer;
        let lands: Vec<(u32, u32)> = ((bottom..=top).rev())
            .filter(|&layer| layer < from + bottom)
            .flat_map(|layer| {
                reads
                    .iter()
                    .map(move |&b| (b, below_layer[b as usize] + layer - from))
            })
            .filter(|&(_, lands)| lands < bottom)
            .collect();
        let (game, shape) = (self.game, self.shape());
        let mut leads = Vec::new();
        for piece in lands.chunks(READS) {
            check_cancel(&self.budget)?;
            leads.clear();
            leads.par_extend(piece.par_iter().map(|&(b, lands)| {
                // Settled anew there, the position may be an end.
                let pos = game.relayer(&below.positions[b as usize], lands);
                match game.point(&pos) {
                    Point::Over(end) => Lead::End(end),
                    _ => shape.lead(&pos),
                }
            }));
            for (i, (&(b, lands), &lead)) in piece.iter().zip(&leads).enumerate() {
                if let Some(&ahead) = leads.get(i + AHEAD) {
                    self.fetch_ahead(ahead);
                }
                let id = self.resolve(lead)?;
                self.program.blocks.low[b as usize * from as usize + lands as usize] = id;
            }
        }
        for (start, root) in starts.iter().zip(roots) {
            let id = match root {
                Some((layer, row)) => self.program.blocks.base(layer) + row,
                None => self.id(*start)?,
            };
            self.program.roots.push(id);
        }
        let next = self.program.kind.len();
        self.compile(next)
    }

    /// Closes the branch whose terms are in `self.terms`.
    fn branch(&mut self, passed: Passed) {
        self.slots.clear();
        for (target, w) in self.terms.drain(..) {
            let wid = self.weight_ids.id(w, &mut self.program.weights);
            self.program.target.push(target);
            self.program.weight.push(wid);
        }
        self.program
            .term_start
            .push(self.program.target.len() as u32);
        self.program.rolls.push(passed.rolls);
        let p = &mut self.program;
        if passed.decisions != 0.0 || !p.passed.is_empty() {
            p.passed.resize(p.rolls.len() - 1, 0.0);
            p.passed.push(passed.decisions);
        }
    }

    /// Adds `w` to the branch's term for `target`, a new term if there is none.
    fn add_term(&mut self, target: u32, w: f64) {
        if self.terms.len() < FEW_TERMS {
            match self.terms.iter_mut().find(|(t, _)| *t == target) {
                Some((_, sum)) => *sum += w,
                None => self.terms.push((target, w)),
            }
            return;
        }
        if self.slots.is_empty() {
            self.slots.extend(
                self.terms
                    .iter()
                    .enumerate()
                    .map(|(i, &(t, _))| (t, i as u32)),
            );
        }
        let next = self.terms.len() as u32;
        let slot = *self.slots.entry(target).or_insert(next);
        if slot == next {
            self.terms.push((target, w));
        } else {
            self.terms[slot as usize].1 += w;
        }
    }

    /// The id of stored position `pos` (by its class under [`Rule::Best`]), found anew if
    /// need be. While a template is stepped, a position below its layer is a [`BELOW`] read,
    /// and the same position moved up to the template's layer joins the template.
    fn id(&mut self, pos: G::Pos) -> Result<u32, Stop> {
        let lead = self.shape().lead(&pos);
        self.resolve(lead)
    }

    /// The id of the position a stepped term leads to ([`Lead`]), found anew if need be.
    #[inline]
    fn resolve(&mut self, lead: Lead<G::Pos>) -> Result<u32, Stop> {
        match lead {
            Lead::End(end) => Ok(end_target(end)),
            // A class at one place: the first position met there is stored as it is.
            Lead::Indexed(pos, index) | Lead::Joined(pos, index) => {
                self.by_place(index, |c| c.first_at_place(pos, || pos))
            }
            Lead::Stored { form, place, pos } => self.id_of(form, place, pos),
            // The form is made where the place is new below a template's layer.
            Lead::Placed { place, pos } => {
                let shape = self.shape();
                self.by_place(place, |c| c.first_at_place(pos, || shape.form(&pos)))
            }
            Lead::Once(pos) => self.new_id(pos),
        }
    }

    /// Asks the memory for the slot of [`Places::ids`] where the id of the position a later
    /// term leads to would be ([`AHEAD`]), if its group is known: a term's id is mostly a read of
    /// memory no cache holds, and the reads of terms found one after another overlap so.
    #[inline]
    fn fetch_ahead(&mut self, lead: Lead<G::Pos>) {
        let Some(index) = lead.place() else {
            return;
        };
        let Some(first) = self.places.groups.get(index.group) else {
            return;
        };
        if let Some(slot) = self.places.ids.get(first + index.offset as usize) {
            prefetch(slot);
        }
    }

    /// Asks the memory for where the group of the place a later term leads to is looked
    /// for ([`Groups::prefetch`]), twice [`AHEAD`] terms ahead: [`Compiler::fetch_ahead`] then
    /// finds it in a cache.
    #[inline]
    fn prefetch_group(&self, lead: Lead<G::Pos>) {
        if let Some(index) = lead.place() {
            self.places.groups.prefetch(index.group);
        }
    }

    /// What stepping reads ([`Shape`]).
    fn shape(&self) -> Shape<'g, 'r, G> {
        Shape {
            game: self.game,
            rule: self.rule,
            keep: self.keep,
            below: (self.below.as_ref()).map(|b| (b.from, b.game_from)),
        }
    }

    /// The id at `index` of the dense layout ([`Compiler::places`]), `miss` finding it where
    /// none is found yet.
    #[inline]
    fn by_place(
        &mut self,
        index: Index,
        miss: impl FnOnce(&mut Self) -> Result<u32, Stop>,
    ) -> Result<u32, Stop> {
        let first = self.places.first(index);
        let slot = first + index.offset as usize;
        if self.places.ids[slot] != UNSEEN {
            return Ok(self.places.ids[slot]);
        }
        let id = miss(self)?;
        self.places.ids[slot] = id;
        Ok(id)
    }

    /// [`Compiler::id`] of a position stored under `form`: by its `place` in the game's
    /// dense layout of positions where a strategy's program has one ([`Game::place`]), else
    /// by its key. Where the form is new, play goes on from `pos`.
    fn id_of(&mut self, form: G::Pos, place: Option<Index>, pos: G::Pos) -> Result<u32, Stop> {
        if let Some(place) = place {
            return self.by_place(place, |c| c.first_at_place(pos, || form));
        }
        if let Some(read) = self.below_read(pos, || form)? {
            return Ok(read);
        }
        let next = self.program.id_of_row(self.program.positions.len() as u32);
        let id = *self.ids.entry(self.game.key(&form)).or_insert(next);
        if id == next {
            self.admit(pos)?;
        }
        Ok(id)
    }

    /// The id of stored position `pos`, met first at its place: one place, one position (or
    /// one form, `form` of it, read only below a template's layer).
    fn first_at_place(&mut self, pos: G::Pos, form: impl FnOnce() -> G::Pos) -> Result<u32, Stop> {
        match self.below_read(pos, form)? {
            Some(read) => Ok(read),
            None => self.new_id(pos),
        }
    }

    /// While a template is stepped, stored position `pos` below the template's layer, by the
    /// form it is stored under (`form` of it, of its layer): a [`BELOW`] read, the same
    /// position moved up to the template's layer joining the template. `None` for a position
    /// of the template's layer, or where no template is stepped.
    fn below_read(
        &mut self,
        pos: G::Pos,
        form: impl FnOnce() -> G::Pos,
    ) -> Result<Option<u32>, Stop> {
        let Some(below) = &self.below else {
            return Ok(None);
        };
        if self.game.layer(&pos) >= below.from {
            return Ok(None);
        }
        let key = self.game.key(&form());
        if let Some(&b) = below.ids.get(&key) {
            return Ok(Some(BELOW | b));
        }
        let up = self.game.relayer(&pos, below.from);
        let up = self.id(up)?;
        let below = self.below.as_mut().expect("stepping a template");
        let b = below.positions.len() as u32;
        below.ids.insert(key, b);
        below.positions.push(pos);
        below.up.push(up);
        Ok(Some(BELOW | b))
    }

    /// A new id for stored position `pos`.
    fn new_id(&mut self, pos: G::Pos) -> Result<u32, Stop> {
        let next = self.program.id_of_row(self.program.positions.len() as u32);
        self.admit(pos)?;
        Ok(next)
    }

    /// Stores `pos` under the next id, if the budget allows one more.
    fn admit(&mut self, pos: G::Pos) -> Result<(), Stop> {
        let next = self.program.id_of_row(self.program.positions.len() as u32);
        if u64::from(next) >= self.budget.max_states as u64 || next >= BELOW {
            return Err(Stop::TooLarge {
                needs: self.game.stored_bound().map(|n| n * BYTES_PER_POSITION),
                allowed: self.budget.max_states as u64 * BYTES_PER_POSITION,
            });
        }
        self.program.positions.push(pos);
        Ok(())
    }

    /// The order in which values settle: the template's rows (one order for every block), then
    /// the other rows by layer, lowest first; inside a layer latest found first, or after what
    /// they read where play never returns to one of them (one sweep then settles it).
    // Once per compile, kept out of `run`: inlined there, it took the stepping loop's
    // inlining with it.
    #[inline(never)]
    fn settle_order(&mut self) -> Order {
        let p = &self.program;
        let size = p.blocks.size;
        let rows = p.positions.len() as u32;
        let by_level = self.program.best || self.keep.is_none();
        // The template's rows and the others read none of each other's in their own layer:
        // their orders are found side by side, each marking its own rows.
        let mut seen = vec![Seen::Not; rows as usize];
        let mut level = vec![0u32; rows as usize];
        let (seen_template, seen_others) = seen.split_at_mut(size as usize);
        let (level_template, level_others) = level.split_at_mut(size as usize);
        let ((template, template_levels), (others, starts, once, levels)) = join(
            || {
                // The template as the lowest block reads it: a read of the same layer is one
                // of its own ids.
                if size == 0 {
                    return (None, Vec::new());
                }
                let block = p.blocks.top - p.blocks.bottom;
                let base = block * size;
                let found: Vec<u32> = (0..size).rev().collect();
                let same =
                    |target: u32| (base..base + size).contains(&target).then(|| target - base);
                let (seen, level) = (seen_template, level_template);
                match self.reads_first(&found, block, same, (seen, level, 0)) {
                    Some(sorted) => {
                        let (sorted, starts) = Self::by_level(sorted, level, 0, by_level);
                        (Some(Ok(sorted)), starts)
                    }
                    None => (Some(Err(found)), Vec::new()),
                }
            },
            || {
                // The other rows by layer.
                let layer_of: Vec<u32> = (size..rows)
                    .map(|row| self.game.layer(&p.positions[row as usize]))
                    .collect();
                let mut others: Vec<u32> = by_layer(&layer_of).iter().map(|&i| size + i).collect();
                let mut starts = Vec::new();
                for (i, &row) in others.iter().enumerate() {
                    let layer = layer_of[(row - size) as usize];
                    if i == 0 || layer != layer_of[(others[i - 1] - size) as usize] {
                        starts.push(i as u32);
                    }
                }
                starts.push(others.len() as u32);
                let mut once = Vec::with_capacity(starts.len());
                let mut levels = Vec::new();
                let (seen, level) = (seen_others, level_others);
                for w in starts.windows(2) {
                    let segment = &mut others[w[0] as usize..w[1] as usize];
                    let here = layer_of[(segment[0] - size) as usize];
                    let same = |target: u32| {
                        let row = target.checked_sub(p.shift)?;
                        (row >= size && layer_of[(row - size) as usize] == here).then_some(row)
                    };
                    let sorted =
                        self.reads_first(segment, NO_BLOCK, same, (&mut *seen, &mut *level, size));
                    once.push(sorted.is_some());
                    if let Some(sorted) = sorted {
                        let (sorted, starts) = Self::by_level(sorted, level, size, by_level);
                        segment.copy_from_slice(&sorted);
                        levels.extend(starts.iter().map(|&s| w[0] + s));
                    }
                }
                (others, starts, once, levels)
            },
        );
        self.program.by_level = by_level;
        Order {
            template,
            others,
            starts,
            once,
            template_levels,
            levels,
        }
    }

    /// `sorted`, rows of one layer each after the rows of the layer it reads, by their
    /// `level` ([`Compiler::reads_first`]): the rows of one level read none of each other and
    /// settle side by side. Returns the rows, level by level (in `sorted`'s order inside a
    /// level), and where each level starts; where not `by_level` ([`Program::by_level`]),
    /// `sorted` as it is and no levels. `level` holds the rows from `base` on.
    fn by_level(
        sorted: Vec<u32>,
        level: &[u32],
        base: u32,
        by_level: bool,
    ) -> (Vec<u32>, Vec<u32>) {
        if !by_level {
            return (sorted, Vec::new());
        }
        let mut count: Vec<u32> = Vec::new();
        for &row in &sorted {
            let here = level[(row - base) as usize] as usize;
            if count.len() <= here {
                count.resize(here + 1, 0);
            }
            count[here] += 1;
        }
        let mut starts = Vec::with_capacity(count.len());
        let mut next = 0;
        for c in &mut count {
            starts.push(next);
            (next, *c) = (next + *c, next);
        }
        let mut by_level = vec![0; sorted.len()];
        for &row in &sorted {
            let at = &mut count[level[(row - base) as usize] as usize];
            by_level[*at as usize] = row;
            *at += 1;
        }
        (by_level, starts)
    }

    /// The rows of one layer (in `block`'s copy where they are the template's), each after
    /// every row of the layer it reads (a depth-first postorder from each row in turn), or
    /// `None` if play can return to one of them; `same(target)` is the row an id of the layer
    /// is at, none for an id of another layer. Each row's `level` is set on the way: one above
    /// the highest of the rows of the layer it reads, 0 where it reads none; `seen` and
    /// `level` hold the rows from `base` on.
    fn reads_first(
        &self,
        layer: &[u32],
        block: u32,
        same: impl Fn(u32) -> Option<u32>,
        (seen, level, base): (&mut [Seen], &mut [u32], u32),
    ) -> Option<Vec<u32>> {
        let at = |row: u32| (row - base) as usize;
        let p = &self.program;
        let terms = |row: u32| p.term_range(row as usize);
        let place = |row: u32| Place { row, block };
        let mut sorted = Vec::with_capacity(layer.len());
        // Each row on the path, its next term, and the level of what it reads so far.
        let mut stack: Vec<(u32, usize, u32)> = Vec::new();
        for &root in layer {
            if seen[at(root)] != Seen::Not {
                continue;
            }
            seen[at(root)] = Seen::OnPath;
            stack.push((root, terms(root).start, 0));
            while let Some((row, next, here)) = stack.last_mut() {
                let (row, end) = (*row, terms(*row).end);
                let mut unread = None;
                while *next < end && unread.is_none() {
                    let target = p.target_at(place(row), *next);
                    *next += 1;
                    let Some(read) = (target < END).then(|| same(target)).flatten() else {
                        continue;
                    };
                    match seen[at(read)] {
                        Seen::Done => *here = (*here).max(level[at(read)] + 1),
                        Seen::OnPath => return None,
                        Seen::Not => unread = Some(read),
                    }
                }
                match unread {
                    Some(read) => {
                        seen[at(read)] = Seen::OnPath;
                        stack.push((read, terms(read).start, 0));
                    }
                    None => {
                        let done = *here;
                        seen[at(row)] = Seen::Done;
                        level[at(row)] = done;
                        sorted.push(row);
                        stack.pop();
                        if let Some((_, _, reader)) = stack.last_mut() {
                            *reader = (*reader).max(done + 1);
                        }
                    }
                }
            }
        }
        Some(sorted)
    }
}

/// The ids `0..layers.len()` by layer (`layers[id]`), lowest first, and inside a layer latest
/// first: counted into their layers where the layers are few beside the ids (a game's usually
/// are), else sorted.
fn by_layer(layers: &[u32]) -> Vec<u32> {
    let (Some(&low), Some(&high)) = (layers.iter().min(), layers.iter().max()) else {
        return Vec::new();
    };
    let span = (high - low) as usize + 1;
    if span > layers.len() {
        let mut order: Vec<u32> = (0..layers.len() as u32).collect();
        order.sort_unstable_by_key(|&id| (layers[id as usize], std::cmp::Reverse(id)));
        return order;
    }
    // Where each layer's ids start, then each id in place, latest first.
    let mut start = vec![0usize; span + 1];
    for &l in layers {
        start[(l - low) as usize + 1] += 1;
    }
    for i in 1..=span {
        start[i] += start[i - 1];
    }
    let mut order = vec![0u32; layers.len()];
    for id in (0..layers.len()).rev() {
        let at = &mut start[(layers[id] - low) as usize];
        order[*at] = id as u32;
        *at += 1;
    }
    order
}

/// A layer of a program: its ids, in the order they settle, and whether one sweep settles it.
pub(super) type Layer = (std::ops::Range<u32>, bool);

/// The order in which values settle, as the compiler finds it ([`Compiler::settle_order`]).
struct Order {
    /// The template's rows, where there is a template: in the order its blocks settle, or
    /// (`Err`) in the order found, latest first, where play can return to one of them.
    template: Option<Result<Vec<u32>, Vec<u32>>>,
    /// The other rows by layer, lowest first, each layer in the order it settles.
    others: Vec<u32>,
    /// Where each layer starts in `others`; one past the last at the end.
    starts: Vec<u32>,
    /// Per layer of `others`: whether one sweep settles it.
    once: Vec<bool>,
    /// Where the template's levels start ([`Compiler::by_level`]), where one sweep settles it.
    template_levels: Vec<u32>,
    /// Per layer of `others` one sweep settles: where its levels start in `others`.
    levels: Vec<u32>,
}

/// Where a depth-first walk over a layer stands with a position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    Not,
    OnPath,
    Done,
}

/// The target of a term that ends the game.
pub(super) fn end_target(end: End) -> u32 {
    match end {
        End::Win => END,
        End::Loss(c) => END + 1 + u32::from(c),
    }
}

#[cfg(test)]
mod tests {
    use super::by_layer;

    /// Counted into layers or sorted, the order is the same: by layer, latest id first.
    #[test]
    fn ids_by_layer_are_ordered_as_sorting_orders_them() {
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| {
            h ^= h >> 29;
            h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 32;
            (h % m) as u32
        };
        for (n, spread) in [(0, 1), (1, 1), (50, 3), (500, 40), (40, 1_000_000)] {
            let layers: Vec<u32> = (0..n).map(|_| 7 + next(spread)).collect();
            let mut sorted: Vec<u32> = (0..n as u32).collect();
            sorted.sort_by_key(|&id| (layers[id as usize], std::cmp::Reverse(id)));
            assert_eq!(by_layer(&layers), sorted, "{n} ids over {spread} layers");
        }
    }
}
