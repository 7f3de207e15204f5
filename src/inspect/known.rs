//! The well-known domains of `assets/known-domains.txt`, with any a user adds (`--known-domains
//! FILE`, the configuration file), the brand each belongs to, and the keys the look-alike
//! questions are asked with: UTS 39 skeletons, skeletons with diacritics folded away,
//! distinctive names, and one-deletion variants for the edit-distance question. Built once per
//! list.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{OnceLock, RwLock};
use unicode_security::skeleton;

use super::lookalike::folded_skeleton;
use crate::url::host::{domain_parser, domain_to_unicode};

/// The UTS 39 skeleton of `s`, lowercased so that case never makes a difference.
pub fn skeleton_of(s: &str) -> String {
    if let Some(parts) = ascii_parts(s) {
        let mut skeleton = String::with_capacity(s.len() + 8);
        skeleton.extend(parts);
        return skeleton;
    }
    // A full stop is a starter that decomposes to nothing else, so neither NFD reorders across
    // it, and lowercasing goes code point by code point but for a final sigma, whose context
    // reaches across it. Without a capital sigma, then, the skeleton of a dotted name is its
    // labels' skeletons joined with the full stop's, and the ASCII labels take the table.
    let dot = ascii_skeletons()[usize::from(b'.')].as_deref();
    if s.contains('.') && !s.contains('Σ') && dot == Some(".") {
        let mut skeleton = String::with_capacity(s.len() * 2);
        for (i, label) in s.split('.').enumerate() {
            if i > 0 {
                skeleton.push('.');
            }
            match ascii_parts(label) {
                Some(parts) => skeleton.extend(parts),
                None => skeleton.push_str(&general_skeleton(label)),
            }
        }
        return skeleton;
    }
    general_skeleton(s)
}

/// The skeletons of the characters of `s` from the ASCII table, if it has them all.
fn ascii_parts(s: &str) -> Option<impl Iterator<Item = &'static str> + '_> {
    let table = ascii_skeletons();
    let entry = |b: u8| table.get(usize::from(b)).and_then(Option::as_deref);
    s.bytes()
        .all(|b| entry(b).is_some())
        .then(|| s.bytes().filter_map(entry))
}

/// The skeleton of `s` from the ASCII table, written into `buf`; `None` when `s` has a
/// character outside the table or the skeleton does not fit (each piece needs four bytes of
/// room where it starts: a string within a few bytes of the end takes the general path).
fn ascii_skeleton<'b>(s: &str, buf: &'b mut [u8]) -> Option<&'b mut [u8]> {
    let table = packed_ascii_skeletons();
    let mut len = 0;
    for b in s.bytes() {
        let entry = *table.get(usize::from(b))?;
        let n = (entry & 0xff) as usize;
        if n == 0 {
            return None;
        }
        // The piece's bytes are written as one word; past its length they are zeros that the
        // next piece overwrites.
        buf.get_mut(len..len + 4)?
            .copy_from_slice(&(entry >> 8).to_le_bytes());
        len += n;
    }
    Some(&mut buf[..len])
}

/// [`ascii_skeletons`] packed for [`ascii_skeleton`]'s byte loop: each character's skeleton
/// length (1 to 3; 0 for none in the table, or a longer one) in the low byte, the skeleton's
/// bytes above it. A host's characters are read here several times over (the skeleton of the
/// name, of its registrable domain, and the one-edit question), and following a pointer to
/// each piece and copying it byte by byte cost more than the rest of those questions.
fn packed_ascii_skeletons() -> &'static [u32; 128] {
    static TABLE: OnceLock<[u32; 128]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let skeletons = ascii_skeletons();
        std::array::from_fn(|b| match skeletons[b].as_deref() {
            Some(skeleton) if (1..=3).contains(&skeleton.len()) => {
                let mut word = [0; 4];
                word[0] = skeleton.len() as u8;
                word[1..=skeleton.len()].copy_from_slice(skeleton.as_bytes());
                u32::from_le_bytes(word)
            }
            _ => 0,
        })
    })
}

/// UTS 39 as `unicode_security` computes it: NFD, prototypes, NFD, with lowercasing around it.
fn general_skeleton(s: &str) -> String {
    skeleton(&s.to_lowercase())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The skeleton of each ASCII character whose skeleton is ASCII text; `None` for the others
/// (`%` has a non-ASCII prototype).
///
/// Most hosts are plain ASCII, and for them the general computation (two NFD passes, a lookup
/// per code point, three strings) cost more than the rest of the analysis together. ASCII is
/// its own NFD, and lowercasing and the prototype mapping go code point by code point; so for
/// a string of characters whose skeletons are ASCII (nothing the second NFD could decompose or
/// reorder across a boundary), the skeleton is the concatenation of theirs. The data decides
/// which characters qualify, not this code.
fn ascii_skeletons() -> &'static [Option<String>; 128] {
    static TABLE: OnceLock<[Option<String>; 128]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|b| {
            let c = char::from(u8::try_from(b).unwrap_or_default());
            let skeleton = general_skeleton(c.encode_utf8(&mut [0; 4]));
            skeleton.is_ascii().then_some(skeleton)
        })
    })
}

/// The skeleton with label separators and hyphens removed (`pay-pal.com` ~ `paypal.com`).
pub fn joined_skeleton(s: &str) -> String {
    let mut skeleton = skeleton_of(s);
    skeleton.retain(|c| !matches!(c, '.' | '-'));
    skeleton
}

/// Removes "." and "-" from the UTF-8 text in `bytes`, in place (they are single bytes that
/// no other character's encoding contains), and returns what is left.
fn join(bytes: &mut [u8]) -> &[u8] {
    let mut len = 0;
    for i in 0..bytes.len() {
        if !matches!(bytes[i], b'.' | b'-') {
            bytes[len] = bytes[i];
            len += 1;
        }
    }
    &bytes[..len]
}

/// The FxHash mix (as in rustc): the keys are a fixed list, so there is no flooding to
/// defend against, and SipHash was most of the cost of a lookup.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

