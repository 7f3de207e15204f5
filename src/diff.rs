//! The parser differential: how other parsers read the same string.
//!
//! Every reading comes from the real library or runtime, never from an emulation: the built-in
//! parsers are Rust crates called in-process ([`builtin`]), the external ones are long-lived
// The adapters and the background exist with the `native` feature only: linked where they do.
#![cfg_attr(
    feature = "native",
    doc = "adapter processes speaking JSON Lines ([`adapter`]), run in the background by [`background`]"
)]
#![cfg_attr(
    not(feature = "native"),
    doc = "adapter processes speaking JSON Lines (`adapter`), run in the background by `background`"
)]
//! so that a front end never waits for them (both with the `native` feature). [`compare`] turns
//! the readings of one input into its disagreements, each explained by a [`Class`] of parser
//! confusion, and [`decide`]s where the URL goes: the [`Destination`] a connection would use,
//! compared as the network compares it (the same comparison `check --allow-host` makes), with a
//! [`Verdict`] that tells a reading that goes elsewhere from a parser that refuses the URL.
//!
//! No terminal code lives here: the command line and the inspector render a [`Comparison`].
//!
#![cfg_attr(
    feature = "native",
    doc = "A front end that redraws on every keystroke keeps one [`Lab`] made with
[`Delivery::Latest`]. On each edit, [`Lab::start`] reads the input with the built-in parsers
at once and sends it to the external ones; on each frame, [`Lab::poll`] takes whatever
answers have arrived (never blocking) and [`Live::comparison`] gives the table so far, with
[`Live::pending`] naming the parsers still out. An answer to an older input is dropped."
)]
#![cfg_attr(
    not(feature = "native"),
    doc = "With the `native` feature, a front end that redraws on every keystroke keeps one `Lab`
made with `Delivery::Latest`. On each edit, `Lab::start` reads the input with the built-in
parsers at once and sends it to the external ones; on each frame, `Lab::poll` takes whatever
answers have arrived (never blocking) and `Live::comparison` gives the table so far, with
`Live::pending` naming the parsers still out. An answer to an older input is dropped."
)]

#[cfg(feature = "native")]
pub mod adapter;
#[cfg(feature = "native")]
pub mod background;
pub mod builtin;
mod class;
pub mod destination;
#[cfg(feature = "native")]
mod libcurl;
pub mod verdict;

use serde::Serialize;
use std::fmt;

#[cfg(feature = "native")]
pub use adapter::{Adapter, AdapterSpec, Timeouts};
#[cfg(feature = "native")]
pub use background::{Background, Delivery, Update};
pub use builtin::Builtin;
pub use class::Class;
pub use destination::{same_host, Destination};
pub use verdict::{decide, Decision, Refusal, Verdict, Why};

/// What one parser made of one input: exactly the values the library returned.
///
/// `None` is the library's null (or "absent": Python's `None`, Java's `null`, curl's
/// `CURLUE_NO_*`), distinct from the empty string. `port` is text in every reading, as the
/// library gives it or its number in decimal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// False when the parser cannot run here; `error` then says why.
    pub available: bool,
    /// The library's or runtime's version: answers change between versions.
    pub version: Option<String>,
    /// The parser threw or returned an error; `error` has its message.
    pub failure: bool,
    pub error: Option<String>,
    pub scheme: Option<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    pub host: Option<String>,
    pub port: Option<String>,
    pub path: Option<String>,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

impl Answer {
    /// A parser that cannot run here, and why.
    pub fn unavailable(reason: impl Into<String>) -> Answer {
        Answer {
            available: false,
            error: Some(reason.into()),
            ..Answer::default()
        }
    }

    /// A parse that failed with the library's message.
    pub fn failed(version: Option<String>, error: impl Into<String>) -> Answer {
        Answer {
            available: true,
            version,
            failure: true,
            error: Some(error.into()),
            ..Answer::default()
        }
    }

    /// The value of a component (`Component::Failure` is not a string value; see [`Value`]).
    pub fn get(&self, component: Component) -> Value<'_> {
        fn text(v: &Option<String>) -> Value<'_> {
            Value::Text(v.as_deref())
        }
        match component {
            Component::Failure => Value::Failure(self.failure),
            Component::Scheme => text(&self.scheme),
            Component::Username => text(&self.username),
            Component::Password => text(&self.password),
            Component::Host => text(&self.host),
            Component::Port => text(&self.port),
            Component::Path => text(&self.path),
            Component::Query => text(&self.query),
            Component::Fragment => text(&self.fragment),
        }
    }
}

