//! Stepping a program's rows: what each branch of a stored position leads to, before the
//! positions it reads have ids. Stepping plays the game (its points, options and outcomes, a
//! strategy's answers, the forms positions are stored in), which is most of what a compile
//! costs and reads nothing the compile writes, so rows are stepped on every thread; the
//! compiler then finds the ids on one, in the order of the rows and their terms
//! ([`super::program`]), so that the ids never depend on the threads.

use crate::games::{End, Game, Index, Point, Policy};
use crate::par::*;

/// What a compiled program does at decision points.
pub enum Rule<'a, G: Game> {
    /// Keep every option apart (the solve takes the best): positions are stored in the game's
    /// canonical form, since optimal play values a whole symmetry class alike.
    Best,
    /// Follow this strategy: a decision becomes one sum, its options weighted by the
    /// strategy's answer. Positions are stored by what the strategy sees of them
    /// ([`Policy::view`]), play going on from the first met, not by their canonical form,
    /// since a strategy may tell mirror images apart. A decision point the game does not store
    /// is played through, as a chance point is.
    Follow(&'a dyn Policy<G>),
}

impl<G: Game> Clone for Rule<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Rule<'_, G> {}

/// Which points a program stores besides those the game stores ([`Game::stored`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Keep {
    /// Every decision point too: its options are valued apart (optimal play) or its answer
    /// is weighed against them (the regret).
    Decisions,
    /// Every point, so that a replay sees each roll and each decision apart.
    Every,
}

/// Where a term of a stepped branch leads, before its id is found.
#[derive(Clone, Copy)]
pub(super) enum Lead<P> {
    /// An end.
    End(End),
    /// Under optimal play, a position whose class lies at this place of the game's dense
    /// layout ([`Game::index`]): stored as it is where the place is new, never put in
    /// canonical form.
    Indexed(P, Index),
    /// A position by the form it is stored under (`form`, with its place in the game's dense
    /// layout where a strategy's program has one, [`Game::place`]), and the position play goes
    /// on from where that form is new (`pos`): a strategy's view may forget what the game still
    /// reads, such as options the strategy never takes.
    Stored {
        form: P,
        place: Option<Index>,
        pos: P,
    },
    /// A position by the place of the form a strategy's program stores it under, told without
    /// making the form ([`Policy::view_place`]): play goes on from `pos` where the place is
    /// new, and the form is made only where the place is not enough.
    Placed { place: Index, pos: P },
    /// A decision point the game does not store ([`Game::stored`]) in a program that keeps
    /// every decision point: valued where it is met, as the game asks, it is a row of its own
    /// each time, never looked up.
    Once(P),
    /// The same under optimal play, where the game gives it a place in its dense layout
    /// ([`Game::index`]): stored there as [`Lead::Indexed`] is, so that one row values the
    /// decisions a place joins. Its terms are kept apart, not summed into one per row read,
    /// so that a sum over them is the one over rows of their own, to the last bit.
    Joined(P, Index),
}

impl<P> Lead<P> {
    /// The place in the game's dense layout the term is found by, if any.
    #[inline]
    pub(super) fn place(&self) -> Option<Index> {
        match *self {
            Lead::Indexed(_, index)
            | Lead::Joined(_, index)
            | Lead::Placed { place: index, .. }
            | Lead::Stored {
                place: Some(index), ..
            } => Some(index),
            _ => None,
        }
    }
}

impl<P: PartialEq> Lead<P> {
    /// Whether two terms surely lead to the same id, and to the same id only if so: the same
    /// end, the same place in the game's dense layout, or the same form where there is no
    /// place (a form's key is its id's). A decision met as a row of its own each time, or
    /// whose terms are kept apart, never does.
    #[inline]
    fn same_target(&self, other: &Lead<P>) -> bool {
        match (self, other) {
            (Lead::End(a), Lead::End(b)) => a == b,
            (Lead::Once(_) | Lead::Joined(..), _) | (_, Lead::Once(_) | Lead::Joined(..)) => false,
            _ => match (self.place(), other.place()) {
                (Some(a), Some(b)) => a.group == b.group && a.offset == b.offset,
                (None, None) => matches!(
                    (self, other),
                    (Lead::Stored { form: a, .. }, Lead::Stored { form: b, .. }) if a == b
                ),
                _ => false,
            },
        }
    }
}

/// What a branch passes through without storing it, in expectation.
#[derive(Clone, Copy, Default)]
pub(super) struct Passed {
    pub(super) rolls: f64,
    pub(super) decisions: f64,
}

