//! The game interface: what a game supplies so that the engines under
//! [`crate::engine::generic`] can sample it, evaluate a strategy exactly, solve it and split a
//! strategy's regret by kind of decision, knowing nothing of its rules.
//!
//! A game is a state machine over small `Copy` positions. At every position it is exactly one of
//! a chance point (outcomes with exact probabilities), a decision point (options of one kind,
//! asked of a strategy) or over (won, or lost with a cause). Besides that it supplies what lets
//! the engines be exact and fast without knowing what anything means:
//! - a **layer** that never rises along play, so the engines can settle values from the end
//!   backwards; play may return to a position inside one layer (a die moved up, then down),
//!   and the engines solve such cycles to a fixed point;
//! - which positions are **stored** (the engines keep a value for those and work out the rest
//!   on the way, as the sums of what they lead to);
//! - an optional **symmetry**: a canonical form of a position whose optimal value is the same;
//! - a compact **key**, injective over the positions of one game and design.
//!
//! Operation Purple Raven implements it in [`crate::game::interface`], Annulus in [`annulus`].
//!
//! Each game is a module of its own ([`annulus`]; Operation Purple Raven is [`crate::game`],
//! its strategies in [`crate::strategy`]), and its rules and words live there and nowhere else.

pub mod annulus;

use std::fmt::Debug;
use std::hash::Hash;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The player won.
    Win,
    /// The player lost; the cause is an index into [`Game::causes`].
    Loss(u8),
}

/// What a position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// A random event: [`Game::outcomes`] lists what it leads to.
    Chance,
    /// A question for the player: [`Game::options`] lists the answers; the kind is an index
    /// into [`Game::kinds`].
    Decision(u8),
    /// Finished.
    Over(End),
}

/// A game the engines can drive. The engines are monomorphised over it: nothing here is
/// called through a pointer on a hot path.
pub trait Game: Sync + Send {
    /// A position: small and `Copy`, so that engines copy it freely.
    type Pos: Copy + Eq + Hash + Debug + Send + Sync;
    /// An answer to a decision point.
    type Option: Copy + Eq + Debug + Send + Sync;
    /// A position as a compact value ([`Game::key`]).
    type Key: Copy + Eq + Hash + Send + Sync;

