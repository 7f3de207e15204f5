//! A deadline for the backtracking executor's searches (not part of regress 0.10.5; see
//! PATCHED.md). A search reads the calling thread's deadline when it starts, counts its steps,
//! and reads the clock once every `STEPS_PER_CHECK` steps; past the deadline it fails at once,
//! at every later start position too, and the thread's flag records that it was cut.

pub(crate) use self::imp::Limit;
#[cfg(feature = "std")]
pub use self::imp::with_deadline;

#[cfg(feature = "std")]
mod imp {
    use core::cell::Cell;
    use web_time::Instant; // std's on native targets; performance.now() on the web

    std::thread_local! {
        /// The deadline of the searches started on this thread, if any.
        static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
        /// Whether a search under the current deadline was cut.
        static CUT: Cell<bool> = const { Cell::new(false) };
    }

    /// Steps between two reads of the clock: the cost of a step is then one decrement.
    const STEPS_PER_CHECK: usize = 1 << 16;

    /// One search's copy of its thread's deadline, and its step count.
    #[derive(Debug)]
    pub(crate) struct Limit {
        deadline: Option<Instant>,
        steps: usize,
        cut: bool,
    }

    impl Limit {
        #[inline]
        pub(crate) fn new() -> Self {
            Limit {
                deadline: DEADLINE.with(Cell::get),
                steps: STEPS_PER_CHECK,
                cut: false,
            }
        }

        /// Counts one step. \return whether the search must stop.
        #[inline(always)]
        pub(crate) fn step(&mut self) -> bool {
            self.steps -= 1;
            self.steps == 0 && self.check()
        }

        /// Counts `n` steps of work done in one instruction (a single-character loop's
        /// run): the next step reads the clock if they exhaust the count.
        #[inline(always)]
        pub(crate) fn charge(&mut self, n: usize) {
            self.steps = if n < self.steps { self.steps - n } else { 1 };
        }

        #[inline(always)]
        pub(crate) fn is_cut(&self) -> bool {
            self.cut
        }

        #[cold]
        #[inline(never)]
        fn check(&mut self) -> bool {
            if !self.cut {
                if let Some(deadline) = self.deadline {
                    if Instant::now() >= deadline {
                        self.cut = true;
                        CUT.with(|cut| cut.set(true));
                    }
                }
            }
            // Once cut, the next step stops too (the caller of a lookaround goes on).
            self.steps = if self.cut { 1 } else { STEPS_PER_CHECK };
            self.cut
        }
    }

    /// Runs `f` with `deadline` for every search that it starts on this thread. A search that
    /// is still running at the deadline fails (no match) within at most 65,536 steps of it.
    /// \return `f`'s value, and whether a search was cut by the deadline: a search that did
    /// not match was cut, not finished, when it is true. Nested calls keep the earlier
    /// deadline; a cut by the outer deadline is reported to both.
    pub fn with_deadline<T>(deadline: Instant, f: impl FnOnce() -> T) -> (T, bool) {
        /// Puts back the enclosing deadline and flag, even if `f` panics.
        struct Restore {
            deadline: Option<Instant>,
            cut: bool,
            inherited: bool,
        }
        impl Drop for Restore {
            fn drop(&mut self) {
                let cut = CUT.with(|cut| cut.get());
                DEADLINE.with(|d| d.set(self.deadline));
                CUT.with(|c| c.set(self.cut || (self.inherited && cut)));
            }
        }
        let outer = DEADLINE.with(Cell::get);
        let inherited = matches!(outer, Some(outer) if outer <= deadline);
        let restore = Restore {
            deadline: outer,
            cut: CUT.with(|cut| cut.replace(false)),
            inherited,
        };
        if !inherited {
            DEADLINE.with(|d| d.set(Some(deadline)));
        }
        let value = f();
        let cut = CUT.with(|cut| cut.get());
        drop(restore);
        (value, cut)
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    /// Without std there is no clock: a search is never cut.
    #[derive(Debug)]
    pub(crate) struct Limit;

    impl Limit {
        #[inline(always)]
        pub(crate) fn new() -> Self {
            Limit
        }
        #[inline(always)]
        pub(crate) fn step(&mut self) -> bool {
            false
        }
        #[inline(always)]
        pub(crate) fn charge(&mut self, _n: usize) {}
        #[inline(always)]
        pub(crate) fn is_cut(&self) -> bool {
            false
        }
    }
}
