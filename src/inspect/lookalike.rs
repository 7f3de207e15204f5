//! What a name imitates beyond the plain UTS 39 skeleton: skeletons with diacritics folded
//! away (`googlé.com`, `gøøgle.com`), letters and digits that read as ASCII ones, a well-known
//! domain spelled out inside a longer name, and a well-known name with words added.

use icu_properties::props::GeneralCategory;
use icu_properties::CodePointMapData;

use super::known::{skeleton_of, Known, DISTINCTIVE_NAME};

/// Letters without a decomposition that read as ASCII letters or digits, and that UTS 39's
/// confusables leave out or map to a letter with an overlay: stroked and barred letters,
/// ligatures, and letters and digits of other scripts that browsers treat as look-alikes.
/// Sorted by code point.
const FOLDS: &[(char, &str)] = &[
    ('ß', "b"),
    ('æ', "ae"),
    ('ð', "o"),
    ('ø', "o"),
    ('þ', "p"),
    ('đ', "d"),
    ('ħ', "h"),
    ('ı', "i"),
    ('ĸ', "k"),
    ('ł', "l"),
    ('ŋ', "n"),
    ('œ', "ce"),
    ('ŧ', "t"),
    ('ƀ', "b"),
    ('ƅ', "b"),
    ('ƶ', "z"),
    ('ȷ', "j"),
    ('ȼ', "c"),
    ('ɇ', "e"),
    ('ɨ', "i"),
    ('θ', "0"),
    ('κ', "k"),
    ('χ', "x"),
    ('ω', "w"),
    ('ϼ', "p"),
    ('в', "b"),
    ('з', "3"),
    ('к', "k"),
    ('м', "m"),
    ('н', "h"),
    ('п', "n"),
    ('т', "t"),
    ('ш', "w"),
    ('щ', "w"),
    ('ь', "b"),
    ('є', "e"),
    ('ћ', "h"),
    ('ҍ', "b"),
    ('ҏ', "p"),
    ('ґ', "r"),
    ('ғ', "f"),
    ('ҙ', "3"),
    ('қ', "k"),
    ('ҝ', "k"),
    ('ҟ', "k"),
    ('ҡ', "k"),
    ('ң', "h"),
    ('ҥ', "h"),
    ('ҫ', "c"),
    ('ҭ', "t"),
    ('ұ', "y"),
    ('ҳ', "x"),
    ('ҽ', "e"),
    ('ҿ', "e"),
    ('ӄ', "k"),
    ('ӈ', "h"),
    ('ӊ', "h"),
    ('ӎ', "m"),
    ('ӕ', "ae"),
    ('ӡ', "3"),
    ('ӻ', "f"),
    ('ӽ', "x"),
    ('ӿ', "x"),
    ('ԃ', "d"),
    ('ԋ', "h"),
    ('ԍ', "g"),
    ('ԏ', "t"),
    ('ԟ', "k"),
    ('ԥ', "n"),
    ('ԧ', "h"),
    ('ԩ', "h"),
    ('ճ', "6"),
    ('շ', "2"),
    ('ד', "t"),
    ('ח', "n"),
    ('ן', "l"),
    ('उ', "3"),
    ('०', "o"),
    ('२', "2"),
    ('ও', "3"),
    ('০', "o"),
    ('২', "2"),
    ('৪', "8"),
    ('৭', "q"),
    ('ਤ', "3"),
    ('ੜ', "3"),
    ('੦', "o"),
    ('੧', "q"),
    ('੨', "2"),
    ('੩', "3"),
    ('੪', "8"),
    ('੫', "4"),
    ('૦', "o"),
    ('૧', "q"),
    ('૨', "2"),
    ('૩', "3"),
    ('૭', "9"),
    ('ଠ', "o"),
    ('୦', "o"),
    ('୨', "9"),
    ('୫', "8"),
    ('౨', "9"),
    ('౩', "3"),
    ('೦', "o"),
    ('೩', "2"),
    ('೭', "2"),
    ('ട', "s"),
    ('ก', "n"),
    ('บ', "u"),
    ('พ', "w"),
    ('ฟ', "w"),
    ('ร', "s"),
    ('เ', "l"),
    ('แ', "ll"),
    ('๐', "o"),
    ('ບ', "u"),
    ('ພ', "w"),
    ('ຟ', "w"),
    ('ຣ', "s"),
    ('ຮ', "s"),
    ('င', "c"),
    ('စ', "o"),
    ('ဌ', "g"),
    ('ဒ', "3"),
    ('၂', "j"),
    ('ၔ', "e"),
    ('ვ', "3"),
    ('კ', "3"),
    ('პ', "3"),
    ('ㄐ', "4"),
    ('一', "-"),
    ('七', "t"),
    ('丅', "t"),
    ('丆', "t"),
    ('丩', "4"),
    ('丫', "y"),
    ('乂', "x"),
];