/// Rows stepped, one after another.
pub(super) struct Stepped<P> {
    /// Per row: its kind of decision (none at a chance point) and one past its last branch.
    pub(super) rows: Vec<(Option<u8>, u32)>,
    /// Per branch: one past its last term, and what it passed through.
    pub(super) branches: Vec<(u32, Passed)>,
    /// Per term: where it leads, and with what probability.
    pub(super) terms: Vec<(Lead<P>, f64)>,
}

impl<P> Default for Stepped<P> {
    fn default() -> Self {
        Stepped {
            rows: Vec::new(),
            branches: Vec::new(),
            terms: Vec::new(),
        }
    }
}

impl<P: PartialEq> Stepped<P> {
    /// Closes the branch whose terms were pushed since the last one closed.
    fn close(&mut self, passed: Passed) {
        self.branches.push((self.terms.len() as u32, passed));
    }

    /// Adds a term to the branch being stepped: to the branch's term that leads to the same
    /// target where one of its first [`MERGED`] terms does ([`Lead::same_target`]), so that
    /// the one thread giving ids meets each target of a branch about once. A target's weights
    /// are summed in the order they are met, as the compiler sums the terms that find one id,
    /// and either all of them here or (its first term past the first [`MERGED`]) none: the
    /// sums are the compiler's own to the last bit.
    #[inline]
    fn add(&mut self, lead: Lead<P>, w: f64) {
        let start = self.branches.last().map_or(0, |&(end, _)| end as usize);
        let branch = &mut self.terms[start..];
        match (branch.iter_mut().take(MERGED)).find(|(l, _)| l.same_target(&lead)) {
            Some((_, sum)) => *sum += w,
            None => self.terms.push((lead, w)),
        }
    }
}

/// A branch's first terms searched for one leading to the same target ([`Stepped::add`]).
const MERGED: usize = 16;

/// What stepping reads: the game, the rule at decision points, what is stored besides what the
/// game stores, and while a template is stepped its layer and the lowest layer the game plays
/// alike.
pub(super) struct Shape<'g, 'r, G: Game> {
    pub(super) game: &'g G,
    pub(super) rule: Rule<'r, G>,
    pub(super) keep: Option<Keep>,
    pub(super) below: Option<(u32, u32)>,
}

impl<G: Game> Clone for Shape<'_, '_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Shape<'_, '_, G> {}

impl<G: Game> Shape<'_, '_, G> {
    /// The form stored position `pos` is stored under.
    #[inline]
    pub(super) fn form(&self, pos: &G::Pos) -> G::Pos {
        let game = self.game;
        match self.rule {
            Rule::Follow(policy) if self.keep.is_none() => policy.view(game, pos),
            // Optimal play's values are read at the positions of a program that keeps more.
            Rule::Follow(policy) => policy.valued_view(game, pos),
            Rule::Best => game.canonical(pos),
        }
    }

    /// Where stored position `pos` leads as a term.
    #[inline]
    pub(super) fn lead(&self, pos: &G::Pos) -> Lead<G::Pos> {
        let game = self.game;
        match self.rule {
            Rule::Follow(policy) if self.keep.is_none() => match policy.view_place(game, pos) {
                Some(place) => Lead::Placed { place, pos: *pos },
                None => self.stored(pos),
            },
            Rule::Follow(_) => self.stored(pos),
            // One place per class: no canonical form is needed.
            Rule::Best => match game.index(pos) {
                Some(index) => Lead::Indexed(*pos, index),
                None => {
                    let form = game.canonical(pos);
                    Lead::Stored {
                        form,
                        place: None,
                        pos: form,
                    }
                }
            },
        }
    }

    /// `pos` as a term by its form ([`Shape::form`]) and that form's place.
    #[inline]
    fn stored(&self, pos: &G::Pos) -> Lead<G::Pos> {
        let form = self.form(pos);
        Lead::Stored {
            form,
            place: self.game.place(&form),
            pos: *pos,
        }
    }
}

/// How a point is met by a branch ([`Stepper::met_as`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Met {
    /// A stored position: one term.
    Stored,
    /// Played through: the terms of what it leads to.
    Through,
    /// While a template is stepped, a stored position below the layers it is copied to
    /// ([`Shape::below`]): one term, read as it is, never played through.
    Leaf,
    /// A decision point the game does not store in a program that keeps every decision
    /// point ([`Lead::Once`]).
    Once,
    /// The same under optimal play, where the game gives it a place ([`Lead::Joined`]).
    Joined(Index),
}

