//! What a name imitates beyond the plain UTS 39 skeleton: skeletons with diacritics folded
//! away (`googlé.com`, `gøøgle.com`), letters and digits that read as ASCII ones, a well-known
//! domain spelled out inside a longer name, and a well-known name with words added.

use icu_properties::props::GeneralCategory;
use icu_properties::CodePointMapData;

use super::known::{skeleton_of, Known, DISTINCTIVE_NAME};

/// Letters without a decomposition that read as ASCII letters or digits, and that UTS 39's
/// confusables leave out or map to a letter with an overlay: stroked and barred letters,
/// ligatures, and letters and digits of other scripts that browsers treat as look-alikes.
const FOLDS: &[(char, &str)] = &[
    // Latin letters with a stroke, a bar or a hook, and ligatures.
    ('æ', "ae"),
    ('đ', "d"),
    ('ð', "o"),
    ('ħ', "h"),
    ('ı', "i"),
    ('ȷ', "j"),
    ('ĸ', "k"),
    ('ł', "l"),
    ('ŋ', "n"),
    ('ø', "o"),
    ('œ', "ce"),
    ('þ', "p"),
    ('ŧ', "t"),
    ('ƀ', "b"),
    ('ƅ', "b"),
    ('ɨ', "i"),
    ('ƶ', "z"),
    ('ɇ', "e"),
    ('ȼ', "c"),
    // Greek and Cyrillic letters that pass for Latin ones in a browser's font.
    ('ϼ', "p"),
    ('κ', "k"),
    ('ω', "w"),
    ('χ', "x"),
    ('ӕ', "ae"),
    ('ҏ', "p"),
    ('н', "h"),
    ('ћ', "h"),
    ('ң', "h"),
    ('ҥ', "h"),
    ('ӈ', "h"),
    ('ӊ', "h"),
    ('ԋ', "h"),
    ('ԧ', "h"),
    ('ԩ', "h"),
    ('к', "k"),
    ('қ', "k"),
    ('ҝ', "k"),
    ('ҟ', "k"),
    ('ҡ', "k"),
    ('ӄ', "k"),
    ('ԟ', "k"),
    ('п', "n"),
    ('ԥ', "n"),
    ('т', "t"),
    ('ҭ', "t"),
    ('ԏ', "t"),
    ('ь', "b"),
    ('ҍ', "b"),
    ('в', "b"),
    ('ш', "w"),
    ('щ', "w"),
    ('м', "m"),
    ('ӎ', "m"),
    ('є', "e"),
    ('ҽ', "e"),
    ('ҿ', "e"),
    ('ґ', "r"),
    ('ғ', "f"),
    ('ӻ', "f"),
    ('ҫ', "c"),
    ('ұ', "y"),
    ('ҳ', "x"),
    ('ӽ', "x"),
    ('ӿ', "x"),
    ('ԃ', "d"),
    ('ԍ', "g"),
    // Hebrew, Myanmar, Thai, Lao and Malayalam letters likewise.
    ('ח', "n"),
    ('ד', "t"),
    ('ן', "l"),
    ('ၔ', "e"),
    ('င', "c"),
    ('ဌ', "g"),
    ('၂', "j"),
    ('ട', "s"),
    ('ร', "s"),
    ('ຣ', "s"),
    ('ຮ', "s"),
    ('บ', "u"),
    ('ບ', "u"),
    ('พ', "w"),
    ('ฟ', "w"),
    ('ພ', "w"),
    ('ຟ', "w"),
    ('ก', "n"),
    ('เ', "l"),
    ('แ', "ll"),
    ('๐', "o"),
    // Ideographs that pass for Latin letters or a hyphen, and the sharp s for a b.
    ('丅', "t"),
    ('丆', "t"),
    ('七', "t"),
    ('丫', "y"),
    ('乂', "x"),
    ('一', "-"),
    ('ß', "b"),
    // Digits of other systems that pass for letters, and letters and digits that pass for
    // ASCII digits.
    ('०', "o"),
    ('০', "o"),
    ('੦', "o"),
    ('૦', "o"),
    ('ଠ', "o"),
    ('୦', "o"),
    ('೦', "o"),
    ('৭', "q"),
    ('੧', "q"),
    ('૧', "q"),
    ('θ', "0"),
    ('२', "2"),
    ('২', "2"),
    ('੨', "2"),
    ('૨', "2"),
    ('೩', "2"),
    ('೭', "2"),
    ('շ', "2"),
    ('з', "3"),
    ('ҙ', "3"),
    ('ӡ', "3"),
    ('उ', "3"),
    ('ও', "3"),
    ('ਤ', "3"),
    ('੩', "3"),
    ('૩', "3"),
    ('౩', "3"),
    ('ဒ', "3"),
    ('ვ', "3"),
    ('პ', "3"),
    ('ੜ', "3"),
    ('კ', "3"),
    ('੫', "4"),
    ('丩', "4"),
    ('ㄐ', "4"),
    ('ճ', "6"),
    ('৪', "8"),
    ('੪', "8"),
    ('୫', "8"),
    ('૭', "9"),
    ('୨', "9"),
    ('౨', "9"),
];