/// Letters that read as more than one letter: each gives a host one more skeleton per reading
/// (Chromium's skeleton generator: þ as b and p, œ as ce and oe, ł as l and t, dotless ı as l
/// and i). [`FOLDS`] has each one's first reading.
const READINGS: &[(char, &[&str])] = &[
    ('þ', &["b", "p"]),
    ('ı', &["l", "i"]),
    ('ł', &["l", "t"]),
    ('œ', &["ce", "oe"]),
];

/// A host is read every way its letters of several readings allow only when it has at most
/// this many of them, and is at most [`MAX_READ_HOST_UNITS`] UTF-16 code units long; then at
/// most [`MAX_READINGS`] ways (Chromium's bounds: a host with more such letters is unlikely to
/// be a convincing spoof).
const MAX_LETTERS_OF_SEVERAL_READINGS: usize = 5;
const MAX_READ_HOST_UNITS: usize = 32;
const MAX_READINGS: usize = 128;

/// `host` with each of its letters of several readings (`READINGS`) read every way, the host
/// as it is first; only the host when it is out of the bounds above.
pub fn readings(host: &str) -> Vec<String> {
    let several = |c: char| READINGS.iter().find(|&&(r, _)| r == c).map(|&(_, to)| to);
    let count = host.chars().filter(|&c| several(c).is_some()).count();
    if count == 0
        || count > MAX_LETTERS_OF_SEVERAL_READINGS
        || host.encode_utf16().count() > MAX_READ_HOST_UNITS
    {
        return vec![host.to_owned()];
    }
    let mut out = vec![String::new()];
    for c in host.chars() {
        match several(c) {
            None => out.iter_mut().for_each(|s| s.push(c)),
            Some(alternatives) => {
                out = out
                    .iter()
                    .flat_map(|s| {
                        std::iter::once(c.to_string())
                            .chain(alternatives.iter().map(|&a| a.to_owned()))
                            .map(move |a| format!("{s}{a}"))
                    })
                    .take(MAX_READINGS)
                    .collect();
            }
        }
    }
    out
}

/// What [`FOLDS`] reads `c` as, if it lists it.
pub(crate) fn fold(c: char) -> Option<&'static str> {
    FOLDS
        .binary_search_by_key(&c, |&(f, _)| f)
        .ok()
        .map(|i| FOLDS[i].1)
}

fn is_nonspacing_mark(c: char) -> bool {
    CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::NonspacingMark
}