/// Pieces rows are stepped in at most ([`step`]), a thread stepping one piece at a time.
pub(super) const PIECES: usize = 16;

/// Terms a piece of [`step`] holds at most, but for those of the row that passes the mark:
/// rows whose terms run to hundreds each come in runs, and a batch of them would otherwise hold
/// them all at once.
const PIECE_TERMS: usize = 1 << 11;

/// Steps `rows` into the first of `stepped`'s pieces (at most [`PIECES`]), on every thread,
/// a piece stopping once it holds [`PIECE_TERMS`] terms. Returns how many pieces hold rows
/// stepped, and how many rows: the first of `rows`, up to the first piece that stopped and
/// its rows stepped (what pieces after it stepped is stepped again with the rows left).
pub(super) fn step<G: Game>(
    shape: Shape<'_, '_, G>,
    rows: &[G::Pos],
    stepped: &mut Vec<Stepped<G::Pos>>,
) -> (usize, usize) {
    let piece = rows.len().div_ceil(PIECES).max(1);
    let pieces = rows.len().div_ceil(piece);
    if stepped.len() < pieces {
        stepped.resize_with(pieces, Stepped::default);
    }
    (rows.par_chunks(piece))
        .zip(stepped[..pieces].par_iter_mut())
        .for_each_init(|| Stepper::new(shape), |s, (rows, out)| s.step(rows, out));
    let mut done = 0;
    for (i, rows) in rows.chunks(piece).enumerate() {
        let stepped = stepped[i].rows.len();
        done += stepped;
        if stepped < rows.len() {
            return (i + 1, done);
        }
    }
    (pieces, done)
}

/// How many stored positions [`Stepper::recent`] remembers.
const RECENT: usize = 4;

/// Searches of [`Stepper::recent`] after which it is judged: searched at every position for
/// the next window if one in [`PAYS`] found the position, else at one in [`PROBE`].
const WINDOW: u32 = 1 << 14;
const PAYS: u32 = 16;
const PROBE: u32 = 16;

/// Steps rows on one thread, with its scratch.
pub(super) struct Stepper<'g, 'r, G: Game> {
    shape: Shape<'g, 'r, G>,
    /// The layer of the row being stepped: play never rises above it.
    layer: u32,
    /// Scratch: the outcomes of the chance points being expanded, innermost last.
    pending: Vec<(G::Pos, f64)>,
    /// Scratch: the options of the decision points being followed that are taken, innermost
    /// last, each as where it leads with its weight (the strategy's, or 1 for optimal play's
    /// every option); the options of the innermost one as the strategy weighs them, and its
    /// weights.
    choices: Vec<(G::Pos, f64)>,
    moves: Vec<G::Option>,
    answer: Vec<f64>,
    /// In a strategy's program ([`Stepper::recent_lead`]), the stored positions met last and
    /// where they lead as terms, the oldest at
    /// `recent_next` once full: the same position is often met again at once (outcomes that
    /// do the same, one outcome after several options), and then it is not stepped again.
    /// A decision read as the position its one option leads to is remembered with that
    /// position's term, and as read so (`true`).
    recent: Vec<(G::Pos, Lead<G::Pos>, bool)>,
    recent_next: usize,
    /// Whether `recent` is searched at every position; where it seldom holds the position
    /// (a game whose positions rarely repeat at once), only at one in [`PROBE`], to see if
    /// that changes.
    search_recent: bool,
    /// Positions met, and in the current window searches of `recent` and how many found it.
    met: u32,
    searched: u32,
    found: u32,
}

impl<'g, 'r, G: Game> Stepper<'g, 'r, G> {
    pub(super) fn new(shape: Shape<'g, 'r, G>) -> Self {
        Stepper {
            shape,
            layer: 0,
            pending: Vec::new(),
            choices: Vec::new(),
            moves: Vec::new(),
            answer: Vec::new(),
            recent: Vec::with_capacity(RECENT),
            recent_next: 0,
            search_recent: true,
            met: 0,
            searched: 0,
            found: 0,
        }
    }