// Bytes hashed on this thread, for the test that holds the lookups to linear work.
#[cfg(test)]
thread_local! {
    static HASHED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(crate) fn hashed_bytes() -> usize {
    HASHED.with(std::cell::Cell::get)
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        #[cfg(test)]
        HASHED.with(|h| h.set(h.get() + bytes.len()));
        let mut words = bytes.chunks_exact(8);
        for chunk in &mut words {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let mut last = [0; 8];
        let rest = words.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(last));
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Fx = BuildHasherDefault<FxHasher>;

/// A Bloom filter with one hash, on a key's length and first four bytes. Nearly every host is
/// not on the list and imitates nothing on it, and for most of them this says so without
/// hashing and probing; a key it lets through is still looked up, so it never changes an
/// answer.
#[derive(Debug)]
struct Sieve([u64; 64]);

impl Sieve {
    fn bit(key: &[u8]) -> (usize, u64) {
        // Most keys have four bytes: read as one word, not copied a byte at a time.
        let head = match key.first_chunk::<4>() {
            Some(head) => *head,
            None => {
                let mut head = [0; 4];
                for (h, &b) in head.iter_mut().zip(key) {
                    *h = b;
                }
                head
            }
        };
        Self::bit_of(head, key.len())
    }

    /// The bit of a key of `len` bytes that starts with `head` (zeros past its end): a key is
    /// sieved by its first four bytes and its length.
    fn bit_of(head: [u8; 4], len: usize) -> (usize, u64) {
        let x = u64::from(u32::from_le_bytes(head)) ^ ((len as u64) << 32);
        // The top 12 bits of a Fibonacci hash: one of 4096 bits.
        let bit = (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    fn insert(&mut self, key: &[u8]) {
        let (word, mask) = Self::bit(key);
        self.0[word] |= mask;
    }

    fn may_hold(&self, key: &[u8]) -> bool {
        let (word, mask) = Self::bit(key);
        self.0[word] & mask != 0
    }
}

/// The multiplier of [`poly`]: odd, so that it has an inverse modulo 2^64.
const POLY: u64 = 0x517c_c1b7_2722_0a95;

/// The inverse of [`POLY`] modulo 2^64 (Newton's iteration doubles the correct low bits each
/// step: six steps from the three an odd number is correct to).
const POLY_INVERSE: u64 = {
    let mut x = POLY;
    let mut step = 0;
    while step < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(POLY.wrapping_mul(x)));
        step += 1;
    }
    x
};

/// A polynomial hash of `key` (each byte plus one, a coefficient of a power of [`POLY`]):
/// unlike a general hash, the hash of the key with one byte deleted follows from the key's in
/// a few operations ([`deletion_hashes`]).
fn poly(key: &[u8]) -> u64 {
    key.iter().fold(0, |h, &b| {
        h.wrapping_mul(POLY).wrapping_add(u64::from(b) + 1)
    })
}

/// The [`poly`] hash of `key` without its byte at each position in turn. With `P(i)` the hash
/// of the first `i` bytes and `c` the byte at `i` (plus one), the key without it hashes to
/// `poly(key) + (P(i) * (1 - POLY) - c) * POLY^(len - 1 - i)`: the bytes before it shift down
/// by one power, and it no longer counts.
fn deletion_hashes(key: &[u8]) -> impl Iterator<Item = u64> + '_ {
    let whole = poly(key);
    let mut shift = (1..key.len()).fold(1u64, |p, _| p.wrapping_mul(POLY));
    let mut prefix = 0u64;
    key.iter().map(move |&b| {
        let c = u64::from(b) + 1;
        let hash = whole.wrapping_add(
            prefix
                .wrapping_mul(1u64.wrapping_sub(POLY))
                .wrapping_sub(c)
                .wrapping_mul(shift),
        );
        prefix = prefix.wrapping_mul(POLY).wrapping_add(c);
        shift = shift.wrapping_mul(POLY_INVERSE);
        hash
    })
}

/// A Bloom filter of one hash, on a key's [`poly`] hash and length: over the edit keys, which
/// a name's deletions are sieved against without being built. Bigger than [`Sieve`]: the edit
/// keys are a dozen for each distinctive domain.
#[derive(Debug)]
struct HashSieve(Box<[u64; 512]>);

impl HashSieve {
    fn new() -> Self {
        HashSieve(Box::new([0; 512]))
    }

    fn bit(hash: u64, len: usize) -> (usize, u64) {
        // The top 15 bits of a Fibonacci hash: one of 32,768 bits.
        let bit = ((hash ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 49) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    fn insert(&mut self, key: &[u8]) {
        let (word, mask) = Self::bit(poly(key), key.len());
        self.0[word] |= mask;
    }

    /// Whether a key of `len` bytes whose [`poly`] hash is `hash` may be in the set.
    fn may_hold(&self, hash: u64, len: usize) -> bool {
        let (word, mask) = Self::bit(hash, len);
        self.0[word] & mask != 0
    }
}

/// A listed domain filed under one of its edit keys, with its skeleton.
type Filed = (&'static str, &'static [char]);

/// Names shorter than this are not compared by edit distance or as words of a longer name: one
/// letter away from `x.com` or `bit.ly` is half the web.
pub const DISTINCTIVE_NAME: usize = 6;

#[derive(Debug)]
pub struct Known {
    /// ASCII forms, in list order.
    pub domains: Vec<&'static str>,
    set: HashSet<&'static str, Fx>,
    /// Over `set`.
    names: Sieve,
    /// The most labels any listed domain has: longer runs of labels need no lookup.
    pub max_labels: usize,
    /// The longest listed domain in bytes: a longer key is not hashed (a hostile host of
    /// megabytes has as many suffixes to test as it has labels).
    pub max_len: usize,
    /// Over the keys of `by_skeleton` and `by_joined`.
    sieve: Sieve,
    /// Keyed by bytes, so that a skeleton built on the stack can be looked up.
    by_skeleton: HashMap<Vec<u8>, &'static str, Fx>,
    by_joined: HashMap<Vec<u8>, &'static str, Fx>,
    /// Skeletons of the Unicode forms with diacritics folded away (see
    /// [`super::lookalike::folded_skeleton`]).
    by_folded: HashMap<String, &'static str, Fx>,
    /// The first label of each domain with a distinctive name (`paypal` of `paypal.com`).
    by_name: HashMap<&'static str, &'static str, Fx>,
    /// The skeleton of each distinctive domain, and the skeleton with one code point deleted,
    /// to the domain and its skeleton.
    by_deletion: HashMap<Vec<u8>, Vec<Filed>, Fx>,
    /// Over the keys of `by_deletion`.
    deletions: HashSieve,
    /// The brand of every listed registrable domain, watched or only owned.
    brands: HashMap<&'static str, &'static str, Fx>,
    /// Over the keys of `brands`: the owner of nearly every host is asked of each of its
    /// suffixes, and nearly none is listed.
    owned: Sieve,
    /// The longest key of `brands`.
    max_owned_len: usize,
}

/// One listed domain, as the index is built from it.
#[derive(Clone, Copy, Debug)]
struct Listed {
    ascii: &'static str,
    unicode: &'static str,
    brand: &'static str,
    /// Look-alikes of it are reported (not a domain the brand only owns).
    watched: bool,
    /// Its name is a distinctive brand token: compared by edit distance and as a word of a
    /// longer name (not an ordinary word such as `office` or `archive`).
    distinctive: bool,
}

impl Listed {
    fn leak(entry: Entry) -> Listed {
        let unicode = domain_to_unicode(&entry.domain);
        let name = unicode.split('.').next().unwrap_or("");
        let distinctive = !entry.word && name.chars().count() >= DISTINCTIVE_NAME;
        // Built once per list: leaked rather than reference-counted.
        Listed {
            ascii: Box::leak(entry.domain.into_boxed_str()),
            distinctive,
            unicode: Box::leak(unicode.into_boxed_str()),
            brand: Box::leak(entry.brand.into_boxed_str()),
            watched: !entry.owned,
        }
    }
}

impl Known {
    /// Indexes the listed domains: the watched ones for the look-alike questions, every one for
    /// its brand.
    fn build(listed: &[Listed]) -> Known {
        let mut brands: HashMap<_, _, Fx> = HashMap::default();
        for l in listed {
            brands.entry(l.ascii).or_insert(l.brand);
        }
        let max_owned_len = listed.iter().map(|l| l.ascii.len()).max().unwrap_or(0);
        let mut owned = Sieve([0; 64]);
        for domain in brands.keys() {
            owned.insert(domain.as_bytes());
        }
        let domains: Vec<(&'static str, &'static str, bool)> = listed
            .iter()
            .filter(|l| l.watched)
            .map(|l| (l.ascii, l.unicode, l.distinctive))
            .collect();
        let ascii: Vec<&'static str> = domains.iter().map(|&(a, _, _)| a).collect();
        let set: HashSet<_, Fx> = ascii.iter().copied().collect();
        let mut names = Sieve([0; 64]);
        for name in &set {
            names.insert(name.as_bytes());
        }
        let mut by_skeleton: HashMap<_, _, Fx> = HashMap::default();
        let mut by_joined: HashMap<_, _, Fx> = HashMap::default();
        let mut by_folded: HashMap<_, _, Fx> = HashMap::default();
        let mut by_name: HashMap<_, _, Fx> = HashMap::default();
        let mut by_deletion: HashMap<Vec<u8>, Vec<Filed>, Fx> = HashMap::default();
        for &(a, u, distinctive) in &domains {
            // The first domain listed wins a shared key.
            by_skeleton.entry(skeleton_of(u).into_bytes()).or_insert(a);
            by_joined
                .entry(joined_skeleton(u).into_bytes())
                .or_insert(a);
            by_folded.entry(folded_skeleton(u)).or_insert(a);
            let name = u.split('.').next().unwrap_or(u);
            if distinctive {
                by_name.entry(name).or_insert(a);
                // Built once per list: leaked rather than reference-counted.
                let skeleton: &'static [char] = Box::leak(
                    skeleton_of(u)
                        .chars()
                        .collect::<Vec<_>>()
                        .into_boxed_slice(),
                );
                let keys = std::iter::once(skeleton.iter().collect::<String>())
                    .chain((0..skeleton.len()).map(|i| deletion(skeleton, i)));
                for key in keys {
                    let entry = by_deletion.entry(key.into_bytes()).or_default();
                    if !entry.iter().any(|&(d, _)| d == a) {
                        entry.push((a, skeleton));
                    }
                }
            }
        }
        let mut sieve = Sieve([0; 64]);
        for key in by_skeleton.keys().chain(by_joined.keys()) {
            sieve.insert(key);
        }
        let mut deletions = HashSieve::new();
        for key in by_deletion.keys() {
            deletions.insert(key);
        }
        Known {
            max_labels: ascii
                .iter()
                .map(|d| d.split('.').count())
                .max()
                .unwrap_or(1),
            max_len: domains
                .iter()
                .map(|(a, u, _)| a.len().max(u.len()))
                .max()
                .unwrap_or(0),
            domains: ascii,
            set,
            names,
            sieve,
            by_skeleton,
            by_joined,
            by_folded,
            by_name,
            by_deletion,
            deletions,
            brands,
            owned,
            max_owned_len,
        }
    }

    /// The brand a listed domain (watched or only owned) belongs to.
    pub fn brand_of(&self, domain: &str) -> Option<&'static str> {
        self.brands.get(domain).copied()
    }

    /// The brand that owns `host`: the brand of the listed domain it is or is under, nearest
    /// first (`google-styleguide.googlecode.com` is Google's). The name is normalised first: a
    /// trailing dot is the same DNS name.
    pub fn owner_of(&self, host: &str) -> Option<&'static str> {
        let mut rest = host.strip_suffix('.').unwrap_or(host);
        loop {
            // A key longer than every listed domain, or one the sieve turns away, is not
            // hashed.
            if rest.len() <= self.max_owned_len && self.owned.may_hold(rest.as_bytes()) {
                if let Some(brand) = self.brand_of(rest) {
                    return Some(brand);
                }
            }
            match rest.bytes().position(|b| b == b'.') {
                Some(dot) => rest = &rest[dot + 1..],
                None => return None,
            }
        }
    }

    /// The well-known domain whose skeleton (or joined skeleton) `domain` shares.
    pub fn imitated(&self, domain: &str) -> Option<&'static str> {
        // Most hosts are short enough for the stack.
        let mut buf = [0; 128];
        match ascii_skeleton(domain, &mut buf) {
            Some(skeleton) => self.imitated_by(skeleton),
            None => self.imitated_by(&mut skeleton_of(domain).into_bytes()),
        }
    }

    fn imitated_by(&self, skeleton: &mut [u8]) -> Option<&'static str> {
        if self.sieve.may_hold(skeleton) {
            if let Some(&known) = self.by_skeleton.get(&*skeleton) {
                return Some(known);
            }
        }
        let joined = join(skeleton);
        if self.sieve.may_hold(joined) {
            return self.by_joined.get(joined).copied();
        }
        None
    }

    /// The well-known domain whose skeleton `domain` shares once diacritics are folded away
    /// on both sides (`googlé.com`, `gøøgle.com`).
    pub fn imitated_folded(&self, domain: &str) -> Option<&'static str> {
        if domain.len() > 4 * self.max_len {
            return None;
        }
        self.by_folded.get(&folded_skeleton(domain)).copied()
    }

    /// The well-known domain whose folded skeleton is `skeleton`.
    pub fn imitated_folded_skeleton(&self, skeleton: &str) -> Option<&'static str> {
        self.by_folded.get(skeleton).copied()
    }

    /// The well-known domain with a distinctive name whose first label is `name`.
    pub fn by_name(&self, name: &str) -> Option<&'static str> {
        if name.len() > self.max_len {
            return None;
        }
        self.by_name.get(name).copied()
    }

    /// A well-known domain one edit from `domain` by skeleton (a code point inserted,
    /// deleted or replaced, or two adjacent ones swapped), with which edit it is.
    pub fn one_edit_from(&self, domain: &str) -> Option<(&'static str, Edit)> {
        // A name longer than every listed one by more than an edit is no edit away; the bound
        // keeps a hostile host from costing its length squared.
        if domain.len() > self.max_len + 4 {
            return None;
        }
        // Two strings one edit apart share the one or the other, or one of their deletions
        // (the symmetric-deletion index): the candidates are few, and each is then checked.
        // Most names are ASCII with an ASCII skeleton: their keys are built on the stack, and
        // the sieve turns nearly all of them away before any hashing.
        let mut buf = [0; 128];
        if let Some(skeleton) = ascii_skeleton(domain, &mut buf) {
            let skeleton: &[u8] = skeleton;
            let ours = || skeleton.iter().map(|&b| char::from(b)).collect();
            // The sieve reads a key's hash, which each deletion's follows from the skeleton's:
            // nearly every deletion is turned away before it is built.
            let mut key = [0; 128];
            for (i, hash) in deletion_hashes(skeleton).enumerate() {
                if !self.deletions.may_hold(hash, skeleton.len() - 1) {
                    continue;
                }
                key[..i].copy_from_slice(&skeleton[..i]);
                key[i..skeleton.len() - 1].copy_from_slice(&skeleton[i + 1..]);
                if let Some(found) = self.edit_candidates(&key[..skeleton.len() - 1], ours) {
                    return Some(found);
                }
            }
            // Then the skeleton itself.
            if !self.deletions.may_hold(poly(skeleton), skeleton.len()) {
                return None;
            }
            return self.edit_candidates(skeleton, ours);
        }
        let skeleton: Vec<char> = skeleton_of(domain).chars().collect();
        let keys = std::iter::once(skeleton.iter().collect::<String>())
            .chain((0..skeleton.len()).map(|i| deletion(&skeleton, i)));
        for key in keys {
            if !self.deletions.may_hold(poly(key.as_bytes()), key.len()) {
                continue;
            }
            if let Some(found) = self.edit_candidates(key.as_bytes(), || skeleton.clone()) {
                return Some(found);
            }
        }
        None
    }

    /// The listed domain one edit from `ours` among those filed under `key` (which the
    /// caller has sieved).
    fn edit_candidates(
        &self,
        key: &[u8],
        ours: impl FnOnce() -> Vec<char>,
    ) -> Option<(&'static str, Edit)> {
        let candidates = self.by_deletion.get(key)?;
        let ours = ours();
        candidates
            .iter()
            .find_map(|&(known, theirs)| edit_between(&ours, theirs).map(|edit| (known, edit)))
    }

    pub fn contains(&self, domain: &str) -> bool {
        domain.len() <= self.max_len
            && self.names.may_hold(domain.as_bytes())
            && self.set.contains(domain)
    }

    /// Whether `domain` is a well-known domain or a subdomain of one (a trailing dot is the
    /// same DNS name).
    pub fn is_known_or_subdomain(&self, domain: &str) -> bool {
        self.known_suffix_of(domain).is_some()
    }

    /// The well-known domain that `domain` is or is under (a trailing dot is the same DNS
    /// name).
    pub fn known_suffix_of<'d>(&self, domain: &'d str) -> Option<&'d str> {
        // A well-known domain can only be the whole name or what follows one of its dots.
        let mut rest = domain.strip_suffix('.').unwrap_or(domain);
        loop {
            if self.contains(rest) {
                return Some(rest);
            }
            match rest.bytes().position(|b| b == b'.') {
                Some(dot) => rest = &rest[dot + 1..],
                None => return None,
            }
        }
    }
}