/// `s` with its diacritics removed (NFD, nonspacing marks dropped) and the letters of
/// `FOLDS` replaced.
pub fn fold_diacritics(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let nfd = icu_normalizer::DecomposingNormalizerBorrowed::new_nfd().normalize(s);
    let mut out = String::with_capacity(s.len());
    for c in nfd.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if is_nonspacing_mark(c) {
            continue;
        } else if let Some(to) = fold(c) {
            out.push_str(to);
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// The UTS 39 skeleton of `s` with its diacritics folded away, before and after (a
/// prototype can be a letter with a stroke: κ's is ĸ).
pub fn folded_skeleton(s: &str) -> String {
    fold_diacritics(&skeleton_of(&fold_diacritics(s)))
}

/// The skeleton of one code point, folded.
fn skeleton_of_char(c: char) -> String {
    match fold(c) {
        Some(to) => to.to_owned(),
        None => fold_diacritics(&skeleton_of(c.encode_utf8(&mut [0; 4]))),
    }
}

/// Whether `c` (not ASCII) reads as ASCII letters.
pub fn reads_as_latin_letter(c: char) -> bool {
    let skeleton = skeleton_of_char(c);
    !c.is_ascii() && !skeleton.is_empty() && skeleton.bytes().all(|b| b.is_ascii_lowercase())
}

/// Whether `c` (not an ASCII digit) reads as an ASCII digit.
pub fn reads_as_digit(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    let skeleton = skeleton_of_char(c);
    skeleton.len() == 1 && skeleton.as_bytes()[0].is_ascii_digit()
}

/// The known domain whose folded skeleton one of the host's suffixes of two to four labels
/// has (longest first), in any of the host's [`readings`], when the host is not that domain or
/// under it.
pub fn imitated_suffix(host: &str, known: &Known) -> Option<&'static str> {
    let host = host.trim_end_matches('.');
    // Only the last four labels count: take them without walking a hostile host.
    let start = host
        .rmatch_indices('.')
        .nth(3)
        .map_or(0, |(dot, _)| dot + 1);
    let whole = &host[start..];
    if whole.split('.').any(|l| l.len() > 4 * known.max_len) {
        return None;
    }
    // The readings are bounded by the whole host, as Chromium bounds them.
    if host.encode_utf16().count() > MAX_READ_HOST_UNITS
        || !whole.chars().any(|c| READINGS.iter().any(|&(r, _)| r == c))
    {
        return imitated_suffix_of(whole, known);
    }
    readings(whole)
        .iter()
        .find_map(|reading| imitated_suffix_of(reading, known))
}

/// [`imitated_suffix`] for one reading of the last four labels.
fn imitated_suffix_of(host: &str, known: &Known) -> Option<&'static str> {
    let last: Vec<&str> = host.split('.').collect();
    if last.len() < 2 || last.iter().any(|l| l.len() > 4 * known.max_len) {
        return None;
    }
    // A full stop folds and maps to itself and nothing reorders across it, so a suffix's
    // folded skeleton is its labels' joined (as `skeleton_of` relies on too).
    let skeletons: Vec<String> = last.iter().map(|l| folded_skeleton(l)).collect();
    let mut suffix = String::with_capacity(host.len() * 2);
    for from in 0..=last.len() - 2 {
        suffix.clear();
        for (i, skeleton) in skeletons[from..].iter().enumerate() {
            if i > 0 {
                suffix.push('.');
            }
            suffix.push_str(skeleton);
        }
        if let Some(imitated) = known.imitated_folded_skeleton(&suffix) {
            return Some(imitated);
        }
    }
    None
}

/// A well-known domain spelled out in `name` with dots or hyphens between its labels
/// (`paypal.com-login`, `www.paypal-com`): the first run of words, in order of their first
/// word, that is a listed domain as written or with its hyphens read as dots.
pub fn spelled_out(name: &str, known: &Known) -> Option<String> {
    // The separators are ASCII: their byte positions are code point boundaries. Where each
    // word ends (at a separator, the last at the name's end) is found once, on the stack for
    // the few words of nearly every name.
    let mut word_ends = [0usize; 32];
    let mut words = 0;
    for (i, &b) in name.as_bytes().iter().enumerate() {
        if b == b'.' || b == b'-' {
            if words == word_ends.len() - 1 {
                return spelled_out_scanning(name, known);
            }
            word_ends[words] = i;
            words += 1;
        }
    }
    word_ends[words] = name.len();
    let word_ends = &word_ends[..=words];
    let mut dotted = String::new();
    for first in 0..word_ends.len() {
        let from = match first {
            0 => 0,
            _ => word_ends[first - 1] + 1,
        };
        // Runs of two words or more, no longer than the longest listed domain: a hostile host
        // of 500k labels must not cost every run of them.
        for &to in word_ends[first + 1..].iter().take(2 * known.max_labels) {
            let run = &name[from..to];
            if run.len() > known.max_len {
                break;
            }
            if let Some(listed) = listed_run(run, known, &mut dotted) {
                return Some(listed);
            }
        }
    }
    None
}

/// A run of words of [`spelled_out`] that is a listed domain as written or with its hyphens
/// read as dots (`dotted`: a buffer reused from run to run).
fn listed_run(run: &str, known: &Known, dotted: &mut String) -> Option<String> {
    if known.contains(run) {
        return Some(run.to_owned());
    }
    if run.bytes().any(|b| b == b'-') {
        dotted.clear();
        dotted.extend(run.chars().map(|c| if c == '-' { '.' } else { c }));
        if known.contains(dotted) {
            return Some(dotted.clone());
        }
    }
    None
}

