//! The JSON document: the public contract (add fields, never rename or remove them).

use crate::Report;

pub fn to_json(report: &Report) -> String {
    memval_proto::display::json_safe(&(serde_json::to_string_pretty(report).expect("report serialises") + "\n"))
}