/// `s` without its `i`th code point.
fn deletion(s: &[char], i: usize) -> String {
    s[..i].iter().chain(&s[i + 1..]).collect()
}

/// The one edit that turns `theirs` into `ours`, if one does.
fn edit_between(ours: &[char], theirs: &[char]) -> Option<Edit> {
    use std::cmp::Ordering;
    let differs_by_one_deletion = |long: &[char], short: &[char]| {
        let first = long.iter().zip(short).take_while(|(a, b)| a == b).count();
        long[first + 1..] == short[first..]
    };
    match ours.len().cmp(&theirs.len()) {
        Ordering::Equal => {
            let diff: Vec<usize> = (0..ours.len()).filter(|&i| ours[i] != theirs[i]).collect();
            match diff[..] {
                [_] => Some(Edit::Replaced),
                [i, j] if j == i + 1 && ours[i] == theirs[j] && ours[j] == theirs[i] => {
                    Some(Edit::Swapped)
                }
                _ => None,
            }
        }
        Ordering::Greater if ours.len() == theirs.len() + 1 => {
            differs_by_one_deletion(ours, theirs).then_some(Edit::Inserted)
        }
        Ordering::Less if ours.len() + 1 == theirs.len() => {
            differs_by_one_deletion(theirs, ours).then_some(Edit::Deleted)
        }
        _ => None,
    }
}

