//! The trace as JSON: one object per step, with the buffer as an edit of the previous one.

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::{BufferEdit, StepView, Trace};
use crate::trace::HostEvent;
use crate::url::explain::{HostStep, SpecStep};
use crate::url::state::Phase;

struct SerStep<'a> {
    view: StepView<'a>,
    buffer: BufferEdit<'a>,
    /// The trace's input, which tells a host failure's step apart.
    input: &'a str,
}

impl Serialize for SerStep<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = &self.view;
        let mut s = serializer.serialize_struct("Step", 13)?;
        s.serialize_field("state", &v.phase)?;
        s.serialize_field("pointer", &v.pointer)?;
        // c is a code point, or "EOF"; the preprocessing steps have no pointer and no c.
        let c = match (v.phase, v.c) {
            (Phase::State(_), Some(c)) => Some(String::from(c)),
            (Phase::State(_), None) => Some("EOF".to_owned()),
            _ => None,
        };
        s.serialize_field("c", &c)?;
        s.serialize_field("buffer", &self.buffer)?;
        s.serialize_field("spec_steps", &v.spec_steps)?;
        // The step that decided what this step did (the last it cited), and every cited step
        // with its explanation.
        let spec = v.spec();
        s.serialize_field("spec", &spec.map(SpecJson))?;
        s.serialize_field("explanation", &spec.and_then(|s| s.explanation))?;
        s.serialize_field("explained", &Explained(v))?;
        s.serialize_field("changes", &v.changes)?;
        s.serialize_field("pointer_moves", &v.pointer_moves)?;
        s.serialize_field("errors", &v.errors)?;
        s.serialize_field("host", &HostEventsJson(v, self.input))?;
        s.serialize_field("next", &v.next)?;
        s.end()
    }
}

impl Serialize for Trace {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len))?;
        let mut result = Ok(());
        self.for_each_with_buffer_edit(|view, buffer| {
            if result.is_ok() {
                result = seq.serialize_element(&SerStep {
                    view,
                    buffer,
                    input: &self.input,
                });
            }
        });
        result?;
        seq.end()
    }
}

/// `{"state", "step", "url"}` for a cited step.
struct SpecJson(SpecStep);

impl Serialize for SpecJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Spec", 3)?;
        s.serialize_field("state", self.0.section_name())?;
        s.serialize_field("step", self.0.number)?;
        s.serialize_field("url", &self.0.url().to_string())?;
        s.end()
    }
}

/// Every step a trace step cited: `[{"step", "explanation"}]`.
struct Explained<'v, 'a>(&'v StepView<'a>);

impl Serialize for Explained<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.spec_steps.len()))?;
        for step in self.0.explained() {
            seq.serialize_element(&StepJson(step))?;
        }
        seq.end()
    }
}

struct StepJson(SpecStep);

impl Serialize for StepJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Explained", 2)?;
        s.serialize_field("step", self.0.number)?;
        s.serialize_field("explanation", &self.0.explanation)?;
        s.end()
    }
}

/// A step's host sub-steps: each event's own keys, and the step of the standard it took
/// (`"spec": {"algorithm", "step", "url"}`) with its `"explanation"`.
struct HostEventsJson<'v, 'a>(&'v StepView<'a>, &'v str);

impl Serialize for HostEventsJson<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let steps = self.0.host_steps(self.1);
        let mut seq = serializer.serialize_seq(Some(steps.len()))?;
        for (event, step) in self.0.host_events.iter().zip(steps) {
            seq.serialize_element(&HostEventJson {
                event,
                explanation: step.as_ref().map(|s| s.explanation.as_str()),
                spec: step.as_ref().map(HostSpecJson),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct HostEventJson<'a> {
    #[serde(flatten)]
    event: &'a HostEvent,
    spec: Option<HostSpecJson<'a>>,
    explanation: Option<&'a str>,
}

/// `{"algorithm", "step", "url"}` for a host sub-step.
struct HostSpecJson<'a>(&'a HostStep);

impl Serialize for HostSpecJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("HostSpec", 3)?;
        s.serialize_field("algorithm", self.0.name())?;
        s.serialize_field("step", self.0.number)?;
        s.serialize_field("url", &self.0.link.to_string())?;
        s.end()
    }
}