/// What [`FOLDS`] reads `c` as, if it lists it.
pub(crate) fn fold(c: char) -> Option<&'static str> {
    FOLDS.iter().find(|&&(f, _)| f == c).map(|&(_, to)| to)
}

fn is_nonspacing_mark(c: char) -> bool {
    CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::NonspacingMark
}

/// `s` with its diacritics removed (NFD, nonspacing marks dropped) and the letters of
/// [`FOLDS`] replaced.
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
/// has (longest first), when the host is not that domain or under it.
pub fn imitated_suffix(host: &str, known: &Known) -> Option<&'static str> {
    let host = host.trim_end_matches('.');
    if host.len() > 4 * known.max_len + 16 {
        // Only the last four labels count: take them without walking a hostile host.
        let start = host
            .rmatch_indices('.')
            .nth(3)
            .map_or(0, |(dot, _)| dot + 1);
        return imitated_suffix(&host[start..], known);
    }
    let dots: Vec<usize> = host.match_indices('.').map(|(i, _)| i).collect();
    let starts = std::iter::once(0).chain(dots.iter().map(|d| d + 1));
    let count = dots.len() + 1;
    for (i, start) in starts.enumerate() {
        let labels = count - i;
        if !(2..=4).contains(&labels) {
            continue;
        }
        if let Some(imitated) = known.imitated_folded(&host[start..]) {
            return Some(imitated);
        }
    }
    None
}

/// A well-known domain spelled out in `name` with dots or hyphens between its labels
/// (`paypal.com-login`, `www.paypal-com`): the first run of words, in order of their first
/// word, that is a listed domain as written or with its hyphens read as dots.
pub fn spelled_out(name: &str, known: &Known) -> Option<String> {
    // Where each word starts and ends.
    let mut words = Vec::new();
    let mut start = 0;
    for (i, b) in name.bytes().enumerate() {
        if matches!(b, b'.' | b'-') {
            words.push((start, i));
            start = i + 1;
        }
    }
    words.push((start, name.len()));
    if words.len() < 2 {
        return None;
    }
    let mut dotted = String::new();
    for (i, &(from, _)) in words.iter().enumerate() {
        // Runs no longer than the longest listed domain: a hostile host of 500k labels must
        // not cost every run of them.
        for &(_, to) in words.iter().skip(i + 1).take(2 * known.max_labels) {
            let run = &name[from..to];
            if run.len() > known.max_len {
                break;
            }
            if known.contains(run) {
                return Some(run.to_owned());
            }
            if run.contains('-') {
                dotted.clear();
                dotted.extend(run.chars().map(|c| if c == '-' { '.' } else { c }));
                if known.contains(&dotted) {
                    return Some(dotted);
                }
            }
        }
    }
    None
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
    fn folding_removes_marks_and_maps_stroked_letters() {
        assert_eq!(fold_diacritics("googlé.com"), "google.com");
        assert_eq!(fold_diacritics("gøøgle.com"), "google.com");
        assert_eq!(fold_diacritics("paypał.com"), "paypal.com");
        assert_eq!(fold_diacritics("AMAZÖN.com"), "amazon.com");
        assert_eq!(folded_skeleton("fácebook.com"), skeleton_of("facebook.com"));
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
    fn combosquatting_needs_a_distinctive_word() {
        let known = known();
        assert_eq!(combosquatted("paypal-secure", known), Some("paypal.com"));
        assert_eq!(combosquatted("secure-paypal", known), Some("paypal.com"));
        assert_eq!(combosquatted("paypal", known), None);
        assert_eq!(combosquatted("x-secure", known), None);
    }
}