    /// The game's name as `--game` spells it.
    fn name(&self) -> &'static str;
    /// The kinds of decision, as a CSV's `kind` column names them.
    fn kinds(&self) -> &'static [&'static str];
    /// The causes of a loss, as a CSV's column names them.
    fn causes(&self) -> &'static [&'static str];

    /// The stages a game passes through, in order, as a report names them ("recruitment",
    /// "Tough Challenge 2"): when a game is decided is told by stage. At most [`PHASES`]. The
    /// default: one stage, the whole game.
    fn phases(&self) -> Vec<String> {
        vec!["the game".to_string()]
    }
    /// The stage of `pos`, an index into [`Game::phases`] that never falls along play.
    fn phase(&self, _pos: &Self::Pos) -> u8 {
        0
    }

    /// The position before anything is rolled or decided.
    fn start(&self) -> Self::Pos;
    /// What `pos` is.
    fn point(&self, pos: &Self::Pos) -> Point;
    /// At a chance point: every outcome, as the position it leads to and its exact
    /// probability (together 1), in a fixed order.
    fn outcomes(&self, pos: &Self::Pos, each: &mut impl FnMut(Self::Pos, f64));
    /// At a decision point: every legal option and the position it leads to, in a fixed order.
    /// There is at least one.
    fn options(&self, pos: &Self::Pos, each: &mut impl FnMut(Self::Option, Self::Pos));
    /// [`Game::options`]' options alone, in their order: a speed hint for a game whose
    /// options cost less to list than to play, since a strategy mostly takes one of them
    /// ([`Game::after`]). The default lists [`Game::options`].
    fn moves(&self, pos: &Self::Pos, each: &mut impl FnMut(Self::Option)) {
        self.options(pos, &mut |m, _| each(m));
    }
    /// Where option `m` of decision point `pos` leads, as [`Game::options`] gives it. The
    /// default finds it there.
    fn after(&self, pos: &Self::Pos, m: Self::Option) -> Self::Pos {
        let mut after = None;
        self.options(pos, &mut |o, next| {
            if o == m {
                after = Some(next);
            }
        });
        after.expect("a legal option")
    }

    /// Whether some roll has a part the rules read only later, which a strategy's program may
    /// roll then ([`Game::outcomes_now`]): a speed hint. The default: no.
    const ROLLS_LATE: bool = false;
    /// At chance point `pos`, the roll with a part the rules read only later left unrolled (a
    /// placeholder in its stead): each position it leads to once, with its probability, in a
    /// fixed order; false, calling nothing, where no part of this roll can wait. Where the
    /// strategy ignores that part too ([`Policy::ignores_late`]), a strategy's program rolls it
    /// only at the first position that reads it ([`Game::reads_late`],
    /// [`Game::outcomes_late`]): the same figures from fewer positions. Asked only of a game
    /// that sets [`Game::ROLLS_LATE`].
    fn outcomes_now(&self, _pos: &Self::Pos, _each: &mut impl FnMut(Self::Pos, f64)) -> bool {
        false
    }
    /// Whether `pos`, reached with a part of a roll left for later ([`Game::outcomes_now`]),
    /// reads it: the part is rolled before play goes on from `pos`. An end reads nothing.
    fn reads_late(&self, _pos: &Self::Pos) -> bool {
        true
    }
    /// The part of a roll left for later, rolled at `pos` ([`Game::reads_late`]): each
    /// position it leads to, with its probability. Positions that a strategy's program stores
    /// under one form ([`Policy::view`]) must play alike once it is rolled too: its figures
    /// from each, in expectation over the part, the same.
    fn outcomes_late(&self, _pos: &Self::Pos, _each: &mut impl FnMut(Self::Pos, f64)) {
        unreachable!("a game that rolls nothing late")
    }
    /// Whether chance point `pos` counts as a roll of its own in a game's length: not where it
    /// only finishes a roll already counted ([`Game::outcomes_late`]). Such a point is never
    /// stored: it is rolled where it is met. The default: yes.
    fn counts_as_roll(&self, _pos: &Self::Pos) -> bool {
        true
    }

    /// A number that never rises along play: no outcome and no option leads to a position
    /// of a higher layer. Positions of one layer may lead to each other (a cycle); the
    /// engines settle a layer once every lower layer is settled.
    fn layer(&self, pos: &Self::Pos) -> u32;
    /// The lowest layer from which every layer plays alike, if there is one: for any position
    /// `p` of a layer at or above it and any such layer `l`, `relayer(p, l)` is a position of
    /// layer `l` with the same point, options and outcomes (and the same key but for the
    /// layer), each leading where `p`'s lead moved by as many layers. The solve then steps
    /// the game through one such layer only and copies what it finds to the others: stepping
    /// a game is most of a solve's cost. The default: none.
    fn alike_from(&self) -> Option<u32> {
        None
    }
    /// The lowest layer at which play is that of the layers from [`Game::alike_from`] up until
    /// it leaves them, at or below `alike_from`: for any position `p` of an alike layer and a
    /// layer `l` from here up, `relayer(p, l)` has `p`'s point, options and outcomes, each
    /// leading to the `relayer` of where `p`'s lead, moved by as many layers, and `relayer`
    /// back to `p`'s layer gives `p`. What play reaches below is a layer the game reads apart:
    /// `relayer` to it gives the position play lands on (settled anew, say). The engines then
    /// step none of these layers either: most of a compile where the alike layers are few.
    /// The default: `alike_from`.
    fn replayed_from(&self) -> Option<u32> {
        self.alike_from()
    }
    /// `pos` moved to layer `layer` ([`Game::alike_from`], [`Game::replayed_from`]); called
    /// only where a game has alike layers.
    fn relayer(&self, pos: &Self::Pos, _layer: u32) -> Self::Pos {
        *pos
    }
    /// Whether the engines keep a value for `pos`, a position reached from many places. One
    /// that is not stored is valued each time it is met: a chance point as the sum of what it
    /// leads to, a decision point a strategy is followed through as what its answer leads to
    /// (optimal play and the regret keep every decision point, one not stored as a value of
    /// its own each time it is met, never looked up, unless optimal play finds it a place,
    /// [`Game::index`]). Play from a position that is not stored
    /// must reach a stored one or an end without returning to it.
    fn stored(&self, _pos: &Self::Pos) -> bool {
        true
    }
    /// Whether stored position `pos` is reached from one place only in the form a strategy's
    /// program stores it in (`seen` of a position: as the strategy sees it, [`Policy::view`]),
    /// so that the program plays through it rather than store it: a game may know a position
    /// reached from one place, which a form that forgets more may merge with others. The
    /// default: no.
    fn reached_once(&self, _pos: &Self::Pos, _seen: impl Fn(&Self::Pos) -> Self::Pos) -> bool {
        false
    }
    /// A position that optimal play values the same as `pos`, the same for every position of
    /// one symmetry class (mirror images, relabellings). The default: none.
    fn canonical(&self, pos: &Self::Pos) -> Self::Pos {
        *pos
    }
    /// Where the class of stored position `pos` lies in a dense layout of the game's choosing,
    /// where the game can tell it without putting `pos` in canonical form (or of a decision
    /// point the game does not store, which optimal play then stores there rather than value
    /// each time it is met: a place may join many reached each from one place): every position of a
    /// class lies at one place, and two positions at one place play alike (relabellings of
    /// each other, say), so that optimal play values them and their options the same. A place
    /// may join positions whose canonical forms differ, where the game knows them alike in a
    /// way its canonical form cannot put. The solve then finds a position's id in a table per
    /// group instead of by the key of its canonical form, which is most of what stepping a
    /// game costs besides the game itself, and stores the first position met at a place as
    /// it is. The default: none (`None`, as for a position with no place).
    fn index(&self, _pos: &Self::Pos) -> Option<Index> {
        None
    }
    /// Where stored position `pos` itself lies in a dense layout of the game's choosing: two
    /// positions at the same group and offset are equal. A strategy's program then finds a
    /// position's id in a table per group instead of by its key: positions met one after
    /// another, which differ in little, share a cache line where their keys would be hashed
    /// far apart, and no table of keys is kept. The default: none.
    fn place(&self, _pos: &Self::Pos) -> Option<Index> {
        None
    }
    /// The position as a compact value (an integer, say): two positions of one game and design
    /// have the same key only if they are equal.
    fn key(&self, pos: &Self::Pos) -> Self::Key;
    /// An upper bound on the stored positions optimal play visits, when the game can tell
    /// (the engines refuse a solve that would not fit the memory allowed before starting it).
    fn stored_bound(&self) -> Option<u64> {
        None
    }
}

