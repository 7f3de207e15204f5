//! What the domain analysis asks of a name alone (its public suffix, its registrable domain, the
//! look-alike questions and whether it is plainly public), remembered per thread for the names
//! met last.
//!
//! These answers depend on the name and the list of well-known domains and on nothing else in
//! the URL, and they are most of what a host analysis costs. URLs in a batch come in runs of
//! one site, and a log names the same sites again and again: `kasztp.txt` (22,149 names on
//! 48,008 URLs) finds 48% of its names here, and a log of it ten times over 86%. A thread keeps
//! the answers in a table indexed by the name's hash, two names to a set (the one used last
//! first; a new name takes the place of the one used longest ago). The table starts with 64
//! sets and doubles, up to 32,768 sets (65,536 names at 40 bytes, 2.5 MiB, and the names' own
//! bytes, at most 253 each), each time it has found a quarter as many names as it has places
//! since it last grew (it starts empty again then): a single parse allocates a few kilobytes, a batch gets the
//! table its names need, and a hostile batch of unique names gets a table of fixed size and
//! costs one hash and two comparisons a line more. The table is emptied when the list of
//! well-known domains changes ([`crate::inspect::known::add_known_domains`]).
//!
//! Once more than one thread keeps a table (a batch on several cores), a name a thread has not
//! kept is looked up in a table the threads share before it is found again: in 64 shards under
//! locks taken only then, of at most 2,048 names each (a full shard is emptied), answers found
//! with another list never given. Over kasztp.txt x10 on two threads, `check` then costs about
//! 4,760 instructions a line against about 5,250 with each thread finding every name itself,
//! and fewer than on one thread (5,093), whose table's sets of two lose names that the shared
//! table keeps.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::inspect::finding::FindingId as F;
use crate::inspect::known::{FxHasher, Known};

/// A look-alike finding of a name: its kind, the well-known domain imitated and the sentence.
/// Where in the input it lies is the URL's, added when it is recorded.
pub(super) type Hit = (F, &'static str, String);

/// The answers about one name: where in it its public suffix and registrable domain are, its
/// look-alike findings (most names have none, and a copy of none costs nothing), and whether it
/// is plainly public ([`crate::inspect::internal::plainly_public`]: no internal destination to
/// look for).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct NameAnswers {
    pub public_suffix: Option<Range<usize>>,
    pub registrable_domain: Option<Range<usize>>,
    pub hits: Vec<Hit>,
    pub plainly_public: bool,
}

/// Names in a set of the table.
const WAYS: usize = 2;

/// Sets in a thread's table at first, and at most (powers of two).
const FIRST_SETS: usize = 64;
const MOST_SETS: usize = 32_768;

/// Names longer than a DNS name can be are not kept: a hostile name of megabytes is analysed
/// once and forgotten. The bound also lets a kept name's ranges be bytes.
const LONGEST: usize = 253;

/// A place in the table: a name (its buffer reused by the next name to take the place) and its
/// answers, in 40 bytes: the ranges as bytes, the findings (nearly always none) behind a thin
/// pointer.
#[derive(Default)]
struct Slot {
    name: String,
    kept: bool,
    plainly_public: bool,
    public_suffix: Option<[u8; 2]>,
    registrable_domain: Option<[u8; 2]>,
    // A thin pointer (a boxed slice's is two words): the place stays 40 bytes.
    #[allow(clippy::box_collection)]
    hits: Option<Box<Vec<Hit>>>,
}

impl Slot {
    fn keep(&mut self, name: &str, answers: &NameAnswers) {
        // Ranges of a name of at most `LONGEST` bytes.
        let bytes = |range: &Option<Range<usize>>| {
            range.as_ref().map(|r| [r.start, r.end].map(|i| i as u8))
        };
        self.name.clear();
        self.name.push_str(name);
        self.kept = true;
        self.plainly_public = answers.plainly_public;
        self.public_suffix = bytes(&answers.public_suffix);
        self.registrable_domain = bytes(&answers.registrable_domain);
        self.hits = (!answers.hits.is_empty()).then(|| Box::new(answers.hits.clone()));
    }

    fn answers(&self) -> NameAnswers {
        let range = |bytes: Option<[u8; 2]>| bytes.map(|[start, end]| start.into()..end.into());
        NameAnswers {
            public_suffix: range(self.public_suffix),
            registrable_domain: range(self.registrable_domain),
            hits: self.hits.as_deref().cloned().unwrap_or_default(),
            plainly_public: self.plainly_public,
        }
    }
}