/// A cell of the table: a component's value, or whether the parse failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value<'a> {
    Failure(bool),
    Text(Option<&'a str>),
}

impl Serialize for Value<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Failure(b) => s.serialize_bool(*b),
            Value::Text(t) => t.serialize(s),
        }
    }
}

/// The columns of the differential, in the order they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Component {
    Failure,
    Scheme,
    Username,
    Password,
    Host,
    Port,
    Path,
    Query,
    Fragment,
}

impl Component {
    pub const ALL: [Component; 9] = [
        Component::Failure,
        Component::Scheme,
        Component::Username,
        Component::Password,
        Component::Host,
        Component::Port,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Component::Failure => "failure",
            Component::Scheme => "scheme",
            Component::Username => "username",
            Component::Password => "password",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The parsers urlscope knows, in the order they are shown. The built-in ones always run; the
/// external ones run when their runtime is installed.
pub const PARSERS: [&str; 11] = [
    "whatwg",
    "rust-url",
    "curl",
    "rfc3986",
    "http",
    "python",
    "urllib3",
    "node",
    "node-legacy",
    "java",
    "go",
];

/// One component on which available parsers give different values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    pub component: Component,
    /// Each available parser's value, in the order of [`Comparison::parsers`]. A parser that
    /// failed has no component values and is left out of every component but `failure`; a
    /// parser is left out of a component it does not give (the `http` crate's userinfo and
    /// fragment).
    pub values: Vec<(String, Option<String>)>,
    /// The confusion that explains the difference, when one of the known classes does.
    pub class: Option<Class>,
}

/// How one reading's value of a component stands beside the reference's ([`Comparison::mark`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// ≠: another value, with the class of confusion that explains it when one does.
    Differs(Option<Class>),
    /// ≈: the same destination, spelled otherwise ([`Class::SameDestination`]).
    Spelling,
}

impl Mark {
    /// The mark's sign: ≠ or ≈.
    pub fn sign(self) -> &'static str {
        match self {
            Mark::Differs(_) => "≠",
            Mark::Spelling => "≈",
        }
    }
}

/// All readings of one input, compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub input: String,
    pub base: Option<String>,
    pub parsers: Vec<(String, Answer)>,
    /// Where the readings go: elsewhere, refused, agree, or nothing to compare ([`decide`]).
    pub decision: Decision,
    pub disagreements: Vec<Disagreement>,
}

impl Comparison {
    /// The verdict on where the URL goes.
    pub fn verdict(&self) -> Verdict {
        self.decision.verdict
    }

    /// Whether every reading that has a destination goes to the same one: `None` when nothing
    /// was compared (see [`Decision::agree`]).
    pub fn agree(&self) -> Option<bool> {
        self.decision.agree()
    }

    /// How many parsers gave a reading (a parse or a failure), the unavailable ones left out.
    pub fn readings(&self) -> usize {
        self.parsers.iter().filter(|(_, a)| a.available).count()
    }

