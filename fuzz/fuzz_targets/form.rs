//! application/x-www-form-urlencoded: parse → serialize → parse gives the same list.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlscope::url::form;

fuzz_target!(|data: &[u8]| {
    let pairs = form::parse(data);
    let serialized = form::serialize_utf8(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    assert!(serialized.is_ascii());
    assert_eq!(
        form::serialized_len_utf8(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
        serialized.len()
    );
    assert_eq!(form::parse(serialized.as_bytes()), pairs, "round trip");
});
