//! The host parser, through the places the URL parser runs it: a special URL's host (domain,
//! IPv4, IPv6), a non-special URL's opaque host, and the hostname setter. No panic; a parsed
//! host serializes to something that parses to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlscope::url::host::{domain_parser, domain_to_unicode};
use urlscope::Url;

fuzz_target!(|data: &[u8]| {
    let host = String::from_utf8_lossy(data);
    for template in ["https://{}/", "sc://{}/", "file://{}/"] {
        let input = template.replace("{}", &host);
        if let Ok(url) = Url::parse(&input, None) {
            let again = Url::parse(url.href(), None).expect("a serialization parses");
            assert_eq!(again.hostname(), url.hostname());
        }
    }
    let mut url = Url::parse("https://example.com/", None).expect("parses");
    url.set_hostname(&host);
    assert_eq!(
        Url::parse(url.href(), None).expect("parses").href(),
        url.href()
    );
    if let Some(ascii) = domain_parser(&host, false) {
        let _ = domain_to_unicode(&ascii);
        assert!(ascii.is_ascii());
    }
});