/// How a name is one edit from a well-known one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Inserted,
    Deleted,
    Replaced,
    Swapped,
}

/// The built-in list, parsed once (a test holds it to parsing without an error).
fn builtin() -> &'static [Listed] {
    static BUILTIN: OnceLock<Vec<Listed>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        parse_list(include_str!("../../assets/known-domains.txt"))
            .unwrap_or_default()
            .into_iter()
            .map(Listed::leak)
            .collect()
    })
}

/// The list in use: the built-in one until [`add_known_domains`] extends it.
static CURRENT: RwLock<Option<&'static Known>> = RwLock::new(None);
/// The entries added so far, kept to rebuild the list when more come.
static ADDED: RwLock<Vec<Listed>> = RwLock::new(Vec::new());

/// How many times [`add_known_domains`] has replaced the list.
static GENERATION: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// The list this thread read last, and the generation it read it at.
    static CACHED: Cell<Option<(usize, &'static Known)>> = const { Cell::new(None) };
}

/// The list, parsed and indexed on first use.
///
/// A host analysis asks for it several times per URL, on every core of a batch. Taking the
/// lock's read side each time is an atomic write to one cache line that all the cores then pass
/// around; a thread instead keeps what it read and only reloads when the generation moved, which
/// is a plain load of a line nobody writes.
pub fn known() -> &'static Known {
    let generation = GENERATION.load(Ordering::Acquire);
    if let Some((seen, known)) = CACHED.with(Cell::get) {
        if seen == generation {
            return known;
        }
    }
    let known = match *CURRENT.read().unwrap_or_else(|e| e.into_inner()) {
        Some(known) => known,
        None => {
            static BUILTIN: OnceLock<Known> = OnceLock::new();
            BUILTIN.get_or_init(|| Known::build(builtin()))
        }
    };
    CACHED.with(|cached| cached.set(Some((generation, known))));
    known
}