    /// The answer of the parser named `name`.
    pub fn answer(&self, name: &str) -> Option<&Answer> {
        self.parsers.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// Whether `name`'s value of `component` differs from the reference parser's (the first
    /// available one, `whatwg` unless the list leaves it out). Unavailable parsers differ from
    /// nothing.
    pub fn differs_from_reference(&self, name: &str, component: Component) -> bool {
        let Some(reference) = self.parsers.iter().map(|(_, a)| a).find(|a| a.available) else {
            return false;
        };
        let Some(answer) = self.answer(name).filter(|a| a.available) else {
            return false;
        };
        if component != Component::Failure && (answer.failure || reference.failure) {
            return false;
        }
        let reference_name = self
            .parsers
            .iter()
            .find(|(_, a)| a.available)
            .map(|(n, _)| n);
        if !gives(name, component) || reference_name.is_some_and(|n| !gives(n, component)) {
            return false;
        }
        match (answer.get(component), reference.get(component)) {
            (Value::Text(a), Value::Text(b)) => !same(component, a, b),
            (a, b) => a != b,
        }
    }

    /// The verdict in a few words, as the Parsers pane's title and the page's Parsers view give
    /// it: "agree on where it goes", "same destination, spelled differently", "refused by
    /// rfc3986; the others agree", "✗ disagree on where it goes: backslash" (the classes of the
    /// host's and the port's disagreements), "nothing to compare". Where some parsers gave no
    /// reading, a refusal names the parsers that agree rather than "the others".
    pub fn headline(&self) -> String {
        match self.verdict() {
            Verdict::NothingToCompare => "nothing to compare".to_owned(),
            Verdict::Agree
                if self
                    .disagreements
                    .iter()
                    .any(|d| d.class == Some(Class::SameDestination)) =>
            {
                "same destination, spelled differently".to_owned()
            }
            Verdict::Agree => "agree on where it goes".to_owned(),
            // A parser that refuses sends the URL nowhere: no alarm, but who it is.
            Verdict::Refused => {
                let refused = self.decision.refused_names();
                let others = if self.parsers.iter().all(|(_, a)| a.available) {
                    "the others".to_owned()
                } else {
                    self.parsers
                        .iter()
                        .filter(|(name, a)| a.available && !refused.contains(&name.as_str()))
                        .map(|(name, _)| name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                format!("refused by {}; {others} agree", refused.join(", "))
            }
            Verdict::Elsewhere => {
                let mut classes: Vec<&str> = Vec::new();
                for class in self
                    .disagreements
                    .iter()
                    .filter(|d| matches!(d.component, Component::Host | Component::Port))
                    .filter_map(|d| d.class.filter(|c| *c != Class::SameDestination))
                    .map(Class::name)
                {
                    if !classes.contains(&class) {
                        classes.push(class);
                    }
                }
                if classes.is_empty() {
                    "✗ disagree on where it goes".to_owned()
                } else {
                    format!("✗ disagree on where it goes: {}", classes.join(", "))
                }
            }
        }
    }

    /// How `name`'s value of `component` stands beside the reference's, as the Parsers views
    /// mark it: `None` where it does not differ ([`Comparison::differs_from_reference`]).
    pub fn mark(&self, name: &str, component: Component) -> Option<Mark> {
        if !self.differs_from_reference(name, component) {
            return None;
        }
        let class = self
            .disagreements
            .iter()
            .find(|d| d.component == component)
            .and_then(|d| d.class);
        Some(match class {
            Some(Class::SameDestination) => Mark::Spelling,
            class => Mark::Differs(class),
        })
    }

    /// The note under `name`'s reading in the Parsers views: the components marked ≠, each with
    /// the class that explains it, then those marked ≈; `None` when none is marked.
    pub fn marks_note(&self, name: &str) -> Option<String> {
        let mut differing = Vec::new();
        let mut spelled = Vec::new();
        for component in Component::ALL.into_iter().skip(1) {
            match self.mark(name, component) {
                Some(Mark::Spelling) => spelled.push(component.name().to_owned()),
                Some(Mark::Differs(class)) => differing.push(match class {
                    Some(class) => format!("{component} ({})", class.name()),
                    None => component.name().to_owned(),
                }),
                None => {}
            }
        }
        let mut notes = Vec::new();
        if !differing.is_empty() {
            notes.push(format!("≠ whatwg: {}", differing.join(", ")));
        }
        if !spelled.is_empty() {
            notes.push(format!(
                "≈ whatwg: {} (same destination, spelled differently)",
                spelled.join(", ")
            ));
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// The JSON object `urlscope diff --json` prints.
    pub fn to_json(&self) -> serde_json::Value {
        let parsers: serde_json::Map<String, serde_json::Value> = self
            .parsers
            .iter()
            .map(|(name, answer)| {
                (
                    name.clone(),
                    serde_json::to_value(answer).unwrap_or(serde_json::Value::Null),
                )
            })
            .collect();
        let disagreements: Vec<serde_json::Value> = self
            .disagreements
            .iter()
            .map(|d| {
                let values: serde_json::Map<String, serde_json::Value> = d
                    .values
                    .iter()
                    .map(|(name, value)| {
                        let value = match (d.component, value) {
                            (Component::Failure, Some(v)) => serde_json::Value::Bool(v == "true"),
                            (_, v) => serde_json::to_value(v).unwrap_or_default(),
                        };
                        (name.clone(), value)
                    })
                    .collect();
                serde_json::json!({
                    "component": d.component,
                    "values": values,
                    "class": d.class.map(Class::name),
                })
            })
            .collect();
        serde_json::json!({
            "input": self.input,
            "base": self.base,
            "parsers": parsers,
            "agree": self.agree(),
            "verdict": self.decision.verdict.name(),
            "destination": self.decision.destination().map(ToString::to_string),
            "destinations": self
                .decision
                .destinations
                .iter()
                .map(|(d, names)| serde_json::json!({"destination": d.to_string(), "parsers": names}))
                .collect::<Vec<_>>(),
            "refused": self.decision.refused_names(),
            "explanation": match self.decision.verdict {
                Verdict::NothingToCompare => None,
                _ => Some(self.decision.explain()),
            },
            "disagreements": disagreements,
        })
    }
}

/// Whether two values of `component` count as the same. For the host, null and "" differ (no
/// host versus an empty one). For the other components they count as the same in the
/// disagreements, though each reading keeps its own: Node's URL and Go's net/url cannot say
/// null, and every input would otherwise disagree on its absent query.
fn same(component: Component, a: Option<&str>, b: Option<&str>) -> bool {
    match component {
        Component::Host | Component::Failure => a == b,
        _ => a.unwrap_or("") == b.unwrap_or(""),
    }
}

/// Whether the parser named `name` gives `component` at all (see [`Builtin::gives`]): a value
/// it cannot give is no reading, and is left out of the disagreements.
fn gives(name: &str, component: Component) -> bool {
    Builtin::from_name(name).is_none_or(|b| b.gives(component))
}

/// Compares the answers for one input: the disagreements per component, their classes, and
/// the verdict on where the URL goes ([`decide`]).
pub fn compare(input: &str, base: Option<&str>, parsers: Vec<(String, Answer)>) -> Comparison {
    let available: Vec<&(String, Answer)> = parsers.iter().filter(|(_, a)| a.available).collect();
    let mut disagreements = Vec::new();
    for component in Component::ALL {
        let values: Vec<(String, Option<String>)> = available
            .iter()
            .filter(|(_, a)| component == Component::Failure || !a.failure)
            .filter(|(name, _)| gives(name, component))
            .map(|(name, a)| {
                let value = match a.get(component) {
                    Value::Failure(b) => Some(b.to_string()),
                    Value::Text(t) => t.map(str::to_owned),
                };
                (name.clone(), value)
            })
            .collect();
        let Some((_, first)) = values.first() else {
            continue;
        };
        if values
            .iter()
            .all(|(_, v)| same(component, v.as_deref(), first.as_deref()))
        {
            continue;
        }
        let class = Class::explain(input, base, component, &parsers);
        disagreements.push(Disagreement {
            component,
            values,
            class,
        });
    }
    let decision = decide(input, &parsers);
    Comparison {
        input: input.to_owned(),
        base: base.map(str::to_owned),
        parsers,
        decision,
        disagreements,
    }
}

/// The parsers of a differential, built-in and external, in the order they are shown.
///
/// The built-in parsers answer synchronously ([`Lab::read_builtins`]); the external ones run in
/// the [`Background`] and answer through its channel. [`Lab::read`] does both and waits, for a
/// caller that wants one finished [`Comparison`] per input (the command line).
#[derive(Debug)]
#[cfg(feature = "native")]
pub struct Lab {
    slots: Vec<Slot>,
    background: Option<Background>,
    generation: u64,
}

#[cfg(feature = "native")]
#[derive(Clone, Copy, Debug)]
enum Slot {
    Builtin(Builtin),
    /// An index into the background's adapters.
    External(usize),
}

#[cfg(feature = "native")]
impl Lab {
    /// The parsers named in `only` (all of them when `None`): the built-in ones, the shipped
    /// adapters, and `configured` ones (which replace a shipped adapter of the same name).
    pub fn new(
        only: Option<&[String]>,
        configured: Vec<AdapterSpec>,
        timeouts: Timeouts,
        delivery: Delivery,
    ) -> Result<Lab, String> {
        let mut externals = AdapterSpec::shipped();
        for spec in configured {
            match externals.iter_mut().find(|s| s.name == spec.name) {
                Some(shipped) => *shipped = spec,
                None if Builtin::from_name(&spec.name).is_some() => {
                    return Err(format!("{:?} is a built-in parser's name", spec.name));
                }
                None => externals.push(spec),
            }
        }
        let all: Vec<String> = Builtin::ALL
            .iter()
            .map(|b| b.name().to_owned())
            .chain(externals.iter().map(|s| s.name.clone()))
            .collect();
        let names: Vec<String> = match only {
            None => all.clone(),
            Some(only) => {
                for name in only {
                    if !all.contains(name) {
                        return Err(format!(
                            "unknown parser {name:?} (known: {})",
                            all.join(", ")
                        ));
                    }
                }
                let mut names: Vec<String> = Vec::new();
                for name in only {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
                names
            }
        };
        let mut slots = Vec::new();
        let mut chosen = Vec::new();
        for name in &names {
            match Builtin::from_name(name) {
                Some(builtin) => slots.push(Slot::Builtin(builtin)),
                None => {
                    if let Some(spec) = externals.iter().find(|s| &s.name == name) {
                        slots.push(Slot::External(chosen.len()));
                        chosen.push(spec.clone());
                    }
                }
            }
        }
        let background = (!chosen.is_empty()).then(|| Background::new(chosen, timeouts, delivery));
        Ok(Lab {
            slots,
            background,
            generation: 0,
        })
    }

    /// The parsers a gate (`urlscope check --allow-host`/`--deny-internal`, Python's
    /// `check_batch` with `allow_hosts` or `deny_internal`) judges a URL on: every parser,
    /// built-in and external (the user's configured ones included, [`AdapterSpec::configured`]),
    /// with the default timeouts, each input's answers awaited ([`Lab::read`]). A runtime that
    /// is not installed gives an unavailable reading, never an agreeing one.
    pub fn for_gate() -> Result<Lab, String> {
        Lab::new(
            None,
            AdapterSpec::configured()?,
            Timeouts::default(),
            Delivery::Every,
        )
    }

    /// The parsers' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.slots
            .iter()
            .map(|slot| match slot {
                Slot::Builtin(b) => b.name().to_owned(),
                Slot::External(i) => self
                    .background
                    .as_ref()
                    .map_or_else(String::new, |bg| bg.names()[*i].clone()),
            })
            .collect()
    }

    /// The built-in parsers' answers, computed now (microseconds: fit for every keystroke).
    pub fn read_builtins(&self, input: &str, base: Option<&str>) -> Vec<(String, Answer)> {
        self.slots
            .iter()
            .filter_map(|slot| match slot {
                Slot::Builtin(b) => Some((b.name().to_owned(), b.read(input, base))),
                Slot::External(_) => None,
            })
            .collect()
    }

    /// The external parsers, whose answers arrive in the background.
    pub fn background(&self) -> Option<&Background> {
        self.background.as_ref()
    }

    /// Every parser's answer for `input`, compared; waits for the external ones (each bounded
    /// by its adapter's timeouts). For a lab made with [`Delivery::Every`].
    pub fn read(&mut self, input: &str, base: Option<&str>) -> Comparison {
        self.generation += 1;
        let generation = self.generation;
        let external = self
            .background
            .as_ref()
            .map(|bg| {
                bg.request(generation, input, base);
                bg.names().len()
            })
            .unwrap_or(0);
        // The built-in parsers run while the adapters work.
        let mut answers: Vec<Option<Answer>> = self
            .slots
            .iter()
            .map(|slot| match slot {
                Slot::Builtin(b) => Some(b.read(input, base)),
                Slot::External(_) => None,
            })
            .collect();
        let mut externals: Vec<Option<Answer>> = vec![None; external];
        let mut missing = external;
        if let Some(bg) = &self.background {
            while missing > 0 {
                let Ok(update) = bg.updates().recv() else {
                    break;
                };
                if update.generation == generation && externals[update.parser].is_none() {
                    externals[update.parser] = Some(update.answer);
                    missing -= 1;
                }
            }
        }
        for (slot, answer) in self.slots.iter().zip(answers.iter_mut()) {
            if let Slot::External(i) = slot {
                *answer = externals[*i].take();
            }
        }
        let parsers = self
            .names()
            .into_iter()
            .zip(answers)
            .map(|(name, answer)| {
                (
                    name,
                    answer.unwrap_or_else(|| Answer::unavailable("the adapter's thread stopped")),
                )
            })
            .collect();
        compare(input, base, parsers)
    }
}

/// One input's readings as they arrive: the built-in ones at once, the external ones later.
#[derive(Clone, Debug)]
#[cfg(feature = "native")]
pub struct Live {
    generation: u64,
    input: String,
    base: Option<String>,
    names: Vec<String>,
    answers: Vec<Option<Answer>>,
}

#[cfg(feature = "native")]
impl Live {
    /// The parsers that have not answered yet.
    pub fn pending(&self) -> Vec<&str> {
        self.names
            .iter()
            .zip(&self.answers)
            .filter(|(_, a)| a.is_none())
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// The comparison of the answers so far (the pending parsers left out).
    pub fn comparison(&self) -> Comparison {
        let parsers = self
            .names
            .iter()
            .zip(&self.answers)
            .filter_map(|(n, a)| a.clone().map(|a| (n.clone(), a)))
            .collect();
        compare(&self.input, self.base.as_deref(), parsers)
    }
}

#[cfg(feature = "native")]
impl Lab {
    /// Reads `input` with the built-in parsers now and asks the external ones in the background.
    pub fn start(&mut self, input: &str, base: Option<&str>) -> Live {
        self.generation += 1;
        if let Some(bg) = &self.background {
            bg.request(self.generation, input, base);
        }
        Live {
            generation: self.generation,
            input: input.to_owned(),
            base: base.map(str::to_owned),
            names: self.names(),
            answers: self
                .slots
                .iter()
                .map(|slot| match slot {
                    Slot::Builtin(b) => Some(b.read(input, base)),
                    Slot::External(_) => None,
                })
                .collect(),
        }
    }

    /// Takes the external answers that have arrived for `live`, without waiting; true when any
    /// did. Answers to earlier inputs are dropped.
    pub fn poll(&self, live: &mut Live) -> bool {
        let Some(bg) = &self.background else {
            return false;
        };
        let mut changed = false;
        while let Ok(update) = bg.updates().try_recv() {
            if update.generation != live.generation {
                continue;
            }
            let slot = self
                .slots
                .iter()
                .position(|s| matches!(s, Slot::External(i) if *i == update.parser));
            if let Some(slot) = slot {
                live.answers[slot] = Some(update.answer);
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str, host: Option<&str>) -> (String, Answer) {
        (
            name.to_owned(),
            Answer {
                available: true,
                host: host.map(str::to_owned),
                ..Answer::default()
            },
        )
    }

    #[test]
    fn null_and_empty_hosts_disagree() {
        let c = compare("x", None, vec![host("a", None), host("b", Some(""))]);
        // No host and the empty host are both no destination: nothing connects to "", so
        // neither reading refuses where the other reads a host. The components still differ.
        assert_eq!(c.verdict(), Verdict::Agree);
        assert!(c.decision.refused_names().is_empty());
        assert_eq!(c.agree(), Some(true));
        assert_eq!(c.disagreements.len(), 1);
        assert_eq!(c.disagreements[0].component, Component::Host);
    }

    #[test]
    fn unavailable_parsers_and_other_components_do_not_break_agreement() {
        let mut path = host("c", Some("h"));
        path.1.path = Some("/x".into());
        let c = compare(
            "x",
            None,
            vec![
                host("a", Some("h")),
                ("b".into(), Answer::unavailable("not installed")),
                path,
            ],
        );
        assert_eq!(c.verdict(), Verdict::Agree);
        assert_eq!(c.disagreements[0].component, Component::Path);
    }

    #[test]
    fn a_failure_where_another_parses_is_a_disagreement() {
        let c = compare(
            "x",
            None,
            vec![
                host("a", Some("h")),
                ("b".into(), Answer::failed(None, "no")),
            ],
        );
        assert_eq!(c.verdict(), Verdict::Refused);
        assert_eq!(c.decision.refused_names(), ["b"]);
        assert_eq!(c.disagreements[0].component, Component::Failure);
        // The failed parser has no host to disagree with.
        assert_eq!(c.disagreements.len(), 1);
        assert!(c.differs_from_reference("b", Component::Failure));
        assert!(!c.differs_from_reference("b", Component::Host));
    }

    fn reading(name: &str, scheme: &str, host: &str, port: Option<&str>) -> (String, Answer) {
        (
            name.to_owned(),
            Answer {
                available: true,
                scheme: Some(scheme.to_owned()),
                host: Some(host.to_owned()),
                port: port.map(str::to_owned),
                ..Answer::default()
            },
        )
    }

    #[test]
    fn one_destination_spelled_two_ways_agrees_and_says_so() {
        let c = compare(
            "https://Example.com:443/",
            None,
            vec![
                reading("a", "https", "example.com", None),
                reading("b", "https", "Example.com.", Some("443")),
                reading("c", "HTTPS", "EXAMPLE.COM", Some("")),
            ],
        );
        assert_eq!(c.verdict(), Verdict::Agree);
        let components: Vec<Component> = c.disagreements.iter().map(|d| d.component).collect();
        assert_eq!(
            components,
            [Component::Scheme, Component::Host, Component::Port]
        );
        for d in &c.disagreements {
            assert_eq!(d.class, Some(Class::SameDestination), "{}", d.component);
        }
        // The marks still show who spells it otherwise.
        assert!(c.differs_from_reference("b", Component::Host));
    }

    #[test]
    fn another_port_or_address_is_another_destination() {
        let port = compare(
            "x",
            None,
            vec![
                reading("a", "http", "h", None),
                reading("b", "http", "h", Some("8080")),
            ],
        );
        assert_eq!(port.verdict(), Verdict::Elsewhere);
        let address = compare(
            "x",
            None,
            vec![
                reading("a", "http", "127.0.0.1", None),
                reading("b", "http", "0x7f.1", None),
            ],
        );
        assert_eq!(address.verdict(), Verdict::Elsewhere);
        assert_ne!(address.disagreements[0].class, Some(Class::SameDestination));
    }

    #[test]
    fn fewer_than_two_readings_compare_nothing() {
        let alone = compare(
            "x",
            None,
            vec![
                host("a", Some("h")),
                ("b".into(), Answer::unavailable("not installed")),
            ],
        );
        assert_eq!(alone.verdict(), Verdict::NothingToCompare);
        assert_eq!(alone.readings(), 1);
        // A failure is a reading; a missing parser is not.
        let failed = compare(
            "x",
            None,
            vec![
                ("a".into(), Answer::failed(None, "no")),
                ("b".into(), Answer::unavailable("not installed")),
            ],
        );
        assert_eq!(failed.verdict(), Verdict::NothingToCompare);
        assert_eq!(compare("x", None, Vec::new()).agree(), None);
        let both_fail = compare(
            "x",
            None,
            vec![
                ("a".into(), Answer::failed(None, "no")),
                ("b".into(), Answer::failed(None, "nor I")),
            ],
        );
        assert_eq!(both_fail.verdict(), Verdict::Agree);
    }

    #[test]
    fn what_a_library_does_not_give_is_no_reading() {
        let reading = |name: &str, user: Option<&str>| {
            (
                name.to_owned(),
                Answer {
                    available: true,
                    scheme: Some("http".into()),
                    host: Some("h".into()),
                    username: user.map(str::to_owned),
                    fragment: user.map(str::to_owned),
                    ..Answer::default()
                },
            )
        };
        // The http crate's Uri has no userinfo and drops the fragment.
        let c = compare(
            "http://u@h/#u",
            None,
            vec![reading("whatwg", Some("u")), reading("http", None)],
        );
        assert_eq!(c.disagreements, []);
        assert!(!c.differs_from_reference("http", Component::Username));
        // Another parser's null there is a reading of its own.
        let c = compare(
            "http://u@h/#u",
            None,
            vec![reading("whatwg", Some("u")), reading("rust-url", None)],
        );
        let components: Vec<Component> = c.disagreements.iter().map(|d| d.component).collect();
        assert_eq!(components, [Component::Username, Component::Fragment]);
        assert!(c.differs_from_reference("rust-url", Component::Username));
    }
}
