//! Parallelism, or its absence: rayon's interface behind the `parallel` feature, and the same
//! names on the calling thread without it (the browser build).
//!
//! The engines use only what both sides provide, so a result never depends on the feature:
//! every parallel sum is of integers or is summed afterwards in an order fixed by the work.

#[cfg(feature = "parallel")]
pub use rayon::{current_num_threads, join, prelude::*, scope_fifo};

#[cfg(not(feature = "parallel"))]
pub use serial::*;

/// Runs `work` on a thread of the pool (without the feature, on the caller's). Work that
/// shares itself out many times over, level after level, hands each share to the other threads
/// directly from there; from outside the pool each share goes through the pool's queue and
/// wakes a thread.
pub fn on_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    scope_fifo(|_| work())
}

/// rayon's names, run in order on the calling thread.
#[cfg(not(feature = "parallel"))]
mod serial {
    use std::marker::PhantomData;

    /// One thread: the caller's.
    pub fn current_num_threads() -> usize {
        1
    }

    /// `a`, then `b`.
    pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA,
        B: FnOnce() -> RB,
    {
        let ra = a();
        (ra, b())
    }

    /// A scope whose tasks run as they are spawned, which is first in, first out.
    pub struct Scope<'scope>(PhantomData<&'scope ()>);

    impl<'scope> Scope<'scope> {
        /// Runs `task` now.
        pub fn spawn_fifo<F: FnOnce(&Scope<'scope>) + 'scope>(&self, task: F) {
            task(self)
        }
    }

    /// Runs `body` with a [`Scope`].
    pub fn scope_fifo<'scope, F, R>(body: F) -> R
    where
        F: FnOnce(&Scope<'scope>) -> R,
    {
        body(&Scope(PhantomData))
    }

    /// `into_par_iter`: the sequential iterator.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }
    impl<I: IntoIterator> IntoParallelIterator for I {}

    /// `par_iter`, `par_iter_mut`, `par_chunks`, `par_chunks_mut` on slices.
    pub trait ParallelSlice<T> {
        fn par_iter(&self) -> std::slice::Iter<'_, T>;
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T>;
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
    }
    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> std::slice::Iter<'_, T> {
            self.iter()
        }
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
            self.iter_mut()
        }
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(size)
        }
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(size)
        }
    }

    /// rayon's iterator methods that std's iterators lack.
    pub trait ParallelIterator: Iterator + Sized {
        /// No splitting to bound: the iterator itself.
        fn with_min_len(self, _min: usize) -> Self {
            self
        }

        /// The items folded from `identity()` with `op`, stopping at the first error.
        fn try_reduce<T, E>(
            mut self,
            identity: impl Fn() -> T,
            op: impl Fn(T, T) -> Result<T, E>,
        ) -> Result<T, E>
        where
            Self: Iterator<Item = Result<T, E>>,
        {
            self.try_fold(identity(), |acc, item| op(acc, item?))
        }

        /// Every item through `op`, with one state made by `init`.
        fn for_each_init<T>(self, init: impl Fn() -> T, op: impl Fn(&mut T, Self::Item)) {
            let mut state = init();
            self.for_each(|item| op(&mut state, item));
        }
    }
    impl<I: Iterator> ParallelIterator for I {}

    /// `par_extend` on vectors.
    pub trait ParallelExtend<T> {
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I);
    }
    impl<T> ParallelExtend<T> for Vec<T> {
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
            self.extend(items)
        }
    }
}
