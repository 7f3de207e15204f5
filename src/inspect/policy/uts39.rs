//! UTS 39 read on its own: the General Security Profile, the "highly restrictive" restriction
//! level, the mixed-numbers and invisible-character checks, IDNA2003's deviation characters,
//! and whole-script confusables found by skeleton in any script under a TLD not of it. No
//! browser's exceptions: the strictest of the three readings.

use super::{
    any, beyond_highly_restrictive, deviation, mixed_numbers, outside_identifier_profile,
    repeated_mark_nfd, whole_script_confusable, Policy, Rule, TO_UNICODE,
};
use crate::inspect::label::{HostContext, LabelContext};

pub const POLICY: Policy = Policy {
    name: "uts39",
    source: "UTS 39 \"highly restrictive\" with the General Security Profile",
    platform_specific: false,
    label_rules: &[
        TO_UNICODE,
        Rule {
            name: "identifier-profile",
            step: "a code point outside the General Security Profile (symbols, emoji, restricted scripts)",
            check: identifier_profile,
        },
        Rule {
            name: "highly-restrictive",
            step: "scripts mixed beyond \"highly restrictive\"",
            check: beyond_highly_restrictive,
        },
        Rule {
            name: "invisible",
            step: "the same combining mark twice on one letter",
            check: repeated_mark_nfd,
        },
        Rule {
            name: "mixed-numbers",
            step: "digits of more than one numbering system",
            check: mixed_numbers,
        },
        Rule {
            name: "deviation-character",
            step: "ß, ς, ZWNJ or ZWJ: read differently by IDNA2003 (transitional) processing",
            check: deviation,
        },
        Rule {
            name: "whole-script-confusable",
            step: "one non-Latin script whose letters all look Latin, under a TLD not of that script",
            check: any_whole_script_confusable,
        },
    ],
    host_rules: &[],
};

fn identifier_profile(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    any(outside_identifier_profile(label))
}

fn any_whole_script_confusable(
    label: &LabelContext<'_>,
    host: &HostContext<'_>,
) -> Option<Vec<char>> {
    whole_script_confusable(label, host, |_, c| {
        crate::inspect::lookalike::reads_as_latin_letter(c)
    })
}