    /// Steps the first rows of `rows` into `out` (what it held before is dropped), until it
    /// holds [`PIECE_TERMS`] terms, each row's branches in the order the program keeps them: a
    /// chance point's one, a decision's one per option under optimal play, one for a strategy.
    pub(super) fn step(&mut self, rows: &[G::Pos], out: &mut Stepped<G::Pos>) {
        out.rows.clear();
        out.branches.clear();
        out.terms.clear();
        let game = self.shape.game;
        for pos in rows {
            if out.terms.len() >= PIECE_TERMS {
                return;
            }
            self.layer = game.layer(pos);
            let kind = match game.point(pos) {
                Point::Chance => {
                    // The point itself counts where it is stored (`evaluate`); what it passes
                    // through on the way counts here.
                    let mut passed = Passed::default();
                    self.expand_outcomes(pos, 1.0, &mut passed, out);
                    out.close(passed);
                    None
                }
                Point::Decision(kind) => {
                    match self.shape.rule {
                        Rule::Best => {
                            let from = self.choices.len();
                            let choices = &mut self.choices;
                            game.options(pos, &mut |_, p| choices.push((p, 1.0)));
                            for i in from..self.choices.len() {
                                let mut passed = Passed::default();
                                self.expand(self.choices[i].0, 1.0, &mut passed, out);
                                out.close(passed);
                            }
                            self.choices.truncate(from);
                        }
                        Rule::Follow(policy) => {
                            let mut passed = Passed::default();
                            self.follow(policy, pos, 1.0, &mut passed, out);
                            out.close(passed);
                        }
                    }
                    Some(kind)
                }
                Point::Over(_) => unreachable!("an end is never stored"),
            };
            out.rows.push((kind, out.branches.len() as u32));
        }
    }

    /// Adds `pos`, reached with probability `w`, to the branch: a stored position or an end as
    /// one term, a point that is not stored as the terms of what it leads to.
    fn expand(&mut self, pos: G::Pos, w: f64, passed: &mut Passed, out: &mut Stepped<G::Pos>) {
        if let Some((lead, forwarded)) = self.recent_lead(&pos) {
            if forwarded {
                passed.decisions += w;
            }
            out.add(lead, w);
            return;
        }
        let Shape { game, keep, .. } = self.shape;
        let point = game.point(&pos);
        if let Point::Over(end) = point {
            out.add(Lead::End(end), w);
            return;
        }
        // The rest of a roll already counted is rolled where it is met.
        if point == Point::Chance && !game.counts_as_roll(&pos) {
            return self.expand_outcomes(&pos, w, passed, out);
        }
        let met = self.met_as(&pos, point);
        match met {
            Met::Once => return out.terms.push((Lead::Once(pos), w)),
            Met::Joined(index) => return out.terms.push((Lead::Joined(pos, index), w)),
            _ => {}
        }
        if met == Met::Through {
            match point {
                Point::Decision(_) => {
                    let Rule::Follow(policy) = self.shape.rule else {
                        unreachable!("optimal play keeps every decision point")
                    };
                    passed.decisions += w;
                    return self.follow(policy, &pos, w, passed, out);
                }
                _ => {
                    passed.rolls += w;
                    return self.expand_outcomes(&pos, w, passed, out);
                }
            }
        }
        debug_assert!(game.layer(&pos) <= self.layer, "a layer rose: {pos:?}");
        // A decision of a strategy's program that the strategy answers with one option, where
        // that option leads to a position stored in turn, is read as that position: its value
        // is the position's own, and a row for it would be read from nowhere else.
        let forward = match (point, self.shape.rule) {
            (Point::Decision(_), Rule::Follow(policy)) if keep.is_none() && met == Met::Stored => {
                (policy.choose(game, &pos).map(|m| game.after(&pos, m)))
                    .filter(|next| self.met_at(next) == Some(Met::Stored))
            }
            _ => None,
        };
        let lead = match forward {
            Some(next) => {
                passed.decisions += w;
                self.shape.lead(&next)
            }
            None => self.shape.lead(&pos),
        };
        if self.keeps_recent() {
            if self.recent.len() < RECENT {
                self.recent.push((pos, lead, forward.is_some()));
            } else {
                self.recent[self.recent_next] = (pos, lead, forward.is_some());
            }
            self.recent_next = (self.recent_next + 1) % RECENT;
        }
        out.add(lead, w);
    }

    /// How `pos` is met ([`Stepper::met_as`]); `None` for an end, and for a chance point that
    /// rolls the rest of a roll already counted, which [`Stepper::expand`] rolls where met.
    #[inline]
    fn met_at(&self, pos: &G::Pos) -> Option<Met> {
        let game = self.shape.game;
        match game.point(pos) {
            Point::Over(_) => None,
            Point::Chance if !game.counts_as_roll(pos) => None,
            point => Some(self.met_as(pos, point)),
        }
    }

