//! Rolls left for later: a game whose rolls have a part the rules read only later
//! ([`Game::outcomes_now`]) played, under a strategy that ignores that part until then, with
//! the part rolled where it is first read. Positions that differ only in the part not yet read
//! are one position until then, so a strategy's program stores fewer: the same figures from
//! fewer positions.
//!
//! [`Late`] is that game as a game of its own, a position carrying whether a part waits, and
//! [`LatePolicy`] the strategy playing it, so that the compiler and the replays need nothing
//! new.

use crate::games::{Game, Index, Point, Policy};

/// `game` with the parts of rolls that `policy` ignores rolled late: a position is the game's,
/// and whether a part of a roll waits.
pub(super) struct Late<'a, G: Game> {
    pub(super) game: &'a G,
    pub(super) policy: &'a dyn Policy<G>,
}

impl<G: Game> Late<'_, G> {
    /// Whether `pos` rolls the part left for later before play goes on.
    #[inline]
    fn rolls_rest(&self, (pos, late): &(G::Pos, bool)) -> bool {
        *late && self.game.reads_late(pos)
    }
}

impl<G: Game> Game for Late<'_, G> {
    type Pos = (G::Pos, bool);
    type Option = G::Option;
    type Key = (G::Key, bool);

    fn name(&self) -> &'static str {
        self.game.name()
    }
    fn kinds(&self) -> &'static [&'static str] {
        self.game.kinds()
    }
    fn causes(&self) -> &'static [&'static str] {
        self.game.causes()
    }
    fn phases(&self) -> Vec<String> {
        self.game.phases()
    }
    fn phase(&self, (pos, _): &Self::Pos) -> u8 {
        self.game.phase(pos)
    }
    fn start(&self) -> Self::Pos {
        (self.game.start(), false)
    }

    #[inline]
    fn point(&self, pos: &Self::Pos) -> Point {
        if self.rolls_rest(pos) {
            Point::Chance
        } else {
            self.game.point(&pos.0)
        }
    }

    #[inline]
    fn outcomes(&self, pos: &Self::Pos, each: &mut impl FnMut(Self::Pos, f64)) {
        let game = self.game;
        let &(at, late) = pos;
        if self.rolls_rest(pos) {
            return game.outcomes_late(&at, &mut |next, p| each((next, false), p));
        }
        if !late {
            // Only where the strategy ignores the part at every position the roll leads to:
            // the roll asked for twice, which costs less than keeping it.
            let mut ignored = true;
            let policy = self.policy;
            if game.outcomes_now(&at, &mut |next, _| {
                ignored = ignored && policy.ignores_late(game, &next);
            }) && ignored
            {
                game.outcomes_now(&at, &mut |next, p| each((next, true), p));
                return;
            }
        }
        game.outcomes(&at, &mut |next, p| each((next, late), p));
    }

    #[inline]
    fn options(&self, &(pos, late): &Self::Pos, each: &mut impl FnMut(Self::Option, Self::Pos)) {
        self.game
            .options(&pos, &mut |m, next| each(m, (next, late)));
    }

    #[inline]
    fn moves(&self, (pos, _): &Self::Pos, each: &mut impl FnMut(Self::Option)) {
        self.game.moves(pos, each);
    }

    #[inline]
    fn after(&self, &(pos, late): &Self::Pos, m: Self::Option) -> Self::Pos {
        (self.game.after(&pos, m), late)
    }

    #[inline]
    fn counts_as_roll(&self, pos: &Self::Pos) -> bool {
        !self.rolls_rest(pos)
    }

    #[inline]
    fn layer(&self, (pos, _): &Self::Pos) -> u32 {
        self.game.layer(pos)
    }
    fn alike_from(&self) -> Option<u32> {
        self.game.alike_from()
    }
    fn replayed_from(&self) -> Option<u32> {
        self.game.replayed_from()
    }
    fn relayer(&self, &(pos, late): &Self::Pos, layer: u32) -> Self::Pos {
        (self.game.relayer(&pos, layer), late)
    }

    /// Where the part left for later is rolled, play goes through: the position is met from
    /// the one before it only.
    #[inline]
    fn stored(&self, pos: &Self::Pos) -> bool {
        !self.rolls_rest(pos) && self.game.stored(&pos.0)
    }

    #[inline]
    fn reached_once(
        &self,
        &(pos, late): &Self::Pos,
        seen: impl Fn(&Self::Pos) -> Self::Pos,
    ) -> bool {
        self.game.reached_once(&pos, |p| seen(&(*p, late)).0)
    }

    fn canonical(&self, &(pos, late): &Self::Pos) -> Self::Pos {
        (self.game.canonical(&pos), late)
    }

    /// A position where a part waits has no place in the game's layout of classes, which
    /// knows only the game's own positions: it is found by its key.
    #[inline]
    fn index(&self, &(pos, late): &Self::Pos) -> Option<Index> {
        if late { None } else { self.game.index(&pos) }
    }
    /// The game's place, told apart by whether a part waits ([`waits_apart`]).
    #[inline]
    fn place(&self, &(pos, late): &Self::Pos) -> Option<Index> {
        waits_apart(self.game.place(&pos)?, late)
    }

    #[inline]
    fn key(&self, &(pos, late): &Self::Pos) -> Self::Key {
        (self.game.key(&pos), late)
    }
    fn stored_bound(&self) -> Option<u64> {
        self.game.stored_bound()
    }
}

/// A place of the game's layout ([`Game::place`]) told apart by whether a part of a roll
/// waits: the group one bit up, the bit below it saying so. Without the place, the positions
/// where a part waits would be found by their key in a table that grows as large as they are
/// many. A group that has no bit to spare has no place: the position is found by its key.
#[inline]
fn waits_apart(place: Index, waits: bool) -> Option<Index> {
    (place.group >> 127 == 0).then(|| Index {
        group: place.group << 1 | u128::from(waits),
        ..place
    })
}

/// A strategy for `G` playing [`Late`]: the same answers, and what it tells apart of a position
/// where a part waits tells that apart too.
pub(super) struct LatePolicy<'a, G: Game>(pub(super) &'a dyn Policy<G>);

impl<'a, G: Game> Policy<Late<'a, G>> for LatePolicy<'a, G> {
    fn name(&self) -> &str {
        self.0.name()
    }
    #[inline]
    fn weigh(
        &self,
        late: &Late<'a, G>,
        pos: &(G::Pos, bool),
        options: &[G::Option],
        w: &mut [f64],
    ) {
        self.0.weigh(late.game, &pos.0, options, w);
    }
    #[inline]
    fn choose(&self, late: &Late<'a, G>, pos: &(G::Pos, bool)) -> Option<G::Option> {
        self.0.choose(late.game, &pos.0)
    }
    #[inline]
    fn view(&self, late: &Late<'a, G>, &(pos, waits): &(G::Pos, bool)) -> (G::Pos, bool) {
        (self.0.view(late.game, &pos), waits)
    }
    /// The view's place, told apart by whether a part waits, as [`Late::place`] tells it.
    #[inline]
    fn view_place(&self, late: &Late<'a, G>, &(pos, waits): &(G::Pos, bool)) -> Option<Index> {
        waits_apart(self.0.view_place(late.game, &pos)?, waits)
    }
    #[inline]
    fn valued_view(&self, late: &Late<'a, G>, &(pos, waits): &(G::Pos, bool)) -> (G::Pos, bool) {
        (self.0.valued_view(late.game, &pos), waits)
    }
    fn alike_from(&self, late: &Late<'a, G>) -> Option<u32> {
        self.0.alike_from(late.game)
    }
}
