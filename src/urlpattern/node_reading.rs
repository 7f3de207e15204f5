//! Node's reading of a URL pattern, beside ours: its own `URLPattern` (Node 24 and later), else
//! urlpattern-polyfill from urlscope's cache (`CACHE/npm`, where `scripts/setup` installs it),
//! asked through `assets/parsers/urlpattern.js` with the differential's adapter machinery (one
//! process, JSON lines, timeouts and restarts).
//!
//! `pattern --json` asks it in line ([`read`]); the inspector asks it in the background
//! ([`Background`]), so that no keystroke waits for a process.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread;

use serde_json::{json, Value};

use super::report::{self, PatternReport};
use crate::diff::adapter::{Adapter, AdapterSpec, Launch, Timeouts};

const NODE_URLPATTERN: &str = include_str!("../../assets/parsers/urlpattern.js");

/// The adapter: started on its first request.
pub fn adapter() -> Adapter {
    let spec = AdapterSpec {
        name: "node-urlpattern".to_owned(),
        launch: Launch::Script {
            runtime: "node",
            file: "urlpattern.js",
            source: NODE_URLPATTERN,
            args: &[],
        },
    };
    Adapter::new(spec, Timeouts::default())
}

/// What to ask Node, taken from a report: the constructor's and exec's arguments, and ours to
/// compare its answer with.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pattern: Vec<Value>,
    inputs: Vec<Value>,
    has_input: bool,
    ours: Value,
}

impl Question {
    /// `None` when the pattern or the input cannot be put to Node (JSON that is not an object).
    pub fn of(report: &PatternReport) -> Option<Question> {
        Some(Question {
            pattern: report.pattern_arguments()?,
            inputs: report.input_arguments()?,
            has_input: report.input.is_some(),
            ours: report.comparable_answer(),
        })
    }
}

/// Node's answer to `question`, as `pattern --json` writes it: `reader`, `available`,
/// `agrees` (only when it answered: never without two readings) and its `answer` or `error`.
pub fn answer(adapter: &mut Adapter, question: &Question) -> Value {
    match adapter.exchange(json!({"pattern": question.pattern, "inputs": question.inputs})) {
        Err(why) => json!({"reader": adapter.version(), "available": false, "agrees": null,
                           "error": why}),
        Ok(mut theirs) => {
            if let Value::Object(o) = &mut theirs {
                o.remove("id");
            }
            if !question.has_input {
                // exec() with no argument is not what the report shows: the pattern only.
                theirs["test"] = Value::Null;
                theirs["match"] = Value::Null;
            }
            let agrees = report::agrees(&question.ours, &theirs);
            json!({"reader": adapter.version(), "available": true, "agrees": agrees,
                   "answer": theirs})
        }
    }
}

/// Node's answer for `report` (see [`answer`]).
pub fn read(adapter: &mut Adapter, report: &PatternReport) -> Value {
    match Question::of(report) {
        Some(question) => answer(adapter, &question),
        None => json!({"reader": null, "available": false, "agrees": null,
                       "error": "not asked: the input is not a URL nor a URLPatternInit"}),
    }
}

/// Node's answer in a line for a screen: who read it and whether it agrees, or why there is
/// no reading.
pub fn in_words(reading: &Value, ours: &Value) -> (Option<bool>, String) {
    let reader = reading["reader"].as_str().unwrap_or("node");
    if reading["available"] != Value::Bool(true) {
        let why = reading["error"].as_str().unwrap_or("no answer");
        return (None, format!("{reader}: no reading ({why})"));
    }
    match reading["agrees"].as_bool() {
        Some(true) => (Some(true), format!("{reader}: agrees")),
        Some(false) => (
            Some(false),
            format!(
                "{reader}: differs: {}",
                report::summary(ours, &reading["answer"])
            ),
        ),
        None => (None, format!("{reader}: no comparison")),
    }
}

/// Asks Node on a thread of its own: [`Background::ask`] never waits, and only the latest
/// question is answered (a question typed over is dropped unanswered).
#[derive(Debug)]
pub struct Background {
    questions: Sender<(u64, Question)>,
    answers: Receiver<(u64, Value)>,
    asked: u64,
    /// Whether the latest question was put to Node (not when there is no pattern to ask about).
    sent: bool,
    /// The latest question's number and answer, once it has come.
    latest: Option<(u64, Value)>,
}

impl Background {
    /// Starts the thread; the adapter starts with the first question. The thread ends (and
    /// stops the adapter's process) when this is dropped.
    pub fn start() -> std::io::Result<Background> {
        Background::start_with(adapter())
    }

    /// [`Background::start`] asking `adapter` rather than Node's.
    pub(crate) fn start_with(mut adapter: Adapter) -> std::io::Result<Background> {
        let (questions, inbox) = mpsc::channel::<(u64, Question)>();
        let (outbox, answers) = mpsc::channel();
        thread::Builder::new()
            .name("node-urlpattern".to_owned())
            .spawn(move || {
                while let Ok(mut next) = inbox.recv() {
                    // Typed over: only the newest question matters.
                    while let Ok(newer) = inbox.try_recv() {
                        next = newer;
                    }
                    let (number, question) = next;
                    if outbox
                        .send((number, answer(&mut adapter, &question)))
                        .is_err()
                    {
                        break;
                    }
                }
            })?;
        Ok(Background {
            questions,
            answers,
            asked: 0,
            sent: false,
            latest: None,
        })
    }

    /// Asks about `report` (or about nothing, for no pattern): the answer to an earlier
    /// question no longer counts.
    pub fn ask(&mut self, report: Option<&PatternReport>) {
        self.asked += 1;
        self.latest = None;
        self.sent = match report.and_then(Question::of) {
            Some(question) => self.questions.send((self.asked, question)).is_ok(),
            None => false,
        };
    }

    /// Takes the answers that have arrived, never waiting; true when the latest came now.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        loop {
            match self.answers.try_recv() {
                Ok((number, value)) if number == self.asked => {
                    self.latest = Some((number, value));
                    changed = true;
                }
                Ok(_) => {}
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return changed,
            }
        }
    }

    /// The answer to the latest question, once it has come.
    pub fn answer(&self) -> Option<&Value> {
        self.latest.as_ref().map(|(_, v)| v)
    }

    /// Whether the latest question was asked and is still to be answered.
    pub fn pending(&self) -> bool {
        self.sent && self.latest.is_none()
    }
}