    /// How a point `pos` of kind `point` (a chance point that counts as a roll, or a decision)
    /// is met: stored, played through or a row of its own each time.
    #[inline]
    fn met_as(&self, pos: &G::Pos, point: Point) -> Met {
        let Shape {
            game, keep, below, ..
        } = self.shape;
        // While a template is stepped, what play reaches below the layers it is copied to is
        // read, not played through, where a copy might play it otherwise: below the layers the
        // game plays alike, and a decision below those the strategy answers alike too.
        let leaves = below.is_some_and(|(from, game_from)| {
            let layer = game.layer(pos);
            layer < from && (layer < game_from || matches!(point, Point::Decision(_)))
        });
        if matches!(point, Point::Decision(_))
            && keep == Some(Keep::Decisions)
            && !leaves
            && !game.stored(pos)
        {
            return match (self.shape.rule, game.index(pos)) {
                (Rule::Best, Some(index)) => Met::Joined(index),
                _ => Met::Once,
            };
        }
        let mut through = match (point, keep) {
            (Point::Chance, Some(Keep::Every)) | (Point::Decision(_), Some(_)) => false,
            _ => !leaves && !game.stored(pos),
        };
        // A strategy's program plays through a position reached from one place in the form
        // it would be stored in.
        if !through && !leaves && keep.is_none() {
            let Rule::Follow(policy) = self.shape.rule else {
                unreachable!("optimal play keeps every decision point")
            };
            through = game.reached_once(pos, |p| policy.view(game, p));
        }
        match (through, leaves) {
            (true, _) => Met::Through,
            (false, true) => Met::Leaf,
            (false, false) => Met::Stored,
        }
    }

    /// Adds what chance point `pos`, reached with probability `w`, leads to.
    fn expand_outcomes(
        &mut self,
        pos: &G::Pos,
        w: f64,
        passed: &mut Passed,
        out: &mut Stepped<G::Pos>,
    ) {
        let from = self.pending.len();
        let pending = &mut self.pending;
        self.shape
            .game
            .outcomes(pos, &mut |o, p| pending.push((o, p)));
        for i in from..self.pending.len() {
            let (o, p) = self.pending[i];
            self.expand(o, w * p, passed, out);
        }
        self.pending.truncate(from);
    }

    /// Adds what `policy`'s answer at decision point `pos`, reached with probability `w`,
    /// leads to.
    fn follow(
        &mut self,
        policy: &dyn Policy<G>,
        pos: &G::Pos,
        w: f64,
        passed: &mut Passed,
        out: &mut Stepped<G::Pos>,
    ) {
        let game = self.shape.game;
        if let Some(m) = policy.choose(game, pos) {
            return self.expand(game.after(pos, m), w, passed, out);
        }
        let from = self.moves.len();
        let moves = &mut self.moves;
        game.moves(pos, &mut |m| moves.push(m));
        self.answer.clear();
        self.answer.resize(self.moves.len() - from, 0.0);
        policy.weigh(game, pos, &self.moves[from..], &mut self.answer);
        // Only the options the strategy takes are played.
        let taken = self.choices.len();
        for (&m, &a) in self.moves[from..].iter().zip(&self.answer) {
            if a > 0.0 {
                self.choices.push((game.after(pos, m), a));
            }
        }
        self.moves.truncate(from);
        for i in taken..self.choices.len() {
            let (next, a) = self.choices[i];
            self.expand(next, w * a, passed, out);
        }
        self.choices.truncate(taken);
    }

    /// Whether [`Stepper::recent`] is kept: in a strategy's program only. Optimal play's lead
    /// is mostly a place in the game's dense layout, found about as fast as the recent
    /// positions are searched: the solve is faster without them.
    #[inline]
    fn keeps_recent(&self) -> bool {
        matches!(self.shape.rule, Rule::Follow(_))
    }

    /// Where `pos` leads if it is among the stored positions met last and `recent` is searched
    /// here ([`Stepper::search_recent`]), in a strategy's program.
    #[inline]
    fn recent_lead(&mut self, pos: &G::Pos) -> Option<(Lead<G::Pos>, bool)> {
        if !self.keeps_recent() {
            return None;
        }
        self.met = self.met.wrapping_add(1);
        if !self.search_recent && !self.met.is_multiple_of(PROBE) {
            return None;
        }
        let lead = (self.recent.iter())
            .find(|(p, ..)| p == pos)
            .map(|&(_, lead, forwarded)| (lead, forwarded));
        self.searched += 1;
        self.found += u32::from(lead.is_some());
        if self.searched == WINDOW {
            self.search_recent = self.found * PAYS >= WINDOW;
            (self.searched, self.found) = (0, 0);
        }
        lead
    }
}