/// [`spelled_out`] for a name of many words: each run's end is found by scanning, where
/// [`spelled_out`] finds the words' ends once.
fn spelled_out_scanning(name: &str, known: &Known) -> Option<String> {
    let bytes = name.as_bytes();
    let separator = |from: usize| {
        bytes[from..]
            .iter()
            .position(|&b| b == b'.' || b == b'-')
            .map(|i| from + i)
    };
    let mut dotted = String::new();
    // Each run starts at the name's start or after a separator.
    let mut from = 0;
    loop {
        // A run ends at a separator or at the name's end. Runs of two words or more (not the
        // first end), no longer than the longest listed domain, and no more of them than twice
        // the most labels a listed domain has: a hostile host of 500k labels must not cost
        // every run of them.
        let mut at = from;
        let mut ends = 0;
        let mut last = false;
        while !last {
            let to = match separator(at) {
                Some(to) => {
                    at = to + 1;
                    to
                }
                None => {
                    last = true;
                    bytes.len()
                }
            };
            ends += 1;
            if ends == 1 {
                continue;
            }
            if ends > 1 + 2 * known.max_labels {
                break;
            }
            let run = &name[from..to];
            if run.len() > known.max_len {
                break;
            }
            if let Some(listed) = listed_run(run, known, &mut dotted) {
                return Some(listed);
            }
        }
        from = separator(from)? + 1;
    }
}