struct Memo {
    /// The list the answers were found with (its address: a list is never freed).
    known: usize,
    /// `WAYS` places a set, the set's name used last first.
    slots: Vec<Slot>,
    /// Names found rather than remembered since the table last grew.
    found: usize,
    /// Whether the thread shares the names it finds and asks for those others found (a test
    /// of the table itself turns it off).
    shares: bool,
}

impl Memo {
    /// Empties the table, with `sets` sets.
    fn reset(&mut self, sets: usize) {
        self.slots.clear();
        self.slots.resize_with(sets * WAYS, Slot::default);
        self.found = 0;
    }

    /// The first place of the set of a name of hash `hash`.
    fn set(&self, hash: u64) -> usize {
        (hash as usize & (self.slots.len() / WAYS - 1)) * WAYS
    }
}

thread_local! {
    static MEMO: RefCell<Memo> = const {
        RefCell::new(Memo {
            known: 0,
            slots: Vec::new(),
            found: 0,
            shares: true,
        })
    };
}

/// The answers about `domain` found with `known`: `find`'s, or the ones it gave for the same
/// name and list before.
pub(super) fn answers(
    domain: &str,
    known: &'static Known,
    find: impl FnOnce() -> NameAnswers,
) -> NameAnswers {
    if domain.len() > LONGEST {
        return find();
    }
    let hash = hash(domain.as_bytes());
    let list = std::ptr::from_ref(known) as usize;
    let (remembered, shares) = MEMO.with_borrow_mut(|memo| {
        if memo.slots.is_empty() {
            THREADS.fetch_add(1, Ordering::Relaxed);
        }
        if memo.known != list || memo.slots.is_empty() {
            memo.known = list;
            memo.reset(FIRST_SETS);
        }
        let shares = memo.shares;
        let set = memo.set(hash);
        let ways = &mut memo.slots[set..set + WAYS];
        let way = ways
            .iter()
            .position(|slot| slot.kept && slot.name == domain);
        // The name used last goes first.
        let kept = way.map(|way| {
            ways[..=way].rotate_right(1);
            ways[0].answers()
        });
        (kept, shares)
    });
    if let Some(answers) = remembered {
        return answers;
    }
    // Found outside the borrow, so that nothing `find` calls can meet the table borrowed; in
    // the shared table first, when other threads keep tables too.
    let shared = shares && THREADS.load(Ordering::Relaxed) > 1;
    let answers = match shared.then(|| SHARED.get(domain, hash, list)).flatten() {
        Some(answers) => answers,
        None => {
            let answers = find();
            if shared {
                SHARED.put(domain, hash, list, &answers);
            }
            answers
        }
    };
    MEMO.with_borrow_mut(|memo| {
        if memo.known != list {
            return;
        }
        // A table that has found a quarter as many names as it has places since it grew is
        // too small for the names met: it doubles (and starts empty).
        memo.found += 1;
        let sets = memo.slots.len() / WAYS;
        if memo.found > memo.slots.len() / 4 && sets < MOST_SETS {
            memo.reset(sets * 2);
        }
        // The name used longest ago gives its place (and its buffer) to this one.
        let set = memo.set(hash);
        let ways = &mut memo.slots[set..set + WAYS];
        ways.rotate_right(1);
        ways[0].keep(domain, &answers);
    });
    answers
}

/// Threads that have made a table. With more than one (a batch on several cores), the names
/// one thread found are shared with the others: each would otherwise find every name of the
/// batch itself (over kasztp.txt x10 on two threads, 91,937 names found against 66,524 on one).
static THREADS: AtomicUsize = AtomicUsize::new(0);

/// The shared table, in shards that each thread locks only for a name it has not kept itself.
const SHARDS: usize = 64;

/// Names in a shard at most: a shard that is full is emptied, so the shared table keeps at
/// most 131,072 names (with their answers, and their bytes, at most 253 each).
const SHARD_NAMES: usize = 2048;

/// A shard: the list its answers were found with (as [`Memo::known`]), and the names' answers.
struct Shard {
    known: usize,
    names: HashMap<Box<str>, NameAnswers, BuildHasherDefault<FxHasher>>,
}

/// The answers the threads share, in shards that each thread locks only for a name it has not
/// kept itself.
struct Shared([Mutex<Shard>; SHARDS]);

static SHARED: Shared = Shared::new();

impl Shared {
    const fn new() -> Self {
        Shared(
            [const {
                Mutex::new(Shard {
                    known: 0,
                    names: HashMap::with_hasher(BuildHasherDefault::new()),
                })
            }; SHARDS],
        )
    }

