//! What the domain analysis asks of a name alone (its public suffix, its registrable domain and
//! the look-alike questions), remembered per thread for the last names met.
//!
//! These answers depend on the name and the list of well-known domains and on nothing else in
//! the URL, and they are most of what a host analysis costs. URLs in a batch come in runs of
//! one site: in `kasztp.txt` a name recurs within the last 1,024 names for 41% of the lines. A
//! thread keeps the answers for 1,024 names in a table indexed by the name's hash (a newer
//! name takes the slot of an older one), so the memory is fixed and a hostile batch of unique
//! names costs one hash and one comparison a line more. The table is emptied when the list of
//! well-known domains changes ([`crate::inspect::known::add_known_domains`]).

use std::cell::RefCell;
use std::hash::Hasher;
use std::ops::Range;

use crate::inspect::finding::FindingId as F;
use crate::inspect::known::{FxHasher, Known};

/// A look-alike finding of a name: its kind, the well-known domain imitated and the sentence.
/// Where in the input it lies is the URL's, added when it is recorded.
pub(super) type Hit = (F, &'static str, String);

/// The answers about one name: where in it its public suffix and registrable domain are, and
/// its look-alike findings (most names have none, and a copy of none costs nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct NameAnswers {
    pub public_suffix: Option<Range<usize>>,
    pub registrable_domain: Option<Range<usize>>,
    pub hits: Vec<Hit>,
}

/// Slots in a thread's table (a power of two).
const SLOTS: usize = 1024;

/// Names longer than a DNS name can be are not kept: a hostile name of megabytes is analysed
/// once and forgotten.
const LONGEST: usize = 253;

/// A slot: the name (its buffer reused by the next name to take the slot) and its answers.
type Slot = (String, Option<NameAnswers>);

struct Memo {
    /// The list the answers were found with (its address: a list is never freed).
    known: usize,
    slots: Vec<Slot>,
}

thread_local! {
    static MEMO: RefCell<Memo> = const {
        RefCell::new(Memo {
            known: 0,
            slots: Vec::new(),
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
    let slot = hash(domain.as_bytes()) as usize & (SLOTS - 1);
    let list = std::ptr::from_ref(known) as usize;
    let remembered = MEMO.with_borrow_mut(|memo| {
        if memo.known != list || memo.slots.is_empty() {
            memo.known = list;
            memo.slots.clear();
            memo.slots.resize_with(SLOTS, Slot::default);
        }
        match &memo.slots[slot] {
            (name, Some(answers)) if name == domain => Some(answers.clone()),
            _ => None,
        }
    });
    if let Some(answers) = remembered {
        return answers;
    }
    // Found outside the borrow, so that nothing `find` calls can meet the table borrowed.
    let answers = find();
    MEMO.with_borrow_mut(|memo| {
        if memo.known == list {
            let (name, kept) = &mut memo.slots[slot];
            name.clear();
            name.push_str(domain);
            *kept = Some(answers.clone());
        }
    });
    answers
}

/// A hash of a name's bytes: the list's own FxHash ([`FxHasher`]), its high bits folded into
/// the low ones that pick the slot (the multiply leaves the low bits the least mixed).
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
    fn a_name_is_asked_once_while_it_keeps_its_slot() {
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
    fn names_one_byte_apart_take_different_slots_mostly() {
        let base = b"www.example-name.com".to_vec();
        let mut slots = std::collections::HashSet::new();
        for i in 0..base.len() {
            let mut name = base.clone();
            name[i] ^= 1;
            slots.insert(hash(&name) as usize & (SLOTS - 1));
        }
        assert!(slots.len() >= base.len() - 2, "{} slots", slots.len());
    }
}