/// Adds `entries` (as [`parse_list`] gives them) to the list every later analysis uses, for a
/// security team's own brands. Each call rebuilds the index once; the old one is kept
/// (analyses in flight may hold it), so call it at start-up, not per URL.
pub fn add_known_domains(entries: impl IntoIterator<Item = Entry>) {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    for entry in entries {
        let listed = |l: &Listed| l.ascii == entry.domain;
        if !added.iter().any(listed) && !builtin().iter().any(listed) {
            added.push(Listed::leak(entry));
        }
    }
    let mut all: Vec<Listed> = builtin().to_vec();
    all.extend(added.iter().copied());
    let known: &'static Known = Box::leak(Box::new(Known::build(&all)));
    *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = Some(known);
    // After the list is in place: a thread that sees the new generation reads the new list.
    GENERATION.fetch_add(1, Ordering::Release);
}

/// A line of a known-domains list that is not a domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListError {
    pub line: usize,
    pub text: String,
}

impl std::fmt::Display for ListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: {} is not a domain",
            self.line,
            super::finding::quoted(&self.text)
        )
    }
}

/// One entry of a known-domains list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The registrable domain, ASCII form.
    pub domain: String,
    /// The brand it belongs to: the `[brand]` heading above it, or the domain itself.
    pub brand: String,
    /// `owned`: the brand's own domain, not watched for look-alikes (its look-alikes of the
    /// brand are the brand's own).
    pub owned: bool,
    /// `word`: its name is an ordinary word (`office`, `archive`), not compared by edit
    /// distance or as a word of a longer name.
    pub word: bool,
}

/// Reads a known-domains list: one registrable domain a line, in Unicode or Punycode,
/// optionally followed by `owned` or `word`; a line `[brand]` names the brand of the domains
/// below it; `#` starts a comment; blank lines are skipped. Gives the ASCII forms.
pub fn parse_list(text: &str) -> Result<Vec<Entry>, ListError> {
    let mut entries = Vec::new();
    let mut brand: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let entry = line.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let error = || ListError {
            line: i + 1,
            text: entry.to_owned(),
        };
        if let Some(name) = entry.strip_prefix('[').and_then(|e| e.strip_suffix(']')) {
            let name = name.trim();
            if name.is_empty() {
                return Err(error());
            }
            brand = Some(name.to_owned());
            continue;
        }
        let mut words = entry.split_whitespace();
        let domain = words.next().unwrap_or("");
        let (mut owned, mut word) = (false, false);
        for attribute in words {
            match attribute {
                "owned" => owned = true,
                "word" => word = true,
                _ => return Err(error()),
            }
        }
        // The host parser's domain to ASCII (UTS 46, as a browser would), and no IP address:
        // a look-alike of an address is not a question this list answers.
        let ascii = domain_parser(domain, false).ok_or_else(error)?;
        let ascii = ascii.trim_end_matches('.').to_owned();
        if ascii.is_empty()
            || ascii.contains(['/', ':', '@', ' ', '[', ']'])
            || ascii.parse::<std::net::Ipv4Addr>().is_ok()
        {
            return Err(error());
        }
        entries.push(Entry {
            brand: brand.clone().unwrap_or_else(|| ascii.clone()),
            domain: ascii,
            owned,
            word,
        });
    }
    Ok(entries)
}

