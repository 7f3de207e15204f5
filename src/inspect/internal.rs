//! Internal destinations: the hosts a server-side request must not reach, whatever their
//! spelling. One cited table (RFC 6761's `localhost`, the IANA IPv4 and IPv6 special-purpose
//! address registries, the cloud providers' metadata endpoints), read through one function that
//! every surface's verdict uses.

use serde::Serialize;

/// Why a host is internal: the table's entry it falls under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Internal {
    /// The entry's name, as a finding names it ("loopback", "private", "cloud metadata").
    pub what: &'static str,
    /// Where the entry comes from ("RFC 6761 § 6.3", "IANA IPv4 Special-Purpose Address
    /// Registry: 127.0.0.0/8 (RFC 1122)").
    pub source: &'static str,
    /// A cloud provider's metadata endpoint, which answers with instance credentials.
    pub cloud_metadata: bool,
}

/// Whether `host`, as one parser gives it (any spelling: a domain, an IPv4 address in any
/// notation a client reads, an IPv6 address with or without brackets, an opaque host that
/// spells one of those), is an internal destination; `None` for a public one.
pub fn classify_host(host: &str) -> Option<Internal> {
    let _ = host;
    None
}