/// The most stages a game may name ([`Game::phases`]).
pub const PHASES: usize = 16;

/// A place in a dense layout of a game's choosing ([`Game::index`], [`Game::place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Index {
    /// The group: any number.
    pub group: u128,
    /// The place in the group, below its width.
    pub offset: u32,
    /// The group's width, the same wherever the group is met.
    pub width: u32,
}

/// A strategy for game `G`: what a player answers at each decision point.
pub trait Policy<G: Game>: Sync + Send {
    /// A short name for outputs.
    fn name(&self) -> &str;
    /// How likely each option (in the order of [`Game::options`]) is chosen at `pos`:
    /// `weights` has one slot per option, all zero on entry; the weights written must sum to 1.
    /// A deterministic strategy writes one 1.
    fn weigh(&self, game: &G, pos: &G::Pos, options: &[G::Option], weights: &mut [f64]);
    /// The one option the strategy takes at `pos` where it takes one for sure, told without
    /// the game listing every option: the answer [`Policy::weigh`] gives weight 1, which the
    /// engines then play alone, and where it leads to a stored position, a strategy's program
    /// reads that position for the decision instead of storing the decision too. Most
    /// strategies answer so at most decisions, and a program meets millions of them. The
    /// default, none, has every option weighed.
    fn choose(&self, _game: &G, _pos: &G::Pos) -> Option<G::Option> {
        None
    }
    /// What the strategy tells apart of `pos`: a form (a position of the game, of `pos`'s
    /// layer) shared only by positions where the strategy's play ends alike, from which the
    /// game may not play on (options it reads that the strategy never takes, forgotten). The
    /// exact engine stores a strategy's positions by this form and plays on from the first
    /// position met with it, so it keys no more of them than the answers need. The default,
    /// `pos` itself, is always correct.
    fn view(&self, _game: &G, pos: &G::Pos) -> G::Pos {
        *pos
    }
    /// Where [`Policy::view`] of `pos` lies in the game's dense layout ([`Game::place`] of
    /// the view), where the strategy tells it without making the view: most positions a
    /// program meets were met before, and only a new one's view is needed. The default, none,
    /// makes the view.
    fn view_place(&self, _game: &G, _pos: &G::Pos) -> Option<Index> {
        None
    }
    /// [`Policy::view`] where optimal play's values are read at the positions too (the regret,
    /// the quality of play along a strategy's games): a position that optimal play also values
    /// as `pos`, option by option. The default, [`Policy::view`], is correct where the view
    /// forgets nothing that optimal play reads.
    fn valued_view(&self, game: &G, pos: &G::Pos) -> G::Pos {
        self.view(game, pos)
    }
    /// Whether the strategy's answers ignore the part of a roll left for later
    /// ([`Game::outcomes_now`]) at `pos`, a position such a roll leads to, and wherever play
    /// goes from there until the game reads that part: its program then rolls the part late.
    /// The default, no, is always correct.
    fn ignores_late(&self, _game: &G, _pos: &G::Pos) -> bool {
        false
    }
    /// The lowest layer from which the strategy answers alike at every layer: at two
    /// positions equal but for their layer, both at least this, it answers the same. Where the
    /// game's layers play alike too ([`Game::alike_from`]), the exact engine then steps the
    /// strategy's play through one layer only, as the solve does. The default, none (it may
    /// tell any layers apart), is always correct.
    fn alike_from(&self, _game: &G) -> Option<u32> {
        None
    }
}

