//! The fields of a parsed input as the front ends hand them on: the keys of the command line's
//! `parse --json` object (and its `--fields`), and the columns of the Python package's Arrow
//! batches. One list describes both, with what each field needs computed, so that a batch that
//! asks for hrefs alone collects no validation errors and analyses no host.

use crate::report::Parts;

/// What a field holds, for a writer that must choose a type for it (an Arrow column's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// A string: the input, or a URL API getter's value (null when the input is not a URL).
    Text,
    /// A string or null: the base.
    OptionalText,
    /// `valid`.
    Bool,
    /// `searchParams`: the URL's query as name-value pairs.
    Pairs,
    /// `errors`: validation errors, by the standard's names, with their spans.
    Errors,
    /// `writing`: the URL-writing grammar's verdict.
    Writing,
    /// `host_analysis`: what the host is and how it could mislead.
    HostAnalysis,
}

/// What must be computed for a field, beyond the parse itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Needs {
    /// The parse's result alone (the input, the base, the URL API's getters).
    Url,
    /// The validation errors the parse raised.
    Errors,
    /// The URL-writing grammar's check of the input ([`Parts::writing`]).
    Writing,
    /// The host analysis ([`Parts::host_analysis`]), which reads the validation errors too.
    HostAnalysis,
}

/// One field: its name (the JSON key and the Arrow column), its type, and what it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub ty: FieldType,
    pub needs: Needs,
}

const fn field(name: &'static str, ty: FieldType, needs: Needs) -> Field {
    Field { name, ty, needs }
}

/// The fields of a parsed input, in the order the `parse --json` object writes them: the
/// input and base, the URL API's getters (URL Standard, "API": href, origin, protocol, …,
/// searchParams), then what the parse found.
pub const FIELDS: [Field; 18] = [
    field("input", FieldType::Text, Needs::Url),
    field("base", FieldType::OptionalText, Needs::Url),
    field("href", FieldType::Text, Needs::Url),
    field("origin", FieldType::Text, Needs::Url),
    field("protocol", FieldType::Text, Needs::Url),
    field("username", FieldType::Text, Needs::Url),
    field("password", FieldType::Text, Needs::Url),
    field("host", FieldType::Text, Needs::Url),
    field("hostname", FieldType::Text, Needs::Url),
    field("port", FieldType::Text, Needs::Url),
    field("pathname", FieldType::Text, Needs::Url),
    field("search", FieldType::Text, Needs::Url),
    field("hash", FieldType::Text, Needs::Url),
    field("searchParams", FieldType::Pairs, Needs::Url),
    field("valid", FieldType::Bool, Needs::Errors),
    field("errors", FieldType::Errors, Needs::Errors),
    field("writing", FieldType::Writing, Needs::Writing),
    field(
        "host_analysis",
        FieldType::HostAnalysis,
        Needs::HostAnalysis,
    ),
];

/// The fields' names, in [`FIELDS`] order.
pub const KEYS: [&str; FIELDS.len()] = {
    let mut keys = [""; FIELDS.len()];
    let mut i = 0;
    while i < FIELDS.len() {
        keys[i] = FIELDS[i].name;
        i += 1;
    }
    keys
};

/// A set of [`FIELDS`]; whoever writes them keeps [`FIELDS`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields(u32);

const _: () = assert!(FIELDS.len() < 32);

impl Fields {
    pub const ALL: Fields = Fields((1 << FIELDS.len()) - 1);

    /// The bit of the field named `name`, found at compile time by a writer that tests a
    /// field per object (`const { Fields::bit("href") }`). Panics on a name that is not a
    /// field, which in a `const` block fails the build.
    pub const fn bit(name: &str) -> u32 {
        let mut i = 0;
        while i < FIELDS.len() {
            let k = FIELDS[i].name.as_bytes();
            let name = name.as_bytes();
            if k.len() == name.len() {
                let mut j = 0;
                while j < k.len() && k[j] == name[j] {
                    j += 1;
                }
                if j == k.len() {
                    return 1 << i;
                }
            }
            i += 1;
        }
        panic!("not a field")
    }

    /// Whether the set has the field whose [`Fields::bit`] is `bit`.
    #[inline(always)]
    pub fn has_bit(self, bit: u32) -> bool {
        self.0 & bit != 0
    }

    /// Whether the set has the field named `name`.
    pub fn has(self, name: &str) -> bool {
        KEYS.iter()
            .position(|k| *k == name)
            .is_some_and(|i| self.0 & (1 << i) != 0)
    }

    /// The fields of the set, in [`FIELDS`] order.
    pub fn iter(self) -> impl Iterator<Item = &'static Field> {
        FIELDS
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, f)| f)
    }

    /// The most any field of the set needs: [`Needs::Url`] means that the URL alone will do,
    /// with no validation error collected.
    pub fn needs(self) -> Needs {
        self.iter().map(|f| f.needs).max().unwrap_or(Needs::Url)
    }

    /// The parts of a [`crate::Report`] that the set's fields read.
    pub fn parts(self) -> Parts {
        let needs = |n: Needs| self.iter().any(|f| f.needs == n);
        Parts {
            components: false,
            writing: needs(Needs::Writing),
            host_analysis: needs(Needs::HostAnalysis),
            host_labels: needs(Needs::HostAnalysis),
            host_forms: needs(Needs::HostAnalysis),
            resolutions: false,
        }
    }
}

impl std::str::FromStr for Fields {
    type Err = String;

    /// A comma-separated list of names: "href,host,errors".
    fn from_str(list: &str) -> Result<Self, String> {
        let mut fields = 0;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let i = KEYS.iter().position(|k| *k == name).ok_or_else(|| {
                format!("{name:?} is not a field; the fields are {}", KEYS.join(","))
            })?;
            fields |= 1 << i;
        }
        if fields == 0 {
            return Err("no field named".into());
        }
        Ok(Fields(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_names_is_the_set_of_those_fields_in_fields_order() {
        let fields: Fields = "errors, href".parse().expect("fields");
        let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
        assert_eq!(names, ["href", "errors"]);
        assert!(fields.has("href") && !fields.has("host"));
        assert_eq!(
            "href,nope".parse::<Fields>(),
            Err(format!(
                "\"nope\" is not a field; the fields are {}",
                KEYS.join(",")
            ))
        );
        assert_eq!(" , ".parse::<Fields>(), Err("no field named".to_owned()));
    }

    #[test]
    fn what_a_set_needs_is_what_its_most_demanding_field_needs() {
        let needs = |list: &str| list.parse::<Fields>().expect("fields").needs();
        assert_eq!(needs("href"), Needs::Url);
        assert_eq!(needs("href,searchParams,base"), Needs::Url);
        assert_eq!(needs("href,valid"), Needs::Errors);
        assert_eq!(needs("writing,errors"), Needs::Writing);
        assert_eq!(Fields::ALL.needs(), Needs::HostAnalysis);
        let hrefs: Fields = "href".parse().expect("fields");
        assert_eq!(hrefs.parts(), Parts::NONE);
        let analysis: Fields = "host_analysis".parse().expect("fields");
        assert!(analysis.parts().host_analysis && !analysis.parts().writing);
        assert_eq!(Fields::bit("href"), 1 << 2);
    }
}
