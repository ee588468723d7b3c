//! Where answers go: one JSON message per call of the page's handler, for every game's
//! requests alike.

use serde_json::{Value, json};

/// Where answers go: one JSON message per call.
pub type Sink<'a> = dyn FnMut(&str) + 'a;

pub(crate) fn send(sink: &mut Sink<'_>, message: &Value) {
    sink(&message.to_string());
}

pub(crate) fn error(sink: &mut Sink<'_>, field: &str, message: &str) {
    send(
        sink,
        &json!({"type": "error", "field": field, "message": message}),
    );
}