/// Reads and parses the list in `path`, with the path and line in any error.
pub fn load_file(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_list(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where the default list lives: `known-domains.txt` in urlscope's configuration directory,
/// beside the external parsers' `parsers.conf` ([`crate::diff::adapter::config_dir`]): on Linux
/// `$XDG_CONFIG_HOME/urlscope/known-domains.txt`, else `~/.config/urlscope/known-domains.txt`;
/// on macOS `~/Library/Application Support/urlscope/known-domains.txt`; on Windows
/// `%APPDATA%\urlscope\known-domains.txt`. `None` when the system names no home for the user.
#[cfg(feature = "native")]
pub fn config_path() -> Option<PathBuf> {
    Some(crate::diff::adapter::config_dir()?.join("known-domains.txt"))
}

/// Where the default list lives without the native build's directories (the page's
/// WebAssembly has no environment, so none): `$XDG_CONFIG_HOME/urlscope/known-domains.txt`, or
/// `~/.config/urlscope/known-domains.txt`.
#[cfg(not(feature = "native"))]
pub fn config_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("urlscope").join("known-domains.txt"))
}

/// Adds the configuration file's list (when there is one) and then each of `files`: what
/// `--known-domains` does. Gives how many domains were added.
pub fn load_configured(files: &[PathBuf]) -> Result<usize, String> {
    let mut domains = Vec::new();
    if let Some(path) = config_path().filter(|p| p.is_file()) {
        domains.extend(load_file(&path)?);
    }
    for path in files {
        domains.extend(load_file(path)?);
    }
    let count = domains.len();
    if count > 0 {
        add_known_domains(domains);
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All of ASCII: a host holds no controls, but `skeleton_of` takes any string.
    fn ascii() -> impl Iterator<Item = char> + Clone {
        (0u8..128).map(char::from)
    }

    #[test]
    fn the_ascii_table_covers_domains() {
        let table = ascii_skeletons();
        for c in ('a'..='z')
            .chain('A'..='Z')
            .chain('0'..='9')
            .chain(['-', '.', '_'])
        {
            assert!(
                table[c as usize].is_some(),
                "{c:?} has a non-ASCII skeleton: hosts with it take the slow path"
            );
        }
    }

    #[test]
    fn the_hash_of_a_deletion_is_the_hash_of_the_deleted_key() {
        assert_eq!(POLY.wrapping_mul(POLY_INVERSE), 1);
        let mut keys: Vec<Vec<u8>> = [
            &b"a"[..],
            b"ab",
            b"abcd",
            b"abcde",
            b"paypal.com",
            b"x",
            b"\x00\xff\x80",
        ]
        .iter()
        .map(|k| k.to_vec())
        .collect();
        keys.extend((0..=255u8).map(|b| vec![b; 3]));
        keys.push((0..=255u8).collect());
        keys.push("rnicrosoft.com".repeat(9).into_bytes());
        for key in &keys {
            let hashes: Vec<u64> = deletion_hashes(key).collect();
            assert_eq!(hashes.len(), key.len());
            for (deleted, hash) in hashes.into_iter().enumerate() {
                let mut built = key.clone();
                built.remove(deleted);
                assert_eq!(hash, poly(&built), "{key:?} less {deleted}");
                // A sieve holding the built key alone has its one bit set.
                let mut sieve = HashSieve::new();
                sieve.insert(&built);
                assert!(sieve.may_hold(hash, built.len()));
            }
        }
    }

    #[test]
    fn the_packed_ascii_skeletons_are_the_table() {
        let packed = packed_ascii_skeletons();
        for (b, skeleton) in ascii_skeletons().iter().enumerate() {
            let entry = packed[b].to_le_bytes();
            let n = usize::from(entry[0]);
            match skeleton.as_deref() {
                Some(s) if s.len() <= 3 => assert_eq!(&entry[1..=n], s.as_bytes(), "{b:#x}"),
                _ => assert_eq!(n, 0, "{b:#x}"),
            }
        }
        // A skeleton that does not fit is not written: the general path takes it.
        assert!(ascii_skeleton(&"a".repeat(126), &mut [0; 128]).is_none());
        assert_eq!(
            ascii_skeleton(&"a".repeat(125), &mut [0; 128]).as_deref(),
            Some("a".repeat(125).as_bytes())
        );
    }

    #[test]
    fn ascii_skeletons_equal_the_general_skeleton_for_every_pair() {
        for a in ascii() {
            for b in ascii() {
                let s: String = [a, b].into_iter().collect();
                assert_eq!(skeleton_of(&s), general_skeleton(&s), "input {s:?}");
                if let Some(skeleton) = ascii_skeleton(&s, &mut [0; 8]) {
                    assert_eq!(&*skeleton, general_skeleton(&s).as_bytes(), "input {s:?}");
                }
            }
        }
    }

    #[test]
    fn ascii_skeletons_equal_the_general_skeleton_for_strings() {
        let mut strings: Vec<String> = known().domains.iter().map(|d| d.to_string()).collect();
        strings.extend(
            [
                "",
                "www.example.com",
                "WWW.EXAMPLE.COM",
                "paypa1.com",
                "rnicrosoft.com",
                "g00gle.com",
                "pay-pal.com",
                "xn--80ak6aa92e.com",
                "a|b`c\"d'e~f^g_h",
                "l1I|!0Oo mMrn vvw",
                "\t\n\r\x00\x1f\x7f",
            ]
            .map(str::to_owned),
        );
        // Every printable ASCII character in every position of a short string.
        let printable: String = (b' '..=b'~').map(char::from).collect();
        strings.push(printable.clone());
        strings.push(printable.chars().rev().collect());
        for (i, c) in printable.char_indices() {
            strings.push(format!("x{c}{}m{c}", &printable[i..]));
        }
        for s in &strings {
            assert_eq!(skeleton_of(s), general_skeleton(s), "input {s:?}");
            let mut joined = general_skeleton(s);
            joined.retain(|c| !matches!(c, '.' | '-'));
            assert_eq!(joined_skeleton(s), joined, "input {s:?}");
        }
    }

    #[test]
    fn label_by_label_skeletons_equal_the_general_skeleton() {
        // Labels that test the boundaries: combining marks at either end, final and capital
        // sigma, default-ignorable code points, mixed scripts, confusable digits.
        let labels = [
            "",
            "a",
            "m",
            "com",
            "\u{301}",
            "a\u{301}",
            "\u{327}\u{301}b",
            "e\u{301}\u{327}",
            "\u{345}",
            "σ",
            "ς",
            "aσ",
            "aΣ",
            "Σa",
            "ß",
            "ǅ",
            "İ",
            "ﬁ",
            "\u{200d}",
            "a\u{ad}b",
            "аррӏе",
            "раураӏ",
            "ցօօց",
            "bücher",
            "例え",
            "ドメイン名例",
            "ＡＢ",
            "١٢٣",
            "০",
            "ᾼ",
            "%",
            "xn--80ak6aa92e",
        ];
        for a in labels {
            for b in labels {
                for s in [
                    format!("{a}.{b}"),
                    format!("{a}.{b}.{a}"),
                    format!("x.{a}{b}."),
                ] {
                    assert_eq!(skeleton_of(&s), general_skeleton(&s), "input {s:?}");
                }
            }
        }
    }

    #[test]
    fn imitated_matches_a_lookup_by_the_general_skeleton() {
        let known = known();
        let lookup = |d: &str| {
            let skeleton = general_skeleton(d);
            let joined: String = skeleton
                .chars()
                .filter(|c| !matches!(c, '.' | '-'))
                .collect();
            known
                .by_skeleton
                .get(skeleton.as_bytes())
                .or_else(|| known.by_joined.get(joined.as_bytes()))
                .copied()
        };
        let long = format!("{}.paypal.com", "rn".repeat(100));
        let mut domains = vec![
            "www.example.com",
            "example.com",
            "\u{430}\u{440}\u{440}\u{4cf}\u{435}.com",
            "p\u{430}yp\u{430}l.com",
            "mail.b\u{fc}cher.\u{4f8b}\u{3048}.jp",
            long.as_str(),
        ];
        domains.extend(known.domains.iter().copied());
        let variants: Vec<String> = known
            .domains
            .iter()
            .flat_map(|d| {
                [
                    d.replace('l', "1"),
                    d.replace('o', "0"),
                    d.replace('m', "rn"),
                    d.replacen('.', "-", 1),
                    d.replacen('a', "-a", 1),
                    format!("www.{d}"),
                    d.to_uppercase(),
                ]
            })
            .collect();
        domains.extend(variants.iter().map(String::as_str));
        for d in domains {
            assert_eq!(known.imitated(d), lookup(d), "domain {d:?}");
        }
    }

    #[test]
    fn one_edit_matches_a_scan_of_the_distinctive_domains() {
        let known = known();
        let distinctive: Vec<&str> = builtin()
            .iter()
            .filter(|l| l.watched && l.distinctive)
            .map(|l| l.ascii)
            .collect();
        assert!(distinctive.contains(&"paypal.com") && !distinctive.contains(&"office.com"));
        // Whether one edit turns `theirs` into `ours`, by brute force over every edit.
        let scan = |ours: &str| {
            let ours: Vec<char> = skeleton_of(ours).chars().collect();
            distinctive.iter().copied().find(|d| {
                let theirs: Vec<char> = skeleton_of(d).chars().collect();
                edit_between(&ours, &theirs).is_some()
            })
        };
        let mut names = vec![
            "example.com".to_owned(),
            "paypall.com".to_owned(),
            "pyapal.com".to_owned(),
            "gooogle.com".to_owned(),
            "paypal.de".to_owned(),
            "p\u{e4}ypal.com".to_owned(),
        ];
        for d in &distinctive {
            let chars: Vec<char> = d.chars().collect();
            for i in 0..chars.len() {
                let mut deleted = chars.clone();
                deleted.remove(i);
                names.push(deleted.iter().collect());
                let mut replaced = chars.clone();
                replaced[i] = 'x';
                names.push(replaced.iter().collect());
                let mut inserted = chars.clone();
                inserted.insert(i, 'q');
                names.push(inserted.iter().collect());
                if i + 1 < chars.len() {
                    let mut swapped = chars.clone();
                    swapped.swap(i, i + 1);
                    names.push(swapped.iter().collect());
                }
            }
        }
        for name in &names {
            // The first listed domain one edit away may differ between the index and the
            // scan when two are; that it finds one exactly when the scan does is the point.
            assert_eq!(
                known.one_edit_from(name).is_some(),
                scan(name).is_some(),
                "{name:?}"
            );
        }
    }

    #[test]
    fn edits_are_named() {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(
            edit_between(&chars("paypall"), &chars("paypal")),
            Some(Edit::Inserted)
        );
        assert_eq!(
            edit_between(&chars("paypl"), &chars("paypal")),
            Some(Edit::Deleted)
        );
        assert_eq!(
            edit_between(&chars("paypak"), &chars("paypal")),
            Some(Edit::Replaced)
        );
        assert_eq!(
            edit_between(&chars("pyapal"), &chars("paypal")),
            Some(Edit::Swapped)
        );
        assert_eq!(edit_between(&chars("paypal"), &chars("paypal")), None);
        assert_eq!(edit_between(&chars("pxyxal"), &chars("paypal")), None);
        assert_eq!(
            edit_between(&chars("ab"), &chars("bb")),
            Some(Edit::Replaced)
        );
    }

    #[test]
    fn lists_read_unicode_punycode_and_comments() {
        let domains = |text: &str| {
            parse_list(text)
                .map(|entries| entries.into_iter().map(|e| e.domain).collect::<Vec<_>>())
        };
        assert_eq!(
            domains("# ours\nExample.COM\n\nb\u{fc}cher.example # the shop\nxn--mnchen-3ya.de\n"),
            Ok(vec![
                "example.com".to_owned(),
                "xn--bcher-kva.example".to_owned(),
                "xn--mnchen-3ya.de".to_owned()
            ])
        );
        assert_eq!(
            parse_list("example.com\nhttps://example.org/\n"),
            Err(ListError {
                line: 2,
                text: "https://example.org/".to_owned()
            })
        );
        assert!(parse_list("192.0.2.1").is_err());
    }

    #[test]
    fn known_or_subdomain_matches_a_scan_of_the_list() {
        let known = known();
        let scan = |d: &str| {
            // A trailing dot is the same DNS name.
            let d = d.strip_suffix('.').unwrap_or(d);
            known.domains.iter().any(|k| {
                d == *k
                    || (d.len() > k.len()
                        && d.ends_with(k)
                        && d.as_bytes()[d.len() - k.len() - 1] == b'.')
            })
        };
        let mut hosts = vec![
            "",
            ".",
            "com",
            "google.com",
            "google.com.",
            "www.google.com",
            "a.b.mail.google.com",
            "xgoogle.com",
            "google.com.evil.example",
            "evil.example",
            "..google.com",
            "google..com",
        ];
        hosts.extend(known.domains.iter().copied());
        let prefixed: Vec<String> = known
            .domains
            .iter()
            .flat_map(|d| [format!("www.{d}"), format!("x{d}"), format!("{d}.x")])
            .collect();
        hosts.extend(prefixed.iter().map(String::as_str));
        for d in hosts {
            assert_eq!(known.is_known_or_subdomain(d), scan(d), "host {d:?}");
        }
    }

    #[test]
    fn the_built_in_list_parses() {
        let text = include_str!("../../assets/known-domains.txt");
        let entries = parse_list(text).expect("the built-in list parses");
        assert_eq!(builtin().len(), entries.len());
        // Every domain once.
        let mut seen = HashSet::new();
        for e in &entries {
            assert!(seen.insert(e.domain.as_str()), "{} twice", e.domain);
        }
    }

    #[test]
    fn lists_read_brands_and_attributes() {
        let entries = parse_list(
            "alone.example\n[acme]\nacme.example\nacme-cdn.example owned\nwidget.example word\n",
        )
        .expect("list");
        let summary: Vec<(&str, &str, bool, bool)> = entries
            .iter()
            .map(|e| (e.domain.as_str(), e.brand.as_str(), e.owned, e.word))
            .collect();
        assert_eq!(
            summary,
            [
                ("alone.example", "alone.example", false, false),
                ("acme.example", "acme", false, false),
                ("acme-cdn.example", "acme", true, false),
                ("widget.example", "acme", false, true),
            ]
        );
        for bad in ["acme.example owed", "[]", "[ ]\nx.example"] {
            assert!(parse_list(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn brands_own_their_domains_and_only_watched_ones_are_imitated() {
        let known = known();
        for (host, brand) in [
            ("google-styleguide.googlecode.com", Some("google")),
            ("googlecode.com.", Some("google")),
            ("www.youtube.com", Some("google")),
            ("lh3.googleusercontent.com", Some("google")),
            ("login.live.com", Some("microsoft")),
            ("www.icloud.com", Some("apple")),
            ("s3.amazonaws.com", Some("amazon")),
            ("paypal.com", Some("paypal")),
            ("evil.example", None),
            ("googlecode.com.evil.example", None),
        ] {
            assert_eq!(known.owner_of(host), brand, "{host}");
        }
        // Owned, not watched: a look-alike of gstatic.com is nobody's concern here.
        assert!(!known.contains("gstatic.com"));
        assert_eq!(known.one_edit_from("static.com"), None);
        // Ordinary words are matched by skeleton, not by edit distance or as a word.
        assert_eq!(known.imitated("0ffice.com"), Some("office.com"));
        assert_eq!(known.one_edit_from("offices.com"), None);
        assert_eq!(known.by_name("archive"), None);
        assert_eq!(known.by_name("paypal"), Some("paypal.com"));
    }

    /// The default list is kept where the rest of urlscope's configuration is, on every system,
    /// read here from what the system itself names rather than through the code under test:
    /// before, it was built from `$XDG_CONFIG_HOME` and `$HOME` alone, which Windows does not
    /// use for a profile's files (under Wine `$HOME` is the Unix one), so a list put in
    /// `%APPDATA%\urlscope` beside `parsers.conf` was never read.
    #[cfg(feature = "native")]
    #[test]
    fn the_default_list_is_beside_the_rest_of_the_configuration() {
        let home = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        #[cfg(windows)]
        let base = home("APPDATA").expect("%APPDATA%");
        #[cfg(target_os = "macos")]
        let base = home("HOME")
            .expect("$HOME")
            .join("Library")
            .join("Application Support");
        // Linux's path as it always was: `$XDG_CONFIG_HOME` when set, else `~/.config`.
        #[cfg(not(any(windows, target_os = "macos")))]
        let base = home("XDG_CONFIG_HOME")
            .or_else(|| home("HOME").map(|h| h.join(".config")))
            .expect("$HOME");
        let path = config_path().expect("a configuration file's place");
        assert!(path.is_absolute(), "{}", path.display());
        assert_eq!(path, base.join("urlscope").join("known-domains.txt"));
        assert_eq!(
            path.parent(),
            crate::diff::adapter::config_dir().as_deref(),
            "known-domains.txt is beside parsers.conf"
        );
    }
}
