//! A labelled corpus for the host analysis: spoofs (homographs in Cyrillic, Greek and Armenian,
//! mixed scripts, fullwidth forms, deviation characters, invisible characters, credential tricks,
//! IPv4 in hex, octal, short and integer forms, RFC 3986 differentials) and legitimate
//! internationalised domains that must not be flagged. Each case asserts its exact finding ids
//! and the display decision (None: the host has no IDN label, so nothing to decide).

use urlscope::inspect::known::known;
use urlscope::inspect::label::{HostContext, LabelContext};
use urlscope::inspect::policy::{self, chromium::Platform};
use urlscope::Report;

struct Case {
    input: &'static str,
    ids: &'static [&'static str],
    display_unicode: Option<bool>,
}

const fn c(
    input: &'static str,
    ids: &'static [&'static str],
    display_unicode: Option<bool>,
) -> Case {
    Case {
        input,
        ids,
        display_unicode,
    }
}

const CASES: &[Case] = &[
    // Ordinary hosts: nothing to say.
    c("https://example.com/", &[], None),
    c("https://www.google.com/search?q=x", &[], None),
    c("https://mail.google.com/", &[], None),
    c("https://github.com/rust-lang/rust", &[], None),
    c("https://sub.example.co.uk/a", &[], None),
    c("https://paypal.com/", &[], None),
    c("https://www.paypal.com/signin", &[], None),
    c("http://8.8.8.8/", &[], None),
    c("http://[2606:4700::1111]/", &[], None),
    c("mailto:someone@example.org", &[], None),
    // Schemes that are not a place on the network.
    c(
        "file:///etc/hosts",
        &["scheme-local", "parser-refuses"],
        None,
    ),
    c(
        "javascript:alert(document.cookie)",
        &["scheme-script"],
        None,
    ),
    c("JavaScript:alert(1)", &["scheme-script"], None),
    c(
        "data:text/html,<script>alert(1)</script>",
        &["scheme-data"],
        None,
    ),
    c("blob:https://example.com/1234", &["scheme-local"], None),
    // Legitimate internationalised domains: information only, shown in Unicode.
    c(
        "https://münchen.de/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://xn--mnchen-3ya.de/", &["idn"], Some(true)),
    c(
        "https://bücher.example/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://例え.jp/", &["idn", "parser-refuses"], Some(true)),
    c(
        "https://ドメイン名例.jp/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://пример.рф/", &["idn", "parser-refuses"], Some(true)),
    c("https://xn--e1afmkfd.xn--p1ai/", &["idn"], Some(true)),
    c(
        "https://παράδειγμα.ελ/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://한국.kr/", &["idn", "parser-refuses"], Some(true)),
    c("https://中国.cn/", &["idn", "parser-refuses"], Some(true)),
    c(
        "https://مثال.إختبار/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://उदाहरण.भारत/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://españa.es/", &["idn", "parser-refuses"], Some(true)),
    c("https://zürich.ch/", &["idn", "parser-refuses"], Some(true)),
    c(
        "https://ŀl.cat/",
        &["mapped-code-points", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://col·legi.cat/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://þingvellir.is/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://mədəniyyət.az/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    // Where browsers show Unicode: Bopomofo with Han, the semi-voiced mark after kana,
    // Georgian and Shan digits under their own TLDs, kana beside Latin in brand names, and a
    // script under its country's ASCII TLD.
    c(
        "https://注音ㄅㄆㄇㄈ.tw/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://ト\u{309A}.jp/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://ჽჿხ.ge/", &["idn", "parser-refuses"], Some(true)),
    c("https://႐႑႕႖႗.mm/", &["idn", "parser-refuses"], Some(true)),
    c(
        "https://eコマース.jp/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://ビタミンb1.com/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    c("https://ѕсоре.ru/", &["idn", "parser-refuses"], Some(true)),
    c("https://ոսւօ.am/", &["idn", "parser-refuses"], Some(true)),
    c("https://ικα.gr/", &["idn", "parser-refuses"], Some(true)),
    // Symbols and emoji are valid IDNA but not identifiers: every browser shows them as
    // Punycode, which a reader should know (a warning, not a spoof).
    c(
        "https://☕.example/",
        &["shown-as-punycode", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://😀.example/",
        &["shown-as-punycode", "parser-refuses"],
        Some(false),
    ),
    // ASCII punctuation in an IDN label is outside ICU's allowed set: Chromium shows Punycode.
    c(
        "https://안녕!.kr/",
        &["shown-as-punycode", "parser-refuses"],
        Some(false),
    ),
    // ICU's ToUnicode checks hyphens, which the URL Standard's does not.
    c(
        "https://ру--авто.ru/",
        &["hyphens-3-4", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://-ü.com/",
        &["shown-as-punycode", "parser-refuses"],
        Some(false),
    ),
    // ł reads as t too: Chromium gives the host a skeleton per reading.
    c(
        "https://łwitter.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    // Homographs: whole-script confusables and look-alikes of well-known domains.
    c(
        "https://аррӏе.com/",
        &[
            "lookalike-domain",
            "whole-script-confusable",
            "parser-refuses",
        ],
        Some(false),
    ),
    c(
        "https://www.аррӏе.com/",
        &[
            "lookalike-domain",
            "whole-script-confusable",
            "parser-refuses",
        ],
        Some(false),
    ),
    c(
        "https://xn--80ak6aa92e.com/",
        &["lookalike-domain", "whole-script-confusable"],
        Some(false),
    ),
    c(
        "https://раураӏ.com/",
        &[
            "lookalike-domain",
            "whole-script-confusable",
            "parser-refuses",
        ],
        Some(false),
    ),
    // ց is no Latin look-alike to Chromium: only UTS 39's skeleton reads the label as Latin.
    c(
        "https://ցօօց.com/",
        &["whole-script-confusable", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://ոսւօ.com/",
        &["whole-script-confusable", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://ροο.com/",
        &["whole-script-confusable", "parser-refuses"],
        Some(false),
    ),
    // Mixed scripts in one label.
    c(
        "https://раypal.com/",
        &["lookalike-domain", "mixed-script", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://gооgle.com/",
        &["lookalike-domain", "mixed-script", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://аmazon.com/",
        &["lookalike-domain", "mixed-script", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://ρaypal.com/",
        &["lookalike-domain", "mixed-script", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://examрle.org/",
        &["mixed-script", "parser-refuses"],
        Some(false),
    ),
    // Latin letters with diacritics, and letters such as ł ø, that read as a well-known name.
    c(
        "https://googlé.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://gøøgle.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://fácebook.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://yóutube.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://paypał.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://amazön.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://www.googlé.com/",
        &["diacritic-lookalike", "parser-refuses"],
        Some(false),
    ),
    // Digit look-alikes.
    c(
        "https://1շ.com/",
        &["digit-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://12з4567890.com/",
        &["digit-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://০২.com/",
        &["digit-lookalike", "parser-refuses"],
        Some(true),
    ),
    c(
        "https://1२3.com/",
        &["digit-lookalike", "parser-refuses"],
        Some(false),
    ),
    // Whole-script confusables of ASCII letters under a generic TLD.
    c(
        "https://ск.com/",
        &["whole-script-confusable", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://ικα.com/",
        &["whole-script-confusable", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://חסד.com/",
        &["whole-script-confusable", "parser-refuses"],
        Some(false),
    ),
    // Kana and CJK out of context.
    c(
        "https://ー動画ー.com/",
        &["kana-cjk-context", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://abc・def.jp/",
        &["kana-cjk-context", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://かヽ.jp/",
        &["kana-cjk-context", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://example.com丶test/",
        &["kana-cjk-context", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://七est.net/",
        &["kana-cjk-context", "parser-refuses"],
        Some(false),
    ),
    c("https://ノンソ.jp/", &["idn", "parser-refuses"], Some(true)),
    // Combining marks on i, j and l, and repeated marks.
    c(
        "https://pi\u{307}xel.com/",
        &["combining-mark", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://l\u{307}ace.com/",
        &["combining-mark", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://á\u{301}.com/",
        &["combining-mark", "parser-refuses"],
        Some(false),
    ),
    // Letters allowed only under the TLD of the language that uses them.
    c(
        "https://aþcdef.com/",
        &["tld-restricted-letter", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://əxample.com/",
        &["tld-restricted-letter", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://l·l.com/",
        &["tld-restricted-letter", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://a·b.cat/",
        &["tld-restricted-letter", "parser-refuses"],
        Some(false),
    ),
    // Hyphen and apostrophe look-alikes.
    c(
        "https://abc‐def.com/",
        &["punctuation-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://a’b.com/",
        &["punctuation-lookalike", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://a゠b.com/",
        &["punctuation-lookalike", "parser-refuses"],
        Some(false),
    ),
    // Non-ASCII Latin mixed with Han or Hangul.
    c(
        "https://héllo中国.cn/",
        &["latin-mixed-with-cjk", "parser-refuses"],
        Some(false),
    ),
    c(
        "https://hello中国.cn/",
        &["idn", "parser-refuses"],
        Some(true),
    ),
    // Hyphens in the third and fourth positions.
    c("https://ab--cd.com/", &["hyphens-3-4"], None),
    c("https://xn--ab.com/", &["hyphens-3-4"], Some(false)),
    c("https://a-b-c.com/", &[], None),
    // A trailing dot is the same DNS name: no look-alike, but another origin.
    c("https://google.com./", &["trailing-dot"], None),
    c("https://www.paypal.com./signin", &["trailing-dot"], None),
    c(
        "https://paypa1.com./",
        &["lookalike-domain", "trailing-dot"],
        None,
    ),
    // A brand's own domains imitate nothing of that brand; a name that is an ordinary word
    // (archive, office, windows) is not matched as a word of a longer name.
    c("https://google-styleguide.googlecode.com/", &[], None),
    c("https://lh3.googleusercontent.com/a", &[], None),
    c("https://www.youtube-nocookie.com/embed/x", &[], None),
    c("https://www.dev-archive.net/", &[], None),
    c("https://www.mail-archive.com/", &[], None),
    c("https://www.windows-help.net/", &[], None),
    c(
        "https://www.parliament.the-stationery-office.co.uk/",
        &[],
        None,
    ),
    c("https://offices.com/", &[], None),
    c("https://0ffice.com/", &["lookalike-domain"], None),
    c("https://google-login.example/", &["combosquatting"], None),
    c(
        "https://paypal-login.googlecode.com/",
        &["combosquatting"],
        None,
    ),
    // One edit from a well-known domain, swapped characters, a well-known name with words.
    c("https://paypall.com/", &["typo-lookalike"], None),
    c("https://paypl.com/", &["typo-lookalike"], None),
    c("https://paypak.com/", &["typo-lookalike"], None),
    c("https://pyapal.com/", &["swapped-characters"], None),
    c("https://gogole.com/", &["swapped-characters"], None),
    c("https://paypal-secure.com/", &["combosquatting"], None),
    c("https://secure-paypal.com/", &["combosquatting"], None),
    c("https://x-secure.com/", &[], None),
    c("https://example.org/", &[], None),
    // ASCII look-alikes of well-known domains.
    c("https://paypa1.com/", &["lookalike-domain"], None),
    c("https://rnicrosoft.com/", &["lookalike-domain"], None),
    c("https://pay-pal.com/", &["lookalike-domain"], None),
    // Well-known domains spelled out left of another registrable domain.
    c(
        "https://www.paypal.com.evil.example/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://paypal-com.evil.example/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://login.microsoftonline.com.attacker.net/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://apple.com.evil.co.uk/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://paypal.com-login.example/",
        &["known-domain-in-subdomain"],
        None,
    ),
    c(
        "https://secure.paypal-com.example/",
        &["known-domain-in-subdomain"],
        None,
    ),
    // Fullwidth forms and other mapped code points.
    c(
        "https://ｇｏｏｇｌｅ.com/",
        &["mapped-code-points", "parser-refuses"],
        None,
    ),
    c(
        "https://ｅｘａｍｐｌｅ。com/",
        &["mapped-code-points", "parser-refuses"],
        None,
    ),
    c(
        "https://example．com/",
        &["mapped-code-points", "parser-refuses"],
        None,
    ),
    c("https://EXAMPLE.com/", &["uppercase"], None),
    // Strict RFC 3986 keeps the percent-encoded host, which `diff` counts as another destination.
    c(
        "https://exam%70le.org/",
        &["parser-differential", "percent-encoded-host"],
        None,
    ),
    // The hex digits of "%6D" are not uppercase letters of the host.
    c(
        "https://exa%6Dple.com/",
        &["parser-differential", "percent-encoded-host"],
        None,
    ),
    c(
        "https://EXA%6Dple.com/",
        &["parser-differential", "percent-encoded-host", "uppercase"],
        None,
    ),
    // Deviation characters: curl keeps the host as typed, which IDNA2003 and IDNA2008 map to
    // different places.
    c(
        "https://faß.de/",
        &["deviation-character", "parser-differential"],
        Some(true),
    ),
    c(
        "https://βόλος.com/",
        &["deviation-character", "parser-differential"],
        Some(true),
    ),
    // Invisible and bidi control code points.
    c(
        "https://a\u{200B}b.com/",
        &["invisible-code-point", "parser-refuses"],
        None,
    ),
    c(
        "https://exam\u{AD}ple.com/",
        &["invisible-code-point", "parser-refuses"],
        None,
    ),
    c(
        "https://example.com/\u{202E}fdp.exe",
        &["bidi-control"],
        None,
    ),
    c(
        "https://example.com/\u{2066}x\u{2069}",
        &["bidi-control"],
        None,
    ),
    c("https://a\u{202E}b.com/", &["bidi-control"], None),
    // A format character that the hand-written list lacked, found from the Unicode data
    // (General_Category Cf): an Egyptian hieroglyph format control.
    c(
        "https://example.com/a\u{13430}b",
        &["invisible-code-point"],
        None,
    ),
    // Credentials, and credentials shaped like a host.
    c("https://user:pw@example.com/", &["credentials"], None),
    c("ftp://anonymous@ftp.example.org/", &["credentials"], None),
    c(
        "https://paypal.com@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com:443@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://www.google.com@evil.example/login",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "http://127.0.0.1@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    // A host anywhere in the userinfo: after an @ or a :, behind an encoded delimiter.
    c(
        "https://user@paypal.com@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://user:x@paypal.com@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://x:paypal.com@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com@@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com%2F@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com%3A443@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com%5C@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com%23@evil.example/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com%40evil.net@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    // Behind a look-alike delimiter: U+FF0F FULLWIDTH SOLIDUS, U+2215 DIVISION SLASH, U+FE6B
    // SMALL COMMERCIAL AT, U+FF1A FULLWIDTH COLON.
    c(
        "https://paypal.com\u{FF0F}x@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com\u{2215}@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://x\u{FE6B}paypal.com@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c(
        "https://paypal.com\u{FF1A}443@evil.net/",
        &["credentials-look-like-host"],
        None,
    ),
    c("https://user:secret@evil.net/", &["credentials"], None),
    // IPv4 in non-canonical forms (kept as typed by strict RFC 3986 and the http crate), and
    // internal ranges.
    c(
        "http://0x7f.1/",
        &[
            "internal-address",
            "non-canonical-ipv4",
            "parser-differential",
        ],
        None,
    ),
    c(
        "http://017700000001/",
        &[
            "internal-address",
            "non-canonical-ipv4",
            "parser-differential",
        ],
        None,
    ),
    c(
        "http://2130706433/",
        &[
            "internal-address",
            "non-canonical-ipv4",
            "parser-differential",
        ],
        None,
    ),
    c(
        "http://127.1/",
        &[
            "internal-address",
            "non-canonical-ipv4",
            "parser-differential",
        ],
        None,
    ),
    c(
        "http://0x7f000001/",
        &[
            "internal-address",
            "non-canonical-ipv4",
            "parser-differential",
        ],
        None,
    ),
    c(
        "http://0300.0250.0.1/",
        &[
            "internal-address",
            "non-canonical-ipv4",
            "parser-differential",
        ],
        None,
    ),
    c(
        "http://0xd8.0x3a.0xd6.0xce/",
        &["non-canonical-ipv4", "parser-differential"],
        None,
    ),
    c("http://192.168.0.1/", &["internal-address"], None),
    c("http://10.0.0.1/", &["internal-address"], None),
    c(
        "http://169.254.169.254/latest/meta-data/",
        &["cloud-metadata"],
        None,
    ),
    c("http://[fd00:ec2::254]/", &["cloud-metadata"], None),
    c(
        "http://[::ffff:169.254.169.254]/",
        &["cloud-metadata"],
        None,
    ),
    c("http://169.254.1.1/", &["internal-address"], None),
    c("http://0.0.0.0/", &["internal-address"], None),
    c("http://[::1]/", &["internal-address"], None),
    c("http://[::ffff:127.0.0.1]/", &["internal-address"], None),
    c("http://[::ffff:8.8.8.8]/", &[], None),
    c("http://[fe80::1]/", &["internal-address"], None),
    c("http://[2001:db8::1]/", &["internal-address"], None),
    // Internal destinations by name (RFC 6761 § 6.3, private-use names, cloud metadata).
    c("http://localhost:8080/", &["internal-name"], None),
    c("http://localhost/", &["internal-name"], None),
    c("http://foo.localhost/", &["internal-name"], None),
    c(
        "http://metadata.google.internal/",
        &["cloud-metadata"],
        None,
    ),
    c("http://printer.local/", &["internal-name"], None),
    c("http://router.home.arpa/", &["internal-name"], None),
    c("http://localhost.example.com/", &[], None),
    c("http://notlocalhost/", &[], None),
    // Spellings of localhost that IDNA ignores or maps.
    c(
        "http://local\u{AD}host/",
        &["internal-name", "invisible-code-point", "parser-refuses"],
        None,
    ),
    c(
        "http://local\u{200B}host/",
        &["internal-name", "invisible-code-point", "parser-refuses"],
        None,
    ),
    c(
        "http://loca\u{180B}lhost/",
        &["internal-name", "invisible-code-point", "parser-refuses"],
        None,
    ),
    c(
        "http://localho\u{FB06}/",
        &["internal-name", "mapped-code-points", "parser-refuses"],
        None,
    ),
    c(
        "http://lo\u{3388}host/",
        &["internal-name", "mapped-code-points", "parser-refuses"],
        None,
    ),
    // A non-special URL's host is opaque, but a client connects to what it spells.
    c(
        "gopher://127.0.0.1:6379/_FLUSHALL",
        &["internal-address"],
        None,
    ),
    c("ldap://169.254.169.254/", &["cloud-metadata"], None),
    c("redis://127.0.0.1:6379/", &["internal-address"], None),
    c("dict://localhost:11211/stat", &["internal-name"], None),
    c("redis://%31%32%37.0.0.1/", &["internal-address"], None),
    c("redis://8.8.8.8/", &[], None),
    c("redis://example.com/", &[], None),
    // An IPv6 address that carries an internal IPv4 address.
    c("http://[::127.0.0.1]/", &["internal-address"], None),
    c("http://[64:ff9b::a9fe:a9fe]/", &["cloud-metadata"], None),
    c("http://[64:ff9b::8.8.8.8]/", &[], None),
    // What you typed is not what resolves.
    c(
        "https:\\\\example.com\\path",
        &["backslash-as-slash", "parser-refuses"],
        None,
    ),
    c(
        "ht\ttps://example.com/",
        &["tab-or-newline-removed", "parser-refuses"],
        None,
    ),
    c(
        "  https://example.com/  ",
        &["trimmed", "parser-refuses"],
        None,
    ),
    // Parser differentials: a built-in parser (rust-url, curl, RFC 3986, http) reads another
    // host.
    c(
        "http://evil.example\\@good.example/",
        &["backslash-as-slash", "parser-differential"],
        None,
    ),
    c(
        "https://evil.example\\\\@good.example/",
        &["backslash-as-slash", "parser-differential"],
        None,
    ),
    // curl, RFC 3986 and http reject the tab and rust-url removes it as we do: no parser
    // reaches another host.
    c(
        "http://ex\tample.com/",
        &["tab-or-newline-removed", "parser-refuses"],
        None,
    ),
    c("http://good.example#@evil.example/", &[], None),
];

#[test]
fn labelled_corpus() {
    let mut failures = Vec::new();
    for case in CASES {
        let report = Report::new(case.input, None);
        let Some(analysis) = &report.host_analysis else {
            failures.push(format!("{:?}: no analysis", case.input));
            continue;
        };
        let mut ids = analysis.ids();
        ids.sort_unstable();
        let mut expected = case.ids.to_vec();
        expected.sort_unstable();
        let chromium = analysis.decision("chromium");
        let display = chromium.map(|d| d.unicode);
        if ids != expected || display != case.display_unicode {
            let why = chromium
                .and_then(|d| d.first_refusal())
                .map(|l| format!(" ({:?} {:?})", l.rule, l.code_points))
                .unwrap_or_default();
            failures.push(format!(
                "{:?}: expected {expected:?} display {:?}, got {ids:?} display {display:?}{why}",
                case.input, case.display_unicode
            ));
        }
    }
    eprintln!("host analysis corpus: {} cases", CASES.len());
    assert!(CASES.len() >= 80);
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn legitimate_idns_get_no_warning() {
    for case in CASES.iter().filter(|c| c.ids == ["idn"]) {
        let report = Report::new(case.input, None);
        let analysis = report.host_analysis.expect("analysis");
        assert!(
            analysis
                .findings
                .iter()
                .all(|f| f.severity == urlscope::inspect::Severity::Info),
            "{:?}",
            case.input
        );
    }
}

#[test]
fn findings_name_the_code_points_and_where_they_are() {
    let report = Report::new("https://раypal.com/", None);
    let analysis = report.host_analysis.expect("analysis");
    let mixed = analysis
        .findings
        .iter()
        .find(|f| f.id == "mixed-script")
        .expect("mixed-script");
    let points: Vec<(usize, &str)> = mixed
        .code_points
        .iter()
        .map(|p| (p.position, p.code_point.as_str()))
        .collect();
    assert_eq!(
        points,
        vec![
            (8, "U+0440 CYRILLIC SMALL LETTER ER"),
            (9, "U+0430 CYRILLIC SMALL LETTER A")
        ]
    );
    assert_eq!(
        analysis.registrable_domain.as_deref(),
        Some("xn--ypal-43d9g.com")
    );
    let report = Report::new("http://0x7f.1/", None);
    let ip = report
        .host_analysis
        .and_then(|a| a.ip)
        .expect("ip analysis");
    assert_eq!(ip.range, Some("loopback"));
    assert!(ip
        .notations
        .contains(&("integer".to_owned(), "2130706433".to_owned())));
    assert!(ip
        .notations
        .contains(&("as typed".to_owned(), "0x7f.1".to_owned())));
}

/// One rule of one policy: the smallest host whose label the rule refuses (it decides first),
/// and a host like it that the rule lets through.
struct RuleCase {
    policy: &'static str,
    rule: &'static str,
    refused: &'static str,
    allowed: &'static str,
}

const fn r(
    policy: &'static str,
    rule: &'static str,
    refused: &'static str,
    allowed: &'static str,
) -> RuleCase {
    RuleCase {
        policy,
        rule,
        refused,
        allowed,
    }
}

const RULE_CASES: &[RuleCase] = &[
    r("chromium", "to-unicode", "xn--ab.com", "xn--mnchen-3ya.de"),
    r("chromium", "allowed-set", "a☕.com", "münchen.de"),
    r("chromium", "allowed-set", "aĸ.com", "ak\u{e9}.com"),
    // idn_spoof_checker.cc: ICU's allowed set has the ASCII of identifiers only.
    r("chromium", "allowed-set", "안녕!.kr", "안녕.kr"),
    // url_formatter.cc: a label ICU's uidna_labelToUnicode reports an error for (here
    // UIDNA_ERROR_HYPHEN_3_4) stays in Punycode.
    r("chromium", "check-hyphens", "ру--авто.ru", "ру-авто.ru"),
    r("chromium", "check-hyphens", "ü-.com", "ü-a.com"),
    r("chromium", "nv8-punctuation", "a\u{2010}b.com", "l·l.cat"),
    r("chromium", "restriction-level", "аb.com", "аб.com"),
    r("chromium", "invisible", "á\u{301}.com", "á.com"),
    r("chromium", "mixed-numbers", "१1.com", "é12.com"),
    r("chromium", "tld-specific-characters", "aþ.com", "aþ.is"),
    r("chromium", "tld-specific-characters", "aə.com", "aə.az"),
    r("chromium", "unsafe-middle-dot", "l·l.com", "l·l.cat"),
    r("chromium", "whole-script-confusable", "ск.com", "ск.ru"),
    r("chromium", "whole-script-confusable", "ικα.com", "ικα.gr"),
    r("chromium", "whole-script-confusable", "บบ.com", "บบ.th"),
    r("chromium", "digit-lookalikes", "1з.com", "1ж.com"),
    r("chromium", "non-ascii-latin-mixed", "é中.cn", "e中.cn"),
    r("chromium", "kana-slash", "aノb.com", "aノ.com"),
    r("chromium", "katakana-iteration-mark", "かヽ.jp", "カヽ.jp"),
    r("chromium", "kana-he", "カへカ.jp", "かへか.jp"),
    r("chromium", "prolonged-sound-mark", "ーア.jp", "アー.jp"),
    r("chromium", "katakana-middle-dot", "a・b.jp", "ア・イ.jp"),
    r(
        "chromium",
        "cjk-lookalike-ideograph",
        "七est.net",
        "七日.jp",
    ),
    r(
        "chromium",
        "combining-mark-after-non-lgc",
        "aか\u{301}.jp",
        "aか.jp",
    ),
    r("chromium", "dotless-i-with-mark", "ı\u{301}x.com", "ıx.com"),
    r(
        "chromium",
        "kana-voiced-sound-mark",
        "aト\u{309A}.jp",
        "ト\u{309A}.jp",
    ),
    r(
        "chromium",
        "dot-above-ijl",
        "i\u{307}x.com",
        "q\u{307}x.com",
    ),
    r(
        "chromium",
        "top-domain-skeleton",
        "googlé.com",
        "googlé.example",
    ),
    r("firefox", "to-unicode", "xn--ab.com", "xn--mnchen-3ya.de"),
    r("firefox", "blocklist-chars", "צה״ל.il", "צהל.il"),
    r("firefox", "identifier-type", "a☕.com", "aé.com"),
    r("firefox", "script-combination", "аb.com", "ab中.com"),
    r("firefox", "prolonged-sound-mark", "aー.com", "アー.jp"),
    r("firefox", "kana-he", "カへ.jp", "かへ.jp"),
    r("firefox", "katakana-iteration-mark", "かヽ.jp", "カヽ.jp"),
    r("firefox", "cjk-slash", "aノb.com", "アノ.jp"),
    r("firefox", "katakana-middle-dot", "a・b.jp", "ア・イ.jp"),
    r(
        "firefox",
        "combining-mark-after-non-lgc",
        "か\u{301}.jp",
        "x\u{301}.com",
    ),
    r("firefox", "dot-above-ijl", "i\u{307}x.com", "q\u{307}x.com"),
    r("firefox", "middle-dot", "l·l.com", "l·l.cat"),
    r("firefox", "tld-specific-characters", "þ.com", "þ.is"),
    r("firefox", "modifier-quotes", "a\u{2BC}b.com", "aéb.com"),
    r("firefox", "cjk-ideograph", "七est.net", "七1.net"),
    r("firefox", "mixed-numbers", "१1.com", "é12.com"),
    r(
        "firefox",
        "repeated-mark",
        "x\u{301}\u{301}.com",
        "x\u{301}.com",
    ),
    r("firefox", "mark-script", "a\u{64B}b.com", "aéb.com"),
    r("firefox", "dotless-i-with-mark", "ı\u{301}x.com", "ıx.com"),
    r("firefox", "digit-lookalikes", "1з.com", "1ж.com"),
    r("firefox", "cyrillic-confusable", "ск.com", "ск.ru"),
    r("firefox", "thai-confusable", "บบ.com", "บบ.th"),
    r("uts39", "to-unicode", "xn--ab.com", "xn--mnchen-3ya.de"),
    r("uts39", "identifier-profile", "a☕.com", "aé.com"),
    r("uts39", "highly-restrictive", "аb.com", "ab中.com"),
    r("uts39", "invisible", "á\u{301}.com", "á.com"),
    r("uts39", "mixed-numbers", "१1.com", "é12.com"),
    r("uts39", "deviation-character", "faß.de", "fäss.de"),
    r("uts39", "whole-script-confusable", "ικα.com", "ικα.gr"),
];

/// The rule that decided the host under the policy: the host rule, or the first label's.
fn deciding_rule(host: &str, policy: &str) -> Result<Option<&'static str>, String> {
    let report = Report::new(&format!("https://{host}/"), None);
    let analysis = report
        .host_analysis
        .ok_or_else(|| format!("{host}: no analysis"))?;
    let decision = analysis
        .decision(policy)
        .ok_or_else(|| format!("{host}: no {policy} decision"))?;
    Ok(match (&decision.host_rule, decision.first_refusal()) {
        (Some(h), _) => Some(h.rule),
        (None, Some(label)) => label.rule,
        (None, None) => None,
    })
}

#[test]
fn every_rule_of_every_policy_refuses_its_smallest_host_and_no_other() {
    let mut failures = Vec::new();
    for case in RULE_CASES {
        match deciding_rule(case.refused, case.policy) {
            Ok(Some(rule)) if rule == case.rule => {}
            other => failures.push(format!(
                "{} {}: {:?} should be refused by it, got {other:?}",
                case.policy, case.rule, case.refused
            )),
        }
        match deciding_rule(case.allowed, case.policy) {
            Ok(rule) if rule != Some(case.rule) => {}
            other => failures.push(format!(
                "{} {}: {:?} should not be refused by it, got {other:?}",
                case.policy, case.rule, case.allowed
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_of_every_policy_has_a_case() {
    for policy in urlscope::inspect::policy::POLICIES {
        let rules = policy
            .label_rules
            .iter()
            .map(|r| r.name)
            .chain(policy.host_rules.iter().map(|r| r.name));
        for rule in rules {
            assert!(
                RULE_CASES
                    .iter()
                    .any(|c| c.policy == policy.name && c.rule == rule),
                "{} {rule} has no case",
                policy.name
            );
        }
    }
}

/// Hosts that Chromium and Firefox show differently, with both decisions (true: Unicode).
const DIFFERENCES: &[(&str, bool, bool)] = &[
    // Chromium compares the host, diacritics removed, with top domains; Firefox does not.
    ("googlé.com", false, true),
    ("paypał.com", false, true),
    // Chromium checks whole-script confusables in many scripts, Firefox in Cyrillic and Thai.
    ("ικα.com", false, true),
    ("ոսւօ.com", false, true),
    ("חסד.com", false, true),
    // Chromium refuses non-ASCII Latin beside Han; Firefox allows Latin with Han.
    ("héllo中国.cn", false, true),
    // ICU reads a repeated mark in the decomposed form; Firefox in the label as it is.
    ("á\u{301}.com", false, true),
    // Chromium refuses the kana sound marks beside Latin; Firefox takes them after kana.
    ("aト\u{309A}.jp", false, true),
    // Firefox's blocklist has the Hebrew gershayim, and its thorn rule has no length limit.
    ("צה״ל.il", true, false),
    ("þ.com", true, false),
];

#[test]
fn chromium_and_firefox_differ_where_their_algorithms_do() {
    let mut failures = Vec::new();
    for &(host, chromium, firefox) in DIFFERENCES {
        let report = Report::new(&format!("https://{host}/"), None);
        let analysis = report.host_analysis.expect("analysis");
        let decided = |name: &str| analysis.decision(name).map(|d| d.unicode);
        let got = (decided("chromium"), decided("firefox"));
        if got != (Some(chromium), Some(firefox)) {
            failures.push(format!(
                "{host}: expected chromium {chromium} firefox {firefox}, got {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_rule_finding_is_danger_when_both_browsers_refuse_a_name_that_reads_as_a_known_one() {
    let severity = |input: &str, id: &str| {
        let report = Report::new(input, None);
        report
            .host_analysis
            .expect("analysis")
            .findings
            .iter()
            .find(|f| f.id == id)
            .map(|f| f.severity)
    };
    use urlscope::inspect::Severity::{Danger, Warn};
    // Both browsers refuse a dot above on i, and pixel.com is not listed: warn.
    assert_eq!(
        severity("https://pi\u{307}xel.com/", "combining-mark"),
        Some(Warn)
    );
    // Both refuse, and it reads as google.com: danger.
    assert_eq!(
        severity("https://googl\u{307}e.com/", "combining-mark"),
        Some(Danger)
    );
    // Firefox shows googlé.com in Unicode: its finding keeps its own severity.
    assert_eq!(
        severity("https://googl\u{e9}.com/", "diacritic-lookalike"),
        Some(Danger)
    );
    assert_eq!(
        severity("https://aþcdef.com/", "tld-restricted-letter"),
        Some(Warn)
    );
}

#[test]
fn a_host_imitating_a_known_domain_names_it() {
    let imitated = |host: &str| {
        let report = Report::new(&format!("https://{host}/"), None);
        report
            .host_analysis
            .expect("analysis")
            .imitates
            .iter()
            .map(|i| (i.domain, i.how))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        imitated("googlé.com"),
        [("google.com", "diacritic-lookalike")]
    );
    assert_eq!(
        imitated("pyapal.com"),
        [("paypal.com", "swapped-characters")]
    );
    assert_eq!(
        imitated("paypal-secure.com"),
        [("paypal.com", "combosquatting")]
    );
    assert_eq!(
        imitated("paypal.com-login.example"),
        [("paypal.com", "known-domain-in-subdomain")]
    );
    assert_eq!(imitated("example.com"), []);
    assert_eq!(imitated("www.paypal.com"), []);
}

#[test]
fn every_finding_has_a_case_and_a_line_in_the_docs() {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/host-analysis.md"
    ))
    .expect("docs/host-analysis.md");
    // The gate's findings judge every parser's reading against a gate the caller sets
    // (`--allow-host`, `--deny-internal`): the host analysis never makes them, and
    // tests/gate.rs holds their cases.
    // So are the lookups' (`check --resolve`, tests/resolve.rs).
    let gate = [
        "allowlist-bypass",
        "not-allowed",
        "internal-destination",
        "resolves-internal",
        "lookup-failed",
    ];
    for kind in urlscope::inspect::FindingId::ALL {
        assert!(
            gate.contains(&kind.id()) || CASES.iter().any(|c| c.ids.contains(&kind.id())),
            "{} has no case in the corpus",
            kind.id()
        );
        assert!(
            table.contains(&format!("`{}`", kind.id())),
            "{} is not in docs/host-analysis.md's table",
            kind.id()
        );
    }
}

/// Chromium's decision for `host` as its build for `platform` makes it: the rule that refused
/// Unicode (the host rule, or the first label's), `None` when shown in Unicode.
fn chromium_on(host: &str, platform: Platform) -> Option<&'static str> {
    let report = Report::new(&format!("https://{host}/"), None);
    let analysis = report.host_analysis.expect("analysis");
    let labels: Vec<LabelContext<'_>> = analysis
        .labels
        .iter()
        .map(|l| LabelContext::new(&l.unicode, &l.ascii, &[]))
        .collect();
    let mut context = HostContext::new(&analysis.host, &analysis.unicode, known());
    context.platform = platform;
    let chromium = policy::POLICIES
        .iter()
        .find(|p| p.name == "chromium")
        .expect("the chromium policy");
    let decision = chromium.decide(&labels, &context);
    assert_eq!(decision.platform, Some(platform), "{host}");
    match (&decision.host_rule, decision.first_refusal()) {
        (Some(h), _) => Some(h.rule),
        (None, Some(label)) => label.rule,
        (None, None) => None,
    }
}

#[test]
fn chromium_on_linux_takes_more_thai_letters_for_latin_ones() {
    // idn_spoof_checker.cc, the Thai whole-script confusables: under BUILDFLAG(IS_LINUX) the
    // list adds ท น ร ห ด ล ป ฟ ม to บ พ เ แ ๐, because Linux's Thai fonts draw them like Latin
    // letters. ทน reads as "nu".
    for platform in Platform::ALL {
        let expected = (platform == Platform::Linux).then_some("whole-script-confusable");
        assert_eq!(chromium_on("ทน.com", platform), expected, "{platform}");
        // Under Thailand's TLD the script is at home everywhere.
        assert_eq!(chromium_on("ทน.th", platform), None, "{platform}");
        // The letters of every build's list are refused on every platform.
        assert_eq!(
            chromium_on("บพ.com", platform),
            Some("whole-script-confusable"),
            "{platform}"
        );
    }
}

#[test]
fn chromium_on_macos_refuses_what_its_font_draws_blank() {
    // idn_spoof_checker.cc, SetAllowedUnicodeSet: under BUILDFLAG(IS_APPLE) U+0620 ARABIC
    // LETTER KASHMIRI YEH and the Tibetan signs U+0F8C..U+0F8F leave the allowed set, because
    // the macOS system font claims them but draws nothing.
    for platform in Platform::ALL {
        let expected = (platform == Platform::Mac).then_some("allowed-set");
        assert_eq!(chromium_on("بؠت.com", platform), expected, "{platform}");
        // The same label without the yeh is shown everywhere.
        assert_eq!(chromium_on("بت.com", platform), None, "{platform}");
    }
}

#[test]
fn a_letter_read_two_ways_gives_the_host_a_skeleton_per_reading() {
    // skeleton_generator.cc (crbug.com/1250993): ł reads as l and as t, so Chromium computes
    // a skeleton for each and refuses the host when either is a top domain's. twitter.com is a
    // known domain; "lwitter" is no one's.
    for platform in Platform::ALL {
        assert_eq!(
            chromium_on("łwitter.com", platform),
            Some("top-domain-skeleton"),
            "{platform}"
        );
        assert_eq!(chromium_on("łwitter.org", platform), None, "{platform}");
    }
    let report = Report::new("https://łwitter.com/", None);
    let analysis = report.host_analysis.expect("analysis");
    assert_eq!(
        analysis
            .imitates
            .iter()
            .map(|i| (i.domain, i.how))
            .collect::<Vec<_>>(),
        [("twitter.com", "diacritic-lookalike")]
    );
}

fn urlscope(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(args)
        .env("XDG_CONFIG_HOME", env!("CARGO_TARGET_TMPDIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run urlscope");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("urlscope output")
}

fn chromium_json(args: &[&str]) -> serde_json::Value {
    let out = urlscope(args, "");
    assert!(out.status.success(), "{args:?}: {out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["host_analysis"]["display"][0].clone()
}

#[test]
fn the_platform_is_chosen_with_a_flag_and_shown() {
    // Without the flag: the platform urlscope runs on.
    let host = if cfg!(target_os = "macos") {
        "mac"
    } else if cfg!(target_os = "windows") {
        "windows"
    } else if cfg!(target_os = "android") {
        "android"
    } else {
        "linux"
    };
    let url = "https://ทน.com/";
    let decision = chromium_json(&["parse", "--json", url]);
    assert_eq!(decision["policy"], "chromium");
    assert_eq!(decision["platform"], host);
    for (platform, unicode) in [
        ("linux", false),
        ("mac", true),
        ("windows", true),
        ("android", true),
    ] {
        let decision = chromium_json(&["parse", "--json", "--platform", platform, url]);
        assert_eq!(decision["platform"], platform);
        assert_eq!(decision["unicode"], unicode, "{platform}");
    }
    // The other policies do not depend on a platform.
    let out = urlscope(&["parse", "--json", "--platform", "mac", url], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        v["host_analysis"]["display"][1]["platform"],
        serde_json::Value::Null
    );
    // `check` takes it too: the Thai label is a whole-script confusable on Linux only.
    let ids = |platform: &str| {
        let out = urlscope(&["check", "--platform", platform], url);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_owned()
    };
    assert_eq!(
        ids("linux"),
        format!("{url}  whole-script-confusable (danger), parser-refuses (info)")
    );
    assert_eq!(
        ids("mac"),
        format!("{url}  idn (info), parser-refuses (info)")
    );
    // A platform that is not one is a clear error.
    let out = urlscope(&["check", "--platform", "bsd"], url);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("\"bsd\" is not a platform: linux, mac, windows or android"));
}

#[test]
fn an_emoji_host_is_a_warning_in_check_and_parse() {
    let out = urlscope(&["check", "--fail-on", "warn"], "https://😀.example/\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("https://😀.example/  shown-as-punycode (warn), parser-refuses (info)")
    );
    let out = urlscope(&["parse", "--json", "https://😀.example/"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let finding = &v["host_analysis"]["findings"][0];
    assert_eq!(finding["id"], "shown-as-punycode");
    assert_eq!(finding["severity"], "warn");
    assert_eq!(
        finding["detail"],
        "\"😀\" is shown as xn--e28h: ICU spoof check: a code point outside the allowed set \
         (UTS 39 identifier profile with its ASCII, less rarely used LGC blocks, kra, modifier \
         quotes, and on macOS the code points its font draws blank)"
    );
}

#[test]
fn finding_details_quote_user_data_as_it_is() {
    // curl reads `example.com\` as the userinfo: one backslash, in plain quotes.
    let out = urlscope(&["check", "--json"], "http://example.com\\@evil.com\n");
    let line = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value =
        serde_json::from_str(line.lines().next().expect("a line")).expect("JSON");
    let detail = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == "parser-differential")
        .and_then(|f| f["detail"].as_str())
        .expect("a parser-differential finding")
        .to_owned();
    assert_eq!(
        detail,
        r#"this URL goes to "example.com" here (WHATWG), but curl reads the host as "evil.com" with userinfo "example.com\" (backslash); rfc3986 refuses "\" in the userinfo; http refuses it"#
    );
    // No detail of the corpus uses Rust's debug quoting, which doubles a backslash.
    for case in CASES {
        let report = Report::new(case.input, None);
        for f in report.host_analysis.iter().flat_map(|a| &a.findings) {
            assert!(
                !f.detail.contains("\\\\") || case.input.contains("\\\\"),
                "{:?}: {}",
                case.input,
                f.detail
            );
        }
    }
}

/// The detail of the finding `id` for `input`.
fn detail(input: &str, id: &str) -> String {
    let report = Report::new(input, None);
    let analysis = report.host_analysis.expect("analysis");
    analysis
        .findings
        .iter()
        .find(|f| f.id == id)
        .map(|f| f.detail.clone())
        .unwrap_or_else(|| panic!("{input:?}: no {id} in {:?}", analysis.ids()))
}

#[test]
fn credentials_that_imitate_a_host_name_the_part_and_the_real_destination() {
    for (input, expected) in [
        (
            "https://user@paypal.com@evil.net/",
            "\"paypal.com\" in the userinfo looks like the host, but this URL goes to evil.net; paypal.com is a well-known domain",
        ),
        (
            "https://x:www.paypal.com@evil.example/",
            "\"www.paypal.com\" in the userinfo looks like the host, but this URL goes to evil.example; paypal.com is a well-known domain",
        ),
        // Host-shaped only, and every parser goes to evil.net: a warning that says so.
        (
            "https://intranet.example%2F@evil.net/",
            "\"intranet.example\" in the userinfo looks like a host, but every parser that reads this URL goes to evil.net: it can mislead a reader, not a client",
        ),
    ] {
        assert_eq!(detail(input, "credentials-look-like-host"), expected, "{input:?}");
    }
}

#[test]
fn an_allowlist_s_hosts_count_as_well_known_in_the_userinfo() {
    // `intranet` has no public suffix: host-shaped by no rule but the caller's.
    let report = Report::new("https://intranet@evil.net/", None);
    let url = report.url.as_ref().expect("URL");
    let plain = urlscope::inspect::credential_finding(url, None, &[]).expect("finding");
    assert_eq!(plain.id, "credentials");
    let allowed = urlscope::inspect::credential_finding(url, None, &["Intranet"]).expect("finding");
    assert_eq!(allowed.id, "credentials-look-like-host");
    assert_eq!(
        allowed.detail,
        "\"intranet\" in the userinfo looks like the host, but this URL goes to evil.net; intranet is an allowed host"
    );
    let none = Report::new("https://evil.net/", None);
    let url = none.url.as_ref().expect("URL");
    assert_eq!(
        urlscope::inspect::credential_finding(url, None, &["x"]),
        None
    );
}

#[test]
fn a_trailing_dot_is_the_same_name_and_another_origin() {
    assert_eq!(
        detail("https://google.com./", "trailing-dot"),
        "the same DNS name as google.com; browsers treat it as another origin (cookies, passwords and HSTS state are not shared)"
    );
    let report = Report::new("https://google.com./", None);
    assert_eq!(
        report.host_analysis.expect("analysis").imitates,
        Vec::new(),
        "nothing imitated"
    );
}

#[test]
fn a_non_canonical_ipv4_address_is_described_by_the_notation_typed() {
    for (input, written) in [
        (
            "http://\u{FF11}\u{FF12}\u{FF17}.0.0.1/",
            "full-width digits that IDNA maps to ASCII digits",
        ),
        (
            "http://127\u{3002}0\u{3002}0\u{3002}1/",
            "full stops that IDNA maps to \".\" (ideographic, full-width or half-width)",
        ),
        (
            "http://0x7f.1/",
            "hexadecimal parts (0x) and fewer than four parts (the last fills the rest)",
        ),
        ("http://0177.0.0.1/", "octal parts (a leading 0)"),
        (
            "http://2130706433/",
            "a single number for the whole address",
        ),
        ("http://127.0.0.1./", "a trailing dot"),
        (
            "http://%31%32%37.0.0.1/",
            "percent-encoded bytes that the host parser decodes",
        ),
    ] {
        let typed = Report::new(input, None)
            .host_analysis
            .and_then(|a| a.typed)
            .expect("typed host");
        assert_eq!(
            detail(input, "non-canonical-ipv4"),
            format!("\"{typed}\" is the address 127.0.0.1, written with {written}"),
            "{input:?}"
        );
    }
}

#[test]
fn lures_fail_check_and_look_alikes_that_are_not_pass_it() {
    for (input, code) in [
        ("https://user@paypal.com@evil.net/", 1),
        ("https://user:x@paypal.com@evil.net/", 1),
        ("https://x:paypal.com@evil.example/", 1),
        ("https://paypal.com@@evil.net/", 1),
        ("https://paypal.com%2F@evil.example/", 1),
        ("https://paypal.com%3A443@evil.example/", 1),
        ("https://paypal.com%5C@evil.example/", 1),
        ("https://paypal.com%23@evil.example/", 1),
        ("https://paypal.com%40evil.net@evil.net/", 1),
        ("https://google.com./", 0),
        ("https://google-styleguide.googlecode.com/", 0),
        ("https://www.dev-archive.net/", 0),
        ("http://\u{FF11}\u{FF12}\u{FF17}.0.0.1/", 0),
    ] {
        let out = urlscope(&["check", input], "");
        assert_eq!(out.status.code(), Some(code), "{input:?}: {out:?}");
    }
}
