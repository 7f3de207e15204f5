//! The well-known domains of `assets/known-domains.txt` and their UTS 39 skeletons, built once.

use std::collections::HashMap;
use std::sync::OnceLock;
use unicode_security::skeleton;

/// The UTS 39 skeleton of `s`, lowercased so that case never makes a difference.
pub fn skeleton_of(s: &str) -> String {
    skeleton(&s.to_lowercase())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The skeleton with label separators and hyphens removed (`pay-pal.com` ~ `paypal.com`).
pub fn joined_skeleton(s: &str) -> String {
    skeleton_of(s)
        .chars()
        .filter(|c| !matches!(c, '.' | '-'))
        .collect()
}

#[derive(Debug)]
pub struct Known {
    pub domains: Vec<&'static str>,
    by_skeleton: HashMap<String, &'static str>,
    by_joined: HashMap<String, &'static str>,
}

impl Known {
    /// The well-known domain whose skeleton (or joined skeleton) `domain` shares.
    pub fn imitated(&self, domain: &str) -> Option<&'static str> {
        self.by_skeleton
            .get(&skeleton_of(domain))
            .or_else(|| self.by_joined.get(&joined_skeleton(domain)))
            .copied()
    }

    pub fn contains(&self, domain: &str) -> bool {
        self.domains.contains(&domain)
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
            domains,
            by_skeleton,
            by_joined,
        }
    })
}