/// Any option, each as likely as the next: the baseline every strategy should beat.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Policy<G> for Uniform {
    fn name(&self) -> &str {
        "random"
    }
    fn weigh(&self, _: &G, _: &G::Pos, options: &[G::Option], weights: &mut [f64]) {
        let w = 1.0 / options.len() as f64;
        weights.iter_mut().for_each(|x| *x = w);
    }
}

/// Every option of `pos` with the position it leads to, collected (a decision point).
pub fn options_of<G: Game>(game: &G, pos: &G::Pos) -> Vec<(G::Option, G::Pos)> {
    let mut all = Vec::new();
    game.options(pos, &mut |option, next| all.push((option, next)));
    all
}

/// Every position after the start of `games` random games of `game` (each option and each
/// outcome as likely as the next, drawn from `seed`), in the order play meets them: for tests
/// of what holds at every position play reaches.
#[cfg(test)]
pub(crate) fn random_play<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    mut each: impl FnMut(&G::Pos),
) {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = game.start();
    // The start's outcomes listed once: an opening roll may have hundreds of thousands.
    let opening = matches!(game.point(&start), Point::Chance).then(|| outcomes_of(game, &start));
    for _ in 0..games {
        let mut pos = start;
        loop {
            pos = match game.point(&pos) {
                Point::Over(_) => break,
                Point::Chance => {
                    let listed;
                    let all = match &opening {
                        Some(opening) if pos == start => opening,
                        _ => {
                            listed = outcomes_of(game, &pos);
                            &listed
                        }
                    };
                    all[rng.random_range(0..all.len())].0
                }
                Point::Decision(_) => {
                    let all = options_of(game, &pos);
                    all[rng.random_range(0..all.len())].1
                }
            };
            each(&pos);
        }
    }
}

/// Every outcome of a chance point with its probability, collected.
pub fn outcomes_of<G: Game>(game: &G, pos: &G::Pos) -> Vec<(G::Pos, f64)> {
    let mut all = Vec::new();
    game.outcomes(pos, &mut |next, p| all.push((next, p)));
    all
}