/// The well-known domain whose distinctive name is a run of words of the hyphenated `name`,
/// with other words added (`paypal-secure`, `secure-paypal`).
pub fn combosquatted(name: &str, known: &Known) -> Option<&'static str> {
    if !name.contains('-') || name.len() > 4 * known.max_len {
        return None;
    }
    let words: Vec<(usize, usize)> = {
        let mut words = Vec::new();
        let mut start = 0;
        for (i, b) in name.bytes().enumerate() {
            if b == b'-' {
                words.push((start, i));
                start = i + 1;
            }
        }
        words.push((start, name.len()));
        words
    };
    for (i, &(from, _)) in words.iter().enumerate() {
        for &(_, to) in &words[i..] {
            let run = &name[from..to];
            if run.len() > known.max_len {
                break;
            }
            if run.len() < name.len() && run.chars().count() >= DISTINCTIVE_NAME {
                if let Some(domain) = known.by_name(run) {
                    return Some(domain);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::known::known;

    #[test]
    fn a_host_is_read_every_way_its_letters_allow_within_bounds() {
        let mut read = readings("łesł.net");
        read.sort();
        assert_eq!(
            read,
            [
                "lesl.net",
                "lest.net",
                "lesł.net",
                "tesl.net",
                "test.net",
                "tesł.net",
                "łesl.net",
                "łest.net",
                "łesł.net"
            ]
        );
        assert_eq!(readings("œ.com")[1..], ["ce.com", "oe.com"]);
        assert_eq!(readings("example.com"), ["example.com"]);
        // Five such letters are read every way, up to 128 readings; six are not read at all.
        assert_eq!(readings("łłłłł.com").len(), 128);
        assert_eq!(readings("łłłłłł.com"), ["łłłłłł.com"]);
        // Nor is a host longer than 32 UTF-16 code units.
        let long = format!("ł{}.com", "a".repeat(28));
        assert_eq!(readings(&long), std::slice::from_ref(&long));
        assert_eq!(readings(&long[..long.len() - 1]).len(), 3);
        // Every reading's letters of several readings are in READINGS, sorted by code point.
        assert!(READINGS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn folding_removes_marks_and_maps_stroked_letters() {
        assert_eq!(fold_diacritics("googlé.com"), "google.com");
        assert_eq!(fold_diacritics("gøøgle.com"), "google.com");
        assert_eq!(fold_diacritics("paypał.com"), "paypal.com");
        assert_eq!(fold_diacritics("AMAZÖN.com"), "amazon.com");
        assert_eq!(folded_skeleton("fácebook.com"), skeleton_of("facebook.com"));
    }

    #[test]
    fn the_fold_table_is_sorted_and_unique() {
        assert!(FOLDS.windows(2).all(|w| w[0].0 < w[1].0));
        for &(c, to) in FOLDS {
            assert_eq!(fold(c), Some(to), "{c:?}");
        }
    }

    #[test]
    fn suffixes_fold_label_by_label() {
        let known = known();
        for host in [
            "googl\u{e9}.com",
            "www.g\u{f8}\u{f8}gle.com",
            "a.b.c.d.googl\u{e9}.com",
        ] {
            assert_eq!(imitated_suffix(host, known), Some("google.com"), "{host}");
        }
        assert_eq!(imitated_suffix("googl\u{e9}.example", known), None);
        for host in ["googl\u{e9}.com", "x.ȷ\u{301}.com", "ﬁ.ǅ.com"] {
            let whole = folded_skeleton(host);
            let joined: Vec<String> = host.split('.').map(folded_skeleton).collect();
            assert_eq!(whole, joined.join("."), "{host}");
        }
    }

    #[test]
    fn look_alike_letters_and_digits() {
        for c in ['а', 'о', 'р', 'к', 'ι', 'κ', 'α', 'օ', 'ս'] {
            assert!(reads_as_latin_letter(c), "{c:?}");
        }
        for c in ['ж', 'λ', 'a', 'ب'] {
            assert!(!reads_as_latin_letter(c), "{c:?}");
        }
        for c in ['з', 'շ', '২'] {
            assert!(reads_as_digit(c), "{c:?}");
        }
        for c in ['a', '1', 'з' /* twice: the table is not consumed */] {
            assert_eq!(reads_as_digit(c), c == 'з', "{c:?}");
        }
    }

    #[test]
    fn spelled_out_domains_are_runs_of_words() {
        let known = known();
        assert_eq!(
            spelled_out("paypal.com-login", known).as_deref(),
            Some("paypal.com")
        );
        assert_eq!(
            spelled_out("www.paypal-com", known).as_deref(),
            Some("paypal.com")
        );
        assert_eq!(spelled_out("paypal", known), None);
        assert_eq!(spelled_out("www.example", known), None);
    }

    #[test]
    fn spelled_out_domains_match_a_scan_of_every_run_of_words() {
        let known = known();
        let scan = |name: &str| {
            let bounds: Vec<usize> = std::iter::once(0)
                .chain(name.match_indices(['.', '-']).map(|(i, _)| i + 1))
                .collect();
            let ends: Vec<usize> = name
                .match_indices(['.', '-'])
                .map(|(i, _)| i)
                .chain(std::iter::once(name.len()))
                .collect();
            for (w, &from) in bounds.iter().enumerate() {
                for &to in &ends[w + 1..] {
                    let run = &name[from..to];
                    if known.contains(run) {
                        return Some(run.to_owned());
                    }
                    let dotted = run.replace('-', ".");
                    if known.contains(&dotted) {
                        return Some(dotted);
                    }
                }
            }
            None
        };
        let names = [
            "www",
            "www.paypal.com",
            "paypal.com.login",
            "login.paypal.com.x",
            "paypal-com",
            "a.paypal-com.b",
            "x..paypal.com",
            "accounts.google.com.secure",
            "google.com.paypal.com",
            "paypal.com-google.com",
            "mail-google-com-x",
            "amazon.co.uk.evil",
            "-",
            "a-",
            "",
        ];
        // Names of more words than are found on the stack, with the domain at each end.
        let many = [
            format!("{}paypal.com", "a.".repeat(40)),
            format!("paypal-com{}", ".b".repeat(40)),
            format!("{}paypal-com{}", "x-".repeat(20), ".y".repeat(20)),
            "a.".repeat(40),
            format!("{}paypal.com", "a.".repeat(30)),
            format!("{}paypal.com", "a.".repeat(29)),
        ];
        for name in names.into_iter().chain(many.iter().map(String::as_str)) {
            assert_eq!(spelled_out(name, known), scan(name), "{name:?}");
        }
    }

    #[test]
    fn combosquatting_needs_a_distinctive_word() {
        let known = known();
        assert_eq!(combosquatted("paypal-secure", known), Some("paypal.com"));
        assert_eq!(combosquatted("secure-paypal", known), Some("paypal.com"));
        assert_eq!(combosquatted("paypal", known), None);
        assert_eq!(combosquatted("x-secure", known), None);
        // A listed name that is an ordinary word is not a brand token in a longer name.
        for name in [
            "dev-archive",
            "mail-archive",
            "windows-help",
            "the-stationery-office",
        ] {
            assert_eq!(combosquatted(name, known), None, "{name}");
        }
        assert_eq!(
            combosquatted("google-webhosting", known),
            Some("google.com")
        );
    }
}
