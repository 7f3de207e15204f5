//! The trace as JSON: one object per step, with the buffer as an edit of the previous one.

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::{BufferEdit, StepView, Trace};
use crate::url::state::Phase;

struct SerStep<'a> {
    view: StepView<'a>,
    buffer: BufferEdit<'a>,
}

impl Serialize for SerStep<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = &self.view;
        let mut s = serializer.serialize_struct("Step", 10)?;
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
        s.serialize_field("changes", &v.changes)?;
        s.serialize_field("pointer_moves", &v.pointer_moves)?;
        s.serialize_field("errors", &v.errors)?;
        s.serialize_field("host", &v.host_events)?;
        s.serialize_field("next", &v.next)?;
        s.end()
    }
}

impl Serialize for Trace {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.steps.len()))?;
        let mut result = Ok(());
        self.for_each_with_buffer_edit(|view, buffer| {
            if result.is_ok() {
                result = seq.serialize_element(&SerStep { view, buffer });
            }
        });
        result?;
        seq.end()
    }
}
