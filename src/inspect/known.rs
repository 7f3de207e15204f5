//! The well-known domains of `assets/known-domains.txt` and their UTS 39 skeletons, built once.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use unicode_security::skeleton;

/// The UTS 39 skeleton of `s`, lowercased so that case never makes a difference.
pub fn skeleton_of(s: &str) -> String {
    if s.is_ascii() {
        let table = ascii_skeletons();
        let mut out = String::with_capacity(s.len() + 4);
        for b in s.bytes() {
            match &table[usize::from(b)] {
                Some(mapped) => out.push_str(mapped),
                None => return general_skeleton(s),
            }
        }
        return out;
    }
    general_skeleton(s)
}

fn general_skeleton(s: &str) -> String {
    skeleton(&s.to_lowercase())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The skeleton of each ASCII code point whose skeleton is ASCII. The skeleton of a string is
/// NFD, the confusable mapping of each code point, NFD again: for ASCII input with ASCII
/// mappings both NFDs change nothing, so the skeleton is the mappings one after another. A
/// code point mapped outside ASCII (`None`) sends its string through the general path.
fn ascii_skeletons() -> &'static [Option<String>; 128] {
    static TABLE: OnceLock<[Option<String>; 128]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|b| {
            Some(general_skeleton(&char::from(b as u8).to_string())).filter(|s| s.is_ascii())
        })
    })
}

/// The skeleton with label separators and hyphens removed (`pay-pal.com` ~ `paypal.com`).
pub fn joined_skeleton(s: &str) -> String {
    let mut skeleton = skeleton_of(s);
    skeleton.retain(|c| !matches!(c, '.' | '-'));
    skeleton
}

#[derive(Debug)]
pub struct Known {
    pub domains: Vec<&'static str>,
    set: HashSet<&'static str>,
    /// The most labels any listed domain has.
    pub max_labels: usize,
    by_skeleton: HashMap<String, &'static str>,
    by_joined: HashMap<String, &'static str>,
}

impl Known {
    /// The well-known domain whose skeleton (or joined skeleton) `domain` shares.
    pub fn imitated(&self, domain: &str) -> Option<&'static str> {
        let mut skeleton = skeleton_of(domain);
        if let Some(&known) = self.by_skeleton.get(&skeleton) {
            return Some(known);
        }
        skeleton.retain(|c| !matches!(c, '.' | '-'));
        self.by_joined.get(&skeleton).copied()
    }

    pub fn contains(&self, domain: &str) -> bool {
        self.set.contains(domain)
    }
}

/// The list, parsed and indexed on first use.
pub fn known() -> &'static Known {
    static KNOWN: OnceLock<Known> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let domains: Vec<&'static str> = include_str!("../../assets/known-domains.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let by_skeleton = domains.iter().map(|&d| (skeleton_of(d), d)).collect();
        let by_joined = domains.iter().map(|&d| (joined_skeleton(d), d)).collect();
        Known {
            max_labels: domains
                .iter()
                .map(|d| d.split('.').count())
                .max()
                .unwrap_or(1),
            set: domains.iter().copied().collect(),
            domains,
            by_skeleton,
            by_joined,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_table_gives_the_general_skeleton() {
        // Every code point a domain can hold maps within ASCII.
        for c in ('a'..='z').chain('0'..='9').chain(['-', '.']) {
            assert!(ascii_skeletons()[c as usize].is_some(), "{c:?}");
        }
        let ascii: Vec<char> = (0u8..128).map(char::from).collect();
        for &a in &ascii {
            for &b in &ascii {
                let s: String = [a, b, 'r', b, a].iter().collect();
                assert_eq!(skeleton_of(&s), general_skeleton(&s), "{s:?}");
            }
        }
        for s in [
            "paypa1.com",
            "rnicrosoft.com",
            "PAYPAL.COM",
            "g00gle.com",
            "vv.com",
        ] {
            assert_eq!(skeleton_of(s), general_skeleton(s), "{s:?}");
        }
    }
}