    /// The shard of a name of hash `hash`: its high bits (the low ones pick a table's set).
    fn shard(&self, hash: u64) -> std::sync::MutexGuard<'_, Shard> {
        self.0[(hash >> 58) as usize % SHARDS]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The answers a thread found for `domain` with the list at `list`, if it shared them.
    fn get(&self, domain: &str, hash: u64, list: usize) -> Option<NameAnswers> {
        let shard = self.shard(hash);
        (shard.known == list)
            .then(|| shard.names.get(domain).cloned())
            .flatten()
    }

    /// Shares the answers found for `domain` with the list at `list`.
    fn put(&self, domain: &str, hash: u64, list: usize, answers: &NameAnswers) {
        let mut shard = self.shard(hash);
        if shard.known != list || shard.names.len() >= SHARD_NAMES {
            shard.known = list;
            shard.names.clear();
        }
        shard.names.insert(domain.into(), answers.clone());
    }
}

/// A hash of a name's bytes: the list's own FxHash ([`FxHasher`]), its high bits folded into
/// the low ones that pick the set (the multiply leaves the low bits the least mixed).
fn hash(bytes: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(bytes);
    let h = hasher.finish();
    h >> 32 ^ h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::known::known;
    use std::cell::Cell;

    /// A name met again is not asked again; another name, or a long one, is.
    #[test]
    fn a_name_is_asked_once_while_it_keeps_its_place() {
        let asked = Cell::new(0);
        let find = |end: usize| {
            asked.set(asked.get() + 1);
            NameAnswers {
                public_suffix: Some(10..end),
                ..NameAnswers::default()
            }
        };
        let known = known();
        let first = answers("memo-test.example", known, || find(17));
        let again = answers("memo-test.example", known, || find(99));
        assert_eq!(asked.get(), 1);
        assert_eq!(again, first);
        assert_eq!(again.public_suffix, Some(10..17));
        answers("memo-test-2.example", known, || find(19));
        assert_eq!(asked.get(), 2);
        let long = format!("{}.example", "a".repeat(LONGEST));
        answers(&long, known, || find(0));
        answers(&long, known, || find(0));
        assert_eq!(asked.get(), 4);
    }

    /// The hash spreads names that differ in one byte anywhere.
    #[test]
    fn names_one_byte_apart_take_different_sets_mostly() {
        let base = b"www.example-name.com".to_vec();
        let mut sets = std::collections::HashSet::new();
        for i in 0..base.len() {
            let mut name = base.clone();
            name[i] ^= 1;
            sets.insert(hash(&name) as usize & (MOST_SETS - 1));
        }
        assert!(sets.len() >= base.len() - 2, "{} sets", sets.len());
    }

    /// A full table's places: 64 KiB names at 40 bytes (and each name's own bytes).
    #[test]
    fn a_place_is_forty_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), 40);
    }

    /// Answers come back as they were kept: ranges, findings and none.
    #[test]
    fn a_place_gives_back_the_answers_kept() {
        let answers = NameAnswers {
            public_suffix: Some(7..10),
            registrable_domain: Some(0..10),
            hits: vec![(F::TypoLookalike, "example.com", "one letter off".to_owned())],
            plainly_public: true,
        };
        let mut slot = Slot::default();
        slot.keep("exampel.com", &answers);
        assert_eq!(slot.answers(), answers);
        slot.keep("com", &NameAnswers::default());
        assert_eq!(
            (slot.name.as_str(), slot.answers()),
            ("com", NameAnswers::default())
        );
    }

    /// Names of `count` whose hashes pick the same set of a table of `sets` sets.
    fn names_of_one_set(sets: usize, count: usize) -> Vec<String> {
        let mut names = Vec::new();
        let mut want = None;
        for i in 0.. {
            let name = format!("set-{i}.example");
            let set = hash(name.as_bytes()) as usize & (sets - 1);
            if *want.get_or_insert(set) == set {
                names.push(name);
            }
            if names.len() == count {
                return names;
            }
        }
        unreachable!()
    }

    fn places() -> usize {
        MEMO.with_borrow(|memo| memo.slots.len())
    }

    /// Runs `test` on a thread of its own (a fresh table, of its first size), with a function
    /// that asks for a name's answers and says how many names have been found so far.
    fn on_a_fresh_table(test: impl FnOnce(&dyn Fn(&str) -> usize) + Send + 'static) {
        std::thread::spawn(|| {
            // The table alone: no name comes from another thread's finding.
            MEMO.with_borrow_mut(|memo| memo.shares = false);
            let known = known();
            let found = Cell::new(0);
            let ask = |name: &str| {
                answers(name, known, || {
                    found.set(found.get() + 1);
                    NameAnswers::default()
                });
                found.get()
            };
            test(&ask);
        })
        .join()
        .expect("the test's thread");
    }

    /// Two names of one set are both kept; a third takes the place of the one used longest ago.
    #[test]
    fn a_set_keeps_the_two_names_used_last() {
        on_a_fresh_table(|ask| {
            let [a, b, c] =
                <[String; 3]>::try_from(names_of_one_set(FIRST_SETS, 3)).expect("three");
            assert_eq!((ask(&a), ask(&b), ask(&a), ask(&b)), (1, 2, 2, 2));
            assert_eq!(places(), FIRST_SETS * WAYS);
            // `a` was used before `b`: `c` takes its place.
            assert_eq!(ask(&a), 2);
            assert_eq!((ask(&c), ask(&a), ask(&b)), (3, 3, 4));
        });
    }

    /// The table grows with the names a thread finds, up to its bound, and a name met again
    /// within its capacity is remembered after it grew.
    #[test]
    fn the_table_grows_to_its_bound_with_the_names_found() {
        on_a_fresh_table(|ask| {
            ask("first.example");
            assert_eq!(places(), FIRST_SETS * WAYS);
            let unique = 4 * MOST_SETS * WAYS;
            for i in 0..unique {
                ask(&format!("grow-{i}.example"));
            }
            assert_eq!(places(), MOST_SETS * WAYS);
            // The last thousand names are all but a few still there.
            let before = ask("first.example");
            let mut after = before;
            for i in unique - 1_000..unique {
                after = ask(&format!("grow-{i}.example"));
            }
            assert!(after - before < 50, "{} found again", after - before);
        });
    }

    /// With tables on several threads, a name one thread found is answered to another from
    /// the shared table, with the answers found. (Other tests share names at the same time
    /// and can empty the name's shard between the two threads: a fresh name is tried again.)
    #[test]
    fn a_name_found_on_one_thread_is_not_found_again_on_another() {
        let known = known();
        let on_a_thread = |name: String, end: usize| {
            std::thread::spawn(move || {
                let found = Cell::new(0);
                let answers = answers(&name, known, || {
                    found.set(found.get() + 1);
                    NameAnswers {
                        public_suffix: Some(7..end),
                        ..NameAnswers::default()
                    }
                });
                (answers, found.get())
            })
            .join()
            .expect("the test's thread")
        };
        // Two tables made at least: sharing is on from here.
        on_a_thread("shared-warm-up-1.example".into(), 8);
        on_a_thread("shared-warm-up-2.example".into(), 8);
        let shared_once = (0..5).any(|attempt| {
            let name = format!("shared-test-{attempt}.example");
            let (first, found) = on_a_thread(name.clone(), 11);
            assert_eq!((first.public_suffix.clone(), found), (Some(7..11), 1));
            let (again, found) = on_a_thread(name, 99);
            found == 0 && again == first
        });
        assert!(shared_once, "another thread found the name again");
    }

    /// A shard beyond its bound is emptied rather than grown, and answers found with one list
    /// of well-known domains are not given for another.
    #[test]
    fn the_shared_table_keeps_its_bound_and_its_list() {
        let shared = Shared::new();
        let (list, other_list) = (1, 2);
        let answers = NameAnswers {
            plainly_public: true,
            ..NameAnswers::default()
        };
        for i in 0..SHARDS * SHARD_NAMES * 2 {
            let name = format!("bound-{i}.example");
            shared.put(&name, hash(name.as_bytes()), list, &answers);
        }
        let kept: usize = shared
            .0
            .iter()
            .map(|shard| shard.lock().expect("unpoisoned").names.len())
            .sum();
        assert!(
            (1..=SHARDS * SHARD_NAMES).contains(&kept),
            "{kept} names kept"
        );
        let name = "bound-x.example";
        let h = hash(name.as_bytes());
        shared.put(name, h, list, &answers);
        assert_eq!(shared.get(name, h, list), Some(answers.clone()));
        assert_eq!(shared.get(name, h, other_list), None);
        shared.put(name, h, other_list, &NameAnswers::default());
        assert_eq!(shared.get(name, h, list), None);
        assert_eq!(
            shared.get(name, h, other_list),
            Some(NameAnswers::default())
        );
    }
}
